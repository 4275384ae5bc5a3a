"""The built-in example models shipped in `modeling/examples/`."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modeling.errors import ModelFileError, Problem
from modeling.model import Model
from modeling.model_file import load_model_file, read_document_file

EXAMPLES_DIR = Path(__file__).with_name("examples")


@dataclass(frozen=True)
class Example:
    slug: str
    name: str
    description: str
    path: Path


def list_examples() -> list[Example]:
    """Every example, sorted by file name (so the order is stable)."""
    return [_example(path, path.stat().st_mtime_ns) for path in sorted(EXAMPLES_DIR.glob("*.yaml"))]


@functools.lru_cache(maxsize=256)
def _example(path: Path, mtime_ns: int) -> Example:
    """Parsed once per file version: the Start page and many tests list the examples again and again."""
    document = read_document_file(path)
    return Example(path.stem, str(document.get("name", path.stem)), str(document.get("description", "")).strip(),
                   path)


def example_document(slug: str) -> dict[str, Any]:
    return read_document_file(_example_path(slug))


def load_example(slug: str) -> Model:
    return load_model_file(_example_path(slug))


def _example_path(slug: str) -> Path:
    path = EXAMPLES_DIR / f"{slug}.yaml"
    if "/" in slug or not path.is_file():
        known = ", ".join(e.slug for e in list_examples())
        raise ModelFileError([Problem("", f"there is no built-in example `{slug}`", f"use one of: {known}")])
    return path
