"""Real-browser tests: headless Debian Chromium driven by Playwright against a real Streamlit server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Page, expect

from costs.design_ranking import propose
from modeling.examples import load_example
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

PAGES = {"": "DynamoDB Design Studio", "start": "DynamoDB Design Studio", "model": "Model · Student platform",
         "layout": "Layout · Student platform", "capacity_and_cost": "Capacity & cost · Student platform",
         "hot_partitions": "Hot partitions · Student platform", "preview": "Preview · Student platform",
         "changes": "Changes · Student platform"}


@pytest.mark.parametrize("path", list(PAGES), ids=lambda p: p or "root")
def test_deep_link_on_a_fresh_server(page: Page, server: Server, external_requests: list[str],
                                     path: str) -> None:
    page.goto(f"{server.url}/{path}")
    expect(page.get_by_role("heading", level=1)).to_have_text(PAGES[path], timeout=30_000)
    wait_until_idle(page)
    expect(page.get_by_text("answers", exact=False).first).to_be_visible(timeout=30_000)  # endpoint status
    # app.py's titled, grouped navigation, not the legacy `pages/` mode's file names ("capacity and cost", "app"),
    # which a fresh server's first deep link used to get for every session until one loaded `/`
    navigation = page.get_by_test_id("stSidebarNav")
    expect(navigation).to_contain_text("Capacity & cost", timeout=30_000)
    expect(navigation).to_contain_text("Analyse")
    assert "capacity and cost" not in navigation.inner_text()
    assert_no_exception(page)
    assert external_requests == []


def _open_example(page: Page, server: Server, slug: str, name: str) -> None:
    page.goto(server.url)
    page.locator(f'.st-key-start-open-{slug} button').click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Model · {name}", timeout=30_000)
    wait_until_idle(page)


def test_edit_survives_a_refresh_and_a_server_restart(page: Page, server_factory: Callable[[], Server],
                                                      external_requests: list[str]) -> None:
    server = server_factory()
    _open_example(page, server, "ecommerce_orders", "E-commerce orders")
    page.get_by_role("tab", name="Table & traffic").click()
    name_input = page.get_by_label("Model name")
    name_input.fill("E-commerce orders (reviewed)")
    name_input.press("Enter")  # saved as it is left
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Model · E-commerce orders (reviewed)", timeout=30_000)
    assert "model=" in page.url

    page.reload()
    expect(heading).to_have_text("Model · E-commerce orders (reviewed)", timeout=30_000)

    server.stop()
    restarted = server_factory()
    page.goto(f"{restarted.url}/model")
    expect(heading).to_have_text("Model · E-commerce orders (reviewed)", timeout=30_000)
    wait_until_idle(page)
    assert_no_exception(page)
    assert external_requests == []


def test_an_edit_in_the_entities_table_is_saved(page: Page, server: Server, tmp_path: Path,
                                                external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    wait_until_idle(page)
    page.get_by_role("tab", name="Entities & attributes").click()
    entities = grid(page, 0)
    expect(cell(entities, "Entity", 1)).to_have_value("Tenant")
    type_into_cell(page, entities, "Items", 1, "1234567")
    saved = Workspace(tmp_path / "browser-workspace")
    assert eventually(lambda: saved.load(saved.most_recent())["entities"][0]["item_count"] == 1234567)
    page.reload()
    page.get_by_role("tab", name="Entities & attributes").click()
    expect(cell(grid(page, 0), "Items", 1)).to_have_value("1,234,567", timeout=30_000)
    assert_no_exception(page)
    assert external_requests == []


def test_a_bad_upload_is_explained_and_the_open_model_is_kept(page: Page, server: Server, tmp_path: Path,
                                                              external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    page.get_by_role("tab", name="File").click()
    bad = tmp_path / "broken.yaml"
    bad.write_text("format: dynamodb-design-studio/model\nversion: 1\nname: [unclosed\n", encoding="utf-8")
    page.locator('.st-key-model-upload [data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(bad))
    expect(page.get_by_text("broken.yaml could not be opened")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("YAML syntax error", exact=False).first).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Model · Student platform")
    assert_no_exception(page)
    assert external_requests == []


def test_download_gives_the_model_as_yaml(page: Page, server: Server, external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/model", "Model · Student platform")
    page.get_by_role("tab", name="File").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download YAML").click()
    document = yaml.safe_load(Path(download.value.path()).read_text(encoding="utf-8"))
    assert document["format"] == "dynamodb-design-studio/model" and document["name"] == "Student platform"
    assert external_requests == []


def _click_tab(page: Page, name: str) -> None:
    """Click a tab once the rerun has replaced the previous run's elements (stale copies linger briefly)."""
    tab = page.get_by_role("tab", name=name)
    expect(tab).to_have_count(1, timeout=30_000)
    tab.click()


