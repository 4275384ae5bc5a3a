"""A load test from the access patterns: a Locust file (Python) and a k6 script (JavaScript, ES module).

Each pattern's task weight is its share of the model's traffic (average requests per second; the peak
when no pattern gives an average), and its requests are the Preview page's requests
(`modeling.preview.requests`, `modeling.preview.runner`) built from seeded sample data
(`modeling.preview.dataset`), so the reads ask for keys the preview's data holds. Both files embed the
requests as DynamoDB JSON (the wire format) and send one call per request (one page of a Query or Scan), two for a
read of two steps: the GetItem on a uniqueness item before a read through it, and the BatchGetItem after an index
query whose items are fetched whole (the keys of a page of the items it finds, at most 100).

Writes go without the preview's one-shot conditions (`attribute_not_exists` on a new item,
`attribute_exists` on an update or delete): repeated during a load test, those would measure
ConditionalCheckFailed answers, not load. A load test writes to the table: point it at a test table.

>>> from modeling.examples import load_example
>>> model = load_example("chat_messages")
>>> shares = traffic_mix(model)
>>> round(sum(shares.values()), 9)
1.0
"""

from __future__ import annotations

import base64
import json
import random
import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from modeling.design.plans import Design, Operation
from modeling.errors import ModelingError
from modeling.limits import MAX_BATCH_GET_ITEMS
from modeling.model import Model, PatternKind
from modeling.preview.dataset import PreviewData, to_dynamodb_json
from modeling.preview.oracle import input_candidates, inputs_from, matching_items, write_targets
from modeling.preview.requests import (
    ReadShape,
    RequestBuildError,
    build_read_request,
    is_read,
    read_shape,
    typed_params,
)
from modeling.preview.runner import (
    MAX_WRITE_ITEMS,
    RunContext,
    delete_request,
    put_request,
    update_request,
)
from modeling.preview.through_reads import first_request, owner_inputs
from modeling.preview.write_runner import WriteContext, semantic_write_request

REQUESTS_PER_PATTERN = 20  # distinct requests per pattern: different keys, so no single item is hot
WEIGHT_SCALE = 1000  # task weights are integers: shares in thousandths, at least 1
LOCUST_VERSION = "2.47"  # the version the generated file is written for and tested with (requirements.txt)
K6_AWS_JSLIB = "https://jslib.k6.io/aws/0.12.3/signature.js"  # SignatureV4 and Endpoint (Grafana's jslib)
_PLACEHOLDER = re.compile(r"[#:][A-Za-z0-9_]+")  # an ExpressionAttributeNames or ExpressionAttributeValues key


class LoadTestFormat(StrEnum):
    LOCUST = "locust"
    K6 = "k6"


FILE_NAMES = {LoadTestFormat.LOCUST: "locustfile.py", LoadTestFormat.K6: "loadtest.mjs"}


class LoadTestError(ModelingError):
    """No load test can be written (no patterns with traffic, or no request for a pattern)."""


@dataclass(frozen=True)
class PatternLoad:
    pattern: str
    operation: Operation
    share: float  # of the model's requests
    weight: int  # the Locust task weight / k6 pick weight
    requests: tuple[dict[str, Any], ...]  # DynamoDB JSON parameters, the table's name as in the model
    # a read of two steps, one entry per request (None: no such step for it): the GetItem on the uniqueness item
    # sent before a read through it, and the BatchGetItem that fetches an index query's items whole after it
    before: tuple[dict[str, Any] | None, ...] = ()
    after: tuple[dict[str, Any] | None, ...] = ()


