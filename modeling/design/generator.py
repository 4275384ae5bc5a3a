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
3. Projections from what every pattern reading an index returns (not only the one that created it):
   KEYS_ONLY, INCLUDE or ALL.
4. Labels dropped where they tell nothing apart (`modeling.design.plain_keys`): a table of one entity, or of
   one item collection, gets plain attribute keys when no read plans worse or returns another entity's items.
A strongly consistent read never gets a GSI (GSIs are eventually consistent, dynamodb-rules §4.1): it gets
an LSI when it knows the table's partition key, else it is left for a layout that keys the table for it.
`generate_design(model, strategy, choice)` builds the layout a `modeling.design.design_space.LayoutChoice` names;
`modeling.design.search` prices the choices (seeded with `rule_based_designs`) and keeps the cheapest;
`modeling.design.proposal.propose` is the one answer every caller shows. The model is canonicalised first
(`canonical_model`), so the same model gives the same designs byte for byte whatever order its file
lists entities, attributes, relationships and access patterns in.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from modeling.design.composite_sort_keys import shareable, shared_index_candidates
from modeling.design.design_space import (
    LayoutChoice,
    Placement,
    canonical_model,
    collection_relationships,
    equal_inputs,
    reads_on,
)
from modeling.design.keys import KeyTemplate
from modeling.design.plain_keys import plain_collection_table, plain_key, terse_single_entity_table
from modeling.design.planner import access_paths, plan_pattern, plan_patterns
from modeling.design.plans import Design, IndexChoice, Operation, PatternPlan
from modeling.limits import MAX_GSIS_PER_TABLE, MAX_LSIS_PER_TABLE
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
    ReferenceGenerator,
    Relationship,
    SecondaryIndex,
    SequenceGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    child_relationships,
    derived_index,
    parents_first,
    patterns_on,
)
from modeling.write_semantics import attributes_changed_in_place, with_auxiliary_keys

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


class _EntityKeyMap(dict[str, EntityKeys]):
    """Entity name -> keys, with a version that changes on every write (a copy gets a fresh one), so
    `_Draft.key_design` rebuilds only after a change. Versions come from one counter, never from id()."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.version = next(_KEY_MAP_VERSIONS)

    def __setitem__(self, name: str, keys: EntityKeys) -> None:
        self.version = next(_KEY_MAP_VERSIONS)
        super().__setitem__(name, keys)

    def __delitem__(self, name: str) -> None:
        self.version = next(_KEY_MAP_VERSIONS)
        super().__delitem__(name)


_KEY_MAP_VERSIONS = itertools.count()


@dataclass
class _Draft:
    """A design being built; mutable only inside this module."""

    model: Model
    strategy: str
    choice: LayoutChoice | None = None
    entity_keys: _EntityKeyMap = field(default_factory=lambda: _EntityKeyMap())
    entity_reasons: dict[str, str] = field(default_factory=dict)
    gsis: list[SecondaryIndex] = field(default_factory=list)
    lsis: list[SecondaryIndex] = field(default_factory=list)
    index_patterns: dict[str, list[str]] = field(default_factory=dict)
    index_reasons: dict[str, list[str]] = field(default_factory=dict)
    # per GSI: the partition inputs, the equality chain and the range attribute its sort key was built from
    index_keys: dict[str, tuple[tuple[str, ...], tuple[str, ...], str | None]] = field(default_factory=dict)
    table_sort: frozenset[str] | None = None  # see table_sort_attributes
    kinds_seen: dict[str, tuple[int, set[bool]]] = field(default_factory=dict)  # see user_kinds
    entities_built: tuple[int, tuple[EntityKeys, ...]] | None = None  # see key_design

    def table_sort_attributes(self) -> frozenset[str]:
        """The first attribute of every entity's table sort key. Indexes are added once the table keys are
        final and never change them, so it is worked out once (per GSI it made the generator quadratic)."""
        if self.table_sort is None:
            self.table_sort = frozenset(_partition_of(k.table.sort_key or "")[0] for k in self.entity_keys.values()
                                        if _partition_of(k.table.sort_key or ""))
        return self.table_sort

    def key_design(self) -> KeyDesign:
        # asked once per index added and per pattern planned: the entities' tuple is rebuilt only when an
        # entity's keys changed (rebuilding it each time was a quarter of the generator's time on 2,000 entities)
        state = self.entity_keys.version
        if self.entities_built is None or self.entities_built[0] != state:
            self.entities_built = (state, self._keyed_entities())
        return KeyDesign(global_secondary_indexes=tuple(self.gsis), local_secondary_indexes=tuple(self.lsis),
                         entities=self.entities_built[1])

    def _keyed_entities(self) -> tuple[EntityKeys, ...]:
        try:  # every entity keyed (the index phase, one call per index added): a lookup in C, not a Python loop
            entities = tuple(map(self.entity_keys.__getitem__, _entity_names(self.model)))
        except KeyError:
            entities = tuple(self.entity_keys[e.name] for e in self.model.entities if e.name in self.entity_keys)
        return entities

    def user_kinds(self, index: str) -> set[bool]:
        """Whether each pattern an index serves returns some attributes (True) or whole items (False).

        `index_patterns` lists only grow, so the answer is extended with the patterns added since the last call
        (reading every user on every GSI added made the generator quadratic)."""
        users = self.index_patterns.get(index, [])
        seen, kinds = self.kinds_seen.get(index, (0, set()))
        if seen > len(users):
            seen, kinds = 0, set()
        patterns = _patterns_by_name(self.model)
        kinds = kinds | {bool(patterns[n].returns) for n in users[seen:]}
        self.kinds_seen[index] = (len(users), kinds)
        return kinds


_reads_on = reads_on
_equal_inputs = equal_inputs


def _mutable_attributes(model: Model, entity: Entity) -> set[str]:
    """Attributes some write changes in place: they cannot be part of the table's keys (one home:
    modeling.write_semantics, which builds those writes)."""
    return attributes_changed_in_place(model, entity.name)


def _sort_template(model: Model, entity: Entity, range_attribute: str | None, exclude: list[str],
                   equal_first: tuple[str, ...] = ()) -> str:
    """`LABEL#{equality inputs}#{range attribute}#{rest of the identity}`: a composite sort key.

    Equality inputs come first (`TICKET#{status}#{createdAt}#{ticketId}`) so one Query fixes them with
    begins_with and still ranges over the next part.
    """
    first = [a for a in equal_first if a not in exclude and a != range_attribute and entity.attribute(a) is not None]
    rest = [a for a in entity.identifiers if a not in exclude and a != range_attribute and a not in first]
    parts = [label(entity.name), *(_sortable_reference(model, entity, a) for a in first)]
    if range_attribute and entity.attribute(range_attribute) is not None:
        parts.append(_sortable_reference(model, entity, range_attribute))
    parts += [_sortable_reference(model, entity, a) for a in rest]
    return "#".join(parts)


def _pattern_sort(model: Model, entity: Entity, pattern: AccessPattern | None,
                  exclude: list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The range attribute and equality inputs a pattern puts in this entity's table sort key.

    Attributes some update changes are left out: a table key cannot change (an index sorts by them).
    """
    if pattern is None:
        return None, ()
    mutable = _mutable_attributes(model, entity)
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    if range_attribute in mutable:
        range_attribute = None
    names = {a.name for a in entity.attributes}
    equal = [a for a in (*_equal_inputs(pattern), *(f.attribute for f in pattern.filters))
             if a not in exclude and a not in mutable and a in names]
    return range_attribute, tuple(dict.fromkeys(equal))


