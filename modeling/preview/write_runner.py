"""Conditional, transactional and auxiliary writes run on the endpoint: the success case and every failure case.

For each write pattern with write semantics (issue 16) the preview sends the planned request for real items
and checks the outcome against the oracle (`modeling.preview.oracle`): which conditions hold on the items as
they are, and so whether the request must succeed, and what every member's item must look like afterwards.
A failing case must raise ConditionalCheckFailedException (one item) or TransactionCanceledException with
CancellationReasons naming the failed member (a transaction), and leave every member's item as it was,
uniqueness and auxiliary items included. Every item a case touched is put back afterwards.

Cases: success; the same request again (duplicate id, stale version); a new item with a taken unique value;
an update to a unique value another item holds; a comparison made false; a missing item for attribute_exists.
An ADD with no condition is also sent by 20 concurrent clients 10 times each: it must end exactly 200 higher.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.data.sample_data import Item, item_keys
from modeling.design.keys import KeyTemplate, KeyTemplateError, render_key
from modeling.endpoint.retry import send_until_done
from modeling.model import (
    AccessPattern,
    ConditionKind,
    KeyDesign,
    Model,
    PatternKind,
    TransactAction,
    UpdateAction,
    WriteCondition,
)
from modeling.preview.dataset import PreviewData, from_dynamodb_json, to_dynamodb_json
from modeling.preview.oracle import (
    apply_operations,
    condition_holds,
    condition_value,
    constant_value,
    expected_own_item,
    items_carrying,
)
from modeling.preview.requests import PatternRequest, RequestBuildError, typed_params
from modeling.preview.write_requests import Binding, BoundMember, bind, write_request
from modeling.write_semantics import (
    ARCHIVE,
    ITEM,
    WriteMember,
    WritePlan,
    auxiliary_items,
    changed_index_keys,
    condition_value_placeholder,
)

CONDITION_FAILED = "ConditionalCheckFailedException"
TRANSACTION_CANCELED = "TransactionCanceledException"
SUCCESS = "success"
SELECTION_ATTEMPTS = 20  # random picks of a transaction's existing items before saying none fit together
CONCURRENT_CLIENTS = 20
ADDS_PER_CLIENT = 10


@dataclass(frozen=True)
class CaseResult:
    """One case of a write: what was tried, what the oracle expected, what the endpoint did."""

    case: str
    expected: str  # "succeeds" or the error code the failure must raise
    passed: bool
    detail: str
    request: PatternRequest | None = None
    cancellation_reasons: tuple[str, ...] = ()
    written: tuple[tuple[Item | None, Item | None], ...] = ()  # (before, after) per member of a success
    failing: tuple[int, ...] = ()  # the members whose condition the oracle says fails


@dataclass(frozen=True)
class SemanticRun:
    request: PatternRequest | None  # the success case's request (shown as code)
    cases: tuple[CaseResult, ...]
    latency_ms: float

    @property
    def passed(self) -> bool:
        return bool(self.cases) and all(c.passed for c in self.cases)

    @property
    def verdict(self) -> str:
        return "; ".join(f"{c.case}: {c.detail}" for c in self.cases)


@dataclass(frozen=True)
class WriteContext:
    client: Any
    model: Model
    key_design: KeyDesign
    data: PreviewData
    table: str
    seed: int = 42
    now: datetime | None = None


class _Table:
    """Reads and restores the items a case touches (consistent reads, so a case sees its own writes)."""

    def __init__(self, ctx: WriteContext) -> None:
        self.ctx = ctx
        self.originals: dict[str, tuple[dict[str, Any], Item | None]] = {}
        self.prepared: list[tuple[Item, dict[str, Any]]] = []

    def read(self, key: dict[str, Any]) -> Item | None:
        stored = self.ctx.client.get_item(TableName=self.ctx.table, Key=to_dynamodb_json(key),
                                          ConsistentRead=True).get("Item")
        return from_dynamodb_json(stored) if stored is not None else None

    def snapshot(self, bound: list[BoundMember]) -> list[Item | None]:
        states = []
        for member in bound:
            state = self.read(member.key)
            self.originals.setdefault(_key_text(member.key), (member.key, state))
            states.append(state)
        return states

    def put(self, item: Item, key: dict[str, Any]) -> None:
        self.originals.setdefault(_key_text(key), (key, self.read(key)))
        self.ctx.client.put_item(TableName=self.ctx.table, Item=to_dynamodb_json(item))

    def prepare(self, item: Item, key: dict[str, Any]) -> None:
        """Write an item the success path needs (a Copy that is available), again after every `reset`."""
        self.prepared.append((item, key))
        self.put(item, key)

    def reset(self) -> None:
        """The table as the success path starts: the loaded items, plus the ones it prepared."""
        self.restore()
        for item, key in self.prepared:
            self.put(item, key)

    def delete(self, key: dict[str, Any]) -> None:
        self.originals.setdefault(_key_text(key), (key, self.read(key)))
        self.ctx.client.delete_item(TableName=self.ctx.table, Key=to_dynamodb_json(key))

    def restore(self) -> None:
        for key, original in self.originals.values():
            if original is None:
                self.ctx.client.delete_item(TableName=self.ctx.table, Key=to_dynamodb_json(key))
            else:
                self.ctx.client.put_item(TableName=self.ctx.table, Item=to_dynamodb_json(original))


def _key_text(key: dict[str, Any]) -> str:
    return "\x1f".join(f"{k}={key[k]}" for k in sorted(key))


# --- one case ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Expectation:
    """The oracle's view of one request: where each member's item is (the pattern's inputs name it), whether its
    condition holds there, and what it holds after a success, worked out from the model's semantics."""

    keys: list[dict[str, Any]]
    holds: list[bool]
    after: list[Item | None]


def input_names(pattern: AccessPattern, own_index: int) -> dict[str, str]:
    """Attribute -> the pattern input holding its value, for the `own_index`-th own member: an attribute named
    like an input, or the member's `key_inputs` (studentId: fromStudentId). One value per input name: every
    member that holds `memberId` holds the same one."""
    declared = pattern.members[own_index] if own_index < len(pattern.members) else None
    names = {a: a for a in pattern.inputs}
    names.update(declared.key_inputs if declared is not None else {})
    return names


def _key_attributes(member: WriteMember) -> set[str]:
    return {a for template in (member.partition_key, member.sort_key or "") if template
            for a in KeyTemplate.parse(template).attribute_names}


def _with_inputs(owner: Item, inputs: dict[str, Any], names: dict[str, str], attributes: set[str]) -> Item:
    """The owner with each of `attributes` that an input names set to the input's value."""
    return {**owner, **{a: inputs[n] for a, n in names.items() if n in inputs and a in attributes}}


def _entity_attributes(model: Model, entity: str) -> set[str]:
    found = model.entity(entity)
    return {a.name for a in found.attributes} if found is not None else set()


def _primary_key(key_design: KeyDesign, entity: str, item: Item) -> dict[str, Any]:
    names = [key_design.partition_key.name, *([key_design.sort_key.name] if key_design.sort_key else [])]
    keys = item_keys(key_design, entity, item)
    return {n: keys[n] for n in names if n in keys}


def _special_inputs(pattern: AccessPattern, now: datetime) -> dict[str, Any]:
    """A soft delete's values, from its definition: the status constant, the time and the TTL epoch second."""
    soft = pattern.soft_delete
    if soft is None:
        return {}
    expires = now + timedelta(days=soft.expires_after_days or 0)
    return {"deleted_status": soft.status_value, "deleted_at": now.astimezone(UTC).isoformat().replace("+00:00", "Z"),
            "expires_at": Decimal(int(expires.timestamp()))}


def _expectation(table: _Table, pattern: AccessPattern, plan: WritePlan, binding: Binding,
                 bound: list[BoundMember]) -> tuple[_Expectation, list[Item | None]]:
    """The oracle, and each member's item as it is now (read where the oracle says it is)."""
    ctx = table.ctx
    inputs = {**binding.inputs, **_special_inputs(pattern, binding.now)}
    keys, holds, after, states = [], [], [], []
    own_index = -1
    for position, b in enumerate(bound):
        m = b.member
        if m.item != ITEM:
            keys.append(b.key)
            state = table.read(b.key)
            claims = m.item != ARCHIVE and "attribute_not_exists" in m.condition_expression
            placeholder = condition_value_placeholder(m.condition)
            holds.append(condition_holds(m.condition, claims, state, b.values, {"value": placeholder}))
            if m.action is TransactAction.PUT:
                after.append(b.item)
            elif m.action is TransactAction.UPDATE:
                after.append({**apply_operations(state, m.ops, b.values), **b.key})
            else:
                after.append(None if m.action is TransactAction.DELETE else state)
            states.append(state)
            continue
        own_index += 1
        owner = binding.owners[own_index] if own_index < len(binding.owners) else {}
        names = input_names(pattern, own_index)
        version = m.condition.attribute if m.condition is not None and m.condition.kind is \
            ConditionKind.VERSION_MATCHES else None
        if m.action is TransactAction.PUT:
            attributes = _entity_attributes(ctx.model, m.entity)  # every one an input names holds its value
            given = {**owner, **{a: inputs[n] for a, n in names.items() if n in inputs and a in attributes}}
            new_item = expected_own_item(given, m.updates, inputs, binding.new_values)
            item = {**new_item, **item_keys(ctx.key_design, m.entity, new_item)}
            key = _primary_key(ctx.key_design, m.entity, item)
        else:
            item = None
            named = {a: inputs[n] for a, n in names.items() if n in inputs and a in _key_attributes(m)}
            key = _primary_key(ctx.key_design, m.entity, {**owner, **named})
        state = table.read(key)
        read_version = binding.versions.get(position, {}).get(version or "", owner.get(version or ""))
        compared = condition_value(m.condition, inputs, read_version)
        holds.append(condition_holds(m.condition, False, state, {"v": compared}, {"value": "v"}))
        if m.action is TransactAction.UPDATE:
            updated = expected_own_item(state, m.updates, inputs, binding.new_values, version)
            entity_keys = next(k for k in ctx.key_design.entities if k.entity == m.entity)
            for attribute, template in changed_index_keys(ctx.key_design, entity_keys,
                                                          {u.attribute for u in m.updates}):
                try:
                    updated[attribute] = render_key(KeyTemplate.parse(template), updated)
                except KeyTemplateError:  # the item lacks a part (it is missing): no index key to expect
                    continue
            after.append({**updated, **key})
        else:
            after.append(item if m.action is TransactAction.PUT else
                         None if m.action is TransactAction.DELETE else state)
        keys.append(key)
        states.append(state)
    return _Expectation(keys, holds, after), states


def _crossed(bound: list[BoundMember], expectation: _Expectation) -> list[str]:
    """Members the request writes somewhere else than the pattern's inputs say (crossed ids)."""
    return [f"the request writes {_label(b.member)} {_key_shown(b.key)} but the pattern's inputs name "
            f"{_key_shown(want)}" for b, want in zip(bound, expectation.keys, strict=True) if b.key != want]


def _key_shown(key: dict[str, Any]) -> str:
    return "/".join(str(key[k]) for k in sorted(key))


def run_case(table: _Table, pattern: str, plan: WritePlan, case: str, binding: Binding,
             bound: list[BoundMember], breaks: int | None = None) -> CaseResult:
    """Send one case's request; `breaks`: the member whose condition alone the case means to make fail."""
    request = write_request(pattern, plan, table.ctx.table, bound, binding.inputs)
    model_pattern = table.ctx.model.access_pattern(pattern)
    assert model_pattern is not None
    expectation, states = _expectation(table, model_pattern, plan, binding, bound)
    table.snapshot(bound)  # every item the request names is put back afterwards, the oracle's or not
    crossed_before = {_key_text(b.key): table.read(b.key) for b, key in zip(bound, expectation.keys, strict=True)
                      if b.key != key}
    holds, after = expectation.holds, expectation.after
    succeeds = all(holds)
    failing = tuple(i for i, h in enumerate(holds) if not h)
    if case == SUCCESS and not succeeds:  # the rejected path is not the success path: this proves nothing
        return CaseResult(case, "succeeds", False, "only the rejected path could run: no item satisfying "
                          + ", ".join(_condition_shown(bound[i].member) for i in failing)
                          + " could be found or written", request, failing=failing)
    if case != SUCCESS and succeeds:  # the case was meant to make a condition fail: it proves nothing
        return CaseResult(case, "a failure", False, "the oracle says every condition holds, so this case "
                          "cannot show the failure", request)
    if breaks is not None and failing != (breaks,):
        return CaseResult(case, "a failure", False, f"meant to fail only {_label(plan.members[breaks])}'s "
                          f"condition, but the oracle says {', '.join(_label(bound[i].member) for i in failing)} "
                          "fail", request, failing=failing)
    transactional = request.operation.value == "TransactWriteItems"
    expected = "succeeds" if succeeds else (TRANSACTION_CANCELED if transactional else CONDITION_FAILED)
    code, reasons = "", ()
    try:
        _send(table.ctx.client, request)
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "")
        reasons = tuple(r.get("Code", "None") for r in exc.response.get("CancellationReasons", []) or [])
        if code not in (CONDITION_FAILED, TRANSACTION_CANCELED):
            raise
    now = [table.read(key) for key in expectation.keys]
    wanted = after if succeeds else states
    changed = [i for i, (got, want) in enumerate(zip(now, wanted, strict=True)) if got != want]
    elsewhere = [b for b, key in zip(bound, expectation.keys, strict=True) if b.key != key
                 and table.read(b.key) != crossed_before[_key_text(b.key)]]
    problems = _crossed(bound, expectation)
    # A dropped or failed response is retried by the SDK; when the first attempt was applied, the retry meets
    # its own write and the condition fails. The items then read exactly as the success leaves them, and the
    # preview is their only writer: the write succeeded (production code makes such retries idempotent with
    # a ClientRequestToken on TransactWriteItems, or treats this failure as success after reading back).
    applied_before_retry = succeeds and bool(code) and not changed and now != states
    if applied_before_retry:
        code = ""
    if (code or "succeeds") != expected:
        problems.append(f"expected {expected}, got {code or 'success'}")
    if transactional and not succeeds:
        expected_reasons = tuple("None" if h else "ConditionalCheckFailed" for h in holds)
        if reasons != expected_reasons:
            problems.append(f"CancellationReasons {list(reasons)}, expected {list(expected_reasons)}")
    if changed:
        what = "differs from the oracle's" if succeeds else "changed although the request failed"
        problems.append(", ".join(_label(bound[i].member) for i in changed) + f" {what}"
                        + (f" ({_difference(now[changed[0]], wanted[changed[0]])})" if succeeds else ""))
    if elsewhere:
        problems.append(", ".join(_label(b.member) for b in elsewhere) + " changed at a key the inputs do not name")
    if problems:
        return CaseResult(case, expected, False, "; ".join(problems), request, reasons, failing=failing)
    if applied_before_retry:
        detail = ("succeeded on an attempt whose response was lost: the SDK's retry then failed its own "
                  "condition; every member reads back as the oracle expects")
    elif succeeds:
        detail = "succeeded; every member reads back as the oracle expects"
    else:
        failed = [_label(b.member) for b, h in zip(bound, holds, strict=True) if not h]
        detail = (f"{expected} ({', '.join(failed)}{' in CancellationReasons' if transactional else ''}); "
                  "every member unchanged")
    written = tuple(zip(states, now, strict=True)) if succeeds else ()
    return CaseResult(case, expected, True, detail, request, reasons, written, failing)


