"""Where models are saved: one small interface, a folder (the default) or a DynamoDB table.

`DESIGN_STUDIO_WORKSPACE` names it: a folder path (default `~/.dynamodb-design-studio/workspace`,
`modeling.workspace.folder.Workspace`), or `dynamodb://TABLE` for a table on the configured endpoint
(`modeling.workspace.table.TableWorkspace`), which several app servers can share. Both keep the same
promises: every save names the version it was based on and a stale one raises WorkspaceConflictError
carrying the other side's document; a failed save raises WorkspaceError and the caller keeps the edit;
an unreadable draft raises on read and is never overwritten by the session; at most
`DESIGN_STUDIO_MAX_DRAFTS` drafts per workspace.
"""

from __future__ import annotations

import os
import re
from typing import Any, Protocol, runtime_checkable

from modeling.errors import WorkspaceConflictError, WorkspaceError
from modeling.limits import MAX_TABLE_NAME_CHARS, MIN_TABLE_NAME_CHARS, TABLE_NAME_CHARACTER
from modeling.workspace.folder import Draft, DraftInfo, slugify

WORKSPACE_ENV = "DESIGN_STUDIO_WORKSPACE"
TABLE_SCHEME = "dynamodb://"
# DynamoDB's table-name rule: 3 to 255 characters of a-z, A-Z, 0-9, '_', '-', '.'
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html
_TABLE_NAME = re.compile(rf"{TABLE_NAME_CHARACTER}{{{MIN_TABLE_NAME_CHARS},{MAX_TABLE_NAME_CHARS}}}")
# A slug is tried with -2, -3, ... until one is free; past this many the workspace is pathological.
_MAX_SLUG_ATTEMPTS = 1000


@runtime_checkable
class WorkspaceStore(Protocol):
    """The drafts of one workspace (one user, or one workshop session)."""

    def drafts(self) -> list[DraftInfo]:
        """Every readable draft, most recently modified first."""
        ...

    def skipped(self) -> list[str]:
        """Entries that look like drafts but are not (a folder's links and FIFOs), to say so on the page."""
        ...

    def most_recent(self) -> str | None: ...

    def exists(self, slug: str) -> bool: ...

    def load(self, slug: str) -> dict[str, Any]: ...

    def read(self, slug: str) -> Draft:
        """The draft and its version; WorkspaceError (or ModelFileError) when it cannot be read."""
        ...

    def version(self, slug: str) -> str | None:
        """The draft's current version, or None when there is no such draft."""
        ...

    def save(self, slug: str, document: dict[str, Any], expected_version: str | None = None) -> str:
        """Write the draft and return its new version; with `expected_version` ("" for a new draft) only
        if the draft is still at it, else WorkspaceConflictError with the other side."""
        ...

    def create(self, document: dict[str, Any]) -> str:
        """Save a new draft under a fresh slug derived from its name; return the slug."""
        ...

    def copy(self, slug: str, name: str) -> str:
        """Save a copy of a draft under a new name as a new draft; return its slug."""
        ...

    def delete(self, slug: str) -> None: ...

    def describe(self) -> str:
        """Where the drafts are, for messages ("the folder ...", "the DynamoDB table ...")."""
        ...


def workspace_table_name(environ: dict[str, str] | None = None) -> str | None:
    """The table named by `DESIGN_STUDIO_WORKSPACE=dynamodb://TABLE`, or None for a folder workspace."""
    value = (os.environ if environ is None else environ).get(WORKSPACE_ENV, "").strip()
    if not value.lower().startswith(TABLE_SCHEME):
        return None
    name = value[len(TABLE_SCHEME):].strip("/")
    if not _TABLE_NAME.fullmatch(name):
        raise WorkspaceError(f"{WORKSPACE_ENV}={value[:300]!r} does not name a DynamoDB table: write "
                             "dynamodb://NAME with 3 to 255 letters, digits, '_', '-' or '.'")
    return name


def create_with_fresh_slug(store: WorkspaceStore, document: dict[str, Any]) -> str:
    """Save `document` as a new draft under the first free slug from its name (name, name-2, ...).

    The conditional save (expected version "") decides, so two servers creating the same name at once
    get two slugs, never one overwritten.
    """
    base = slugify(str(document.get("name", "model")))[:56].strip("-") or "model"
    for number in range(1, _MAX_SLUG_ATTEMPTS + 1):
        slug = base if number == 1 else f"{base}-{number}"
        try:
            store.save(slug, document, expected_version="")
        except WorkspaceConflictError:
            continue
        return slug
    raise WorkspaceError(f"no free name for a new model from `{base}` after {_MAX_SLUG_ATTEMPTS} tries; "
                         "rename the model")


def copy_draft(store: WorkspaceStore, slug: str, name: str) -> str:
    return store.create({**store.load(slug), "name": name})
