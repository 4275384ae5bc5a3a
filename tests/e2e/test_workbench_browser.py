"""Real browser: a NoSQL Workbench file imported on the Model page opens, stays open, and says what it inferred."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, assert_no_exception, open_page, wait_until_idle
from tests.fixture_files import workbench_file

pytestmark = pytest.mark.e2e


def test_a_workbench_file_opens_as_a_new_model_and_downloads_as_3_0(page: Page, server: Server,
                                                                    external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    page.get_by_role("tab", name="File").click()
    uploader = page.locator('.st-key-model-nwb_upload [data-testid="stFileUploaderDropzoneInput"]')
    uploader.set_input_files(str(workbench_file("ChatSystemSchema.json")))
    page.get_by_role("button", name="Import as a new model").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Model · Chat", timeout=30_000)
    wait_until_idle(page)
    expect(heading).to_have_text("Model · Chat")  # still open after the reruns (the sidebar kept the old one)
    page.get_by_role("tab", name="File").click()
    expect(page.get_by_text("User (5 item(s))", exact=False)).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download NoSQL Workbench JSON").click()
    written = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert written["ModelMetadata"]["Version"] == "3.0"
    assert [f["FacetName"] for f in written["DataModel"][0]["TableFacets"]] == ["User", "Room"]
    assert_no_exception(page)
    assert external_requests == []