def _difference(got: Item | None, want: Item | None) -> str:
    """The first attributes that differ, as `status is on_loan-new, the oracle says on_loan`."""
    if got is None or want is None:
        return f"{'missing' if got is None else 'present'}, the oracle says {'missing' if want is None else 'present'}"
    names = sorted(n for n in {*got, *want} if got.get(n) != want.get(n))[:3]
    return "; ".join(f"{n} is {got.get(n, 'absent')}, the oracle says {want.get(n, 'absent')}" for n in names)


def _condition_shown(member: WriteMember) -> str:
    condition = member.condition
    if condition is None:
        return f"{_label(member)}'s attribute_not_exists"
    if condition.kind is ConditionKind.COMPARE:
        value = condition.value if condition.value is not None else f":{condition.input}"
        operator = condition.operator.value if condition.operator else ""
        return f"{_label(member)}'s {condition.attribute} {operator} {value}"
    return f"{_label(member)}'s {condition.kind.value}"


def _label(member: WriteMember) -> str:
    return member.entity if member.item == ITEM else f"{member.entity} {member.item}"


def _send(client: Any, request: PatternRequest) -> None:
    params = typed_params(request)
    if request.operation.value == "UpdateItem" and _adds(params):
        _send_counter(client, params)
        return
    method = {"PutItem": client.put_item, "UpdateItem": client.update_item, "DeleteItem": client.delete_item,
              "TransactWriteItems": client.transact_write_items}[request.operation.value]
    method(**params)


