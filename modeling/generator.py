"""The design generator: deterministic single-table key designs proposed from the access patterns.

Rules, in order (each choice records one sentence saying why):
1. Table keys per entity. With the "item collections" strategy, a child whose parent's key is all a
   read pattern knows (list_orders_by_customer) lives under its parent's partition key, sorted by the
   pattern's range attribute. Otherwise an entity whose most frequent read_many pattern knows part of
   its identifiers is partitioned by that part and sorted by the rest; else each item is its own
   partition (`ORDER#{orderId}`) with a constant sort key.
2. Indexes only for patterns the table cannot serve, or serves only by filtering away most of what it
   reads. A pattern asking for strong consistency on the table's partition key gets an LSI; others
   get a GSI keyed on their inputs, overloaded (GSI1PK/GSI1SK shared by entities) where an existing
   GSI has room, sparse (`only_when`) when the pattern keeps only items in one state.
3. Projections from what the patterns using an index return: KEYS_ONLY, INCLUDE or ALL.
The same model always gives the same designs, byte for byte: everything iterates in model order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from modeling.design import Design, IndexChoice, PatternPlan
from modeling.keys import KeyTemplate
from modeling.model import (
    AccessPattern,
    AttributeFilter,
    AttributeType,
    Consistency,
    Entity,
    EntityKeys,
    FloatRangeGenerator,
    IntRangeGenerator,
    KeyAttribute,
    KeyDesign,
    KeyTemplates,
    Model,
    PatternKind,
    Projection,
    ProjectionType,
    Relationship,
    RelationshipKind,
    SecondaryIndex,
    SequenceGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    parents_first,
)
from modeling.planner import plan_pattern, plan_patterns
from modeling.validation import MAX_GSIS_PER_TABLE, MAX_LSIS_PER_TABLE

COLLECTIONS = "item_collections"
SEPARATE = "separate_partitions"
# A filter that discards more than this share of what a Query reads earns the pattern its own index.
MAX_DISCARDED_SHARE = 0.5


def label(name: str) -> str:
    """Key label of an attribute or entity: `customerId` -> `CUSTOMER`, `orderDate` -> `ORDER_DATE`."""
    base = re.sub(r"(_id|Id|ID)$", "", name) or name
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).upper()


def _key_part(attribute: str, label_of: str | None = None) -> str:
    return f"{label(label_of or attribute)}#{{{attribute}}}"


# --- table keys ----------------------------------------------------------------------------------


@dataclass
class _Draft:
    """A design being built; mutable only inside this module."""

    model: Model
    strategy: str
    entity_keys: dict[str, EntityKeys] = field(default_factory=dict)
    entity_reasons: dict[str, str] = field(default_factory=dict)
    gsis: list[SecondaryIndex] = field(default_factory=list)
    lsis: list[SecondaryIndex] = field(default_factory=list)
    index_patterns: dict[str, list[str]] = field(default_factory=dict)
    index_reasons: dict[str, list[str]] = field(default_factory=dict)

    def key_design(self) -> KeyDesign:
        return KeyDesign(global_secondary_indexes=tuple(self.gsis), local_secondary_indexes=tuple(self.lsis),
                         entities=tuple(self.entity_keys[e.name] for e in self.model.entities
                                        if e.name in self.entity_keys))


def _reads_on(model: Model, entity: Entity) -> list[AccessPattern]:
    return [p for p in model.access_patterns if p.kind.is_read and p.entities == (entity.name,)]


def _equal_inputs(pattern: AccessPattern) -> list[str]:
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    return [name for name in pattern.inputs if name != range_attribute]


def _mutable_attributes(model: Model, entity: Entity) -> set[str]:
    """Attributes some update changes: they cannot be part of the table's keys."""
    return {a for p in model.access_patterns if p.kind is PatternKind.UPDATE and entity.name in p.entities
            for a in p.changed_attributes}


