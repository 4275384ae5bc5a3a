"""The library fixture's sample data on a real moto server over HTTP (issue 27.7): the Preview loads items whose
optional attributes follow their states, and every write pattern still runs its success path and its rejected
paths on them (the sample data never holds a value the success path's own condition would reject)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from modeling.design.generator import generate_design
from modeling.endpoint.adapter import dynamodb_client
from modeling.model_file import load_model_file
from modeling.preview.dataset import from_dynamodb_json
from modeling.preview.runner import RunContext, run_pattern
from modeling.preview.session import load_preview, preview_setup
from tests.fixture_files import FIXTURES_DIR

LIBRARY = load_model_file(FIXTURES_DIR / "write-semantics" / "library_states.yaml")
WRITES = [p.name for p in LIBRARY.access_patterns if not p.kind.is_read]
_tables = itertools.count()


@pytest.fixture(scope="module")
def loaded(endpoint):
    setup = preview_setup(LIBRARY, generate_design(LIBRARY), endpoint, f"libsd{next(_tables)}", "library", 200, 42)
    data, _ = load_preview(setup)
    yield setup, data
    dynamodb_client(endpoint).delete_table(TableName=setup.table.name)  # the endpoint lists its tables in errors


def stored(loaded: Any, client: Any) -> list[dict[str, Any]]:
    setup, _ = loaded
    return [from_dynamodb_json(i) for i in client.scan(TableName=setup.table.name, ConsistentRead=True)["Items"]]


def test_the_loaded_items_are_consistent_with_their_states(loaded, client) -> None:
    items = stored(loaded, client)
    loans = [i for i in items if "loanId" in i]
    members = [i for i in items if "email" in i]
    assert {i["loanStatus"] for i in loans} == {"OPEN", "RETURNED"}
    assert all("returnedAt" not in i for i in loans if i["loanStatus"] == "OPEN")
    assert all("returnedAt" in i for i in loans if i["loanStatus"] == "RETURNED")
    assert all("deletedAt" not in i and "expiresAt" not in i for i in members if i["status"] != "DELETED")
    assert any(i["status"] == "DELETED" for i in members)


@pytest.mark.parametrize("pattern", WRITES)
def test_every_write_runs_both_outcomes_on_the_sample_data(loaded, client, pattern: str) -> None:
    setup, data = loaded
    before = sorted(map(repr, stored(loaded, client)))
    result = run_pattern(client, RunContext(setup.model, setup.design, data, setup.table.name, setup.seed), pattern)
    assert result.passed, result.verdict
    assert any(c.case == "success" and c.passed for c in result.cases)
    assert sorted(map(repr, stored(loaded, client))) == before  # every case was undone