def _adds(params: dict[str, Any]) -> bool:
    return "ADD " in f" {params.get('UpdateExpression', '')}"


# A lost answer that botocore retries is harmless for a write whose retry fails its own condition (see the case
# above), but an ADD whose condition still holds after it (none, or attribute_exists) would count twice (the
# fault proxy met it: xp 2 where 1 was added).
_TRANSIENT_CODES = ("InternalServerError", "ServiceUnavailable", "ThrottlingException",
                    "ProvisionedThroughputExceededException", "RequestLimitExceeded")


def _send_counter(client: Any, params: dict[str, Any]) -> None:
    """An ADD, sent one attempt at a time: after a lost or failed answer the item is read (consistently; the
    preview is its only writer) and the ADD is sent again only if the item is unchanged. A failed condition is
    the answer, as before."""
    def read() -> Any:
        return client.get_item(TableName=params["TableName"], Key=params["Key"], ConsistentRead=True).get("Item")

    before = read()
    once = client.without_retries() if hasattr(client, "without_retries") else client

    def attempt(pending: dict[str, Any]) -> dict[str, Any] | None:
        try:
            once.update_item(**pending)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") not in _TRANSIENT_CODES:
                raise
            return None if read() != before else pending
        except BotoCoreError:  # the answer was lost: the ADD may have landed
            return None if read() != before else pending
        return None

    send_until_done(attempt, params, what="UpdateItem (ADD)")


