"""Issue #14.2: typing fast into the Model page's grids loses nothing (a real browser, a real server).

Streamlit's canvas grid lost keys typed while its cell editor opened or while a rerun's deltas arrived:
"1500" typed at 60 ms a key saved 500, and a second number typed straight on in the next row was lost 1 run
in 4 even on an idle machine (the cell never took the value). The grids are now `ui.grid`, whose cells
are inputs from the start: these tests type at 60 ms, 10 ms and 0 ms a key, with no retry, and every key
must arrive. The second test checks the grid's other edits (add a row, a select's default, a checkbox,
Escape, delete a row) reach the saved model, and that the YAML box shows them (14.3).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from modeling.workspace.folder import Workspace
from tests.e2e.conftest import (
    Server,
    assert_no_exception,
    cell,
    eventually,
    grid,
    open_page,
    type_into_cell,
    wait_until_idle,
)

pytestmark = pytest.mark.e2e


def _saved(tmp_path: Path) -> dict:
    space = Workspace(tmp_path / "browser-workspace")
    return space.load(space.most_recent())


def _type_rounds(page: Page, tmp_path: Path, rounds: tuple[tuple[int, list[str]], ...]) -> None:
    entities = grid(page, 0)
    expect(cell(entities, "Entity", 1)).to_have_value("Tenant")

    def counts() -> list:
        return [e.get("item_count") for e in _saved(tmp_path)["entities"][:3]]

    # straight on from row to row (Enter commits and moves down), while each commit's rerun runs
    for delay_ms, texts in rounds:
        cell(entities, "Items", 1).click()
        for text in texts:
            page.keyboard.press("Enter")
            page.keyboard.press("Control+A")
            page.keyboard.type(text, delay=delay_ms)
            page.keyboard.press("Enter")
        expected = [int(float(t.replace(",", ""))) for t in texts]
        assert eventually(lambda expected=expected: counts() == expected, 30), (
            delay_ms, counts(), [cell(entities, "Items", row).input_value() for row in (1, 2, 3)],
            page.locator('[data-testid="stAlert"]').all_inner_texts())


def test_numbers_typed_fast_into_cells_in_a_row_are_all_saved(page: Page, server: Server, tmp_path: Path) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    page.get_by_role("tab", name="Entities & attributes").click()
    _type_rounds(page, tmp_path, ((60, ["1500", "2500", "3500"]), (10, ["4,000", "5e3", "6"])))
    wait_until_idle(page)
    page.get_by_role("tab", name="File").click()
    both = re.compile(r"item_count: 4000\b[\s\S]*item_count: 5000\b[\s\S]*item_count: 6\b")
    expect(page.get_by_role("textbox", name="Model file")).to_have_value(both, timeout=60_000)
    assert_no_exception(page)


# At 0 ms a key (three commits within milliseconds), one clean-clone CI run in three showed a false save
# conflict: a run stopped by the next key's rerun after its save but before recording it, so the next
# save named the version before and was refused as if another tab had saved. The cause is fixed and
# tested at every stop point in tests/pages/test_interrupted_save.py; this is the browser's view of it.
def test_numbers_typed_with_no_delay_are_all_saved(page: Page, server: Server, tmp_path: Path) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    page.get_by_role("tab", name="Entities & attributes").click()
    _type_rounds(page, tmp_path, ((0, ["11", "22", "33"]),))
    assert_no_exception(page)


def test_rows_added_edited_and_deleted_in_a_grid_reach_the_saved_model(page: Page, server: Server,
                                                                       tmp_path: Path) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    page.get_by_role("tab", name="Entities & attributes").click()
    attributes = grid(page, 1)  # Tenant's attributes

    def tenant_attributes() -> dict[str, dict]:
        tenant = next(e for e in _saved(tmp_path)["entities"] if e["name"] == "Tenant")
        return {a["name"]: a for a in tenant["attributes"]}

    before = tenant_attributes()
    rows = len(before)
    attributes.get_by_role("button", name="Add a row").click()
    # typing on a selected cell replaces it, as in a spreadsheet; the new row's Type starts at S
    name = "region_as_the_tenant_typed_it_on_the_sign_up_form_" * 3  # wider than its cell
    cell(attributes, "Attribute", rows + 1).click()
    page.keyboard.type(name, delay=0)
    page.keyboard.press("Enter")
    cell(attributes, "Attribute", rows + 1).hover()  # a text cut off in its cell shows whole on hover
    expect(cell(attributes, "Attribute", rows + 1)).to_have_attribute("title", name)
    cell(attributes, "Type", rows + 1).hover()
    # a new row starts as an attribute the model would hold without those cells: Type S, required
    expect(cell(attributes, "Type", rows + 1)).to_have_value("S")
    expect(cell(attributes, "Required", rows + 1)).to_be_checked()
    assert eventually(lambda: tenant_attributes().get(name, {}).get("type") == "S", 30), tenant_attributes()
    assert "required" not in tenant_attributes()[name]  # required is the default: not written
    cell(attributes, "Required", rows + 1).uncheck()
    assert eventually(lambda: tenant_attributes()[name].get("required") is False, 30), tenant_attributes()

    # Escape gives the cell back its text and commits nothing; the next edit is a barrier
    first = next(iter(before))
    avg = cell(attributes, "Avg bytes", 1)
    old_avg = avg.input_value()
    avg.click()
    page.keyboard.press("Enter")
    page.keyboard.type("999")
    page.keyboard.press("Escape")
    expect(avg).to_have_value(old_avg)
    type_into_cell(page, attributes, "Max bytes", 1, "4321", delay_ms=0)
    assert eventually(lambda: tenant_attributes()[first].get("max_size_bytes") == 4321, 30), tenant_attributes()
    assert tenant_attributes()[first].get("avg_size_bytes") == before[first].get("avg_size_bytes")

    attributes.get_by_role("button", name=f"Delete row {rows + 1}").click()
    assert eventually(lambda: name not in tenant_attributes(), 30), tenant_attributes()
    assert set(tenant_attributes()) == set(before)
    assert_no_exception(page)