def _sortable_reference(model: Model, entity: Entity, name: str) -> str:
    """`{name}`, zero-padded (`{xp:7}`, `{price:4.2}`) when it is a number, so string order is number order.

    A foreign key (a reference generator) is padded as the attribute it copies: `{course_id}` of an enrolment
    holds course ids, and unpadded `COURSE#10` sorts before `COURSE#9` (DDS104)."""
    attribute = entity.attribute(name)
    generator, owner = (attribute.generator if attribute else None), entity
    for _ in range(MAX_REFERENCE_HOPS):  # a chain of references ends at the values' own generator
        if not isinstance(generator, ReferenceGenerator):
            break
        target = model.entity(generator.entity)
        source = target.attribute(generator.attribute) if target is not None else None
        generator, owner = (source.generator if source is not None else None), target or owner
    if isinstance(generator, IntRangeGenerator) and generator.min >= 0:
        return f"{{{name}:{len(str(generator.max))}}}"
    if isinstance(generator, FloatRangeGenerator) and generator.min >= 0:
        return f"{{{name}:{len(str(int(generator.max)))}.{generator.decimals}}}"
    if isinstance(generator, TimestampRangeGenerator) and generator.format in _EPOCH_WIDTHS:
        return f"{{{name}:{_EPOCH_WIDTHS[generator.format]}}}"
    if isinstance(generator, SequenceGenerator) and not generator.prefix and not generator.width:
        if generator.start < 0:
            return f"{{{name}}}"  # zero padding cannot order negative numbers (keys.render_value refuses them)
        # room to grow, and never narrower than the last number the sequence gives (9780000000000 + count)
        width = max(DEFAULT_NUMBER_WIDTH, len(str(generator.largest_value(owner.item_count))))
        return f"{{{name}:{width}}}"
    if attribute is not None and attribute.type is AttributeType.N and generator is None:
        return f"{{{name}:{DEFAULT_NUMBER_WIDTH}}}"
    return f"{{{name}}}"


DEFAULT_NUMBER_WIDTH = 12  # numbers whose range the model does not give: up to 10^12 - 1
MAX_REFERENCE_HOPS = 8  # references of references followed (a cycle of references ends here)
_EPOCH_WIDTHS = {TimestampFormat.EPOCH_SECONDS: 10, TimestampFormat.EPOCH_MILLISECONDS: 13}


