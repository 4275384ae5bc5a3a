"""The whole-model estimate: golden cost tables per example and Region, consistency, the CLI gate."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from costs import charts
from costs.__main__ import main
from costs.estimate import EstimateRequest, UnknownRegionError, autoscaling_day, break_even_curve, cost_components
from costs.pricing import available_regions
from costs.report_text import plain
from modeling.examples import EXAMPLES_DIR, list_examples, load_example
from modeling.model import TableClass
from studio.estimate import estimate_model
from tests.cli_runner import CliResult, run_main
from tests.golden_files import assert_matches_golden

CASES = [(e.slug, r) for e in list_examples() for r in available_regions()]


def _table(slug: str, region: str) -> str:
    result = estimate_model(EstimateRequest(load_example(slug), region=region, compare_designs=False))
    best = result.cost.recommendation
    table = {"design": result.design.name, "region": region,
             "options": {f"{o.option}/{o.table_class}": o.monthly_total_usd for o in result.cost.options},
             "recommendation": best and {"option": best.option, "table_class": best.table_class,
                                         "monthly_cost_usd": best.monthly_cost_usd}}
    return json.dumps(plain(table), indent=2) + "\n"


@pytest.mark.parametrize("slug, region", CASES, ids=[f"{s}-{r}" for s, r in CASES])
def test_cost_table_matches_its_golden_file(slug: str, region: str, update_golden: bool) -> None:
    assert_matches_golden(f"costs/estimates/{slug}-{region}.json", _table(slug, region), update_golden)


def test_pattern_units_add_up_to_the_table_and_index_usage() -> None:
    result = estimate_model(EstimateRequest(load_example("ecommerce_orders"), compare_designs=False))
    pattern_total = sum(r["average units/s"] for r in result.pattern_rows)
    resource_total = sum(r["average read units/s"] + r["average write units/s"] for r in result.resource_rows)
    assert pattern_total == pytest.approx(resource_total)
    assert sum(r["share of units"] for r in result.pattern_rows) == pytest.approx(1.0)


def test_the_recommendation_is_the_cheapest_complete_option() -> None:
    cost = estimate_model(EstimateRequest(load_example("crm_single_table"), region="us-east-1",
                                          compare_designs=False)).cost
    complete = [o.monthly_total_usd for o in cost.options if o.monthly_total_usd is not None]
    assert cost.recommendation.monthly_cost_usd == min(complete) and cost.recommendation.excluded_lines == ()


def test_a_price_missing_from_every_option_is_named_not_counted_as_zero() -> None:
    # eu-west-1 has no confirmed PITR price (dynamodb-rules §9.3) and the CRM table has PITR on
    cost = estimate_model(EstimateRequest(load_example("crm_single_table"), compare_designs=False)).cost
    assert all(o.monthly_total_usd is None for o in cost.options)
    best = cost.recommendation
    assert best.excluded_lines == ("Point-in-time recovery, table + LSIs (GB-month)",)
    assert "Point-in-time recovery" in best.reason and "negotiated price" in best.reason


def test_designs_are_compared_line_by_line() -> None:
    result = estimate_model(EstimateRequest(load_example("ecommerce_orders")))
    assert [r["design"] for r in result.comparison] == [d.name for d in result.designs]
    assert result.comparison[0]["delta vs chosen USD/month"] == Decimal(0)
    assert any(r["delta USD/month"] for r in result.line_deltas)


def test_an_unknown_region_is_a_clear_error() -> None:
    with pytest.raises(UnknownRegionError, match="us-east-1"):
        estimate_model(EstimateRequest(load_example("chat_messages"), region="mars-1"))


def test_charts_have_one_trace_per_component_and_labelled_axes() -> None:
    result = estimate_model(EstimateRequest(load_example("ecommerce_orders"), compare_designs=False))
    rows = cost_components(result.cost)
    figure = charts.cost_by_component(rows)
    assert len(figure.data) == len({r["component"] for r in rows}) and figure.layout.yaxis.title.text == "USD per month"
    curve = charts.autoscaling_curve(autoscaling_day(result.usage, 0.7), "t")
    assert len(curve.data) == 2 and len(curve.data[0].x) == 1440
    crossing = charts.break_even(break_even_curve(result.usage, result.price_sheet, TableClass.STANDARD), 28.9)
    assert len(crossing.data) == 2 and crossing.layout.shapes[0].x0 == 28.9


def test_break_even_curve_crosses_near_the_documented_utilisation() -> None:
    result = estimate_model(EstimateRequest(load_example("iot_telemetry"), region="us-east-1",
                                            compare_designs=False))
    rows = break_even_curve(result.usage, result.price_sheet, TableClass.STANDARD)
    cheaper = [r["utilisation %"] for r in rows if r["provisioned USD/month"] < r["on-demand USD/month"]]
    assert min(cheaper) == 30  # dynamodb-rules §10: 28.9 % in us-east-1; the grid steps by 5 %


def _estimate_cli(*args: str) -> CliResult:
    return run_main(main, ["estimate", *args])


def test_estimate_cli_gates_a_launch_on_budget() -> None:
    model = str(EXAMPLES_DIR / "chat_messages.yaml")
    over = _estimate_cli(model, "--budget-usd", "10")
    assert over.returncode == 3 and "over budget" in over.stderr
    under = _estimate_cli(model, "--budget-usd", "1000000", "--format", "md")
    assert under.returncode == 0 and under.stdout.startswith("# Capacity and cost")


def test_estimate_cli_csv_has_every_line_item() -> None:
    result = _estimate_cli(str(EXAMPLES_DIR / "iot_telemetry.yaml"), "--format", "csv")
    header, *rows = result.stdout.strip().splitlines()
    assert header.startswith("option,table class,line item") and len(rows) > 20


@pytest.mark.parametrize("args, fragment", [
    (["/nonexistent/model.yaml"], "cannot read the file"),
    ([str(EXAMPLES_DIR / "chat_messages.yaml"), "--budget-usd", "lots"], "is not a finite number"),
    ([str(EXAMPLES_DIR / "chat_messages.yaml"), "--target-utilization", "0.95"], "20-90 %"),
], ids=["missing-file", "bad-budget", "bad-target"])
def test_estimate_cli_bad_input_is_one_clear_line(args: list[str], fragment: str) -> None:
    result = _estimate_cli(*args)
    assert result.returncode in (1, 2) and fragment in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("region", ["eu-central-1", "us-east-2"])
def test_why_a_design_lost_quotes_the_delta_of_the_region_priced(region: str) -> None:
    """Issue 28.6: in an eu-central-1 estimate, "why it lost" quoted the us-east-1 delta ($1.61 where the table
    beside it said $1.97). Each row's reason starts with the on-demand delta the same row shows, or says the
    price is unknown where the row has none (us-east-2's sheet lacks one of this model's prices)."""
    model = load_example("ecommerce_orders")
    assert model.table.region != region
    result = estimate_model(EstimateRequest(model, region=region))
    rows = [r for r in result.comparison if not r["why it lost"].startswith("cheapest")]
    assert rows, "the example has runners-up to compare"
    for row in rows:
        delta = row["on-demand delta USD/month"]
        expected = ("price unknown in this Region's sheet" if delta is None
                    else f"{'+' if delta >= 0 else '-'}${abs(delta):,.2f}/month on-demand")
        assert row["why it lost"].startswith(expected)
