"""Capacity units of one planned request: the one estimator the checks, hot partitions and costs share.

A plan (`modeling.design.plans.PatternPlan`) says which operation runs, on which index, how many items it reads
or writes and which index writes it causes; `modeling.design.sizing.Sizes` says how big each item and index entry
is. The rules are `modeling.dynamodb_rules` (dynamodb-rules §1.1, §1.2, §2, §4.1, §4.2). The cost engine
prices these units; the checks and the hot-partition analysis turn them into loads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal

from modeling.design.plans import Operation, PatternPlan
from modeling.design.sizing import Sizes, mean_bytes
from modeling.dynamodb_rules import (
    TRANSACTION_FACTOR,
    index_write_units,
    read_units,
    write_unit_blocks,
    write_units,
)
from modeling.model import KeyDesign, Model, ProjectionType


def _weights(plan: PatternPlan) -> list[tuple[str, float]]:
    """Each entity's share of the items read (equal shares when the plan gives none)."""
    return list(plan.entity_shares) or [(e, 0.0) for e in plan.entities]


def read_units_per_request(model: Model, design: KeyDesign, plan: PatternPlan, sizes: Sizes) -> Decimal:
    """Read units one request of a read plan consumes (on the table, a GSI or an LSI).

    For a write: the strongly consistent GetItems the application makes first (the version an optimistic
    lock checks), and for an item its inputs cannot address the read that finds its key (`plan.locate`, a
    Scan when nothing else fits); an ADD or a plain write reads nothing (writes consume write units only, §1.2).
    """
    if plan.operation.is_write:
        locating = sum((read_units_per_request(model, design, read, sizes) for read in plan.locate if read is not None),
                       Decimal(0))
        if plan.write is None or not plan.write.reads_before_write:
            return locating
        own = [m for m in plan.write.members if m.reads_first]
        return locating + sum((read_units(Operation.GET_ITEM, 1, sizes.item_bytes(m.entity), True) for m in own),
                              Decimal(0))
    item = mean_bytes(sizes.average_bytes_by_entity, _weights(plan))
    if plan.through is not None:  # §1.2: two GetItems, the uniqueness item and the owner's, each rounded alone
        return uniqueness_read_units_per_request(plan) + read_units(Operation.GET_ITEM, 1, item, plan.consistent_read)
    if plan.operation is Operation.SCAN:  # §1.2: every item evaluated, sizes added, rounded once
        table_bytes = _table_bytes(model, sizes)
        return read_units(Operation.SCAN, 1, table_bytes, plan.consistent_read)
    if plan.operation in (Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS) and len(plan.entities) > 1:
        return _per_item(plan, sizes, math.ceil(plan.items_read_per_request),
                         lambda size: read_units(plan.operation, 1, size, plan.consistent_read))
    if plan.operation is not Operation.QUERY:
        return read_units(plan.operation, max(1.0, math.ceil(plan.items_read_per_request)), item,
                          plan.consistent_read)
    entries = {e: float(sizes.entry_bytes(plan.index, e)) for e in plan.entities}
    entry = mean_bytes(entries, _weights(plan))
    fetched = math.ceil(plan.items_read_per_request) if _lsi_fetches(model, design, plan) else 0
    return read_units(Operation.QUERY, plan.items_read_per_request, item, plan.consistent_read, entry, fetched)


def uniqueness_read_units_per_request(plan: PatternPlan) -> Decimal:
    """Read units of the GetItem on the uniqueness item a read goes through (`plan.through`), in that item's own
    partition; 0 for any other plan (dynamodb-rules §1.2)."""
    if plan.through is None:
        return Decimal(0)
    return read_units(Operation.GET_ITEM, 1, plan.through.item_bytes, plan.consistent_read)


