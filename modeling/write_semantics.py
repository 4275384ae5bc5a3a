"""Write semantics: the auxiliary items a write keeps in step and the members of each write request.

One home for what the model's `condition`, `updates`, `soft_delete`, `members`, `unique: true` and
`auxiliary_items` mean as DynamoDB requests (issue 16). The generator asks it for the auxiliary items'
keys (in the one key grammar, `modeling.keys`); the planner for each write's members, UpdateExpression
and ConditionExpression; the cost estimator sizes every member on its own (`modeling.plan_units`).

>>> aux = AuxiliaryItem(name="unique_email", kind=AuxiliaryKind.UNIQUENESS, attributes=("email",))
>>> uniqueness_templates(aux, has_sort_key=True)
KeyTemplates(partition_key='EMAIL#{email}', sort_key='EMAIL#{email}', only_when=())
"""

from __future__ import annotations

from dataclasses import dataclass

from modeling.keys import KeyTemplate
from modeling.model import (
    AttributeUpdate,
    AuxiliaryItem,
    AuxiliaryKind,
    ConditionKind,
    Entity,
    EntityKeys,
    KeyDesign,
    KeyTemplates,
    Model,
    PatternKind,
    TransactAction,
    TransactionMember,
    UpdateAction,
    WriteCondition,
)

ITEM = "item"  # the member that writes the pattern's own item (not an auxiliary one)
ARCHIVE = "archive"  # the archived copy a soft delete puts
# Bytes of an aggregate or uniqueness item besides its keys: the owner's key and a number (dynamodb-facts §6).
AUXILIARY_BODY_BYTES = 64


# --- auxiliary items -------------------------------------------------------------------------------


def auxiliary_items(model: Model, entity: Entity) -> tuple[AuxiliaryItem, ...]:
    """The entity's declared auxiliary items, then one uniqueness item per `unique: true` attribute that is
    not part of its identity (a key enforces only its own uniqueness; a GSI none, dynamodb-facts §4.1)."""
    declared = {a.name for a in entity.auxiliary_items}
    covered = {a.attributes for a in entity.auxiliary_items if a.kind is AuxiliaryKind.UNIQUENESS}
    implied = tuple(
        AuxiliaryItem(name=f"unique_{a.name}", kind=AuxiliaryKind.UNIQUENESS, attributes=(a.name,))
        for a in entity.attributes
        if a.unique and a.name not in entity.identity and (a.name,) not in covered
        and f"unique_{a.name}" not in declared)
    return (*entity.auxiliary_items, *implied)


def uniqueness_templates(aux: AuxiliaryItem, has_sort_key: bool) -> KeyTemplates:
    """`EMAIL#{email}` (several attributes joined: `TENANTID#{tenantId}#EMAIL#{email}`), as both keys."""
    text = "#".join(f"{name.upper()}#{{{name}}}" for name in aux.attributes)
    return KeyTemplates(partition_key=aux.partition_key or text,
                        sort_key=(aux.sort_key or text) if has_sort_key else None)


def _aggregate_templates(model: Model, design: KeyDesign, entity: Entity, aux: AuxiliaryItem) -> KeyTemplates:
    """The parent's partition key, written with the child's attribute names, and `AGG#<name>` as sort key:
    the count lives in the parent's item collection, so one Query reads the parent with its count."""
    relationship = model.relationship(aux.relationship or "")
    parent = model.entity(relationship.parent) if relationship else None
    renames: dict[str, str] = {}
    if relationship is not None and parent is not None:
        renames = dict(zip(parent.identity, relationship.child_attributes or parent.identity, strict=False))
    parent_keys = next((k for k in design.entities if parent is not None and k.entity == parent.name), None)
    if parent_keys is not None:
        template = KeyTemplate.parse(parent_keys.table.partition_key)
        partition = "".join(f"{{{renames.get(s.text, s.text)}}}" if s.is_attribute else s.text
                            for s in template.segments)
    else:
        names = list(renames.values()) or [aux.counter_attribute]
        partition = "#".join(f"{(parent.name if parent else 'PARENT').upper()}#{{{n}}}" for n in names)
    sort = f"AGG#{aux.name}" if design.sort_key is not None else None
    return KeyTemplates(partition_key=aux.partition_key or partition, sort_key=aux.sort_key or sort)


