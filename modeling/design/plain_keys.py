"""Plain attribute keys: table keys without labels, as published designs draw them where labels tell nothing apart.

A generated key carries labels (`EQUIPMENT#{equipmentId}`, `STATE_VERSION#{time}`): they keep entities apart in
a shared partition and name an entity among others by a constant sort key. Where nothing needs telling apart,
they are bytes on every item, paid for in storage and, across a size block, in read and write units
(dynamodb-rules §6: an attribute's size is its name plus its value's bytes). Two layouts lose them here:

- a table of one entity (`terse_single_entity_table`): its keys are its own attributes (`sessionToken`;
  `userId` / `gameTitle`);
- a table of one item collection (`plain_collection_table`): every entity shares one partition-key template,
  so the partition key is the parent's value alone (`{equipmentId}`), and the entity whose sort key is a value
  that always starts with a digit (a timestamp, a padded number: `modeling.design.key_ranges`) keeps only that
  value (`{time}`), while every other entity keeps its constant, labelled sort key (`EQUIPMENT`), which sorts
  outside the digits. A Query for the values then bounds the sort key to the digits (`BETWEEN "0" AND
  "9\\uffff"`, `planner.entities_span`) and never meets the other entities' items: the AWS time-based version
  control sample's `begins_with(SK, "2")`.

Refused, the labelled keys kept: a table holding several partition templates (two roots' plain values could be
equal, one partition holding both), auxiliary items or an LSI (their keys copy the table's), a sort key missing,
a Number sort key (it sorts by value, not text), or another entity's sort key that starts with a value or sorts
among the digits (it could fall inside the bounds). The generator keeps a plain layout only when no read plans
worse or reads another entity's items (`generator._finish`).

Number widths stay, so string order is still number order; a key that is then one string attribute of every
entity is keyed on that attribute itself, so no key attribute is added to the item.
"""

from __future__ import annotations

import re

from modeling.design.key_ranges import DIGIT_RANGE, sort_key_range, starts_with_digit
from modeling.design.keys import KeyTemplate
from modeling.model import (
    AttributeType,
    Entity,
    EntityKeys,
    KeyAttribute,
    KeyAttributeType,
    KeyDesign,
    KeyTemplates,
    Model,
)
from modeling.write_semantics import auxiliary_items


def plain_key(entity: Entity, template: str, default: KeyAttribute) -> KeyAttribute:
    """The attribute itself when the template is exactly one string attribute, else the index's own key."""
    attribute = entity.attribute(template[1:-1]) if template.startswith("{") and template.endswith("}") else None
    if attribute is None or attribute.type is not AttributeType.S or template != f"{{{attribute.name}}}":
        return default
    return KeyAttribute(name=attribute.name)


def unlabelled(template: str) -> str:
    """A template's attribute references alone, joined by `#` (`USER#{userId}#GAME#{gameTitle}` ->
    `{userId}#{gameTitle}`); "" for a constant."""
    return "#".join(re.findall(r"\{[^{}]+\}", template))


def terse_single_entity_table(model: Model, design: KeyDesign) -> KeyDesign | None:
    """A table that holds one entity keyed on its own attributes, or None when the table holds more than that
    entity's items. The labels go, a constant sort key goes with the table's sort key."""
    if len(model.entities) != 1 or len(design.entities) != 1 or design.local_secondary_indexes:
        return None
    entity, keys = model.entities[0], design.entities[0]
    if keys.auxiliary or keys.table.only_when or auxiliary_items(model, entity):
        return None
    partition = unlabelled(keys.table.partition_key)
    sort = unlabelled(keys.table.sort_key) if keys.table.sort_key else ""
    if not partition:
        return None  # a constant partition (one item, or a singleton): nothing to key on
    if (partition, sort or None) == (keys.table.partition_key, keys.table.sort_key):
        return None
    table = KeyTemplates(partition_key=partition, sort_key=sort or None)
    return design.model_copy(update={
        "partition_key": plain_key(entity, partition, KeyAttribute(name="PK")),
        "sort_key": plain_key(entity, sort, KeyAttribute(name="SK")) if sort else None,
        "entities": (keys.model_copy(update={"table": table}),)})


def plain_collection_table(model: Model, design: KeyDesign) -> KeyDesign | None:
    """A table of one item collection with plain keys (see the module docstring), or None when it would be
    ambiguous or nothing changes."""
    entities = {e.name: e for e in model.entities}
    keys = {k.entity: k for k in design.entities}
    if (len(entities) < 2 or len(keys) != len(design.entities) or set(keys) != set(entities)
            or design.local_secondary_indexes or design.sort_key is None
            or design.sort_key.type is KeyAttributeType.N):
        return None
    if any(k.auxiliary or k.table.only_when or k.table.sort_key is None for k in keys.values()) or any(
            auxiliary_items(model, e) for e in entities.values()):
        return None
    templates = {k.table.partition_key for k in keys.values()}
    partition = unlabelled(next(iter(templates)))
    if len(templates) != 1 or not partition:
        return None  # several roots (their plain values could meet in one partition), or a constant partition
    chosen = _plain_sorted_entity(model, keys)
    if chosen is None:
        return None
    plain_sort = unlabelled(keys[chosen].table.sort_key or "")
    table = {name: KeyTemplates(partition_key=partition,
                                sort_key=plain_sort if name == chosen else k.table.sort_key)
             for name, k in keys.items()}
    named = {plain_key(e, partition, design.partition_key) for e in entities.values()}
    return design.model_copy(update={
        "partition_key": named.pop() if len(named) == 1 else design.partition_key,
        "entities": tuple(k.model_copy(update={"table": table[k.entity]}) for k in design.entities)})


def _plain_sorted_entity(model: Model, keys: dict[str, EntityKeys]) -> str | None:
    """The entity whose sort key loses its labels: its values start with a digit and every other entity's sort key
    sorts outside the digits. Of several, the one that saves the most bytes (items x label bytes), then by name,
    so the order of the file never decides."""
    sorts = {name: k.table.sort_key or "" for name, k in keys.items()}
    candidates = []
    for name, sort in sorts.items():
        plain = unlabelled(sort)
        entity = model.entity(name)
        if entity is None or not plain or plain == sort:
            continue
        if not starts_with_digit(model, entity, KeyTemplate.parse(plain).attribute_names[0]):
            continue
        if any(_among_digits(model, other, text) for other, text in sorts.items() if other != name):
            continue
        saved = entity.item_count * (len(sort.encode()) - len(plain.encode()))
        candidates.append((-saved, name))
    return min(candidates)[1] if candidates else None


def _among_digits(model: Model, entity: str, sort: str) -> bool:
    """Whether any key of this sort-key template could sort among the digits' bounds."""
    low, high = sort_key_range(model, entity, sort)
    return low <= DIGIT_RANGE[1] and DIGIT_RANGE[0] <= high
