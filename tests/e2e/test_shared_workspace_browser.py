"""Issue #14, one workspace for a team or a room: two app servers on one DynamoDB-table workspace.

Two Streamlit processes share `DESIGN_STUDIO_WORKSPACE=dynamodb://TABLE` on one endpoint (the embedded
moto server of this test process, reached over HTTP as DynamoDB Local would be), as several servers
behind a load balancer with sticky sessions do. A browser on each edits the same model in the grid: the
second save, based on the model as it was before the first, is refused by the table's condition on
`version`, the page shows the conflict, and "Merge both" keeps both edits.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FrameLocator, Page, expect

from modeling.endpoint.adapter import Endpoint, EndpointKind, configured_endpoint, dynamodb_client
from modeling.workspace.table import TableWorkspace, forget_checked_tables, open_table_workspace
from tests.e2e.conftest import (
    Server,
    assert_no_exception,
    cell,
    eventually,
    grid,
    start_server,
    type_into_cell,
    wait_until_idle,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def shared_table() -> Iterator[tuple[Endpoint, str]]:
    endpoint = Endpoint(EndpointKind.CUSTOM, configured_endpoint({}).url, "us-east-1")
    name = f"dds-workspace-e2e-{secrets.token_hex(4)}"
    forget_checked_tables()
    open_table_workspace(endpoint, name, "local")  # made as a server would, ahead of the servers' cold start
    yield endpoint, name
    client = dynamodb_client(endpoint)
    if name in client.list_tables()["TableNames"]:
        client.delete_table(TableName=name)


@pytest.fixture
def two_servers(shared_table: tuple[Endpoint, str], tmp_path: Path) -> Iterator[list[Server]]:
    endpoint, table = shared_table
    servers: list[Server] = []
    for number in (1, 2):  # each server keeps its own local files (instance id, secret) in its own folder
        state = tmp_path / f"server-{number}"
        servers.append(start_server(state, tmp_path / f"streamlit-{number}.log", {
            "DESIGN_STUDIO_WORKSPACE": f"dynamodb://{table}", "DESIGN_STUDIO_STATE_DIR": str(state),
            "DESIGN_STUDIO_ENDPOINT": str(endpoint.url)}))
    yield servers
    for server in servers:
        server.stop()


def _entities_grid(page: Page) -> FrameLocator:
    page.get_by_role("tab", name="Entities & attributes").click()
    entities = grid(page, 0)
    expect(cell(entities, "Entity", 1)).to_have_value("Tenant", timeout=30_000)
    return entities


def test_a_browser_on_each_of_two_servers_edits_one_model_and_the_conflict_keeps_both(
        browser: Browser, two_servers: list[Server], shared_table: tuple[Endpoint, str]) -> None:
    endpoint, table = shared_table
    first, second = two_servers
    page_a = browser.new_context(viewport={"width": 1400, "height": 1200}).new_page()
    page_b = browser.new_context(viewport={"width": 1400, "height": 1200}).new_page()
    # a server's first page run imports everything; on a busy machine that alone can take half a minute
    page_a.goto(f"{first.url}/model")  # server 1 creates the first model
    expect(page_a.get_by_role("heading", level=1)).to_have_text("Model · Student platform", timeout=90_000)
    space = TableWorkspace(dynamodb_client(endpoint), table, "local")
    slug = space.most_recent()
    assert slug is not None
    page_b.goto(f"{second.url}/model?model={slug}")
    expect(page_b.get_by_role("heading", level=1)).to_have_text("Model · Student platform", timeout=90_000)
    grid_a, grid_b = _entities_grid(page_a), _entities_grid(page_b)

    def counts() -> list:
        return [e.get("item_count") for e in space.load(slug)["entities"][:2]]

    before = counts()
    type_into_cell(page_a, grid_a, "Items", 1, "1500")
    assert eventually(lambda: counts()[0] == 1500, 30), counts()
    # B's grid was drawn from the model before A's save: its edit of another row must not overwrite A's
    conflict = page_b.get_by_text("saved in another tab or by someone else")
    type_into_cell(page_b, grid_b, "Items", 2, "2500")
    expect(conflict).to_be_visible(timeout=30_000)
    assert counts() == [1500, before[1]]  # A's edit stands; B's is held in B's tab, not written
    page_b.get_by_role("button", name="Merge both").click()
    assert eventually(lambda: counts() == [1500, 2500], 30), counts()
    wait_until_idle(page_b)
    expect(page_b.get_by_text("saved in another tab or by someone else")).to_have_count(0)
    for page in (page_a, page_b):
        assert_no_exception(page)
