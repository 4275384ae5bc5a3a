"""The Layout page's sample items as the user reads them: a stranger saw "None" where an item has no such
attribute and "2.000000" for a whole number (pandas' Styler on a column that a gap had turned into floats)."""

from __future__ import annotations

import re

import pytest

from costs.design_ranking import propose
from modeling.design.layout import ENTITY_COLUMN, layout_view
from modeling.examples import list_examples, load_example
from ui.layout_views import sample_table

_CELL = "\x1f"


def _shown_cells(rows: tuple[dict, ...], columns: tuple[str, ...]) -> list[dict[str, str]]:
    """Each row as the table shows it, column by column (the Styler's display text)."""
    rows = tuple({k: v.replace("\n", " ") if isinstance(v, str) else v for k, v in row.items()}
                 for row in rows)  # an address's line break would split a row of the text below
    styled = sample_table(rows, columns, {})
    # what st.dataframe sends the browser: the cells themselves (it draws an empty cell as "None" whatever a
    # Styler's display text says), so every cell is the text to show
    assert all(isinstance(cell, str) for cell in styled.data.to_numpy().ravel()), styled.data
    text = styled.hide(axis="index").to_string(delimiter=_CELL)
    header, *lines = text.rstrip("\n").split("\n")
    return [dict(zip(header.split(_CELL), line.split(_CELL), strict=True)) for line in lines]


def test_a_gap_in_a_number_column_is_blank_and_the_numbers_stay_whole() -> None:
    rows = ({"PK": "A#1", ENTITY_COLUMN: "A", "count": 2, "ratio": 0.25, "tags": ["x", "y"], "open": True},
            {"PK": "B#1", ENTITY_COLUMN: "B", "count": None, "ratio": None})
    shown = _shown_cells(rows, ("PK", ENTITY_COLUMN, "count", "ratio", "tags", "open", "never"))
    assert shown[0] == {"PK": "A#1", ENTITY_COLUMN: "A", "count": "2", "ratio": "0.25", "tags": '["x", "y"]',
                        "open": "true"}  # "never", in no item, is left out
    assert shown[1] == {"PK": "B#1", ENTITY_COLUMN: "B", "count": "", "ratio": "", "tags": "", "open": ""}


@pytest.mark.parametrize("slug", [e.slug for e in list_examples()])
def test_no_sample_cell_shows_none_nan_or_six_decimal_places(slug: str) -> None:
    model = load_example(slug)
    design = propose(model)[0]
    view = layout_view(model, design.key_design)
    shown = _shown_cells(view.rows, view.columns)
    for row, cells in zip(view.rows, shown, strict=True):
        for column, text in cells.items():
            assert text not in ("None", "nan", "NaN"), (column, row)
            assert not re.fullmatch(r"-?\d+\.\d{6}", text), (column, text, row.get(column))
            value = row.get(column)
            if isinstance(value, int) and not isinstance(value, bool):
                assert text == str(value), (column, value, text)
