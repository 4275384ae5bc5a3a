"""Loads and write patterns through real faults over HTTP: a fault-injecting proxy (tests/fault_proxy.py)
in front of the embedded moto server throttles, answers 500, leaves part of a batch unprocessed, resets
connections and answers too late. A load passes only when the table holds exactly the generated items,
by key: none missing, none unexpected; and the product calls a load complete exactly when it is."""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from modeling.endpoint.adapter import Endpoint, EndpointKind, Timeouts, dynamodb_client
from modeling.preview.dataset import PreviewData, primary_key_names, to_dynamodb_json
from modeling.preview.loader import LoadInterrupted, LoadReport
from modeling.preview.session import PreviewSetup, cleanup_preview, load_preview
from studio.preview import PreviewRun, run_preview
from tests.fault_proxy import KINDS, FaultPlan, FaultProxy
from tests.preview.conftest import PROXY_TIMEOUTS

# Most of each test is waiting (late answers outlast the read timeout, botocore backs off): .ci/run runs the
# module in a job of its own beside the CPU-bound tests (`waits`), so a core is not left idle meanwhile
pytestmark = pytest.mark.waits

# Shares of requests per fault kind; about one BatchWriteItem in five meets a fault.
FAULTS = {"throttle": 0.04, "error500": 0.03, "partial": 0.08, "reset_before": 0.02, "reset_after": 0.02,
          "late": 0.01}
# Loads one at a time. Each spends most of its time waiting (read timeouts on late answers, botocore's
# backoff), so several at once would overlap the waits, but four at once beside a loaded machine (load
# average 25) made moto's count scans outlast PROXY_TIMEOUTS' 3 s read timeout four times in a row: a
# false failure. Running them at once needs a longer read timeout and `late_seconds` (not yet measured).
LOADS_AT_ONCE = 1
SOAK_EXAMPLES = ("student_platform", "chat_messages", "iot_telemetry", "ecommerce_orders")


def _patient(client: Any) -> Any:
    """A plain boto3 client to moto without the product's deadline: the check must not time out itself."""
    config = Config(read_timeout=300, retries={"mode": "standard", "max_attempts": 3})
    return boto3.client("dynamodb", endpoint_url=client.meta.endpoint_url, region_name="us-east-1",
                        aws_access_key_id="testing", aws_secret_access_key="testing", config=config)


def table_keys(client: Any, setup: PreviewSetup) -> Counter[str]:
    """Every primary key in the table, read straight from moto (not through the proxy)."""
    client = _patient(client)
    names = primary_key_names(setup.design.key_design)
    keys: Counter[str] = Counter()
    arguments: dict[str, Any] = {"TableName": setup.table.name, "ProjectionExpression": ", ".join(
        f"#k{i}" for i in range(len(names))), "ExpressionAttributeNames": {f"#k{i}": n for i, n in enumerate(names)}}
    while True:
        page = client.scan(**arguments)
        keys.update(json.dumps({n: item[n] for n in names}, sort_keys=True) for item in page["Items"])
        if "LastEvaluatedKey" not in page:
            return keys
        arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def expected_keys(setup: PreviewSetup, data: PreviewData) -> Counter[str]:
    names = primary_key_names(setup.design.key_design)
    return Counter(json.dumps(to_dynamodb_json({n: item.full_item[n] for n in names}), sort_keys=True)
                   for item in data.items)


def load_through_faults(setup: PreviewSetup) -> tuple[PreviewData, LoadReport, int]:
    """Load as a user would: press Resume after an interruption; returns the resumes it took."""
    resumes, state = 0, None
    while True:
        try:
            data, report = load_preview(setup, resume=state)
            return data, report, resumes
        except LoadInterrupted as exc:
            resumes, state = resumes + 1, exc.state
            assert resumes <= 3, f"the load kept stopping: {exc}"


def _one_seeded_load(make_setup, endpoint: Endpoint, client: Any, seed: int, items: int,
                     example: str) -> dict[str, Any]:
    """One load through its own proxy seeded `seed`: exact by key, and complete exactly when it is."""
    proxy = FaultProxy(endpoint.url, FaultPlan(seed=seed, **FAULTS)).start()
    try:
        proxied = Endpoint(EndpointKind.CUSTOM, proxy.url, "us-east-1", timeouts=PROXY_TIMEOUTS)
        setup = replace(make_setup(example, items, seed=seed), endpoint=proxied)
        data, report, resumes = load_through_faults(setup)
    finally:
        proxy.stop()
    expected, found = expected_keys(setup, data), table_keys(client, setup)
    missing, unexpected = expected - found, found - expected
    assert not missing and not unexpected, (seed, len(missing), len(unexpected))
    assert report.complete and report.items_counted == len(data.items) == sum(found.values())
    client.delete_table(TableName=setup.table.name)
    return {"resumes": resumes, "expected": len(data.items), "counted": sum(found.values()),
            "requests": report.requests, "faults": proxy.injected}


