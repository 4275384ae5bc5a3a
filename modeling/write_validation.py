"""Cross-reference checks of the write-semantics fields (issue 16): names that must exist and agree.

Each problem says what is wrong and how to fix it, at a readable path, like `modeling.validation`.
"""

from __future__ import annotations

from collections.abc import Iterator

from modeling.errors import Problem, Severity
from modeling.key_templates import KeyTemplate, KeyTemplateError
from modeling.model import (
    AccessPattern,
    AttributeType,
    AttributeUpdate,
    AuxiliaryKind,
    ConditionKind,
    Entity,
    Model,
    PatternKind,
    UpdateAction,
    WriteCondition,
)

_NUMBER_OR_SET = {AttributeType.N, AttributeType.SS, AttributeType.NS, AttributeType.BS}


def write_problems(model: Model) -> Iterator[Problem]:
    for entity in model.entities:
        yield from _auxiliary_problems(model, entity)
    for pattern in model.access_patterns:
        yield from _pattern_problems(model, pattern)


def _attribute_problem(entity: Entity, path: str, name: str) -> Iterator[Problem]:
    if entity.attribute(name) is None:
        known = ", ".join(a.name for a in entity.attributes) or "none yet"
        yield Problem(path, f"entity `{entity.name}` has no attribute `{name}`",
                      f"add it to {entity.name}, or use one of: {known}")


def _auxiliary_problems(model: Model, entity: Entity) -> Iterator[Problem]:
    for aux in entity.auxiliary_items:
        base = f"entities[{entity.name}].auxiliary_items[{aux.name}]"
        for name in aux.attributes:
            yield from _attribute_problem(entity, f"{base}.attributes", name)
        if aux.sum_of:
            yield from _attribute_problem(entity, f"{base}.sum_of", aux.sum_of)
        if aux.kind is AuxiliaryKind.AGGREGATE and aux.relationship:
            relationship = model.relationship(aux.relationship)
            if relationship is None or relationship.child != entity.name:
                known = ", ".join(r.name for r in model.relationships if r.child == entity.name) or "none"
                yield Problem(f"{base}.relationship",
                              f"`{aux.relationship}` is not a relationship whose child is {entity.name}",
                              f"name the relationship from the parent that holds the count; {entity.name} is "
                              f"the child of: {known}")
        for field, source in (("partition_key", aux.partition_key), ("sort_key", aux.sort_key)):
            if source is None:
                continue
            try:
                names = KeyTemplate.parse(source).attribute_names
            except KeyTemplateError as exc:
                yield Problem(f"{base}.{field}", str(exc), "write constants and {attribute} references")
                continue
            for name in names:
                yield from _attribute_problem(entity, f"{base}.{field}", name)


def _pattern_problems(model: Model, pattern: AccessPattern) -> Iterator[Problem]:
    base = f"access_patterns[{pattern.name}]"
    entity = model.entity(pattern.entities[0])
    is_write = not pattern.kind.is_read
    for field, given in (("condition", pattern.condition), ("updates", pattern.updates),
                         ("soft_delete", pattern.soft_delete), ("members", pattern.members)):
        if given and not is_write:
            yield Problem(f"{base}.{field}", f"{field} only applies to writes, not {pattern.kind.value}",
                          "remove it, or change the kind to a write kind")
    if pattern.updates and pattern.kind not in (PatternKind.UPDATE,):
        yield Problem(f"{base}.updates", f"updates belong to update patterns, not {pattern.kind.value}",
                      "use kind update, or give a transact_write's updates per member under `members`")
    if pattern.soft_delete and pattern.kind is not PatternKind.DELETE:
        yield Problem(f"{base}.soft_delete", f"soft_delete belongs to delete patterns, not {pattern.kind.value}",
                      "change the kind to delete")
    if pattern.members and pattern.kind is not PatternKind.TRANSACT_WRITE:
        yield Problem(f"{base}.members", f"members belong to transact_write patterns, not {pattern.kind.value}",
                      "change the kind to transact_write, or remove members")
    if pattern.condition and pattern.kind is PatternKind.BATCH_WRITE:
        yield Problem(f"{base}.condition", "BatchWriteItem takes no condition expressions",
                      "use transact_write (conditions per member) or single writes")
    if entity is not None and is_write:
        if pattern.condition:
            yield from _condition_problems(model, pattern, entity, f"{base}.condition", pattern.condition)
        for update in pattern.updates:
            yield from _update_problems(pattern, entity, f"{base}.updates[{update.attribute}]", update)
        if pattern.soft_delete:
            yield from _soft_delete_problems(model, entity, f"{base}.soft_delete", pattern)
    for i, member in enumerate(pattern.members):
        path = f"{base}.members[{i}]"
        member_entity = model.entity(member.entity)
        if member_entity is None:
            yield Problem(f"{path}.entity", f"there is no entity `{member.entity}`",
                          f"use one of: {', '.join(e.name for e in model.entities) or 'none yet'}")
            continue
        for attribute, source in member.key_inputs.items():
            yield from _attribute_problem(member_entity, f"{path}.key_inputs", attribute)
            if source not in pattern.inputs:
                yield Problem(f"{path}.key_inputs", f"`{source}` is not an input of {pattern.name}",
                              f"add {source} to the pattern's inputs")
        if member.condition:
            yield from _condition_problems(model, pattern, member_entity, f"{path}.condition", member.condition)
        if member.updates and member.action.value not in ("Update", "Put"):
            yield Problem(f"{path}.updates", f"a {member.action.value} member takes no updates",
                          "make the member's action Update, or remove its updates")
        if member.action.value == "Put":
            yield from _new_item_problems(path, member.updates)
        for update in member.updates:
            yield from _update_problems(pattern, member_entity, f"{path}.updates[{update.attribute}]", update)


