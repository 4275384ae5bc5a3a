"""CSV downloads never carry a live formula (issue 15, finding 9): OWASP's CSV-injection starts are made inert."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from modeling.interop.spreadsheet import csv_text, neutralise_cell

ROOT = Path(__file__).resolve().parents[2]
PAYLOADS = ['=HYPERLINK("http://evil.example/x","click")', "+1+1", "-2+3", "@SUM(A1:A2)", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_text_that_starts_like_a_formula_gets_an_apostrophe(payload: str) -> None:
    assert neutralise_cell(payload) == "'" + payload


@pytest.mark.parametrize("value", ["CUSTOMER#{id}", "a=b", "x-1", "", " =1", -2, -0.5, Decimal("-1.25"), None, True])
def test_anything_else_is_written_as_it_is(value: object) -> None:
    assert neutralise_cell(value) == value


def test_csv_text_neutralises_every_cell_and_keeps_the_rest() -> None:
    rows = [{"entity": "Order", "pk": PAYLOADS[0], "size": -3}, {"entity": "@me", "sk": "ORDER#{id}"}]
    read = list(csv.reader(io.StringIO(csv_text(rows, ("entity", "pk", "sk", "size")))))
    assert read == [["entity", "pk", "sk", "size"],
                    ["Order", "'" + PAYLOADS[0], "", "-3"],
                    ["'@me", "", "ORDER#{id}", ""]]
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for row in read for cell in row)


def test_the_cost_line_items_csv_keeps_numbers_exact() -> None:
    from costs.estimate import EstimateRequest
    from costs.report_text import estimate_csv
    from modeling.examples import load_example
    from studio.estimate import estimate_model

    text = estimate_csv(estimate_model(EstimateRequest(load_example("student_platform"), compare_designs=False)))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(Decimal(r["monthly USD"]) >= 0 for r in rows)  # numbers, not apostrophe-text
    assert not any(v.startswith(("=", "+", "-", "@")) for r in rows for v in r.values())


def test_every_csv_the_product_writes_goes_through_csv_text() -> None:
    """A new CSV download written with pandas or the csv module directly would skip the neutralising."""
    writers = re.compile(r"\.to_csv\(|csv\.(writer|DictWriter)\(")
    offenders = [str(p.relative_to(ROOT)) for package in ("modeling", "costs", "ui", "pages", "workshop")
                 for p in (ROOT / package).rglob("*.py")
                 if p.name != "spreadsheet.py" and writers.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