def _parent_collection(model: Model, entity: Entity) -> Placement | None:
    """The default placement under a parent (no search): the busiest pattern reading the entity by its parent.

    Every relationship and pattern is a candidate; the busiest (peak requests/s), then the first by name,
    wins, so the order of the file never decides.
    """
    candidates: list[tuple[float, str, str]] = []
    for name in collection_relationships(model, entity):
        relationship = _relationship(model, name)
        if _strong_reads_without(model, entity, relationship.child_attributes):
            continue  # a strongly consistent read by the child's own key needs the child on the table by that key
        for pattern in patterns_on(model, entity.name):  # the others read neither way below
            together = set(pattern.entities) == {relationship.parent, entity.name} and pattern.kind.is_read
            by_parent = (pattern.entities == (entity.name,) and pattern.kind is PatternKind.READ_MANY
                         and set(_equal_inputs(pattern)) == set(relationship.child_attributes))
            if together or by_parent:
                candidates.append((-pattern.traffic.peak_requests_per_second, name, pattern.name))
    if not candidates:
        return None
    _, relationship_name, pattern_name = min(candidates)
    return Placement(relationship_name, (), pattern_name)


def _relationship(model: Model, name: str | None) -> Relationship:
    """The relationship a placement names (placements are built from the model's relationships)."""
    relationship = model.relationship(name or "")
    if relationship is None:
        raise KeyError(f"no relationship named {name!r}")
    return relationship


def _strong_reads_without(model: Model, entity: Entity, parent_attributes: tuple[str, ...]) -> bool:
    return any(p.consistency is Consistency.STRONG and not set(parent_attributes) <= set(p.inputs)
               for p in _reads_on(model, entity))


def _table_keys(draft: _Draft, entity: Entity) -> None:
    placement = draft.choice.placement(entity.name) if draft.choice else None
    if placement is None and draft.choice is None and draft.strategy == COLLECTIONS:
        placement = _parent_collection(draft.model, entity)
    if placement is not None and placement.in_collection and _in_collection(draft, entity, placement):
        return
    _own_partition(draft, entity, placement)


def _in_collection(draft: _Draft, entity: Entity, placement: Placement) -> bool:
    """Key the entity under its parent's partition key; False when the parent is not keyed by its identity."""
    model = draft.model
    relationship = _relationship(model, placement.relationship)
    parent = model.entity(relationship.parent)
    if parent is None or parent.name not in draft.entity_keys:
        return False
    partition = "#".join(_key_part(child, parent_id) for parent_id, child in
                         zip(parent.identifiers, relationship.child_attributes, strict=True))
    if partition != draft.entity_keys[parent.name].table.partition_key:
        return False
    pattern = model.access_pattern(placement.sort_pattern) if placement.sort_pattern else None
    range_attribute, equal = _pattern_sort(model, entity, pattern, list(relationship.child_attributes))
    sort = _sort_template(model, entity, range_attribute, list(relationship.child_attributes), equal)
    draft.entity_keys[entity.name] = EntityKeys(entity=entity.name, table=KeyTemplates(
        partition_key=partition, sort_key=sort))
    why = (f"{pattern.name} reads them by the {parent.name}'s key" if pattern is not None
           else f"they belong to their {parent.name} ({relationship.name})")
    draft.entity_reasons[entity.name] = (
        f"{entity.name} items live in their {parent.name}'s item collection ({partition}) because "
        f"{why}; the sort key {sort} serves its order.")
    return True


def _own_partition(draft: _Draft, entity: Entity, placement: Placement | None) -> None:
    model = draft.model
    best = None
    if placement is not None and placement.partition_attributes:
        best = model.access_pattern(placement.sort_pattern or "")
    elif draft.choice is None and draft.strategy == COLLECTIONS:
        candidates = [p for p in _reads_on(model, entity) if p.kind is PatternKind.READ_MANY
                      and _equal_inputs(p) and set(_equal_inputs(p)) < set(entity.identifiers)]
        best = min(candidates, key=lambda p: (-p.traffic.peak_requests_per_second, p.name), default=None)
    if best is not None:
        partition_attributes = [a for a in entity.identifiers if a in _equal_inputs(best)]
        range_attribute, equal = _pattern_sort(model, entity, best, partition_attributes)
        partition = "#".join(_key_part(a) for a in partition_attributes)
        sort = _sort_template(model, entity, range_attribute, partition_attributes, equal)
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
    if not plan.served or plan.through is not None:
        # a read through a uniqueness item still gets its index here: the search prices the design without it
        # (modeling.design.uniqueness_candidates) and keeps the cheaper
        return True
    return plan.items_read_per_request > 0 and plan.discarded_share > MAX_DISCARDED_SHARE


