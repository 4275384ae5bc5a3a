"""Issue #14: nothing typed on the Model page is lost or silently changed (AppTest, the real page script)."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from tests.pages.model_page import add_entity_in_the_grid, grid_version, model_page, saved, scoped

ROOT = Path(__file__).resolve().parents[2]


def _raw_box(at: AppTest, workspace_dir: Path):
    return at.text_area(key=scoped(at, "raw"))


def test_the_yaml_box_shows_a_grid_edit_and_applying_it_unchanged_keeps_the_edit(workspace_dir: Path) -> None:
    at = model_page()
    assert "Invoice" not in _raw_box(at, workspace_dir).value
    add_entity_in_the_grid(at, "Invoice")
    assert "name: Invoice" in _raw_box(at, workspace_dir).value  # the box follows the model

    at.button(key="model.raw_apply").click().run()
    assert any("Nothing to apply" in i.value for i in at.info)
    assert any(e["name"] == "Invoice" for e in saved(workspace_dir)["entities"])


def test_typed_yaml_older_than_the_model_is_kept_and_not_applied_silently(workspace_dir: Path) -> None:
    at = model_page()
    typed = yaml.safe_load(_raw_box(at, workspace_dir).value)
    typed["description"] = "typed in the YAML box"
    _raw_box(at, workspace_dir).input(yaml.safe_dump(typed, sort_keys=False))
    at.run()
    add_entity_in_the_grid(at, "Invoice")  # the model moves on while the YAML text is pending

    assert "typed in the YAML box" in _raw_box(at, workspace_dir).value  # the user's text survives
    assert any("changed after you started editing" in w.value for w in at.warning)
    assert any(e["name"] == "Invoice" for e in saved(workspace_dir)["entities"])  # and so does the edit

    at.button(key="model.raw_discard").click().run()
    box = _raw_box(at, workspace_dir).value
    assert "name: Invoice" in box and "typed in the YAML box" not in box
    assert not any("changed after you started editing" in w.value for w in at.warning)


def test_applying_typed_yaml_saves_it_and_the_box_then_follows_the_model(workspace_dir: Path) -> None:
    at = model_page()
    typed = yaml.safe_load(_raw_box(at, workspace_dir).value)
    typed["description"] = "applied from YAML"
    _raw_box(at, workspace_dir).input(yaml.safe_dump(typed, sort_keys=False))
    at.button(key="model.raw_apply").click().run()
    assert not at.exception
    assert saved(workspace_dir)["description"] == "applied from YAML"
    add_entity_in_the_grid(at, "Invoice")
    box = _raw_box(at, workspace_dir).value
    assert "applied from YAML" in box and "name: Invoice" in box


def test_typing_an_earlier_yaml_text_back_and_applying_it_applies_it(workspace_dir: Path) -> None:
    """A stranger's session: 61000, Apply; 62000, Apply; 61000, Apply left the model at 62000 and the box reverted
    (the text had been shown before, so it was taken for the box's own, not the user's)."""
    at = model_page()
    for count in (61000, 62000, 61000):
        typed = yaml.safe_load(_raw_box(at, workspace_dir).value)
        typed["entities"][0]["item_count"] = count
        _raw_box(at, workspace_dir).input(yaml.safe_dump(typed, sort_keys=False))
        at.button(key="model.raw_apply").click().run()
        assert saved(workspace_dir)["entities"][0]["item_count"] == count
        assert f"item_count: {count}" in _raw_box(at, workspace_dir).value


def test_bad_yaml_is_refused_the_model_is_unchanged_and_the_text_is_kept(workspace_dir: Path) -> None:
    at = model_page()
    before = saved(workspace_dir)
    _raw_box(at, workspace_dir).input("name: [unclosed")
    at.button(key="model.raw_apply").click().run()
    assert not at.exception
    assert any("YAML syntax error" in e.value for e in at.error)
    assert saved(workspace_dir) == before
    assert _raw_box(at, workspace_dir).value == "name: [unclosed"


def test_a_typed_attribute_row_without_a_name_is_kept_as_a_draft_with_its_problem(workspace_dir: Path) -> None:
    at = model_page()
    entity = at.selectbox(key=scoped(at, "attributes_entity")).value
    at.session_state[scoped(at, f"attributes.{entity}.editor.0")] = {
        "edited_rows": {}, "added_rows": [{"type": "N", "description": "credits left"}], "deleted_rows": []}
    at.run()
    assert not at.exception
    stored = next(e for e in saved(workspace_dir)["entities"] if e["name"] == entity)
    assert {"type": "N", "description": "credits left"} in stored["attributes"]
    assert at.error or any("name" in w.value for w in at.warning)  # the missing name is shown


def test_a_new_row_holding_only_preset_cells_is_not_saved_and_stays_in_the_grid(workspace_dir: Path) -> None:
    at = model_page()
    before = saved(workspace_dir)
    at.session_state[scoped(at, "patterns.editor.0")] = {
        "edited_rows": {}, "added_rows": [{"kind": "read_one"}], "deleted_rows": []}
    at.run()
    assert saved(workspace_dir) == before
    # the grid is not re-created (same version), so the row the user is about to type into stays
    assert grid_version(at, "patterns") == 0


def test_the_check_link_opens_hot_partitions_on_the_findings_index_with_the_same_model(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/start.py").run()
    at.button(key="start.open.student_platform_mistakes").click().run()
    at.switch_page("pages/layout.py").run()
    findings = at.radio(key=scoped(at, "layout.finding"))
    assert findings.value.startswith("⛔ DDS101") and "GSI1" in findings.value
    opened = at.query_params["model"]
    at.button(key="layout.to_hot").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value.startswith("Hot partitions · ")
    assert at.query_params["model"] == opened  # the same model, not the most recent one
    assert at.selectbox(key=scoped(at, "hot.index")).value == "GSI1"  # where the finding is, not the table


def test_an_unknown_model_in_a_link_is_said_not_silently_replaced(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["model"] = "no-such-model"
    at.run()
    assert any('There is no model "no-such-model"' in e.value for e in at.error)


def test_start_shows_the_design_findings_not_only_the_model_errors(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/start.py").run()
    at.button(key="start.open.student_platform_mistakes").click().run()
    at.switch_page("pages/start.py").run()
    assert next(m for m in at.metric if m.label == "Model errors").value == "0"
    findings = next(m for m in at.metric if m.label == "Design errors · warnings").value
    # the Layout page lists the same design's findings: the mistakes example has errors there
    at.switch_page("pages/layout.py").run()
    layout_errors = sum(o.startswith("⛔") for o in at.radio(key=scoped(at, "layout.finding")).options)
    assert layout_errors > 0 and findings.startswith(f"{layout_errors} · ")


def test_a_new_model_from_the_start_page_is_valid_and_opens_on_the_model_page(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/start.py").run()
    at.text_input(key="start.new.entity").input("Ticket")
    at.text_input(key="start.new.identifier").input("ticketId")
    at.button(key="FormSubmitter:start.new_model-Create and open on the Model page").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Model · My application"
    stored = saved(workspace_dir)
    assert stored["entities"][0]["identifiers"] == ["ticketId"]
    assert stored["access_patterns"][0]["name"] == "get_ticket_by_ticket_id"
    assert any("The model is valid" in s.value for s in at.success)


def _version(at: AppTest, grid: str) -> int:
    return grid_version(at, grid)


def test_a_grid_whose_rows_an_edit_elsewhere_leaves_alone_keeps_its_key_and_keeps_that_edit(
        workspace_dir: Path) -> None:
    # Re-drawing every grid after a commit in one of them mounted new grids in the browser, and keys
    # typed into the next cell meanwhile were lost (tests/e2e/test_fast_typing_browser.py, issue 14.2).
    at = model_page()
    before = _version(at, "relationships")
    add_entity_in_the_grid(at, "Invoice")
    assert _version(at, "relationships") == before  # its rows did not change: same grid, same key

    first = saved(workspace_dir)["relationships"][0]["name"]
    at.session_state[scoped(at, f"relationships.editor.{before}")] = {
        "edited_rows": {0: {"cardinality_mean": "7"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception, at.exception
    document = saved(workspace_dir)
    # the relationship edit is applied to the model as it is now: the entity added meanwhile stays
    assert any(e["name"] == "Invoice" for e in document["entities"])
    relationship = next(r for r in document["relationships"] if r["name"] == first)
    assert relationship["cardinality"]["mean"] == 7


def test_a_grid_with_edits_of_its_own_is_drawn_again_when_another_grid_changes_the_model(
        workspace_dir: Path) -> None:
    at = model_page()
    before = _version(at, "relationships")
    at.session_state[scoped(at, f"relationships.editor.{before}")] = {
        "edited_rows": {0: {"cardinality_mean": "7"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    add_entity_in_the_grid(at, "Invoice")
    # its cumulative edits were applied to the older model: it starts again from the model as it is now,
    # so a later commit in it cannot re-apply them on top of the entity just added
    assert _version(at, "relationships") == before + 1
    document = saved(workspace_dir)
    assert any(e["name"] == "Invoice" for e in document["entities"])
    assert document["relationships"][0]["cardinality"]["mean"] == 7