def auxiliary_templates(model: Model, design: KeyDesign, entity: Entity, aux: AuxiliaryItem) -> KeyTemplates:
    """The auxiliary item's table keys: the design's own (`EntityKeys.auxiliary`), else derived."""
    keys = next((k for k in design.entities if k.entity == entity.name), None)
    if keys is not None and aux.name in keys.auxiliary:
        return keys.auxiliary[aux.name]
    if aux.kind is AuxiliaryKind.UNIQUENESS:
        return uniqueness_templates(aux, design.sort_key is not None)
    if aux.kind is AuxiliaryKind.AGGREGATE:
        return _aggregate_templates(model, design, entity, aux)
    return KeyTemplates(partition_key=aux.partition_key or "", sort_key=aux.sort_key)


def with_auxiliary_keys(model: Model, design: KeyDesign) -> KeyDesign:
    """The design with every auxiliary item's keys written into its entity's keys (those given are kept)."""
    changed = False
    entities: list[EntityKeys] = []
    for keys in design.entities:
        entity = model.entity(keys.entity)
        items = auxiliary_items(model, entity) if entity is not None else ()
        missing = {a.name: auxiliary_templates(model, design, entity, a) for a in items
                   if entity is not None and a.name not in keys.auxiliary}
        if missing:
            changed = True
            keys = keys.model_copy(update={"auxiliary": {**keys.auxiliary, **missing}})
        entities.append(keys)
    return design.model_copy(update={"entities": tuple(entities)}) if changed else design


# --- write members -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteMember:
    """One item a write request changes: the pattern's own item or an auxiliary one, with its expressions.

    `item_bytes` is None for an item the size of its entity's items (the written item, an edge copy);
    otherwise the estimated size of a small auxiliary item.
    """

    action: TransactAction
    entity: str
    item: str  # ITEM, or the auxiliary item's name
    partition_key: str  # templates in the key grammar
    sort_key: str | None
    update_expression: str = ""
    condition_expression: str = ""
    item_bytes: int | None = None
    why: str = ""
    reads_first: bool = False  # the application reads the item first (the version its condition checks)


@dataclass(frozen=True)
class WritePlan:
    """The members of one write request, whether they go in one TransactWriteItems, and what it reads."""

    members: tuple[WriteMember, ...]
    transactional: bool
    reads_before_write: int = 0  # GetItems the application makes first (the version a condition checks)
    notes: tuple[str, ...] = ()

    @property
    def extra_items(self) -> int:
        return sum(1 for m in self.members if m.item != ITEM)


def condition_expression(condition: WriteCondition | None, key_attribute: str = "PK") -> str:
    """The ConditionExpression with placeholders (`#name`, `:value`), as the preview sends it.

    >>> condition_expression(WriteCondition(kind=ConditionKind.VERSION_MATCHES, attribute="version"))
    '#version = :expected_version'
    >>> condition_expression(WriteCondition.model_validate({"attribute": "xp", "operator": ">=", "input": "amount"}))
    '#xp >= :amount'
    """
    if condition is None:
        return ""
    if condition.kind is ConditionKind.ATTRIBUTE_NOT_EXISTS:
        return f"attribute_not_exists(#{key_attribute})"
    if condition.kind is ConditionKind.ATTRIBUTE_EXISTS:
        return f"attribute_exists(#{key_attribute})"
    if condition.kind is ConditionKind.VERSION_MATCHES:
        return f"#{condition.attribute} = :expected_{condition.attribute}"
    value = f":{condition.input}" if condition.input else f":{condition.attribute}_limit"
    return f"#{condition.attribute} {condition.operator} {value}"