def _add_index_for(draft: _Draft, pattern: AccessPattern) -> None:
    entities = [e for e in (draft.model.entity(n) for n in pattern.entities) if e is not None]
    if not entities or not all(set(_equal_inputs(pattern)) <= {a.name for a in e.attributes} for e in entities):
        return
    table_partition = _partition_of(draft.entity_keys[entities[0].name].table.partition_key)
    partition_inputs = _equal_inputs(pattern)
    if pattern.consistency is Consistency.STRONG:
        # dynamodb-rules §4.1/§4.2: a GSI is eventually consistent only; an LSI shares the table's
        # partition key, so it serves the read when the pattern knows that key
        if (len(entities) == 1 and set(table_partition) <= set(partition_inputs)
                and len(draft.lsis) < MAX_LSIS_PER_TABLE):
            _add_lsi(draft, pattern, entities[0])
        return
    if _composite_sort_keys(draft) and _share_composite_gsi(draft, pattern, entities[0]):
        return
    if len(draft.gsis) < MAX_GSIS_PER_TABLE or _gsi_with_room(draft, entities):
        _add_gsi(draft, pattern, entities, partition_inputs)


def _sharing_hurts(before: PatternPlan, after: PatternPlan) -> bool:
    """A reader of the shared index that would read more, or filter away more of what it reads (its range
    no longer on the sort key: without a collection size the items read alone may not show it)."""
    return _plans_worse(before, after) or after.discarded_share > before.discarded_share + 1e-9


def _composite_sort_keys(draft: _Draft) -> bool:
    return draft.choice is not None and draft.choice.composite_sort_keys


def _share_composite_gsi(draft: _Draft, pattern: AccessPattern, entity: Entity) -> bool:
    """Serve the pattern from a GSI its entity is in already, re-sorting the entity's entries there with a
    composite sort key (`modeling.design.composite_sort_keys`); True when one is shared.

    Kept only when the pattern then needs no index of its own and no pattern the index served before plans
    worse (reads more items, filters more away, or loses its key), so the move never trades one pattern's reads
    for another's."""
    if not shareable(pattern) or len(pattern.entities) != 1:
        return False
    model, key_design = draft.model, draft.key_design()
    reads = [p for p in model.access_patterns if p.kind.is_read and p.name != pattern.name]
    names = frozenset(a.name for a in entity.attributes)
    candidates = shared_index_candidates(key_design, entity.name, pattern, names,
                                         lambda a: _sortable_reference(model, entity, a))
    before: list[tuple[AccessPattern, PatternPlan]] | None = None
    for index_name, shared in candidates:
        if _needs_index(plan_pattern(model, shared, pattern)):
            continue
        before = before or [(p, plan_pattern(model, key_design, p)) for p in reads]
        if any(_sharing_hurts(plan, plan_pattern(model, shared, p)) for p, plan in before if plan.index == index_name):
            continue
        draft.entity_keys[entity.name] = next(k for k in shared.entities if k.entity == entity.name)
        draft.index_patterns.setdefault(index_name, []).append(pattern.name)
        keys = draft.entity_keys[entity.name].indexes[index_name]
        draft.index_reasons.setdefault(index_name, []).append(
            f"{index_name} also serves {pattern.name}: {entity.name}'s sort key there is the composite "
            f"{keys.sort_key}, so one Query fixes its first parts with begins_with and ranges over the next, "
            "instead of a GSI of its own.")
        return True
    return False


def _partition_of(template: str) -> list[str]:
    """Attribute names a template references, in order (the one key-template grammar, `modeling.design.keys`)."""
    return list(KeyTemplate.parse(template).attribute_names) if template else []


def _gsi_with_room(draft: _Draft, entities: list[Entity],
                   pattern: AccessPattern | None = None) -> SecondaryIndex | None:
    """An existing GSI none of these entities uses yet, whose patterns want the same kind of projection.

    None when the layout asks for one GSI per pattern.
    """
    if draft.choice is not None and not draft.choice.share_gsis:
        return None
    for index in draft.gsis:
        if any(index.name in draft.entity_keys[e.name].indexes for e in entities):
            continue
        if pattern is None or draft.user_kinds(index.name) <= {bool(pattern.returns)}:
            return index  # a whole-item pattern would force ALL on an index projected for a few attributes
    return None


def _entity_names(model: Model) -> tuple[str, ...]:
    return derived_index(model, "generator_entity_names", ("entities",), lambda m: tuple(e.name for e in m.entities))


def _patterns_by_name(model: Model) -> dict[str, AccessPattern]:
    """Name -> pattern (the last of a repeated name, as a dict display keeps), built once per model."""
    return derived_index(model, "generator_patterns", ("access_patterns",),
                         lambda m: {p.name: p for p in m.access_patterns})