def _saved_table_partition_key(workspace: Workspace) -> str:
    table = workspace.load(workspace.most_recent())["key_design"]["entities"][0].get("table", {})
    return str(table.get("partition_key", ""))


def _override_template(page: Page, workspace: Workspace, text: str) -> None:
    """Type a partition-key template into the first overrides row (the key templates grid)."""
    wait_until_idle(page)
    templates = grid(page, 0)
    type_into_cell(page, templates, "Partition key template", 1, text)
    assert eventually(lambda: _saved_table_partition_key(workspace) == text, 30), _saved_table_partition_key(workspace)
    wait_until_idle(page)


def test_layout_index_view_adopt_and_override_with_a_problem_that_comes_and_goes(
        page: Page, server: Server, tmp_path: Path, external_requests: list[str]) -> None:
    workspace = Workspace(tmp_path / "browser-workspace")
    open_page(page, f"{server.url}/layout", "Layout · Student platform")
    wait_until_idle(page)
    # the picker's key is the open model's (ui.session.model_key), so it is found by its label
    page.get_by_test_id("stSelectbox").filter(has=page.get_by_text("View through", exact=True)).get_by_role(
        "combobox").click()
    page.get_by_role("option", name="GSI1").click()
    # viewed through GSI1: its own key attributes, as the design the page opens on (the ranking's winner) names them
    winner = propose(load_example("student_platform"))[0]
    gsi1 = next(i for i in winner.key_design.global_secondary_indexes if i.name == "GSI1")
    table = page.locator('[data-testid="stDataFrame"]').nth(1)
    for name in (gsi1.partition_key.name, *([gsi1.sort_key.name] if gsi1.sort_key else [])):
        expect(table).to_contain_text(name, timeout=30_000)

    page.get_by_role("button", name="Use this design as mine").click()
    expect(page.get_by_text("Your design").first).to_be_visible(timeout=30_000)
    wait_until_idle(page)
    _click_tab(page, "Overrides")
    _override_template(page, workspace, "TENANT#{tenantIdd}")
    expect(page.get_by_text("has no attribute `tenantIdd`", exact=False).first).to_be_visible(timeout=30_000)
    # with a key-design error the page shows only the problems and the overrides table
    _override_template(page, workspace, "TENANT#{tenantId}")
    expect(page.get_by_text("has no attribute `tenantIdd`", exact=False)).to_have_count(0, timeout=30_000)
    _click_tab(page, "Overrides")
    expect(page.get_by_text("No problems in the key design.")).to_be_visible(timeout=30_000)
    assert_no_exception(page)
    assert external_requests == []


def test_hot_partitions_draws_the_distribution_and_the_what_ifs(page: Page, server: Server,
                                                               external_requests: list[str]) -> None:
    open_page(page, f"{server.url}/hot_partitions", "Hot partitions · Student platform")
    wait_until_idle(page)
    expect(page.get_by_text("Traffic per key value (approximate)", exact=False).first).to_be_visible(timeout=30_000)
    _click_tab(page, "What-ifs")
    expect(page.get_by_text("Write sharding what-if").first).to_be_visible(timeout=30_000)
    assert_no_exception(page)
    assert external_requests == []