# --- the cases of one pattern --------------------------------------------------------------------------


def run_semantic_write(ctx: WriteContext, pattern_name: str, plan: WritePlan) -> SemanticRun:
    """Every case of one write pattern; the table is put back as it was afterwards."""
    pattern = ctx.model.access_pattern(pattern_name)
    assert pattern is not None
    table = _Table(ctx)
    rng = random.Random(f"{ctx.seed}/{pattern_name}/semantics")  # noqa: S311 - sample choice, not security
    started = time.perf_counter()
    cases: list[CaseResult] = []
    try:
        binding, archive = _success_binding(ctx, pattern_name, plan, rng, table=table)
        cases = _cases(ctx, table, pattern_name, plan, binding, archive, rng)
    finally:
        table.restore()
    latency_ms = (time.perf_counter() - started) * 1000 / max(1, len(cases))  # per case, with its reads
    return SemanticRun(cases[0].request if cases else None, tuple(cases), round(latency_ms, 1))


def _cases(ctx: WriteContext, table: _Table, name: str, plan: WritePlan, binding: Binding,
           archive: tuple[str, ...], rng: random.Random) -> list[CaseResult]:
    pattern = ctx.model.access_pattern(name)
    assert pattern is not None

    def bound_of(b: Binding) -> list[BoundMember]:
        return bind(plan, ctx.key_design, b, archive_attributes=archive)

    def case(title: str, b: Binding, breaks: int | None = None) -> CaseResult:
        return run_case(table, name, plan, title, b, bound_of(b), breaks)

    first = bound_of(binding)
    cases = [run_case(table, name, plan, SUCCESS, binding, first)]
    own = [m for m in plan.members if m.item == ITEM]
    kinds = {m.condition.kind for m in own if m.condition is not None}
    if ConditionKind.ATTRIBUTE_NOT_EXISTS in kinds and pattern.kind is PatternKind.WRITE:
        cases.append(run_case(table, name, plan, "duplicate id (the same item again)", binding, first))
    if ConditionKind.VERSION_MATCHES in kinds:
        cases.append(run_case(table, name, plan, "stale version (the version read before the success)", binding,
                              first))
    cases += _unique_cases(ctx, table, name, plan, binding, bound_of, rng)
    for position, member in enumerate(plan.members):
        condition = member.condition
        if member.item != ITEM or condition is None or condition.kind is not ConditionKind.COMPARE \
                or condition.input is None:
            continue
        broken = _broken_comparison(ctx, table, pattern, plan, binding, position, bound_of)
        if broken is not None:
            cases.append(case(f"{condition.attribute} {condition.operator.value} value made false"
                              if condition.operator else "comparison made false", broken))
    if ConditionKind.ATTRIBUTE_EXISTS in kinds:
        spares = ctx.data.spares_of(own[0].entity)
        if spares:
            missing = dict(spares[-1].attributes)
            # the fresh values come from the same spare: kept different from it, as `_new_values` keeps them from
            # the owner's (a moved unique value would otherwise be deleted and put in one transaction)
            fresh = {a: f"{v}-new" if v == missing.get(a) else v for a, v in binding.new_values.items()}
            cases.append(case("missing item (attribute_exists)",
                              replace(_rebind(ctx, pattern, plan, binding, 0, missing), new_values=fresh)))
    cases += _rejected_paths(table, plan, binding, first, case)
    return [*cases, *_uncovered(plan, cases)]


def _rejected_paths(table: _Table, plan: WritePlan, binding: Binding, first: list[BoundMember],
                    case: Callable[[str, Binding, int | None], CaseResult]) -> list[CaseResult]:
    """The success request again, from the success path's starting table with one member's item changed first so
    that its condition alone fails: a constant comparison made false, a transaction's new item already there."""
    result = []
    for position, b in enumerate(first):
        member, condition = b.member, b.member.condition
        if member.item != ITEM or condition is None:
            continue
        if condition.kind is ConditionKind.COMPARE and condition.value is not None:
            value = _compare_value(table.ctx, member.entity, condition, False)
            if value is None:
                continue
            table.reset()
            current = table.read(b.key) or {}
            changed = {**current, condition.attribute or "": value}
            table.put(changed, b.key)
            result.append(case(f"{_condition_shown(member)} made false ({condition.attribute} = {value})", binding,
                               position))
        elif condition.kind is ConditionKind.ATTRIBUTE_NOT_EXISTS and plan.transactional and b.item is not None \
                and sum(1 for m in plan.members if m.item == ITEM) > 1:
            table.reset()
            table.put(b.item, b.key)
            result.append(case(f"{_label(member)} already exists (attribute_not_exists)", binding, position))
    return result


