"""Lesson 8, "Writes that stay correct under concurrency", end to end in a real browser (issue 16.5): every
step on its real page with its reveal, the break-it caught by the 20-concurrent-clients preview, the
reference fix passing it with exactly 200 increments kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, assert_no_exception
from tests.e2e.test_workshop_browser import _walk
from workshop.lessons import lesson

pytestmark = pytest.mark.e2e


def test_the_concurrency_lesson_walks_through_and_its_fix_keeps_every_increment(page: Page, server: Server) -> None:
    concurrency = lesson("concurrent-writes")
    assert concurrency.number == 8
    _walk(page, server, concurrency, set())
    # the last check ran the concurrent-clients preview on the attendee's table: the ADD kept all 200
    expect(page.get_by_text("exactly 200 higher").first).to_be_visible(timeout=30_000)
    assert_no_exception(page)
