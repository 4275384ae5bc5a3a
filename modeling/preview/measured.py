"""Capacity a preview request consumed, computed from the items it actually read and wrote.

The endpoint's own ConsumedCapacity is kept beside it but labelled by its source: moto's figure is
hard-coded rather than computed from the data (docs/stack-notes.md §1), so it is never shown as DynamoDB's.
Measured units follow the same rules as the estimate (dynamodb-rules §1.2, §2, §4.1) applied to the real item
sizes and counts, so the difference between the two is the difference between the model's assumptions (item
sizes, items read) and the data.

The units themselves are the cost engine's (`costs.units`, `costs.capacity`), which `modeling` never imports:
they come in through `CapacityRules`, implemented by `costs.preview_units.CAPACITY_RULES` and passed in by the
application layer (`studio.preview`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from modeling.design.plans import Design, Operation
from modeling.endpoint.adapter import EndpointKind
from modeling.item_size import item_size_bytes
from modeling.model import Model
from modeling.preview.runner import PatternRun

_REPORTED_BY = {EndpointKind.EMBEDDED: "moto (a fixed figure, not computed from the data)",
                EndpointKind.CUSTOM: "the configured endpoint", EndpointKind.AWS: "DynamoDB (AWS)"}


class Units(Protocol):
    """Units one request consumes (`costs.units.RequestUnits`): read (RCU or RRU) and write (WCU or WRU)."""

    @property
    def read_units(self) -> Decimal: ...

    @property
    def write_units(self) -> Decimal: ...


@dataclass(frozen=True)
class Estimate:
    """The model's estimate of one request of a pattern: its units (table and index writes) and the items it reads."""

    units: Units
    items_read: float


class CapacityRules(Protocol):
    """What measuring a preview request takes from the cost engine (`costs.preview_units.CAPACITY_RULES`)."""

    def estimates(self, model: Model, design: Design) -> Callable[[str], Estimate]:
        """The model's estimate of a pattern's request, by the pattern's name (no units for a pattern the design
        has no plan for)."""
        ...

    def consumed(self, run: PatternRun) -> Units:
        """Units of the executed request under DynamoDB's rules, from the sizes of what it touched."""
        ...


@dataclass(frozen=True)
class MeasuredCapacity:
    pattern: str
    measured: Units  # from the items read and written
    estimated: Units  # from the model (costs.capacity)
    items_read_measured: int
    items_read_estimated: float
    read_bytes_measured: int  # mean size of what was read (item or index entry)
    reported_units: Decimal | None  # the endpoint's ConsumedCapacity total, if it sent one
    reported_by: str
    explanation: str


def reported_units(run: PatternRun) -> Decimal | None:
    """The endpoint's ConsumedCapacity total over the run's pages, when it reported one."""
    totals = [Decimal(str(entry.get("CapacityUnits", 0))) for entry in run.reported_capacity]
    return sum(totals, Decimal(0)) if totals else None


def measure(run: PatternRun, estimate: Estimate, endpoint_kind: EndpointKind, rules: CapacityRules) -> MeasuredCapacity:
    """The run's units, measured by `rules` from what it touched, beside the model's `estimate` of the pattern."""
    estimated = estimate.units
    measured = rules.consumed(run)
    read_items = [item for page in run.read_pages for item in page if item]
    mean_bytes = round(sum(map(item_size_bytes, read_items)) / len(read_items)) if read_items else 0
    items_estimated = estimate.items_read
    return MeasuredCapacity(run.pattern, measured, estimated, len(read_items), items_estimated, mean_bytes,
                            reported_units(run), _REPORTED_BY[endpoint_kind],
                            _explanation(run, measured, estimated, len(read_items), items_estimated))


def _explanation(run: PatternRun, measured: Units, estimated: Units, items_read: int,
                 items_estimated: float) -> str:
    if run.operation.is_write:
        if measured.write_units == estimated.write_units:
            return "the same as the estimate"
        return ("the written items' sizes (and the indexes they entered or left) differ from the model's averages; "
                "the estimate also spreads sparse-index writes over all items")
    if measured.read_units == estimated.read_units:
        return "the same as the estimate"
    if run.operation in (Operation.QUERY, Operation.SCAN) and round(items_estimated) != items_read:
        return (f"the request read {items_read} item(s) in the preview data; the estimate assumes "
                f"{items_estimated:g} (expected_items and the production item counts in the model)")
    return "the items' sizes in the data differ from the model's average sizes"
