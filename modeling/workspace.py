"""The workspace: a folder of model drafts on disk, so work survives refreshes and restarts.

A draft is a model document as the user left it, valid or not, so that nothing typed is lost on a
validation error. Each draft is one JSON file named by its slug; writes are atomic (temporary file
then rename), so a crash never leaves half a file. The folder is `DESIGN_STUDIO_WORKSPACE`, or
`~/.dynamodb-design-studio/workspace`.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modeling.errors import ModelFileError, WorkspaceError
from modeling.model_file import parse_document

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def default_workspace_dir(environ: dict[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    configured = env.get("DESIGN_STUDIO_WORKSPACE", "").strip()
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
class Workspace:
    root: Path

    def drafts(self) -> list[DraftInfo]:
        """Every readable draft, most recently modified first."""
        infos = []
        for path in self._files():
            try:
                document = self.load(path.stem)
            except ModelFileError:
                continue  # a damaged file is skipped, not fatal; `load` reports it when opened
            infos.append(DraftInfo(path.stem, str(document.get("name") or path.stem), path.stat().st_mtime_ns))
        return sorted(infos, key=lambda info: (-info.modified_ns, info.slug))

    def most_recent(self) -> str | None:
        drafts = self.drafts()
        return drafts[0].slug if drafts else None

    def exists(self, slug: str) -> bool:
        return is_valid_slug(slug) and self._path(slug).is_file()

    def load(self, slug: str) -> dict[str, Any]:
        path = self._path(slug)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise WorkspaceError(f"cannot read the draft `{slug}` in {self.root}: {exc.strerror}") from None
        return parse_document(data, path.name)

    def save(self, slug: str, document: dict[str, Any]) -> None:
        """Write the draft atomically (valid or not)."""
        path = self._path(slug)
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.root, prefix=f".{slug}.", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except OSError as exc:
            raise WorkspaceError(f"cannot save the model in {self.root}: {exc.strerror}; "
                                 "set DESIGN_STUDIO_WORKSPACE to a writable folder") from None

    def create(self, document: dict[str, Any]) -> str:
        """Save a new draft under a fresh slug derived from its name; return the slug."""
        base = slugify(str(document.get("name", "model")))[:56].strip("-") or "model"
        slug, number = base, 2
        while self._path(slug).exists():
            slug, number = f"{base}-{number}", number + 1
        self.save(slug, document)
        return slug

    def delete(self, slug: str) -> None:
        try:
            self._path(slug).unlink(missing_ok=True)
        except OSError as exc:
            raise WorkspaceError(f"cannot delete the draft `{slug}`: {exc.strerror}") from None

    def _files(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        return [p for p in self.root.glob("*.json") if is_valid_slug(p.stem)]

    def _path(self, slug: str) -> Path:
        if not is_valid_slug(slug):
            raise WorkspaceError(f"`{slug}` is not a model name the workspace can store; "
                                 "use lower-case letters, digits and dashes")
        return self.root / f"{slug}.json"


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
