"""The Model page's write-semantics grids (issue 27.6): a write pattern's condition, updates, transaction members and
soft delete, and an entity's auxiliary items, as rows and back. Every built-in example with writes, the wallet (every
write field) and the library round-trip: the rows a document shows, typed into grids from nothing, give the same
model. A value validation refuses is kept as typed and refused with the message the same YAML gets."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

import editing
from modeling.examples import example_document, list_examples
from modeling.model_file import document_problems, model_from_document
from tests.fixture_files import FIXTURES_DIR

WRITE_FIELDS = ("condition", "updates", "members", "soft_delete")
LIBRARY_FILE = FIXTURES_DIR / "write-semantics" / "library.yaml"


def _load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def library() -> dict[str, Any]:
    return _load(LIBRARY_FILE)


def _documents() -> list[tuple[str, dict[str, Any]]]:
    documents = [(e.slug, example_document(e.slug)) for e in list_examples()]
    documents += [("wallet", _load(FIXTURES_DIR / "write-semantics" / "wallet.yaml")), ("library", library())]
    return [(name, d) for name, d in documents if any(
        p.get(f) for p in d["access_patterns"] for f in WRITE_FIELDS) or any(
        e.get("auxiliary_items") for e in d["entities"])]


def _pattern(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in document["access_patterns"] if p["name"] == name)


def _typed_from_nothing(document: dict[str, Any]) -> dict[str, Any]:
    """The document with every write field removed, then typed back through the grids' added rows, as shown."""
    typed = copy.deepcopy(document)
    for pattern in typed["access_patterns"]:
        for field in WRITE_FIELDS:
            pattern.pop(field, None)
    for entity in typed["entities"]:
        entity.pop("auxiliary_items", None)
    for pattern in document["access_patterns"]:
        name = pattern["name"]
        for rows_of, edit in ((editing.write_member_rows, editing.edit_write_members),
                              (editing.write_condition_rows, editing.edit_write_conditions),
                              (editing.write_update_rows, editing.edit_write_updates),
                              (editing.soft_delete_rows, editing.edit_soft_delete)):
            rows = [_as_the_grid_sends(r) for r in rows_of(document, name)]
            typed = edit(typed, name, {"added_rows": rows})
    for entity in document["entities"]:
        rows = [_as_the_grid_sends(r) for r in editing.auxiliary_rows(document, entity["name"])]
        typed = editing.edit_auxiliary_items(typed, entity["name"], {"added_rows": rows})
    return typed


def _as_the_grid_sends(row: dict[str, Any]) -> dict[str, Any]:
    """An added row as ui/grid_frontend sends it: empty cells left out, the read-only number not typed."""
    return {k: v for k, v in row.items() if v not in (None, "", [], False) and k != "number"}


@pytest.mark.parametrize(("name", "document"), _documents(), ids=[n for n, _ in _documents()])
def test_every_write_field_typed_into_the_grids_gives_the_same_model(name: str, document: dict[str, Any]) -> None:
    assert not [p for p in document_problems(document) if p.severity.value == "error"]
    typed = _typed_from_nothing(document)
    assert model_from_document(typed) == model_from_document(document)


def test_the_examples_with_writes_cover_conditions_updates_members_soft_delete_and_auxiliary_items() -> None:
    """The round trip above is worth something only if the documents hold every kind of write field."""
    documents = dict(_documents())
    patterns = [p for d in documents.values() for p in d["access_patterns"]]
    assert {"wallet", "library", "student_platform"} <= set(documents)
    conditions = [p["condition"] for p in patterns if "condition" in p]
    conditions += [m["condition"] for p in patterns for m in p.get("members", []) if "condition" in m]
    kinds = {c if isinstance(c, str) else c.get("kind", "compare") for c in conditions}
    assert kinds >= {"attribute_not_exists", "version_matches", "compare"}
    updates = [u for p in patterns for u in p.get("updates", [])]
    updates += [u for p in patterns for m in p.get("members", []) for u in m.get("updates", [])]
    assert {u.get("action", "SET") for u in updates} >= {"SET", "ADD", "REMOVE"}
    assert any(u.get("negate") for u in updates) and any("key_inputs" in m for p in patterns
                                                         for m in p.get("members", []))
    assert any("soft_delete" in p for p in patterns)
    assert {a["kind"] for d in documents.values() for e in d["entities"] for a in e.get("auxiliary_items", [])} == {
        "aggregate", "edge_copy"}


