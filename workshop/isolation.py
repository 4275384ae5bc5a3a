"""Workshop mode: one server, many attendees, each browser session with its own workspace namespace.

With `DESIGN_STUDIO_WORKSHOP=1` every session gets a random token (128 bits from `secrets`, so no
attendee can guess another's). The token names the session's workspace folder
(`<workspace>/sessions/<token>/`); it is mirrored in the URL (`?ws=`), but the URL alone is not enough
to act as that session:

- the token is bound to the browser that started the session by a cookie holding the token and an HMAC
  of it under a server secret (`browser_proof`); only a token whose cookie proof verifies is accepted, so
  only tokens this server issued, in canonical form, are ever used (`resolve_session`);
- the session's tables on the shared endpoint are named after a keyed hash of the token
  (`table_namespace`), never the token itself, so reading a table name (or its tags) reveals nothing
  that opens the session.

The server secret is 32 random bytes kept in the workspace (`.workshop-secret`, mode 0600), created
with a CSPRNG at first use. Without workshop mode the namespace is "local" and the workspace is the
folder itself, as before.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from studio.preview import NAME_PREFIX

WORKSHOP_ENV = "DESIGN_STUDIO_WORKSHOP"
# Importing a live table lists the endpoint's tables; in a workshop they are the other attendees' tables,
# so the import is off unless the instructor turns it on (and even then no one else's preview table shows).
LIVE_IMPORT_ENV = "DESIGN_STUDIO_WORKSHOP_LIVE_IMPORT"
LOCAL_NAMESPACE = "local"
TOKEN_PARAMETER = "ws"  # noqa: S105 (a URL parameter name, not a secret)
BINDING_COOKIE = "dds_workshop_session"
BINDING_MAX_AGE_SECONDS = 7 * 24 * 3600  # a workshop lasts a day or two; the cookie outlives it a little
SESSIONS_FOLDER = "sessions"
SECRET_FILE = ".workshop-secret"  # noqa: S105 (the file name, not the secret)
SECRET_BYTES = 32
TOKEN_BYTES = 16  # 128 random bits: 32 hex digits
TABLE_NAMESPACE_HEX = 20  # 80 bits of the keyed hash name a session's tables: unguessable, short in table names
_TOKEN = re.compile(r"[0-9a-f]{32}")  # used with fullmatch: no trailing newline, no upper case


def workshop_mode(environ: dict[str, str] | None = None) -> bool:
    return _flag(WORKSHOP_ENV, environ)


def live_import_allowed(environ: dict[str, str] | None = None) -> bool:
    """Outside a workshop always; in a workshop only when the instructor set DESIGN_STUDIO_WORKSHOP_LIVE_IMPORT=1."""
    return not workshop_mode(environ) or _flag(LIVE_IMPORT_ENV, environ)


def _flag(name: str, environ: dict[str, str] | None) -> bool:
    value = (os.environ if environ is None else environ).get(name, "").strip().lower()
    return value in ("1", "true", "yes", "on")


def new_session_token() -> str:
    return secrets.token_hex(TOKEN_BYTES)


def is_session_token(value: object) -> TypeGuard[str]:
    """The canonical form only: 32 lower-case hex digits, nothing before or after."""
    return isinstance(value, str) and _TOKEN.fullmatch(value) is not None


def session_workspace_dir(root: Path, token: str) -> Path:
    """The folder of one session's drafts; the token is checked, so it can never leave `root`."""
    if not is_session_token(token):
        raise ValueError(f"not a session token: {token!r}")
    return root / SESSIONS_FOLDER / token


# --- the server secret and what it keys ----------------------------------------------------------------


def workshop_secret(root: Path) -> bytes:
    """The server's secret, created at first use (CSPRNG, file mode 0600, never replaced once written)."""
    path = root / SECRET_FILE
    if not path.exists():
        root.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=root, prefix=".secret.", suffix=".tmp")  # mode 0600
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(secrets.token_bytes(SECRET_BYTES))
            os.link(temporary, path)  # atomic create-if-absent: two first sessions at once keep one secret
        except FileExistsError:
            pass
        finally:
            os.unlink(temporary)
    if path.is_symlink() or not path.is_file():
        raise OSError(f"{path} is not a regular file; remove it so that a new secret can be made")
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    secret = path.read_bytes()
    if len(secret) < SECRET_BYTES:
        raise OSError(f"{path} is damaged (shorter than {SECRET_BYTES} bytes); remove it and restart the workshop")
    return secret


def _mac(secret: bytes, purpose: str, token: str) -> str:
    return hmac.new(secret, f"{purpose}:{token}".encode("ascii"), hashlib.sha256).hexdigest()


def table_namespace(secret: bytes, token: str) -> str:
    """What names a session's tables on the endpoint: a keyed hash of the token, from which it cannot be had."""
    if not is_session_token(token):
        raise ValueError("not a session token")
    return _mac(secret, "table", token)[:TABLE_NAMESPACE_HEX]


def browser_proof(secret: bytes, token: str) -> str:
    """The binding cookie's value: the token and its HMAC, which only this server can compute."""
    if not is_session_token(token):
        raise ValueError("not a session token")
    return f"{token}.{_mac(secret, 'browser', token)}"


def token_from_proof(secret: bytes, cookie: object) -> str | None:
    """The token a binding cookie proves, or None for a missing, malformed or forged cookie."""
    if not isinstance(cookie, str):
        return None
    token, _, mac = cookie.partition(".")
    if not is_session_token(token):
        return None
    return token if hmac.compare_digest(mac, _mac(secret, "browser", token)) else None


@dataclass(frozen=True)
class SessionResolution:
    """The token a new browser session works under, and why a token in its URL was not used."""

    token: str
    issued: bool  # a new token: the browser must be given its cookie
    refused: str | None = None  # plain text for the page when the URL named a session not bound to this browser


def resolve_session(requested: str | None, cookie: str | None, secret: bytes,
                    known: Callable[[str], bool] = lambda _token: False) -> SessionResolution:
    """The token for a new browser session: the one its cookie proves, else a fresh one.

    A token in the URL is used only when this browser's cookie proves it, so a copied or guessed link
    (another attendee's token, all zeros, `<token>%0A`, upper case) never opens someone else's work.
    `known` says whether a session with that token has work on this server: only then does the message
    say the link is another browser's; tokens are random and never listed, so anything else (all zeros, a
    made-up token) is called what it is, a session this server does not know.
    """
    proven = token_from_proof(secret, cookie)
    refused = None
    if requested and requested != proven:
        if not is_session_token(requested):
            why = "is not a session this server issued"
        elif known(requested):
            why = "belongs to another browser"
        else:
            why = "is unknown to this server (no workshop session by that name has any work here)"
        refused = (f"The workshop session in this link {why}, so it was not opened here. "
                   + ("You are in this browser's own session." if proven else "You have a new session of your own."))
    if proven:
        return SessionResolution(proven, issued=False, refused=refused)
    return SessionResolution(new_session_token(), issued=True, refused=refused)


def visible_tables(names: Iterable[str], own_namespace: str) -> list[str]:
    """The endpoint's tables an attendee may see and import: every one but other sessions' preview tables."""
    own = f"{NAME_PREFIX}{own_namespace}-"
    return [n for n in names if not n.startswith(NAME_PREFIX) or n.startswith(own)]
