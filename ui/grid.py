"""The editable grid of the Model and Layout pages: a small component of our own, in place of st.data_editor.

Why (issue 14.2): Streamlit's canvas grid opens an overlay editor for each cell, and keys typed while it
opened, or while a rerun's deltas arrived, were lost ("1500" saved as 500; the second of two numbers typed
in a row never sent). Here every cell is a real input from the start, Enter moves the focus inside the
key's own handler, and each commit sends the grid's cumulative edits at once. The value has
st.data_editor's shape (`edited_rows`, `added_rows`, `deleted_rows` against the rows drawn), so
`ui.model_editor` applies it as before. The frontend is plain HTML and JavaScript in `grid_frontend/`: no
build step and no external request.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import streamlit.components.v1 as components

from studio import editing

_FRONTEND = Path(__file__).with_name("grid_frontend")
_grid_component = components.declare_component("editable_grid", path=str(_FRONTEND))

# st.column_config's type names -> the grid's cell kinds
_KINDS = {"selectbox": "select", "checkbox": "checkbox", "multiselect": "multiselect"}
_WIDE_COLUMNS = frozenset({"description", "filters"})


def column_spec(name: str, config: dict[str, Any] | None) -> dict[str, Any]:
    """One column of the grid from an `st.column_config` entry (a plain dict), so callers keep the same
    configuration they gave st.data_editor."""
    config = config or {}
    type_config = config.get("type_config") or {}
    kind = _KINDS.get(str(type_config.get("type")), "number" if name in editing.NUMBER_COLUMNS else "text")
    width_px = 260 if name in _WIDE_COLUMNS else 100 if kind in ("number", "checkbox") else 150
    return {"name": name, "label": str(config.get("label") or name), "kind": kind,
            "options": [_option_value(option) for option in type_config.get("options") or []],
            "default": config.get("default"), "disabled": bool(config.get("disabled")),
            "help": str(config.get("help") or ""), "width_px": width_px}


def _option_value(option: Any) -> str:
    """A select's option is its value; a multiselect's is {"value": ..., "label": ...}."""
    return str(option.get("value") if isinstance(option, dict) else option)


def _cell(value: Any) -> Any:
    """A cell as plain JSON. The rows come from the document, which may be a draft with errors: a value
    YAML read as something else (a date, say) is shown as its text instead of failing to serialize."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value  # NaN is not JSON
    if isinstance(value, list | tuple):
        return [_cell(v) for v in value]
    return str(value)


def editable_grid(rows: list[dict[str, Any]], columns: tuple[str, ...], column_config: dict[str, Any],
                  key: str, edits: Any) -> None:
    """Draw the grid. `edits` is its value as last reported (session state under `key`): a grid drawn again
    under the same key (a remount in the browser) shows them, so the next commit does not drop them."""
    _grid_component(columns=[column_spec(name, column_config.get(name)) for name in columns],
                    rows=[[_cell(row.get(name)) for name in columns] for row in rows],
                    edits=edits if isinstance(edits, dict) else None, key=key, default=None)