def _add_gsi(draft: _Draft, pattern: AccessPattern, entities: list[Entity], inputs: list[str]) -> None:
    index = _gsi_with_room(draft, entities, pattern)
    if index is None:
        number = len(draft.gsis) + 1
        index = SecondaryIndex(name=f"GSI{number}", partition_key=KeyAttribute(name=f"GSI{number}PK"),
                               sort_key=KeyAttribute(name=f"GSI{number}SK"))
        draft.gsis.append(index)
    conditions = tuple(AttributeFilter(attribute=f.attribute, equals=f.equals) for f in pattern.filters)
    constant = "#".join(f"{label(c.attribute)}#{c.equals}" for c in conditions) or label(entities[0].name)
    inputs, chain, range_attribute = (_composite_gsi_key_parts(draft.model, pattern, entities, inputs)
                                      if _composite_sort_keys(draft)
                                      else _gsi_key_parts(draft.model, pattern, entities, inputs))
    partition = "#".join(_key_part(a) for a in inputs) or constant
    draft.index_keys.setdefault(index.name, (tuple(inputs), chain, range_attribute))
    for entity in entities:
        templates = KeyTemplates(partition_key=partition,
                                 sort_key=_sort_template(draft.model, entity, range_attribute, inputs, chain),
                                 only_when=conditions)
        if len(entities) == 1 and templates in draft.entity_keys[entity.name].indexes.values():
            continue  # an index with exactly these keys exists already (several entities must share this one)
        keys = draft.entity_keys[entity.name]
        draft.entity_keys[entity.name] = EntityKeys(entity=keys.entity, table=keys.table,
                                                    indexes={**keys.indexes, index.name: templates})
    draft.index_patterns.setdefault(index.name, []).append(pattern.name)
    draft.index_reasons.setdefault(index.name, []).append(_gsi_reason(draft, index.name, pattern, conditions))


def _gsi_key_parts(model: Model, pattern: AccessPattern, entities: list[Entity],
                   inputs: list[str]) -> tuple[list[str], tuple[str, ...], str | None]:
    """Partition inputs, sort-key equality chain and range attribute of a GSI made for `pattern`.

    Read patterns on the same entities with the same sparse conditions form a family: the GSI is keyed
    on the fewest equality inputs any of them gives (when the pattern gives at least those), and the
    others' further equality inputs lead its composite sort key (`{state}#{logTime}`), so one index
    serves the family with begins_with instead of one index per pattern. Falls back to the pattern's own
    inputs when its extra inputs are not the chain's first parts.
    """
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    conditions = {(f.attribute, str(f.equals)) for f in pattern.filters}
    names = set.intersection(*({a.name for a in e.attributes} for e in entities)) if entities else set()
    family = [q for q in _eventual_reads_on(model).get(frozenset(pattern.entities), ())
              if {(f.attribute, str(f.equals)) for f in q.filters} == conditions]
    subsets = [set(_equal_inputs(q)) for q in family if set(_equal_inputs(q)) <= set(inputs)]
    smallest = min(subsets, key=lambda s: (len(s), sorted(s)), default=set(inputs))
    partition = [a for a in inputs if a in smallest]
    counts: dict[str, int] = {}
    for q in family:
        if smallest <= set(_equal_inputs(q)):
            for a in set(_equal_inputs(q)) - smallest:
                counts[a] = counts.get(a, 0) + 1
    chain = tuple(a for a in sorted(counts, key=lambda a: (-counts[a], a)) if a in names and a != range_attribute)
    own = set(inputs) - smallest
    if set(chain[:len(own)]) != own:
        return inputs, (), range_attribute
    if range_attribute is not None:
        chain = chain[:len(own)]  # the pattern's range must follow its own equality parts
    else:  # the range of the family members that give the whole chain, when they agree on one
        ranges = {q.range_condition.attribute for q in family if q.range_condition is not None
                  and set(_equal_inputs(q)) == smallest | set(chain)}
        range_attribute = next(iter(ranges)) if len(ranges) == 1 and ranges <= names else None
    return partition, chain, range_attribute


def _composite_gsi_key_parts(model: Model, pattern: AccessPattern, entities: list[Entity],
                             inputs: list[str]) -> tuple[list[str], tuple[str, ...], str | None]:
    """Partition inputs, sort-key equality chain and range attribute of a GSI made for `pattern` when patterns
    share GSIs through composite sort keys: partitioned on the fewest equality inputs any pattern of its family
    gives (as `_gsi_key_parts`), sorted by the pattern's own further inputs, then its range. The family's other
    patterns share the index as they come (`_share_composite_gsi`), each checked, instead of all their inputs
    being guessed into the sort key up front."""
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    partition, _, _ = _gsi_key_parts(model, pattern, entities, inputs)
    chain = tuple(a for a in inputs if a not in partition and a != range_attribute)
    return partition, chain, range_attribute


def _eventual_reads_on(model: Model) -> dict[frozenset[str], tuple[AccessPattern, ...]]:
    """Eventually consistent reads with equality inputs, by their set of entities, in model order (built once per
    model: a scan of every pattern for every GSI made the generator quadratic in the entities)."""
    def build(m: Model) -> dict[frozenset[str], tuple[AccessPattern, ...]]:
        found: dict[frozenset[str], list[AccessPattern]] = {}
        for q in m.access_patterns:
            if q.kind.is_read and q.consistency is not Consistency.STRONG and _equal_inputs(q):
                found.setdefault(frozenset(q.entities), []).append(q)
        return {entities: tuple(patterns) for entities, patterns in found.items()}
    return derived_index(model, "eventual_reads_on", ("access_patterns",), build)


