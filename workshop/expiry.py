"""Idle workshop sessions expire: their workspace folders are removed after a configurable idle time.

Every anonymous visit in workshop mode gets a session folder (`<workspace>/sessions/<token>/`); without
expiry a busy room fills the disk and every listing slows down. A session is idle when nothing in its
folder changed for `DESIGN_STUDIO_SESSION_TTL_HOURS` (default 72 hours, long enough for a multi-day
workshop). Only folders whose names are session tokens are touched, and only inside `sessions/`.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from workshop.isolation import SESSIONS_FOLDER, is_session_token

SESSION_TTL_ENV = "DESIGN_STUDIO_SESSION_TTL_HOURS"
DEFAULT_SESSION_TTL_HOURS = 72.0
SWEEP_INTERVAL_SECONDS = 600.0  # a sweep walks every session folder: at most once per ten minutes
_last_sweep: dict[Path, float] = {}


def session_ttl_seconds(environ: dict[str, str] | None = None) -> float:
    raw = (os.environ if environ is None else environ).get(SESSION_TTL_ENV, "").strip()
    try:
        hours = float(raw) if raw else DEFAULT_SESSION_TTL_HOURS
    except ValueError:
        hours = DEFAULT_SESSION_TTL_HOURS
    return max(hours, 0.1) * 3600.0


def last_activity(folder: Path) -> float:
    """The newest modification time of the folder or anything directly in it (drafts, markers)."""
    stamps = [folder.lstat().st_mtime]
    for entry in os.scandir(folder):
        stamps.append(entry.stat(follow_symlinks=False).st_mtime)
    return max(stamps)


def expire_idle_sessions(root: Path, max_idle_seconds: float, now: float, keep: str | None = None) -> list[str]:
    """Remove session folders idle for longer than `max_idle_seconds`; return the tokens removed."""
    sessions = root / SESSIONS_FOLDER
    if not sessions.is_dir():
        return []
    removed = []
    for folder in sorted(sessions.iterdir()):
        if not is_session_token(folder.name) or folder.name == keep or folder.is_symlink() or not folder.is_dir():
            continue
        try:
            idle = now - last_activity(folder)
        except OSError:
            continue
        if idle > max_idle_seconds:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder.name)
    return removed


def sweep_now_and_then(root: Path, keep: str | None = None) -> list[str]:
    """Expire idle sessions, at most once per SWEEP_INTERVAL_SECONDS per workspace root and process."""
    now = time.time()
    if now - _last_sweep.get(root, 0.0) < SWEEP_INTERVAL_SECONDS:
        return []
    _last_sweep[root] = now
    return expire_idle_sessions(root, session_ttl_seconds(), now, keep)
