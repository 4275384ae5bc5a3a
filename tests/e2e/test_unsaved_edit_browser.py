"""Nothing typed is lost when the user leaves the Model page without pressing Enter or Tab (a stranger's
real-browser session): a grid cell typed into, or the Table & traffic Description, then a click on another
page in the sidebar. Both came back empty and nothing was saved: the grid's edit reached the server only in
the navigation's rerun, which ran the other page (so nothing applied it, and Streamlit dropped the grid's
state at the end of that run), and the table settings were a form, whose fields never leave the browser
until its button is pressed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from modeling.workspace.folder import Workspace
from tests.e2e.conftest import Server, assert_no_exception, cell, eventually, grid, wait_until_idle

pytestmark = pytest.mark.e2e

# The press commits the edit and its rerun of the Model page starts; the release, this long after, stops that
# run to show the other page. Before the fix an edit was applied only part-way down the Model page, later.
HOLD_MS = 40


def _saved(tmp_path: Path) -> dict:
    space = Workspace(tmp_path / "browser-workspace")
    return space.load(space.most_recent())


def _nav(page: Page, title: str, heading: str) -> None:
    """Click a page's link in the sidebar as a hand does (the button held down a moment: the field typed into
    loses the focus on the press, and the page changes on the release) and wait for the page's title."""
    words = re.escape(title).replace("\\ \\&\\ ", " (&|and) ").replace("\\ ", " ")  # "capacity and cost" in pages/ mode
    page.locator('[data-testid="stSidebarNav"] a', has_text=re.compile(f"(^|\\W){words}$", re.IGNORECASE)).hover()
    page.mouse.down()
    page.wait_for_timeout(HOLD_MS)
    page.mouse.up()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(f"^{re.escape(heading)}"), timeout=30_000)


def _open_model_page(page: Page, server: Server) -> None:
    """The app's address, then Model in the sidebar, as a user arrives (app.py is the router)."""
    page.goto(server.url)
    wait_until_idle(page)
    _nav(page, "Model", "Model · Student platform")
    wait_until_idle(page)


def _select_entity_cell(page: Page, server: Server, column: str) -> None:
    """The Model page's entities grid, drawn and idle, with the first entity's `column` cell selected."""
    _open_model_page(page, server)
    page.get_by_role("tab", name="Entities & attributes").click()
    entities = grid(page, 0)
    expect(cell(entities, "Entity", 1)).to_have_value("Tenant")
    wait_until_idle(page)
    cell(entities, column, 1).click()


@pytest.mark.parametrize(("column", "text", "field"), [("Description", "Pays the bills", "description"),
                                                        ("Growth %/month", "7", "monthly_growth_percent")])
def test_a_cell_typed_into_then_another_page_clicked_is_saved(page: Page, server: Server, tmp_path: Path,
                                                             column: str, text: str, field: str) -> None:
    _select_entity_cell(page, server, column)
    page.keyboard.type(text, delay=20)  # typing on a selected cell replaces it; no Enter, no Tab
    _nav(page, "Layout", "Layout")
    # 7 typed into "Growth %/month" is 7 (editing.NUMBER_COLUMNS reads a number typed as text)
    expected = 7 if field == "monthly_growth_percent" else text
    assert eventually(lambda: _saved(tmp_path)["entities"][0].get(field) == expected, 30), _saved(tmp_path)
    wait_until_idle(page)
    _nav(page, "Model", "Model")
    page.get_by_role("tab", name="Entities & attributes").click()
    expect(cell(grid(page, 0), column, 1)).to_have_value(text)
    assert_no_exception(page)


def test_the_table_description_typed_then_another_page_clicked_is_saved(page: Page, server: Server,
                                                                       tmp_path: Path) -> None:
    _open_model_page(page, server)
    wait_until_idle(page)
    description = page.get_by_label("Description")
    description.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("Typed and left", delay=20)  # no Ctrl+Enter, no Tab, no button
    _nav(page, "Capacity & cost", "Capacity")
    assert eventually(lambda: _saved(tmp_path).get("description") == "Typed and left", 30), _saved(tmp_path)
    wait_until_idle(page)
    _nav(page, "Model", "Model")
    expect(page.get_by_label("Description")).to_have_value("Typed and left")
    assert_no_exception(page)



@pytest.mark.parametrize("field_label", ["Description", "Table name"])
def test_a_table_field_typed_then_another_page_clicked_at_once_shows_every_field(page: Page, server: Server,
                                                                                tmp_path: Path,
                                                                                field_label: str) -> None:
    """The click a script makes (press and release at once, Playwright's default; a touchpad's tap is as fast) on
    a sidebar page while a table field holds unsaved text. The browser sent the field's value after the click's
    page change: the Model page stayed, the text was sometimes lost (3 of 10 in a stranger's session,
    2026-12-03), and once Model name, Description and Table name showed blank until a reload. Now the text is
    saved, the other page shows, and every field shows the model when the user comes back."""
    _open_model_page(page, server)
    wait_until_idle(page)
    before = _saved(tmp_path)
    page.get_by_label(field_label, exact=True).click()
    page.keyboard.press("Control+A")
    page.keyboard.type("Clicked away", delay=20)
    page.locator('[data-testid="stSidebarNav"] a', has_text=re.compile(r"(^|\W)Layout$", re.IGNORECASE)).click()
    document_field = "description" if field_label == "Description" else "table"
    assert eventually(lambda: "Clicked away" in str(_saved(tmp_path).get(document_field)), 30), _saved(tmp_path)
    # the click is not lost either: the page it names shows (ui/nav_guard.py holds it until the field's value left)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("^Layout"), timeout=30_000)
    wait_until_idle(page)
    _nav(page, "Model", "Model")
    wait_until_idle(page)
    expect(page.get_by_label(field_label, exact=True)).to_have_value("Clicked away")
    expect(page.get_by_label("Model name", exact=True)).to_have_value(before["name"])
    expect(page.get_by_label("TTL attribute", exact=True)).to_have_value(before["table"]["ttl_attribute"])
    if field_label != "Table name":
        expect(page.get_by_label("Table name", exact=True)).to_have_value(before["table"]["name"])
    assert_no_exception(page)


@pytest.mark.parametrize(("column", "text", "field"), [("Description", "Tapped away", "description")])
def test_a_cell_typed_into_then_another_page_clicked_at_once_is_saved_and_the_page_changes(
        page: Page, server: Server, tmp_path: Path, column: str, text: str, field: str) -> None:
    """The grid's cell, left by a click as fast as a script's: the grid posts its value from its frame after the
    click's page change, and the Model page's grid was gone by then (5 of 6 edits lost before ui/nav_guard.py)."""
    _select_entity_cell(page, server, column)
    page.keyboard.type(text, delay=20)
    page.locator('[data-testid="stSidebarNav"] a', has_text=re.compile(r"(^|\W)Layout$", re.IGNORECASE)).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("^Layout"), timeout=30_000)
    assert eventually(lambda: _saved(tmp_path)["entities"][0].get(field) == text, 30), _saved(tmp_path)
    assert_no_exception(page)
