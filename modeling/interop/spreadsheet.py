"""CSV that is safe to open in a spreadsheet: no cell is ever run as a formula.

Spreadsheets evaluate a cell that starts with `=`, `+`, `-` or `@` as a formula (and some skip a leading
tab or carriage return first), so a key template such as `=HYPERLINK("http://…")` in a model would become
a live link in the file someone opens. Every CSV the product writes goes through `csv_text`, which writes
such text cells with a leading apostrophe, the spreadsheets' own "this is text" mark (OWASP, "CSV
Injection"). Numbers are written as they are: a negative number is data, not a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: Any) -> Any:
    """Text a spreadsheet would evaluate, made inert with a leading apostrophe; anything else unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """The rows as CSV with a header, in `columns` order (a missing value is an empty cell), every cell safe."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({column: neutralise_cell(row.get(column)) for column in columns})
    return buffer.getvalue()