def update_expression(updates: tuple[AttributeUpdate, ...], version: str | None = None) -> str:
    """SET / ADD / REMOVE clauses for the updates (a version condition also ADDs 1 to the version).

    >>> update_expression((AttributeUpdate(attribute="xp", action=UpdateAction.ADD, input="points"),), "version")
    'ADD #xp :points, #version :one'
    """
    sets, adds, removes = [], [], []
    for update in updates:
        name, value = f"#{update.attribute}", f":{update.input or update.attribute}"
        if update.action is UpdateAction.SET:
            sets.append(f"{name} = {value}")
        elif update.action is UpdateAction.IF_NOT_EXISTS:
            sets.append(f"{name} = if_not_exists({name}, {value})")
        elif update.action is UpdateAction.ADD:
            adds.append(f"{name} {':' + update.attribute + '_delta' if update.input is None else value}")
        else:
            removes.append(name)
    if version:
        adds.append(f"#{version} :one")
    clauses = [("SET", sets), ("ADD", adds), ("REMOVE", removes)]
    return " ".join(f"{word} {', '.join(parts)}" for word, parts in clauses if parts)


def _version(condition: WriteCondition | None) -> str | None:
    return condition.attribute if condition is not None and condition.kind is ConditionKind.VERSION_MATCHES else None


def _own_members(model: Model, design: KeyDesign, pattern_name: str) -> list[tuple[TransactionMember, bool]]:
    """(member, is the pattern's own single item) for the pattern: its `members`, else one from its kind."""
    pattern = model.access_pattern(pattern_name)
    assert pattern is not None
    if pattern.members:
        return [(m, False) for m in pattern.members]
    action = {PatternKind.WRITE: TransactAction.PUT, PatternKind.BATCH_WRITE: TransactAction.PUT,
              PatternKind.TRANSACT_WRITE: TransactAction.PUT, PatternKind.UPDATE: TransactAction.UPDATE,
              PatternKind.DELETE: TransactAction.DELETE}[pattern.kind]
    updates = pattern.updates
    if pattern.soft_delete is not None:  # a soft delete is an update that marks the item (dynamodb-facts §1.2)
        action = TransactAction.UPDATE
        soft = pattern.soft_delete
        updates = (AttributeUpdate(attribute=soft.status_attribute, input="deleted_status"),
                   AttributeUpdate(attribute=soft.deleted_at_attribute, input="deleted_at"),
                   *((AttributeUpdate(attribute=model.table.ttl_attribute, input="expires_at"),)
                     if soft.expires_after_days and model.table.ttl_attribute else ()))
    condition = pattern.condition
    if condition is None and pattern.soft_delete is not None:
        condition = WriteCondition(kind=ConditionKind.ATTRIBUTE_EXISTS)
    return [(TransactionMember(entity=pattern.entities[0], action=action, condition=condition, updates=updates),
             True)]


def write_plan(model: Model, design: KeyDesign, pattern_name: str) -> WritePlan | None:
    """The members of a write pattern, or None for a plain write the model says nothing more about."""
    return _write_plan(model, design, pattern_name)


def has_write_semantics(model: Model, pattern_name: str) -> bool:
    pattern = model.access_pattern(pattern_name)
    if pattern is None or pattern.kind.is_read:
        return False
    entities = [e for e in (model.entity(n) for n in pattern.entities) if e is not None]
    return bool(pattern.condition or pattern.updates or pattern.soft_delete or pattern.members
                or any(auxiliary_items(model, e) for e in entities))


