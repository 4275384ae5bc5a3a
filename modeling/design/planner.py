"""Planning access patterns against a key design: which operation, which index, which key condition.

Works the same for a generated design and for one the user wrote: for every pattern it looks at each
access path (the table and each index), keeps the paths that can answer the pattern from its inputs,
and picks the cheapest (GetItem before Query before index Query; no filter before filter). A pattern
no path can answer becomes a Scan, flagged as not served.

How many items a read reads (mean, 99th percentile, pages) comes from the data's shape
(`modeling.design.items_read`), with a derivation that says which figures are assumptions.
A strongly consistent read is never planned on a GSI (dynamodb-rules §4.1); when only a GSI could
serve it, the plan is a Scan and its reason says so.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import compress
from operator import is_not

from modeling.design.index_fetch import entry_attributes, fetch_operation, fetch_reason
from modeling.design.items_read import ItemsRead, KeyRead, SortUse, estimate_query, value_share
from modeling.design.key_ranges import sort_key_range
from modeling.design.keys import KeyTemplate, key_range, missing_key_attributes
from modeling.design.plans import TABLE, IndexChange, IndexWrite, Operation, PatternPlan
from modeling.design.uniqueness_reads import read_through_uniqueness, readable_through_uniqueness
from modeling.dynamodb_rules import PAGE_BYTES, attribute_bytes
from modeling.model import (
    AccessPattern,
    AttributeFilter,
    Consistency,
    Entity,
    EntityKeys,
    KeyAttribute,
    KeyAttributeType,
    KeyDesign,
    KeyTemplates,
    Model,
    PatternKind,
    ProjectionType,
    RangeOperator,
    SecondaryIndex,
    SortOrder,
    TransactAction,
    derived_index,
)
from modeling.number_text import number
from modeling.write_semantics import (
    ITEM,
    UnaddressedItem,
    WritePlan,
    has_write_semantics,
    unaddressed_items,
    write_plan,
)

_RANGE_SYNTAX = {
    RangeOperator.EQUALS: "{sk} = :{p}",
    RangeOperator.BEGINS_WITH: "begins_with({sk}, :{p})",
    RangeOperator.BETWEEN: "{sk} BETWEEN :{p}_from AND :{p}_to",
    RangeOperator.LESS_THAN: "{sk} < :{p}",
    RangeOperator.LESS_THAN_OR_EQUAL: "{sk} <= :{p}",
    RangeOperator.GREATER_THAN: "{sk} > :{p}",
    RangeOperator.GREATER_THAN_OR_EQUAL: "{sk} >= :{p}",
}
_OPEN_RANGES = frozenset({RangeOperator.LESS_THAN, RangeOperator.LESS_THAN_OR_EQUAL, RangeOperator.GREATER_THAN,
                          RangeOperator.GREATER_THAN_OR_EQUAL})
_WRITE_OPERATIONS = {
    PatternKind.WRITE: Operation.PUT_ITEM, PatternKind.UPDATE: Operation.UPDATE_ITEM,
    PatternKind.DELETE: Operation.DELETE_ITEM, PatternKind.BATCH_WRITE: Operation.BATCH_WRITE_ITEM,
    PatternKind.TRANSACT_WRITE: Operation.TRANSACT_WRITE_ITEMS,
}


@dataclass(frozen=True)
class AccessPath:
    """The table or one index, with the key attribute names and each entity's templates on it."""

    name: str
    partition_key: str
    sort_key: str | None
    is_global: bool
    projection: ProjectionType
    templates: dict[str, KeyTemplates]
    non_key_attributes: tuple[str, ...] = ()  # projected by an INCLUDE index
    text_sort: bool = True  # the sort key holds strings (or binary): it sorts by bytes, not by number value

    @cached_property
    def by_partition(self) -> dict[str, dict[str, KeyTemplates]]:
        """Partition-key template -> the entities keyed by it, in `templates` order: the entities one Query can
        read together (looked up per pattern; scanning every entity each time was quadratic)."""
        groups: dict[str, dict[str, KeyTemplates]] = {}
        for entity, templates in self.templates.items():
            groups.setdefault(templates.partition_key, {})[entity] = templates
        return groups


def access_paths(design: KeyDesign) -> list[AccessPath]:
    """The table and every index of a design. Planning asks for them once per access pattern, and building them
    is linear in the entities, so they are kept with the design (quadratic on a 2,000-entity model otherwise)."""
    global _last_built
    parts = (design.entities, design.global_secondary_indexes, design.local_secondary_indexes,
             design.partition_key, design.sort_key)
    cached = design.__dict__.get("_access_paths")
    if cached is None or any(a is not b for a, b in zip(cached[0], parts, strict=True)):
        # model_copy(update=...) copies __dict__: a cache built for other parts is stale and rebuilt
        previous = _last_built
        paths = _updated_paths(previous, design) if previous is not None else None
        cached = (parts, tuple(paths if paths is not None else _build_access_paths(design)))
        design.__dict__["_access_paths"] = cached
        _last_built = (design, cached[1])
    return list(cached[1])


# The design whose paths were built last. The generator adds indexes one pattern at a time and plans the next
# pattern on the new design: a design that differs from this one only in a few entities' index keys gets its
# paths by updating this one's, instead of a rebuild linear in the entities per index added.
_last_built: tuple[KeyDesign, tuple[AccessPath, ...]] | None = None
_MAX_UPDATED_ENTITIES = 8  # more changed entities than this: a rebuild


