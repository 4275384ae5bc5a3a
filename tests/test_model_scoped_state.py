"""Issue 26: state on a page belongs to one model. Every widget that holds what a user typed or chose, and
every session-state entry a page keeps, is named through the open model's scope (`ui.session.model_key`,
`ModelScope.key`), unless it is one of the session-wide entries listed here with the reason it is not the
model's. A key added without either fails here, before it can carry one model's state into another."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "ui").glob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])

# Widgets whose value is state the user gave (buttons, downloads, charts and tables hold none).
STATEFUL_WIDGETS = {"text_input", "text_area", "selectbox", "multiselect", "radio", "checkbox", "toggle",
                    "number_input", "slider", "select_slider", "date_input", "time_input", "data_editor",
                    "file_uploader", "form", "color_picker", "pills", "segmented_control", "tabs"}

SESSION_WIDE = {  # key prefix -> why it is not the open model's
    "sidebar.": "which model is open, and the endpoint: the session's",
    "workshop.": "the attendee's token and browser binding",
    "lessons.": "which lesson and step: a lesson opens models, it is not one",
    "start.": "the form that creates a new model",
    "model.example_choice": "opens an example as a new model",
    "model.upload": "opens a file as a new model",
    "model.nwb_upload": "opens a NoSQL Workbench file as a new model",
    "model.nwb_table": "which table of that file to open as a new model",
    "model.nwb_result": "what that import opened",
    "model.sql_": "opens a SQL schema as a new model",
    "import.": "opens a live table as a new model",
    "cost.item": "the quick calculator: an item typed there, no model",
    "cost.operation": "the quick calculator",
    "cost.consistency": "the quick calculator",
    "cost.units_form": "the quick calculator",
    "cost.overrides": "an account's negotiated prices, not a model's",
    "cost.override_form": "the form adding to those prices",
    "cost.tab": "which tab is open",
    "ie.tab": "which tab is open",
    "model.tabs": "which tab is open",
    "presenter.": "the presenter view",
    "session.": "ui.session's own notices",
    "model.scope": "ui.session: the open model itself",
    "model.document": "ui.session: the open draft, bound to its scope",
    "model.generation": "ui.session: the scope counter",
    "model.own_writes": "ui.session: digests of this session's own saves",
    "preview.state": "keyed by the model's content (ui.preview_views._state)",
    "report.built": "keyed by the model's content (ui.report_views.report_key)",
    "choices.cost.": "ui.choices: keyed by the model's slug",
}


def _scoped(node: ast.expr) -> bool:
    """A key built by model_key(...) or <scope>.key(...)/<name>.key() (a ScopedName), or a name/attribute that
    holds such a key (checked where it is built)."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "kept_text" and node.args:  # ui.tabs.kept_text(key) returns the key it is given
            return _scoped(node.args[0])
        return name in {"model_key", "key", "editor_key", "_snapshot_key", "_version_key"}
    return False


def _literal_prefix(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return None


def _session_wide(node: ast.expr) -> bool:
    prefix = _literal_prefix(node)
    return prefix is not None and any(prefix.startswith(p) for p in SESSION_WIDE)


def _unscoped_keys(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STATEFUL_WIDGETS:
            for keyword in node.keywords:
                # a name, subscript or attribute holds a key built elsewhere, where this check sees it
                held = isinstance(keyword.value, ast.Name | ast.Subscript | ast.Attribute)
                if keyword.arg == "key" and not (_scoped(keyword.value) or _session_wide(keyword.value) or held):
                    found.append(f"{path.name}:{node.lineno} {node.func.attr}(key={ast.unparse(keyword.value)})")
            if node.func.attr == "form" and node.args and not (_scoped(node.args[0]) or _session_wide(node.args[0])):
                found.append(f"{path.name}:{node.lineno} form({ast.unparse(node.args[0])})")
        # st.session_state["..."] / .get("...") / .setdefault("...") / .pop("...") with a literal key
        if isinstance(node, ast.Subscript) and _is_session_state(node.value):
            key = node.slice
            if _literal_prefix(key) is not None and not _session_wide(key):
                found.append(f"{path.name}:{node.lineno} session_state[{ast.unparse(key)}]")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"get", "setdefault", "pop"} and _is_session_state(node.func.value)
                and node.args and _literal_prefix(node.args[0]) is not None and not _session_wide(node.args[0])):
            found.append(f"{path.name}:{node.lineno} session_state.{node.func.attr}({ast.unparse(node.args[0])})")
    return found


def _is_session_state(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def test_every_key_a_page_keeps_is_the_open_models_or_listed_as_session_wide() -> None:
    found = [site for path in SOURCES for site in _unscoped_keys(path)]
    assert not found, "keys neither scoped by ui.session.model_key nor listed in SESSION_WIDE:\n" + "\n".join(found)


def test_the_check_sees_an_unscoped_key() -> None:
    """The check itself: a literal widget key and a literal session-state key are both caught."""
    sample = ROOT / "tests" / "fixtures" / "unscoped_keys_sample.py.txt"
    assert len(_unscoped_keys(sample)) == 3
