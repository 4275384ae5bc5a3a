"""What a first visit of a page no longer does twice: the pickers' list of designs is not priced, and the
estimate after the ranking prices nothing the ranking priced already; answers equal those from scratch."""

from __future__ import annotations

from costs import design_cost
from costs.design_ranking import propose, rank_designs
from costs.estimate import EstimateRequest
from costs.report_text import estimate_csv, estimate_markdown
from modeling.examples import load_example
from modeling.memo import clear_domain_caches
from studio.estimate import estimate_model

SLUG = "iot_telemetry"  # the smallest example: its search and ranking take a few tenths of a second


def test_pickers_list_the_ranking_designs_without_pricing_any() -> None:
    clear_domain_caches()
    model = load_example(SLUG)
    listed = propose(model)
    assert len(design_cost._PRICED) == 0  # nothing sized or priced for a picker
    assert listed == rank_designs(model).designs  # the same designs, in the same order
    assert len(design_cost._PRICED) == len(listed)  # the ranking priced each once


def test_the_estimate_after_the_ranking_reuses_its_prices_and_equals_a_fresh_one() -> None:
    model = load_example(SLUG)
    clear_domain_caches()
    fresh = estimate_model(EstimateRequest(model))
    clear_domain_caches()
    rank_designs(model)
    priced = len(design_cost._PRICED)
    after = estimate_model(EstimateRequest(model))
    assert len(design_cost._PRICED) == priced  # the default settings: every design was priced by the ranking
    assert (estimate_markdown(after), estimate_csv(after)) == (estimate_markdown(fresh), estimate_csv(fresh))
    changed = estimate_model(EstimateRequest(model, target_utilization=0.5))
    assert len(design_cost._PRICED) == priced + len(after.designs)  # another target prices every design again
    assert estimate_markdown(changed) != estimate_markdown(after)
