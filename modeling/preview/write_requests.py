"""A planned write with conditions, updates or auxiliary items as the exact request, for concrete items.

The plan (`modeling.write_semantics.WritePlan`) gives each member's action, key templates, expressions and
where each expression value comes from; this module binds them to items and values: the keys rendered in
the one key grammar, the items a Put writes, ExpressionAttributeNames and ExpressionAttributeValues. One
member alone is a PutItem, UpdateItem or DeleteItem; several are one TransactWriteItems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from modeling.data.sample_data import Item, item_keys
from modeling.design.keys import KeyTemplate, KeyTemplateError, render_key
from modeling.design.plans import Operation
from modeling.model import KeyDesign, TransactAction
from modeling.preview.oracle import apply_operations
from modeling.preview.requests import PatternRequest, RequestBuildError
from modeling.write_semantics import ARCHIVE, ITEM, ValueKind, ValueSource, WriteMember, WritePlan

_TOKEN = re.compile(r"[#:][A-Za-z0-9_]+")
_SINGLE = {TransactAction.PUT: Operation.PUT_ITEM, TransactAction.UPDATE: Operation.UPDATE_ITEM,
           TransactAction.DELETE: Operation.DELETE_ITEM}


@dataclass(frozen=True)
class Binding:
    """What one request is sent for: the owner item of each own member, the inputs and the time."""

    owners: tuple[Item, ...]  # per own member (ITEM) in plan order: its attributes (a Put's whole new item)
    inputs: dict[str, Any]
    now: datetime
    versions: dict[int, dict[str, Any]] = field(default_factory=dict)  # member position -> expected versions
    new_values: dict[str, Any] = field(default_factory=dict)  # SET values without an input


@dataclass(frozen=True)
class BoundMember:
    member: WriteMember
    key: dict[str, Any]  # the table primary key
    item: Item | None  # what a Put writes
    values: dict[str, Any]  # placeholder -> value
    owner: Item  # the attributes the member was bound from


def bind(plan: WritePlan, key_design: KeyDesign, binding: Binding, archive_of: dict[str, Any] | None = None,
         archive_attributes: tuple[str, ...] = ()) -> list[BoundMember]:
    """Each member with its key, item and values; the auxiliary members follow their own member's owner."""
    bound: list[BoundMember] = []
    owners = iter(binding.owners)
    owner: Item = {}
    updated: Item = {}
    for position, member in enumerate(plan.members):
        if member.item == ITEM:
            owner = next(owners, {})
        values = {p: _value(source, owner, binding, position) for p, source in member.values}
        values = _with_keys(member, owner, values)
        if member.item == ITEM:
            updated = expected_attributes(owner, member, values) if member.ops else owner
            if member.action is TransactAction.PUT:  # a Put's updates say what the new item holds
                owner = updated
        bound.append(_bound(member, key_design, updated if member.after_update else owner, values,
                            archive_attributes))
    return bound


def _with_keys(member: WriteMember, owner: Item, values: dict[str, Any]) -> dict[str, Any]:
    """Index-key values rendered from the owner as the update leaves it."""
    keys = {p: s for p, s in member.values if s.kind is ValueKind.KEY}
    if not keys:
        return values
    after = expected_attributes(owner, member, values)
    for placeholder, source in keys.items():
        values[placeholder] = _render(source.name, after)
    return values


def expected_attributes(before: Item | None, member: WriteMember, values: dict[str, Any]) -> Item:
    """The item after the member's update, worked out in plain Python from its operations (the oracle)."""
    return apply_operations(before, member.ops, values)


def _value(source: ValueSource, owner: Item, binding: Binding, position: int) -> Any:
    kind = source.kind
    if kind is ValueKind.INPUT:
        if source.name not in binding.inputs:
            raise RequestBuildError(f"give a value for {source.name}")
        value = binding.inputs[source.name]
        return -value if source.negate else value
    if kind is ValueKind.CONSTANT:
        return Decimal(str(source.constant)) if isinstance(source.constant, int | float) and not isinstance(
            source.constant, bool) else source.constant
    if kind is ValueKind.NEW_VALUE:
        return binding.new_values.get(source.name, owner.get(source.name))
    if kind is ValueKind.CURRENT_VERSION:
        return binding.versions.get(position, {}).get(source.name, owner.get(source.name))
    if kind is ValueKind.NOW:
        return binding.now.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if kind is ValueKind.EXPIRES_AT:
        return Decimal(int((binding.now + timedelta(days=source.days)).timestamp()))  # epoch seconds
    if kind is ValueKind.ITEM_ATTRIBUTE:
        value = owner.get(source.name, Decimal(0))
        return -value if source.negate else value
    return None  # KEY: rendered once the other values are known


def _render(template: str, values: Item) -> str:
    try:
        return render_key(KeyTemplate.parse(template), values)
    except KeyTemplateError as exc:
        raise RequestBuildError(str(exc)) from None


def _bound(member: WriteMember, key_design: KeyDesign, owner: Item, values: dict[str, Any],
           archive_attributes: tuple[str, ...]) -> BoundMember:
    names = [key_design.partition_key.name, *([key_design.sort_key.name] if key_design.sort_key else [])]
    if member.item in (ITEM, ARCHIVE):
        source = owner if member.item == ITEM else {a: owner[a] for a in archive_attributes if a in owner}
        keys = item_keys(key_design, member.entity, source) if member.item == ITEM or source else {}
        key = {n: keys[n] for n in names if n in keys}
        item = {**source, **keys} if member.action is TransactAction.PUT else None
    else:
        key = {names[0]: _render(member.partition_key, owner)}
        if len(names) > 1 and member.sort_key:
            key[names[1]] = _render(member.sort_key, owner)
        item = None
        if member.action is TransactAction.PUT:
            item = {**(owner if member.why.startswith("the edge") else {}),
                    **{a: owner[a] for a in member.carries if a in owner},  # the owner's key (a uniqueness item)
                    **key, "auxiliaryOf": member.entity, "auxiliaryItem": member.item}
    return BoundMember(member, key, item, values, owner)


def write_request(pattern: str, plan: WritePlan, table: str, bound: list[BoundMember],
                  inputs: dict[str, Any]) -> PatternRequest:
    """PutItem / UpdateItem / DeleteItem for one member, TransactWriteItems for several."""
    bodies = [(b.member.action, _body(table, b)) for b in bound]
    if not plan.transactional and len(bodies) == 1:
        action, body = bodies[0]
        return PatternRequest(pattern, _SINGLE[action], body, (dict(inputs),))
    return PatternRequest(pattern, Operation.TRANSACT_WRITE_ITEMS,
                          {"TransactItems": [{action.value: body} for action, body in bodies]}, (dict(inputs),))


def _body(table: str, bound: BoundMember) -> dict[str, Any]:
    member = bound.member
    body: dict[str, Any] = {"TableName": table}
    if member.action is TransactAction.PUT:
        body["Item"] = bound.item
    else:
        body["Key"] = bound.key
    if member.update_expression:
        body["UpdateExpression"] = member.update_expression
    if member.condition_expression:
        body["ConditionExpression"] = member.condition_expression
    used = set(_TOKEN.findall(f"{member.update_expression} {member.condition_expression}"))
    names = {p: n for p, n in member.names if p in used}
    if names:
        body["ExpressionAttributeNames"] = names
    values = {p: v for p, v in bound.values.items() if p in used}
    if values:
        body["ExpressionAttributeValues"] = values
    return body
