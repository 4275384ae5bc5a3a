"""Idle workshop sessions expire (issue #15.11): only token folders inside sessions/, only when idle."""

from __future__ import annotations

import os
from pathlib import Path

from workshop.expiry import expire_idle_sessions, session_ttl_seconds

HOUR = 3600.0


def _session(root: Path, token: str, age_hours: float, now: float) -> Path:
    folder = root / "sessions" / token
    folder.mkdir(parents=True)
    draft = folder / "model.json"
    draft.write_text("{}", encoding="utf-8")
    stamp = now - age_hours * HOUR
    os.utime(draft, (stamp, stamp))
    os.utime(folder, (stamp, stamp))
    return folder


def test_idle_sessions_are_removed_and_active_ones_kept(tmp_path: Path) -> None:
    now = 1_800_000_000.0
    old = _session(tmp_path, "a" * 32, 80, now)
    fresh = _session(tmp_path, "b" * 32, 1, now)
    kept = _session(tmp_path, "c" * 32, 500, now)  # idle, but it is the session asking
    stranger = tmp_path / "sessions" / "not-a-token"
    stranger.mkdir()
    os.utime(stranger, (now - 900 * HOUR, now - 900 * HOUR))

    removed = expire_idle_sessions(tmp_path, 72 * HOUR, now, keep="c" * 32)

    assert removed == ["a" * 32]
    assert not old.exists() and fresh.exists() and kept.exists() and stranger.exists()


def test_a_recent_draft_keeps_an_old_folder_alive(tmp_path: Path) -> None:
    now = 1_800_000_000.0
    folder = _session(tmp_path, "d" * 32, 100, now)
    recent = folder / "other.json"
    recent.write_text("{}", encoding="utf-8")
    os.utime(recent, (now - 60, now - 60))
    assert expire_idle_sessions(tmp_path, 72 * HOUR, now) == []


def test_the_idle_time_is_configurable_and_a_bad_value_falls_back() -> None:
    assert session_ttl_seconds({"DESIGN_STUDIO_SESSION_TTL_HOURS": "2"}) == 2 * HOUR
    assert session_ttl_seconds({"DESIGN_STUDIO_SESSION_TTL_HOURS": "soon"}) == 72 * HOUR
