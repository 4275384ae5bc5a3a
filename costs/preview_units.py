"""Capacity units of a preview request: what it consumed under DynamoDB's rules, from the sizes of the items it
actually read and wrote, and what the model estimated for it (`costs.capacity`).

The cost engine's side of the preview's measured capacity (`modeling.preview.measured`, which never imports
`costs`): `CAPACITY_RULES` implements its `CapacityRules`, and the application layer (`studio.preview`) passes it
in. Units follow `costs.units` (dynamodb-rules §1.2, §2, §4.1) applied to the real item sizes and counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from costs.capacity import PatternCapacity, capacity_profile
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
from modeling.design.plans import Design, Operation
from modeling.model import Consistency, Model
from modeling.preview.measured import CapacityRules, Estimate
from modeling.preview.runner import PatternRun, WrittenItem


def measured_units(run: PatternRun) -> RequestUnits:
    """Units of one executed request under DynamoDB's rules, from the sizes of what it touched (with the
    fetch of the base items after a GSI query, when the plan makes one)."""
    return _request_units(run) + _fetch_units(run)


def _request_units(run: PatternRun) -> RequestUnits:
    consistency = Consistency.STRONG if run.consistent_read else Consistency.EVENTUAL
    pages = [[_size(item) for item in page] for page in run.read_pages]
    sizes = [size for page in pages for size in page]
    operation = run.operation
    if operation is Operation.GET_ITEM:  # one GetItem per page: two for a read through a uniqueness item
        total = RequestUnits()
        for size in sizes or [0]:
            total += get_item_units(size, consistency)
        return total
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


def _fetch_units(run: PatternRun) -> RequestUnits:
    """The follow-up BatchGetItem of the base items after a GSI query that lacks what the pattern uses: each
    item rounded up to 4 KB on its own, eventually consistent (§1.2, §4.1)."""
    if not run.fetched:
        return RequestUnits()
    return batch_get_item_units([_size(item) for item in run.fetched], Consistency.EVENTUAL)


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


def estimated(estimate: PatternCapacity | None) -> Estimate:
    """One request of a pattern as the model estimates it (`costs.capacity`): table and index writes together."""
    units = RequestUnits(estimate.read_units_per_request + estimate.fetch_read_units_per_request,
                         estimate.write_units_per_request + sum((u for _, u in
                                                                 estimate.index_write_units_per_request),
                                                                Decimal(0))) if estimate else RequestUnits()
    return Estimate(units, estimate.items_read_per_request if estimate else 0.0)


class _CostEngineCapacity:
    """`modeling.preview.measured.CapacityRules` by the cost engine's estimate and units."""

    def estimates(self, model: Model, design: Design) -> Callable[[str], Estimate]:
        profile = capacity_profile(model, design)

        def estimate(pattern: str) -> Estimate:
            return estimated(next((p for p in profile.patterns if p.pattern == pattern), None))
        return estimate

    def consumed(self, run: PatternRun) -> RequestUnits:
        return measured_units(run)


CAPACITY_RULES: CapacityRules = _CostEngineCapacity()
