"""Planning access patterns against a key design: which operation, which index, which key condition.

Works the same for a generated design and for one the user wrote: for every pattern it looks at each
access path (the table and each index), keeps the paths that can answer the pattern from its inputs,
and picks the cheapest (GetItem before Query before index Query; no filter before filter). A pattern
no path can answer becomes a Scan, flagged as not served.

Assumption stated to users: when a filter's selectivity cannot be read from the attribute's sample-data
generator, `DEFAULT_SELECTIVITY` of the items read is assumed to pass it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from modeling.design import TABLE, IndexChange, IndexWrite, Operation, PatternPlan
from modeling.keys import KeyTemplate
from modeling.model import (
    AccessPattern,
    AttributeFilter,
    BooleanGenerator,
    Consistency,
    Entity,
    EnumGenerator,
    KeyDesign,
    KeyTemplates,
    Model,
    PatternKind,
    ProjectionType,
    RangeOperator,
    ReferenceGenerator,
    SecondaryIndex,
    SortOrder,
)

DEFAULT_SELECTIVITY = 0.1

_RANGE_SYNTAX = {
    RangeOperator.EQUALS: "{sk} = :{p}",
    RangeOperator.BEGINS_WITH: "begins_with({sk}, :{p})",
    RangeOperator.BETWEEN: "{sk} BETWEEN :{p}_from AND :{p}_to",
    RangeOperator.LESS_THAN: "{sk} < :{p}",
    RangeOperator.LESS_THAN_OR_EQUAL: "{sk} <= :{p}",
    RangeOperator.GREATER_THAN: "{sk} > :{p}",
    RangeOperator.GREATER_THAN_OR_EQUAL: "{sk} >= :{p}",
}
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


def access_paths(design: KeyDesign) -> list[AccessPath]:
    table = AccessPath(TABLE, design.partition_key.name, design.sort_key.name if design.sort_key else None,
                       False, ProjectionType.ALL, {k.entity: k.table for k in design.entities})
    paths = [table]
    for index, is_global in [*((i, True) for i in design.global_secondary_indexes),
                             *((i, False) for i in design.local_secondary_indexes)]:
        paths.append(_index_path(design, index, is_global))
    return paths


def _index_path(design: KeyDesign, index: SecondaryIndex, is_global: bool) -> AccessPath:
    templates = {k.entity: k.indexes[index.name] for k in design.entities if index.name in k.indexes}
    if not is_global:  # an LSI shares the table's partition key template
        templates = {entity: KeyTemplates(partition_key=next(k.table.partition_key for k in design.entities
                                                             if k.entity == entity),
                                          sort_key=t.sort_key, only_when=t.only_when)
                     for entity, t in templates.items()}
    return AccessPath(index.name, index.partition_key.name, index.sort_key.name if index.sort_key else None,
                      is_global, index.projection.type, templates, index.projection.non_key_attributes)


# --- reads ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Match:
    """How well one path answers one read pattern (lower score is better)."""

    path: AccessPath
    key_condition: str
    exact_item: bool  # every key attribute known: one item
    unmatched: tuple[str, ...]  # inputs and filters the keys do not use (become a FilterExpression)
    score: tuple[int, ...]


def plan_patterns(model: Model, design: KeyDesign) -> tuple[PatternPlan, ...]:
    return tuple(plan_pattern(model, design, pattern) for pattern in model.access_patterns)


def plan_pattern(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    if pattern.kind in _WRITE_OPERATIONS:
        return _plan_write(model, design, pattern)
    matches = [m for path in access_paths(design) if (m := _match(model, path, pattern)) is not None]
    if not matches:
        return _plan_scan(model, pattern)
    best = min(matches, key=lambda m: m.score)
    if best.exact_item and pattern.kind is not PatternKind.READ_MANY:
        best = _Match(best.path, best.key_condition, True, (), best.score)  # the key names one item
    return _read_plan(model, pattern, best)


def _match(model: Model, path: AccessPath, pattern: AccessPattern) -> _Match | None:
    if not all(entity in path.templates for entity in pattern.entities):
        return None
    if pattern.kind in (PatternKind.BATCH_READ, PatternKind.TRANSACT_READ) and path.name != TABLE:
        return None  # BatchGetItem and TransactGetItems take table keys only
    if pattern.consistency is Consistency.STRONG and path.is_global:
        return None  # dynamodb-facts §4.1: GSIs are eventually consistent only
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
    partition = KeyTemplate.parse(templates[0].partition_key)
    if not set(partition.attribute_names) <= set(equal_inputs):
        return None
    return _sort_key_match(path, pattern, templates, partition, equal_inputs, range_attribute, conditions)


def _sort_key_match(path: AccessPath, pattern: AccessPattern, templates: list[KeyTemplates],
                    partition: KeyTemplate, equal_inputs: list[str], range_attribute: str | None,
                    conditions: set[tuple[str, str]]) -> _Match:
    used = set(partition.attribute_names)
    condition = f"{path.partition_key} = :pk"
    exact = False
    sort_source = templates[0].sort_key if len(templates) == 1 else None
    if sort_source is not None and path.sort_key is not None:
        sort = KeyTemplate.parse(sort_source)
        known = 0
        while known < len(sort.attribute_names) and sort.attribute_names[known] in equal_inputs:
            known += 1
        used |= set(sort.attribute_names[:known])
        exact = known == len(sort.attribute_names)
        if exact:
            condition += f" AND {path.sort_key} = :sk"
        elif range_attribute and sort.attribute_names[known] == range_attribute:
            used.add(range_attribute)
            syntax = _RANGE_SYNTAX[pattern.range_condition.operator]
            condition += " AND " + syntax.format(sk=path.sort_key, p="sk")
        elif known or sort.constant_prefix:
            condition += f" AND begins_with({path.sort_key}, :sk_prefix)"
    satisfied = used | {attribute for attribute, _ in conditions}
    unmatched = tuple(dict.fromkeys(n for n in equal_inputs if n not in satisfied))
    if range_attribute and range_attribute not in used:
        unmatched += (range_attribute,)
    wants_one = pattern.kind is PatternKind.READ_ONE
    score = (len(unmatched), 0 if path.name == TABLE else 1 if not path.is_global else 2,
             0 if (exact and wants_one) else 1, 0 if path.projection is ProjectionType.ALL else 1)
    return _Match(path, condition, exact, unmatched, score)


def _read_plan(model: Model, pattern: AccessPattern, match: _Match) -> PatternPlan:
    path = match.path
    operation = _read_operation(pattern, match)
    returned = pattern.expected_items
    read = min(returned / _selectivity(model, pattern, match.unmatched), _item_count(model, pattern.entities))
    filter_expression = " AND ".join(f"{name} = :{name}" for name in match.unmatched)
    reason = _read_reason(pattern, match, operation)
    return PatternPlan(
        pattern=pattern.name, operation=operation, index=path.name, entities=pattern.entities,
        key_condition="" if operation is Operation.GET_ITEM or pattern.kind.value.startswith(("batch", "transact"))
        else match.key_condition,
        filter_expression=filter_expression,
        scan_index_forward=pattern.sort_order is SortOrder.ASCENDING,
        consistent_read=pattern.consistency is Consistency.STRONG,
        items_read_per_request=max(read, returned), items_returned_per_request=returned,
        items_written_per_request=0.0, index_writes=(), reason=reason)


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


def _plan_scan(model: Model, pattern: AccessPattern) -> PatternPlan:
    table_items = float(sum(e.item_count for e in model.entities))
    filters = [*(n for n in pattern.inputs), *(f.attribute for f in pattern.filters)]
    return PatternPlan(
        pattern=pattern.name, operation=Operation.SCAN, index=TABLE, entities=pattern.entities,
        key_condition="", filter_expression=" AND ".join(f"{n} = :{n}" for n in filters),
        scan_index_forward=True, consistent_read=pattern.consistency is Consistency.STRONG,
        items_read_per_request=table_items, items_returned_per_request=pattern.expected_items,
        items_written_per_request=0.0, index_writes=(), served=False,
        reason="No key or index is built from this pattern's inputs, so only a Scan can answer it: "
               "it reads every item in the table. Add an index keyed on its inputs.")


# --- writes --------------------------------------------------------------------------------------


def _plan_write(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan:
    operation = _WRITE_OPERATIONS[pattern.kind]
    entities = [e for e in (model.entity(n) for n in pattern.entities) if e is not None]
    items = pattern.expected_items if pattern.kind in (PatternKind.BATCH_WRITE, PatternKind.TRANSACT_WRITE) else 1.0
    writes = _index_writes(model, design, pattern, entities)
    missing = sorted({i for e in entities for i in e.identifiers} - set(pattern.inputs))
    reason = f"{operation} on the table; the inputs give each item's primary key."
    if missing and pattern.kind is not PatternKind.WRITE:
        reason = (f"{operation} needs each item's full key, but {', '.join(missing)} is not an input: "
                  "the application must read the key first.")
    if writes:
        per_item = sum(w.writes_per_item for w in writes)
        reason += (f" Each written item also costs {per_item:g} index write(s) in "
                   f"{', '.join(w.index for w in writes)}.")
    return PatternPlan(
        pattern=pattern.name, operation=operation, index=TABLE, entities=pattern.entities, key_condition="",
        filter_expression="", scan_index_forward=True, consistent_read=False, items_read_per_request=0.0,
        items_returned_per_request=0.0, items_written_per_request=items, index_writes=writes, reason=reason)


def _index_writes(model: Model, design: KeyDesign, pattern: AccessPattern,
                  entities: list[Entity]) -> tuple[IndexWrite, ...]:
    """Index writes per written item, averaged over the pattern's entities (dynamodb-facts §4.1)."""
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
    keys = next((k for k in design.entities if k.entity == entity.name), None)
    if keys is None:
        return []
    indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
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
    changed = set(pattern.changed_attributes)
    key_attributes = set(KeyTemplate.parse(templates.partition_key).attribute_names)
    if templates.sort_key:
        key_attributes |= set(KeyTemplate.parse(templates.sort_key).attribute_names)
    if changed & key_attributes:
        return IndexWrite(index.name, IndexChange.KEY_CHANGES, share,
                          f"{', '.join(sorted(changed & key_attributes))} is part of the index key: "
                          "the old entry is deleted and a new one put")
    if changed & {c.attribute for c in templates.only_when}:
        return IndexWrite(index.name, IndexChange.ENTERS, 1.0, "the change moves the item into or out of "
                          "the sparse index")
    projected = (index.projection.type is ProjectionType.ALL
                 or changed & set(index.projection.non_key_attributes))
    if projected and changed:
        return IndexWrite(index.name, IndexChange.PROJECTED_ONLY, share, "a projected attribute changes")
    return None


