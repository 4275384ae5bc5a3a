"""Reading through uniqueness items: a read by a unique attribute as two GetItems instead of a GSI (issue 28.3).

An entity with a unique attribute keeps a uniqueness item (`CUSTOMEREMAIL#{email}`, The DynamoDB Book ch. 19;
AWS Database Blog, "Simulating Amazon DynamoDB unique constraints using transactions") that every write of the
entity puts, deletes or moves in the same transaction (`modeling.write_semantics`). The item carries the
owner's table key attributes (`WriteMember.carries`), so "get customer by email" can be served by a GetItem on
the uniqueness item, which gives the customer's key, then a GetItem on the customer's item: two reads of up to
4 KB, 0.5 read unit each when eventually consistent and 1 when strong (dynamodb-rules §1.2), where a GSI on the
attribute costs an index write on every write of the entity and the index's storage (§4.1) and cannot serve a
strongly consistent read at all.

This module is the plan source: `read_through_uniqueness` is the planner's plan for such a read when no table
key or index serves it (a design the user wrote without the GSI, or a strongly consistent read a GSI cannot
serve). The generator keeps building the GSI, so the GSI stays a candidate; the search's candidate source that
leaves it out is `modeling.design.uniqueness_candidates`.
"""

from __future__ import annotations

from modeling.design.plans import TABLE, Operation, PatternPlan, ReadThrough
from modeling.model import (
    AccessPattern,
    AuxiliaryItem,
    AuxiliaryKind,
    Consistency,
    Entity,
    EntityKeys,
    KeyDesign,
    Model,
    PatternKind,
    derived_index,
)
from modeling.write_semantics import (
    auxiliary_item_bytes,
    auxiliary_items,
    auxiliary_templates,
    owner_key_attributes,
)


def readable_through_uniqueness(model: Model) -> frozenset[str]:
    """The model's read patterns a uniqueness item can serve, worked out once per model (the planner and the
    search ask for every pattern of every candidate; most models have none)."""
    return derived_index(model, "uniqueness_reads", ("entities", "access_patterns"), lambda m: frozenset(
        p.name for p in m.access_patterns if uniqueness_item_for(m, p) is not None))


def uniqueness_item_for(model: Model, pattern: AccessPattern) -> tuple[Entity, AuxiliaryItem] | None:
    """The entity and its uniqueness item whose unique value is exactly what a read of one item asks by.

    Only a `read_one` of one entity whose inputs are the uniqueness item's attributes (no range condition, no
    filter): the uniqueness item then names at most one item, and that item is the answer."""
    if pattern.kind is not PatternKind.READ_ONE or len(pattern.entities) != 1:
        return None
    if pattern.range_condition is not None or pattern.filters or not pattern.inputs:
        return None
    entity = model.entity(pattern.entities[0])
    if entity is None:
        return None
    wanted = set(pattern.inputs)
    candidates = sorted((a for a in auxiliary_items(model, entity)
                         if a.kind is AuxiliaryKind.UNIQUENESS and set(a.attributes) == wanted),
                        key=lambda a: a.name)  # by name: never the order the file lists them in
    return (entity, candidates[0]) if candidates else None


def read_through_uniqueness(model: Model, design: KeyDesign, pattern: AccessPattern) -> PatternPlan | None:
    """The plan of a read by a unique attribute through its uniqueness item, or None when it has none.

    The owner's item must be keyed on the table by attributes the uniqueness item can carry (its table key's
    attributes); the uniqueness item is on the table with its own keys (`EntityKeys.auxiliary`)."""
    found = uniqueness_item_for(model, pattern) if pattern.name in readable_through_uniqueness(model) else None
    if found is None:
        return None
    entity, aux = found
    keys = next((k for k in design.entities if k.entity == entity.name), None)
    carries = owner_key_attributes(design, entity.name)
    if keys is None or not carries:
        return None
    templates = auxiliary_templates(model, design, entity, aux)
    through = ReadThrough(aux.name, templates.partition_key, templates.sort_key, carries,
                          auxiliary_item_bytes(templates))
    strong = pattern.consistency is Consistency.STRONG
    return PatternPlan(
        pattern=pattern.name, operation=Operation.GET_ITEM, index=TABLE, entities=pattern.entities,
        key_condition="", filter_expression="", scan_index_forward=True, consistent_read=strong,
        items_read_per_request=2.0, items_returned_per_request=pattern.expected_items,
        items_written_per_request=0.0, index_writes=(), reason=_reason(entity, aux, through, keys, strong),
        items_read_p99=2.0,
        items_read_derivation=(f"two GetItems: the uniqueness item {through.partition_key}, then the "
                               f"{entity.name} item its {', '.join(carries)} names"),
        through=through)


def _reason(entity: Entity, aux: AuxiliaryItem, through: ReadThrough, keys: EntityKeys, strong: bool) -> str:
    kind = "strongly" if strong else "eventually"
    owner_key = keys.table.partition_key + (f" / {keys.table.sort_key}" if keys.table.sort_key else "")
    return (f"No table key or index is built from {', '.join(aux.attributes)}, but every {entity.name} write "
            f"already keeps the uniqueness item {aux.name} ({through.partition_key}) in step, in the same "
            f"transaction, and it carries {', '.join(through.carries)}: a GetItem on it gives the {entity.name}'s "
            f"key, and a second GetItem on the table ({owner_key}) returns the item. Two {kind} consistent "
            "GetItems, each rounded up to 4 KB on its own, instead of an index that every write of the entity "
            "also writes (AWS: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
            "read-write-operations.html).")
