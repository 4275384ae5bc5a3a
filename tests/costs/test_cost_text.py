"""How cost figures read (costs/cost_text.py): prices as the sheet has them, "not available" instead of None,
partial totals that say what they leave out, and a Markdown download without None or float noise."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from costs import charts
from costs.cost_text import NOT_AVAILABLE, option_figure, price, unit_price, usd
from costs.estimate import EstimateRequest, cost_components
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