def seeded_loads(make_setup, endpoint: Endpoint, client: Any, loads: int, items: int,
                 examples: tuple[str, ...], at_once: int = LOADS_AT_ONCE) -> dict[str, Any]:
    """`loads` seeded loads, `at_once` at a time (each has its own proxy, so its faults are the same
    whatever runs beside it)."""
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        results = list(pool.map(lambda seed: _one_seeded_load(make_setup, endpoint, client, seed, items,
                                                              examples[seed % len(examples)]), range(loads)))
    figures: dict[str, Any] = {"loads": len(results)}
    for name in ("resumes", "expected", "counted", "requests"):
        figures[name] = sum(r[name] for r in results)
    figures["faults"] = dict(sum((r["faults"] for r in results), Counter()))
    return figures


def test_each_fault_kind_does_what_it_says(make_setup, fault_proxy: FaultProxy, proxied: Endpoint,
                                           client) -> None:
    setup = make_setup("iot_telemetry", 50)
    load_preview(setup)  # the table, loaded without faults, straight to moto
    once = dynamodb_client(replace(proxied, timeouts=Timeouts(connect_seconds=1, read_seconds=1, attempts=1)))
    item = {"deviceId": {"S": "fault-probe"}, "readingAt": {"S": "x"}}
    keys = primary_key_names(setup.design.key_design)
    put = {setup.table.name: [{"PutRequest": {"Item": {k: item.get(k, {"S": f"probe-{k}"}) for k in keys}}}]}
    expectations = {"throttle": "ProvisionedThroughputExceededException", "error500": "InternalServerError",
                    "reset_before": "Connection", "reset_after": "Connection", "late": "timeout",
                    "stall": "timeout"}
    for kind, words in expectations.items():
        fault_proxy.use(FaultPlan(seed=1, **{kind: 1.0}))
        with pytest.raises((ClientError, BotoCoreError), match=f"(?i){words}"):
            once.batch_write_item(RequestItems=put)
    for kind, name in (("held", "fault-held"), ("phantom", "fault-phantom")):
        probe = {k: {"S": f"{name}-{k}"} for k in keys}
        fault_proxy.use(FaultPlan(seed=1, held_seconds=4.0, **{kind: 1.0}))
        try:
            answer = once.batch_write_item(RequestItems={setup.table.name: [{"PutRequest": {"Item": probe}}]})
            assert kind == "phantom" and not answer.get("UnprocessedItems")  # acknowledged...
        except (ClientError, BotoCoreError) as exc:
            assert kind == "held" and "timeout" in str(exc).lower()  # given up on by the client...
        assert "Item" not in client.get_item(TableName=setup.table.name, Key=probe)  # ...and not written yet
        fault_proxy.wait_for_held()
        # the held write lands after the client gave up; the phantom one never does
        assert ("Item" in client.get_item(TableName=setup.table.name, Key=probe)) is (kind == "held")
    fault_proxy.use(FaultPlan(seed=1, partial=1.0))
    writes = [{"PutRequest": {"Item": {k: {"S": f"partial-{i}"} for k in keys}}} for i in range(25)]
    left = once.batch_write_item(RequestItems={setup.table.name: writes})["UnprocessedItems"][setup.table.name]
    written = {json.dumps(w["PutRequest"]["Item"], sort_keys=True) for w in writes} - \
        {json.dumps(w["PutRequest"]["Item"], sort_keys=True) for w in left}
    assert 1 <= len(left) <= 25
    for item_json in written:  # the forwarded part was written, the part handed back was not
        assert "Item" in client.get_item(TableName=setup.table.name, Key=json.loads(item_json))
    for w in left:
        assert "Item" not in client.get_item(TableName=setup.table.name, Key=w["PutRequest"]["Item"])
    assert set(fault_proxy.injected) == set(KINDS)


@pytest.mark.parametrize("kind", ["reset_after", "late"])
def test_a_lost_answer_to_create_table_or_delete_table_is_recognised(make_setup, fault_proxy, proxied, client,
                                                                     kind: str) -> None:
    # the table is created (or deleted) but the answer is lost; botocore's retry meets ResourceInUseException
    # (or ResourceNotFoundException): the product must see that its own first attempt did it
    setup = replace(make_setup("iot_telemetry", 50), endpoint=proxied)
    fault_proxy.use(FaultPlan(seed=0, first_only=True, targets=("CreateTable", "DeleteTable"), **{kind: 1.0}))
    _, report = load_preview(setup)
    assert report.complete and fault_proxy.injected[kind] == 1
    assert cleanup_preview(setup) is True and fault_proxy.injected[kind] == 2
    assert setup.table.name not in client.list_tables()["TableNames"]


