"""Executing every access pattern on the preview table and checking what it did.

Reads are executed page by page and compared with the oracle (modeling.preview.oracle). The same
request without its filter and projection is sent once more to see what the request *read*: the
items (or index entries) the key condition matched, page by page, which is what DynamoDB charges
for (dynamodb-rules §1.2). Writes put, update or delete real items, are checked by reading them
back (and through each index they belong to), and are then undone, so the table always holds the
generated data the oracle knows.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.data.sample_data import Item, item_keys
from modeling.design.plans import TABLE, Design, IndexChange, Operation, PatternPlan
from modeling.endpoint.retry import RetriesExhausted, send_until_done
from modeling.errors import ModelingError
from modeling.limits import MAX_BATCH_GET_ITEMS, MAX_BATCH_WRITE_ITEMS
from modeling.model import AccessPattern, KeyDesign, Model, PatternKind, ProjectionType, SecondaryIndex
from modeling.preview.dataset import PreviewData, StoredItem, from_dynamodb_json, primary_key_names, to_dynamodb_json
from modeling.preview.oracle import (
    Comparison,
    choose_inputs,
    compare,
    compare_first_page,
    expected_items,
    first_page_answers,
    returned_attributes,
    write_targets,
)
from modeling.preview.requests import (
    PatternRequest,
    ReadShape,
    RequestBuildError,
    build_read_request,
    is_read,
    read_shape,
    typed_params,
)
from modeling.preview.through_reads import first_request, owner_inputs
from modeling.preview.write_runner import (
    ADDS_PER_CLIENT,
    CaseResult,
    WriteContext,
    concurrent_adds,
    counter_pattern,
    run_semantic_write,
)

MAX_PAGES = 100
MAX_SHOWN_ITEMS = 50
MAX_WRITE_ITEMS = MAX_BATCH_WRITE_ITEMS  # items one preview write request writes: a BatchWriteItem's most


@dataclass(frozen=True)
class IndexEntryChange:
    """What a write did to one index entry (dynamodb-rules §4.1), with the entry before and after."""

    index: str
    change: IndexChange
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class WrittenItem:
    """One item a write changed: before and after (DynamoDB JSON), and each index entry before/after."""

    before: dict[str, Any] | None
    after: dict[str, Any] | None
    index_entries: tuple[IndexEntryChange, ...] = ()


@dataclass(frozen=True)
class PatternRun:
    pattern: str
    operation: Operation
    index: str
    consistent_read: bool
    request: PatternRequest | None
    passed: bool
    verdict: str
    returned: tuple[Item, ...] = ()
    returned_count: int = 0
    scanned_count: int = 0
    pages: int = 0
    latency_ms: float = 0.0
    read_pages: tuple[tuple[dict[str, Any], ...], ...] = ()  # what each page read, DynamoDB JSON
    writes: tuple[WrittenItem, ...] = ()
    comparison: Comparison | None = None
    reported_capacity: tuple[dict[str, Any], ...] = ()
    error: str = ""
    # a read through a uniqueness item: the GetItem on it, sent before `request` (the owner's GetItem)
    first_request: PatternRequest | None = None
    cases: tuple[CaseResult, ...] = ()  # a conditional write's success and failure cases (issue 16)
    fetched: tuple[dict[str, Any], ...] = ()  # base items the plan's fetch read after the index query, DynamoDB JSON
    fetch_key_names: tuple[str, ...] = ()  # the table keys that fetch read them by (none: no fetch planned)


@dataclass(frozen=True)
class RunContext:
    model: Model
    design: Design
    data: PreviewData
    table_name: str
    seed: int = 42
    inputs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # per pattern, user-given values
    # Checks the table is still the product's own, loaded one; raises (and nothing is written) when not.
    before_write: Callable[[], None] | None = None
    now: datetime | None = None  # the time soft deletes stamp (None: the clock), fixed by tests
    concurrent_clients: int = 0  # > 0: an atomic counter is also sent by this many clients at once (20 in a single run)
    adds_per_client: int = ADDS_PER_CLIENT


def run_pattern(client: Any, context: RunContext, pattern_name: str) -> PatternRun:
    """Execute one pattern and check it; endpoint failures become a failed run with the reason."""
    plan = context.design.plan(pattern_name)
    pattern = context.model.access_pattern(pattern_name)
    if plan is None or pattern is None:
        raise ModelingError(f"the design has no plan for the access pattern {pattern_name!r}")
    try:
        if is_read(pattern):
            return _run_read(client, context, plan)
        if context.before_write is not None:
            context.before_write()
        return _run_write(client, context, plan)
    except RequestBuildError as exc:
        return _failed(plan, f"the request could not be built: {exc}")
    except RetriesExhausted as exc:
        return _failed(plan, str(exc))
    except ClientError as exc:
        error = exc.response.get("Error", {})
        return _failed(plan, f"the endpoint refused the request: {error.get('Code', 'error')}: "
                             f"{error.get('Message', '')}")
    except BotoCoreError as exc:
        return _failed(plan, f"the endpoint did not answer ({str(exc)[:160]}); check it and run again")


def _failed(plan: PatternPlan, reason: str, request: PatternRequest | None = None) -> PatternRun:
    return PatternRun(plan.pattern, plan.operation, plan.index, plan.consistent_read, request, False, reason,
                      error=reason)


# --- reads -----------------------------------------------------------------------------------------


def read_inputs(context: RunContext, shape: ReadShape) -> list[dict[str, Any]]:
    given = context.inputs.get(shape.pattern.name)
    return given if given else choose_inputs(context.model, shape, context.data, context.seed)


def _run_read(client: Any, context: RunContext, plan: PatternPlan) -> PatternRun:
    shape = read_shape(context.model, context.design.key_design, plan)
    inputs = read_inputs(context, shape)
    if plan.through is not None:
        return _run_read_through(client, context, shape, inputs)
    request = build_read_request(shape, context.table_name, inputs)
    attributes = returned_attributes(context.model, shape)
    first_page = first_page_answers(shape, attributes)
    started = time.perf_counter()
    pages = _execute_read(client, request, max_pages=1 if first_page else MAX_PAGES)
    returned = [from_dynamodb_json(item) for page in pages for item in _page_items(request, page)]
    fetched: list[dict[str, Any]] = []
    fetch_pages: list[dict[str, Any]] = []
    if shape.fetch_keys:  # the index lacks what the pattern uses: read the base items by their table keys
        fetched, fetch_pages = _fetch(client, context.table_name, shape.fetch_keys, returned)
        returned = [from_dynamodb_json(item) for item in fetched]
    latency_ms = (time.perf_counter() - started) * 1000
    if "FilterExpression" in request.params or "ProjectionExpression" in request.params:
        read_pages = _items_read(client, request, len(pages))
    else:  # the request read exactly what it returned
        read_pages = tuple(tuple(_page_items(request, page)) or ({},) if request.operation is Operation.GET_ITEM
                           else tuple(_page_items(request, page)) for page in pages)
    expected = expected_items(context.model, shape, context.data, inputs)
    comparison = (compare_first_page(expected, returned, attributes, shape) if first_page
                  else compare(expected, returned, attributes, shape))
    scanned = sum(page.get("ScannedCount", len(_page_items(request, page))) for page in pages)
    return PatternRun(
        plan.pattern, plan.operation, plan.index, plan.consistent_read, request, comparison.passed,
        _read_verdict(comparison, _why_not(shape, attributes, returned)), tuple(returned[:MAX_SHOWN_ITEMS]),
        len(returned), scanned, len(pages),
        round(latency_ms, 1), read_pages, (), comparison,
        tuple(c for page in (*pages, *fetch_pages) for c in _capacity_entries(page)), fetched=tuple(fetched),
        fetch_key_names=shape.fetch_keys)


def _fetch(client: Any, table: str, key_names: tuple[str, ...],
           entries: list[Item]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The base items of the index entries, in the entries' order, by BatchGetItem (at most 100 keys a request,
    unprocessed keys sent again), eventually consistent: the fetch `PatternPlan.fetch` plans and prices
    (dynamodb-rules §1.2, §4.1). Returns the items (DynamoDB JSON) and the response pages."""
    keys = list(dict.fromkeys(json.dumps(to_dynamodb_json({n: e[n] for n in key_names}), sort_keys=True)
                              for e in entries if all(n in e for n in key_names)))
    pages: list[dict[str, Any]] = []
    found: dict[str, dict[str, Any]] = {}
    for start in range(0, len(keys), MAX_BATCH_GET_ITEMS):
        chunk = [json.loads(k) for k in keys[start:start + MAX_BATCH_GET_ITEMS]]
        pages += _batch_get(client, {"RequestItems": {table: {"Keys": chunk}}})
    for page in pages:
        for item in page.get("Responses", {}).get(table, []):
            found[json.dumps({n: item[n] for n in key_names}, sort_keys=True)] = item
    return [found[k] for k in keys if k in found], pages