def _sort_template(entity: Entity, range_attribute: str | None, exclude: list[str]) -> str:
    rest = [a for a in entity.identifiers if a not in exclude and a != range_attribute]
    parts = [label(entity.name)]
    if range_attribute and entity.attribute(range_attribute) is not None:
        parts.append(_sortable_reference(entity, range_attribute))
    parts += [_sortable_reference(entity, a) for a in rest]
    return "#".join(parts)


def _sortable_reference(entity: Entity, name: str) -> str:
    """`{name}`, zero-padded (`{xp:7}`, `{price:4.2}`) when it is a number, so string order is number order."""
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute else None
    if isinstance(generator, IntRangeGenerator) and generator.min >= 0:
        return f"{{{name}:{len(str(generator.max))}}}"
    if isinstance(generator, FloatRangeGenerator) and generator.min >= 0:
        return f"{{{name}:{len(str(int(generator.max)))}.{generator.decimals}}}"
    if isinstance(generator, TimestampRangeGenerator) and generator.format in _EPOCH_WIDTHS:
        return f"{{{name}:{_EPOCH_WIDTHS[generator.format]}}}"
    if isinstance(generator, SequenceGenerator) and not generator.prefix and not generator.width:
        return f"{{{name}:{DEFAULT_NUMBER_WIDTH}}}"
    if attribute is not None and attribute.type is AttributeType.N and generator is None:
        return f"{{{name}:{DEFAULT_NUMBER_WIDTH}}}"
    return f"{{{name}}}"


DEFAULT_NUMBER_WIDTH = 12  # numbers whose range the model does not give: up to 10^12 - 1
_EPOCH_WIDTHS = {TimestampFormat.EPOCH_SECONDS: 10, TimestampFormat.EPOCH_MILLISECONDS: 13}


def _parent_collection(model: Model, entity: Entity) -> tuple[Relationship, AccessPattern] | None:
    """The relationship putting this entity under its parent's partition key, and the pattern why."""
    for relationship in model.relationships:
        parent = model.entity(relationship.parent)
        if (relationship.child != entity.name or relationship.kind is RelationshipKind.MANY_TO_MANY
                or parent is None or not parent.identifiers
                or len(relationship.child_attributes) != len(parent.identifiers)):
            continue
        if _strong_reads_without(model, entity, relationship.child_attributes):
            continue  # a strongly consistent read by the child's own key needs the child on the table by that key
        for pattern in model.access_patterns:
            together = set(pattern.entities) == {parent.name, entity.name} and pattern.kind.is_read
            by_parent = (pattern.entities == (entity.name,) and pattern.kind is PatternKind.READ_MANY
                         and set(_equal_inputs(pattern)) == set(relationship.child_attributes))
            if together or by_parent:
                return relationship, pattern
    return None


def _strong_reads_without(model: Model, entity: Entity, parent_attributes: tuple[str, ...]) -> bool:
    return any(p.consistency is Consistency.STRONG and not set(parent_attributes) <= set(p.inputs)
               for p in _reads_on(model, entity))


def _table_keys(draft: _Draft, entity: Entity) -> None:
    model = draft.model
    collection = _parent_collection(model, entity) if draft.strategy == COLLECTIONS else None
    if collection is not None and collection[0].parent in draft.entity_keys:
        relationship, pattern = collection
        parent = model.entity(relationship.parent)
        partition = "#".join(_key_part(child, parent_id) for parent_id, child in
                             zip(parent.identifiers, relationship.child_attributes, strict=True))
        if partition == draft.entity_keys[parent.name].table.partition_key:
            range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
            if range_attribute in _mutable_attributes(model, entity):
                range_attribute = None  # updates cannot change table keys; an index will sort by it
            sort = _sort_template(entity, range_attribute, list(relationship.child_attributes))
            draft.entity_keys[entity.name] = EntityKeys(entity=entity.name, table=KeyTemplates(
                partition_key=partition, sort_key=sort))
            draft.entity_reasons[entity.name] = (
                f"{entity.name} items live in their {parent.name}'s item collection ({partition}) because "
                f"{pattern.name} reads them by the {parent.name}'s key; the sort key {sort} serves its order.")
            return
    _own_partition(draft, entity)


