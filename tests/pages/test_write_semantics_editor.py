"""Issue 27.6: a write pattern's condition, updates, members and soft delete are edited in grids on the Model page
(AppTest, the real page script). An edit changes the model's YAML as the same text typed in the YAML box would, a
value validation refuses is shown with the message the YAML gets, and nothing typed is lost on a rerun or on
switching the pattern shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from streamlit.testing.v1 import AppTest

from modeling.model_file import document_problems
from modeling.workspace.folder import Workspace
from tests.fixture_files import FIXTURES_DIR
from tests.pages.model_page import grid_version, model_page, saved, scoped, set_grid_edits
from ui.text import plain

LIBRARY_FILE = FIXTURES_DIR / "write-semantics" / "library.yaml"


def _library_page(workspace_dir: Path) -> AppTest:
    Workspace(workspace_dir).create(yaml.safe_load(LIBRARY_FILE.read_text(encoding="utf-8")))
    at = model_page()
    assert at.title[0].value.endswith("Library lending")
    return at


def _members(document: dict[str, Any], pattern: str) -> list[dict[str, Any]]:
    return next(p for p in document["access_patterns"] if p["name"] == pattern)["members"]


def _yaml_box(at: AppTest) -> dict[str, Any]:
    return yaml.safe_load(at.text_area(key=scoped(at, "raw")).value)


def _show(at: AppTest, pattern: str) -> None:
    at.selectbox(key=scoped(at, "writes_pattern")).select(pattern).run()
    assert not at.exception, at.exception


def test_a_condition_and_an_update_typed_in_the_grids_are_the_model_s_yaml(workspace_dir: Path) -> None:
    at = _library_page(workspace_dir)
    assert at.selectbox(key=scoped(at, "writes_pattern")).value == "borrow_copy"
    set_grid_edits(at, "writes.borrow_copy.conditions", {"edited_rows": {"0": {"value": "reserved"}}})
    set_grid_edits(at, "writes.borrow_copy.updates", {"added_rows": [
        {"member": "3", "attribute": "activeLoans", "action": "ADD", "amount": "-2"}]})
    assert not at.exception, at.exception
    copy_member, _, member = _members(saved(workspace_dir), "borrow_copy")
    assert copy_member["condition"] == {"attribute": "status", "operator": "=", "value": "reserved"}
    assert member["updates"][-1] == {"attribute": "activeLoans", "action": "ADD", "amount": -2}
    assert _members(_yaml_box(at), "borrow_copy") == _members(saved(workspace_dir), "borrow_copy")
    at.run()  # a rerun applies nothing twice
    assert len(_members(saved(workspace_dir), "borrow_copy")[2]["updates"]) == 2


def test_an_invalid_value_is_kept_and_shown_with_the_message_the_yaml_gets(workspace_dir: Path) -> None:
    at = _library_page(workspace_dir)
    set_grid_edits(at, "writes.borrow_copy.updates", {"edited_rows": {"3": {"amount": "one"}}})
    assert _members(saved(workspace_dir), "borrow_copy")[2]["updates"][0]["amount"] == "one"
    typed_in_yaml = yaml.safe_load(LIBRARY_FILE.read_text(encoding="utf-8").replace(
        "{attribute: activeLoans, action: ADD, amount: 1}", "{attribute: activeLoans, action: ADD, amount: one}"))
    [problem] = document_problems(typed_in_yaml)
    assert "unable to parse string as an integer" in problem.message
    # the page shows the problem as the YAML's: its path and message, as plain text (ui.text.plain)
    assert [e.value for e in at.error if "amount" in e.value] == [
        f"**{plain(problem.path)}** — {plain(problem.message)}  \n→ {plain(problem.suggestion)}"]


def test_a_compare_without_a_value_is_refused_as_in_the_yaml_and_the_fix_clears_it(workspace_dir: Path) -> None:
    at = _library_page(workspace_dir)
    set_grid_edits(at, "writes.borrow_copy.conditions", {"edited_rows": {"0": {"value": None}}})
    [problem] = [p for p in document_problems(saved(workspace_dir)) if "exactly one of" in p.message]
    assert problem.path == "access_patterns[borrow_copy].members[Copy].condition"
    assert any(plain(problem.path) in e.value and plain(problem.message) in e.value for e in at.error)
    set_grid_edits(at, "writes.borrow_copy.conditions", {"edited_rows": {"0": {"value": None, "input": "copyId"}}})
    assert not [e for e in at.error if "exactly one of" in e.value]
    assert _members(saved(workspace_dir), "borrow_copy")[0]["condition"]["input"] == "copyId"


def test_edits_of_two_patterns_are_both_kept_when_switching_between_them(workspace_dir: Path) -> None:
    at = _library_page(workspace_dir)
    set_grid_edits(at, "writes.borrow_copy.members", {"edited_rows": {"2": {"key_inputs": "memberId=borrowerId"}}})
    _show(at, "return_copy")
    set_grid_edits(at, "writes.return_copy.conditions", {"added_rows": [
        {"member": "3", "kind": "version_matches", "attribute": "activeLoans"}]})
    _show(at, "borrow_copy")
    at.run()
    document = saved(workspace_dir)
    assert _members(document, "borrow_copy")[2]["key_inputs"] == {"memberId": "borrowerId"}
    assert _members(document, "return_copy")[2]["condition"] == {"kind": "version_matches",
                                                                 "attribute": "activeLoans"}
    # the problem of the key input (not an input of borrow_copy) is shown with the pattern shown
    assert any("borrowerId" in e.value for e in at.error)


def test_soft_delete_and_auxiliary_items_are_edited_in_their_grids(workspace_dir: Path) -> None:
    at = model_page()  # the student platform: a soft delete with a TTL
    _show(at, "soft_delete_student_by_id")
    set_grid_edits(at, "writes.soft_delete_student_by_id.soft_delete", {"edited_rows": {"0": {
        "expires_after_days": "30"}}})
    pattern = next(p for p in saved(workspace_dir)["access_patterns"] if p["name"] == "soft_delete_student_by_id")
    assert pattern["soft_delete"]["expires_after_days"] == 30
    assert any("TTL attribute is expiresAt" in c.value for c in at.caption)
    entity = at.selectbox(key=scoped(at, "attributes_entity")).value
    set_grid_edits(at, f"auxiliary.{entity}", {"added_rows": [{"name": "claim", "kind": "uniqueness"}]})
    kept = next(e for e in saved(workspace_dir)["entities"] if e["name"] == entity)["auxiliary_items"]
    assert kept == [{"name": "claim", "kind": "uniqueness"}]
    assert any(plain("a uniqueness item needs `attributes`") in e.value for e in at.error)  # the model's own


def test_a_pattern_made_a_transaction_gets_grids_with_a_member_column(workspace_dir: Path) -> None:
    """The conditions grid is drawn anew when the columns it shows change, and only then (ui.model_editor)."""
    at = _library_page(workspace_dir)
    set_grid_edits(at, "patterns", {"added_rows": [{
        "name": "reserve_copy", "kind": "update", "entities": ["Copy"], "inputs": ["isbn", "branchId", "copyId"],
        "peak_requests_per_second": "1", "average_requests_per_second": "1"}]})
    _show(at, "reserve_copy")
    before = grid_version(at, "writes.reserve_copy.conditions")
    set_grid_edits(at, "writes.reserve_copy.conditions", {"added_rows": [{"kind": "attribute_exists"}]})
    assert grid_version(at, "writes.reserve_copy.conditions") == before  # its own edit: the same grid
    pattern = next(p for p in saved(workspace_dir)["access_patterns"] if p["name"] == "reserve_copy")
    assert pattern["condition"] == "attribute_exists"
    set_grid_edits(at, "patterns", {"edited_rows": {"2": {"kind": "transact_write"}}})
    assert grid_version(at, "writes.reserve_copy.conditions") == before + 1
    assert any("Transaction members" in m.value for m in at.markdown)