def _run_read_through(client: Any, context: RunContext, shape: ReadShape,
                      inputs: list[dict[str, Any]]) -> PatternRun:
    """A read through a uniqueness item: a GetItem on it, then a GetItem on the owner its key attributes name;
    both read what they return (no filter), each its own page of what was read (one GetItem each, §1.2)."""
    plan, through = shape.plan, shape.plan.through
    assert through is not None  # dispatched here only for such a plan
    first = first_request(shape, context.table_name, inputs[0], context.design.key_design)
    started = time.perf_counter()
    pages = _execute_read(client, first)
    found = [from_dynamodb_json(item) for item in _page_items(first, pages[0])]
    owner = owner_inputs(through, found[0] if found else None)
    request = first
    if owner is not None:
        # the pattern's own inputs (the email) are behind both requests: the page fills its form with them
        request = replace(build_read_request(shape, context.table_name, [owner]), inputs=first.inputs)
        pages += _execute_read(client, request)
    latency_ms = (time.perf_counter() - started) * 1000
    returned = [from_dynamodb_json(item) for item in _page_items(request, pages[-1])] if owner is not None else []
    read_pages = tuple(tuple(_page_items(first if i == 0 else request, page)) or ({},) for i, page in enumerate(pages))
    attributes = returned_attributes(context.model, shape)
    comparison = compare(expected_items(context.model, shape, context.data, inputs), returned, attributes, shape)
    return PatternRun(
        plan.pattern, plan.operation, plan.index, plan.consistent_read, request, comparison.passed,
        _read_verdict(comparison, _why_not(shape, attributes, returned)), tuple(returned[:MAX_SHOWN_ITEMS]),
        len(returned), len(pages), len(pages), round(latency_ms, 1), read_pages, (), comparison,
        tuple(c for page in pages for c in _capacity_entries(page)), first_request=first)


