"""Golden files: compare text with tests/golden/<name>, rewriting it only under --update-golden."""

from __future__ import annotations

from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def assert_matches_golden(name: str, text: str, update: bool) -> None:
    path = GOLDEN_DIR / name
    if update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        assert update, f"golden file {name} was missing and has been written; re-run the tests"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs; run pytest --update-golden if intended"