def _own_partition(draft: _Draft, entity: Entity) -> None:
    candidates = [p for p in _reads_on(draft.model, entity) if p.kind is PatternKind.READ_MANY
                  and _equal_inputs(p) and set(_equal_inputs(p)) < set(entity.identifiers)
                  and draft.strategy == COLLECTIONS]
    best = max(candidates, key=lambda p: p.traffic.peak_requests_per_second, default=None)
    if best is not None:
        partition_attributes = [a for a in entity.identifiers if a in _equal_inputs(best)]
        range_attribute = best.range_condition.attribute if best.range_condition else None
        if range_attribute in _mutable_attributes(draft.model, entity):
            range_attribute = None  # updates cannot change table keys; an index will sort by it
        partition = "#".join(_key_part(a) for a in partition_attributes)
        sort = _sort_template(entity, range_attribute, partition_attributes)
        reason = (f"{entity.name} is partitioned by {', '.join(partition_attributes)} and sorted by the rest of "
                  f"its identity because {best.name}, its busiest list pattern, reads it that way.")
    else:
        identity = list(entity.identity)
        partition = "#".join(_key_part(a) for a in identity) or label(entity.name)
        sort = label(entity.name)
        reason = (f"Each {entity.name} is its own item collection keyed by its identifiers, which spreads "
                  "its traffic over as many partitions as there are items.")
    draft.entity_keys[entity.name] = EntityKeys(entity=entity.name,
                                                table=KeyTemplates(partition_key=partition, sort_key=sort))
    draft.entity_reasons[entity.name] = reason


# --- indexes -------------------------------------------------------------------------------------


def _needs_index(plan: PatternPlan) -> bool:
    if not plan.served:
        return True
    read, returned = plan.items_read_per_request, plan.items_returned_per_request
    return read > 0 and (read - returned) / read > MAX_DISCARDED_SHARE


def _add_index_for(draft: _Draft, pattern: AccessPattern) -> None:
    entities = [e for e in (draft.model.entity(n) for n in pattern.entities) if e is not None]
    if not entities or not all(set(_equal_inputs(pattern)) <= {a.name for a in e.attributes} for e in entities):
        return
    table_partition = draft.entity_keys[entities[0].name].table.partition_key
    partition_inputs = _equal_inputs(pattern)
    if (pattern.consistency is Consistency.STRONG and len(entities) == 1 and pattern.range_condition
            and _partition_of(table_partition) == partition_inputs and len(draft.lsis) < MAX_LSIS_PER_TABLE):
        _add_lsi(draft, pattern, entities[0])
    elif len(draft.gsis) < MAX_GSIS_PER_TABLE or _gsi_with_room(draft, entities):
        _add_gsi(draft, pattern, entities, partition_inputs)


def _partition_of(template: str) -> list[str]:
    """Attribute names a template references, in order (the one key-template grammar, `modeling.keys`)."""
    return list(KeyTemplate.parse(template).attribute_names) if template else []


def _gsi_with_room(draft: _Draft, entities: list[Entity],
                   pattern: AccessPattern | None = None) -> SecondaryIndex | None:
    """An existing GSI none of these entities uses yet, whose patterns want the same kind of projection."""
    patterns = {p.name: p for p in draft.model.access_patterns}
    for index in draft.gsis:
        if any(index.name in draft.entity_keys[e.name].indexes for e in entities):
            continue
        users = [patterns[n] for n in draft.index_patterns.get(index.name, [])]
        if pattern is None or all(bool(u.returns) == bool(pattern.returns) for u in users):
            return index  # a whole-item pattern would force ALL on an index projected for a few attributes
    return None


