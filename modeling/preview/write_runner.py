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
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from modeling.data.sample_data import Item
from modeling.design.keys import KeyTemplate
from modeling.model import ConditionKind, KeyDesign, Model, PatternKind, TransactAction, UpdateAction
from modeling.preview.dataset import PreviewData, from_dynamodb_json, to_dynamodb_json
from modeling.preview.oracle import apply_operations, condition_holds
from modeling.preview.requests import PatternRequest, RequestBuildError, typed_params
from modeling.preview.write_requests import Binding, BoundMember, bind, write_request
from modeling.write_semantics import ARCHIVE, ITEM, WriteMember, WritePlan, condition_value_placeholder

CONDITION_FAILED = "ConditionalCheckFailedException"
TRANSACTION_CANCELED = "TransactionCanceledException"
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

    def restore(self) -> None:
        for key, original in self.originals.values():
            if original is None:
                self.ctx.client.delete_item(TableName=self.ctx.table, Key=to_dynamodb_json(key))
            else:
                self.ctx.client.put_item(TableName=self.ctx.table, Item=to_dynamodb_json(original))


def _key_text(key: dict[str, Any]) -> str:
    return "\x1f".join(f"{k}={key[k]}" for k in sorted(key))


# --- one case ----------------------------------------------------------------------------------------


def _expected(bound: list[BoundMember], states: list[Item | None]) -> tuple[list[bool], list[Item | None]]:
    """Whether each member's condition holds, and each member's item after a successful request (the oracle)."""
    holds, after = [], []
    for member, state in zip(bound, states, strict=True):
        m = member.member
        claims = m.item not in (ITEM, ARCHIVE) and "attribute_not_exists" in m.condition_expression
        placeholder = condition_value_placeholder(m.condition)
        holds.append(condition_holds(m.condition, claims, state, member.values, {"value": placeholder}))
        if m.action is TransactAction.PUT:
            after.append(member.item)
        elif m.action is TransactAction.DELETE:
            after.append(None)
        elif m.action is TransactAction.UPDATE:
            after.append({**apply_operations(state, m.ops, member.values), **member.key})
        else:
            after.append(state)
    return holds, after


def run_case(table: _Table, pattern: str, plan: WritePlan, case: str, bound: list[BoundMember],
             inputs: dict[str, Any]) -> CaseResult:
    request = write_request(pattern, plan, table.ctx.table, bound, inputs)
    states = table.snapshot(bound)
    holds, after = _expected(bound, states)
    succeeds = all(holds)
    if case != "success" and succeeds:  # the case was meant to make a condition fail: it proves nothing
        return CaseResult(case, "a failure", False, "the oracle says every condition holds, so this case "
                          "cannot show the failure", request)
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
    now = [table.read(b.key) for b in bound]
    wanted = after if succeeds else states
    changed = [i for i, (got, want) in enumerate(zip(now, wanted, strict=True)) if got != want]
    problems = []
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
        problems.append(", ".join(_label(bound[i].member) for i in changed) + f" {what}")
    if problems:
        return CaseResult(case, expected, False, "; ".join(problems), request, reasons)
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
    return CaseResult(case, expected, True, detail, request, reasons, written)


def _label(member: WriteMember) -> str:
    return member.entity if member.item == ITEM else f"{member.entity} {member.item}"


def _send(client: Any, request: PatternRequest) -> None:
    params = typed_params(request)
    method = {"PutItem": client.put_item, "UpdateItem": client.update_item, "DeleteItem": client.delete_item,
              "TransactWriteItems": client.transact_write_items}[request.operation.value]
    method(**params)


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
        binding, archive = _success_binding(ctx, pattern_name, plan, rng)
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

    first = bound_of(binding)
    cases = [run_case(table, name, plan, "success", first, binding.inputs)]
    own = [m for m in plan.members if m.item == ITEM]
    kinds = {m.condition.kind for m in own if m.condition is not None}
    if ConditionKind.ATTRIBUTE_NOT_EXISTS in kinds and pattern.kind is PatternKind.WRITE:
        cases.append(run_case(table, name, plan, "duplicate id (the same item again)", first, binding.inputs))
    if ConditionKind.VERSION_MATCHES in kinds:
        cases.append(run_case(table, name, plan, "stale version (the version read before the success)", first,
                              binding.inputs))
    cases += _unique_cases(ctx, table, name, plan, binding, bound_of, rng)
    for position, member in enumerate(plan.members):
        condition = member.condition
        if member.item != ITEM or condition is None or condition.kind is not ConditionKind.COMPARE:
            continue
        broken = _broken_comparison(ctx, table, plan, binding, position, bound_of)
        if broken is not None:
            cases.append(run_case(table, name, plan, f"{condition.attribute} {condition.operator.value} value made "
                                  "false" if condition.operator else "comparison made false", bound_of(broken),
                                  broken.inputs))
    if ConditionKind.ATTRIBUTE_EXISTS in kinds:
        spares = ctx.data.spares_of(own[0].entity)
        if spares:
            missing = replace(binding, owners=(spares[-1].attributes, *binding.owners[1:]))
            cases.append(run_case(table, name, plan, "missing item (attribute_exists)", bound_of(missing),
                                  binding.inputs))
    return cases


