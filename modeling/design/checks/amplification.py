"""DDS304-DDS307 and DDS313, write amplification: what every write pays in indexes, indexes that do not earn
it, and ALL-projected GSIs rewritten by every counter change or version bump.

Index writes follow dynamodb-rules §4.1 (a put when an item enters an index, a delete plus a put when an
index key changes, one write when only projected attributes change, each sized on the index entry and
rounded to 1 KB); a GSI's writes use its own capacity, an LSI's the table's (§4.2). Monthly figures are
units over the 730-hour month (§0.2) at each pattern's average rate; pricing them is the cost engine's job.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from modeling.design import plan_units
from modeling.design.checks.catalogue import Finding, finding, number, percent
from modeling.design.checks.context import Context, Rule, changed_attributes, template_names
from modeling.design.checks.writes import is_counter
from modeling.design.planner import membership_share
from modeling.design.plans import IndexChange, PatternPlan
from modeling.dynamodb_rules import SECONDS_PER_MONTH
from modeling.model import AccessPattern, ConditionKind, EntityKeys, KeyTemplates, ProjectionType, SecondaryIndex

# An ALL-projected GSI holding at least this share of the table's items is "most of the table" (our choice).
MOST_OF_THE_TABLE = 0.5


def index_write_units_per_month(ctx: Context, pattern: AccessPattern,
                                plan: PatternPlan) -> tuple[tuple[str, str, float], ...]:
    """(index, who pays, write units a month) for one write pattern at its average rate (§4.1, §4.2, §0.2).

    The figure the cost engine can price: WRU on-demand, or the WCU-seconds a provisioned index must serve.
    """
    rate = pattern.traffic.average_requests_per_second
    result = []
    for index, units in plan_units.index_write_units_per_request(plan, ctx.sizes):
        path = ctx.paths.get(index)
        payer = f"{index} (its own write capacity)" if path is not None and path.is_global else \
            f"the table (LSI {index} writes use the table's capacity)"
        result.append((index, payer, float(units) * rate * SECONDS_PER_MONTH))
    return tuple(result)


def _index_writes_per_write(ctx: Context) -> Iterator[Finding]:
    """DDS304: a write pattern that causes more than one index write per item written."""
    for pattern, plan in ctx.plans():
        per_item = sum(w.writes_per_item for w in plan.index_writes)
        if not plan.operation.is_write or per_item <= 1:
            continue
        kinds = ", ".join(f"{w.index} {number(w.writes_per_item)} ({w.kind.value.replace('_', ' ')})"
                          for w in plan.index_writes)
        payers = index_write_units_per_month(ctx, pattern, plan)
        bill = "; ".join(f"{payer} ≈ {number(units)} write units a month" for _, payer, units in payers)
        yield finding("DDS304", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} writes {number(per_item)} index entries per item written ({kinds}) on top of the table "
            f"write. At {number(pattern.traffic.average_requests_per_second)} requests/s on average: {bill}."),
            pattern=pattern.name, index=plan.index_writes[0].index)


def _index_repeats_table_keys(ctx: Context) -> Iterator[Finding]:
    """DDS305: an entity's index keys are its table keys: every read it serves the table serves already."""
    for keys in ctx.design.key_design.entities:
        for index, templates in keys.indexes.items():
            path = ctx.paths.get(index)
            if path is None:
                continue
            same_sort = (templates.sort_key or None) == (keys.table.sort_key or None)
            same = same_sort and (not path.is_global or templates.partition_key == keys.table.partition_key)
            if same and not templates.only_when and not _groups_differently(ctx, keys, path.templates):
                yield finding("DDS305", f"key_design.entities[{keys.entity}].indexes[{index}]", (
                    f"{index} keys {keys.entity} exactly as the table does ({keys.table.partition_key} / "
                    f"{keys.table.sort_key or '(none)'}): any Query on it reads what the same Query on the table "
                    f"reads, yet every write of a {keys.entity} also writes {index}."),
                    index=index)


def _groups_differently(ctx: Context, keys: EntityKeys, on_index: Mapping[str, KeyTemplates]) -> bool:
    """The index puts the entity in one partition with entities the table keeps apart from it (an account with
    its repositories): a Query there reads a collection the table does not hold, so the keys do not repeat."""
    partition = on_index[keys.entity].partition_key
    together = {name for name, t in on_index.items() if t.partition_key == partition}
    on_table = {k.entity for k in ctx.design.key_design.entities if k.table.partition_key == keys.table.partition_key}
    return bool(together - on_table)


def _shape(index: SecondaryIndex) -> tuple[bool, ProjectionType, tuple[str, ...]]:
    return (index.sort_key is not None, index.projection.type, index.projection.non_key_attributes)


def _mergeable_gsis(ctx: Context) -> Iterator[Finding]:
    """DDS306: GSIs over different entities with the same key shape and projection: one overloaded GSI."""
    gsis = list(ctx.design.key_design.global_secondary_indexes)
    used: set[str] = set()
    for first in gsis:
        if first.name in used:
            continue
        group = [first]
        for other in gsis:
            if other.name in used or other is first or _shape(other) != _shape(first):
                continue
            if all(_disjoint(ctx, member, other) for member in group):
                group.append(other)
        if len(group) < 2:
            continue
        used |= {g.name for g in group}
        names = [g.name for g in group]
        held = "; ".join(f"{g.name}: {', '.join(sorted(ctx.paths[g.name].templates))}" for g in group)
        yield finding("DDS306", f"key_design.global_secondary_indexes[{names[0]}]", (
            f"{', '.join(names)} hold different entities ({held}) with the same key shape and projection "
            f"({first.projection.type}): one overloaded GSI with generic key attributes would serve all "
            f"{len(names)}, leaving {len(names) - 1} fewer of the 20 GSIs a table may have and one index to "
            "provision and watch instead of several. The index writes stay the same."),
            index=names[0])


