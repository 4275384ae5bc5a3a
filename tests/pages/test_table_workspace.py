"""The Model page on a DynamoDB-table workspace (issue #14, one workspace for a team or a room).

The table is on the embedded moto server, reached over HTTP by its URL as a configured endpoint. Two
AppTest sessions are two tabs; the two-server case with real processes is tests/e2e/test_shared_workspace_browser.py.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from modeling.endpoint.adapter import Endpoint, EndpointKind, configured_endpoint, dynamodb_client
from modeling.workspace.table import LISTING_CACHE_SECONDS, forget_checked_tables, open_table_workspace
from tests.fault_proxy import FaultPlan, FaultProxy
from tests.pages.model_page import add_entity_in_the_grid, model_page


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch, workspace_dir: Path) -> Iterator[str]:
    url = configured_endpoint({}).url
    name = f"dds-workspace-page-{secrets.token_hex(4)}"
    monkeypatch.setenv("DESIGN_STUDIO_WORKSPACE", f"dynamodb://{name}")
    monkeypatch.setenv("DESIGN_STUDIO_STATE_DIR", str(workspace_dir))
    monkeypatch.setenv("DESIGN_STUDIO_ENDPOINT", url)
    forget_checked_tables()
    yield name
    forget_checked_tables()
    client = dynamodb_client(Endpoint(EndpointKind.CUSTOM, url, "us-east-1"))
    if name in client.list_tables()["TableNames"]:
        client.delete_table(TableName=name)


def _saved_entities(table: str) -> set[str]:
    space = open_table_workspace(Endpoint(EndpointKind.CUSTOM, configured_endpoint({}).url, "us-east-1"),
                                 table, "local")
    return {e["name"] for e in space.load(space.most_recent() or "")["entities"]}


def _conflict_shown(at: AppTest) -> bool:
    return any("saved in another tab or by someone else" in w.value for w in at.warning)


def test_two_tabs_on_a_table_workspace_conflict_and_merge_with_nothing_lost(table: str,
                                                                            workspace_dir: Path) -> None:
    tab_a, tab_b = model_page(), model_page()
    add_entity_in_the_grid(tab_a, "Invoice")
    add_entity_in_the_grid(tab_b, "Refund")  # B still holds the model as it was before A's edit

    assert "Invoice" in _saved_entities(table) and "Refund" not in _saved_entities(table)
    assert _conflict_shown(tab_b)
    assert "Refund" in {e["name"] for e in tab_b.session_state["model.document"].document["entities"]}
    tab_b.button(key="save_status.merge").click().run()
    assert {"Invoice", "Refund"} <= _saved_entities(table)
    assert not list(workspace_dir.glob("*.json"))  # nothing went to the folder


def test_an_untagged_table_of_that_name_is_refused_on_the_page(table: str) -> None:
    client = dynamodb_client(Endpoint(EndpointKind.CUSTOM, configured_endpoint({}).url, "us-east-1"))
    keys = [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}]
    client.create_table(TableName=table, KeySchema=keys, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK")])
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert any("was not created by DynamoDB Design Studio" in e.value for e in at.error)
    assert client.scan(TableName=table)["Count"] == 0  # not even the first example was written


def test_an_edit_the_table_cannot_take_is_kept_in_the_tab_and_saved_on_retry(
        table: str, monkeypatch: pytest.MonkeyPatch) -> None:
    proxy = FaultProxy(configured_endpoint({}).url).start()
    try:
        monkeypatch.setenv("DESIGN_STUDIO_ENDPOINT", proxy.url)
        tab = model_page()
        # every read and write of the table now answers 500 (after botocore's retries), as an endpoint that
        # went away or a role that lost its write permission does
        proxy.use(FaultPlan(error500=1.0, targets=("PutItem", "Query", "GetItem")))
        time.sleep(LISTING_CACHE_SECONDS + 0.1)  # past the listing's cache: the pages really ask
        add_entity_in_the_grid(tab, "Invoice")
        assert any("Your last edit is not saved" in e.value for e in tab.error), [e.value for e in tab.error]
        assert "Invoice" in {e["name"] for e in tab.session_state["model.document"].document["entities"]}
        proxy.use(FaultPlan())
        tab.button(key="save_status.retry").click().run()
        assert not tab.exception, tab.exception
        assert "Invoice" in _saved_entities(table)
    finally:
        proxy.stop()
