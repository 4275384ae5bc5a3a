"""Browser test of the Import & export page: a deep link on a fresh server shows and downloads the
CloudFormation template of the open model, which cfn-lint accepts."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, assert_no_exception, open_page, wait_until_idle
from tests.modeling.test_infrastructure import cfn_lint_problems

pytestmark = pytest.mark.e2e


def test_deep_link_shows_and_downloads_the_cloudformation_template(page: Page, server: Server,
                                                                     external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/import_and_export", "Import & export · Student platform")
    wait_until_idle(page)
    code = page.locator('[data-testid="stCode"]').first
    expect(code).to_contain_text("AWS::DynamoDB::Table", timeout=30_000)
    expect(code).to_contain_text("PAY_PER_REQUEST")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download template.yaml").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "template.yaml"
    template = yaml.safe_load(text)
    assert template["Resources"]["Table"]["Properties"]["BillingMode"] == "PAY_PER_REQUEST"
    assert cfn_lint_problems(text) == []
    page.get_by_role("tab", name="Import a live table").click()
    expect(page.get_by_role("button", name="Import as a new model")).to_be_visible()
    assert_no_exception(page)
    assert external_requests == []


def test_text_typed_in_a_tab_is_kept_when_another_tab_is_clicked_straight_away(page: Page, server: Server) -> None:
    """The page's tabs run only the open tab's body (ui.tabs): a text typed and not yet committed (no blur, no
    Ctrl+Enter) when another tab is clicked must still be there, and used, when the user comes back."""
    open_page(page, f"{server.url}/import_and_export", "Import & export · Student platform")
    tags = page.get_by_role("textbox", name="Tags (one KEY=VALUE per line)")
    tags.click()
    page.keyboard.type("team=payments", delay=0)
    page.get_by_role("tab", name="Load test").click()
    wait_until_idle(page)
    page.get_by_role("tab", name="Infrastructure as code").click()
    wait_until_idle(page)
    expect(page.get_by_role("textbox", name="Tags (one KEY=VALUE per line)")).to_have_value("team=payments")
    expect(page.locator('[data-testid="stCode"]').first).to_contain_text("payments", timeout=30_000)
    assert_no_exception(page)