def _disjoint(ctx: Context, first: SecondaryIndex, second: SecondaryIndex) -> bool:
    """No entity in both, and no partition-key template in both (their key values cannot collide)."""
    a, b = ctx.paths[first.name].templates, ctx.paths[second.name].templates
    return not set(a) & set(b) and not {t.partition_key for t in a.values()} & {t.partition_key for t in b.values()}


def _all_projection_over_most_of_the_table(ctx: Context) -> Iterator[Finding]:
    """DDS307: an ALL-projected GSI that holds most of the table's items: a second copy of most of the table."""
    table_items = sum(e.item_count for e in ctx.model.entities)
    if table_items <= 0:
        return
    for index in ctx.design.key_design.global_secondary_indexes:
        if index.projection.type is not ProjectionType.ALL:
            continue
        entries = entry_bytes = 0.0
        for name, templates in ctx.paths[index.name].templates.items():
            entity = ctx.entity(name)
            if entity is not None:
                count = entity.item_count * membership_share(entity, templates.only_when)
                entries += count
                entry_bytes += count * ctx.sizes.entry_bytes(index.name, name)
        share = entries / table_items
        if share >= MOST_OF_THE_TABLE:
            yield finding("DDS307", f"key_design.global_secondary_indexes[{index.name}]", (
                f"{index.name} projects ALL and holds ≈ {percent(share)} of the table's items ({number(entries)} of "
                f"{number(table_items)}, ≈ {number(entry_bytes / 1024**3)} GB of entries): a second copy of most of "
                f"the table, stored and written again on every write of those items."),
                index=index.name)


def _counter_and_version_names(ctx: Context, pattern: AccessPattern) -> set[str]:
    """The version attributes the pattern's optimistic locks bump, and its counter-like Numbers (DDS302's test)."""
    conditions = [pattern.condition, *(m.condition for m in pattern.members)]
    versions = {c.attribute for c in conditions if c is not None and c.kind is ConditionKind.VERSION_MATCHES}
    counters = {name for entity, changed in changed_attributes(ctx, pattern) for name in changed
                if is_counter(entity.attribute(name))}
    return {n for n in versions | counters if n}


def _only_counters_rewrite(ctx: Context, pattern: AccessPattern, index: str) -> tuple[str, ...]:
    """The counters and versions of an update that changes nothing else its entities project into `index`
    (and no key there): the attributes whose updates alone rewrite the index entries. Empty otherwise."""
    counted = _counter_and_version_names(ctx, pattern)
    found: set[str] = set()
    for entity, changed in changed_attributes(ctx, pattern):
        keys = ctx.keys.get(entity.name)
        templates = keys.indexes.get(index) if keys else None
        if templates is None:
            continue
        if changed & template_names(templates.partition_key, templates.sort_key) or not changed <= counted:
            return ()
        found |= changed
    return tuple(sorted(found))


def _counters_rewrite_all_projection(ctx: Context) -> Iterator[Finding]:
    """DDS313: an ALL-projected GSI whose entries are rewritten by updates that change only counters or versions."""
    gsis = [i.name for i in ctx.design.key_design.global_secondary_indexes if i.projection.type is ProjectionType.ALL]
    totals: dict[str, float] = {}
    rewrites: dict[str, list[tuple[str, tuple[str, ...], float]]] = {}
    for pattern, plan in ctx.plans():
        if not plan.operation.is_write:
            continue
        kinds = {w.index: w.kind for w in plan.index_writes}
        for index, _, units in index_write_units_per_month(ctx, pattern, plan):
            totals[index] = totals.get(index, 0.0) + units
            if index not in gsis or kinds.get(index) is not IndexChange.PROJECTED_ONLY or units <= 0:
                continue
            if names := _only_counters_rewrite(ctx, pattern, index):
                rewrites.setdefault(index, []).append((pattern.name, names, units))
    for index in gsis:
        found = rewrites.get(index)
        if not found:
            continue
        units = sum(u for _, _, u in found)
        which = "; ".join(f"{name} ({', '.join(names)}) ≈ {number(u)}" for name, names, u in found)
        counted = sorted({n for _, names, _ in found for n in names})
        yield finding("DDS313", f"key_design.global_secondary_indexes[{index}]", (
            f"{index} projects ALL, so every update of {', '.join(counted)} rewrites its entry: ≈ {number(units)} "
            f"of its ≈ {number(totals[index])} write units a month ({percent(units / totals[index])}) at the "
            f"patterns' average rates: {which}. Paid with {index}'s own write capacity (on-demand: WRU)."),
            pattern=found[0][0], index=index,
            fix=(f"Project {index} KEYS_ONLY, or INCLUDE only what its patterns return, leaving out "
                 f"{', '.join(counted)}: these updates then write only the table (≈ {number(units)} fewer write "
                 "units a month). Or read the items through their uniqueness item (a GetItem by the unique value, "
                 "then the item) instead of this index."))


RULES: tuple[Rule, ...] = (_index_writes_per_write, _index_repeats_table_keys, _mergeable_gsis,
                           _all_projection_over_most_of_the_table, _counters_rewrite_all_projection)
