"""How cost figures read (costs/cost_text.py): prices as the sheet has them, "not available" instead of None,
partial totals that say what they leave out, and a Markdown download without None or float noise."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from costs import charts
from costs.cost_text import NOT_AVAILABLE, option_figure, price, unit_price, usd
from costs.estimate import EstimateRequest, cost_components
from costs.pricing import CostLineItem, round_to_cent
from costs.report_text import estimate_markdown
from costs.usage import CapacityOption
from modeling.examples import load_example
from modeling.model import TableClass
from studio.estimate import estimate_model

_FLOAT_NOISE = re.compile(r"\d\.\d{7,}")  # more than six decimals: a raw float such as 0.17647058823529413


@pytest.mark.parametrize(("value", "shown"), [
    (Decimal("0.00065"), "$0.00065"),  # us-east-1 WCU-hour (AWS Price List WriteCapacityUnit-Hrs), never 0.0007
    (Decimal("0.000148"), "$0.000148"),  # ap-southeast-1 RCU-hour, never 0.0001
    (Decimal("0.0000001234"), "$0.0000001234"),  # every significant digit, no exponent
    (Decimal("0.10"), "$0.10"), (Decimal("150"), "$150.00"),  # at least the cents
], ids=["wcu-hour", "rcu-hour-sin", "tiny", "ten-cents", "whole"])
def test_a_unit_price_keeps_every_significant_digit(value: Decimal, shown: str) -> None:
    assert price(value) == shown


def test_a_price_reads_with_its_unit_and_an_unknown_one_is_not_available() -> None:
    assert unit_price(Decimal("0.625"), "1,000,000 WRU") == "$0.625 per 1,000,000 WRU"
    assert unit_price(None, "WCU-hour") == usd(None) == NOT_AVAILABLE


def test_money_totals_are_cents_with_separators() -> None:
    # 1,482.045 rounds half up to 1,482.05 (a bill's rounding); a negative delta keeps its sign before the $
    assert (usd(Decimal("1482.045")), usd(Decimal("-5")), usd(930.0)) == ("$1,482.05", "-$5.00", "$930.00")


@pytest.fixture(scope="module")
def us_west_2():
    # us-west-2's sheet has provisioned prices but no on-demand and no storage price
    return estimate_model(EstimateRequest(load_example("student_platform"), region="us-west-2"))


def test_markdown_download_has_no_none_and_no_float_noise(us_west_2) -> None:
    text = estimate_markdown(us_west_2)
    assert "None" not in text and not re.search(r"\bnan\b", text, re.IGNORECASE)
    assert not _FLOAT_NOISE.search(text), _FLOAT_NOISE.search(text)
    assert "| On-demand | Standard | not available |" in text
    # the student platform's access patterns: shares such as 375 / 524.8 units/s read as a percentage, not 0.7145…
    assert re.search(r"\| \d{1,2}\.\d% \|", text)


def test_a_headline_figure_is_short_and_its_reason_apart(us_west_2) -> None:
    figure, why = option_figure(us_west_2.cost.option(CapacityOption.ON_DEMAND, TableClass.STANDARD))
    assert figure == NOT_AVAILABLE and why.startswith("no price for") and "Reads" in why and "Writes" in why
    figure, why = option_figure(us_west_2.cost.option(CapacityOption.RESERVED_3Y, TableClass.STANDARD))
    assert figure.startswith("$") and why == "excludes Point-in-time recovery, Storage: no price in this Region"


def test_chart_labels_stay_short_and_the_exclusions_go_to_the_hover_text(us_west_2) -> None:
    figure = charts.cost_by_component(cost_components(us_west_2.cost))
    ticks = {x for trace in figure.data for x in trace.x}
    assert ticks and all(len(line) <= 30 for tick in ticks for line in tick.split("<br>"))
    assert all(tick.endswith("*") for tick in ticks)  # every priced us-west-2 option lacks storage prices
    assert "excludes Point-in-time recovery, Storage: no price" in figure.data[0].customdata[0]
    assert "* excludes Point-in-time recovery, Storage" in figure.layout.title.text


# --- issue 28.6: a derived price, a large quantity and a tiny share, in every text form ------------------------

# An upfront fee spread over 36 months is a derived unit price: $43.80 / 36 = $1.21666..., which Decimal carries
# to 28 digits. A quantity of 155,985.791667 RCU-hours (213.68 RCU over 730 hours) was drawn clipped as 5985.7917.
_AMORTISED = Decimal("43.80") / 36
_LARGE_QUANTITY = Decimal("155985.791667")


def _line(quantity: Decimal, unit_price: Decimal) -> CostLineItem:
    return CostLineItem("Reserved RCU, 3-year, upfront amortised (1 x 100 RCU)", "100-RCU block-month", quantity,
                        unit_price, round_to_cent(quantity * unit_price), "test", "high", False)


def test_a_derived_unit_price_shows_eight_significant_digits_not_twenty_eight() -> None:
    assert price(_AMORTISED) == "$1.2166667"
    assert unit_price(_AMORTISED, "block-month") == "$1.2166667 per block-month"
    assert price(Decimal("0.0000001525")) == "$0.0000001525"  # a sheet's price keeps every digit


def test_the_cli_text_line_shows_the_whole_quantity_and_a_sensible_unit_price() -> None:
    from costs.report_text import _line_text

    text = _line_text(_line(_LARGE_QUANTITY, _AMORTISED))
    # 155,985.791667 x 1.2166667 = 189,782.71 (to the cent)
    assert text.endswith(": 155,985.79 x 100-RCU block-month @ $1.2166667 = $189,782.71"), text
    assert not re.search(r"\d\.\d{9,}|e-\d", text)  # neither 28 digits nor an exponent


def test_the_review_reports_cells_have_no_exponent_and_no_long_decimals() -> None:
    from studio.reports.review_render import cell_text

    # a hot-partition utilisation of 4.7619e-05 (1 RCU/s of 21,000) read as 4.76e-05 in the report's tables
    assert cell_text(4.7619e-05) == "0.0000476"
    assert cell_text(_AMORTISED) == "1.2166667" and cell_text(_LARGE_QUANTITY) == "155,985.79"
    assert cell_text(Decimal("1482.50")) == "1,482.50"  # money keeps its cents