def _gsi_reason(draft: _Draft, index: str, pattern: AccessPattern, conditions: tuple[AttributeFilter, ...]) -> str:
    if conditions:
        states = ", ".join(f"{c.attribute} = {c.equals}" for c in conditions)
        return (f"{index} is a sparse index: only items with {states} get its keys, so {pattern.name} reads "
                "exactly the items it returns instead of filtering the rest.")
    if set(_equal_inputs(pattern)) & draft.table_sort_attributes():
        return f"{index} inverts the table's keys so {pattern.name} can look items up from the other side."
    return f"{index} is keyed on {', '.join(pattern.inputs) or 'a constant'} so {pattern.name} can Query it."


def _add_lsi(draft: _Draft, pattern: AccessPattern, entity: Entity) -> None:
    number = len(draft.lsis) + 1
    name = f"LSI{number}"
    index = SecondaryIndex(name=name, partition_key=KeyAttribute(name="PK"), sort_key=KeyAttribute(name=f"{name}SK"))
    draft.lsis.append(index)
    keys = draft.entity_keys[entity.name]
    partition = _partition_of(keys.table.partition_key)
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    equal = tuple(a for a in (*_equal_inputs(pattern), *(f.attribute for f in pattern.filters)) if a not in partition)
    templates = KeyTemplates(partition_key=keys.table.partition_key,
                             sort_key=_sort_template(draft.model, entity, range_attribute, partition, equal))
    draft.entity_keys[entity.name] = EntityKeys(entity=keys.entity, table=keys.table,
                                                indexes={**keys.indexes, name: templates})
    draft.index_patterns.setdefault(name, []).append(pattern.name)
    draft.index_reasons[name] = [f"{name} gives {pattern.name} a second sort order with strongly consistent "
                                  "reads, which a GSI cannot offer; it caps each item collection at 10 GB."]


def _terse_single_entity_gsis(draft: _Draft) -> None:
    """Key a GSI that holds one entity on its attributes, without labels: `{operatorId}` / `{logTime}`.

    Labels and the identity suffix keep overloaded keys apart and table keys unique; a GSI holding one
    entity needs neither (GSI keys need not be unique, dynamodb-rules §4.1). When such a key is one plain
    string attribute and the index is not sparse, the index is keyed on that attribute itself, as published
    designs do (`customerId`), so no key attribute is added to the item: every item and index entry is
    smaller, which is storage and sometimes units on every read and write. Kept only when no read plans
    worse than with the labelled keys.
    """
    reads = [p for p in draft.model.access_patterns if p.kind.is_read]
    before = [plan_pattern(draft.model, draft.key_design(), p) for p in reads]
    saved = (_EntityKeyMap(draft.entity_keys), list(draft.gsis))
    changed = False
    for number, index in enumerate(draft.gsis):
        holders = [name for name, keys in draft.entity_keys.items() if index.name in keys.indexes]
        creators = draft.index_patterns.get(index.name, [])
        if len(holders) != 1 or len(creators) != 1:
            continue
        entity = draft.model.entity(holders[0])
        pattern = draft.model.access_pattern(creators[0])
        if entity is None or pattern is None:
            continue
        keys = draft.entity_keys[entity.name]
        templates = keys.indexes[index.name]
        partition_inputs, chain, range_attribute = draft.index_keys.get(
            index.name, (tuple(_equal_inputs(pattern)), (), None))
        inputs = list(partition_inputs)
        sort_parts = [*chain, *([range_attribute] if range_attribute and entity.attribute(range_attribute) is not None
                                else [])] or [a for a in entity.identifiers if a not in inputs]
        if not sort_parts:
            continue  # a unique lookup by the whole identity: the labelled constant sort key stays
        partition = "#".join(f"{{{a}}}" for a in inputs) or templates.partition_key
        sort = "#".join(_sortable_reference(draft.model, entity, a) for a in sort_parts)
        terse = KeyTemplates(partition_key=partition, sort_key=sort, only_when=templates.only_when)
        draft.entity_keys[entity.name] = EntityKeys(entity=keys.entity, table=keys.table,
                                                    indexes={**keys.indexes, index.name: terse})
        changed = True
        if not templates.only_when:  # a sparse index's key is written only for its members: keep its own name
            draft.gsis[number] = SecondaryIndex(
                name=index.name, projection=index.projection,
                partition_key=plain_key(entity, partition, index.partition_key),
                sort_key=plain_key(entity, sort, index.sort_key) if index.sort_key else None)
    if not changed:
        return
    key_design = draft.key_design()
    if any(_plans_worse(plan, plan_pattern(draft.model, key_design, pattern))
           for plan, pattern in zip(before, reads, strict=True)):
        draft.entity_keys, draft.gsis = saved


def _plans_worse(before: PatternPlan, after: PatternPlan) -> bool:
    scans = (before.operation is Operation.SCAN, after.operation is Operation.SCAN)
    return ((before.served and not after.served) or scans == (False, True)
            or after.items_read_per_request > before.items_read_per_request * (1 + 1e-9)
            or bool(_entities_read(after) - _entities_read(before)))


