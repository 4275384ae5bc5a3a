"""A rewrite migration interrupted at every phase, then resumed, holds exactly the expected items by key (issue 30.5).

The endpoint is the embedded moto server behind the fault-injecting proxy (tests/fault_proxy.py). Each phase of
a page (the Scan, the writes, the read-back that precedes the checkpoint) is held past the client's whole retry
budget; the held requests are forwarded later, amid the resumed run, as a paused endpoint does once it resumes.
The script is also run as a process and killed with SIGKILL at each phase, and stopped by its own deadline. A
write the endpoint acknowledges but does not keep (what a moto server's transaction rollback did to the run in
the issue) is found by the read-back and done again.

The expected keys are worked out here from the loaded items and the NEW key templates of the plan, by plain
string substitution, never by the code under test; the keys found are read straight from moto, not through the
proxy.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config

from modeling.endpoint.adapter import Endpoint, Timeouts, dynamodb_client
from modeling.migration.plan import Mode
from modeling.migration.rehearsal import Rehearsal, migrate, prepare_rehearsal
from modeling.migration.run import MigrationInterrupted, RunReport, run_migration
from modeling.migration.script import EXIT_INTERRUPTED, migration_script
from tests.evolution_models import library, with_loan_sort_key_by_due_date
from tests.fault_proxy import FaultPlan, FaultProxy
from tests.preview.conftest import PROXY_TIMEOUTS

# Most of each test is waiting (held requests, timeouts, a script's deadline): .ci/run runs the module in a
# job of its own beside the CPU-bound tests (`waits`), so a core is not left idle meanwhile
pytestmark = pytest.mark.waits

ITEMS = 80
REPO = Path(__file__).resolve().parents[2]
# The client of the interrupted run gives up on a request after 4 s, retries included (2 s a read: moto answers
# these in milliseconds, a busy machine in well under a second); the proxy holds the phase's requests 6 s, so
# they land on the server after the run stopped, while the resumed run goes on.
IMPATIENT = Timeouts(connect_seconds=1.0, read_seconds=2.0, attempts=2, call_deadline_seconds=4.0)
HELD_SECONDS = 6.0
# the phases of one page: its Scan, its writes, the read-back of its writes before the checkpoint is written
PHASES = {"scan": "Scan", "write": "TransactWriteItems", "checkpoint": "BatchGetItem"}
PASS_FIRST = {"Scan": 3, "TransactWriteItems": 25, "BatchGetItem": 2}  # some pages get done before the fault
_names = itertools.count()


def _rewrite(endpoint: Endpoint) -> Rehearsal:
    """The library's Loans move from LOAN#{loanId} to LOAN#{dueDate}#{loanId}: every Loan changes its key."""
    rehearsal = prepare_rehearsal(library(), library(with_loan_sort_key_by_due_date()), endpoint,
                                  f"int{next(_names)}", "library", total_items=ITEMS)
    assert rehearsal.spec.mode is Mode.REWRITE
    return rehearsal


def _render(template: str, attributes: dict[str, Any]) -> str:
    assert re.fullmatch(r"[^{}]*(\{\w+\}[^{}]*)*", template), f"not a plain template: {template}"
    return re.sub(r"\{(\w+)\}", lambda m: str(attributes[m.group(1)]), template)


def expected_keys(rehearsal: Rehearsal) -> Counter[tuple[str, str]]:
    """Each loaded item's key under the plan's NEW table templates, by string substitution."""
    templates = {k.entity: k.table for k in rehearsal.spec.new_keys.entities}
    keys: Counter[tuple[str, str]] = Counter()
    for item in rehearsal.data.items:
        table = templates[item.entity]
        keys[(_render(table.partition_key, item.attributes), _render(table.sort_key or "", item.attributes))] += 1
    return keys


def table_keys(endpoint: Endpoint, table: str) -> Counter[tuple[str, str]]:
    """Every key on the table, read straight from moto with a patient plain client."""
    client = boto3.client("dynamodb", endpoint_url=endpoint.url, region_name="us-east-1",
                          aws_access_key_id="testing", aws_secret_access_key="testing",
                          config=Config(read_timeout=300, retries={"mode": "standard", "max_attempts": 3}))
    keys: Counter[tuple[str, str]] = Counter()
    arguments: dict[str, Any] = {"TableName": table, "ConsistentRead": True}
    while True:
        page = client.scan(**arguments)
        keys.update((item["PK"]["S"], item["SK"]["S"]) for item in page["Items"])
        if "LastEvaluatedKey" not in page:
            return keys
        arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _assert_exact(endpoint: Endpoint, rehearsal: Rehearsal) -> None:
    expected, found = expected_keys(rehearsal), table_keys(endpoint, rehearsal.source_table)
    assert sum(expected.values()) == len(rehearsal.data.items) > ITEMS // 2 and max(expected.values()) == 1
    lost, unexpected = expected - found, found - expected
    assert not lost and not unexpected, f"{len(lost)} lost {sorted(lost)[:3]}, {len(unexpected)} unexpected " \
                                        f"{sorted(unexpected)[:3]}"