def _why_not(shape: ReadShape, attributes: tuple[str, ...], returned: list[dict[str, Any]]) -> str:
    """The design reason a read cannot return what it asks for, in words (as DDS205 says it), or ""."""
    path = shape.path
    if path.projection is ProjectionType.ALL or not returned:
        return ""
    absent = [a for a in attributes if all(a not in item for item in returned)]
    if not absent:
        return ""
    wanted = "whole items" if not shape.pattern.returns else ", ".join(shape.pattern.returns)
    return (f"{path.name} projects {path.projection.value}; the pattern returns {wanted}, "
            f"so {', '.join(absent[:5])}{' and more' if len(absent) > 5 else ''} never come back")


def _read_verdict(comparison: Comparison, why: str = "") -> str:
    if comparison.passed:
        return f"returned the {comparison.expected_count} item(s) the data says it should"
    parts = []
    if comparison.missing_count:
        parts.append(f"{comparison.missing_count} expected item(s) missing")
    if comparison.unexpected_count:
        parts.append(f"{comparison.unexpected_count} item(s) returned that the pattern does not ask for")
    if comparison.order_problem:
        parts.append(comparison.order_problem)
    verdict = f"expected {comparison.expected_count} item(s), got {comparison.returned_count}: " + "; ".join(parts)
    return f"{verdict}. Why: {why}" if why else verdict


def _execute_read(client: Any, request: PatternRequest, max_pages: int = MAX_PAGES) -> list[dict[str, Any]]:
    params = typed_params(request)
    params["ReturnConsumedCapacity"] = "INDEXES"
    operation = request.operation
    if operation is Operation.GET_ITEM:
        return [client.get_item(**params)]
    if operation is Operation.BATCH_GET_ITEM:
        return _batch_get(client, params)
    if operation is Operation.TRANSACT_GET_ITEMS:
        return [client.transact_get_items(**params)]
    call = client.query if operation is Operation.QUERY else client.scan
    pages: list[dict[str, Any]] = []
    while len(pages) < max_pages:
        page = call(**params)
        pages.append(page)
        if "LastEvaluatedKey" not in page:
            break
        params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return pages


