"""Issue 27.6 in a real browser: the library's "borrow a copy" typed through the Model page's write-semantics grids
from nothing (the entities, keys and the pattern's row come from tests/fixtures/write-semantics/library.yaml, its
transaction from the keyboard), then run on the Preview page, where both outcomes pass: the success path and the
rejected paths of each member's condition.

The transaction: Update the Copy only if `status = available`, SET its status to the constant `on_loan`; Put a new
Loan with attribute_not_exists (open, not returned); ADD 1 to the Member's `activeLoans`.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import FrameLocator, Page, expect

from modeling.model_file import model_from_document
from modeling.workspace.folder import Workspace
from tests.e2e.conftest import (
    GRID_FRAME,
    Server,
    assert_no_exception,
    cell,
    eventually,
    open_page,
    type_into_cell,
    wait_until_idle,
)
from tests.fixture_files import FIXTURES_DIR

pytestmark = pytest.mark.e2e

LIBRARY = yaml.safe_load((FIXTURES_DIR / "write-semantics" / "library.yaml").read_text(encoding="utf-8"))
MEMBERS = [("Copy", "Update"), ("Loan", "Put"), ("Member", "Update")]
# (member, condition kind, attribute, operator, value); the kind's first option is compare
CONDITIONS = [("1", None, "status", "=", "available"), ("2", "attribute_not_exists", None, None, None)]
# (member, attribute, action, value, amount); SET is a new row's action
UPDATES = [("1", "status", None, "on_loan", None), ("2", "loanStatus", None, "OPEN", None),
           ("2", "returnedAt", "REMOVE", None, None), ("3", "activeLoans", "ADD", None, "1")]


def _without_the_transaction() -> dict:
    """The library with borrow_copy's row but none of its write semantics (and without return_copy)."""
    document = copy.deepcopy(LIBRARY)
    document["access_patterns"] = [p for p in document["access_patterns"] if p["name"] == "borrow_copy"]
    document["access_patterns"][0].pop("members")
    return document


def _borrow(document: dict):
    return model_from_document(document).access_pattern("borrow_copy")


def _write_grid(page: Page, index: int) -> FrameLocator:
    """The index-th grid of the write-semantics section (members, conditions, updates), once drawn."""
    frame = page.locator(".st-key-write_semantics").frame_locator(GRID_FRAME).nth(index)
    expect(frame.locator("tbody tr").first).to_be_visible(timeout=60_000)
    return frame


def _select(page: Page, frame: FrameLocator, column: str, row: int, value: str | None) -> None:
    if value is not None:
        cell(frame, column, row).select_option(value)
        wait_until_idle(page)


def _type(page: Page, frame: FrameLocator, column: str, row: int, value: str | None) -> None:
    if value is not None:
        type_into_cell(page, frame, column, row, value)
        wait_until_idle(page)


def _add_row(page: Page, frame: FrameLocator) -> None:
    frame.get_by_role("button", name="Add a row").click()
    wait_until_idle(page)


def test_borrow_a_copy_typed_through_the_form_then_previewed_with_both_outcomes_passing(
        page: Page, server_factory, tmp_path: Path, external_requests: list[str]) -> None:
    workspace = Workspace(tmp_path / "browser-workspace")
    slug = workspace.create(_without_the_transaction())
    server: Server = server_factory()
    open_page(page, f"{server.url}/model?model={slug}", "Model · Library lending")
    page.get_by_role("tab", name="Access patterns").click()
    wait_until_idle(page)
    expect(page.get_by_text("Write semantics of")).to_be_visible(timeout=30_000)

    members = _write_grid(page, 0)
    for row, (entity, action) in enumerate(MEMBERS, start=1):
        _add_row(page, members)
        _select(page, members, "Entity", row, entity)
        _select(page, members, "Action", row, None if action == "Update" else action)
    assert eventually(lambda: [(m["entity"], m.get("action")) for m in workspace.load(slug)["access_patterns"][0]
                               .get("members", [])] == MEMBERS, 60), workspace.load(slug)["access_patterns"][0]

    conditions = _write_grid(page, 1)
    for row, (member, kind, attribute, operator, value) in enumerate(CONDITIONS, start=1):
        _add_row(page, conditions)
        _select(page, conditions, "Member", row, member)
        _select(page, conditions, "Condition", row, kind)
        _select(page, conditions, "Attribute", row, attribute)
        _select(page, conditions, "Operator", row, operator)
        _type(page, conditions, "Value", row, value)

    updates = _write_grid(page, 2)
    for row, (member, attribute, action, value, amount) in enumerate(UPDATES, start=1):
        _add_row(page, updates)
        _select(page, updates, "Member", row, member)
        _select(page, updates, "Attribute", row, attribute)
        _select(page, updates, "Action", row, action)
        _type(page, updates, "Value", row, value)
        _type(page, updates, "Add", row, amount)

    # what the grids saved is the library's borrow_copy, exactly as its YAML says it
    expected = _borrow(LIBRARY)
    assert eventually(lambda: _borrow(workspace.load(slug)) == expected, 60), workspace.load(slug)["access_patterns"]
    expect(page.get_by_text("The model is valid.")).to_be_visible(timeout=30_000)
    assert_no_exception(page)

    # the Preview, in the same browser session: load the sample data and run the pattern
    page.locator('[data-testid="stSidebarNav"] a', has_text=re.compile(r"(^|\W)Preview$", re.IGNORECASE)).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Preview · Library lending", timeout=60_000)
    wait_until_idle(page)
    page.get_by_role("button", name="Load sample data").click()
    expect(page.get_by_text("Items in the table")).to_be_visible(timeout=120_000)
    page.get_by_role("button", name="Run every access pattern").click()
    expect(page.get_by_text("Every access pattern returned what the data says it should.")).to_be_visible(
        timeout=120_000)
    expect(page.locator('[data-testid="stMetric"]').filter(has_text="Patterns passed")).to_contain_text("1 of 1")
    # both outcomes ran and passed: the success path, and each member's condition made false, rejected
    outcomes = page.locator('[data-testid="stExpander"] summary')
    expect(outcomes.filter(has_text="✅ success: succeeds")).to_have_count(1, timeout=30_000)
    expect(outcomes.filter(has_text="✅ Copy's status = available made false")).to_have_count(1)
    expect(outcomes.filter(has_text="✅ Loan already exists (attribute_not_exists)")).to_have_count(1)
    expect(outcomes.filter(has_text="❌")).to_have_count(0)
    assert_no_exception(page)
    assert external_requests == []