def _resume(rehearsal: Rehearsal, proxied: Endpoint, checkpoint: Path) -> RunReport:
    """Run again with the same checkpoint until done, as the script's exit status 3 asks (at most 3 times)."""
    for _ in range(3):
        try:
            return migrate(rehearsal, dynamodb_client(replace(proxied, timeouts=PROXY_TIMEOUTS)), checkpoint)
        except MigrationInterrupted:
            continue  # a busy machine made a request outlast the timeouts: resume again
    raise AssertionError("the resumed migration kept stopping")


def test_the_expected_keys_are_not_the_old_ones(endpoint: Endpoint) -> None:
    """The oracle can fail: before the migration, every Loan is under a key the NEW design does not have."""
    rehearsal = _rewrite(endpoint)
    loans = rehearsal.data.counts["Loan"]
    missing = expected_keys(rehearsal) - table_keys(endpoint, rehearsal.source_table)
    assert loans > 0 and sum(missing.values()) == loans


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_a_pause_longer_than_the_retry_budget_at_each_phase_then_a_resume_is_exact(
        endpoint: Endpoint, proxied: Endpoint, fault_proxy: FaultProxy, tmp_path: Path, phase: str) -> None:
    rehearsal = _rewrite(endpoint)
    checkpoint = tmp_path / "checkpoint.json"
    operation = PHASES[phase]
    fault_proxy.use(FaultPlan(held=1.0, held_seconds=HELD_SECONDS, targets=(operation,),
                              pass_first=PASS_FIRST[operation]))
    for _ in range(3):  # a busy machine can stop it first, on a request the proxy let through: go on from there
        with pytest.raises(MigrationInterrupted) as stopped:
            migrate(rehearsal, dynamodb_client(replace(proxied, timeouts=IMPATIENT)), checkpoint)
        if fault_proxy.injected["held"] >= 1:
            break
    assert not stopped.value.report.complete and fault_proxy.injected["held"] >= 1
    saved = json.loads(checkpoint.read_text()) if checkpoint.exists() else {"segments": {}}
    assert not all(segment["done"] for segment in saved["segments"].values()) or not saved["segments"]
    fault_proxy.use(FaultPlan())  # the endpoint answers again; the held requests land during the resume
    resumed = _resume(rehearsal, proxied, checkpoint)
    assert resumed.complete
    fault_proxy.wait_for_held()
    _assert_exact(endpoint, rehearsal)


def test_writes_acknowledged_but_not_kept_are_found_by_the_read_back_and_done_again(
        endpoint: Endpoint, proxied: Endpoint, fault_proxy: FaultProxy, tmp_path: Path) -> None:
    """Without the read-back the checkpoint moved past these items: each stayed under its OLD key (an
    unexpected key) and never reached its NEW one (a lost item), as in the issue."""
    rehearsal = _rewrite(endpoint)
    fault_proxy.use(FaultPlan(seed=7, phantom=0.2, targets=("TransactWriteItems",), first_only=True))
    report = migrate(rehearsal, dynamodb_client(proxied), tmp_path / "checkpoint.json")
    assert report.complete and fault_proxy.injected["phantom"] > 0
    assert report.redone == fault_proxy.injected["phantom"]  # each one, and only those, done again
    _assert_exact(endpoint, rehearsal)


def test_an_endpoint_that_never_keeps_a_write_stops_the_run_before_any_checkpoint(
        endpoint: Endpoint, proxied: Endpoint, fault_proxy: FaultProxy, tmp_path: Path) -> None:
    rehearsal = _rewrite(endpoint)
    checkpoint = tmp_path / "checkpoint.json"
    fault_proxy.use(FaultPlan(phantom=1.0, targets=("TransactWriteItems",)))  # every move, every time
    options = replace(rehearsal.run_options(checkpoint, segments=1), page_items=5)  # a short first page
    with pytest.raises(MigrationInterrupted, match="still not found in their NEW form") as stopped:
        run_migration(dynamodb_client(proxied), rehearsal.spec, options)
    assert stopped.value.report.redone > 0 and not stopped.value.report.complete
    # the page whose moves were never kept is not in the checkpoint: a resume reads it again
    saved = json.loads(checkpoint.read_text()) if checkpoint.exists() else None
    assert saved is None or saved["segments"]["0"]["last_key"] is None
    fault_proxy.use(FaultPlan())
    assert _resume(rehearsal, proxied, checkpoint).complete
    _assert_exact(endpoint, rehearsal)


