"""The workspace: a folder of model drafts on disk, so work survives refreshes and restarts.

A draft is a model document as the user left it, valid or not, so that nothing typed is lost on a
validation error. Each draft is one JSON file named by its slug; writes are atomic (temporary file
then rename), so a crash never leaves half a file. The folder is `DESIGN_STUDIO_WORKSPACE`, or
`~/.dynamodb-design-studio/workspace`.

Every draft has a version, the hash of its bytes. A save can name the version it was based on and is
refused when the draft has moved on since (optimistic concurrency, like a DynamoDB condition on a
version attribute): two tabs or two people never overwrite each other silently. Only regular files
are drafts: a folder, a symlink or a FIFO named `x.json` is skipped, never opened.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modeling.errors import ModelFileError, WorkspaceConflictError, WorkspaceError
from modeling.model_file import parse_document

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
# A cap on drafts per workspace folder: every page lists them, and a room of anonymous visitors must
# not be able to fill the disk. Override with DESIGN_STUDIO_MAX_DRAFTS.
DEFAULT_MAX_DRAFTS = 200
_LOCK_FILE = ".lock"
# name per (path, mtime_ns, size): listing drafts parses each file once per change, not on every click
_NAME_CACHE: dict[tuple[str, int, int], str | None] = {}


def default_workspace_dir(environ: dict[str, str] | None = None) -> Path:
    """The folder of drafts, and of this installation's files (`.instance-id`, `.workshop-secret`).

    With `DESIGN_STUDIO_WORKSPACE=dynamodb://TABLE` the drafts are in the table
    (`modeling.workspace.store`) and this folder keeps only those files: `DESIGN_STUDIO_STATE_DIR`, or
    the default folder.
    """
    env = os.environ if environ is None else environ
    configured = env.get("DESIGN_STUDIO_WORKSPACE", "").strip()
    if configured.lower().startswith("dynamodb://"):
        configured = env.get("DESIGN_STUDIO_STATE_DIR", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".dynamodb-design-studio" / "workspace"


def slugify(name: str) -> str:
    """'E-commerce orders (v2)' -> 'e-commerce-orders-v2'."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")
    return slug or "model"


@dataclass(frozen=True)
class DraftInfo:
    slug: str
    name: str
    modified_ns: int


@dataclass(frozen=True)
class Draft:
    document: dict[str, Any]
    version: str