def _batch_get(client: Any, params: dict[str, Any]) -> list[dict[str, Any]]:
    pages: list[dict[str, Any]] = []

    def send(request_items: dict[str, Any]) -> dict[str, Any]:
        page = client.batch_get_item(RequestItems=request_items, ReturnConsumedCapacity="INDEXES")
        pages.append(page)
        return page.get("UnprocessedKeys") or {}

    send_until_done(send, params["RequestItems"], what="BatchGetItem")
    return pages


def _page_items(request: PatternRequest, page: dict[str, Any]) -> list[dict[str, Any]]:
    if request.operation is Operation.GET_ITEM:
        return [page["Item"]] if "Item" in page else []
    if request.operation is Operation.BATCH_GET_ITEM:
        return [item for items in page.get("Responses", {}).values() for item in items]
    if request.operation is Operation.TRANSACT_GET_ITEMS:
        return [r["Item"] for r in page.get("Responses", []) if r.get("Item")]
    items: list[dict[str, Any]] = page.get("Items", [])  # a Query or Scan page (boto3's answers are untyped)
    return items


def _items_read(client: Any, request: PatternRequest, max_pages: int) -> tuple[tuple[dict[str, Any], ...], ...]:
    """What the request read, per page: the same request without its filter and projection."""
    bare = PatternRequest(request.pattern, request.operation, _without_filter_and_projection(request),
                          request.inputs)
    pages = _execute_read(client, bare, max_pages)
    if request.operation is Operation.GET_ITEM:
        return (tuple(_page_items(bare, pages[0])) or ({},),)
    if request.operation in (Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS):
        found = [item for page in pages for item in _page_items(bare, page)]
        missing = len(request.inputs) - len(found)
        return (tuple(found) + ({},) * max(missing, 0),)  # a missing item still costs a read (§1.2)
    return tuple(tuple(page.get("Items", [])) for page in pages)


def _without_filter_and_projection(request: PatternRequest) -> dict[str, Any]:
    """The parameters minus FilterExpression and ProjectionExpression, with unused names dropped."""
    def strip(params: dict[str, Any]) -> dict[str, Any]:
        kept = {k: v for k, v in params.items() if k not in ("FilterExpression", "ProjectionExpression")}
        expressions = " ".join(str(v) for k, v in kept.items() if k.endswith("Expression"))
        names = {k: v for k, v in kept.get("ExpressionAttributeNames", {}).items() if k in expressions}
        values = {k: v for k, v in kept.get("ExpressionAttributeValues", {}).items() if k in expressions}
        kept.pop("ExpressionAttributeNames", None)
        kept.pop("ExpressionAttributeValues", None)
        return {**kept, **({"ExpressionAttributeNames": names} if names else {}),
                **({"ExpressionAttributeValues": values} if values else {})}

    params = request.params
    if request.operation is Operation.BATCH_GET_ITEM:
        return {"RequestItems": {t: strip(spec) for t, spec in params["RequestItems"].items()}}
    if request.operation is Operation.TRANSACT_GET_ITEMS:
        return {"TransactItems": [{"Get": strip(e["Get"])} for e in params["TransactItems"]]}
    return strip(params)


def _capacity_entries(page: dict[str, Any]) -> list[dict[str, Any]]:
    consumed = page.get("ConsumedCapacity")
    if consumed is None:
        return []
    return consumed if isinstance(consumed, list) else [consumed]


# --- writes ----------------------------------------------------------------------------------------


def _pattern(context: RunContext, plan: PatternPlan) -> AccessPattern:
    """The access pattern of a plan of the context's design (the design's plans come from its model)."""
    pattern = context.model.access_pattern(plan.pattern)
    if pattern is None:
        raise ModelingError(f"the design has no plan for the access pattern {plan.pattern!r}")
    return pattern