def _uncovered(plan: WritePlan, cases: list[CaseResult]) -> list[CaseResult]:
    """A failed case for each conditioned member no case made fail: its rejected path did not run."""
    shown = {i for c in cases if c.case != SUCCESS and c.passed for i in c.failing}
    return [CaseResult(f"rejected path of {_condition_shown(m)}", "a failure", False,
                       "could not be run: no item violating the condition could be found or written")
            for i, m in enumerate(plan.members) if m.item == ITEM and m.condition is not None and i not in shown]


def _rebind(ctx: WriteContext, pattern: AccessPattern, plan: WritePlan, binding: Binding, own_index: int,
            owner: Item) -> Binding:
    """The binding with another item for one own member, and the inputs its key attributes name set to match."""
    member = [m for m in plan.members if m.item == ITEM][own_index]
    names = input_names(pattern, own_index)
    keyed = {n: owner[a] for a, n in names.items() if a in _key_attributes(member) and a in owner}
    owners = list(binding.owners)
    owners[own_index] = owner
    return replace(binding, owners=tuple(owners), inputs={**binding.inputs, **keyed})


def _unique_cases(ctx: WriteContext, table: _Table, name: str, plan: WritePlan, binding: Binding,
                  bound_of: Callable[[Binding], list[BoundMember]], rng: random.Random) -> list[CaseResult]:
    """A new item with a taken unique value; an update to a unique value another item holds."""
    claims = [m for m in plan.members if m.item not in (ITEM, ARCHIVE) and m.action is TransactAction.PUT
              and "attribute_not_exists" in m.condition_expression]
    if not claims:
        return []
    entity = ctx.model.entity(claims[0].entity)
    unique = [a.name for a in entity.attributes if a.unique and a.name not in entity.identity] if entity else []
    # an attribute these members claim first: an update claims only the unique value it changes (email), and
    # another unique attribute (userName) would leave the claimed one unchanged
    declared = {a.name: a.attributes for a in auxiliary_items(ctx.model, entity)} if entity else {}
    claimed = {a for m in claims for a in declared.get(m.item, ())}
    unique.sort(key=lambda a: a not in claimed)  # stable: the entity's order otherwise
    if not unique:
        return []
    attribute = unique[0]
    pattern = ctx.model.access_pattern(name)
    assert pattern is not None
    if pattern.kind is PatternKind.WRITE:
        spares = ctx.data.spares_of(claims[0].entity)
        if len(spares) < 2:
            return []
        other = {**spares[1].attributes, attribute: binding.owners[0].get(attribute)}  # the success item's value
        taken = _rebind(ctx, pattern, plan, binding, 0, other)
        return [run_case(table, name, plan, f"duplicate {attribute} (another new item, the same {attribute})",
                         taken, bound_of(taken))]
    # an update to another item's value: that item's uniqueness item is put first (the loaded data has none)
    others = [i for i in ctx.data.of(claims[0].entity) if i.attributes != binding.owners[0]]
    if not others:
        return []
    holder = rng.choice(others).attributes
    holder_claim = bind(plan, ctx.key_design, replace(binding, owners=(holder,),
                                                      new_values={attribute: holder.get(attribute)}))
    claim = next(b for b in holder_claim if b.member.action is TransactAction.PUT and b.member.item != ITEM)
    if claim.item is not None:
        table.put(claim.item, claim.key)
    current = table.read(bind(plan, ctx.key_design, binding)[0].key) or binding.owners[0]
    moved = replace(binding, owners=(current,), new_values={**binding.new_values, attribute: holder.get(attribute)},
                    versions={0: {a: current.get(a) for a in current}})
    return [run_case(table, name, plan, f"{attribute} held by another item", moved, bound_of(moved))]


def _broken_comparison(ctx: WriteContext, table: _Table, pattern: AccessPattern, plan: WritePlan, binding: Binding,
                       position: int, bound_of: Callable[[Binding], list[BoundMember]]) -> Binding | None:
    """The binding with the compared input changed so that the comparison is false (and new Put items, so
    that only this condition fails)."""
    member = plan.members[position]
    condition = member.condition
    assert condition is not None and condition.attribute is not None
    owner_index = [i for i, m in enumerate(plan.members) if m.item == ITEM].index(position)
    current = table.read(bound_of(binding)[position].key) or {}
    value = current.get(condition.attribute)
    original = binding.owners[owner_index].get(condition.attribute)
    if not isinstance(value, Decimal) or condition.input is None:
        return None
    # false on the item now and as it was before the success case, so the request stays a failing example
    high, low = (max(value, original), min(value, original)) if isinstance(original, Decimal) else (value, value)
    wrong = {"=": high + 1, "<>": value, "<": low, "<=": low - 1, ">": high, ">=": high + 1}
    if original is not None and original != value and condition.operator is not None \
            and condition.operator.value in ("=", "<>"):
        return None  # no single value is false both before and after
    inputs = {**binding.inputs, condition.input: wrong[condition.operator.value if condition.operator else "="]}
    owners = list(binding.owners)
    owners[owner_index] = current
    for i, m in enumerate(m for m in plan.members if m.item == ITEM):
        spares = ctx.data.spares_of(m.entity)
        if m.action is TransactAction.PUT and len(spares) > 1:
            owners[i] = _with_inputs(dict(spares[1].attributes), inputs, input_names(pattern, i),
                                     _entity_attributes(ctx.model, m.entity))
    return replace(binding, inputs=inputs, owners=tuple(owners), versions=_versions(plan, owners))


