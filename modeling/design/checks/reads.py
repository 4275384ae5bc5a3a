"""DDS2xx rules, reads: Scans, filters that discard most of what they read, strong reads on GSIs,
BatchGetItem rounding, and indexes that do not project what a pattern reads.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from modeling.design.checks.catalogue import ERROR, WARNING, Finding, data_size, finding, number, percent
from modeling.design.checks.context import Context, Rule, existing_entities, template_names
from modeling.design.checks.estimates import READ_BLOCK_BYTES, read_units_per_request
from modeling.design.generator import MAX_DISCARDED_SHARE
from modeling.design.planner import plan_pattern
from modeling.design.plans import TABLE, Operation
from modeling.dynamodb_rules import EVENTUAL_READ_FACTOR
from modeling.model import Consistency, ProjectionType


def _scans(ctx: Context) -> Iterator[Finding]:
    """DDS201: a pattern that only a Scan can serve (§1.2: charged on every item evaluated)."""
    for pattern, plan in ctx.plans():
        if plan.operation is not Operation.SCAN:
            continue
        units, rate = read_units_per_request(ctx, plan), pattern.traffic.peak_requests_per_second
        inputs = ", ".join((*pattern.inputs, *(f.attribute for f in pattern.filters))) or "none"
        yield finding("DDS201", f"access_patterns[{pattern.name}]", (
            f"No table key or index is built from {pattern.name}'s inputs ({inputs}), so it needs a Scan that reads "
            f"all {number(plan.items_read_per_request)} items to return {number(plan.items_returned_per_request)}: "
            f"≈ {number(units)} RCU per request, {number(units * rate)} RCU/s at {number(rate)} requests/s peak "
            "(approximate)."),
            pattern=pattern.name)


def _wasteful_filters(ctx: Context) -> Iterator[Finding]:
    """DDS202: a Query whose filter throws away most of what it reads (and pays for)."""
    for pattern, plan in ctx.plans():
        read, discarded = plan.items_read_per_request, plan.discarded_share
        if plan.operation is Operation.SCAN or discarded < MAX_DISCARDED_SHARE:
            continue
        returned = read * (1 - discarded)
        filtered = ", ".join(part.split(" = ")[0] for part in plan.filter_expression.split(" AND "))
        units = read_units_per_request(ctx, plan)
        yield finding("DDS202", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} reads ≈ {number(read)} items per request (p99 {number(plan.items_read_p99)}) to return "
            f"≈ {number(returned)}: the filter on {filtered} discards {percent(discarded)} of them, yet all "
            f"≈ {number(units)} RCU per request are paid ({number(units * pattern.traffic.peak_requests_per_second)} "
            f"RCU/s at peak; approximate). How the items read were estimated: {plan.items_read_derivation}."),
            pattern=pattern.name, index=None if plan.index == TABLE else plan.index)


def _strong_reads_on_gsis(ctx: Context) -> Iterator[Finding]:
    """DDS203: a strongly consistent pattern planned on a GSI, or left to a Scan because only a GSI fits."""
    for pattern, plan in ctx.plans():
        if pattern.consistency is not Consistency.STRONG or not pattern.kind.is_read:
            continue
        path = ctx.paths.get(plan.index)
        gsi = plan.index if path is not None and path.is_global else None
        if gsi is None and plan.operation is Operation.SCAN:
            relaxed = plan_pattern(ctx.model, ctx.design.key_design,
                                   pattern.model_copy(update={"consistency": Consistency.EVENTUAL}))
            fits = ctx.paths.get(relaxed.index)
            gsi = relaxed.index if relaxed.operation is not Operation.SCAN and fits and fits.is_global else None
        if gsi is not None:
            yield finding("DDS203", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} asks for strongly consistent reads, but only {gsi} (a GSI, eventually consistent) "
                f"is keyed on its inputs ({', '.join(pattern.inputs) or 'none'})."
                + (" It falls back to a Scan." if plan.operation is Operation.SCAN else "")),
                pattern=pattern.name, index=gsi)


def _batch_get_rounding(ctx: Context) -> Iterator[Finding]:
    """DDS204: BatchGetItem rounds each item up to 4 KB; small items cost more than their total size suggests."""
    for pattern, plan in ctx.plans():
        entities = existing_entities(ctx, plan.entities)
        if plan.operation is not Operation.BATCH_GET_ITEM or plan.items_read_per_request <= 1 or not entities:
            continue
        size = ctx.item_bytes[entities[0].name]
        factor = 1.0 if plan.consistent_read else float(EVENTUAL_READ_FACTOR)  # §1.1
        per_item = read_units_per_request(ctx, plan)
        together = math.ceil(plan.items_read_per_request * size / READ_BLOCK_BYTES) * factor  # §1.2 Query rule
        if per_item > together:
            yield finding("DDS204", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} fetches {number(plan.items_read_per_request)} items of ≈ {data_size(size)}: "
                f"BatchGetItem rounds each up to {data_size(READ_BLOCK_BYTES)}, ≈ {number(per_item)} RCU per request, "
                f"not the {number(together)} RCU their total size suggests."), pattern=pattern.name)


def _projection_gaps(ctx: Context) -> Iterator[Finding]:
    """DDS205: a read on an index that does not project what the pattern uses."""
    for pattern, plan in ctx.plans():
        path = ctx.paths.get(plan.index)
        if plan.operation.is_write or path is None or path.name == TABLE or path.projection is ProjectionType.ALL:
            continue
        entities = existing_entities(ctx, plan.entities)
        needed = set(pattern.returns) or {a.name for e in entities for a in e.attributes}
        available = set(ctx.indexes[path.name].projection.non_key_attributes)
        for keys in (ctx.keys[e.name] for e in entities if e.name in ctx.keys):
            on_index = keys.indexes.get(path.name)
            available |= template_names(keys.table.partition_key, keys.table.sort_key,
                                        *((on_index.partition_key, on_index.sort_key) if on_index else ()))
        missing = sorted(needed - available)
        if not missing:
            continue
        how = ("a GSI cannot fetch them: the application needs another read per item" if path.is_global else
               f"the LSI fetches each whole item from the table, each read rounded up to {data_size(READ_BLOCK_BYTES)}")
        if plan.fetch is not None:  # the plan makes that read, and the estimate prices it: a cost, not an error
            how = (f"the plan fetches the {number(plan.items_fetched_per_request)} item(s) with {plan.fetch} after "
                   f"the query, each rounded up to {data_size(READ_BLOCK_BYTES)} and charged to the table")
        assumed = "" if pattern.returns else " (it lists no `returns`, so it is taken to use whole items)"
        yield finding("DDS205", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} reads {path.name} ({path.projection}), which lacks {', '.join(missing[:6])}"
            f"{' ...' if len(missing) > 6 else ''}{assumed}; {how}."),
            severity=ERROR if path.is_global and pattern.returns and plan.fetch is None else WARNING,
            pattern=pattern.name, index=path.name)


RULES: tuple[Rule, ...] = (
    _scans, _wasteful_filters, _strong_reads_on_gsis, _batch_get_rounding, _projection_gaps,
)