def _run_write(client: Any, context: RunContext, plan: PatternPlan) -> PatternRun:
    if plan.unaddressed:  # the preview could take the key from a stored item; the application cannot (DDS312)
        gaps = "; ".join(f"{u.entity}'s key ({u.partition_key} / {u.sort_key or '(no sort key)'}) needs "
                         f"{', '.join(u.missing)}" for u in plan.unaddressed)
        return _failed(plan, f"not sent: {gaps}, which the pattern's inputs do not give, so the application "
                             "cannot name the item it writes (DDS312). Add them to the inputs, or key the entity "
                             "by what the inputs give.")
    if plan.write is not None and plan.operation is not Operation.BATCH_WRITE_ITEM:
        return _run_semantic(client, context, plan)
    pattern = _pattern(context, plan)
    key_design = context.design.key_design
    table = context.table_name
    pk_names = primary_key_names(key_design)
    rng = random.Random(f"{context.seed}/{plan.pattern}")  # noqa: S311 - sample choice, not security
    entity = pattern.entities[0]
    if pattern.kind in (PatternKind.WRITE, PatternKind.BATCH_WRITE, PatternKind.TRANSACT_WRITE):
        count = 1 if pattern.kind is PatternKind.WRITE else max(1, min(round(pattern.expected_items), MAX_WRITE_ITEMS))
        entities = [pattern.entities[i % len(pattern.entities)] for i in range(count)]
        new_items = fresh_items(context, entities)
        request = _put_request(plan, table, key_design, new_items)
        writes = tuple(_written(key_design, None, item) for item in new_items)
        started = time.perf_counter()
        _send_write(client, request, pk_names)
        latency_ms = (time.perf_counter() - started) * 1000
        # every item is read back; the index lookups (slow on moto) are made for one item per entity
        first_of_entity = {entity: i for i, entity in reversed(list(enumerate(entities)))}
        problems = [p for i, item in enumerate(new_items)
                    for p in _check_present(client, table, key_design, item, i in first_of_entity.values())]
        _delete_items(client, table, pk_names, new_items)
        return _write_run(plan, request, writes, latency_ms, problems, f"wrote {count} new item(s)")
    existing = write_targets(context.model, context.data, pattern)
    if not existing:
        return _failed(plan, f"the preview holds no {entity} items to {pattern.kind.value}")
    target = rng.choice(existing)
    original = target.full_item
    if pattern.kind is PatternKind.DELETE:
        request = delete_request(context, plan, target)
        started = time.perf_counter()
        _send_write(client, request, pk_names)
        latency_ms = (time.perf_counter() - started) * 1000
        problems = _check_absent(client, table, key_design, original)
        client.put_item(TableName=table, Item=to_dynamodb_json(original))  # undo: the oracle's data again
        return _write_run(plan, request, (_written(key_design, original, None),), latency_ms, problems,
                          "deleted an item")
    return _run_update(client, context, plan, target)


def _run_semantic(client: Any, context: RunContext, plan: PatternPlan) -> PatternRun:
    """A write with conditions, updates or auxiliary items: its success and failure cases (write_runner)."""
    assert plan.write is not None
    ctx = WriteContext(client, context.model, context.design.key_design, context.data, context.table_name,
                       context.seed, context.now)
    run = run_semantic_write(ctx, plan.pattern, plan.write)
    cases = run.cases
    if counter_pattern(context.model, plan) and context.concurrent_clients:
        cases = (*cases, concurrent_adds(ctx, plan.pattern, plan.write, context.concurrent_clients,
                                         context.adds_per_client))
    passed = bool(cases) and all(c.passed for c in cases)
    verdict = "; ".join(f"{c.case}: {c.detail}" for c in cases)
    key_design = context.design.key_design
    writes = tuple(_written(key_design, before, after) for before, after in (cases[0].written if cases else ()))
    return PatternRun(plan.pattern, run.request.operation if run.request else plan.operation, TABLE, False,
                      run.request, passed, verdict, latency_ms=run.latency_ms, writes=writes, cases=tuple(cases))


def _run_update(client: Any, context: RunContext, plan: PatternPlan, target: StoredItem) -> PatternRun:
    built = update_request(context, plan, target)
    if isinstance(built, str):
        return _failed(plan, built)
    request, after = built
    key_design = context.design.key_design
    started = time.perf_counter()
    _send_write(client, request, primary_key_names(key_design))
    latency_ms = (time.perf_counter() - started) * 1000
    problems = _check_present(client, context.table_name, key_design, after)
    client.put_item(TableName=context.table_name, Item=to_dynamodb_json(target.full_item))  # undo
    changed = _pattern(context, plan).changed_attributes
    return _write_run(plan, request, (_written(key_design, target.full_item, after),), latency_ms, problems,
                      f"updated {', '.join(changed)}")


