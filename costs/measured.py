"""Capacity a preview request consumed, computed from the items it actually read and wrote.

The endpoint's own ConsumedCapacity is kept beside it but labelled by its source: moto's figure is
hard-coded rather than computed from the data (docs/stack-notes.md §1), so it is never shown as DynamoDB's.
Measured units follow the same rules as the estimate (costs.units, dynamodb-rules §1.2, §2, §4.1)
applied to the real item sizes and counts, so the difference between the two is the difference
between the model's assumptions (item sizes, items read) and the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from costs.capacity import CapacityProfile
from costs.item_size import item_size_bytes
from costs.units import (
    RequestUnits,
    batch_get_item_units,
    batch_write_item_units,
    delete_item_units,
    get_item_units,
    index_write_units,
    put_item_units,
    query_units,
    transact_get_items_units,
    transact_write_items_units,
    update_item_units,
)
from modeling.design.plans import Operation
from modeling.endpoint.adapter import EndpointKind
from modeling.model import Consistency
from modeling.preview.runner import PatternRun, WrittenItem

_REPORTED_BY = {EndpointKind.EMBEDDED: "moto (a fixed figure, not computed from the data)",
                EndpointKind.CUSTOM: "the configured endpoint", EndpointKind.AWS: "DynamoDB (AWS)"}


@dataclass(frozen=True)
class MeasuredCapacity:
    pattern: str
    measured: RequestUnits  # from the items read and written
    estimated: RequestUnits  # from the model (costs.capacity)
    items_read_measured: int
    items_read_estimated: float
    read_bytes_measured: int  # mean size of what was read (item or index entry)
    reported_units: Decimal | None  # the endpoint's ConsumedCapacity total, if it sent one
    reported_by: str
    explanation: str


def measured_units(run: PatternRun) -> RequestUnits:
    """Units of one executed request under DynamoDB's rules, from the sizes of what it touched."""
    consistency = Consistency.STRONG if run.consistent_read else Consistency.EVENTUAL
    pages = [[_size(item) for item in page] for page in run.read_pages]
    sizes = [size for page in pages for size in page]
    operation = run.operation
    if operation is Operation.GET_ITEM:
        return get_item_units(sizes[0] if sizes else 0, consistency)
    if operation in (Operation.QUERY, Operation.SCAN):
        total = RequestUnits()
        for page in pages or [[]]:
            total += query_units(page, consistency)  # each page is rounded on its own (§1.2)
        return total
    if operation is Operation.BATCH_GET_ITEM:
        return batch_get_item_units(sizes, consistency)
    if operation is Operation.TRANSACT_GET_ITEMS:
        return transact_get_items_units(sizes)
    return _write_units(operation, run.writes)


def _write_units(operation: Operation, writes: Sequence[WrittenItem]) -> RequestUnits:
    table = RequestUnits()
    if not writes:  # the write was not executed (its request could not be built or was refused)
        return table
    if operation is Operation.PUT_ITEM:
        table = put_item_units(_size(writes[0].after))
    elif operation is Operation.UPDATE_ITEM:
        table = update_item_units(_size(writes[0].before), _size(writes[0].after))
    elif operation is Operation.DELETE_ITEM:
        table = delete_item_units(_size(writes[0].before))
    elif operation is Operation.BATCH_WRITE_ITEM:
        table = batch_write_item_units([_size(w.after or w.before) for w in writes])
    elif operation is Operation.TRANSACT_WRITE_ITEMS:
        table = transact_write_items_units([_size(w.after or w.before) for w in writes])
    # dynamodb-rules §4.1: a put, a delete, or both when the entry's key changed; sized on the entry
    index_units = sum((index_write_units(e.change, _size(e.after), _size(e.before))
                       for w in writes for e in w.index_entries), Decimal(0))
    return table + RequestUnits(write_units=index_units)


def _size(item: dict[str, Any] | None) -> int:
    return item_size_bytes(item) if item else 0


def reported_units(run: PatternRun) -> Decimal | None:
    """The endpoint's ConsumedCapacity total over the run's pages, when it reported one."""
    totals = [Decimal(str(entry.get("CapacityUnits", 0))) for entry in run.reported_capacity]
    return sum(totals, Decimal(0)) if totals else None


def measure(run: PatternRun, profile: CapacityProfile, endpoint_kind: EndpointKind) -> MeasuredCapacity:
    estimate = next((p for p in profile.patterns if p.pattern == run.pattern), None)
    estimated = RequestUnits(estimate.read_units_per_request,
                             estimate.write_units_per_request + sum((u for _, u in
                                                                     estimate.index_write_units_per_request),
                                                                    Decimal(0))) if estimate else RequestUnits()
    measured = measured_units(run)
    read_items = [item for page in run.read_pages for item in page if item]
    mean_bytes = round(sum(map(_size, read_items)) / len(read_items)) if read_items else 0
    items_estimated = estimate.items_read_per_request if estimate else 0.0
    return MeasuredCapacity(run.pattern, measured, estimated, len(read_items), items_estimated, mean_bytes,
                            reported_units(run), _REPORTED_BY[endpoint_kind],
                            _explanation(run, measured, estimated, len(read_items), items_estimated))


def _explanation(run: PatternRun, measured: RequestUnits, estimated: RequestUnits, items_read: int,
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