def _write_plan(model: Model, design: KeyDesign, pattern_name: str) -> WritePlan | None:
    pattern = model.access_pattern(pattern_name)
    if pattern is None or not has_write_semantics(model, pattern_name):
        return None
    key = design.partition_key.name
    members: list[WriteMember] = []
    notes: list[str] = []
    reads = 0
    for member, _ in _own_members(model, design, pattern_name):
        entity = model.entity(member.entity)
        keys = next((k for k in design.entities if k.entity == member.entity), None)
        if entity is None or keys is None:
            continue
        version = _version(member.condition)
        reads += 1 if version else 0
        expression = update_expression(member.updates, version) if member.action is TransactAction.UPDATE else ""
        members.append(WriteMember(member.action, member.entity, ITEM, keys.table.partition_key, keys.table.sort_key,
                                   expression, condition_expression(member.condition, key),
                                   reads_first=version is not None))
        if pattern.kind is not PatternKind.BATCH_WRITE:
            members += _auxiliary_members(model, design, entity, member, pattern.changed)
        if pattern.soft_delete is not None and pattern.soft_delete.archive_entity:
            archive = next((k for k in design.entities if k.entity == pattern.soft_delete.archive_entity), None)
            if archive is not None:
                members.append(WriteMember(TransactAction.PUT, archive.entity, ARCHIVE, archive.table.partition_key,
                                           archive.table.sort_key, why="the archived copy"))
    if pattern.kind is PatternKind.BATCH_WRITE:
        notes.append("BatchWriteItem takes no conditions, so auxiliary items are not kept in step by this pattern")
    transactional = pattern.kind is PatternKind.TRANSACT_WRITE or (
        len(members) > 1 and pattern.kind is not PatternKind.BATCH_WRITE)
    if reads:
        notes.append(f"the application reads {reads} item(s) first for the version its condition checks")
    return WritePlan(tuple(members), transactional, reads, tuple(notes))


def _auxiliary_members(model: Model, design: KeyDesign, entity: Entity, member: TransactionMember,
                       changed: tuple[str, ...]) -> list[WriteMember]:
    """The auxiliary items a put, update or delete of `entity` keeps in step (issue 16)."""
    result = []
    for aux in auxiliary_items(model, entity):
        templates = auxiliary_templates(model, design, entity, aux)
        small = _small_item_bytes(templates)
        if aux.kind is AuxiliaryKind.UNIQUENESS:
            if member.action is TransactAction.PUT:
                result.append(WriteMember(TransactAction.PUT, entity.name, aux.name, templates.partition_key,
                                          templates.sort_key, condition_expression=_not_taken(design),
                                          item_bytes=small, why=f"claims {', '.join(aux.attributes)}"))
            elif member.action is TransactAction.DELETE:
                result.append(WriteMember(TransactAction.DELETE, entity.name, aux.name, templates.partition_key,
                                          templates.sort_key, item_bytes=small, why="releases the unique value"))
            elif member.action is TransactAction.UPDATE and set(aux.attributes) & set(changed):
                result.append(WriteMember(TransactAction.DELETE, entity.name, aux.name, templates.partition_key,
                                          templates.sort_key, item_bytes=small, why="releases the old value"))
                result.append(WriteMember(TransactAction.PUT, entity.name, aux.name, templates.partition_key,
                                          templates.sort_key, condition_expression=_not_taken(design),
                                          item_bytes=small, why="claims the new value"))
        elif aux.kind is AuxiliaryKind.AGGREGATE and member.action in (TransactAction.PUT, TransactAction.DELETE):
            direction = "adds to" if member.action is TransactAction.PUT else "subtracts from"
            result.append(WriteMember(TransactAction.UPDATE, entity.name, aux.name, templates.partition_key,
                                      templates.sort_key, f"ADD #{aux.counter_attribute} :{aux.name}_delta",
                                      item_bytes=small, why=f"{direction} {aux.counter_attribute} (ADD needs no read)"))
        elif aux.kind is AuxiliaryKind.EDGE_COPY and member.action in (TransactAction.PUT, TransactAction.DELETE):
            result.append(WriteMember(member.action, entity.name, aux.name, templates.partition_key,
                                      templates.sort_key, why="the edge under the other end's key"))
    return result


def _small_item_bytes(templates: KeyTemplates) -> int:
    """An aggregate or uniqueness item's size: its key text (attribute values at about 40 bytes) plus a body."""
    def length(source: str | None) -> int:
        if not source:
            return 0
        return sum(40 if s.is_attribute else len(s.text.encode()) for s in KeyTemplate.parse(source).segments)
    return length(templates.partition_key) + length(templates.sort_key) + AUXILIARY_BODY_BYTES


def _not_taken(design: KeyDesign) -> str:
    return f"attribute_not_exists(#{design.partition_key.name})"
