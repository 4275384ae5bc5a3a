"""Write semantics: the auxiliary items a write keeps in step and the members of each write request.

One home for what the model's `condition`, `updates`, `soft_delete`, `members`, `unique: true` and
`auxiliary_items` mean as DynamoDB requests (issue 16). The generator asks it for the auxiliary items'
keys (in the one key grammar, `modeling.key_templates`); the planner for each write's members, UpdateExpression
and ConditionExpression; the cost estimator sizes every member on its own (`modeling.design.plan_units`).

>>> aux = AuxiliaryItem(name="unique_email", kind=AuxiliaryKind.UNIQUENESS, attributes=("email",))
>>> uniqueness_templates(aux, has_sort_key=True)
KeyTemplates(partition_key='EMAIL#{email}', sort_key='EMAIL#{email}', only_when=())
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import cast

from modeling.key_templates import KeyTemplate, missing_key_attributes
from modeling.model import (
    AccessPattern,
    AttributeUpdate,
    AuxiliaryItem,
    AuxiliaryKind,
    ConditionKind,
    ConstantValue,
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
# Bytes of an aggregate or uniqueness item besides its keys: the owner's key and a number (dynamodb-rules §6).
AUXILIARY_BODY_BYTES = 64


# --- auxiliary items -------------------------------------------------------------------------------


def auxiliary_items(model: Model, entity: Entity) -> tuple[AuxiliaryItem, ...]:
    """The entity's declared auxiliary items, then one uniqueness item per `unique: true` attribute that is
    not part of its identity (a key enforces only its own uniqueness; a GSI none, dynamodb-rules §4.1)."""
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


class ValueKind(StrEnum):
    """Where one expression value comes from when the request is sent."""

    INPUT = "input"  # a pattern input (negated for a `negate` ADD)
    CONSTANT = "constant"
    NEW_VALUE = "new_value"  # a SET with no input: the attribute's new value
    CURRENT_VERSION = "current_version"  # the version the application read (optimistic locking)
    NOW = "now"  # the time of the write, ISO-8601 UTC (a soft delete's deletedAt)
    EXPIRES_AT = "expires_at"  # epoch seconds of the write plus `days` (the TTL attribute)
    ITEM_ATTRIBUTE = "item_attribute"  # an attribute of the written item (an aggregate's sum_of)
    KEY = "key"  # an index key attribute rendered from its template (`name`) after the update


@dataclass(frozen=True)
class ValueSource:
    kind: ValueKind
    name: str = ""  # the input or attribute
    constant: ConstantValue | None = None
    negate: bool = False
    days: int = 0


@dataclass(frozen=True)
class WriteMember:
    """One item a write request changes: the pattern's own item or an auxiliary one, with its expressions.

    `names` and `values` are the expressions' placeholders: attribute names, and where each value comes
    from. `item_bytes` is None for an item the size of its entity's items (the written item, an edge
    copy); otherwise the estimated size of a small auxiliary item.
    """

    action: TransactAction
    entity: str
    item: str  # ITEM, ARCHIVE or the auxiliary item's name
    partition_key: str  # templates in the key grammar
    sort_key: str | None
    update_expression: str = ""
    condition_expression: str = ""
    item_bytes: int | None = None
    why: str = ""
    reads_first: bool = False  # the application reads the item first (the version its condition checks)
    names: tuple[tuple[str, str], ...] = ()  # placeholder -> attribute name
    values: tuple[tuple[str, ValueSource], ...] = ()  # placeholder -> where its value comes from
    updates: tuple[AttributeUpdate, ...] = ()
    condition: WriteCondition | None = None
    key_inputs: tuple[tuple[str, str], ...] = ()  # member attribute -> the pattern input holding it
    ops: tuple[tuple[UpdateAction, str, str], ...] = ()  # (action, attribute, value placeholder) in order
    after_update: bool = False  # keyed by the owner's values after its update (the new unique value)
    # items like this one a request writes: 1, or a share of a transaction's expected_items when the pattern
    # lists no members (spread evenly over its entities, as the model gives no per-entity count)
    items_per_request: float = 1.0
    # the owner's attributes a uniqueness item holds besides its keys: those of the owner's table key, so a
    # GetItem on the unique value finds the owner's item (a read through it, issue 28.3)
    carries: tuple[str, ...] = ()


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

    @property
    def own_items_per_request(self) -> float:
        """Items of the pattern's own entities one request writes (not its uniqueness, aggregate or copy items)."""
        return sum(m.items_per_request for m in self.members if m.item == ITEM)


