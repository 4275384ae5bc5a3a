"""Generated load tests: the Locust file run headless against the embedded moto server loaded with the
preview's sample data (every pattern runs, the mix within 5 percentage points of the model's shares), and
the k6 script checked by `node --check` as an ES module.

Locust runs in a subprocess (it patches the standard library with gevent: never in the pytest process).
"""

from __future__ import annotations

import ast
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from costs.design_ranking import propose
from modeling.endpoint.adapter import Endpoint
from modeling.examples import load_example
from modeling.model import Model, PatternKind
from modeling.preview.loadtest import LoadTestFormat
from modeling.preview.session import cleanup_preview, load_preview, preview_setup
from studio.load_test import export_load_test
from tests.cli_runner import run_main

ITEMS, SEED = 200, 7
# Bounded: 2 users for 10 s. The Locust file's shared smooth weighted round-robin keeps every pattern within
# one request of its share (0.72 at most for 6:5:4:3:2:1: the schedule stepped 400 times in a separate
# 10-line loop), so from 21 requests on every pattern has run and each share is within 0.72 / 21 = 3.4 points.
USERS, SECONDS, MIN_REQUESTS = 2, 10, 21


def _mixed_model() -> tuple[Model, dict[str, float]]:
    """An example's reads and writes (one of each kind it has, at most six) with a mix chosen here, not the
    example's: shares 6:5:4:3:2:1 (28.6 % down to 4.8 %), so every pattern is expected within a few seconds."""
    model = load_example("student_platform")
    kept, kinds = [], set()
    for pattern in model.access_patterns:
        if pattern.kind not in kinds and len(kept) < 6:
            kept.append(pattern)
            kinds.add(pattern.kind)
    weights = list(range(len(kept), 0, -1))
    patterns = [p.model_copy(update={"traffic": p.traffic.model_copy(update={
        "average_requests_per_second": float(w), "peak_requests_per_second": float(w) * 2})})
        for p, w in zip(kept, weights, strict=True)]
    shares = {p.name: w / sum(weights) for p, w in zip(patterns, weights, strict=True)}
    return model.model_copy(update={"access_patterns": tuple(patterns)}), shares


def _run_locust(locustfile: Path, endpoint: Endpoint, table: str, tmp_path: Path) -> list[dict[str, Any]]:
    env = {**os.environ, "DDS_LOADTEST_TABLE": table, "AWS_REGION": endpoint.region,
           "AWS_DEFAULT_REGION": endpoint.region}
    result = subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(locustfile), "--headless", "-u", str(USERS), "-r", str(USERS),
         "-t", f"{SECONDS}s", "--host", endpoint.url, "--csv", str(tmp_path / "run"), "--only-summary",
         "--stop-timeout", "5"], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    with (tmp_path / "run_stats.csv").open(encoding="utf-8") as stats:
        return [row for row in csv.DictReader(stats) if row["Name"] != "Aggregated"]


def test_locust_file_runs_every_pattern_in_the_model_mix(endpoint: Endpoint, tmp_path: Path) -> None:
    model, shares = _mixed_model()
    assert {p.kind for p in model.access_patterns} >= {PatternKind.READ_ONE, PatternKind.WRITE}
    setup = preview_setup(model, propose(model)[0], endpoint, "loadtest", "mixed", ITEMS, SEED)
    load_preview(setup)
    try:
        locustfile = tmp_path / "locustfile.py"
        locustfile.write_text(export_load_test(model, LoadTestFormat.LOCUST, None, ITEMS, SEED).text, encoding="utf-8")
        rows = _run_locust(locustfile, endpoint, setup.table.name, tmp_path)
    finally:
        cleanup_preview(setup)
    counts = {row["Name"]: int(row["Request Count"]) for row in rows}
    assert sum(counts.values()) >= MIN_REQUESTS, f"only {sum(counts.values())} requests in {SECONDS} s: {counts}"
    failures = {row["Name"]: int(row["Failure Count"]) for row in rows if int(row["Failure Count"])}
    assert set(counts) == set(shares) and all(counts.values()), counts  # every pattern ran
    assert failures == {}, failures  # the preview's requests, on the preview's data, all succeed
    total = sum(counts.values())
    off = {name: round(counts[name] / total - share, 3) for name, share in shares.items()
           if abs(counts[name] / total - share) > 0.05}
    assert off == {}, (off, total)
    # each pattern sent the request its plan names (a create-only write with a uniqueness item is a transaction)
    operations = {row["Name"]: row["Type"] for row in rows}
    planned = {p.pattern: p.operation.value for p in propose(model)[0].plans}
    assert operations == {name: planned[name] for name in operations}
    assert {"GetItem", "Query"} <= set(operations.values())  # reads of both kinds ran, not only writes