def fetch_units_per_request(plan: PatternPlan, sizes: Sizes) -> Decimal:
    """Read units of the GetItem/BatchGetItem that fetches the base items after a GSI query whose entries lack
    what the pattern uses (`plan.fetch`), charged to the table: each item the query returns is read on its own,
    rounded up to 4 KB, eventually consistent (dynamodb-rules §1.2, §4.1). 0 without a fetch, or when the query
    returns nothing to fetch."""
    items = plan.items_fetched_per_request
    if plan.fetch is None or items <= 0:
        return Decimal(0)
    item = mean_bytes(sizes.average_bytes_by_entity, _weights(plan))
    # a request fetches whole items: an average of 8.2 returned is 9 fetched on the requests that fetch most,
    # counted up as an LSI's fetches are (`_lsi_fetches`)
    return read_units(Operation.BATCH_GET_ITEM, math.ceil(items), item, False)


def _table_bytes(model: Model, sizes: Sizes) -> int:
    """Bytes in the whole table, worked out once per (model, sizes): every Scan plan reads it."""
    cached = sizes.__dict__.get("_table_bytes")
    if cached is None or cached[0] is not model.entities:
        cached = (model.entities, sum(e.item_count * sizes.item_bytes(e.name) for e in model.entities))
        sizes.__dict__["_table_bytes"] = cached
    return cached[1]


def _lsi_fetches(model: Model, design: KeyDesign, plan: PatternPlan) -> bool:
    """An LSI read fetches the whole base item when the pattern needs unprojected attributes (§4.2)."""
    index = next((i for i in design.local_secondary_indexes if i.name == plan.index), None)
    pattern = model.access_pattern(plan.pattern)
    if index is None or pattern is None or index.projection.type is ProjectionType.ALL:
        return False
    return not pattern.returns or not set(pattern.returns) <= set(index.projection.non_key_attributes)


def write_units_per_request(plan: PatternPlan, sizes: Sizes) -> Decimal:
    """Table write units of one write request: ceil(item / 1 KB) per item, x2 in a transaction (§1.2, §2).

    A write with members (conditions, auxiliary items, transaction members) costs each member on its own:
    uniqueness and auxiliary items are extra writes, each rounded up to 1 KB alone and doubled in a
    transaction (§2). A failed condition is charged the same (§1.2), so this is the cost of every attempt.
    """
    if plan.write is not None and (plan.write.transactional or len(plan.write.members) > 1):
        factor = TRANSACTION_FACTOR if plan.write.transactional else 1
        total = sum((Decimal(write_unit_blocks(m.item_bytes if m.item_bytes is not None
                                               else sizes.item_bytes(m.entity))) * factor
                     * Decimal(repr(m.items_per_request)) for m in plan.write.members), Decimal(0))
        return total if total == total.to_integral_value() else total.quantize(Decimal("0.000001")).normalize()
    if plan.operation in (Operation.BATCH_WRITE_ITEM, Operation.TRANSACT_WRITE_ITEMS) and len(plan.entities) > 1:
        return _per_item(plan, sizes, math.ceil(plan.items_written_per_request),
                         lambda size: write_units(plan.operation, 1, size))
    item = mean_bytes(sizes.average_bytes_by_entity, [(e, 0.0) for e in plan.entities])
    return write_units(plan.operation, plan.items_written_per_request, item)


def _per_item(plan: PatternPlan, sizes: Sizes, count: int, units_of_one: Callable[[int], Decimal]) -> Decimal:
    """Units of `count` items spread evenly over the plan's entities, each item rounded on its own at its
    entity's size (§1.2, §2: per item, never the rounded average; the model gives no per-entity count)."""
    per_entity = [units_of_one(sizes.item_bytes(e)) for e in plan.entities]
    total = sum(per_entity, Decimal(0)) * max(count, 1) / len(per_entity)
    return total.quantize(Decimal("0.000001")).normalize()


def index_write_units_per_request(plan: PatternPlan, sizes: Sizes) -> tuple[tuple[str, Decimal], ...]:
    """(index, write units) per request: each index write sized on its entry, rounded to 1 KB (§4.1)."""
    result = []
    for write in plan.index_writes:
        entries = {e: float(sizes.entry_bytes(write.index, e)) for e in plan.entities}
        entry = mean_bytes(entries, [(e, 0.0) for e in plan.entities])
        per_item = index_write_units(write.kind, entry) * Decimal(repr(write.share_of_items))
        units = per_item * Decimal(repr(plan.items_written_per_request))
        result.append((write.index, units.quantize(Decimal("0.000001"))))
    return tuple(result)

