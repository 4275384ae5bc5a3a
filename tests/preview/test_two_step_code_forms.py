"""The code the Preview shows for a read of two steps sends both, as the preview did (issue 28, left last session):
a read through a uniqueness item (a GetItem on it, then the owner's), and an index query whose items are then read
whole from the table (BatchGetItem). The Python is run on the moto server and must return what the preview
returned; the JavaScript must be a valid ES module (`node --check`); the CLI must name both commands."""

from __future__ import annotations

import itertools
import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from modeling.endpoint.adapter import Endpoint
from modeling.model_file import load_model_file
from modeling.preview.dataset import from_dynamodb_json
from modeling.preview.session import cleanup_preview, load_preview, preview_setup
from studio.design import propose
from studio.preview import PreviewRun, run_preview
from tests.costs.test_projection_choice import audit_model
from tests.fixture_files import FIXTURES_DIR

_tables = itertools.count()


def _valid_module(code: str, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "node is missing: .ci/run installs Debian's nodejs"
    path = tmp_path / "code.mjs"
    path.write_text(code, encoding="utf-8")
    checked = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


def _commands(cli: str) -> list[list[str]]:
    lines = [line for line in cli.replace("\\\n", " ").splitlines() if line and not line.startswith("#")]
    return [shlex.split(line) for line in lines]


def test_a_read_through_a_uniqueness_item_shows_both_getitems(endpoint: Endpoint, monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    model = load_model_file(FIXTURES_DIR / "uniqueness-reads" / "users.yaml")
    table = f"twostep{next(_tables)}"
    setup = preview_setup(model, propose(model)[0], endpoint, table, "twostep", 150, 7)
    try:
        data, _ = load_preview(setup)
        result = next(r for r in run_preview(PreviewRun(setup, data, ("get_user_by_email",))).results)
        assert result.run.passed and result.run.first_request is not None, result.run.verdict
        monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint.url)
        monkeypatch.setenv("AWS_DEFAULT_REGION", endpoint.region)
        namespace: dict[str, Any] = {}
        exec(result.python, namespace)  # on the table the preview read, still loaded
    finally:
        cleanup_preview(setup)
    email = result.run.request.inputs[0]["email"]
    assert namespace["unique"]["PK"] == f"EMAIL#{email}"  # the first GetItem read the uniqueness item
    owner = namespace["response"]["Item"]  # the second read the user it names, the item the preview returned
    assert (owner["email"], owner["userId"]) == (email, result.run.returned[0]["userId"])
    assert [c[:3] for c in _commands(result.cli)] == [["aws", "dynamodb", "get-item"]] * 2
    assert result.javascript.count("new GetCommand(") == 2
    _valid_module(result.javascript, tmp_path)


def test_an_index_query_then_a_fetch_shows_the_batchgetitem(endpoint: Endpoint, monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    model = audit_model("write")  # a KEYS_ONLY GSI by device: the listing fetches the whole events
    table = f"twostep{next(_tables)}"
    setup = preview_setup(model, propose(model)[0], endpoint, table, "twostep", 120, 7)
    try:
        data, _ = load_preview(setup)
        result = next(r for r in run_preview(PreviewRun(setup, data, ("list_events_by_device",))).results)
        assert result.run.passed and result.run.fetched, result.run.verdict
        monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint.url)
        monkeypatch.setenv("AWS_DEFAULT_REGION", endpoint.region)
        namespace: dict[str, Any] = {}
        exec(result.python, namespace)
    finally:
        cleanup_preview(setup)
    fetched = namespace["items"]  # the whole items, from the table: the payload the index does not hold
    expected = [from_dynamodb_json(item) for item in result.run.fetched]
    assert sorted(i["eventId"] for i in fetched) == sorted(i["eventId"] for i in expected)
    assert all("payload" in item for item in fetched) and len(fetched) == result.run.returned_count
    commands = _commands(result.cli)
    assert [c[:3] for c in commands] == [["aws", "dynamodb", "query"], ["aws", "dynamodb", "batch-get-item"]]
    request_items = json.loads(commands[1][commands[1].index("--request-items") + 1])
    assert request_items[setup.table.name]["Keys"] == [{k: item[k] for k in result.run.fetch_key_names}
                                                       for item in result.run.fetched]
    assert "new BatchGetCommand(" in result.javascript and "BatchGetCommand, " in result.javascript
    _valid_module(result.javascript, tmp_path)
