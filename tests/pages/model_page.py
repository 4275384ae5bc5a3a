"""Helpers for AppTest tests of the Model page: open it, read the saved draft, add an entity in its grid."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from modeling.workspace.folder import Workspace

ROOT = Path(__file__).resolve().parents[2]


def page_through_app(page: str, timeout_seconds: float = 60) -> AppTest:
    """`pages/<page>.py` reached as a user reaches it: app.py's navigation first, then the page."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout_seconds)
    at.run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def model_page() -> AppTest:
    return page_through_app("model")


def saved(workspace_dir: Path) -> dict:
    space = Workspace(workspace_dir)
    return space.load(space.most_recent())


def scoped(at: AppTest, name: str) -> str:
    """`name` as a key of the open model's state in this session (ui.session.model_key)."""
    return at.session_state["model.scope"].key(name)


def grid_version(at: AppTest, grid: str) -> int:
    """The version in a grid's editor key (ui.model_editor): it moves on each time the grid is drawn anew."""
    key = scoped(at, f"{grid}.version")
    return at.session_state[key] if key in at.session_state else 0  # noqa: SIM401 (AppTest's state has no get())


def set_grid_edits(at: AppTest, grid: str, edits: dict) -> None:
    """Give a grid these cumulative edits (what the browser sends) and run the page."""
    at.session_state[scoped(at, f"{grid}.editor.{grid_version(at, grid)}")] = {
        "edited_rows": {}, "added_rows": [], "deleted_rows": [], **edits}
    at.run()


def set_entities_grid_edits(at: AppTest, edits: dict) -> None:
    """Give the entities grid these cumulative edits (what the browser sends) and run the page."""
    set_grid_edits(at, "entities", edits)


def add_entity_in_the_grid(at: AppTest, name: str) -> None:
    set_entities_grid_edits(at, {"added_rows": [{"name": name, "item_count": 5}]})
    assert not at.exception, at.exception