def name_placeholder(attribute: str) -> str:
    """`#attribute`, letters, digits and _ only (ExpressionAttributeNames)."""
    return "#" + re.sub(r"[^A-Za-z0-9_]", "_", attribute)


def value_placeholder(text: str) -> str:
    return ":" + re.sub(r"[^A-Za-z0-9_]", "_", text)


class _Expression:
    """Collects the placeholders an expression uses."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.values: dict[str, ValueSource] = {}
        self.ops: list[tuple[UpdateAction, str, str]] = []

    def name(self, attribute: str) -> str:
        placeholder = name_placeholder(attribute)
        self.names[placeholder] = attribute
        return placeholder

    def value(self, text: str, source: ValueSource) -> str:
        placeholder = value_placeholder(text)
        self.values[placeholder] = source
        return placeholder


def condition_expression(condition: WriteCondition | None, key_attribute: str = "PK",
                         expression: _Expression | None = None) -> str:
    """The ConditionExpression with placeholders (`#name`, `:value`), as the preview sends it.

    >>> condition_expression(WriteCondition(kind=ConditionKind.VERSION_MATCHES, attribute="version"))
    '#version = :expected_version'
    >>> condition_expression(WriteCondition.model_validate({"attribute": "xp", "operator": ">=", "input": "amount"}))
    '#xp >= :amount'
    """
    e = expression or _Expression()
    if condition is None:
        return ""
    if condition.kind is ConditionKind.ATTRIBUTE_NOT_EXISTS:
        return f"attribute_not_exists({e.name(key_attribute)})"
    if condition.kind is ConditionKind.ATTRIBUTE_EXISTS:
        return f"attribute_exists({e.name(key_attribute)})"
    attribute = condition.attribute or ""
    if condition.kind is ConditionKind.VERSION_MATCHES:
        expected = e.value(f"expected_{attribute}", ValueSource(ValueKind.CURRENT_VERSION, attribute))
        return f"{e.name(attribute)} = {expected}"
    value = (e.value(condition.input, ValueSource(ValueKind.INPUT, condition.input)) if condition.input
             else e.value(f"{attribute}_limit", ValueSource(ValueKind.CONSTANT, constant=condition.value)))
    return f"{e.name(attribute)} {condition.operator} {value}"


def update_expression(updates: tuple[AttributeUpdate, ...], version: str | None = None,
                      expression: _Expression | None = None, sources: dict[str, ValueSource] | None = None,
                      index_keys: tuple[tuple[str, str], ...] = ()) -> str:
    """SET / ADD / REMOVE clauses for the updates (a version condition also ADDs 1 to the version).

    `sources` gives the value source of an update's `input` where it is not a pattern input (a soft delete's);
    `index_keys` are (index key attribute, template) pairs the update changes: SET after the rest.

    >>> update_expression((AttributeUpdate(attribute="xp", action=UpdateAction.ADD, input="points"),), "version")
    'ADD #xp :points, #version :one'
    """
    e = expression or _Expression()
    given = sources or {}
    sets, adds, removes = [], [], []
    for update in updates:
        name = e.name(update.attribute)
        if update.action is UpdateAction.REMOVE:
            removes.append(name)
            e.ops.append((UpdateAction.REMOVE, update.attribute, ""))
            continue
        if update.action is UpdateAction.ADD and update.input is None:
            value = e.value(f"{update.attribute}_delta", ValueSource(
                ValueKind.CONSTANT, constant=update.amount if update.amount is not None else 1))
        elif update.input is not None:
            text = f"{update.input}_negated" if update.negate else update.input
            value = e.value(text, given.get(update.input, ValueSource(ValueKind.INPUT, update.input,
                                                                      negate=update.negate)))
        elif update.value is not None:  # SET to a constant (status = on_loan)
            value = e.value(update.attribute, ValueSource(ValueKind.CONSTANT, constant=update.value))
        else:
            value = e.value(update.attribute, ValueSource(ValueKind.NEW_VALUE, update.attribute))
        if update.action is UpdateAction.SET:
            sets.append(f"{name} = {value}")
        elif update.action is UpdateAction.IF_NOT_EXISTS:
            sets.append(f"{name} = if_not_exists({name}, {value})")
        else:
            adds.append(f"{name} {value}")
        e.ops.append((update.action, update.attribute, value))
    if version:
        one = e.value("one", ValueSource(ValueKind.CONSTANT, constant=1))
        adds.append(f"{e.name(version)} {one}")
        e.ops.append((UpdateAction.ADD, version, one))
    for attribute, template in index_keys:  # the index keys built from what changed (dynamodb-rules §4.1)
        value = e.value(f"key_{attribute}", ValueSource(ValueKind.KEY, template))
        sets.append(f"{e.name(attribute)} = {value}")
        e.ops.append((UpdateAction.SET, attribute, value))
    clauses = [("SET", sets), ("ADD", adds), ("REMOVE", removes)]
    return " ".join(f"{word} {', '.join(parts)}" for word, parts in clauses if parts)


def _version(condition: WriteCondition | None) -> str | None:
    return condition.attribute if condition is not None and condition.kind is ConditionKind.VERSION_MATCHES else None


def attributes_changed_in_place(model: Model, entity: str) -> set[str]:
    """Attributes the model's writes change on an existing `entity` item (what each write's own members
    update, soft deletes included): UpdateItem cannot change a key, so table keys must not use them."""
    changed: set[str] = set()
    for pattern in model.access_patterns:
        if entity in pattern.entities and not pattern.kind.is_read:
            changed.update(u.attribute for m, _ in _own_members(model, pattern.name) if m.entity == entity
                           and m.action is TransactAction.UPDATE for u in m.updates)
            if pattern.kind is PatternKind.UPDATE:
                changed.update(pattern.changed_attributes)
    return changed


def _own_members(model: Model, pattern_name: str) -> list[tuple[TransactionMember, bool]]:
    """(member, is the pattern's own single item) for the pattern: its `members`, else one from its kind
    (a transaction without members: one per entity, `_unlisted_transaction_members`)."""
    pattern = model.access_pattern(pattern_name)
    assert pattern is not None
    if pattern.members:
        return [(m, False) for m in pattern.members]
    if pattern.kind is PatternKind.TRANSACT_WRITE and len(pattern.entities) > 1:
        return [(m, False) for m in _unlisted_transaction_members(model, pattern_name)]
    action = {PatternKind.WRITE: TransactAction.PUT, PatternKind.BATCH_WRITE: TransactAction.PUT,
              PatternKind.TRANSACT_WRITE: TransactAction.PUT, PatternKind.UPDATE: TransactAction.UPDATE,
              PatternKind.DELETE: TransactAction.DELETE}[pattern.kind]
    updates = pattern.updates
    if action is TransactAction.UPDATE and not updates:  # a version-1 update: SET what it says it changes
        updates = tuple(AttributeUpdate(attribute=name) for name in pattern.changed_attributes)
    if pattern.soft_delete is not None:  # a soft delete is an update that marks the item (dynamodb-rules §1.2)
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


def _unlisted_transaction_members(model: Model, pattern_name: str) -> list[TransactionMember]:
    """A transact_write without `members` writes every one of its entities (dynamodb-rules §2): an update of
    each entity that holds a changed attribute (SET those), a put of each other one (a new item)."""
    pattern = model.access_pattern(pattern_name)
    assert pattern is not None
    members = []
    for position, name in enumerate(pattern.entities):
        entity = model.entity(name)
        own = {a.name for a in entity.attributes} if entity is not None else set()
        changed = [a for a in pattern.changed_attributes if a in own]
        members.append(TransactionMember(
            entity=name, action=TransactAction.UPDATE if changed else TransactAction.PUT,
            condition=pattern.condition if position == 0 else None,
            updates=tuple(AttributeUpdate(attribute=a) for a in changed)))
    return members


# --- which items a write can address ------------------------------------------------------------------

# A put sends the whole new item (PutItem's Item, a transaction's Put), so the request knows every attribute of
# it, its key included: a new Subscription keyed by its status is written with the status it starts in. Only an
# update or a delete has to name an item that exists, from its inputs (the expert designs of connected_vehicles,
# device_status and social_network key new items by attributes their put patterns do not list as inputs).


@dataclass(frozen=True)
class UnaddressedItem:
    """An item a write changes whose full primary key its inputs cannot build (DDS312).

    `member` is the transaction member's position, None for the pattern's own item; `supplied` the entity
    attributes the request does know (the inputs, renamed by `key_inputs`), which the read that has to find
    the key first can use.
    """

    entity: str
    member: int | None
    action: TransactAction
    partition_key: str
    sort_key: str | None
    missing: tuple[str, ...]
    supplied: tuple[str, ...]


def supplied_attributes(model: Model, pattern: AccessPattern, member: TransactionMember) -> tuple[str, ...]:
    """The member's attributes a request knows: the inputs (an attribute named in `key_inputs` only from
    its input), and for a put every attribute of the item it sends."""
    known = [a for a in pattern.inputs if a not in member.key_inputs]
    known += [a for a, source in member.key_inputs.items() if source in pattern.inputs]
    entity = model.entity(member.entity)
    if member.action is TransactAction.PUT and entity is not None:
        known += [a.name for a in entity.attributes]
    return tuple(dict.fromkeys(known))


def writes_supply(model: Model, entity: str, attributes: tuple[str, ...]) -> bool:
    """Every write of `entity`'s items (a pattern's own item, each transaction member) is given `attributes`: a
    table key built from them lets each request name its item, so none needs a Query first (DDS312)."""
    wanted = set(attributes)
    for pattern in model.access_patterns:
        if pattern.kind.is_read:
            continue
        for member, _ in _own_members(model, pattern.name):
            if member.entity == entity and not wanted <= set(supplied_attributes(model, pattern, member)):
                return False
    return True


def unaddressed_items(model: Model, design: KeyDesign, pattern: AccessPattern) -> tuple[UnaddressedItem, ...]:
    """The written items (the pattern's own, each transaction member) whose table key template references an
    attribute the request does not know: PutItem, UpdateItem and DeleteItem take the full primary key (AWS,
    WorkingWithItems.html), so none can name them. The same test as a read's (`missing_key_attributes`)."""
    if pattern.kind.is_read:
        return ()
    found = []
    for i, (member, own) in enumerate(_own_members(model, pattern.name)):
        keys = next((k for k in design.entities if k.entity == member.entity), None)
        if keys is None:
            continue
        supplied = supplied_attributes(model, pattern, member)
        missing = missing_key_attributes((keys.table.partition_key, keys.table.sort_key), supplied)
        if missing:
            found.append(UnaddressedItem(member.entity, None if own else i, member.action, keys.table.partition_key,
                                         keys.table.sort_key, missing, supplied))
    return tuple(found)


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


_SOFT_SOURCES = "deleted_status", "deleted_at", "expires_at"


def _soft_sources(model: Model, pattern_name: str) -> dict[str, ValueSource]:
    pattern = model.access_pattern(pattern_name)
    soft = pattern.soft_delete if pattern is not None else None
    if soft is None:
        return {}
    return {"deleted_status": ValueSource(ValueKind.CONSTANT, constant=soft.status_value),
            "deleted_at": ValueSource(ValueKind.NOW),
            "expires_at": ValueSource(ValueKind.EXPIRES_AT, days=soft.expires_after_days or 0)}


def changed_index_keys(design: KeyDesign, keys: EntityKeys, changed: set[str]) -> tuple[tuple[str, str], ...]:
    """(index key attribute, template) of the entity's index keys built from a changed attribute."""
    result: dict[str, str] = {}
    indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
    local = {i.name for i in design.local_secondary_indexes}
    for name, templates in keys.indexes.items():
        index = indexes.get(name)
        if index is None or templates.only_when:
            continue  # a sparse index's key comes and goes with its condition: left to the application
        parts = [(index.partition_key.name, templates.partition_key)] if name not in local else []
        if index.sort_key is not None and templates.sort_key is not None:
            parts.append((index.sort_key.name, templates.sort_key))
        for attribute, template in parts:
            if template == f"{{{attribute}}}":
                continue  # a plain attribute key (`email` holds `{email}`): the update's own SET writes it
            if set(KeyTemplate.parse(template).attribute_names) & changed:
                result.setdefault(attribute, template)
    return tuple(sorted(result.items()))


def _own_member(design: KeyDesign, keys: EntityKeys, member: TransactionMember,
                sources: dict[str, ValueSource]) -> WriteMember:
    e = _Expression()
    version = _version(member.condition)
    changed = {u.attribute for u in member.updates}
    expression = (update_expression(member.updates, version, e, sources, changed_index_keys(design, keys, changed))
                  if member.action is TransactAction.UPDATE else "")
    if member.action is TransactAction.PUT and member.updates:  # what the new item holds: applied to its Item
        update_expression(member.updates, None, e, sources)
    condition = condition_expression(member.condition, design.partition_key.name, e)
    return WriteMember(member.action, member.entity, ITEM, keys.table.partition_key, keys.table.sort_key,
                       expression, condition, reads_first=version is not None, names=tuple(sorted(e.names.items())),
                       values=tuple(sorted(e.values.items(), key=lambda kv: kv[0])), updates=member.updates,
                       condition=member.condition, key_inputs=tuple(sorted(member.key_inputs.items())),
                       ops=tuple(e.ops))


def _write_plan(model: Model, design: KeyDesign, pattern_name: str) -> WritePlan | None:
    pattern = model.access_pattern(pattern_name)
    if pattern is None or not has_write_semantics(model, pattern_name):
        return None
    members: list[WriteMember] = []
    notes: list[str] = []
    sources = _soft_sources(model, pattern_name)
    # a transaction without members spreads its expected items evenly over its entities (docs/costs.md)
    spread = (pattern.expected_items / len(pattern.entities)
              if pattern.kind is PatternKind.TRANSACT_WRITE and not pattern.members and pattern.entities else 1.0)
    for member, _ in _own_members(model, pattern_name):
        entity = model.entity(member.entity)
        keys = next((k for k in design.entities if k.entity == member.entity), None)
        if entity is None or keys is None:
            continue
        own = [_own_member(design, keys, member, sources)]
        if pattern.kind is not PatternKind.BATCH_WRITE:
            own += _auxiliary_members(model, design, entity, member, pattern.changed)
        if pattern.soft_delete is not None and pattern.soft_delete.archive_entity:
            archive = next((k for k in design.entities if k.entity == pattern.soft_delete.archive_entity), None)
            if archive is not None:
                own.append(WriteMember(TransactAction.PUT, archive.entity, ARCHIVE, archive.table.partition_key,
                                       archive.table.sort_key, why="the archived copy"))
        members += [replace(m, items_per_request=spread) if spread != 1.0 else m for m in own]
    if pattern.kind is PatternKind.BATCH_WRITE:
        notes.append("BatchWriteItem takes no conditions, so auxiliary items are not kept in step by this pattern")
    transactional = pattern.kind is PatternKind.TRANSACT_WRITE or (
        len(members) > 1 and pattern.kind is not PatternKind.BATCH_WRITE)
    for written in members:
        added = {a for action, a, _ in written.ops if action is UpdateAction.ADD}
        keyed = [v.name for _, v in written.values if v.kind is ValueKind.KEY
                 and set(KeyTemplate.parse(v.name).attribute_names) & added]
        if keyed:
            notes.append(f"the index key {keyed[0]} is built from an attribute this write ADDs to, so the application "
                         "computes it from the value it read and it can lag behind under concurrent ADDs; key the "
                         "index on the Number attribute itself to keep the ADD atomic")
    reads = sum(1 for m in members if m.reads_first)
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

        def aux_member(action: TransactAction, why: str, claim: bool = False, expression: str = "",
                       names: tuple[tuple[str, str], ...] = (), values: tuple[tuple[str, ValueSource], ...] = (),
                       item_bytes: int | None = small, aux_name: str = aux.name,
                       templates: KeyTemplates = templates) -> WriteMember:
            condition, claim_names = "", cast(tuple[tuple[str, str], ...], ())
            if claim:
                e = _Expression()
                condition = condition_expression(WriteCondition(kind=ConditionKind.ATTRIBUTE_NOT_EXISTS),
                                                 design.partition_key.name, e)
                claim_names = tuple(e.names.items())
            return WriteMember(action, entity.name, aux_name, templates.partition_key, templates.sort_key,
                               expression, condition, item_bytes, why, names=(*names, *claim_names), values=values)

        if aux.kind is AuxiliaryKind.UNIQUENESS:
            carries = owner_key_attributes(design, entity.name)
            if member.action is TransactAction.PUT:
                result.append(replace(aux_member(TransactAction.PUT, f"claims {', '.join(aux.attributes)}",
                                                 claim=True), carries=carries))
            elif member.action is TransactAction.DELETE:
                result.append(aux_member(TransactAction.DELETE, "releases the unique value"))
            elif member.action is TransactAction.UPDATE and set(aux.attributes) & set(changed):
                result.append(aux_member(TransactAction.DELETE, "releases the old value"))
                result.append(replace(aux_member(TransactAction.PUT, "claims the new value", claim=True),
                                      after_update=True, carries=carries))
        elif aux.kind is AuxiliaryKind.AGGREGATE and member.action in (TransactAction.PUT, TransactAction.DELETE):
            adding = member.action is TransactAction.PUT
            e = _Expression()
            source = (ValueSource(ValueKind.ITEM_ATTRIBUTE, aux.sum_of, negate=not adding) if aux.sum_of
                      else ValueSource(ValueKind.CONSTANT, constant=1 if adding else -1))
            delta = e.value(f"{aux.name}_delta", source)
            expression = f"ADD {e.name(aux.counter_attribute)} {delta}"
            counted = aux_member(TransactAction.UPDATE, f"{'adds to' if adding else 'subtracts from'} "
                                 f"{aux.counter_attribute} (ADD needs no read)", expression=expression,
                                 names=tuple(e.names.items()), values=tuple(e.values.items()))
            result.append(replace(counted, ops=((UpdateAction.ADD, aux.counter_attribute, delta),)))
        elif aux.kind is AuxiliaryKind.EDGE_COPY and member.action in (TransactAction.PUT, TransactAction.DELETE):
            result.append(aux_member(member.action, "the edge under the other end's key", item_bytes=None))
    return result


def owner_key_attributes(design: KeyDesign, entity: str) -> tuple[str, ...]:
    """The attributes the entity's table key is built from (`customerId` of `CUSTOMER#{customerId}`), in key
    order: what a uniqueness item carries so that the owner's item can be read through it."""
    keys = next((k for k in design.entities if k.entity == entity), None)
    if keys is None:
        return ()
    names = [*KeyTemplate.parse(keys.table.partition_key).attribute_names,
             *(KeyTemplate.parse(keys.table.sort_key).attribute_names if keys.table.sort_key else ())]
    return tuple(dict.fromkeys(names))


def auxiliary_item_bytes(templates: KeyTemplates) -> int:
    """An aggregate or uniqueness item's estimated size (its keys, the owner's key and a number)."""
    return _small_item_bytes(templates)


def _small_item_bytes(templates: KeyTemplates) -> int:
    """An aggregate or uniqueness item's size: its key text (attribute values at about 40 bytes) plus a body."""
    def length(source: str | None) -> int:
        if not source:
            return 0
        return sum(40 if s.is_attribute else len(s.text.encode()) for s in KeyTemplate.parse(source).segments)
    return length(templates.partition_key) + length(templates.sort_key) + AUXILIARY_BODY_BYTES


def condition_value_placeholder(condition: WriteCondition | None) -> str:
    """The value placeholder a condition compares with (`:expected_version`, `:amount`), or ""."""
    if condition is None or condition.kind in (ConditionKind.ATTRIBUTE_EXISTS, ConditionKind.ATTRIBUTE_NOT_EXISTS):
        return ""
    if condition.kind is ConditionKind.VERSION_MATCHES:
        return value_placeholder(f"expected_{condition.attribute}")
    return value_placeholder(condition.input or f"{condition.attribute}_limit")