def document_bytes(document: dict[str, Any]) -> bytes:
    """A draft as stored, in the folder or the table: the same document gives the same bytes."""
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def document_version(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def max_drafts(environ: dict[str, str] | None = None) -> int:
    env = os.environ if environ is None else environ
    configured = env.get("DESIGN_STUDIO_MAX_DRAFTS", "").strip()
    return int(configured) if configured.isdigit() and int(configured) > 0 else DEFAULT_MAX_DRAFTS


@dataclass(frozen=True)
class Workspace:
    root: Path

    def drafts(self) -> list[DraftInfo]:
        """Every readable draft, most recently modified first."""
        infos = []
        for path, status in self._regular_files():
            name = _draft_name(path, status)
            if name is None:
                continue  # a damaged file is skipped, not fatal; `load` reports it when opened
            infos.append(DraftInfo(path.stem, name, status.st_mtime_ns))
        return sorted(infos, key=lambda info: (-info.modified_ns, info.slug))

    def skipped(self) -> list[str]:
        """Names ending in .json that are not drafts (folders, symlinks, FIFOs), to say so on the page."""
        if not self.root.is_dir():
            return []
        regular = {p.name for p, _ in self._regular_files()}
        return sorted(p.name for p in self.root.glob("*.json") if p.name not in regular)

    def most_recent(self) -> str | None:
        drafts = self.drafts()
        return drafts[0].slug if drafts else None

    def exists(self, slug: str) -> bool:
        return is_valid_slug(slug) and _regular(self._path(slug)) is not None

    def load(self, slug: str) -> dict[str, Any]:
        return self.read(slug).document

    def read(self, slug: str) -> Draft:
        """The draft and its version; a WorkspaceError when it is not a readable regular file."""
        data = self._bytes(slug)
        return Draft(parse_document(data, f"{slug}.json"), document_version(data))

    def version(self, slug: str) -> str | None:
        """The draft's current version, or None when there is no such draft."""
        try:
            return document_version(self._bytes(slug))
        except WorkspaceError:
            return None

    def save(self, slug: str, document: dict[str, Any], expected_version: str | None = None) -> str:
        """Write the draft atomically (valid or not) and return its new version.

        With `expected_version`, the write happens only if the draft is still at that version (or,
        for "", does not exist yet); otherwise WorkspaceConflictError names the version it is at.
        """
        path = self._path(slug)
        data = document_bytes(document)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with self._locked():
                if expected_version is not None:
                    found = self.version(slug) or ""
                    if found != expected_version:
                        raise WorkspaceConflictError(slug, found, self._document_or_none(slug))
                handle, temporary = tempfile.mkstemp(dir=self.root, prefix=f".{slug}.", suffix=".tmp")
                with os.fdopen(handle, "wb") as stream:
                    stream.write(data)
                os.replace(temporary, path)
        except OSError as exc:
            raise WorkspaceError(f"cannot save the model in {self.root}: {exc.strerror}; "
                                 "set DESIGN_STUDIO_WORKSPACE to a writable folder") from None
        return document_version(data)

    def create(self, document: dict[str, Any]) -> str:
        """Save a new draft under a fresh slug derived from its name; return the slug."""
        limit = max_drafts()
        if len(self._regular_files()) >= limit:
            raise WorkspaceError(f"the workspace already holds {limit} models, its limit; delete some "
                                 "(Model page, File tab) or raise DESIGN_STUDIO_MAX_DRAFTS")
        base = slugify(str(document.get("name", "model")))[:56].strip("-") or "model"
        slug, number = base, 2
        while os.path.lexists(self._path(slug)):
            slug, number = f"{base}-{number}", number + 1
        self.save(slug, document, expected_version="")
        return slug

    def copy(self, slug: str, name: str) -> str:
        return self.create({**self.load(slug), "name": name})

    def describe(self) -> str:
        return f"the folder {self.root}"

    def _document_or_none(self, slug: str) -> dict[str, Any] | None:
        """The other side of a conflict, or None when it is gone or cannot be read."""
        try:
            return self.load(slug)
        except (ModelFileError, WorkspaceError):
            return None

    def delete(self, slug: str) -> None:
        try:
            self._path(slug).unlink(missing_ok=True)
        except OSError as exc:
            raise WorkspaceError(f"cannot delete the draft `{slug}`: {exc.strerror}") from None

    def _bytes(self, slug: str) -> bytes:
        path = self._path(slug)
        if _regular(path) is None:
            raise WorkspaceError(f"the draft `{slug}` in {self.root} is missing or is not a regular file")
        try:
            # O_NONBLOCK: a FIFO swapped in after the check still never blocks the app
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(descriptor, "rb") as stream:
                return stream.read()
        except OSError as exc:
            raise WorkspaceError(f"cannot read the draft `{slug}` in {self.root}: {exc.strerror}") from None

    def _regular_files(self) -> list[tuple[Path, os.stat_result]]:
        if not self.root.is_dir():
            return []
        found = []
        for path in self.root.glob("*.json"):
            status = _regular(path) if is_valid_slug(path.stem) else None
            if status is not None:
                found.append((path, status))
        return found

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Serialise compare-and-write across threads and processes of this host."""
        with open(self.root / _LOCK_FILE, "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _path(self, slug: str) -> Path:
        if not is_valid_slug(slug):
            raise WorkspaceError(f"`{slug}` is not a model name the workspace can store; "
                                 "use lower-case letters, digits and dashes")
        return self.root / f"{slug}.json"


def _regular(path: Path) -> os.stat_result | None:
    """The file's status when it is a regular file (not a folder, symlink, FIFO or device)."""
    try:
        status = path.lstat()
    except OSError:
        return None
    return status if stat.S_ISREG(status.st_mode) else None


def _draft_name(path: Path, status: os.stat_result) -> str | None:
    stamp = (str(path), status.st_mtime_ns, status.st_size)
    if stamp not in _NAME_CACHE:
        try:
            document = Workspace(path.parent).load(path.stem)
            _NAME_CACHE[stamp] = str(document.get("name") or path.stem)
        except (ModelFileError, WorkspaceError):
            _NAME_CACHE[stamp] = None
        if len(_NAME_CACHE) > 4096:
            _NAME_CACHE.pop(next(iter(_NAME_CACHE)))
    return _NAME_CACHE[stamp]


def is_valid_slug(slug: str) -> bool:
    return bool(_SLUG.match(slug))


# --- this installation's identity ------------------------------------------------------------------

INSTANCE_FILE = ".instance-id"
_INSTANCE = re.compile(r"^[0-9a-f]{32}$")
_process_instance: dict[Path, str] = {}


def instance_id(root: Path) -> str:
    """A random id for this installation of the product, kept in the workspace folder (created once).

    Preview tables are tagged with it, so the product only ever writes to or deletes tables this very
    installation created, never a colleague's on a shared endpoint. When the folder cannot be written, the
    id lasts as long as the process: tables it creates are then refused after a restart, which is safe.
    """
    path = root / INSTANCE_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if _INSTANCE.match(text):
            return text
    except (OSError, UnicodeDecodeError):
        pass
    fresh = secrets.token_hex(16)
    try:
        root.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="ascii") as handle:  # "x": two processes never both write it
            handle.write(fresh + "\n")
        return fresh
    except FileExistsError:
        text = path.read_text(encoding="ascii").strip()
        if _INSTANCE.match(text):
            return text
    except OSError:
        pass
    return _process_instance.setdefault(root, fresh)