def update_request(context: RunContext, plan: PatternPlan, target: StoredItem) -> tuple[PatternRequest, Item] | str:
    """The UpdateItem an update pattern sends to `target` and the item it leaves, or why none can be sent."""
    pattern = _pattern(context, plan)
    key_design = context.design.key_design
    pk_names = primary_key_names(key_design)
    changed = list(pattern.changed_attributes)
    replacement = fresh_items(context, [target.entity])[0]
    entity = context.model.entity(target.entity)
    unset = [a for a in changed if a not in replacement and entity is not None and entity.attribute(a) is not None]
    if unset:  # an optional attribute the sample items leave out: no new value to set, so say so
        return (f"no new {target.entity} item has {', '.join(unset)} (an optional attribute, or a reference that "
                f"found no values), so the preview has no new value to set; generate it on every item")
    new_attributes = {**target.attributes, **{a: _different(target.attributes.get(a), replacement[a])
                                              for a in changed if a in replacement}}
    new_keys = item_keys(key_design, target.entity, new_attributes)
    if any(new_keys.get(n) != target.keys.get(n) for n in pk_names):
        return (f"{', '.join(changed)} is part of the table's primary key, which UpdateItem cannot "
                "change: the application must delete the item and put it again (or the key design "
                "should not use an attribute that changes)")
    after = {**new_attributes, **{k: v for k, v in target.keys.items() if k in pk_names}, **new_keys}
    sets = {a: after[a] for a in (*changed, *new_keys) if a not in pk_names and a in after
            and after[a] != target.full_item.get(a)}
    removes = [k for k in target.keys if k not in after]
    names = {"#pk": pk_names[0]}
    values: dict[str, Any] = {}
    set_parts = []
    for i, (attribute, value) in enumerate(sets.items()):
        names[f"#u{i}"] = attribute
        values[f":u{i}"] = value
        set_parts.append(f"#u{i} = :u{i}")
    remove_parts = []
    for i, attribute in enumerate(removes):
        names[f"#r{i}"] = attribute
        remove_parts.append(f"#r{i}")
    expression = " ".join(part for part in (("SET " + ", ".join(set_parts)) if set_parts else "",
                                            ("REMOVE " + ", ".join(remove_parts)) if remove_parts else "") if part)
    if not expression:
        return "the update changes nothing: give the pattern changed_attributes"
    params = {"TableName": context.table_name, "Key": {n: target.keys[n] for n in pk_names},
              "UpdateExpression": expression, "ConditionExpression": "attribute_exists(#pk)",
              "ExpressionAttributeNames": names}
    if values:
        params["ExpressionAttributeValues"] = values
    return PatternRequest(plan.pattern, Operation.UPDATE_ITEM, params,
                          ({n: target.attributes.get(n) for n in pattern.inputs},)), after


def _different(old: Any, new: Any) -> Any:
    """A new value that really differs from the old one (an update that changes nothing proves nothing)."""
    if old != new:
        return new
    if isinstance(new, bool):
        return not new
    if isinstance(new, Decimal):
        return new + 1
    return f"{new}-updated"


def _write_run(plan: PatternPlan, request: PatternRequest, writes: tuple[WrittenItem, ...], latency_ms: float,
               problems: list[str], action: str) -> PatternRun:
    verdict = f"{action}; read back as written" + ("" if not writes[0].index_entries else " and found through "
                                                   "each index the item belongs to")
    if problems:
        verdict = f"{action}, but " + "; ".join(problems[:3])
    return PatternRun(plan.pattern, request.operation, TABLE, False, request, not problems, verdict,
                      latency_ms=round(latency_ms, 1), writes=writes)


def delete_request(context: RunContext, plan: PatternPlan, target: StoredItem) -> PatternRequest:
    """The DeleteItem a delete pattern sends to `target` (it must exist)."""
    pattern = _pattern(context, plan)
    pk_names = primary_key_names(context.design.key_design)
    original = target.full_item
    return PatternRequest(plan.pattern, Operation.DELETE_ITEM, {
        "TableName": context.table_name, "Key": {n: original[n] for n in pk_names},
        "ConditionExpression": "attribute_exists(#pk)",
        "ExpressionAttributeNames": {"#pk": pk_names[0]}}, ({n: original.get(n) for n in pattern.inputs},))


def put_request(context: RunContext, plan: PatternPlan, items: list[Item]) -> PatternRequest:
    """The PutItem, BatchWriteItem or TransactWriteItems that writes these new items."""
    return _put_request(plan, context.table_name, context.design.key_design, items)


