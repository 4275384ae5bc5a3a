"""Issue 15, finding 4, in a real browser: a share link whose model name is Markdown made the browser fetch an
image and showed a phishing link in the title. Now every name renders as its text: no link, no image, no
request, on the Start and Model pages, the sidebar and a share link's error."""

from __future__ import annotations

import copy
import re

import pytest
from playwright.sync_api import Page, expect

from modeling.examples import example_document
from tests.e2e.conftest import Server, assert_no_exception, wait_until_idle
from tests.markdown_checks import PAYLOADS, WORD_JOINER
from workshop.sharing import encode_share

pytestmark = pytest.mark.e2e
NAME = PAYLOADS["markdown"]


def _no_live_markup(page: Page) -> None:
    """No link or image to the payload's host, and its `**b**` and `` `c` `` are not bold or code."""
    expect(page.locator('a[href*="evil.example"]')).to_have_count(0)
    expect(page.locator('img[src*="evil.example"]')).to_have_count(0)
    expect(page.locator("strong", has_text=re.compile(r"^b$"))).to_have_count(0)
    expect(page.locator("code", has_text=re.compile(r"^c$"))).to_have_count(0)


def _shown(page: Page, heading: int) -> str:
    """A heading's text as a reader sees it (the invisible word joiners that break autolinks dropped)."""
    return page.get_by_role("heading", level=heading).first.inner_text().replace(WORD_JOINER, "").strip()


def test_a_markdown_model_name_renders_as_text_and_fetches_nothing(page: Page, server: Server,
                                                                   external_requests: list[str]) -> None:
    document = example_document("student_platform")
    document["name"] = NAME
    page.goto(f"{server.url}/?share={encode_share(document)}")
    expect(page.get_by_role("heading", level=3).first).to_contain_text("Open model: Demo", timeout=60_000)
    wait_until_idle(page)
    assert _shown(page, 3) == f"Open model: {NAME}"
    _no_live_markup(page)
    page.goto(f"{server.url}/model?model={page.url.split('model=')[1].split('&')[0]}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Model · Demo", timeout=60_000)
    wait_until_idle(page)
    assert _shown(page, 1) == f"Model · {NAME}"
    _no_live_markup(page)
    assert_no_exception(page)

    broken = copy.deepcopy(document)
    broken["entities"][0]["name"] = "A`b` " + PAYLOADS["html"]
    page.goto(f"{server.url}/?share={encode_share(broken)}")
    expect(page.get_by_text("The shared model could not be opened.")).to_be_visible(timeout=60_000)
    wait_until_idle(page)
    errors = page.get_by_test_id("stMain").inner_text().replace(WORD_JOINER, "")
    assert PAYLOADS["html"] in errors  # the names, as text
    _no_live_markup(page)
    assert external_requests == []