def test_k6_script_is_a_valid_es_module(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "node is missing: .ci/run installs Debian's nodejs; install it to check the k6 script"
    model, shares = _mixed_model()
    script = export_load_test(model, LoadTestFormat.K6, None, ITEMS, SEED)
    path = tmp_path / "loadtest.mjs"
    path.write_text(script.text, encoding="utf-8")
    result = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    broken = tmp_path / "broken.mjs"  # the check can fail: one brace too many is a syntax error
    broken.write_text(script.text.replace("export default function () {", "export default function () {{"),
                      encoding="utf-8")
    assert subprocess.run([node, "--check", str(broken)], capture_output=True, timeout=60).returncode != 0
    assert {p.pattern for p in script.patterns} == set(shares)
    assert [p.weight for p in script.patterns] == [round(s * 1000) for s in shares.values()]  # thousandths


def test_the_same_model_gives_the_same_bytes_and_the_cli_writes_the_file(tmp_path: Path) -> None:
    from costs.__main__ import main

    model_file = "modeling/examples/chat_messages.yaml"
    first = run_main(main, ["export-loadtest", model_file, "--format", "locust", "-o", tmp_path / "a.py"])
    second = run_main(main, ["export-loadtest", model_file, "--format", "locust", "-o", tmp_path / "b.py"])
    assert first.returncode == second.returncode == 0, first.stderr
    assert (tmp_path / "a.py").read_bytes() == (tmp_path / "b.py").read_bytes()
    compile((tmp_path / "a.py").read_text(encoding="utf-8"), "locustfile.py", "exec")  # valid Python
    bad = run_main(main, ["export-loadtest", model_file, "--format", "locust", "--design", "nope"])
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "no design of that name" in bad.stderr


@pytest.mark.parametrize("text", ['x"); import os; os.system("echo pwned', "a\u2028b ${x} `y` */ '''"])
def test_user_text_stays_inside_the_embedded_json(text: str, tmp_path: Path) -> None:
    """The model's name is free text (pattern names are identifiers): it must stay data in both files."""
    model, _ = _mixed_model()
    renamed = model.model_copy(update={"name": text})
    locust = export_load_test(renamed, LoadTestFormat.LOCUST, None, ITEMS, SEED).text
    compile(locust, "locustfile.py", "exec")
    model_line = locust.split("\nMODEL = ")[1].split("\n")[0]  # one line: json.loads('<a string literal>')
    assert model_line.startswith("json.loads(") and model_line.endswith(")")
    assert json.loads(ast.literal_eval(model_line[len("json.loads("):-1]))["name"] == text
    k6 = export_load_test(renamed, LoadTestFormat.K6, None, ITEMS, SEED).text
    path = tmp_path / "k6.mjs"
    path.write_text(k6, encoding="utf-8")
    node = shutil.which("node")
    assert node
    assert subprocess.run([node, "--check", str(path)], capture_output=True, timeout=60).returncode == 0
    model_js = k6.split("\nconst MODEL = ")[1].split(";\n")[0]
    assert json.loads(model_js)["name"] == text


def test_a_pattern_without_a_request_is_left_out_and_named() -> None:
    """An update of a primary-key attribute has no UpdateItem (the preview says so): the rest still runs."""
    model = load_example("student_platform")
    target = next(p for p in model.access_patterns if p.kind is PatternKind.UPDATE)
    broken = model.model_copy(update={"access_patterns": tuple(
        # a plain update (the example's increment is an atomic ADD): it would SET the table's key attribute
        p.model_copy(update={"changed_attributes": ("studentId",), "updates": ()}) if p.name == target.name else p
        for p in model.access_patterns)})
    result = export_load_test(broken, LoadTestFormat.LOCUST, None, ITEMS, SEED)
    assert [name for name, _ in result.skipped] == [target.name], result.skipped
    assert "primary key" in result.skipped[0][1]
    assert target.name not in {p.pattern for p in result.patterns} and len(result.patterns) > 0


def test_reads_of_two_steps_send_both_calls(endpoint: Endpoint, tmp_path: Path) -> None:
    """The e-commerce proposal reads a customer by email through the uniqueness item (two GetItems) and lists a
    customer's orders through a KEYS_ONLY index, then fetches them whole (BatchGetItem): the load test sends the
    second call too, reported under its own name, as the Preview and the estimate do."""
    from modeling.preview.loadtest_scripts import write_load_test

    full = load_example("ecommerce_orders")
    design = propose(full)[0]
    two_steps = {"get_customer_by_email": "(uniqueness item)", "list_orders_by_customer": "(fetch)"}
    plans = {p.pattern: p for p in design.plans}
    assert plans["get_customer_by_email"].through is not None and plans["list_orders_by_customer"].fetch is not None
    model = full.model_copy(update={"access_patterns": tuple(p.model_copy(update={"traffic": p.traffic.model_copy(
        update={"average_requests_per_second": 1.0 if p.name in two_steps else 0.0,
                "peak_requests_per_second": 1.0 if p.name in two_steps else 0.0})}) for p in full.access_patterns)})
    setup = preview_setup(full, design, endpoint, "loadtest2", "twostep", ITEMS, SEED)
    load_preview(setup)
    try:
        locustfile = tmp_path / "locustfile.py"
        locustfile.write_text(write_load_test(model, design, LoadTestFormat.LOCUST, ITEMS, SEED).text,
                              encoding="utf-8")
        rows = _run_locust(locustfile, endpoint, setup.table.name, tmp_path)
    finally:
        cleanup_preview(setup)
    found = {(row["Name"], row["Type"]): int(row["Request Count"]) for row in rows}
    failures = {row["Name"]: int(row["Failure Count"]) for row in rows if int(row["Failure Count"])}
    assert failures == {}, failures
    main = {name: found[(name, plans[name].operation.value)] for name in two_steps}
    extra = {name: found[(f"{name} {suffix}", "GetItem" if "uniqueness" in suffix else "BatchGetItem")]
             for name, suffix in two_steps.items()}
    assert all(count >= 5 for count in main.values()), found
    # one extra call per request; a user stopped by the run's end may have sent the first call of a request only
    assert all(0 <= extra[name] - main[name] <= USERS if "uniqueness" in two_steps[name]
               else 0 <= main[name] - extra[name] <= USERS for name in two_steps), (main, extra)
    assert len(found) == 4, found
