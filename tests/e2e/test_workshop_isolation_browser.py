"""Workshop takeover, in two real browsers: attendee B learns attendee A's token and still cannot reach A's work.

The reproduction of issue 15, finding 1: in workshop mode B listed the endpoint's tables (Import & export),
read A's session token in A's table name `dds-<token>-<model>`, opened `/model?ws=<token>` and edited A's
models. Now the table name carries a keyed hash of the token, other attendees' tables are not listed, and a
token in a URL counts only in the browser whose cookie proves it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from modeling.workspace.folder import Workspace
from tests.e2e.conftest import assert_no_exception, start_server, wait_until_idle
from workshop.sharing import encode_share
from workshop.states import State, state_document

pytestmark = pytest.mark.e2e


def _share_url(base: str, name: str) -> str:
    document = state_document(State.CRM)
    document["name"] = name
    return f"{base}/?share={encode_share(document)}"


def _open_model(page: Page) -> str:
    """The name in the Start page's "Open model: …" heading."""
    heading = page.get_by_role("heading", level=3).first
    expect(heading).to_contain_text("Open model:", timeout=60_000)
    return heading.inner_text().removeprefix("Open model:").strip()


def _token(page: Page) -> str:
    return re.search(r"[?&]ws=([^&]+)", page.url).group(1)


def test_attendee_b_cannot_reach_attendee_as_models_with_as_token(
        browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP", "1")
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP_LIVE_IMPORT", "1")  # the listing on, so B could read names
    workspace = tmp_path / "room"
    server = start_server(workspace, tmp_path / "streamlit-room.log")
    alice, bob = (browser.new_context(viewport={"width": 1400, "height": 1200}) for _ in range(2))
    try:
        a, b = alice.new_page(), bob.new_page()
        a.goto(_share_url(server.url, "Alice private model"))
        expect(a.get_by_role("heading", level=3).first).to_have_text("Open model: Alice private model",
                                                                    timeout=60_000)
        wait_until_idle(a)
        token = _token(a)

        # A previews: a table on the shared endpoint whose name must not carry A's token
        a.goto(f"{server.url}/preview?ws={token}")
        a.get_by_role("button", name="Load sample data").click()
        expect(a.get_by_role("button", name="Run every access pattern")).to_be_visible(timeout=120_000)
        caption = a.get_by_text(re.compile(r"^Table dds-")).first.inner_text()
        table = caption.split()[1]
        assert table.startswith("dds-") and token not in table and token[:8] not in table

        # B starts a session of its own, then looks at the endpoint's tables: A's is not among them
        b.goto(server.url)
        assert _open_model(b) == "Student platform"
        wait_until_idle(b)
        b.goto(f"{server.url}/import_and_export")
        b.get_by_role("tab", name="Import a live table").click()
        expect(b.get_by_role("button", name="Import as a new model")).to_be_visible(timeout=30_000)
        wait_until_idle(b)
        listed = b.get_by_test_id("stMain").inner_text()
        assert table not in listed and token not in listed

        # B opens A's token anyway (say, read over A's shoulder): B stays in B's own session
        own = _token(b)
        b.goto(f"{server.url}/model?ws={token}")
        expect(b.get_by_text(re.compile("was not opened here"))).to_be_visible(timeout=60_000)
        expect(b.get_by_role("heading", level=1)).to_have_text("Model · Student platform")
        wait_until_idle(b)
        assert _token(b) == own
        assert "Alice private model" not in b.get_by_test_id("stSidebar").inner_text()
        assert_no_exception(b)

        # a browser that never had a session (no cookie) gets a fresh one, not A's
        stranger = bob.browser.new_context().new_page()
        stranger.goto(f"{server.url}/model?ws={token}")
        expect(stranger.get_by_text(re.compile("was not opened here"))).to_be_visible(timeout=60_000)
        expect(stranger.get_by_role("heading", level=1)).to_have_text("Model · Student platform")
        assert _token(stranger) not in (token, own)
        stranger.context.close()

        # A is untouched: a refresh keeps A's session and model (the cookie proves the token)
        a.goto(f"{server.url}/?ws={token}")
        assert _open_model(a) == "Alice private model"
        assert _token(a) == token
        assert a.get_by_text(re.compile("was not opened here")).count() == 0

        # issue 14, item 10: a share link opened in A's tab keeps A's session and A's earlier model
        a.goto(_share_url(server.url, "Alice second model"))
        expect(a.get_by_role("heading", level=3).first).to_have_text("Open model: Alice second model",
                                                                    timeout=60_000)
        wait_until_idle(a)
        assert _token(a) == token
    finally:
        alice.close()
        bob.close()
        server.stop()
    names = sorted(d.name for d in Workspace(workspace / "sessions" / token).drafts())
    assert names == ["Alice private model", "Alice second model"]
