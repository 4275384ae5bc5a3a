"""The space of key designs the search walks: canonical models and the layout choices per entity.

A `LayoutChoice` fixes, for every entity, where its items live on the table (`Placement`: its own
partition, partitioned by part of its identity for one list pattern, or inside a parent's item
collection) and which pattern's order its sort key follows, plus whether GSIs are shared (overloaded)
or one per pattern. `modeling.design.generator.generate_design` turns a choice into a design; the search that
prices choices is `modeling.design.search` (with the pricing it is given: `costs` may import modeling, never the
reverse), so this module only says what the candidates are.

Everything here works on `canonical_model(model)`: entities, attributes, relationships and access
patterns sorted by name, so the order a file lists them in never changes a candidate or its cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from modeling.model import (
    AccessPattern,
    Entity,
    Model,
    PatternKind,
    RelationshipKind,
    child_relationships,
    patterns_on,
)
from modeling.write_semantics import writes_supply


def canonical_model(model: Model) -> Model:
    """The same model with every list whose order carries no meaning sorted by name.

    Identifiers, pattern inputs and filters keep their order: it is the order of the parts of a key.
    """
    entities = tuple(sorted(map(_canonical_entity, model.entities), key=lambda e: e.name))
    relationships = tuple(sorted(model.relationships, key=lambda r: (r.name, r.parent, r.child)))
    patterns = tuple(sorted(model.access_patterns, key=lambda p: p.name))
    if (_same_objects(entities, model.entities) and _same_objects(relationships, model.relationships)
            and _same_objects(patterns, model.access_patterns)):
        # already canonical: the model itself, so what is remembered with it (plans, indexes by name) is
        # reused by every design generated from it instead of being rebuilt for an equal copy
        return model
    return model.model_copy(update={"entities": entities, "relationships": relationships,
                                    "access_patterns": patterns})


def _canonical_entity(entity: Entity) -> Entity:
    attributes = tuple(sorted(entity.attributes, key=lambda a: a.name))
    return entity if _same_objects(attributes, entity.attributes) else entity.model_copy(
        update={"attributes": attributes})


def _same_objects(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True, order=True)
class Placement:
    """Where one entity's items live on the table.

    relationship: the parent relationship whose item collection holds them (None: their own partition).
    partition_attributes: for an own partition, the identifiers it is keyed on (empty: all of them).
    sort_pattern: the access pattern whose order the sort key follows (None: identity order).
    """

    relationship: str | None = None
    partition_attributes: tuple[str, ...] = ()
    sort_pattern: str | None = None

    @property
    def in_collection(self) -> bool:
        return self.relationship is not None

    def describe(self) -> str:
        if self.relationship:
            return f"in the item collection of {self.relationship}" + (
                f", sorted for {self.sort_pattern}" if self.sort_pattern else "")
        if self.partition_attributes:
            return f"partitioned by {', '.join(self.partition_attributes)} for {self.sort_pattern}"
        return "its own partition"


OWN_PARTITION = Placement()


@dataclass(frozen=True)
class LayoutChoice:
    """One candidate layout: a placement per entity (by name) and the GSI policy: whether GSIs are shared
    (overloaded) by entities, and whether a pattern may share an entity's existing GSI through a composite sort
    key instead of getting its own (`modeling.design.composite_sort_keys`)."""

    placements: tuple[tuple[str, Placement], ...]
    share_gsis: bool = True
    composite_sort_keys: bool = False

    def placement(self, entity: str) -> Placement | None:
        return next((p for name, p in self.placements if name == entity), None)


def equal_inputs(pattern: AccessPattern) -> list[str]:
    """Inputs compared with `=`: every input except the range condition's attribute."""
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    return [name for name in pattern.inputs if name != range_attribute]


def reads_on(model: Model, entity: Entity) -> list[AccessPattern]:
    return [p for p in patterns_on(model, entity.name) if p.kind.is_read and p.entities == (entity.name,)]


def collection_relationships(model: Model, entity: Entity) -> list[str]:
    """Relationships whose parent's item collection could hold this entity (one-to-*, full parent key)."""
    names = []
    for relationship in child_relationships(model, entity.name):
        parent = model.entity(relationship.parent)
        if (relationship.child == entity.name and relationship.kind is not RelationshipKind.MANY_TO_MANY
                and parent is not None and parent.identifiers and relationship.parent != entity.name
                and len(relationship.child_attributes) == len(parent.identifiers)):
            names.append(relationship.name)
    return names


def placement_options(model: Model, entity: Entity) -> tuple[Placement, ...]:
    """Every placement worth pricing for one entity, in a stable order (the model must be canonical)."""
    reads = reads_on(model, entity)
    options = [OWN_PARTITION]
    for pattern in reads:
        inputs = equal_inputs(pattern)
        if pattern.kind is PatternKind.READ_MANY and inputs and set(inputs) < set(entity.identifiers):
            options.append(Placement(None, tuple(a for a in entity.identifiers if a in inputs), pattern.name))
    for name in collection_relationships(model, entity):
        relationship = next(r for r in model.relationships if r.name == name)
        if not writes_supply(model, entity.name, relationship.child_attributes):
            # keyed by its parent's key, an item some write is not given that key for (a copy whose member
            # changes at each check-out) could not be named: every such layout fails DDS312 and DDS107
            continue
        options.append(Placement(name))
        for pattern in reads:
            if set(relationship.child_attributes) <= set(equal_inputs(pattern)):
                options.append(Placement(name, (), pattern.name))
        for pattern in model.access_patterns:
            if pattern.kind.is_read and set(pattern.entities) == {relationship.parent, entity.name}:
                options.append(Placement(name, (), pattern.name))
    return tuple(dict.fromkeys(options))