def _mixed_reads(model: Model, key_design: KeyDesign, plans: tuple[PatternPlan, ...]) -> set[str]:
    """The reads whose Query also returns other entities' items (what DDS206 reports)."""
    # imported here: the checks import this module (checks.reads reads MAX_DISCARDED_SHARE)
    from modeling.design.checks.results import extra_entities

    paths = {path.name: path for path in access_paths(key_design)}
    patterns = _patterns_by_name(model)
    mixed = set()
    for plan in plans:
        pattern, path = patterns.get(plan.pattern), paths.get(plan.index)
        if plan.operation is not Operation.QUERY or pattern is None or path is None or not pattern.kind.is_read:
            continue
        range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
        in_filter = range_attribute if range_attribute and range_attribute in plan.filter_expression else None
        if extra_entities(model, path, pattern, plan.filter_expression, in_filter):
            mixed.add(plan.pattern)
    return mixed


def _plain_reasons(reasons: dict[str, str], labelled: KeyDesign, plain: KeyDesign) -> None:
    """Say the keys each reason names as they are now (`ROOM#{roomId}` became `{roomId}`), and why they carry no
    label (modeling.design.plain_keys)."""
    before = {k.entity: k.table for k in labelled.entities}
    after = {k.entity: k.table for k in plain.entities}
    renamed = {was: now for entity, old in before.items() if entity in after
               for was, now in ((old.partition_key, after[entity].partition_key),
                                (old.sort_key, after[entity].sort_key)) if was and now and was != now}
    for entity, reason in reasons.items():
        for was in sorted(renamed, key=len, reverse=True):  # the longest first: one template may hold another
            reason = reason.replace(was, renamed[was])
        old, new = before.get(entity), after.get(entity)
        if old is not None and new is not None and old.partition_key != new.partition_key:
            reason += " Its partition key carries no label: no other kind of partition shares the table."
        if old is not None and new is not None and new.sort_key and old.sort_key != new.sort_key:
            reason += (" Its sort key carries no label: nothing else in its partition sorts among its values "
                       "(a Query bounds them apart from any constant sort key beside them).")
        reasons[entity] = reason


def _entities_read(plan: PatternPlan) -> set[str]:
    """The entities whose items a read's key condition reads (`items_read`): a plain key must not add one."""
    return {name for name, share in plan.entity_shares if share > 0}


def _with_projections(draft: _Draft) -> None:
    """Project what every pattern reading an index returns: the ones it was made for and any the planner
    sends to it (an index made for one pattern often serves another)."""
    patterns = {p.name: p for p in draft.model.access_patterns}
    readers = {name: list(users) for name, users in draft.index_patterns.items()}
    for plan in plan_patterns(draft.model, draft.key_design()):
        if plan.index in readers and plan.pattern not in readers[plan.index]:
            readers[plan.index].append(plan.pattern)

    def projected(index: SecondaryIndex) -> SecondaryIndex:
        returns = [patterns[n].returns for n in readers.get(index.name, [])]
        if not returns or any(not r for r in returns):
            return index
        # An attribute inside a key template (`CUSTOMER#{level}#...`) is still a non-key attribute of the
        # item: the index has the composite key string, not `level`, so it must be projected to be returned.
        # a key attribute of the index (one keyed on `customerId` itself) is in every entry already
        keys = {index.partition_key.name, *(k.name for k in (index.sort_key,) if k is not None)}
        wanted = sorted({a for r in returns for a in r} - keys)
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


def generate_design(model: Model, strategy: str = COLLECTIONS, choice: LayoutChoice | None = None,
                    name: str | None = None, summary: str | None = None) -> Design:
    """One proposed design for a model, ignoring any explicit design it has.

    Without a `choice` the strategy's rules place every entity; with one, its placements and GSI policy do.
    The design is built on the canonical model; its plans follow the model's own pattern order.
    """
    canonical = canonical_model(model)
    draft = _Draft(canonical, strategy, choice)
    for entity in _parents_first(canonical):
        _table_keys(draft, entity)
    # Everything after the table keys depends only on the model, the table keys and the GSI policy: many layouts
    # of a search end with the same table keys (a sort order that changes nothing, a collection that falls back
    # to an own partition), so the indexes are worked out once per model and table keys.
    memo = derived_index(canonical, "generator_indexes", _INDEXED_FROM, lambda m: _IndexMemo({})).phases
    key = (draft.choice is None or draft.choice.share_gsis, _composite_sort_keys(draft),
           tuple((name, keys.table.partition_key, keys.table.sort_key) for name, keys in draft.entity_keys.items()))
    done = memo.get(key)
    if done is None:
        _indexes(draft)
        if len(memo) >= _MAX_REMEMBERED_INDEXES:
            memo.clear()
        done = memo[key] = _IndexPhase.of(draft)
    done.restore(draft)
    default_name, default_summary = _STRATEGIES[strategy]
    return _finish(draft, name or default_name, summary or default_summary, model)