def fresh_items(context: RunContext, entities: list[str]) -> list[Item]:
    """New items of these entities, not in the table: the data's spares (the generator's next items)."""
    taken: dict[str, int] = {}
    result = []
    for entity in entities:
        spares = context.data.spares_of(entity)
        position = taken.get(entity, 0)
        if position >= len(spares):
            raise RequestBuildError(f"the preview has no more new {entity} items to write "
                                    f"(at most {len(spares)} per request)")
        taken[entity] = position + 1
        result.append(spares[position].full_item)
    return result


def _put_request(plan: PatternPlan, table: str, key_design: KeyDesign, items: list[Item]) -> PatternRequest:
    pk = key_design.partition_key.name
    condition = {"ConditionExpression": "attribute_not_exists(#pk)", "ExpressionAttributeNames": {"#pk": pk}}
    if plan.operation is Operation.PUT_ITEM:
        return PatternRequest(plan.pattern, plan.operation, {"TableName": table, "Item": items[0], **condition},
                              ({},))
    if plan.operation is Operation.BATCH_WRITE_ITEM:
        return PatternRequest(plan.pattern, plan.operation,
                              {"RequestItems": {table: [{"PutRequest": {"Item": i}} for i in items]}}, ({},))
    return PatternRequest(plan.pattern, Operation.TRANSACT_WRITE_ITEMS, {"TransactItems": [
        {"Put": {"TableName": table, "Item": item, **condition}} for item in items]}, ({},))


def _send_write(client: Any, request: PatternRequest, key_names: tuple[str, ...]) -> None:
    params = typed_params(request)
    method = {Operation.PUT_ITEM: client.put_item, Operation.UPDATE_ITEM: client.update_item,
              Operation.DELETE_ITEM: client.delete_item, Operation.TRANSACT_WRITE_ITEMS: client.transact_write_items,
              Operation.BATCH_WRITE_ITEM: client.batch_write_item}[request.operation]
    if request.operation is Operation.BATCH_WRITE_ITEM:
        send_until_done(lambda items: client.batch_write_item(RequestItems=items).get("UnprocessedItems"),
                        params["RequestItems"], what="BatchWriteItem")
        return
    try:
        method(**params)
    except ClientError as exc:
        if not (_answer_was_lost(exc) and _already_applied(client, request.operation, params, key_names)):
            raise


# A conditional write whose first answer was lost (a reset or timed-out connection) and that botocore then
# sent again fails its own condition: the first attempt already did the work. Only then is the table read
# to see whether the write's effect is there; a condition that fails on the first attempt is a real failure.
_CONDITION_FAILURES = ("ConditionalCheckFailedException", "TransactionCanceledException")


def _answer_was_lost(exc: ClientError) -> bool:
    retried = int(exc.response.get("ResponseMetadata", {}).get("RetryAttempts", 0) or 0)
    return retried > 0 and exc.response.get("Error", {}).get("Code") in _CONDITION_FAILURES


def _already_applied(client: Any, operation: Operation, params: dict[str, Any], key_names: tuple[str, ...]) -> bool:
    if operation is Operation.PUT_ITEM:
        puts = [(params["TableName"], params["Item"])]
    elif operation is Operation.TRANSACT_WRITE_ITEMS:
        puts = [(e["Put"]["TableName"], e["Put"]["Item"]) for e in params["TransactItems"] if "Put" in e]
    elif operation is Operation.DELETE_ITEM:
        return "Item" not in client.get_item(TableName=params["TableName"], Key=params["Key"], ConsistentRead=True)
    else:
        return False
    for table, item in puts:
        stored = client.get_item(TableName=table, Key={n: item[n] for n in key_names}, ConsistentRead=True)
        if from_dynamodb_json(stored.get("Item", {})) != from_dynamodb_json(item):
            return False
    return bool(puts)


def _check_present(client: Any, table: str, key_design: KeyDesign, item: Item,
                   through_indexes: bool = True) -> list[str]:
    names = primary_key_names(key_design)
    key = {n: item[n] for n in names}
    stored = client.get_item(TableName=table, Key=to_dynamodb_json(key), ConsistentRead=True).get("Item")
    if stored is None:
        return ["the item is not there when read back"]
    if from_dynamodb_json(stored) != item:
        return ["the item read back differs from what was written"]
    problems = []
    for index, is_global in _indexes(key_design) if through_indexes else ():
        if not _found_in_index(client, table, key_design, index, is_global, item):
            problems.append(f"the item is not found through {index.name}")
    return problems


