"""Workshop mode's session namespaces: random, canonical, bound to their browser, and hidden from table names."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from modeling.preview.tables import preview_table
from workshop.isolation import (
    SECRET_FILE,
    browser_proof,
    is_session_token,
    live_import_allowed,
    new_session_token,
    resolve_session,
    session_workspace_dir,
    table_namespace,
    token_from_proof,
    visible_tables,
    workshop_mode,
    workshop_secret,
)


@pytest.fixture
def secret(tmp_path: Path) -> bytes:
    return workshop_secret(tmp_path)


def test_tokens_are_random_and_well_formed() -> None:
    tokens = {new_session_token() for _ in range(1000)}
    assert len(tokens) == 1000 and all(is_session_token(t) for t in tokens)


TOKEN = "3f2a9c0d4e5b6a7f8091a2b3c4d5e6f7"


@pytest.mark.parametrize("value", ["", "local", "../../etc", "A" * 32, "0" * 31, None, 42,
                                   TOKEN + "\n", TOKEN.upper(), " " + TOKEN, TOKEN + "%0A", TOKEN + "0"])
def test_anything_but_the_canonical_form_is_not_a_token(value: object) -> None:
    assert not is_session_token(value)


def test_a_session_folder_stays_inside_the_workspace(tmp_path: Path) -> None:
    token = new_session_token()
    assert session_workspace_dir(tmp_path, token).parent.parent == tmp_path
    with pytest.raises(ValueError):
        session_workspace_dir(tmp_path, "../outside")
    with pytest.raises(ValueError):
        session_workspace_dir(tmp_path, TOKEN + "\n")


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("true", True), ("0", False), ("", False)])
def test_workshop_mode_follows_the_environment(value: str, expected: bool) -> None:
    assert workshop_mode({"DESIGN_STUDIO_WORKSHOP": value}) is expected


def test_the_secret_is_random_private_and_kept(tmp_path: Path) -> None:
    first = workshop_secret(tmp_path / "room")
    path = tmp_path / "room" / SECRET_FILE
    assert len(first) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert workshop_secret(tmp_path / "room") == first  # read back, never replaced
    assert workshop_secret(tmp_path / "other") != first
    assert [p.name for p in (tmp_path / "room").iterdir()] == [SECRET_FILE]  # no temporary file left


def test_a_secret_readable_by_others_is_made_private(tmp_path: Path) -> None:
    workshop_secret(tmp_path)
    (tmp_path / SECRET_FILE).chmod(0o644)
    workshop_secret(tmp_path)
    assert stat.S_IMODE((tmp_path / SECRET_FILE).stat().st_mode) == 0o600


def test_a_table_name_does_not_reveal_the_token(secret: bytes) -> None:
    namespace = table_namespace(secret, TOKEN)
    name = preview_table(namespace, "student-platform").name
    assert TOKEN not in name and TOKEN[:8] not in name
    assert name == f"dds-{namespace}-student-platform"
    assert len(namespace) == 20 and not is_session_token(namespace)  # never usable as a `?ws=` token
    assert table_namespace(secret, TOKEN) == namespace  # the same session keeps its tables
    assert table_namespace(secret, new_session_token()) != namespace
    assert table_namespace(b"another server's secret".ljust(32, b"x"), TOKEN) != namespace


def test_only_the_servers_own_proof_is_accepted(secret: bytes) -> None:
    proof = browser_proof(secret, TOKEN)
    assert token_from_proof(secret, proof) == TOKEN
    assert token_from_proof(b"x" * 32, proof) is None  # another server's (or a forged) proof
    forged = f"{'0' * 32}.{proof.split('.')[1]}"
    assert token_from_proof(secret, forged) is None
    for bad in (None, "", TOKEN, f"{TOKEN}.", f"{TOKEN.upper()}.{proof.split('.')[1]}", proof + "0", proof[:-1]):
        assert token_from_proof(secret, bad) is None


def test_a_token_in_the_url_alone_opens_nothing(secret: bytes) -> None:
    resolution = resolve_session(TOKEN, None, secret)
    assert resolution.token != TOKEN and resolution.issued and resolution.refused
    assert is_session_token(resolution.token)


def test_a_token_proven_by_this_browsers_cookie_is_kept(secret: bytes) -> None:
    resolution = resolve_session(TOKEN, browser_proof(secret, TOKEN), secret)
    assert resolution == resolve_session(TOKEN, browser_proof(secret, TOKEN), secret)
    assert (resolution.token, resolution.issued, resolution.refused) == (TOKEN, False, None)


def test_a_link_without_a_token_keeps_the_browsers_session(secret: bytes) -> None:
    """A share link (no `?ws=`) opened in an attendee's tab stays in their session (issue 14, item 10)."""
    resolution = resolve_session(None, browser_proof(secret, TOKEN), secret)
    assert (resolution.token, resolution.issued, resolution.refused) == (TOKEN, False, None)


def test_another_attendees_token_never_replaces_this_browsers_session(secret: bytes) -> None:
    other = new_session_token()
    resolution = resolve_session(other, browser_proof(secret, TOKEN), secret, known=lambda t: t == other)
    assert resolution.token == TOKEN and "another browser" in resolution.refused


@pytest.mark.parametrize("cookie", [None, "own"])
def test_a_token_the_server_never_issued_is_called_unknown_not_another_browsers(secret: bytes,
                                                                                cookie: str | None) -> None:
    """`?ws=000…0` is well formed, but no session has it: it belongs to no browser (issue 30, item 8)."""
    proof = browser_proof(secret, TOKEN) if cookie else None
    resolution = resolve_session("0" * 32, proof, secret, known=lambda t: t == TOKEN)
    assert resolution.refused is not None and "another browser" not in resolution.refused
    assert "unknown to this server" in resolution.refused


@pytest.mark.parametrize("requested", ["0" * 32, TOKEN + "\n", TOKEN.upper(), TOKEN + "%0A", "../" + TOKEN])
def test_session_fixation_links_are_refused(secret: bytes, requested: str) -> None:
    """Without a cookie: a fresh session; with this browser's cookie: its own session, not the link's."""
    fresh = resolve_session(requested, None, secret)
    assert fresh.token not in (requested, TOKEN) and fresh.issued and fresh.refused
    assert is_session_token(fresh.token)
    own = new_session_token()
    kept = resolve_session(requested, browser_proof(secret, own), secret)
    assert kept.token == own and not kept.issued and kept.refused


def test_other_sessions_preview_tables_are_hidden(secret: bytes) -> None:
    mine, theirs = table_namespace(secret, TOKEN), table_namespace(secret, new_session_token())
    names = [f"dds-{mine}-orders", f"dds-{theirs}-orders", "dds-local-orders", "instructor-legacy-table"]
    assert visible_tables(names, mine) == [f"dds-{mine}-orders", "instructor-legacy-table"]


@pytest.mark.parametrize(("environ", "allowed"), [
    ({}, True),  # a single-user server
    ({"DESIGN_STUDIO_WORKSHOP": "1"}, False),
    ({"DESIGN_STUDIO_WORKSHOP": "1", "DESIGN_STUDIO_WORKSHOP_LIVE_IMPORT": "1"}, True),
])
def test_live_import_is_off_in_a_workshop_unless_the_instructor_allows_it(environ: dict, allowed: bool) -> None:
    assert live_import_allowed(environ) is allowed