@dataclass(frozen=True)
class LoadTest:
    format: LoadTestFormat
    text: str
    file_name: str
    patterns: tuple[PatternLoad, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (pattern, why no request could be built): left out


def traffic_mix(model: Model) -> dict[str, float]:
    """Each pattern's share of the model's requests; patterns without traffic are left out."""
    rates = {p.name: p.traffic.average_requests_per_second for p in model.access_patterns}
    if not any(rates.values()):
        rates = {p.name: p.traffic.peak_requests_per_second for p in model.access_patterns}
    total = sum(rates.values())
    if total <= 0:
        raise LoadTestError("no access pattern has traffic: give the patterns requests per second first")
    return {name: rate / total for name, rate in rates.items() if rate > 0}


def pattern_loads(model: Model, design: Design, data: PreviewData, seed: int = 42,
                  requests_per_pattern: int = REQUESTS_PER_PATTERN
                  ) -> tuple[tuple[PatternLoad, ...], tuple[tuple[str, str], ...]]:
    """Every pattern with traffic (its share, weight and requests, in the model's order), and the patterns
    no request can be built for, with the reason (the load test leaves them out and says so)."""
    shares = traffic_mix(model)
    context = RunContext(model, design, data, model.table.name, seed)
    loads, skipped = [], []
    for pattern in model.access_patterns:
        if pattern.name not in shares:
            continue
        if design.plan(pattern.name) is None:
            skipped.append((pattern.name, "the design has no plan for it"))
            continue
        try:
            requests = _requests(context, pattern.name, requests_per_pattern, seed)
        except LoadTestError as exc:
            skipped.append((pattern.name, str(exc)))
            continue
        before = tuple(r.before for r in requests) if any(r.before for r in requests) else ()
        after = tuple(r.after for r in requests) if any(r.after for r in requests) else ()
        loads.append(PatternLoad(pattern.name, requests[0].operation, shares[pattern.name],
                                 max(1, round(shares[pattern.name] * WEIGHT_SCALE)),
                                 tuple(r.params for r in requests), before, after))
    if not loads:
        raise LoadTestError("no access pattern gives a request: " + "; ".join(f"{n}: {r}" for n, r in skipped))
    return tuple(loads), tuple(skipped)


@dataclass(frozen=True)
class _Built:
    operation: Operation
    params: dict[str, Any]
    before: dict[str, Any] | None = None  # PatternLoad.before
    after: dict[str, Any] | None = None  # PatternLoad.after


def _read_request(context: RunContext, shape: ReadShape, inputs: list[dict[str, Any]]) -> _Built:
    """The read the preview sends for these inputs, with the step before or after it that its plan has."""
    table, data = context.table_name, context.data
    through = shape.plan.through
    if through is not None:  # the owner's key comes from the uniqueness item: here from the data it was put for
        owners = [owner_inputs(through, item.attributes)
                  for item in matching_items(context.model, shape, data, inputs)]
        owner = next((o for o in owners if o is not None), None)
        if owner is None:
            raise LoadTestError(f"no request for {shape.pattern.name!r}: no sample item holds {inputs[0]}")
        request = build_read_request(shape, table, [owner])
        first = first_request(shape, table, inputs[0], context.design.key_design)
        return _Built(request.operation, typed_params(request), before=typed_params(first))
    request = build_read_request(shape, table, inputs)
    if not shape.fetch_keys:
        return _Built(request.operation, typed_params(request))
    # the items the query finds, at most a page (its Limit) and one BatchGetItem's 100 keys
    found = matching_items(context.model, shape, data, inputs)[:min(request.params.get("Limit", MAX_BATCH_GET_ITEMS),
                                                                    MAX_BATCH_GET_ITEMS)]
    keys = [to_dynamodb_json({n: item.keys[n] for n in shape.fetch_keys}) for item in found]
    fetch = {"RequestItems": {table: {"Keys": keys}}} if keys else None
    return _Built(request.operation, typed_params(request), after=fetch)


def _requests(context: RunContext, name: str, count: int, seed: int) -> list[_Built]:
    model, design = context.model, context.design
    pattern = model.access_pattern(name)
    plan = design.plan(name)
    assert pattern is not None and plan is not None  # checked by the caller
    rng = random.Random(f"{seed}/{name}/loadtest")  # noqa: S311 - sample choice, not security
    built = []
    try:
        if is_read(pattern):
            shape = read_shape(model, design.key_design, plan)
            candidates = input_candidates(model, shape, context.data)  # one scan of the items, not one a request
            for i in range(count):  # the inputs a preview run with seed + i chooses (`choose_inputs`)
                built.append(_read_request(context, shape, inputs_from(candidates, shape, context.data, seed + i)))
        elif plan.write is not None and plan.operation is not Operation.BATCH_WRITE_ITEM:
            # conditions, per-attribute updates, soft deletes, uniqueness and auxiliary items: the preview's own
            # request for the write (modeling.preview.write_runner), every member included
            ctx = WriteContext(None, model, design.key_design, context.data, context.table_name, seed)
            for i in range(count):
                request = semantic_write_request(ctx, name, plan.write, rng, i)
                built.append(_Built(request.operation, _repeatable(typed_params(request))))
        elif pattern.kind in (PatternKind.WRITE, PatternKind.BATCH_WRITE, PatternKind.TRANSACT_WRITE):
            per_request = 1 if pattern.kind is PatternKind.WRITE else max(
                1, min(round(pattern.expected_items), MAX_WRITE_ITEMS))
            entities = [pattern.entities[i % len(pattern.entities)] for i in range(per_request)]
            for i in range(count):
                items = [_spare(context, entity, i * per_request + j) for j, entity in enumerate(entities)]
                request = put_request(context, plan, items)
                built.append(_Built(request.operation, _repeatable(typed_params(request))))
        else:
            existing = write_targets(model, context.data, pattern)
            if not existing:
                raise LoadTestError(f"the sample data holds no {pattern.entities[0]} items for {name!r} to change")
            for _ in range(count):
                target = rng.choice(existing)
                if pattern.kind is PatternKind.DELETE:
                    request = delete_request(context, plan, target)
                else:
                    update = update_request(context, plan, target)
                    if isinstance(update, str):
                        raise LoadTestError(f"no request for {name!r}: {update}")
                    request = update[0]
                built.append(_Built(request.operation, _repeatable(typed_params(request))))
    except RequestBuildError as exc:
        raise LoadTestError(f"no request for {name!r}: {exc}") from None
    return [replace(b, params=_json_safe(b.params), before=_json_safe(b.before), after=_json_safe(b.after))
            for b in built]


def _spare(context: RunContext, entity: str, position: int) -> dict[str, Any]:
    spares = context.data.spares_of(entity)
    if not spares:
        raise LoadTestError(f"the sample data has no new {entity} items to write")
    return spares[position % len(spares)].full_item  # past the spares, a request overwrites an earlier item


def _repeatable(params: dict[str, Any]) -> dict[str, Any]:
    """The write without the preview's one-shot condition (see the module docstring)."""
    if "TransactItems" in params:
        return {**params, "TransactItems": [{kind: _repeatable(body) for kind, body in entry.items()}
                                            for entry in params["TransactItems"]]}
    result = {k: v for k, v in params.items() if k != "ConditionExpression"}
    # DynamoDB refuses placeholders no expression uses: keep only those the remaining expressions name
    used = set(_PLACEHOLDER.findall(" ".join(str(v) for k, v in result.items() if k.endswith("Expression"))))
    for field in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
        kept = {k: v for k, v in result.get(field, {}).items() if k in used}
        if kept:
            result[field] = kept
        else:
            result.pop(field, None)
    return result


def _json_safe(value: Any) -> Any:
    """DynamoDB JSON with binary values base64-encoded, as the wire format carries them."""
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_json_safe(v) for v in value]
        return sorted(items) if isinstance(value, set | frozenset) else items
    return value


def embedded_json(loads: tuple[PatternLoad, ...]) -> str:
    """The patterns as one JSON document, the same bytes for the same model and seed."""
    return json.dumps([{"pattern": p.pattern, "operation": str(p.operation), "share": round(p.share, 6),
                        "weight": p.weight, "requests": list(p.requests),
                        **({"before": list(p.before)} if p.before else {}),
                        **({"after": list(p.after)} if p.after else {})} for p in loads],
                      sort_keys=True, ensure_ascii=True, separators=(",", ":"))