def _versions(plan: WritePlan, owners: list[Item]) -> dict[int, dict[str, Any]]:
    """The current version of every versioned own member (so only the intended condition fails)."""
    result: dict[int, dict[str, Any]] = {}
    own = iter(owners)
    for position, member in enumerate(plan.members):
        if member.item != ITEM:
            continue
        owner = next(own, {})
        if member.condition is not None and member.condition.kind is ConditionKind.VERSION_MATCHES:
            result[position] = {member.condition.attribute or "": owner.get(member.condition.attribute or "")}
    return result


# --- choosing the items and values of the success case ---------------------------------------------


def _refuse_primary_key_updates(plan: WritePlan) -> None:
    """An update may not change an attribute its own table key is rendered from: UpdateItem cannot change a
    key (AWS WorkingWithItems.html), and a SET of the attribute alone would leave the item under a stale key."""
    for member in plan.members:
        if member.action is not TransactAction.UPDATE:
            continue
        key_attributes = {a for template in (member.partition_key, member.sort_key or "")
                          for a in KeyTemplate.parse(template).attribute_names}
        changed = sorted(u.attribute for u in member.updates if u.attribute in key_attributes)
        if changed:
            raise RequestBuildError(
                f"{', '.join(changed)} is part of the table's primary key, which UpdateItem cannot change: the "
                "application must delete the item and put it again (or the key design should not use an "
                "attribute that changes)")


def semantic_write_request(ctx: WriteContext, name: str, plan: WritePlan, rng: random.Random,
                           position: int = 0) -> PatternRequest:
    """The request of a write's success case, as the preview sends it, with the `position`-th new items
    (the load test sends one per request: every member, uniqueness and auxiliary items included)."""
    binding, archive = _success_binding(ctx, name, plan, rng, position)
    return write_request(name, plan, ctx.table, bind(plan, ctx.key_design, binding, archive_attributes=archive),
                         binding.inputs)


def _success_binding(ctx: WriteContext, name: str, plan: WritePlan, rng: random.Random, position: int = 0,
                     table: _Table | None = None) -> tuple[Binding, tuple[str, ...]]:
    """The items and inputs of the success path: existing items chosen (or, given a table, written first) so that
    every condition on them holds, new items for the Puts, and one value per input name across the members."""
    pattern = ctx.model.access_pattern(name)
    assert pattern is not None
    _refuse_primary_key_updates(plan)
    now = ctx.now or datetime.now(UTC).replace(microsecond=0)
    own = [m for m in plan.members if m.item == ITEM]
    owners: list[Item] = [{} for _ in own]
    inputs: dict[str, Any] = {}
    used: set[int] = set()

    def take_inputs(owner: Item, i: int) -> None:
        for attribute, source in input_names(pattern, i).items():
            if source not in inputs and source not in pattern.value_inputs and owner.get(attribute) is not None:
                inputs[source] = owner[attribute]

    for attempt in range(SELECTION_ATTEMPTS):  # existing items first: their values are what the inputs must be
        try:
            for i, member in enumerate(own):
                if member.action is not TransactAction.PUT:
                    owners[i] = _existing_owner(ctx, pattern, member, i, inputs, used, rng, table)
                    take_inputs(owners[i], i)
            break
        except RequestBuildError:  # the first item chosen left no match for a later one (a tenant of one student)
            if attempt == SELECTION_ATTEMPTS - 1:
                raise
            inputs.clear()
            used.clear()
            if table is not None:  # and the items written for the abandoned pick are put back
                table.restore()
                table.prepared.clear()
    for i, member in enumerate(own):  # new items carry the inputs the existing ones fixed
        if member.action is not TransactAction.PUT:
            continue
        spares = ctx.data.spares_of(member.entity)
        if not spares:
            raise RequestBuildError(f"the preview has no new {member.entity} items to write")
        owners[i] = _with_inputs(dict(spares[position % len(spares)].attributes), inputs, input_names(pattern, i),
                                 _entity_attributes(ctx.model, member.entity))
        take_inputs(owners[i], i)
    for n in pattern.value_inputs:
        if n not in inputs:
            found = _set_input_value(ctx, plan, n)
            inputs[n] = found if found is not None else _safe_value(plan, owners, n)
    owners = [_with_inputs(owner, inputs, input_names(pattern, i), _entity_attributes(ctx.model, m.entity))
              if m.action is TransactAction.PUT else owner
              for i, (owner, m) in enumerate(zip(owners, own, strict=True))]
    new_values = _new_values(ctx, plan, owners)
    archive: tuple[str, ...] = ()
    if pattern.soft_delete is not None and pattern.soft_delete.archive_entity:
        archived = ctx.model.entity(pattern.soft_delete.archive_entity)
        archive = tuple(a.name for a in archived.attributes) if archived else ()
    return Binding(tuple(owners), inputs, now, _versions(plan, owners), new_values), archive


