"""The Preview page in a real browser: load the sample data, run every pattern, all pass, code shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, assert_no_exception, open_page, wait_until_idle

pytestmark = pytest.mark.e2e


def test_load_run_all_and_see_every_pattern_pass(page: Page, server: Server, external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/preview", "Preview · Student platform")
    wait_until_idle(page)
    page.get_by_role("button", name="Load sample data").click()
    expect(page.get_by_text("Items in the table")).to_be_visible(timeout=60_000)
    page.get_by_role("button", name="Run every access pattern").click()
    expect(page.get_by_text("Every access pattern returned what the data says it should.")).to_be_visible(
        timeout=90_000)
    passed = page.locator('[data-testid="stMetric"]').filter(has_text="Patterns passed")
    expect(passed).to_contain_text("12 of 12")
    page.get_by_role("tab", name="AWS CLI").click()
    expect(page.locator("code").filter(has_text="aws dynamodb").first).to_be_visible()
    assert_no_exception(page)
    page.get_by_role("button", name="Clean up (delete the preview table)").click()
    expect(page.get_by_text("Deleted dds-local-")).to_be_visible(timeout=30_000)
    assert external_requests == []