def _condition_problems(model: Model, pattern: AccessPattern, entity: Entity, path: str,
                        condition: WriteCondition) -> Iterator[Problem]:
    if condition.attribute:
        yield from _attribute_problem(entity, f"{path}.attribute", condition.attribute)
    attribute = entity.attribute(condition.attribute or "")
    versioned = condition.kind is ConditionKind.VERSION_MATCHES
    if versioned and attribute is not None and attribute.type is not AttributeType.N:
        yield Problem(f"{path}.attribute", f"the version attribute `{attribute.name}` is {attribute.type.value}, "
                      "but the write increments it", "make it a Number (type N)")
    if condition.input and condition.input not in pattern.inputs:
        yield Problem(f"{path}.input", f"`{condition.input}` is not an input of {pattern.name}",
                      f"add {condition.input} to the pattern's inputs, or compare with a constant `value`")
    if attribute is not None and condition.value is not None:
        yield from _constant_type_problem(attribute.name, attribute.type, condition.value, f"{path}.value")
    if condition.kind is ConditionKind.ATTRIBUTE_NOT_EXISTS and pattern.kind is PatternKind.DELETE:
        yield Problem(f"{path}.kind", "a delete conditioned on attribute_not_exists can never delete anything",
                      "use attribute_exists (delete only an item that is there)")


def _update_problems(pattern: AccessPattern, entity: Entity, path: str, update: AttributeUpdate) -> Iterator[Problem]:
    yield from _attribute_problem(entity, f"{path}.attribute", update.attribute)
    attribute = entity.attribute(update.attribute)
    if update.action is UpdateAction.ADD and attribute is not None and attribute.type not in _NUMBER_OR_SET:
        yield Problem(f"{path}.action", f"ADD works on numbers and sets; `{attribute.name}` is {attribute.type.value}",
                      "use SET for other types, or make the attribute a Number")
    if update.action is UpdateAction.REMOVE and update.attribute in entity.identity:
        yield Problem(f"{path}.action", f"`{update.attribute}` identifies the item and cannot be removed",
                      "remove the whole item with a delete pattern instead")
    if update.input and update.input not in pattern.inputs:
        yield Problem(f"{path}.input", f"`{update.input}` is not an input of {pattern.name}",
                      f"add {update.input} to the pattern's inputs")
    if attribute is not None and update.value is not None and update.action in (UpdateAction.SET,
                                                                                 UpdateAction.IF_NOT_EXISTS):
        yield from _constant_type_problem(attribute.name, attribute.type, update.value, f"{path}.value")


def _constant_type_problem(name: str, attribute_type: AttributeType, value: object, path: str) -> Iterator[Problem]:
    """A constant of another type than its attribute: DynamoDB compares a Number with a String as unequal (a
    condition that can never hold, or always differs) and a SET would change the attribute's type."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    expected = {AttributeType.N: number, AttributeType.S: isinstance(value, str),
                AttributeType.BOOL: isinstance(value, bool)}.get(attribute_type)
    if expected is False:
        kind = "a boolean" if isinstance(value, bool) else "a number" if number else "a string"
        yield Problem(path, f"`{name}` is {attribute_type.value}, but the constant {value!r} is {kind}",
                      f"write a constant of type {attribute_type.value}, or change the attribute's type")


def _new_item_problems(path: str, updates: tuple[AttributeUpdate, ...]) -> Iterator[Problem]:
    """A Put member's updates say what the new item holds: a SET of a `value` or `input`, or a REMOVE (the new
    item lacks the attribute); an ADD or if_not_exists has no item to work on."""
    for update in updates:
        where = f"{path}.updates[{update.attribute}]"
        if update.action in (UpdateAction.ADD, UpdateAction.IF_NOT_EXISTS):
            yield Problem(where, f"a Put writes a new item, so {update.action.value} has nothing to change",
                          "SET the new item's `value` (or `input`), or make the member an Update")
        elif update.action is UpdateAction.SET and update.value is None and update.input is None:
            yield Problem(where, f"the new item's {update.attribute} needs a value",
                          "give `value` (a constant, e.g. OPEN) or `input` (a pattern input)")


def _soft_delete_problems(model: Model, entity: Entity, path: str, pattern: AccessPattern) -> Iterator[Problem]:
    soft = pattern.soft_delete
    assert soft is not None
    yield from _attribute_problem(entity, f"{path}.status_attribute", soft.status_attribute)
    yield from _attribute_problem(entity, f"{path}.deleted_at_attribute", soft.deleted_at_attribute)
    if soft.expires_after_days is not None:
        ttl = model.table.ttl_attribute
        if ttl is None:
            yield Problem(f"{path}.expires_after_days", "the table has no TTL attribute to set",
                          "set table.ttl_attribute (a Number attribute holding epoch seconds), e.g. expiresAt")
        elif entity.attribute(ttl) is None:
            yield Problem(f"{path}.expires_after_days", f"{entity.name} has no attribute `{ttl}` (the table's "
                          "TTL attribute)", f"add {ttl} (type N, epoch seconds) to {entity.name}")
    if soft.archive_entity and model.entity(soft.archive_entity) is None:
        yield Problem(f"{path}.archive_entity", f"there is no entity `{soft.archive_entity}`",
                      "add the archive entity, or remove archive_entity")
    status = entity.attribute(soft.status_attribute)
    if status is not None and status.required is False:
        yield Problem(f"{path}.status_attribute", f"`{status.name}` is optional, so live items may lack it",
                      "make it required so every read can tell deleted items apart", Severity.WARNING)