def test_the_library_borrow_shows_each_member_with_its_own_condition_and_updates() -> None:
    document = library()
    assert editing.write_member_rows(document, "borrow_copy") == [
        {"number": "1", "entity": "Copy", "action": "Update", "key_inputs": None},
        {"number": "2", "entity": "Loan", "action": "Put", "key_inputs": None},
        {"number": "3", "entity": "Member", "action": "Update", "key_inputs": None}]
    assert editing.write_condition_rows(document, "borrow_copy") == [
        {"member": "1", "kind": "compare", "attribute": "status", "operator": "=", "value": "available",
         "input": None},
        {"member": "2", "kind": "attribute_not_exists", "attribute": None, "operator": None, "value": None,
         "input": None}]
    assert [(r["member"], r["attribute"], r["action"], r["value"], r["amount"])
            for r in editing.write_update_rows(document, "borrow_copy")] == [
        ("1", "status", "SET", "on_loan", None), ("2", "loanStatus", "SET", "OPEN", None),
        ("2", "returnedAt", "REMOVE", None, None), ("3", "activeLoans", "ADD", None, "1")]


def test_a_condition_typed_in_its_row_is_written_as_a_file_writes_it() -> None:
    document = library()
    after = editing.edit_write_conditions(document, "borrow_copy", {"edited_rows": {0: {"value": "reserved"}}})
    assert _pattern(after, "borrow_copy")["members"][0]["condition"] == {
        "attribute": "status", "operator": "=", "value": "reserved"}
    after = editing.edit_write_conditions(after, "borrow_copy", {"added_rows": [
        {"member": "3", "kind": "version_matches", "attribute": "activeLoans"}]})
    assert _pattern(after, "borrow_copy")["members"][2]["condition"] == {
        "kind": "version_matches", "attribute": "activeLoans"}
    # moving the Loan's condition to the pattern, then deleting it
    after = editing.edit_write_conditions(document, "borrow_copy", {"deleted_rows": [1]})
    assert "condition" not in _pattern(after, "borrow_copy")["members"][1]
    assert _pattern(after, "borrow_copy")["members"][0] == _pattern(document, "borrow_copy")["members"][0]


def test_an_unchanged_grid_changes_nothing_and_the_file_keeps_its_shorthand() -> None:
    document = library()
    for edit, rows_of in ((editing.edit_write_conditions, editing.write_condition_rows),
                          (editing.edit_write_updates, editing.write_update_rows),
                          (editing.edit_write_members, editing.write_member_rows)):
        rows = rows_of(document, "borrow_copy")
        edits = {"edited_rows": {i: dict(r) for i, r in enumerate(rows)}}
        assert edit(document, "borrow_copy", edits) == document


@pytest.mark.parametrize(("text", "value"), [
    ("available", "available"), ("1", 1), ("2.5", 2.5), ("true", True), ('"1"', "1"), ('"true"', "true"),
    ('""', ""), ("on loan", "on loan")])
def test_a_constant_is_read_with_its_type_and_shown_so_it_reads_back_the_same(text: str, value: Any) -> None:
    read = editing.constant_value(text)
    assert read == value and type(read) is type(value)
    assert editing.constant_value(editing.constant_text(value)) == value


def test_a_set_to_a_constant_an_input_and_if_not_exists_and_add_with_negate() -> None:
    document = library()
    after = editing.edit_write_updates(document, "borrow_copy", {
        "edited_rows": {0: {"value": None, "input": "newStatus"}},
        "added_rows": [{"member": "3", "attribute": "activeLoans", "action": "ADD", "input": "count", "negate": True},
                       {"member": "1", "attribute": "status", "action": "if_not_exists", "value": "available"}]})
    members = _pattern(after, "borrow_copy")["members"]
    assert members[0]["updates"] == [{"attribute": "status", "input": "newStatus"},
                                     {"attribute": "status", "action": "if_not_exists", "value": "available"}]
    assert members[2]["updates"][-1] == {"attribute": "activeLoans", "action": "ADD", "input": "count",
                                         "negate": True}