def _indexes(draft: _Draft) -> None:
    """Indexes for the patterns the table keys do not serve, made terse where they can be, then projected."""
    canonical = draft.model
    key_design = draft.key_design()  # rebuilt only when an index changed it: per pattern it was quadratic
    for pattern in canonical.access_patterns:
        if pattern.kind.is_read and _needs_index(plan_pattern(canonical, key_design, pattern)):
            _add_index_for(draft, pattern)
            key_design = draft.key_design()
    _terse_single_entity_gsis(draft)
    _with_projections(draft)


_INDEXED_FROM = ("table", "traffic_profile", "entities", "relationships", "access_patterns")  # not key_design
_MAX_REMEMBERED_INDEXES = 4_096  # per model


@dataclass(frozen=True, eq=False)  # kept in the model's __dict__, which pydantic's == compares: by identity
class _IndexMemo:
    phases: dict[tuple[object, ...], _IndexPhase]


@dataclass(frozen=True)
class _IndexPhase:
    """What `_indexes` leaves in a draft (entity reasons are the table keys' and stay the draft's own)."""

    entity_keys: tuple[tuple[str, EntityKeys], ...]
    gsis: tuple[SecondaryIndex, ...]
    lsis: tuple[SecondaryIndex, ...]
    index_patterns: tuple[tuple[str, tuple[str, ...]], ...]
    index_reasons: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def of(cls, draft: _Draft) -> _IndexPhase:
        return cls(tuple(draft.entity_keys.items()), tuple(draft.gsis), tuple(draft.lsis),
                   tuple((k, tuple(v)) for k, v in draft.index_patterns.items()),
                   tuple((k, tuple(v)) for k, v in draft.index_reasons.items()))

    def restore(self, draft: _Draft) -> None:
        draft.entity_keys = _EntityKeyMap(self.entity_keys)
        draft.gsis, draft.lsis = list(self.gsis), list(self.lsis)
        draft.index_patterns = {k: list(v) for k, v in self.index_patterns}
        draft.index_reasons = {k: list(v) for k, v in self.index_reasons}


def _parents_first(model: Model) -> list[Entity]:
    """A parent comes before its children: their keys copy the parent's."""
    return parents_first(model.entities, lambda e: [r.parent for r in child_relationships(model, e.name)])


def _finish(draft: _Draft, name: str, summary: str, model: Model) -> Design:
    key_design = with_auxiliary_keys(model, draft.key_design())
    plans = plan_patterns(model, key_design)
    # labels go where they tell nothing apart (modeling.design.plain_keys): kept only when no read plans worse
    # and no Query returns another entity's items that the labelled keys kept out (DDS206, the Preview's oracle)
    terse = terse_single_entity_table(model, key_design) or plain_collection_table(model, key_design)
    if terse is not None:
        terse_plans = plan_patterns(model, terse)
        if not any(_plans_worse(before, after) for before, after in zip(plans, terse_plans, strict=True)) and \
                _mixed_reads(model, terse, terse_plans) <= _mixed_reads(model, key_design, plans):
            _plain_reasons(draft.entity_reasons, key_design, terse)
            key_design, plans = terse, terse_plans
    return Design(
        name=name, summary=summary, key_design=key_design, plans=plans,
        entity_reasons=tuple((e.name, draft.entity_reasons[e.name]) for e in model.entities
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
    draft = _Draft(canonical_model(model), COLLECTIONS)
    draft.gsis = list(model.key_design.global_secondary_indexes)
    draft.lsis = list(model.key_design.local_secondary_indexes)
    for keys in model.key_design.entities:
        draft.entity_keys[keys.entity] = keys
        draft.entity_reasons[keys.entity] = f"{keys.entity}'s keys come from the model's own key design."
    for entity in _parents_first(draft.model):
        if entity.name not in draft.entity_keys:
            _table_keys(draft, entity)
    declared = {k.entity for k in model.key_design.entities}
    filled = tuple(k for k in draft.key_design().entities if k.entity not in declared)
    base = KeyDesign(partition_key=model.key_design.partition_key, sort_key=model.key_design.sort_key,
                     global_secondary_indexes=tuple(draft.gsis), local_secondary_indexes=tuple(draft.lsis),
                     entities=(*model.key_design.entities, *filled))  # the user's order, as typed
    base = with_auxiliary_keys(model, base)
    return Design(name="Your design", summary="The key design written in the model, gaps filled by the generator.",
                  key_design=base, plans=plan_patterns(model, base),
                  entity_reasons=tuple(draft.entity_reasons.items()),
                  index_reasons=tuple(IndexChoice(i.name, "Declared in the model.", ())
                                      for i in (*base.global_secondary_indexes, *base.local_secondary_indexes)))


def rule_based_designs(model: Model) -> tuple[Design, ...]:
    """The model's own design first (if any), then the distinct rule-based candidates ("Item collections",
    "Separate partitions").

    Not the product's answer to "what design?": these are the seeds of the cost-based search, and
    `studio.design.propose(model)` (which every page, the CLI, the report and the workshop call)
    ranks them with every other layout the search prices. Use this where a test or a benchmark needs a
    design of the model that does not depend on prices."""
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
