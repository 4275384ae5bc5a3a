"""The models imported from the SQL fixtures work with the rest of the product: the design search the cost
estimate uses serves every mapped pattern by a key read, and the estimate prices them."""

from __future__ import annotations

from pathlib import Path

import pytest

from costs.design_ranking import rank_designs
from costs.estimate import EstimateRequest
from modeling.design.plans import Operation
from modeling.interop.relational_import import import_relational
from studio.estimate import estimate_model

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sql"
CASES = {"students": ("students.sql", "students_pg_stat_statements.csv", None),
         "crm": ("crm.sql", "crm_pg_stat_statements.csv", None),
         "ecommerce": ("ecommerce.sql", "ecommerce_digest.csv", "ecommerce_rows.csv")}


@pytest.mark.parametrize("case", list(CASES))
def test_every_searched_design_serves_every_pattern_and_the_estimate_prices_it(case: str) -> None:
    schema, log, rows = CASES[case]
    model = import_relational((FIXTURES / schema).read_bytes(), schema, (FIXTURES / log).read_bytes(), log,
                              (FIXTURES / rows).read_bytes() if rows else None, window_hours=48,
                              peak_to_average=3).model
    ranking = rank_designs(model)
    for design in ranking.designs:
        scans = [p.pattern for p in design.plans if p.operation is Operation.SCAN or not p.served]
        assert scans == [], design.name
    estimate = estimate_model(EstimateRequest(model, compare_designs=False))
    assert {row["access pattern"] for row in estimate.pattern_rows} == {p.name for p in model.access_patterns}
    assert all(row["operation"] != "Scan" for row in estimate.pattern_rows)
    assert estimate.cost.recommendation is not None