def _existing_owner(ctx: WriteContext, pattern: AccessPattern, member: WriteMember, i: int, inputs: dict[str, Any],
                    used: set[int], rng: random.Random, table: _Table | None) -> Item:
    """An existing item for an update or delete: the one the inputs already name, else one agreeing with them;
    one whose constant comparison holds, or (given a table) one written first with a value that makes it hold."""
    names = input_names(pattern, i)
    key_attributes = _key_attributes(member)
    fixed = {a: inputs[n] for a, n in names.items() if n in inputs and a in key_attributes}
    naming = _naming_attributes(ctx.model, pattern, member, i, inputs)
    carrying = items_carrying(ctx.data.of(member.entity), naming, pattern.name, (member.entity,))  # inputs' source
    candidates = [s for s in carrying if id(s) not in used and all(s.attributes.get(a) == v for a, v in fixed.items())]
    if not candidates:
        if fixed and set(fixed) >= key_attributes:  # the inputs name an item the data lacks: the update creates it
            return dict(fixed)
        raise RequestBuildError(f"the preview holds no {member.entity} items to {member.action.value.lower()}")
    agreeing = [s for s in candidates if all(s.attributes.get(a) == inputs[n] for a, n in names.items()
                                             if n in inputs and a in s.attributes)]
    pool = agreeing or candidates
    condition = member.condition
    constant = condition is not None and condition.kind is ConditionKind.COMPARE and condition.value is not None
    if constant:
        assert condition is not None
        satisfying = [s for s in pool if _compare_holds(condition, s.attributes)]
        if satisfying:
            pool = satisfying
        elif table is not None:
            chosen = rng.choice(pool)
            used.add(id(chosen))
            value = _compare_value(ctx, member.entity, condition, True)
            if value is None:
                return dict(chosen.attributes)
            owner = {**chosen.attributes, condition.attribute or "": value}
            table.prepare({**owner, **item_keys(ctx.key_design, member.entity, owner)},
                          _primary_key(ctx.key_design, member.entity, owner))
            return owner
    chosen = rng.choice(pool)
    used.add(id(chosen))
    return dict(chosen.attributes)


def _naming_attributes(model: Model, pattern: AccessPattern, member: WriteMember, i: int,
                       inputs: dict[str, Any]) -> list[str]:
    """The attributes the `i`-th own member's item must carry, because an input not fixed yet takes its value from
    them: its key inputs and the pattern's inputs named like its attributes. Inputs the write sets (a new
    `manager`) or compares (`amount`) need not be on the item already."""
    entity = model.entity(member.entity)
    return [a for a, n in input_names(pattern, i).items()
            if n not in inputs and n not in pattern.value_inputs and a not in pattern.changed
            and entity is not None and entity.attribute(a) is not None]


def _compare_holds(condition: WriteCondition, item: Item) -> bool:
    return condition_holds(condition, False, item, {"v": condition_value(condition, {}, None)}, {"value": "v"})


def _compare_value(ctx: WriteContext, entity: str, condition: WriteCondition, holds: bool) -> Any | None:
    """A value of the compared attribute that makes `attribute operator constant` hold (or fail), of the
    attribute's own type; None when there is none (a String compared with a Number never holds)."""
    constant = constant_value(condition.value)
    found = ctx.model.entity(entity)
    declared = found.attribute(condition.attribute or "") if found is not None else None
    kind = declared.type.value if declared is not None else None
    fits = {"S": isinstance(constant, str), "N": isinstance(constant, Decimal), "BOOL": isinstance(constant, bool)}
    if kind is None or not fits.get(kind, False):
        return None
    seen = [i.attributes.get(condition.attribute or "") for i in ctx.data.of(entity)]
    other: Any = next((v for v in sorted({v for v in seen if isinstance(v, str)}) if v != constant), None)
    above: Any
    below: Any
    if isinstance(constant, bool):
        other, above, below = (not constant), None, None
    elif isinstance(constant, Decimal):
        other, above, below = constant + 1, constant + 1, constant - 1
    else:
        other, above, below = other or f"not-{constant}", f"{constant}~", constant[:-1] if constant else None
    operator = condition.operator.value if condition.operator else "="
    if holds:
        return {"=": constant, "<>": other, "<": below, "<=": constant, ">": above, ">=": constant}[operator]
    return {"=": other, "<>": constant, "<": constant, "<=": above, ">": constant, ">=": below}[operator]


def _set_input_value(ctx: WriteContext, plan: WritePlan, name: str) -> Any | None:
    """A value input that only SETs an attribute (`returnedAt = :returnedAt`) takes a value that attribute
    really holds: a spare item's, of the attribute's own type and generator (a timestamp, not the number 1).
    None when the input is also compared or added (`_safe_value` keeps those conditions true)."""
    uses = [(m, u) for m in plan.members for u in m.updates if u.input == name]
    compared = any(m.condition is not None and m.condition.input == name for m in plan.members)
    if not uses or compared or any(u.action not in (UpdateAction.SET, UpdateAction.IF_NOT_EXISTS) for _, u in uses):
        return None
    member, update = uses[0]
    return next((item.attributes[update.attribute] for item in ctx.data.spares_of(member.entity)
                 if update.attribute in item.attributes), None)


def _safe_value(plan: WritePlan, owners: list[Item], name: str) -> Decimal:
    """A value input every comparison on it accepts: 1, or less when an owner holds less (`coins >= :amount`, or
    a balance a negated ADD takes it from)."""
    value = Decimal(1)
    own = iter(owners)
    for member in plan.members:
        if member.item != ITEM:
            continue
        owner = next(own, {})
        for update in member.updates:  # a subtraction the application checked after its read: never below 0
            current = owner.get(update.attribute)
            if update.input == name and update.negate and isinstance(current, Decimal):
                value = min(value, current)
        condition = member.condition
        if condition is not None and condition.input == name and condition.attribute in owner:
            current = owner[condition.attribute]
            if isinstance(current, Decimal) and condition.operator is not None and condition.operator.value in (
                    ">=", ">"):
                value = min(value, current if condition.operator.value == ">=" else current - 1)
    return max(value, Decimal(0))


