"""Helpers for AppTest tests of the Model page: open it, read the saved draft, add an entity in its grid."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from modeling.workspace.folder import Workspace

ROOT = Path(__file__).resolve().parents[2]


def model_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/model.py").run()
    assert not at.exception, at.exception
    return at


def saved(workspace_dir: Path) -> dict:
    space = Workspace(workspace_dir)
    return space.load(space.most_recent())


def set_entities_grid_edits(at: AppTest, edits: dict) -> None:
    """Give the entities grid these cumulative edits (what the browser sends) and run the page."""
    # the grid reports its edits cumulatively under a versioned key (ui.model_editor); AppTest's state has no get()
    version = at.session_state["model.entities.version"] if "model.entities.version" in at.session_state else 0  # noqa: SIM401
    at.session_state[f"model.entities.editor.{version}"] = {
        "edited_rows": {}, "added_rows": [], "deleted_rows": [], **edits}
    at.run()


def add_entity_in_the_grid(at: AppTest, name: str) -> None:
    set_entities_grid_edits(at, {"added_rows": [{"name": name, "item_count": 5}]})
    assert not at.exception, at.exception