def test_key_inputs_are_typed_as_pairs() -> None:
    after = editing.edit_write_members(library(), "borrow_copy", {"edited_rows": {
        2: {"key_inputs": "memberId=borrowerId; x"}}})
    assert _pattern(after, "borrow_copy")["members"][2]["key_inputs"] == {"memberId": "borrowerId", "x": ""}
    assert editing.format_key_inputs({"memberId": "borrowerId"}) == "memberId=borrowerId"


def test_deleting_a_member_takes_its_condition_and_updates_with_it() -> None:
    after = editing.edit_write_members(library(), "borrow_copy", {"deleted_rows": [1]})
    members = _pattern(after, "borrow_copy")["members"]
    assert [m["entity"] for m in members] == ["Copy", "Member"]
    assert [r["member"] for r in editing.write_update_rows(after, "borrow_copy")] == ["1", "2"]


def _messages(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in document_problems(document)]


def test_an_invalid_amount_is_kept_and_refused_with_the_message_the_yaml_gets() -> None:
    typed = editing.edit_write_updates(library(), "borrow_copy", {"edited_rows": {3: {"amount": "one"}}})
    assert _pattern(typed, "borrow_copy")["members"][2]["updates"][0]["amount"] == "one"
    written = yaml.safe_load(LIBRARY_FILE.read_text(encoding="utf-8").replace(
        "{attribute: activeLoans, action: ADD, amount: 1}", "{attribute: activeLoans, action: ADD, amount: one}"))
    assert _messages(written) == _messages(typed) and _messages(typed)


def test_two_conditions_on_one_write_are_both_kept_and_refused() -> None:
    typed = editing.edit_write_conditions(library(), "borrow_copy", {"added_rows": [
        {"member": "1", "kind": "attribute_exists"}]})
    held = _pattern(typed, "borrow_copy")["members"][0]["condition"]
    assert held == [{"attribute": "status", "operator": "=", "value": "available"}, "attribute_exists"]
    assert any(p.path.endswith("members[Copy].condition") for p in document_problems(typed))
    assert len(editing.write_condition_rows(typed, "borrow_copy")) == 3


def test_a_compare_without_its_value_gets_the_model_s_own_message() -> None:
    typed = editing.edit_write_conditions(library(), "borrow_copy", {"edited_rows": {0: {"value": None}}})
    assert ("access_patterns[borrow_copy].members[Copy].condition",
            "a compare condition needs exactly one of `value` (a constant) or `input` (a pattern input)"
            ) in _messages(typed)


def test_soft_delete_rows_round_trip_and_a_second_row_is_refused_not_dropped() -> None:
    document = example_document("student_platform")
    name = "soft_delete_student_by_id"
    rows = editing.soft_delete_rows(document, name)
    assert rows == [{"status_attribute": "status", "status_value": "DELETED", "deleted_at_attribute": "deletedAt",
                     "expires_after_days": "365", "archive_entity": None}]
    after = editing.edit_soft_delete(document, name, {"edited_rows": {0: {"expires_after_days": "30"}}})
    assert _pattern(after, name)["soft_delete"]["expires_after_days"] == 30
    removed = editing.edit_soft_delete(document, name, {"deleted_rows": [0]})
    assert "soft_delete" not in _pattern(removed, name)
    two = editing.edit_soft_delete(document, name, {"added_rows": [{"status_value": "GONE"}]})
    assert len(_pattern(two, name)["soft_delete"]) == 2 and document_problems(two)


def test_write_patterns_are_listed_and_reads_are_not() -> None:
    assert editing.write_pattern_names(library()) == ["borrow_copy", "return_copy"]
    names = editing.write_pattern_names(example_document("student_platform"))
    assert "soft_delete_student_by_id" in names and not any(n.startswith("get_") for n in names)
