"""Issue 26, items 1-3 in a real browser, as the user did them: state typed for one model never reaches another.

1. An edit on Layout → Overrides of Lesson 3's model, then Lesson 2's step opened from the Lessons page: the
   heading, the sidebar and the URL name Lesson 2, and after another page ran, Lesson 2's file is Lesson 2's
   step and Lesson 3's holds the edit.
2. Attributes given to entities one after another with "Attributes of", a generator saved, then an earlier
   entity chosen again: no conflict banner, and every attribute typed is on disk.
3. The Table & traffic form of model A, then model B picked in the sidebar: the form shows B's fields, and
   saving it changes only the field the user changed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from editing import new_document
from modeling.examples import example_document
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
from workshop.lessons import LESSONS

pytestmark = pytest.mark.e2e

CONFLICT = "saved in another tab or by someone else"


def _nav(page: Page, title: str) -> None:
    """Go to a page through the sidebar (the same browser session, as a user does): its link is the page's
    title, or its file name where the server lists pages/ ("capacity and cost")."""
    wait_until_idle(page)
    words = re.escape(title).replace("\\ \\&\\ ", " (&|and) ").replace("\\ ", " ")
    page.locator('[data-testid="stSidebarNav"] a', has_text=re.compile(f"(^|\\W){words}$", re.IGNORECASE)).click()


def _choose(page: Page, label: str, option: str, attempts: int = 3) -> None:
    """Pick an option of a select box; open it again if a rerun closed its list before the click."""
    box = page.get_by_test_id("stSelectbox").filter(has=page.get_by_text(label, exact=True))
    for attempt in range(attempts):
        wait_until_idle(page)
        box.get_by_role("combobox").click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=10_000)
            break
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
            if attempt == attempts - 1:
                raise
    wait_until_idle(page)


def _open_lesson_step(page: Page, lesson_index: int) -> None:
    """On the Lessons page: choose the lesson, then open its first step's model on its page."""
    lesson = LESSONS[lesson_index]
    _choose(page, "Lesson", f"{lesson.number}. {lesson.title}")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Lesson {lesson.number} · {lesson.title}",
                                                               timeout=30_000)
    step = lesson.steps[0]
    wait_until_idle(page)
    page.get_by_role("button", name=f"Open this step's model and go to {step.page.title}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{step.page.title} · {lesson.model_name}",
                                                               timeout=60_000)
    wait_until_idle(page)


def test_an_override_then_another_lessons_step_leaves_each_model_its_own(page: Page, server: Server, tmp_path: Path,
                                                                         external_requests: list[str]) -> None:
    workspace = Workspace(tmp_path / "browser-workspace")
    lesson2, lesson3 = LESSONS[1], LESSONS[2]
    assert lesson3.steps[0].page.title == "Layout" and lesson2.steps[0].page.title == "Layout"
    open_page(page, f"{server.url}/lessons", f"Lesson {LESSONS[0].number} · {LESSONS[0].title}")
    _open_lesson_step(page, 2)
    page.get_by_role("tab", name="Overrides").click()
    wait_until_idle(page)
    templates = grid(page, 0)
    expect(cell(templates, "Sort key template", 1)).to_have_value("PROFILE", timeout=30_000)
    type_into_cell(page, templates, "Sort key template", 1, "PROFILE2")
    assert eventually(lambda: workspace.load(lesson3.model_slug)["key_design"]["entities"][0]["table"]["sort_key"]
                      == "PROFILE2")

    _nav(page, "Lessons")
    _open_lesson_step(page, 1)
    assert re.search(rf"model={lesson2.model_slug}(&|$)", page.url)
    expect(page.get_by_test_id("stSidebar")).to_match_aria_snapshot(
        f'- combobox "Open model": /.*{re.escape(lesson2.model_slug)}.*/')
    _nav(page, "Capacity & cost")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Capacity & cost · {lesson2.model_name}",
                                                               timeout=60_000)
    wait_until_idle(page)
    assert workspace.load(lesson2.model_slug) == lesson2.placed(lesson2.steps[0].document())
    edited = workspace.load(lesson3.model_slug)
    assert edited["name"] == lesson3.model_name
    assert edited["key_design"]["entities"][0]["table"]["sort_key"] == "PROFILE2"
    assert {d.slug for d in workspace.drafts()} >= {lesson2.model_slug, lesson3.model_slug}
    assert not [d for d in workspace.drafts() if d.name.endswith("(my edits)")]  # nothing the user did not make
    assert_no_exception(page)
    assert external_requests == []