def _unique_cases(ctx: WriteContext, table: _Table, name: str, plan: WritePlan, binding: Binding,
                  bound_of: Callable[[Binding], list[BoundMember]], rng: random.Random) -> list[CaseResult]:
    """A new item with a taken unique value; an update to a unique value another item holds."""
    claims = [m for m in plan.members if m.item not in (ITEM, ARCHIVE) and m.action is TransactAction.PUT
              and "attribute_not_exists" in m.condition_expression]
    if not claims:
        return []
    entity = ctx.model.entity(claims[0].entity)
    unique = [a.name for a in entity.attributes if a.unique and a.name not in entity.identity] if entity else []
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
        taken = replace(binding, owners=(other,))
        return [run_case(table, name, plan, f"duplicate {attribute} (another new item, the same {attribute})",
                         bound_of(taken), binding.inputs)]
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
    return [run_case(table, name, plan, f"{attribute} held by another item", bound_of(moved), binding.inputs)]


def _broken_comparison(ctx: WriteContext, table: _Table, plan: WritePlan, binding: Binding, position: int,
                       bound_of: Callable[[Binding], list[BoundMember]]) -> Binding | None:
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
            owners[i] = _with_inputs(dict(spares[1].attributes), inputs, m)
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


def _success_binding(ctx: WriteContext, name: str, plan: WritePlan,
                     rng: random.Random, position: int = 0) -> tuple[Binding, tuple[str, ...]]:
    pattern = ctx.model.access_pattern(name)
    assert pattern is not None
    _refuse_primary_key_updates(plan)
    now = ctx.now or datetime.now(UTC).replace(microsecond=0)
    owners: list[Item] = []
    inputs: dict[str, Any] = {}
    used: set[int] = set()
    members = pattern.members
    own = [m for m in plan.members if m.item == ITEM]
    for i, member in enumerate(own):
        declared = members[i] if members else None
        if member.action is TransactAction.PUT:
            spares = ctx.data.spares_of(member.entity)
            if not spares:
                raise RequestBuildError(f"the preview has no new {member.entity} items to write")
            owners.append(dict(spares[position % len(spares)].attributes))
            continue
        existing = [s for s in ctx.data.of(member.entity) if id(s) not in used]
        if not existing:
            raise RequestBuildError(f"the preview holds no {member.entity} items to {member.action.value.lower()}")
        chosen = rng.choice(existing)
        used.add(id(chosen))
        owners.append(dict(chosen.attributes))
        for attribute, source in (declared.key_inputs.items() if declared else ()):
            inputs[source] = chosen.attributes.get(attribute)
    for n in pattern.inputs:  # inputs that are the owners' attributes
        if n not in inputs and owners and n in owners[0] and n not in pattern.value_inputs:
            inputs[n] = owners[0][n]
    for n in pattern.value_inputs:
        inputs.setdefault(n, _safe_value(plan, owners, n))
    owners = [_with_inputs(owner, inputs, m) for owner, m in zip(owners, own, strict=True)]
    new_values = _new_values(ctx, plan, owners)
    archive: tuple[str, ...] = ()
    if pattern.soft_delete is not None and pattern.soft_delete.archive_entity:
        archived = ctx.model.entity(pattern.soft_delete.archive_entity)
        archive = tuple(a.name for a in archived.attributes) if archived else ()
    return Binding(tuple(owners), inputs, now, _versions(plan, owners), new_values), archive


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


def _with_inputs(owner: Item, inputs: dict[str, Any], member: WriteMember) -> Item:
    """A Put's new item carries the inputs it names (a payment's fromUserId, amount)."""
    if member.action is not TransactAction.PUT:
        return owner
    return {**owner, **{k: v for k, v in inputs.items() if k in owner}}


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
    clients x times x the amount (ADD is applied atomically on the item, dynamodb-facts §1.2 writes)."""
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