# --- the script as a process: SIGKILL at each phase, and its deadline -------------------------------------


def _script(rehearsal: Rehearsal, tmp_path: Path) -> Path:
    script = tmp_path / "migrate_library.py"
    script.write_text(migration_script(rehearsal.spec), encoding="utf-8")
    return script


def _command(script: Path, rehearsal: Rehearsal, url: str, checkpoint: Path, *extra: str) -> list[str]:
    return [sys.executable, str(script), "--source", rehearsal.source_table, "--confirm", rehearsal.source_table,
            "--endpoint-url", url, "--region", "us-east-1", "--segments", "4", "--page-items", "10",
            "--rate", "10000", "--checkpoint", str(checkpoint), "--progress-seconds", "0.5", *extra]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def _until(condition: Any, what: str, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.02)


@pytest.mark.parametrize("phase", [*sorted(PHASES), "after a checkpoint"])
def test_the_script_killed_at_each_phase_then_run_again_is_exact(
        endpoint: Endpoint, fault_proxy: FaultProxy, tmp_path: Path, phase: str) -> None:
    rehearsal = _rewrite(endpoint)
    script, checkpoint = _script(rehearsal, tmp_path), tmp_path / "checkpoint.json"
    if phase in PHASES:
        operation = PHASES[phase]
        fault_proxy.use(FaultPlan(held=1.0, held_seconds=HELD_SECONDS, targets=(operation,),
                                  pass_first=PASS_FIRST[operation]))
    process = subprocess.Popen(_command(script, rehearsal, fault_proxy.url, checkpoint, "--request-seconds", "30"),
                               env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if phase in PHASES:
            _until(lambda: fault_proxy.injected["held"] >= 1, f"a held {PHASES[phase]}")
        else:
            _until(checkpoint.exists, "a checkpoint")
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    fault_proxy.use(FaultPlan())
    again = subprocess.run(_command(script, rehearsal, fault_proxy.url, checkpoint, "--request-seconds", "30"),
                           env=_environment(), capture_output=True, text=True, timeout=180)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["complete"] is True
    fault_proxy.wait_for_held()
    _assert_exact(endpoint, rehearsal)


def test_the_script_stops_at_its_deadline_with_progress_on_stderr_and_resumes_exactly(
        endpoint: Endpoint, fault_proxy: FaultProxy, tmp_path: Path) -> None:
    """An endpoint that stops answering mid-run: the script neither waits for the held requests (30 s each)
    nor runs silently; it stops at its 3 s deadline with exit status 3, and the same command finishes."""
    rehearsal = _rewrite(endpoint)
    script, checkpoint = _script(rehearsal, tmp_path), tmp_path / "checkpoint.json"
    fault_proxy.use(FaultPlan(held=1.0, held_seconds=8.0, targets=("Scan",), pass_first=6))
    started = time.monotonic()
    stopped = subprocess.run(_command(script, rehearsal, fault_proxy.url, checkpoint, "--request-seconds", "30",
                                      "--deadline-seconds", "3"),
                             env=_environment(), capture_output=True, text=True, timeout=120)
    seconds = time.monotonic() - started
    assert stopped.returncode == EXIT_INTERRUPTED, stopped.stderr
    assert "the deadline of 3 s passed" in stopped.stderr and "run it again" in stopped.stderr
    assert seconds < 25, f"took {seconds:.0f} s: it waited for the held request"  # 30 s if it had waited
    progress = [line for line in stopped.stderr.splitlines() if line.startswith("progress ")]
    assert len(progress) >= 2, stopped.stderr  # every 0.5 s from the start to the deadline
    assert all(f"segment {i}:" in progress[-1] for i in range(4))
    scanned = int(re.search(r": ([\d,]+) scanned", progress[-1]).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert 0 < scanned < len(rehearsal.data.items) and json.loads(stopped.stdout)["complete"] is False
    fault_proxy.use(FaultPlan())
    again = subprocess.run(_command(script, rehearsal, fault_proxy.url, checkpoint),
                           env=_environment(), capture_output=True, text=True, timeout=180)
    assert again.returncode == 0, again.stderr
    fault_proxy.wait_for_held()
    _assert_exact(endpoint, rehearsal)
