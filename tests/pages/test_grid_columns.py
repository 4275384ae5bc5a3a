"""The editable grid's columns (ui/grid.py) come from the st.column_config entries the pages already give."""

from __future__ import annotations

import streamlit as st

import editing
from ui.grid import column_spec


def test_select_columns_carry_their_options_and_default() -> None:
    spec = column_spec("type", st.column_config.SelectboxColumn("Type", options=["S", "N", "B"], default="S"))
    assert (spec["kind"], spec["label"], spec["options"], spec["default"]) == ("select", "Type", ["S", "N", "B"], "S")


def test_number_columns_are_typed_as_text_and_read_by_the_domain() -> None:
    # a number is typed into a text cell (editing.NUMBER_COLUMNS says why); the grid only narrows the column
    spec = column_spec("item_count", st.column_config.TextColumn("Items"))
    assert spec["kind"] == "number" and "item_count" in editing.NUMBER_COLUMNS
    assert column_spec("name", st.column_config.TextColumn("Entity"))["kind"] == "text"


def test_checkbox_multiselect_disabled_and_help_are_kept() -> None:
    assert column_spec("required", st.column_config.CheckboxColumn("Required", default=True))["default"] is True
    multi = column_spec("inputs", st.column_config.MultiselectColumn("Inputs", options=["tenantId", "userId"]))
    assert (multi["kind"], multi["options"]) == ("multiselect", ["tenantId", "userId"])
    generator = column_spec("generator", st.column_config.TextColumn("Sample data", disabled=True, help="Edit below"))
    assert generator["disabled"] is True and generator["help"] == "Edit below"


def test_a_column_without_configuration_is_a_text_column_named_as_its_field() -> None:
    assert column_spec("notes", None) == {"name": "notes", "label": "notes", "kind": "text", "options": [],
                                          "default": None, "disabled": False, "help": "", "width_px": 150}


def test_cells_are_plain_json_whatever_a_draft_holds() -> None:
    import datetime
    import json

    from ui.grid import _cell

    # a draft read from YAML may hold a date where text belongs; NaN is not JSON
    assert _cell(datetime.date(2026, 12, 1)) == "2026-12-01"
    assert _cell(float("nan")) is None and _cell(2.5) == 2.5 and _cell(True) is True
    assert json.loads(json.dumps(_cell(("a", datetime.date(2026, 1, 2), None)))) == ["a", "2026-01-02", None]
