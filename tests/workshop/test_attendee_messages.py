"""What a workshop attendee is told: their own table count, and why a link's session was not opened (issue 30.8)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from editing import new_document
from modeling.endpoint.adapter import LIST_TABLES_PAGE, check_endpoint, configured_endpoint, dynamodb_client
from modeling.workspace.folder import Workspace, default_workspace_dir
from workshop.isolation import new_session_token, session_workspace_dir, table_namespace, workshop_secret

ROOT = Path(__file__).resolve().parents[2]


def _create(client: object, name: str) -> None:
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",  # type: ignore[attr-defined]
                        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}])


@pytest.fixture
def tables() -> Iterator[list[str]]:
    """Tables this test creates on the embedded endpoint; all deleted afterwards."""
    created: list[str] = []
    yield created
    client = dynamodb_client(configured_endpoint({}))
    for name in created:
        client.delete_table(TableName=name)


def test_an_attendee_sees_the_count_of_their_own_tables(tables: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP", "1")
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    namespace = table_namespace(workshop_secret(default_workspace_dir()), at.session_state["workshop.session_token"])
    client = dynamodb_client(configured_endpoint({}))
    for name in (f"dds-{namespace}-orders", f"dds-{uuid.uuid4().hex[:20]}-orders", f"room-{uuid.uuid4().hex[:8]}",
                 f"room-{uuid.uuid4().hex[:8]}"):
        _create(client, name)
        tables.append(name)
    st.cache_data.clear()
    at.run()
    assert not at.exception, at.exception
    statuses = [s.value for s in at.sidebar.success]
    # one table is this session's (dds-<its namespace>-orders); the other three are the room's
    assert any(s.endswith(" · 1 table(s) of yours") for s in statuses), statuses


def test_the_own_count_reads_past_the_first_page(tables: list[str]) -> None:
    """A room easily has more than one ListTables page (100 names); the attendee's table may be on the second."""
    client = dynamodb_client(configured_endpoint({}))
    run = uuid.uuid4().hex[:8]
    for n in range(LIST_TABLES_PAGE):
        tables.append(f"room-{run}-{n:03d}")
        _create(client, tables[-1])
    own_prefix = f"dds-{uuid.uuid4().hex[:20]}-"
    tables.append(f"{own_prefix}orders")  # created last: moto lists in creation order, so after the first 100
    _create(client, tables[-1])
    status = check_endpoint(configured_endpoint({}), own_prefix)
    assert status.reachable and (status.table_count, status.count_is_lower_bound) == (1, False), status


def test_an_all_zeros_link_is_called_unknown_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's message for `?ws=000…0`: a session the server does not know, not another browser's."""
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP", "1")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["ws"] = "0" * 32
    at.run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning]
    assert any("unknown to this server" in w for w in warnings), warnings
    assert not any("another browser" in w for w in warnings), warnings
    assert at.session_state["workshop.session_token"] != "0" * 32


def test_a_link_to_a_session_with_work_here_is_called_another_browsers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP", "1")
    other = new_session_token()
    Workspace(session_workspace_dir(default_workspace_dir(), other)).create(new_document("Theirs", "theirs"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["ws"] = other
    at.run()
    assert not at.exception, at.exception
    assert any("belongs to another browser" in w.value for w in at.warning), [w.value for w in at.warning]
    assert at.session_state["workshop.session_token"] != other