# --- selectivity ---------------------------------------------------------------------------------


def membership_share(entity: Entity, conditions: tuple[AttributeFilter, ...]) -> float:
    share = 1.0
    for condition in conditions:
        share *= _value_share(entity, condition.attribute, condition.equals)
    return share


def _value_share(entity: Entity, attribute_name: str, value: object | None, model: Model | None = None) -> float:
    """Share of items whose attribute equals value (None: an unknown value of that attribute)."""
    attribute = entity.attribute(attribute_name)
    generator = attribute.generator if attribute else None
    if isinstance(generator, EnumGenerator):
        weights = generator.weights or tuple(1.0 for _ in generator.values)
        if value is None:
            return 1.0 / len(generator.values)
        if str(value) in generator.values:
            return weights[generator.values.index(str(value))] / sum(weights)
    if isinstance(generator, BooleanGenerator) and isinstance(value, bool):
        return generator.true_share if value else 1 - generator.true_share
    if isinstance(generator, ReferenceGenerator) and model is not None:
        parent = model.entity(generator.entity)
        if parent is not None and parent.item_count > 0:
            return 1.0 / parent.item_count  # one parent's share of the children
    if attribute is not None and (attribute.unique or entity.identifiers == (attribute.name,)):
        return 1.0 / max(entity.item_count, 1)
    return DEFAULT_SELECTIVITY


def _selectivity(model: Model, pattern: AccessPattern, unmatched: tuple[str, ...]) -> float:
    entities = [e for e in (model.entity(n) for n in pattern.entities) if e is not None]
    filter_values = {f.attribute: f.equals for f in pattern.filters}
    share = 1.0
    for name in unmatched:
        owner = next((e for e in entities if e.attribute(name)), None)
        if owner is not None:
            share *= max(_value_share(owner, name, filter_values.get(name), model), 1e-9)
    return share


def _item_count(model: Model, entity_names: tuple[str, ...]) -> float:
    counts = [e.item_count for e in (model.entity(n) for n in entity_names) if e is not None]
    return float(sum(counts)) if counts else math.inf
