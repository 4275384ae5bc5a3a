"""Workshop mode: one server, many attendees, each browser session with its own workspace namespace.

With `DESIGN_STUDIO_WORKSHOP=1` every session gets a random token (128 bits from `secrets`, so no
attendee can guess another's), kept in the URL so a refresh keeps it. The token names the session's
workspace folder (`<workspace>/sessions/<token>/`) and its tables on the endpoint. Without workshop mode
the namespace is "local" and the workspace is the folder itself, as before.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

WORKSHOP_ENV = "DESIGN_STUDIO_WORKSHOP"
LOCAL_NAMESPACE = "local"
TOKEN_PARAMETER = "ws"  # noqa: S105 (a URL parameter name, not a secret)
SESSIONS_FOLDER = "sessions"
TOKEN_BYTES = 16  # 128 random bits: 32 hex digits, also valid in DynamoDB table names
_TOKEN = re.compile(r"^[0-9a-f]{32}$")


def workshop_mode(environ: dict[str, str] | None = None) -> bool:
    value = (os.environ if environ is None else environ).get(WORKSHOP_ENV, "").strip().lower()
    return value in ("1", "true", "yes", "on")


def new_session_token() -> str:
    return secrets.token_hex(TOKEN_BYTES)


def is_session_token(value: object) -> bool:
    return isinstance(value, str) and bool(_TOKEN.match(value))


def session_workspace_dir(root: Path, token: str) -> Path:
    """The folder of one session's drafts; the token is checked, so it can never leave `root`."""
    if not is_session_token(token):
        raise ValueError(f"not a session token: {token!r}")
    return root / SESSIONS_FOLDER / token