def test_attributes_of_entities_one_after_another_never_conflict(page: Page, server: Server, tmp_path: Path,
                                                                 external_requests: list[str]) -> None:
    workspace = Workspace(tmp_path / "browser-workspace")
    open_page(page, server.url, "DynamoDB Design Studio")
    wait_until_idle(page)
    page.get_by_role("button", name="➕ New empty model").click()
    expect(page).to_have_url(re.compile(r"model=new-model"), timeout=30_000)
    _nav(page, "Model")
    expect(page.get_by_role("heading", level=1)).to_have_text("Model · New model", timeout=30_000)
    page.get_by_role("tab", name="Entities & attributes").click()
    wait_until_idle(page)
    names = ["Author", "Book", "Member", "Loan"]
    slug = workspace.most_recent()
    for row, name in enumerate(names, start=1):
        entities = grid(page, 0) if row > 1 else page.frame_locator('iframe[title="ui.grid.editable_grid"]').first
        entities.get_by_role("button", name="Add a row").click()
        type_into_cell(page, entities, "Entity", row, name)
        # each entity saved before the next row is added, as for the attributes below: wait_until_idle alone
        # can return before a slow run shows its status widget, and a row added while that run redraws the grid
        # was typed into the row above (a loaded CI run saved Author, Member, Loan: Member had replaced Book)
        assert eventually(lambda n=row: [e["name"] for e in workspace.load(slug).get("entities", [])] == names[:n])
        wait_until_idle(page)
    assert [e["name"] for e in workspace.load(slug)["entities"]] == names
    for name in names:
        _choose(page, "Attributes of", name)
        attributes = grid(page, 1) if workspace.load(slug)["entities"][names.index(name)].get("attributes") else \
            page.frame_locator('iframe[title="ui.grid.editable_grid"]').nth(1)
        attributes.get_by_role("button", name="Add a row").click()
        type_into_cell(page, attributes, "Attribute", 1, f"{name.lower()}Id")
        assert eventually(lambda n=name: [a["name"] for a in next(
            e for e in workspace.load(slug)["entities"] if e["name"] == n).get("attributes", [])] == [f"{n.lower()}Id"])
        wait_until_idle(page)
    # a generator for the last entity's attribute (the form opens on uuid), saved with its form
    page.get_by_role("button", name="Save generator").click()
    assert eventually(lambda: "generator" in workspace.load(slug)["entities"][3]["attributes"][0])
    wait_until_idle(page)
    _choose(page, "Attributes of", "Author")  # back to an earlier entity (item 26.2)
    wait_until_idle(page)
    page.wait_for_timeout(1000)
    expect(page.get_by_text(CONFLICT, exact=False)).to_have_count(0)
    saved = workspace.load(slug)
    assert [[a["name"] for a in e["attributes"]] for e in saved["entities"]] == [[f"{n.lower()}Id"] for n in names]
    assert_no_exception(page)
    assert external_requests == []


def test_the_table_form_shows_the_model_picked_in_the_sidebar(page: Page, server: Server, tmp_path: Path,
                                                              external_requests: list[str]) -> None:
    workspace = Workspace(tmp_path / "browser-workspace")
    model_a = {**example_document("chat_messages"), "name": "Model A"}
    model_a["table"] = {**model_a["table"], "name": "table-a", "ttl_attribute": "expiresAt"}
    model_b = {**new_document("Model B", "table-b"), "description": "B as it was"}
    slug_a, slug_b = workspace.create(model_a), workspace.create(model_b)
    open_page(page, f"{server.url}/model?model={slug_a}", "Model · Model A")
    wait_until_idle(page)
    expect(page.get_by_label("Table name")).to_have_value("table-a")
    _choose(page, "Open model", f"Model B  ·  {slug_b}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Model · Model B", timeout=30_000)
    wait_until_idle(page)
    expect(page.get_by_label("Model name")).to_have_value("Model B")
    expect(page.get_by_label("Table name")).to_have_value("table-b")
    expect(page.get_by_label("TTL attribute")).to_have_value("")
    page.get_by_label("Description").fill("B, described")
    page.get_by_label("Description").press("Tab")  # saved as it is left
    assert eventually(lambda: workspace.load(slug_b).get("description") == "B, described")
    assert workspace.load(slug_b) == {**model_b, "description": "B, described"}  # nothing else written
    assert workspace.load(slug_a) == model_a
    assert_no_exception(page)
    assert external_requests == []