def _updated_paths(previous: tuple[KeyDesign, tuple[AccessPath, ...]],
                   design: KeyDesign) -> list[AccessPath] | None:
    """`design`'s paths derived from the last built design's, or None when a full build is needed.

    Allowed only when both designs have the same key attribute names, the new index lists extend the old ones
    (the same objects), the same number of entities, and the entities that differ (found by identity, in C)
    are few, keep their name and their table keys, and appear once. Everything else keeps its paths; the
    result is the same as a full build (tests/modeling/test_model_lookup.py compares them).
    """
    old, old_paths = previous
    if (old.partition_key != design.partition_key or old.sort_key != design.sort_key
            or len(old.entities) != len(design.entities)
            or not _extends(old.global_secondary_indexes, design.global_secondary_indexes)
            or not _extends(old.local_secondary_indexes, design.local_secondary_indexes)):
        return None
    changed = list(compress(range(len(design.entities)), map(is_not, old.entities, design.entities)))
    if len(changed) > _MAX_UPDATED_ENTITIES:
        return None
    names = [design.entities[i].entity for i in changed]
    if any(old.entities[i].entity != design.entities[i].entity or old.entities[i].table != design.entities[i].table
           for i in changed):
        return None
    positions = _entity_positions(old)
    if positions is None:
        return None  # a name repeated in the design: the rebuild's first-position, last-value rule applies
    old_gsis = len(old.global_secondary_indexes)
    old_indexes = [*old.global_secondary_indexes, *old.local_secondary_indexes]
    kept = []
    for index, path in zip(old_indexes, old_paths[1:], strict=True):
        for i, name in zip(changed, names, strict=True):
            before, after = old.entities[i].indexes.get(index.name), design.entities[i].indexes.get(index.name)
            if before is not after:
                path = _with_entity(path, name, after if after is None or path.is_global else KeyTemplates(
                    partition_key=design.entities[i].table.partition_key, sort_key=after.sort_key,
                    only_when=after.only_when), positions)
        kept.append(path)
    added_gsis = design.global_secondary_indexes[old_gsis:]
    added_lsis = design.local_secondary_indexes[len(old.local_secondary_indexes):]
    per_index = _index_templates(design) if added_gsis or added_lsis else {}
    design.__dict__["_entity_positions"] = positions
    return [old_paths[0], *kept[:old_gsis],  # the table's templates did not change; GSIs come before LSIs
            *(_index_path(design, i, True, per_index.get(i.name, {})) for i in added_gsis),
            *kept[old_gsis:], *(_index_path(design, i, False, per_index.get(i.name, {})) for i in added_lsis)]


def _extends(before: tuple[SecondaryIndex, ...], after: tuple[SecondaryIndex, ...]) -> bool:
    return len(after) >= len(before) and all(a is b for a, b in zip(before, after, strict=False))


def _entity_positions(design: KeyDesign) -> dict[str, int] | None:
    """Entity -> its place in the design, None when a name repeats (kept with the design)."""
    positions = design.__dict__.get("_entity_positions")
    if positions is None:
        positions = {keys.entity: i for i, keys in enumerate(design.entities)}
        if len(positions) != len(design.entities):
            return None
        design.__dict__["_entity_positions"] = positions
    return positions


def _with_entity(path: AccessPath, entity: str, templates: KeyTemplates | None,
                 positions: dict[str, int]) -> AccessPath:
    """The path with one entity's templates put (in design order) or removed (None); its groups kept up."""
    updated = replace(path, templates=_put(path.templates, entity, templates, positions))
    groups = path.__dict__.get("by_partition")
    if groups is not None:  # update the groups too rather than regroup every entity
        groups = dict(groups)
        previous = path.templates.get(entity)
        if previous is not None and templates is not None and previous.partition_key == templates.partition_key:
            groups[previous.partition_key] = _put(groups[previous.partition_key], entity, templates, positions)
        elif previous is not None:
            group = _put(groups[previous.partition_key], entity, None, positions)
            if group:
                groups[previous.partition_key] = group
            else:
                del groups[previous.partition_key]
        if templates is not None and (previous is None or previous.partition_key != templates.partition_key):
            groups[templates.partition_key] = _put(groups.get(templates.partition_key, {}), entity, templates,
                                                   positions)
        updated.__dict__["by_partition"] = groups
    return updated


def _put(found: dict[str, KeyTemplates], entity: str, templates: KeyTemplates | None,
         positions: dict[str, int]) -> dict[str, KeyTemplates]:
    """A copy of `found` (keys in design order) with `entity` set to `templates`, or left out for None."""
    result = dict(found)
    if templates is None:
        result.pop(entity, None)
        return result
    if entity in result or not result or positions[next(reversed(result))] < positions[entity]:
        result[entity] = templates  # replaced in place, or appended after every other
        return result
    # inserted at its place: every step in C (a sort keyed by a Python function made this quadratic again)
    items = list(result.items())
    items.insert(bisect_left(list(map(positions.__getitem__, result)), positions[entity]), (entity, templates))
    return dict(items)


def _index_templates(design: KeyDesign) -> dict[str, dict[str, KeyTemplates]]:
    """Index name -> entity -> its templates there, in the design's entity order, in one pass over the entities
    (one pass per index made each rebuild cost entities x indexes)."""
    found: dict[str, dict[str, KeyTemplates]] = {}
    for keys in design.entities:
        for name, templates in keys.indexes.items():
            found.setdefault(name, {})[keys.entity] = templates  # the last wins, as a dict display would
    return found


def _build_access_paths(design: KeyDesign) -> list[AccessPath]:
    table = AccessPath(TABLE, design.partition_key.name, design.sort_key.name if design.sort_key else None,
                       False, ProjectionType.ALL, {k.entity: k.table for k in design.entities},
                       text_sort=_text_sort(design.sort_key))
    paths = [table]
    per_index = _index_templates(design)
    for index, is_global in [*((i, True) for i in design.global_secondary_indexes),
                             *((i, False) for i in design.local_secondary_indexes)]:
        paths.append(_index_path(design, index, is_global, per_index.get(index.name, {})))
    return paths