def _new_values(ctx: WriteContext, plan: WritePlan, owners: list[Item]) -> dict[str, Any]:
    """Fresh values for SETs without an input: a spare item's (a new email), never the current one."""
    result: dict[str, Any] = {}
    own = iter(owners)
    for member in plan.members:
        if member.item != ITEM:
            continue
        owner = next(own, {})
        spares = ctx.data.spares_of(member.entity)
        for action, attribute, _ in member.ops:
            if action is UpdateAction.SET and attribute not in result and spares:
                value = spares[-1].attributes.get(attribute)
                result[attribute] = value if value != owner.get(attribute) else f"{value}-new"
    return result


# --- concurrency ---------------------------------------------------------------------------------------


def concurrent_adds(ctx: WriteContext, name: str, plan: WritePlan, clients: int = CONCURRENT_CLIENTS,
                    times: int = ADDS_PER_CLIENT, client_factory: Callable[[], Any] | None = None) -> CaseResult:
    """`clients` threads each send the pattern's ADD `times` times: the total must rise by exactly
    clients x times x the amount (ADD is applied atomically on the item, dynamodb-rules §1.2 writes)."""
    rng = random.Random(f"{ctx.seed}/{name}/concurrent")  # noqa: S311 - sample choice, not security
    table = _Table(ctx)
    try:
        binding, _ = _success_binding(ctx, name, plan, rng)
        bound = bind(plan, ctx.key_design, binding)
        request = write_request(name, plan, ctx.table, bound, binding.inputs)
        member = bound[0]
        attribute, placeholder = next((a, p) for action, a, p in member.member.ops if action is UpdateAction.ADD)
        before = table.snapshot(bound)[0] or {}
        start = Decimal(before.get(attribute, 0))
        step = Decimal(member.values[placeholder])
        factory = client_factory or (lambda: ctx.client)

        def one_client(_: int) -> None:
            client = factory()
            for _ in range(times):
                _send(client, request)

        with ThreadPoolExecutor(max_workers=clients) as pool:
            list(pool.map(one_client, range(clients)))
        end = Decimal((table.read(member.key) or {}).get(attribute, 0))
    finally:
        table.restore()
    wanted = start + step * clients * times
    case = f"{clients} concurrent clients x {times} ADDs of {step} to {attribute}"
    if end != wanted:
        return CaseResult(case, "succeeds", False, f"{attribute} went from {start} to {end}, expected {wanted}",
                          request)
    return CaseResult(case, "succeeds", True, f"{attribute} went from {start} to {end}: exactly "
                      f"{step * clients * times} higher, no update lost", request)


def counter_pattern(model: Model, plan: Any) -> bool:
    """An update whose own item is ADDed to with no condition: an atomic counter, sent concurrently too."""
    write = plan.write
    if write is None or write.transactional or len(write.members) != 1:
        return False
    member = write.members[0]
    return (member.action is TransactAction.UPDATE and member.condition is None
            and any(action is UpdateAction.ADD for action, _, _ in member.ops))


def concurrent_increments(ctx: WriteContext, name: str, plan: WritePlan, clients: int = CONCURRENT_CLIENTS,
                          times: int = ADDS_PER_CLIENT) -> CaseResult:
    """`clients` threads each add 1 to the pattern's number `times` times, the way the pattern writes it:
    an ADD (atomic); a SET from the value each client read (a read-modify-write: updates are lost); or a SET
    under a version condition (each client re-reads and retries on ConditionalCheckFailedException)."""
    member = plan.members[0]
    version = (member.condition.attribute if member.condition is not None
               and member.condition.kind is ConditionKind.VERSION_MATCHES else None)
    if any(action is UpdateAction.ADD and a != version for action, a, _ in member.ops):
        return concurrent_adds(ctx, name, plan, clients, times)
    attribute = next((a for action, a, _ in member.ops if action is UpdateAction.SET), "")
    rng = random.Random(f"{ctx.seed}/{name}/concurrent")  # noqa: S311 - sample choice, not security
    table = _Table(ctx)
    retries = [0]
    lock = threading.Lock()
    try:
        binding, _ = _success_binding(ctx, name, plan, rng)
        key = bind(plan, ctx.key_design, binding)[0].key
        start_item = table.snapshot(bind(plan, ctx.key_design, binding))[0] or {}
        start = Decimal(start_item.get(attribute, 0))

        def one_client(_: int) -> None:
            for _ in range(times):
                while True:
                    current = table.read(key) or {}
                    attempt = replace(binding, owners=(current,),
                                      new_values={attribute: Decimal(current.get(attribute, 0)) + 1},
                                      versions={0: {version: current.get(version)}} if version else {})
                    request = write_request(name, plan, ctx.table, bind(plan, ctx.key_design, attempt),
                                            binding.inputs)
                    try:
                        _send(ctx.client, request)
                        break
                    except ClientError as exc:
                        if exc.response.get("Error", {}).get("Code") != CONDITION_FAILED:
                            raise
                        with lock:
                            retries[0] += 1

        with ThreadPoolExecutor(max_workers=clients) as pool:
            list(pool.map(one_client, range(clients)))
        end = Decimal((table.read(key) or {}).get(attribute, 0))
    finally:
        table.restore()
    wanted, total = start + clients * times, clients * times
    case = f"{clients} concurrent clients x {times} increments of {attribute}"
    how = (f"under the version condition, {retries[0]} attempt(s) failed with {CONDITION_FAILED} and were retried"
           if version else "each client read the value and SET it one higher")
    if end != wanted:
        return CaseResult(case, "succeeds", False, f"{attribute} went from {start} to {end}: {wanted - end} of "
                          f"{total} increments lost ({how})")
    return CaseResult(case, "succeeds", True, f"{attribute} went from {start} to {end}: exactly {total} higher ({how})")