def _check_absent(client: Any, table: str, key_design: KeyDesign, item: Item) -> list[str]:
    key = {n: item[n] for n in primary_key_names(key_design)}
    if client.get_item(TableName=table, Key=to_dynamodb_json(key), ConsistentRead=True).get("Item") is not None:
        return ["the item is still there"]
    return []


def _indexes(key_design: KeyDesign) -> list[tuple[SecondaryIndex, bool]]:
    return [*((i, True) for i in key_design.global_secondary_indexes),
            *((i, False) for i in key_design.local_secondary_indexes)]


def _found_in_index(client: Any, table: str, key_design: KeyDesign, index: SecondaryIndex, is_global: bool,
                    item: Item) -> bool:
    partition = index.partition_key.name if is_global else key_design.partition_key.name
    if partition not in item or (index.sort_key is not None and index.sort_key.name not in item):
        return True  # not in the index (sparse): nothing to find
    names, values = {"#p": partition}, {":p": item[partition]}
    condition = "#p = :p"
    if index.sort_key is not None:
        names["#s"], values[":s"] = index.sort_key.name, item[index.sort_key.name]
        condition += " AND #s = :s"
    wanted = {n: item[n] for n in primary_key_names(key_design)}
    for attempt in range(5):  # GSIs are eventually consistent (dynamodb-rules §4.1): retry briefly
        response = client.query(TableName=table, IndexName=index.name, KeyConditionExpression=condition,
                                ExpressionAttributeNames=names, ExpressionAttributeValues=to_dynamodb_json(values))
        if any(all(from_dynamodb_json(found).get(n) == v for n, v in wanted.items()) for found in response["Items"]):
            return True
        time.sleep(0.2 * attempt)
    return False


def _delete_items(client: Any, table: str, names: tuple[str, ...], items: list[Item]) -> None:
    """Undo the puts: one BatchWriteItem of deletes per 25 items, leftovers re-sent (modeling.endpoint.retry)."""
    for start in range(0, len(items), MAX_BATCH_WRITE_ITEMS):
        deletes = [{"DeleteRequest": {"Key": to_dynamodb_json({n: item[n] for n in names})}}
                   for item in items[start:start + MAX_BATCH_WRITE_ITEMS]]
        send_until_done(lambda requests: client.batch_write_item(RequestItems=requests).get("UnprocessedItems"),
                        {table: deletes}, what="undoing the written items")


def _written(key_design: KeyDesign, before: Item | None, after: Item | None) -> WrittenItem:
    entries = []
    for index, is_global in _indexes(key_design):
        old, new = (index_entry(key_design, index, is_global, i) if i else None for i in (before, after))
        if old == new:  # not in the index before or after, or an entry the write does not change
            continue
        keys = [index.partition_key.name if is_global else key_design.partition_key.name,
                *([index.sort_key.name] if index.sort_key else [])]
        change = (IndexChange.ENTERS if old is None else IndexChange.LEAVES if new is None
                  else IndexChange.KEY_CHANGES if any(old[k] != new[k] for k in keys) else IndexChange.PROJECTED_ONLY)
        entries.append(IndexEntryChange(index.name, change, old and to_dynamodb_json(old),
                                        new and to_dynamodb_json(new)))
    return WrittenItem(before and to_dynamodb_json(before), after and to_dynamodb_json(after), tuple(entries))


def index_entry(key_design: KeyDesign, index: SecondaryIndex, is_global: bool, item: Item) -> Item | None:
    """The item's entry in an index (None when the item lacks the index keys: a sparse index)."""
    partition = index.partition_key.name if is_global else key_design.partition_key.name
    keys = [partition, *([index.sort_key.name] if index.sort_key else [])]
    if not all(k in item for k in keys):
        return None
    if index.projection.type is ProjectionType.ALL:
        return dict(item)
    wanted = {*keys, *primary_key_names(key_design)}
    if index.projection.type is ProjectionType.INCLUDE:
        wanted |= set(index.projection.non_key_attributes)
    return {k: v for k, v in item.items() if k in wanted}

