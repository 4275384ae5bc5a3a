"""Limit lines for the charts (a dashed line across the plot and its label), as plain layout dicts.

Both charts modules (`modeling.charts`, `costs.charts`) give them to `go.Figure(data, layout)` at once:
plotly's `add_hline`/`add_vline` re-validate the whole layout for each line (10-25 ms a chart), and the
pages draw every chart again on each rerun. No plotly here, so any module may build a layout with it.
"""

from __future__ import annotations

from typing import Any

Line = tuple[dict[str, Any], dict[str, Any]]


def limit_line(axis: str, value: float, text: str, colour: str | None = None, width: int | None = 1) -> Line:
    """A dashed line across the plot at `value` on `axis` ("x" or "y") and its label, as plotly's
    add_hline/add_vline draw them (label at the right end of a horizontal line, the top of a vertical one)."""
    across = "y" if axis == "x" else "x"
    line: dict[str, Any] = {"dash": "dash"}
    if colour is not None:
        line["color"] = colour
    if width is not None:
        line["width"] = width
    shape = {"type": "line", f"{across}ref": f"{across} domain", f"{across}0": 0, f"{across}1": 1,
             f"{axis}ref": axis, f"{axis}0": value, f"{axis}1": value, "line": line}
    label: dict[str, Any] = {"text": text, "showarrow": False, f"{across}ref": f"{across} domain", across: 1,
                             f"{axis}ref": axis, axis: value}
    label.update({"xanchor": "right", "yanchor": "bottom"} if axis == "y" else {"xanchor": "left", "yanchor": "top"})
    return shape, label


def with_lines(layout: dict[str, Any], *lines: Line) -> dict[str, Any]:
    """`layout` with the limit lines and their labels."""
    return {**layout, "shapes": [shape for shape, _ in lines], "annotations": [label for _, label in lines]}