def test_seeded_loads_through_faults_hold_exactly_the_generated_items(make_setup, endpoint, client) -> None:
    # CI's run of the soak below: one 1,000-item load of each of the four examples (seeds 0-3) still meets
    # every fault kind of FAULTS (asserted), so every retry path of a load runs: botocore's retries of
    # throttling, 500s, resets and late answers (late and reset_after: written, then sent again), and the
    # retry helper's re-sends of unprocessed items. What the soak adds is volume (100,000 items, 20 seeds),
    # not a path: exactness by key does not depend on the table's size.
    figures = seeded_loads(make_setup, endpoint, client, loads=4, items=1000, examples=SOAK_EXAMPLES)
    assert figures["loads"] == 4 and figures["expected"] == figures["counted"] >= 0.98 * 4 * 1000, figures
    assert set(figures["faults"]) == set(FAULTS), figures  # every kind in the mix really happened
    print(f"\nfault-proxy loads: {figures}")


@pytest.mark.soak
def test_twenty_seeded_loads_of_five_thousand_items_through_faults(make_setup, endpoint, client) -> None:
    figures = seeded_loads(make_setup, endpoint, client, loads=20, items=5000, examples=SOAK_EXAMPLES)
    # generated items whose primary key repeats an earlier one's are left out (DynamoDB would keep one):
    # 809 of the 100,000 in these seeds, so "expected" is what the product generated and kept, by key
    assert figures["loads"] == 20 and figures["expected"] == figures["counted"] >= 0.98 * 20 * 5000, figures
    assert sum(figures["faults"].values()) >= 20 * 20, figures  # the faults really happened
    print(f"\nfault-proxy loads: {figures}")


def write_patterns_through_faults(make_setup, proxy: FaultProxy, proxied: Endpoint, client: Any, example: str,
                                  seeds: range) -> int:
    """Run every pattern `len(seeds)` times through faults; every one passes and the undo leaves the table
    holding exactly the loaded items. Returns the patterns run."""
    setup = replace(make_setup(example, 400), endpoint=proxied)
    data, _, _ = load_through_faults(setup)
    runs = 0
    for seed in seeds:
        proxy.use(FaultPlan(seed=seed, **FAULTS))
        report = run_preview(PreviewRun(setup, data))
        assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]
        assert table_keys(client, setup) == expected_keys(setup, data), "the undo left the table as loaded"
        runs += len(report.results)
    return runs


@pytest.mark.parametrize("example", ["ecommerce_orders", "student_platform"])
def test_write_patterns_through_faults_pass_and_leave_exactly_the_loaded_items(make_setup, fault_proxy, proxied,
                                                                               client, example: str) -> None:
    write_patterns_through_faults(make_setup, fault_proxy, proxied, client, example, range(1))
    assert sum(fault_proxy.injected.values()) > 0


@pytest.mark.slow
@pytest.mark.parametrize("example", ["ecommerce_orders", "student_platform", "chat_messages"])
def test_write_patterns_through_faults_many_seeds(make_setup, fault_proxy, proxied, client, example: str) -> None:
    runs = write_patterns_through_faults(make_setup, fault_proxy, proxied, client, example, range(1, 6))
    print(f"\nfault-proxy patterns {example}: {runs} pattern runs, faults {dict(fault_proxy.injected)}")


def test_a_transaction_applied_before_its_response_was_lost_passes_on_the_retry(make_setup, fault_proxy, proxied,
                                                                               client) -> None:
    # every transaction reaches moto and is applied, then its connection is reset: botocore sends it again and
    # the retry fails its own attribute_not_exists (the uniqueness item is there). The items read exactly as
    # the success leaves them, so the case passes and says why (clean-clone CI met this once by chance)
    setup = replace(make_setup("ecommerce_orders", 200), endpoint=proxied)
    data, _, _ = load_through_faults(setup)
    fault_proxy.use(FaultPlan(seed=3, reset_after=1.0, targets=("TransactWriteItems",), first_only=True))
    report = run_preview(PreviewRun(setup, data))
    assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]
    assert fault_proxy.injected.get("reset_after", 0) > 0
    create = next(r for r in report.results if r.run.pattern == "create_customer_by_email")
    assert "response was lost" in create.run.verdict
    assert table_keys(client, setup) == expected_keys(setup, data), "the undo left the table as loaded"


def test_an_add_applied_before_its_response_was_lost_is_not_added_twice(make_setup, fault_proxy, proxied,
                                                                        client) -> None:
    # every UpdateItem reaches moto and is applied, then its connection is reset. botocore used to send the ADD
    # again, and xp rose by 2 where the pattern adds 1 (seen twice in CI). Now the ADD goes one attempt at a
    # time and the item is read before any resend: +1, exactly as the oracle says
    setup = replace(make_setup("student_platform", 200), endpoint=proxied)
    data, _, _ = load_through_faults(setup)
    fault_proxy.use(FaultPlan(seed=5, reset_after=1.0, targets=("UpdateItem",), first_only=True))
    report = run_preview(PreviewRun(setup, data))
    adds = [r for r in report.results if r.run.pattern == "increment_student_xp_by_id"]
    assert adds and adds[0].run.passed, adds[0].run.verdict if adds else "no run"
    assert fault_proxy.injected.get("reset_after", 0) > 0