def _add_gsi(draft: _Draft, pattern: AccessPattern, entities: list[Entity], inputs: list[str]) -> None:
    index = _gsi_with_room(draft, entities, pattern)
    if index is None:
        number = len(draft.gsis) + 1
        index = SecondaryIndex(name=f"GSI{number}", partition_key=KeyAttribute(name=f"GSI{number}PK"),
                               sort_key=KeyAttribute(name=f"GSI{number}SK"))
        draft.gsis.append(index)
    conditions = tuple(AttributeFilter(attribute=f.attribute, equals=f.equals) for f in pattern.filters)
    constant = "#".join(f"{label(c.attribute)}#{c.equals}" for c in conditions) or label(entities[0].name)
    partition = "#".join(_key_part(a) for a in inputs) or constant
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    for entity in entities:
        templates = KeyTemplates(partition_key=partition, sort_key=_sort_template(entity, range_attribute, inputs),
                                 only_when=conditions)
        if templates in draft.entity_keys[entity.name].indexes.values():
            continue  # an index with exactly these keys exists already
        keys = draft.entity_keys[entity.name]
        draft.entity_keys[entity.name] = EntityKeys(entity=keys.entity, table=keys.table,
                                                    indexes={**keys.indexes, index.name: templates})
    draft.index_patterns.setdefault(index.name, []).append(pattern.name)
    draft.index_reasons.setdefault(index.name, []).append(_gsi_reason(draft, index.name, pattern, conditions))


def _gsi_reason(draft: _Draft, index: str, pattern: AccessPattern, conditions: tuple[AttributeFilter, ...]) -> str:
    if conditions:
        states = ", ".join(f"{c.attribute} = {c.equals}" for c in conditions)
        return (f"{index} is a sparse index: only items with {states} get its keys, so {pattern.name} reads "
                "exactly the items it returns instead of filtering the rest.")
    table_sort = {_partition_of(k.table.sort_key or "")[0] for k in draft.entity_keys.values()
                  if _partition_of(k.table.sort_key or "")}
    if set(_equal_inputs(pattern)) & table_sort:
        return f"{index} inverts the table's keys so {pattern.name} can look items up from the other side."
    return f"{index} is keyed on {', '.join(pattern.inputs) or 'a constant'} so {pattern.name} can Query it."


def _add_lsi(draft: _Draft, pattern: AccessPattern, entity: Entity) -> None:
    number = len(draft.lsis) + 1
    name = f"LSI{number}"
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    index = SecondaryIndex(name=name, partition_key=KeyAttribute(name="PK"), sort_key=KeyAttribute(name=f"{name}SK"))
    draft.lsis.append(index)
    keys = draft.entity_keys[entity.name]
    templates = KeyTemplates(partition_key=keys.table.partition_key,
                             sort_key=_sort_template(entity, range_attribute, _partition_of(keys.table.partition_key)))
    draft.entity_keys[entity.name] = EntityKeys(entity=keys.entity, table=keys.table,
                                                indexes={**keys.indexes, name: templates})
    draft.index_patterns.setdefault(name, []).append(pattern.name)
    draft.index_reasons[name] = [f"{name} gives {pattern.name} a second sort order with strongly consistent "
                                  "reads, which a GSI cannot offer; it caps each item collection at 10 GB."]


def _with_projections(draft: _Draft) -> None:
    patterns = {p.name: p for p in draft.model.access_patterns}

    def projected(index: SecondaryIndex) -> SecondaryIndex:
        returns = [patterns[n].returns for n in draft.index_patterns.get(index.name, [])]
        if not returns or any(not r for r in returns):
            return index
        # An attribute inside a key template (`CUSTOMER#{level}#...`) is still a non-key attribute of the
        # item: the index has the composite key string, not `level`, so it must be projected to be returned.
        wanted = sorted({a for r in returns for a in r})
        projection = (Projection(type=ProjectionType.KEYS_ONLY) if not wanted
                      else Projection(type=ProjectionType.INCLUDE, non_key_attributes=tuple(wanted)))
        return SecondaryIndex(name=index.name, partition_key=index.partition_key, sort_key=index.sort_key,
                              projection=projection)

    draft.gsis = [projected(i) for i in draft.gsis]
    draft.lsis = [projected(i) for i in draft.lsis]


def _template_names(templates: KeyTemplates) -> list[str]:
    return _partition_of(templates.partition_key) + _partition_of(templates.sort_key or "")


