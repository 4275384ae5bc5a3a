"""Issues #14.4 and #15.7 on the real page script: two tabs on one model, failed saves, damaged drafts.

Two AppTest sessions on one workspace folder are two browser tabs on one server: each has its own
session state and both save into the same drafts.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from modeling.workspace.folder import Workspace
from tests.markdown_checks import live_markdown, unescape
from tests.pages.model_page import add_entity_in_the_grid, model_page, saved, scoped, set_grid_edits

ROOT = Path(__file__).resolve().parents[2]


def _entity_names(document: dict) -> set[str]:
    return {e["name"] for e in document["entities"]}


def _conflict_shown(at: AppTest) -> bool:
    return any("saved in another tab or by someone else" in w.value for w in at.warning)


def test_a_second_tabs_stale_edit_is_not_saved_over_the_first_and_merges_on_request(workspace_dir: Path) -> None:
    tab_a, tab_b = model_page(), model_page()
    add_entity_in_the_grid(tab_a, "Invoice")
    add_entity_in_the_grid(tab_b, "Refund")  # tab B still holds the model as it was before A's edit

    assert "Invoice" in _entity_names(saved(workspace_dir))  # A's edit was not overwritten
    assert "Refund" not in _entity_names(saved(workspace_dir))
    assert _conflict_shown(tab_b)

    tab_b.button(key="save_status.merge").click().run()
    assert {"Invoice", "Refund"} <= _entity_names(saved(workspace_dir))
    assert not _conflict_shown(tab_b)


def test_keep_mine_saves_theirs_as_a_copy(workspace_dir: Path) -> None:
    tab_a, tab_b = model_page(), model_page()
    add_entity_in_the_grid(tab_a, "Invoice")
    add_entity_in_the_grid(tab_b, "Refund")
    tab_b.button(key="save_status.keep_mine").click().run()
    space = Workspace(workspace_dir)
    documents = [space.load(d.slug) for d in space.drafts()]
    mine = [d for d in documents if "Refund" in _entity_names(d)]
    theirs = [d for d in documents if d["name"].endswith("(their version)")]
    assert len(mine) == 1 and "Invoice" not in _entity_names(mine[0])
    assert len(theirs) == 1 and "Invoice" in _entity_names(theirs[0])


def test_a_tab_without_pending_edits_shows_the_other_tabs_save(workspace_dir: Path) -> None:
    tab_a, tab_b = model_page(), model_page()
    add_entity_in_the_grid(tab_a, "Invoice")
    tab_b.run()
    assert not _conflict_shown(tab_b)
    assert any("Invoice" in str(cell) for cell in tab_b.session_state["model.document"].document["entities"])


def test_an_edit_that_cannot_be_saved_is_kept_and_the_page_says_so(workspace_dir: Path) -> None:
    tab = model_page()
    (workspace_dir / ".lock").unlink()
    (workspace_dir / ".lock").mkdir()  # every save now fails in the filesystem (root ignores permissions)
    add_entity_in_the_grid(tab, "Invoice")
    assert any("Your last edit is not saved" in e.value for e in tab.error)
    assert "Invoice" in _entity_names(tab.session_state["model.document"].document)  # kept in the tab
    (workspace_dir / ".lock").rmdir()
    tab.button(key="save_status.retry").click().run()
    assert "Invoice" in _entity_names(saved(workspace_dir))


def test_a_damaged_draft_is_never_overwritten(workspace_dir: Path) -> None:
    tab = model_page()
    space = Workspace(workspace_dir)
    slug = space.most_recent()
    damaged = b'{"format": "dynamodb-design-studio/model", "version": 1, "name": [unclosed'
    (workspace_dir / f"{slug}.json").write_bytes(damaged)
    tab.run()
    assert any("could not be read" in e.value for e in tab.error)
    add_entity_in_the_grid(tab, "Invoice")
    assert (workspace_dir / f"{slug}.json").read_bytes() == damaged  # the original bytes are untouched
    assert any("Invoice" in _entity_names(space.load(d.slug)) for d in space.drafts())


def test_a_table_form_opened_before_another_tabs_rename_keeps_the_rename(workspace_dir: Path) -> None:
    tab_a, tab_b = model_page(), model_page()
    tab_a.text_input(key=scoped(tab_a, "table_form.name")).input("Renamed in tab A")
    tab_a.run()  # a field is saved when it is left (no form)
    tab_b.run()  # tab B's form was opened before the rename: it now shows the rename, and says so
    assert any("Updated from a newer save of the model: name" in c.value for c in tab_b.caption)
    assert tab_b.text_input(key=scoped(tab_b, "table_form.name")).value == "Renamed in tab A"
    tab_b.text_area(key=scoped(tab_b, "table_form.description")).input("Described in tab B")
    tab_b.run()  # a field is saved when it is left (no form)
    stored = saved(workspace_dir)
    assert stored["name"] == "Renamed in tab A"  # B did not write its stale name back
    assert stored["description"] == "Described in tab B"


def test_a_row_number_from_a_stale_table_never_edits_another_row(workspace_dir: Path) -> None:
    tab_a, tab_b = model_page(), model_page()
    first = saved(workspace_dir)["entities"][0]["name"]
    second = saved(workspace_dir)["entities"][1]["name"]
    tab_a.session_state[scoped(tab_a, "entities.editor.0")] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [0]}
    tab_a.run()
    # tab B still shows the first entity in row 0 and edits row 1, the second entity
    tab_b.session_state[scoped(tab_b, "entities.editor.0")] = {
        "edited_rows": {1: {"item_count": 777}}, "added_rows": [], "deleted_rows": []}
    tab_b.run()
    assert _conflict_shown(tab_b)
    tab_b.button(key="save_status.merge").click().run()
    entities = {e["name"]: e for e in saved(workspace_dir)["entities"]}
    assert first not in entities  # A's deletion stands
    assert entities[second]["item_count"] == 777  # B's edit landed on the entity B saw in that row


def test_a_value_both_tabs_changed_is_asked_about_and_every_other_change_of_both_is_kept(workspace_dir: Path) -> None:
    """Issue 26: the merge keeps what does not conflict and asks about what does (never deletes either side)."""
    for round_, keep in enumerate(("mine", "theirs")):
        theirs, mine, other = 111 + round_, 222 + round_, 333 + round_
        tab_a, tab_b = model_page(), model_page()
        first = saved(workspace_dir)["entities"][0]["name"]
        set_grid_edits(tab_a, "entities", {"edited_rows": {0: {"item_count": str(theirs)}}})
        # tab B still shows the model from before A's save: the same cell, differently, and another row
        set_grid_edits(tab_b, "entities",
                       {"edited_rows": {0: {"item_count": str(mine)}, 1: {"item_count": str(other)}}})
        assert _conflict_shown(tab_b)
        [choice] = [r for r in tab_b.radio if unescape(r.label).endswith("item_count")]
        assert unescape(choice.label) == f"entities[{first}].item_count"
        choice.set_value(keep).run()
        tab_b.button(key="save_status.merge").click().run()
        entities = saved(workspace_dir)["entities"]
        assert (entities[0]["item_count"], entities[1]["item_count"]) == (mine if keep == "mine" else theirs, other)
        assert not _conflict_shown(tab_b)


def test_a_field_both_tabs_saved_in_the_table_form_is_a_conflict_not_an_overwrite(workspace_dir: Path) -> None:
    """A stranger's two-tab session: B's form save wrote over A's description without a word."""
    tab_a, tab_b = model_page(), model_page()
    tab_a.text_area(key=scoped(tab_a, "table_form.description")).input("A3")
    tab_a.run()  # a field is saved when it is left (no form)
    # B typed into its field before it saw A's save (its fields were set before it)
    tab_b.text_area(key=scoped(tab_b, "table_form.description")).input("B4")
    tab_b.run()  # a field is saved when it is left (no form)
    assert saved(workspace_dir)["description"] == "A3"  # not overwritten
    assert _conflict_shown(tab_b)
    [choice] = [r for r in tab_b.radio if unescape(r.label) == "description"]
    choice.set_value("mine").run()
    tab_b.button(key="save_status.merge").click().run()
    assert saved(workspace_dir)["description"] == "B4"


def test_the_conflict_panel_shows_hostile_names_as_text_never_a_link_or_image(workspace_dir: Path) -> None:
    """Issue 30.3: the changed paths hold entity names; one shaped as a link and an image showed a live
    phishing link and fetched the image above the merge buttons."""
    hostile = "Evil](x) ![c](http://h/b.png) [Reload your work here](http://h/phish)"
    tab_a, tab_b = model_page(), model_page()
    set_grid_edits(tab_a, "entities", {"edited_rows": {0: {"name": hostile}}})
    set_grid_edits(tab_b, "entities", {"edited_rows": {0: {"item_count": "7"}}})
    assert _conflict_shown(tab_b)
    panel = [c.value for c in tab_b.caption if c.value.startswith(("They changed", "You changed"))]
    assert len(panel) == 2 and any(hostile in unescape(text) for text in panel)
    assert not [part for text in panel for part in live_markdown(text)]
