"""Issue #14.2: typing fast into the Model page's grids loses nothing (a real browser, a real server).

Two causes were found with a bare Streamlit data editor and with this page: the grid's number editor
dropped the keys typed while it opened ("1500" typed at 60 ms a key into a selected cell saved 500, at
10 ms nothing; text cells kept every key on an idle machine, so numbers are typed as text and read by
the domain), and the page re-created the grid after each commit, which dropped what was typed into the
next cell meanwhile (this test saved [1500, 2400000] before the fix). It still did, 3 runs in 4, while the
page re-created the page's *other* grids after each commit: mounting three new grids kept the browser's
main thread busy for a second or more, and the keys typed meanwhile raced the opening cell editor (the
WebSocket showed no second edit ever sent). Grids whose rows an edit leaves alone now keep their key.
That still lost the second number on a loaded machine (3 of 8 runs that reached the typing, beside a
CPU hog at load average ~18): a trace (keydown listener, MutationObserver, WebSocket frames) showed
every key of "2500" reaching the second cell's open editor and its Enter closing it, no grid remounted,
but no second rerun request ever sent; the first commit's whole-page run took ~20 s, its first deltas
arriving while the second editor was open. The grid's edits are sent from the browser through a 150 ms
debounce (Streamlit 1.67's DataFrame.js, useDebouncedCallback). Running each grid tab as an st.fragment
(a commit reruns only its tab) was tried and measured: still 2 lost of 9 (60 ms: 1 of 6; 10 ms: 1 of
3), so it was not kept. The loss is in the browser's grid while a rerun's deltas arrive; not yet fixed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from modeling.workspace.folder import Workspace
from tests.e2e.conftest import Server, assert_no_exception, eventually, wait_until_idle

pytestmark = pytest.mark.e2e


# 60 ms a key, the speed, and 10 ms. The first render can take over 30 s on a loaded machine;
# the waits before typing allow for it (they are not what is tested). Not yet reliable (issue 14.2 stays
# open): non-strict, so that each run reports XPASS or XFAIL.
@pytest.mark.xfail(strict=False, reason="a number committed in the next cell while the first commit's rerun "
                   "draws can be lost in the browser's grid, never sent, on a busy machine (issue 14.2)")
@pytest.mark.parametrize("delay_ms", [60, 10])
def test_numbers_typed_fast_into_two_cells_in_a_row_are_both_saved(page: Page, server: Server, tmp_path: Path,
                                                                    delay_ms: int) -> None:
    page.goto(f"{server.url}/model")
    expect(page.get_by_role("heading", level=1)).to_have_text("Model · Student platform", timeout=120_000)
    wait_until_idle(page)
    page.get_by_role("tab", name="Entities & attributes").click()
    grid = page.locator('[data-testid="stDataFrame"]').first
    expect(grid).to_contain_text("Tenant", timeout=60_000)
    wait_until_idle(page)
    page.wait_for_timeout(4000)  # the canvas grid takes input once drawn (slow on a busy machine)
    saved = Workspace(tmp_path / "browser-workspace")

    def counts() -> list:
        return [e.get("item_count") for e in saved.load(saved.most_recent())["entities"][:2]]

    for _ in range(3):  # a busy machine may drop the very first keys before the canvas has focus: retry those
        box = grid.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + 70, box["y"] + 35 + 17)  # row 0, first column
        page.wait_for_timeout(300)
        for _ in range(2):  # to the "Items" column
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(150)
        for text in ("1500", "2500"):  # straight on into the next row, while the first edit's rerun runs
            page.keyboard.press("Enter")  # open the cell's editor
            page.keyboard.press("Control+A")
            page.keyboard.type(text, delay=delay_ms)
            page.keyboard.press("Enter")  # commit, and move to the next row
        if eventually(lambda: counts()[0] == 1500, 15):
            break
        wait_until_idle(page)
    assert counts()[0] == 1500, "the first edit never reached the page"
    # the second edit, typed while the first one's rerun ran, is not lost
    assert eventually(lambda: counts() == [1500, 2500], 20), counts()
    wait_until_idle(page)
    page.get_by_role("tab", name="File").click()  # the YAML box shows both edits (14.3)
    both = re.compile(r"item_count: 1500\b[\s\S]*item_count: 2500\b")
    expect(page.get_by_role("textbox", name="Model file")).to_have_value(both, timeout=60_000)
    assert_no_exception(page)