# --- designs -------------------------------------------------------------------------------------


_STRATEGIES: dict[str, tuple[str, str]] = {
    COLLECTIONS: ("Item collections", "Children share their parent's partition key, so one Query reads a parent "
                                      "with its children; fewer indexes and fewer index writes."),
    SEPARATE: ("Separate partitions", "Every item keeps its own partition and children are found through "
                                      "indexes: more index writes, but writes spread over more partitions."),
}


def generate_design(model: Model, strategy: str = COLLECTIONS) -> Design:
    """One proposed design for a model, ignoring any explicit design it has."""
    draft = _Draft(model, strategy)
    for entity in _parents_first(model):
        _table_keys(draft, entity)
    for pattern in model.access_patterns:
        if pattern.kind.is_read and _needs_index(plan_pattern(model, draft.key_design(), pattern)):
            _add_index_for(draft, pattern)
    _with_projections(draft)
    return _finish(draft, *_STRATEGIES[strategy])


def _parents_first(model: Model) -> list[Entity]:
    """A parent comes before its children: their keys copy the parent's."""
    return parents_first(model.entities, lambda e: [r.parent for r in model.relationships if r.child == e.name])


def _finish(draft: _Draft, name: str, summary: str) -> Design:
    key_design = draft.key_design()
    return Design(
        name=name, summary=summary, key_design=key_design, plans=plan_patterns(draft.model, key_design),
        entity_reasons=tuple((e.name, draft.entity_reasons[e.name]) for e in draft.model.entities
                             if e.name in draft.entity_reasons),
        index_reasons=tuple(IndexChoice(i.name, _joined_reasons(i.name, draft.index_reasons.get(i.name, [])),
                                        tuple(draft.index_patterns.get(i.name, [])))
                            for i in (*key_design.global_secondary_indexes, *key_design.local_secondary_indexes)))


def _joined_reasons(index: str, reasons: list[str]) -> str:
    if len(reasons) <= 1:
        return "".join(reasons)
    return f"{index} is overloaded: entities share it with their own keys. " + " ".join(reasons)


def explicit_design(model: Model) -> Design | None:
    """The model's own key design, with keys proposed only for entities it leaves out."""
    if model.key_design is None:
        return None
    draft = _Draft(model, COLLECTIONS)
    draft.gsis = list(model.key_design.global_secondary_indexes)
    draft.lsis = list(model.key_design.local_secondary_indexes)
    for keys in model.key_design.entities:
        draft.entity_keys[keys.entity] = keys
        draft.entity_reasons[keys.entity] = f"{keys.entity}'s keys come from the model's own key design."
    for entity in _parents_first(model):
        if entity.name not in draft.entity_keys:
            _table_keys(draft, entity)
    base = KeyDesign(partition_key=model.key_design.partition_key, sort_key=model.key_design.sort_key,
                     global_secondary_indexes=tuple(draft.gsis), local_secondary_indexes=tuple(draft.lsis),
                     entities=draft.key_design().entities)
    return Design(name="Your design", summary="The key design written in the model, gaps filled by the generator.",
                  key_design=base, plans=plan_patterns(model, base),
                  entity_reasons=tuple(draft.entity_reasons.items()),
                  index_reasons=tuple(IndexChoice(i.name, "Declared in the model.", ())
                                      for i in (*base.global_secondary_indexes, *base.local_secondary_indexes)))


def propose_designs(model: Model) -> tuple[Design, ...]:
    """The model's own design first (if any), then the distinct generated candidates."""
    designs: list[Design] = []
    own = explicit_design(model)
    if own is not None:
        designs.append(own)
    for strategy in (COLLECTIONS, SEPARATE):
        candidate = generate_design(model, strategy)
        if all(candidate.key_design != d.key_design for d in designs):
            designs.append(candidate)
    return tuple(designs)



def replace_key_design(model: Model, key_design: KeyDesign) -> Model:
    """The model with this key design written into it."""
    return model.model_copy(update={"key_design": key_design})