def _index_path(design: KeyDesign, index: SecondaryIndex, is_global: bool,
                templates: dict[str, KeyTemplates]) -> AccessPath:
    if not is_global:  # an LSI shares the table's partition key template
        table_keys: dict[str, str] = {}
        for keys in design.entities:
            table_keys.setdefault(keys.entity, keys.table.partition_key)
        templates = {entity: KeyTemplates(partition_key=table_keys[entity],
                                          sort_key=t.sort_key, only_when=t.only_when)
                     for entity, t in templates.items()}
    return AccessPath(index.name, index.partition_key.name, index.sort_key.name if index.sort_key else None,
                      is_global, index.projection.type, templates, index.projection.non_key_attributes,
                      _text_sort(index.sort_key))


def _text_sort(sort_key: KeyAttribute | None) -> bool:
    return sort_key is None or sort_key.type is not KeyAttributeType.N


# --- reads ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Match:
    """How well one path answers one read pattern (lower score is better)."""

    path: AccessPath
    key_condition: str
    exact_item: bool  # every key attribute known: one item
    unmatched: tuple[str, ...]  # inputs and filters the keys do not use (become a FilterExpression)
    score: tuple[int, ...]
    entity: str = ""  # the entity whose templates the key condition was built from
    sort_use: SortUse = SortUse.NONE
    known_sort: tuple[str, ...] = ()  # leading sort-key attributes the condition fixes


def plan_patterns(model: Model, design: KeyDesign) -> tuple[PatternPlan, ...]:
    memo = _plan_memo(model)
    return tuple(_remembered_plan(model, memo, design, pattern) for pattern in model.access_patterns)


