"""The Capacity & cost page shows prices as the sheet has them and never None, NaN or a cut-off figure
(a stranger's browser test: `0.0007` for the $0.00065 WCU-hour; `None` in every money column of us-west-2)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from modeling.examples import example_document
from modeling.workspace.folder import Workspace

ROOT = Path(__file__).resolve().parents[2]
TABS = ("Options", "Access patterns", "Table & indexes", "Designs", "Assumptions & prices")


def _page_in(region: str, workspace_dir: Path) -> AppTest:
    document = example_document("student_platform")
    document["table"]["region"] = region
    Workspace(workspace_dir).create(document)
    at = AppTest.from_file(str(ROOT / "pages" / "capacity_and_cost.py"), default_timeout=120).run()
    assert not at.exception, at.exception
    return at


def _open(at: AppTest, tab: str) -> AppTest:
    at.session_state["cost.tab"] = tab
    at.run()
    assert not at.exception, at.exception
    return at


def _price_cell(at: AppTest, item: str) -> str:
    prices = next(d.value for d in at.dataframe if "unit price" in d.value.columns and "price" in d.value.columns)
    row = prices[(prices["price"] == item) & (prices["table class"] == "STANDARD")]
    return str(row["unit price"].iloc[0])


@pytest.mark.parametrize(("region", "item", "shown"), [
    # AWS Price List, Amazon DynamoDB, us-east-1, usage type WriteCapacityUnit-Hrs beyond the free tier:
    # $0.00065 per WCU-hour (AWS Labs' reco config, IAD wcu 0.00065); the table rounded it to 0.0007
    ("us-east-1", "provisioned_write_capacity_unit_hours", "$0.00065 per WCU-hour"),
    # us-east-1, ReadCapacityUnit-Hrs: $0.00013 per RCU-hour (reco config IAD rcu), shown as 0.0001
    ("us-east-1", "provisioned_read_capacity_unit_hours", "$0.00013 per RCU-hour"),
    # ap-southeast-1, APS1-ReadCapacityUnit-Hrs: $0.000148 per RCU-hour (reco config SIN rcu), shown as 0.0001
    ("ap-southeast-1", "provisioned_read_capacity_unit_hours", "$0.000148 per RCU-hour"),
], ids=["us-east-1-wcu-hour", "us-east-1-rcu-hour", "ap-southeast-1-rcu-hour"])
def test_assumptions_table_shows_every_digit_of_a_unit_price_with_its_unit(workspace_dir: Path, region: str,
                                                                           item: str, shown: str) -> None:
    at = _open(_page_in(region, workspace_dir), "Assumptions & prices")
    assert _price_cell(at, item) == shown


def _is_missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value) in ("None", "nan", "NaN")


def test_a_region_without_some_prices_says_not_available_and_never_none(workspace_dir: Path) -> None:
    # us-west-2's sheet has no on-demand and no storage price: the stranger saw None in every money column
    at = _page_in("us-west-2", workspace_dir)
    cells: list[object] = []
    for tab in TABS:
        _open(at, tab)
        cells += [v for d in at.dataframe for v in d.value.astype(object).to_numpy().ravel()]
    assert cells and not [c for c in cells if _is_missing(c)]
    assert "not available" in cells
    assert any(str(c).startswith("$") and "excluding Point-in-time recovery, Storage" in str(c) for c in cells)


def test_headline_metrics_hold_a_short_figure_and_the_why_goes_below(workspace_dir: Path) -> None:
    # st.metric cuts a long value off ("$4.32 (exclu…", "not availabl…"): figures only, reasons in captions
    at = _page_in("us-west-2", workspace_dir)
    values = {m.label: m.value for m in at.metric}
    assert values["On-demand, USD/month"] == "not available"
    assert values["Recommended, USD/month"].startswith("$") and len(values["Recommended, USD/month"]) <= 12
    assert all(len(v) <= len("not available") for v in values.values())
    assert any(c.value.startswith("Excludes Point-in-time recovery, Storage") for c in at.caption)