def plan_pattern(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    """The plan of one pattern, remembered with the model for the part of the design it depends on.

    The generator plans every pattern again after each index it adds, and the key-design search builds
    dozens of layouts that differ in one entity's keys: most plans repeat. A plan depends on the model and
    only on `_plan_inputs(design, pattern)`, so it is planned once per model and those inputs."""
    return _remembered_plan(model, _plan_memo(model), design, pattern)


def _plan_memo(model: Model) -> _PlanMemo:
    return derived_index(model, "plan_memo", _PLANNED_FROM, lambda m: _PlanMemo({}, {}, {}))


def _remembered_plan(model: Model, memo: _PlanMemo, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    key = (id(pattern), _plan_inputs(model, memo, design, pattern))
    hit = memo.plans.get(key)
    if hit is not None and hit[0] is pattern:  # the entry holds the pattern, so its id is not reused
        return hit[1]
    plan = _plan_uncached(model, design, pattern)
    if len(memo.plans) >= _MAX_CACHED_PLANS:
        memo.plans.clear()
        memo.unaddressed.clear()
    memo.plans[key] = (pattern, plan)
    return plan


@dataclass(frozen=True, eq=False)  # kept in the model's __dict__, which pydantic's == compares: by identity
class _PlanMemo:
    """Plans of one model by what they were planned from, and which of its writes have semantics."""

    plans: dict[tuple[object, ...], tuple[AccessPattern, PatternPlan]]
    semantics: dict[str, bool]
    # a plain write's entities' keys -> whether it leaves an item it writes unaddressed (`unaddressed_items` reads
    # only those keys; the search asked it again for every layout, a quarter of its time on a 17-pattern model)
    unaddressed: dict[tuple[object, ...], bool]

    def has_write_semantics(self, model: Model, pattern: str) -> bool:
        if pattern not in self.semantics:
            self.semantics[pattern] = has_write_semantics(model, pattern)
        return self.semantics[pattern]


# The model fields a plan reads (entities, relationships' cardinalities, patterns by name, the table's TTL
# attribute for soft deletes): a model_copy that changes none of them (say, of key_design) shares the plans.
_PLANNED_FROM = ("entities", "relationships", "access_patterns", "table")
_MAX_CACHED_PLANS = 20_000  # per model: a long session's worth of designs, then it starts again


def _plan_inputs(model: Model, memo: _PlanMemo, design: KeyDesign, pattern: AccessPattern) -> tuple[object, ...]:
    """Everything in the design that `_plan_uncached` reads for this pattern, as plain values.

    A read looks at every path in order: its key names, whether it is global, its projection, the pattern's
    entities' templates there and, for the collection it reads, every entity keyed by the same partition
    template (`AccessPath.by_partition`). A plain write reads its entities' index templates and those
    indexes. A write with semantics (conditions, auxiliary items, members) may read any entity's keys: the
    whole design. The parts are kept with the paths and the design, which the generator reuses."""
    if pattern.kind in _WRITE_OPERATIONS:
        lookup = _write_inputs(design)
        if memo.has_write_semantics(model, pattern.name):
            return (lookup.whole(),)
        found = tuple(map(lookup.entity, pattern.entities))
        asked = (pattern.name, *found)
        unaddressed = memo.unaddressed.get(asked)
        if unaddressed is None:
            unaddressed = memo.unaddressed[asked] = bool(unaddressed_items(model, design, pattern))
        if unaddressed:  # the read that finds the key may use any path
            found += _read_inputs(design, pattern.entities)
        return found
    found = _read_inputs(design, pattern.entities)
    if pattern.name in readable_through_uniqueness(model):  # its plan may read the uniqueness item's keys
        keys = _design_lookup(design)[0].get(pattern.entities[0])
        found += (None if keys is None else tuple((n, t.memo_key()) for n, t in sorted(keys.auxiliary.items())),)
    return found


def _read_inputs(design: KeyDesign, entities: tuple[str, ...]) -> tuple[object, ...]:
    """`_path_inputs` of every path of the design, kept with the design (patterns of the same entities share it)."""
    access_paths(design)  # built or checked: its tuple, kept with the design, names this build of the paths
    paths: tuple[AccessPath, ...] = design.__dict__["_access_paths"][1]
    cached: tuple[tuple[AccessPath, ...], dict[tuple[str, ...], tuple[object, ...]]] | None = \
        design.__dict__.get("_planner_read_inputs")
    if cached is None or cached[0] is not paths:
        cached = (paths, {})
        design.__dict__["_planner_read_inputs"] = cached
    found = cached[1].get(entities)
    if found is None:
        found = cached[1][entities] = tuple(_path_inputs(path, entities) for path in paths)
    return found


def _path_inputs(path: AccessPath, entities: tuple[str, ...]) -> tuple[object, ...]:
    """What a read of `entities` reads on one path, kept with the path (paths are immutable)."""
    memo = path.__dict__.setdefault("_plan_inputs", {})
    found: tuple[object, ...] | None = memo.get(entities)
    if found is None:
        parts = []
        for name in entities:
            templates = path.templates.get(name)
            parts.append(None if templates is None else tuple(
                (other, t.memo_key()) for other, t in path.by_partition[templates.partition_key].items()))
        found = memo[entities] = (path.name, path.partition_key, path.sort_key, path.is_global, path.projection,
                                  path.non_key_attributes, path.text_sort, tuple(parts))
    return found


@dataclass(eq=False)  # kept in the design's __dict__, which pydantic's == compares: by identity (never recursing)
class _WriteInputs:
    """What a write reads in one design, per entity, worked out once per design."""

    design: KeyDesign
    entities: dict[str, object]
    json: str | None = None

    def entity(self, name: str) -> object:
        if name not in self.entities:
            by_entity, indexes = _design_lookup(self.design)
            keys = by_entity.get(name)
            self.entities[name] = None if keys is None else (keys.table.memo_key(), tuple(
                (index, t.memo_key(), _index_value(indexes.get(index))) for index, t in keys.indexes.items()))
        return self.entities[name]

    def whole(self) -> str:
        if self.json is None:
            self.json = self.design.model_dump_json()
        return self.json


def _index_value(index: SecondaryIndex | None) -> tuple[str, str] | None:
    """An index as plain values for a memo key. The model itself compared field by field on every hit (its
    __dict__ holds caches, so pydantic's fast path fails): 7 % of the search's time on the GitHub model."""
    return None if index is None else (type(index).__name__, index.model_dump_json())


def _write_inputs(design: KeyDesign) -> _WriteInputs:
    """Kept with the design like `access_paths`' cache (checked against every field: model_copy copies it)."""
    parts = (design.entities, design.global_secondary_indexes, design.local_secondary_indexes,
             design.partition_key, design.sort_key)
    cached = design.__dict__.get("_planner_write_inputs")
    if cached is None or any(a is not b for a, b in zip(cached[0], parts, strict=True)):
        cached = (parts, _WriteInputs(design, {}))
        design.__dict__["_planner_write_inputs"] = cached
    return cached[1]


def _plan_uncached(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    if pattern.kind in _WRITE_OPERATIONS:
        return _plan_write(model, design, pattern)
    matches = [m for path in access_paths(design) if (m := _match(model, path, pattern)) is not None]
    if not matches:  # a read by a unique attribute can still go through its uniqueness item (issue 28.3)
        through = read_through_uniqueness(model, design, pattern)
        return through if through is not None else _plan_scan(model, design, pattern)
    best = min(matches, key=lambda m: m.score)
    if best.exact_item and pattern.kind is not PatternKind.READ_MANY:
        best = replace(best, unmatched=())  # the key names one item
    return _with_fetch(model, design, pattern, _read_plan(model, pattern, best), best.path)


def _with_fetch(model: Model, design: KeyDesign, pattern: AccessPattern, plan: PatternPlan,
                path: AccessPath) -> PatternPlan:
    """The plan with the follow-up GetItem/BatchGetItem of the base items when it reads a GSI that does not
    project what the pattern uses (`modeling.design.index_fetch`; dynamodb-rules §4.1)."""
    if not path.is_global or path.projection is ProjectionType.ALL:
        return plan
    table = access_paths(design)[0]
    held = entry_attributes(path.projection, path.non_key_attributes,
                            (path.partition_key, path.sort_key, table.partition_key, table.sort_key))
    fetch = fetch_operation(model, pattern, held)
    if fetch is None:
        return plan
    return replace(plan, fetch=fetch, reason=plan.reason + fetch_reason(path.name, path.projection, fetch))


def _match(model: Model, path: AccessPath, pattern: AccessPattern) -> _Match | None:
    if not all(entity in path.templates for entity in pattern.entities):
        return None
    if pattern.kind in (PatternKind.BATCH_READ, PatternKind.TRANSACT_READ) and path.name != TABLE:
        return None  # BatchGetItem and TransactGetItems take table keys only
    if pattern.consistency is Consistency.STRONG and path.is_global:
        return None  # dynamodb-rules §4.1: GSIs are eventually consistent only
    templates = [path.templates[e] for e in pattern.entities]
    if len({t.partition_key for t in templates}) > 1:
        return None  # the entities do not share an item collection on this path
    conditions = {(c.attribute, str(c.equals)) for t in templates for c in t.only_when}
    wanted = {(f.attribute, str(f.equals)) for f in pattern.filters}
    if not conditions <= wanted:
        return None  # a sparse path leaves out items the pattern wants
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    # filter values are known constants too: `status = OPEN` can be part of a key
    equal_inputs = [name for name in (*pattern.inputs, *(f.attribute for f in pattern.filters))
                    if name != range_attribute]
    if missing_key_attributes((templates[0].partition_key,), equal_inputs):
        return None  # no Query can name the partition: the pattern needs another path, or a Scan (DDS201)
    partition = KeyTemplate.parse(templates[0].partition_key)
    entity = model.entity(pattern.entities[0])
    identity = tuple(entity.identifiers) if entity is not None else ()
    match = _sort_key_match(path, pattern, templates, partition, equal_inputs, range_attribute, conditions, identity,
                            model)
    return match


def _sort_key_match(path: AccessPath, pattern: AccessPattern, templates: list[KeyTemplates],
                    partition: KeyTemplate, equal_inputs: list[str], range_attribute: str | None,
                    conditions: set[tuple[str, str]], identity: tuple[str, ...] = (),
                    model: Model | None = None) -> _Match:
    used = set(partition.attribute_names)
    condition = f"{path.partition_key} = :pk"
    exact = False
    sort_use = SortUse.NONE
    known_sort: tuple[str, ...] = ()
    sort_source = templates[0].sort_key if len(templates) == 1 else None
    if sort_source is not None and path.sort_key is not None:
        sort = KeyTemplate.parse(sort_source)
        known = 0
        while known < len(sort.attribute_names) and sort.attribute_names[known] in equal_inputs:
            known += 1
        used |= set(sort.attribute_names[:known])
        known_sort = sort.attribute_names[:known]
        exact = known == len(sort.attribute_names)
        # an index key need not be unique (dynamodb-rules §4.1): the whole key names one item only when
        # it holds the entity's identity (`{commDate}` on an index matches every item of that date)
        unique = path.name == TABLE or set(identity) <= used
        if exact and not unique:
            exact = False
            condition += f" AND {path.sort_key} = :sk"
            sort_use = SortUse.PREFIX
        elif exact:
            condition += f" AND {path.sort_key} = :sk"
            sort_use = SortUse.EXACT
        elif range_attribute and pattern.range_condition and sort.attribute_names[known] == range_attribute:
            used.add(range_attribute)  # range_attribute is the range condition's: it is set when that is
            position = [i for i, segment in enumerate(sort.segments) if segment.is_attribute][known]
            sent = sent_range_operator(pattern.range_condition.operator, prefixed=position > 0,
                                       followed=position < len(sort.segments) - 1,
                                       spanned=entities_span(path, pattern.entities, model) is not None)
            condition += " AND " + _RANGE_SYNTAX[sent].format(sk=path.sort_key, p="sk")
            sort_use = SortUse.RANGE
        elif known or sort.constant_prefix:
            condition += f" AND begins_with({path.sort_key}, :sk_prefix)"
            sort_use = SortUse.PREFIX
        elif entities_span(path, pattern.entities, model) is not None:
            # a plain value sort key (`{time}`) sharing its partition: bounded to its values' range, so the other
            # entities' keys (`EQUIPMENT`) stay out
            condition += f" AND {path.sort_key} BETWEEN :sk_from AND :sk_to"
            sort_use = SortUse.SPAN
    elif path.sort_key is None and path.name == TABLE:
        exact = True  # a table without a sort key: its partition key is the whole primary key, one item
    elif len(templates) > 1 and path.sort_key is not None and entities_span(path, pattern.entities,
                                                                             model) is not None:
        condition += f" AND {path.sort_key} BETWEEN :sk_from AND :sk_to"
        sort_use = SortUse.SPAN
    satisfied = used | {attribute for attribute, _ in conditions}
    unmatched = tuple(dict.fromkeys(n for n in equal_inputs if n not in satisfied))
    if range_attribute and range_attribute not in used:
        unmatched += (range_attribute,)
    if exact and pattern.kind is not PatternKind.READ_MANY:
        unmatched = ()  # the key names one item: the other inputs describe it, they need no filter (scored so)
    wants_one = pattern.kind is PatternKind.READ_ONE
    score = (len(unmatched), 0 if path.name == TABLE else 1 if not path.is_global else 2,
             0 if (exact and wants_one) else 1, 0 if path.projection is ProjectionType.ALL else 1)
    return _Match(path, condition, exact, unmatched, score, pattern.entities[0], sort_use, tuple(known_sort))


def sent_range_operator(operator: RangeOperator, *, prefixed: bool, followed: bool, spanned: bool) -> RangeOperator:
    """The operator a Query sends for a range on one part of a sort key: an open side is bounded (BETWEEN) by the
    key text before the part (`BOOK#`, the known parts) or by the plain values' range (`entities_span`), or other
    items come back; an equal part with key text after it is a prefix (begins_with). The plan says it and the
    Preview sends it (`modeling.preview.requests._range_condition`)."""
    if operator in _OPEN_RANGES and (prefixed or spanned):
        return RangeOperator.BETWEEN
    if operator is RangeOperator.EQUALS and followed:
        return RangeOperator.BEGINS_WITH
    return operator


def entities_span(path: AccessPath, entities: tuple[str, ...], model: Model | None = None) -> tuple[str, str] | None:
    """Sort-key bounds that hold every item of `entities` in their shared partition and no other entity's.

    A pattern reading several entities of one item collection (a repository and its issues) gets the whole
    partition from its partition key alone, other entities too (stars, forks). When the entities' sort keys
    (`REPO`, `PULL_REQUEST#{n}`) sort next to each other, with no other entity's keys between them, `BETWEEN`
    the lowest and highest of them returns exactly the entities asked for. With the model, one entity whose sort
    key is a plain value (`{time}`) gets the bounds of its values (`modeling.design.key_ranges`) when they leave
    every other entity's keys out. None when no bounds can (another entity sorts between them, or a key starts
    with an attribute the model says nothing of), or when none are needed (nothing else shares the partition)."""
    found = [path.templates.get(e) for e in entities]
    own = [t for t in found if t is not None and t.sort_key is not None]
    if path.sort_key is None or not found or len(own) < len(found):  # an entity without a sort key here
        return None
    partition = own[0].partition_key
    others = {name: t for name, t in path.by_partition.get(partition, {}).items() if name not in entities}
    if not others or any(t.sort_key is None for t in others.values()):
        return None

    def span_of(entity: str, template: str) -> tuple[str, str]:  # a Number key sorts by value: templates only
        return sort_key_range(model, entity, template) if model is not None and path.text_sort else key_range(template)

    ranges = [span_of(e, t.sort_key) for e, t in zip(entities, found, strict=True)
              if t is not None and t.sort_key is not None]
    low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
    for name, other in others.items():
        other_low, other_high = span_of(name, other.sort_key or "")
        if other_low <= high and low <= other_high:
            return None
    return low, high


def _read_plan(model: Model, pattern: AccessPattern, match: _Match) -> PatternPlan:
    path = match.path
    operation = _read_operation(pattern, match)
    read = _items_read(model, pattern, match, operation)
    returned, derivation = _items_returned(pattern, operation, read)
    filter_expression = " AND ".join(f"{name} = :{name}" for name in match.unmatched)
    reason = _read_reason(pattern, match, operation)
    return PatternPlan(
        pattern=pattern.name, operation=operation, index=path.name, entities=pattern.entities,
        key_condition="" if operation is Operation.GET_ITEM or pattern.kind.value.startswith(("batch", "transact"))
        else match.key_condition,
        filter_expression=filter_expression,
        scan_index_forward=pattern.sort_order is SortOrder.ASCENDING,
        consistent_read=pattern.consistency is Consistency.STRONG,
        items_read_per_request=read.mean, items_returned_per_request=returned,
        items_written_per_request=0.0, index_writes=(), reason=reason, items_read_p99=read.p99,
        pages_per_request=read.pages_per_request, items_read_derivation=derivation,
        filter_keeps_share=read.filter_keeps_share, entity_shares=read.entity_shares)


# Within 2 % the estimate's own rounding (a Poisson count capped by a Limit) is not worth a different figure.
_RETURNED_TOLERANCE = 1.02


def _items_returned(pattern: AccessPattern, operation: Operation, read: ItemsRead) -> tuple[float, str]:
    """Items one request returns, and the items-read derivation saying so when it is fewer than expected_items.

    A Query returns at most what it reads, less what its filter discards (dynamodb-rules §1.2). The pattern's
    expected_items is the typical answer the user expects; the items read come from the data's shape, where
    requests spread evenly over keys, most of a skewed relationship's parents hold few children and a Limit
    stops the large ones: 0.667 items read beside 3 returned was shown before (issue 28.5). The returned figure
    is then the one the estimate gives, and the derivation names both."""
    expected = pattern.expected_items
    most = read.mean * read.filter_keeps_share
    if operation is not Operation.QUERY or expected <= most * _RETURNED_TOLERANCE:
        return expected, read.derivation
    return most, (f"{read.derivation}; returns about {most:,.3g} per request, fewer than the pattern's "
                  f"expected_items ({expected:,.3g}): a Query returns at most what it reads, and the model's counts "
                  "give fewer items per key than it expects (check expected_items, the item counts and the "
                  "relationship's cardinality)")


def _items_read(model: Model, pattern: AccessPattern, match: _Match, operation: Operation) -> ItemsRead:
    """Items one request reads: one per key for Get/Batch/Transact, what the key condition matches for a Query."""
    if operation is Operation.GET_ITEM:
        return ItemsRead(1.0, 1.0, 1.0, "GetItem: the full primary key names one item")
    if operation in (Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS):
        count = pattern.expected_items
        return ItemsRead(count, count, 1.0, f"{operation}: {count:g} keys per request (expected_items), one item each")
    path = match.path
    # only the entities keyed like the pattern's own can be read by its key condition (`estimate_query`)
    collection = path.by_partition[path.templates[match.entity].partition_key]
    membership = {}
    for name, templates in collection.items():
        entity = model.entity(name)
        if entity is not None and path.name != TABLE:
            membership[name] = membership_share(entity, templates.only_when)
    read = KeyRead(collection, match.entity, match.sort_use, match.known_sort, match.unmatched, membership)
    return estimate_query(model, pattern, read, _entity_bytes(model))


def _entity_bytes(model: Model) -> dict[str, float]:
    """Attribute bytes per entity, built once per model (every Query plan reads it)."""
    return derived_index(model, "planner_entity_bytes", ("entities",),
                         lambda m: {e.name: float(attribute_bytes(e)) for e in m.entities})


def _table_totals(model: Model) -> tuple[float, int]:
    """Items and attribute bytes in the whole table, built once per model (every Scan plan reads them)."""
    return derived_index(model, "planner_table_totals", ("entities",), lambda m: (
        float(sum(e.item_count for e in m.entities)), sum(e.item_count * attribute_bytes(e) for e in m.entities)))


def _read_operation(pattern: AccessPattern, match: _Match) -> Operation:
    on_table_by_key = match.path.name == TABLE and match.exact_item
    if pattern.kind is PatternKind.BATCH_READ and on_table_by_key:
        return Operation.BATCH_GET_ITEM
    if pattern.kind is PatternKind.TRANSACT_READ and on_table_by_key:
        return Operation.TRANSACT_GET_ITEMS
    if pattern.kind is PatternKind.READ_ONE and on_table_by_key:
        return Operation.GET_ITEM
    return Operation.QUERY


def _read_reason(pattern: AccessPattern, match: _Match, operation: Operation) -> str:
    where = "the table" if match.path.name == TABLE else f"index {match.path.name}"
    if operation is Operation.GET_ITEM:
        text = f"The inputs give the full primary key, so one GetItem on {where} returns the item."
    elif operation in (Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS):
        text = f"Each item's full primary key is known, so {operation} fetches them from {where} in one request."
    elif len(pattern.entities) > 1:
        text = (f"{', '.join(pattern.entities)} share one item collection on {where}, "
                "so one Query reads them together.")
    else:
        text = f"A Query on {where} finds the items by {', '.join(pattern.inputs) or 'its constant key'}"
        text += " and keeps them in sort-key order." if pattern.range_condition else "."
    if match.unmatched:
        text += (f" {', '.join(match.unmatched)} is not part of the key, so it is a filter: "
                 "the items it discards are still read and paid for.")
    return text


def _plan_scan(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    table_items, table_bytes = _table_totals(model)
    pages = float(max(1, math.ceil(table_bytes / PAGE_BYTES)))  # 1 MB pages (dynamodb-rules §8)
    filters = [*(n for n in pattern.inputs), *(f.attribute for f in pattern.filters)]
    reason = ("No key or index is built from this pattern's inputs, so only a Scan can answer it: "
              "it reads every item in the table. Add an index keyed on its inputs.")
    if _only_a_gsi_fits(model, design, pattern):
        reason = ("This read is strongly consistent and only a GSI is keyed on its inputs, but GSIs are eventually "
                  "consistent only (AWS: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html): "
                  "no table key or LSI can serve it, so only a Scan can, "
                  "reading every item in the table. Key the table or an LSI on its inputs, or accept eventual "
                  "consistency for it.")
    return PatternPlan(
        pattern=pattern.name, operation=Operation.SCAN, index=TABLE, entities=pattern.entities,
        key_condition="", filter_expression=" AND ".join(f"{n} = :{n}" for n in filters),
        scan_index_forward=True, consistent_read=pattern.consistency is Consistency.STRONG,
        items_read_per_request=table_items, items_returned_per_request=pattern.expected_items,
        items_written_per_request=0.0, index_writes=(), served=False, reason=reason,
        items_read_p99=table_items, pages_per_request=pages,
        items_read_derivation=f"Scan: every item in the table ({table_items:,.0f}), about {pages:,.0f} page(s) of 1 MB")


def _only_a_gsi_fits(model: Model, design: KeyDesign, pattern: AccessPattern) -> bool:
    """A strongly consistent read that a GSI could serve if it were eventually consistent."""
    if pattern.consistency is not Consistency.STRONG:
        return False
    relaxed = pattern.model_copy(update={"consistency": Consistency.EVENTUAL})
    return any(path.is_global and _match(model, path, relaxed) is not None for path in access_paths(design))


# --- writes --------------------------------------------------------------------------------------


def _plan_write(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    operation = _WRITE_OPERATIONS[pattern.kind]
    entities = [e for e in (model.entity(n) for n in pattern.entities) if e is not None]
    items = pattern.expected_items if pattern.kind in (PatternKind.BATCH_WRITE, PatternKind.TRANSACT_WRITE) else 1.0
    writes = _index_writes(model, design, pattern, entities)
    which, details = "each item's", ""
    write = write_plan(model, design, pattern.name)
    if write is not None:
        operation, items, details = _semantic_write(pattern, write, operation, items)
        which = "the item's" if write.members and not pattern.members else which
    unaddressed = unaddressed_items(model, design, pattern)
    locate = tuple(_locating_read(model, design, pattern, item) for item in unaddressed)
    reason = (_unaddressed_reason(operation, unaddressed, locate) if unaddressed
              else f"{operation} on the table; the inputs give {which} primary key.") + details
    if writes:
        per_item = sum(w.writes_per_item for w in writes)
        reason += (f" Each written item also costs {number(per_item)} index write(s) in "
                   f"{', '.join(w.index for w in writes)}.")
    return PatternPlan(
        pattern=pattern.name, operation=operation, index=TABLE, entities=pattern.entities, key_condition="",
        filter_expression="", scan_index_forward=True, consistent_read=False,
        items_read_per_request=float(write.reads_before_write if write else 0) + sum(
            p.items_read_per_request for p in locate if p is not None),
        items_returned_per_request=0.0, items_written_per_request=items, index_writes=writes, reason=reason,
        items_read_p99=float(write.reads_before_write if write else 0) + sum(
            p.items_read_p99 for p in locate if p is not None),
        write=write, served=not unaddressed, unaddressed=unaddressed, locate=locate)


def _locating_read(model: Model, design: KeyDesign, pattern: AccessPattern,
                   item: UnaddressedItem) -> PatternPlan | None:
    """The read that finds an unaddressed item's key from what the request knows: planned like any read of
    one item by those attributes, so a Scan exactly when DDS201 would report one. None for a put: its item
    does not exist yet, so nothing can be read; the missing values must come with the request."""
    if item.action is TransactAction.PUT:
        return None
    finder = AccessPattern(name=pattern.name, kind=PatternKind.READ_ONE, entities=(item.entity,),
                           inputs=item.supplied, traffic=pattern.traffic)
    return _plan_uncached(model, design, finder)


def _unaddressed_reason(operation: Operation, unaddressed: tuple[UnaddressedItem, ...],
                        locate: tuple[PatternPlan | None, ...]) -> str:
    parts = []
    for item, read in zip(unaddressed, locate, strict=True):
        text = (f"{item.entity} ({item.partition_key} / {item.sort_key or '(no sort key)'}) needs "
                f"{', '.join(item.missing)}, which the inputs do not give")
        parts.append(f"{text}; {locating_words(item, read)}")
    return (f"{operation} takes each item's full primary key, but " + "; ".join(parts)
            + ". Add the missing attributes to the inputs, or key the entity by what the inputs give.")


def locating_words(item: UnaddressedItem, read: PatternPlan | None) -> str:
    """What the application must do before an unaddressed write, in words (the plan's reason, DDS312)."""
    if read is None:
        return "a put creates its item, so these values must come with the request"
    how = ("a Scan of every item in the table" if read.operation is Operation.SCAN
           else f"a {read.operation} on {'the table' if read.index == TABLE else 'index ' + read.index}")
    return f"the application must first find the key with {how}"


def _semantic_write(pattern: AccessPattern, write: WritePlan, operation: Operation,
                    items: float) -> tuple[Operation, float, str]:
    """The operation, items written and the reason's details of a write with conditions, updates or auxiliary
    items (its expressions, extra items and notes)."""
    if write.transactional:
        operation = Operation.TRANSACT_WRITE_ITEMS
    elif pattern.soft_delete is not None:
        operation = Operation.UPDATE_ITEM  # a soft delete marks the item and keeps it
    if pattern.members or write.transactional:  # the pattern's own items: its uniqueness, aggregate, copy and
        items = write.own_items_per_request      # archive items are priced as members, never as index entries
    elif pattern.kind is PatternKind.BATCH_WRITE:
        items = pattern.expected_items
    own = write.members[0] if write.members else None
    reason = ""
    if own is not None and not pattern.members:
        if own.update_expression:
            reason += f" UpdateExpression {own.update_expression}."
        if own.condition_expression:
            reason += (f" ConditionExpression {own.condition_expression}: a failed condition still consumes "
                       "write units (AWS: "
                       "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).")
    extras = [m for m in write.members if m.item != ITEM]
    if extras:
        reason += (" The same request writes " + "; ".join(f"{m.item} ({m.action.value}, {m.why})" for m in extras)
                   + ": each is an extra write, and in a transaction every member costs 2x, rounded on its own "
                     "(AWS: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html).")
    if pattern.members:
        reason += f" {len(write.members)} transaction member(s), each rounded on its own and costing 2x."
    for note in write.notes:
        reason += f" Note: {note}."
    return operation, items, reason


def _index_writes(model: Model, design: KeyDesign, pattern: AccessPattern,
                  entities: list[Entity]) -> tuple[IndexWrite, ...]:
    """Index writes per written item, averaged over the pattern's entities (dynamodb-rules §4.1)."""
    per_index: dict[str, list[IndexWrite]] = {}
    for entity in entities:
        for write in _entity_index_writes(model, design, pattern, entity):
            per_index.setdefault(write.index, []).append(write)
    result = []
    for index, writes in per_index.items():
        # one IndexWrite per index: the heaviest kind, its share scaled so that the mean writes per
        # written item over the pattern's entities (0 for entities not in the index) is kept
        heaviest = max(writes, key=lambda w: w.writes_per_item)
        multiplier = heaviest.kind.writes
        mean_writes = sum(w.writes_per_item for w in writes) / len(entities)
        result.append(IndexWrite(index, heaviest.kind, round(mean_writes / multiplier, 6), heaviest.reason))
    return tuple(result)


def _entity_index_writes(model: Model, design: KeyDesign, pattern: AccessPattern, entity: Entity) -> list[IndexWrite]:
    by_entity, indexes = _design_lookup(design)
    keys = by_entity.get(entity.name)
    if keys is None:
        return []
    writes = []
    for name, templates in keys.indexes.items():
        index = indexes.get(name)
        if index is None:
            continue
        share = membership_share(entity, templates.only_when)
        write = _index_write(pattern, index, templates, share)
        if write is not None:
            writes.append(write)
    return writes


def _index_write(pattern: AccessPattern, index: SecondaryIndex, templates: KeyTemplates,
                 share: float) -> IndexWrite | None:
    if pattern.kind in (PatternKind.WRITE, PatternKind.BATCH_WRITE, PatternKind.TRANSACT_WRITE):
        return IndexWrite(index.name, IndexChange.ENTERS, share, "a new item enters the index")
    if pattern.kind is PatternKind.DELETE:
        return IndexWrite(index.name, IndexChange.LEAVES, share, "the item leaves the index")
    changed = set(pattern.changed)
    key_attributes = set(KeyTemplate.parse(templates.partition_key).attribute_names)
    if templates.sort_key:
        key_attributes |= set(KeyTemplate.parse(templates.sort_key).attribute_names)
    if changed & key_attributes:
        return IndexWrite(index.name, IndexChange.KEY_CHANGES, share,
                          f"{', '.join(sorted(changed & key_attributes))} is part of the index key: "
                          "the old entry is deleted and a new one put")
    if changed & {c.attribute for c in templates.only_when}:  # once per item in the index (costs.capacity)
        return IndexWrite(index.name, IndexChange.ENTERS, share, "the change rewrites the entry of an item in "
                          "the sparse index, or deletes it when the item moves out")
    projected = (index.projection.type is ProjectionType.ALL
                 or changed & set(index.projection.non_key_attributes))
    if projected and changed:
        return IndexWrite(index.name, IndexChange.PROJECTED_ONLY, share, "a projected attribute changes")
    return None


def _design_lookup(design: KeyDesign) -> tuple[dict[str, EntityKeys], dict[str, SecondaryIndex]]:
    """Entity -> its keys (the first listed, as a scan finds) and index name -> index, built once per design:
    every write pattern looks them up. Kept like `access_paths`' cache."""
    parts = (design.entities, design.global_secondary_indexes, design.local_secondary_indexes)
    cached = design.__dict__.get("_planner_lookup")
    if cached is None or any(a is not b for a, b in zip(cached[0], parts, strict=True)):
        keys: dict[str, EntityKeys] = {}
        for entity_keys in design.entities:
            keys.setdefault(entity_keys.entity, entity_keys)
        indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
        cached = (parts, (keys, indexes))
        design.__dict__["_planner_lookup"] = cached
    return cached[1]


# --- sparse-index membership ---------------------------------------------------------------------


def membership_share(entity: Entity, conditions: tuple[AttributeFilter, ...]) -> float:
    """Share of an entity's items that meet every `only_when` condition (their generators' value shares)."""
    share = 1.0
    for condition in conditions:
        share *= value_share(entity, condition.attribute, str(condition.equals))
    return share
