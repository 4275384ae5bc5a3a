"""Issue 13's hard cases, table-driven: every expected figure is worked out by hand from AWS's rule and the
price (dynamodb-rules section cited), in the comment beside it; the code under test only produces the
figure that is compared.

Items: 1 stated peaks and throttling risk, 2 quotas, 3 missing prices, 4 Regions, 5 sparse indexes,
6 transactions, 7 global tables, 8 auto scaling scale-in, 9 reserved blocks with the free tier, 10 the
small ones.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from costs import charts
from costs.__main__ import main as costs_main
from costs.autoscaling import ScalingPolicy, fixed_capacity, simulate_autoscaling
from costs.capacity import capacity_profile
from costs.estimate import EstimateRequest, break_even_curve, cost_components
from costs.monthly import estimate_monthly_cost
from costs.pricing import PriceItem, available_regions, line_item, load_price_sheet, price_sheet_for, reserved_blocks
from costs.throttling import throttling_risk
from costs.traffic_curves import pattern_minute_rates
from costs.usage import CapacityOption, EstimateOptions, FixedCapacity, ResourceUsage, TableUsage
from modeling.design.generator import rule_based_designs
from modeling.design.plans import Operation
from modeling.examples import load_example
from modeling.interop.infrastructure import IacFormat
from modeling.model import BillingMode, Model, TableClass, TrafficProfile, TrafficShape
from studio.estimate import estimate_model
from studio.iac.infrastructure import InfrastructureRequest, export_infrastructure
from tests.cli_runner import run_main
from tests.modeling.test_infrastructure import cfn_lint_problems

OPT, STANDARD, IA = CapacityOption, TableClass.STANDARD, TableClass.STANDARD_INFREQUENT_ACCESS
ROOT = Path(__file__).resolve().parents[2]
US_EAST_1 = load_price_sheet("us-east-1")
STANDARD_ONLY = EstimateOptions(table_classes=(STANDARD,))
FLAT, BUSINESS = TrafficProfile(shape=TrafficShape.FLAT), TrafficProfile(shape=TrafficShape.BUSINESS_HOURS)


def flat(reads: float, writes: float, **settings: object) -> TableUsage:
    return TableUsage(table=ResourceUsage.flat("t", reads, writes), **settings)


def one_minute_peak(base: float, peak: float, minutes: range) -> TableUsage:
    """A day at `base` units/s with `peak` units/s in the given minutes (reads), 1 unit/s writes."""
    reads = np.full(1440, float(base))
    reads[list(minutes)] = peak
    hourly = tuple(float(v) for v in reads.reshape(24, 60).mean(axis=1))
    table = ResourceUsage("t", hourly, (1.0,) * 24, read_units_per_minute=tuple(reads.tolist()),
                          write_units_per_minute=(1.0,) * 1440)
    return TableUsage(table=table)


def lines(option) -> dict[str, Decimal | None]:
    return {line.name: line.monthly_cost_usd for line in option.line_items}


# --- 1. stated peaks: each pattern's curve keeps its average and reaches its peak ---------------------------

CURVES = [
    # (average, peak, profile, expected minute 0, expected maximum)
    # flat, peak 20 > busiest 10: hour 0 (the first busiest hour) runs at 20; mean stays 10
    (10.0, 20.0, FLAT, 20.0, 20.0),
    # flat, other hours: (24 x 10 - 20) / (24 x 10 - 10) x 10 = 220 / 230 x 10 = 9.565217 (checked below)
    (10.0, 10.0, FLAT, 10.0, 10.0),  # peak = average: flat at 10
    # business hours: weights 7 x 0.1 + 0.5 + 10 x 1 + 0.5 + 5 x 0.1 = 12.2; busiest = 240 / 12.2 = 19.6721;
    # peak 15 below it: k = (15 - 10) / (19.6721 - 10) = 0.516949; hour 0 = 240 x 0.1 / 12.2 = 1.96721 ->
    # 10 + (1.96721 - 10) x 0.516949 = 5.84746
    (10.0, 15.0, BUSINESS, 5.84746, 15.0),
    # flat, peak 100 > 24 x average 1: L = floor(720 x 1 / 100) = 7 minutes at 100 from minute 0
    (1.0, 100.0, FLAT, 100.0, 100.0),
]


@pytest.mark.parametrize(("average", "peak", "profile", "minute_zero", "maximum"), CURVES,
                         ids=["flat-peak-2x", "flat-no-peak", "business-peak-below-busiest", "peak-above-24x"])
def test_each_pattern_curve_keeps_its_average_and_reaches_its_peak(average, peak, profile, minute_zero,
                                                                   maximum) -> None:
    minutes = pattern_minute_rates(average, peak, profile)
    assert float(minutes.mean()) == pytest.approx(average)
    assert float(minutes.max()) == pytest.approx(maximum)
    assert float(minutes[0]) == pytest.approx(minute_zero, rel=1e-5)


def test_peak_above_24x_average_lasts_minutes_and_the_rest_keeps_the_average() -> None:
    # L = 7 minutes at 100 = 700 of the day's 1,440 requests-minutes; the other 1,433 minutes share the
    # remaining 740: 740 / 1,433 = 0.516399 each
    minutes = pattern_minute_rates(1.0, 100.0, FLAT)
    assert list(minutes[:8]) == pytest.approx([100.0] * 7 + [740 / 1433])
    assert float(minutes[60:].max()) == pytest.approx(740 / 1433)


def _doc_model(average: float, peak: float) -> Model:
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Peaks", "table": {"name": "docs"},
        "entities": [{"name": "Doc", "item_count": 10, "identifiers": ["id"], "attributes": [
            {"name": "id", "avg_size_bytes": 10, "generator": {"kind": "sequence", "prefix": "d", "width": 9}}]}],
        "access_patterns": [{"name": "get_doc_by_id", "kind": "read_one", "entities": ["Doc"], "inputs": ["id"],
                             "consistency": "strong",
                             "traffic": {"peak_requests_per_second": peak, "average_requests_per_second": average}}]})


def test_fixed_capacity_is_sized_to_the_stated_peak_not_the_average_shape() -> None:
    # a strongly consistent GetItem of a small item = 1 RCU (§1.2); stated peak 70/s -> ceil(70 / 0.7) = 100 RCU;
    # the flat profile alone would give ceil(10 / 0.7) = 15. On-demand bills the average: 10 x 2,628,000 s =
    # 26.28 M RRU x $0.125 / M = $3.285 -> $3.29 (us-east-1, §9.2)
    result = estimate_model(EstimateRequest(_doc_model(10, 70), region="us-east-1", compare_designs=False))
    fixed = result.cost.option(OPT.PROVISIONED_FIXED)
    assert next(p for p in fixed.capacity if p.dimension.value == "read").peak_capacity_units == 100
    assert lines(result.cost.option(OPT.ON_DEMAND))["Reads, table docs (RRU)"] == Decimal("3.29")


def test_auto_scaling_sees_the_peak_hour() -> None:
    # stated peak 70/s in hour 0 (flat profile): auto scaling reaches ceil(70 / 0.7) = 100 RCU that hour
    result = estimate_model(EstimateRequest(_doc_model(10, 70), region="us-east-1", compare_designs=False))
    auto = result.cost.option(OPT.PROVISIONED_AUTOSCALING)
    assert next(p for p in auto.capacity if p.dimension.value == "read").peak_capacity_units == 100


THROTTLING = [
    # (capacity, base, peak, peak minutes, minutes over, peak excess, unit-seconds left after burst, minutes left)
    # 3 minutes at 150 over 100: excess 50 x 60 = 3,000 unit-s a minute, 9,000 in all; the bucket holds up to
    # 300 s x 100 = 30,000 unit-s (§7.1), refilled by the quiet minutes -> everything absorbed
    (100, 50, 150, range(600, 603), 3, 50.0, 0.0, 0),
    # 10 minutes at 200 over 100: 6,000 unit-s a minute; a full 30,000 bucket covers 5 minutes,
    # the other 5 throttle 5 x 6,000 = 30,000 unit-s
    (100, 50, 200, range(600, 610), 10, 100.0, 30_000.0, 5),
    # demand never above capacity: no risk
    (100, 50, 90, range(600, 610), 0, 0.0, 0.0, 0),
]


@pytest.mark.parametrize(("capacity", "base", "peak", "minutes", "over", "excess", "left", "left_minutes"),
                         THROTTLING, ids=["burst-absorbs", "burst-runs-out", "no-risk"])
def test_throttling_risk_counts_minutes_over_capacity_and_what_burst_absorbs(capacity, base, peak, minutes, over,
                                                                             excess, left, left_minutes) -> None:
    consumed = np.full(1440, float(base))
    consumed[list(minutes)] = peak
    risk = throttling_risk(fixed_capacity(consumed, capacity))
    assert (risk.minutes_over_capacity, risk.peak_excess_units_per_second) == (over, excess)
    assert (risk.throttled_unit_seconds_after_burst, risk.minutes_throttled_after_burst) == (pytest.approx(left),
                                                                                             left_minutes)


# --- 2. quotas are findings, never ceilings ---------------------------------------------------------------

QUOTAS = [
    # (reads/s, fixed RCU expected, findings expected: words each must contain)
    # 60,000 reads/s: ceil(60,000 / 0.7) = 85,715 RCU, above 40,000 (table) and 80,000 (account); on-demand
    # 60,000 RRU/s above the 40,000 table-level quota (§7.2, §8)
    (60_000, 85_715, ("On-demand: the busiest minute needs 60,000", "request an increase to at least 85,715",
                      "account-level read quota of 80,000")),
    # 30,000 reads/s: on-demand under 40,000; provisioned ceil(30,000 / 0.7) = 42,858 > 40,000
    (30_000, 42_858, ("needs 42,858 RCU",)),
    # 20,000 reads/s: ceil(20,000 / 0.7) = 28,572 under every quota: no finding
    (20_000, 28_572, ()),
]


@pytest.mark.parametrize(("reads", "fixed_rcu", "findings"), QUOTAS, ids=["60k", "30k", "20k"])
def test_quotas_price_the_load_and_name_the_increase(reads, fixed_rcu, findings) -> None:
    result = estimate_monthly_cost(flat(reads, 1), US_EAST_1, STANDARD_ONLY)
    plan = next(p for p in result.option(OPT.PROVISIONED_FIXED).capacity if p.dimension.value == "read")
    assert plan.peak_capacity_units == fixed_rcu
    text = " ".join(result.quota_findings)
    assert all(words in text for words in findings) and bool(result.quota_findings) == bool(findings)


def test_a_recommended_option_serves_the_peak_and_is_never_above_100_percent() -> None:
    # 60,000 reads/s: the old 40,000 cap made reserved "used at 148.6 %"; now every provisioned curve serves
    # the demand, so the average utilisation of the recommendation is at most 100 %
    result = estimate_monthly_cost(flat(60_000, 1), US_EAST_1, STANDARD_ONLY)
    best = result.option(result.recommendation.option)
    assert best.serves_peak and all(p.average_utilization <= 1.0 for p in best.capacity)
    assert "%" in result.recommendation.reason and "148" not in result.recommendation.reason


def test_an_option_that_cannot_serve_the_peak_is_never_recommended() -> None:
    # the user fixes 10 RCU for 100 reads/s: "cannot serve the peak", even though it is the cheapest
    # (10 x 730 x $0.00013 = $0.95 against ceil(100 / 0.7) = 143 RCU auto scaled)
    result = estimate_monthly_cost(flat(100, 1), load_price_sheet("us-east-1"), EstimateOptions(
        table_classes=(STANDARD,), fixed_capacity={"t": FixedCapacity(10, 2)}))
    fixed = result.option(OPT.PROVISIONED_FIXED)
    assert not fixed.serves_peak and fixed.status.startswith("cannot serve the peak")
    assert result.recommendation.option is not OPT.PROVISIONED_FIXED


# Infrastructure as code follows the load too: the auto scaling maximum is never capped at the 40,000-unit
# default quota; the export names the increase instead (in the notes and in the template's header).
IAC_QUOTAS = [
    # 42,000 strong GetItems/s of a small item = 42,000 RCU/s (§1.2); fixed ceil(42,000 / 0.7) = 60,000 RCU;
    # auto scaling maximum 2 x 60,000 = 120,000 RCU, above 40,000 (table) and 80,000 (account); the old code
    # wrote MaxCapacity 40,000 and an initial 40,000 that could never serve the peak
    (True, 60_000, 120_000, ("adds up to 120,000 RCU", "table-level read quota of 40,000",
                             "account-level (every table in the Region) read quota of 80,000")),
    # fixed capacity only: 60,000 RCU on the table, plus 1 WCU (the minimum, §8) -> table-level finding only
    (False, 60_000, None, ("adds up to 60,000 RCU", "table-level read quota of 40,000")),
]


@pytest.mark.parametrize(("auto_scaling", "initial", "maximum", "findings"), IAC_QUOTAS, ids=["auto", "fixed"])
def test_exported_capacity_follows_the_load_and_names_the_quota_increase(auto_scaling, initial, maximum,
                                                                         findings) -> None:
    model = _doc_model(42_000, 42_000)
    model = model.model_copy(update={"table": model.table.model_copy(update={"billing_mode": BillingMode.PROVISIONED})})
    result = export_infrastructure(InfrastructureRequest(model, IacFormat.CLOUDFORMATION, auto_scaling=auto_scaling))
    read = result.capacity.of("table").read
    assert (read.capacity_units, read.max_capacity_units) == (initial, maximum)
    text = " ".join(result.capacity.quota_findings)
    assert all(words in text for words in findings), text
    assert len(result.capacity.quota_findings) == len(findings) - 1
    assert all(f in result.code.notes for f in result.capacity.quota_findings)
    assert result.code.text.count("# Quota: ") == len(result.capacity.quota_findings)
    assert cfn_lint_problems(result.code.text) == []


def test_exported_capacity_under_the_quota_says_nothing_about_quotas() -> None:
    # 700 reads/s: ceil(700 / 0.7) = 1,000 RCU, maximum 2,000 (+ 1 WCU, max 2): far under 40,000
    model = _doc_model(700, 700)
    model = model.model_copy(update={"table": model.table.model_copy(update={"billing_mode": BillingMode.PROVISIONED})})
    result = export_infrastructure(InfrastructureRequest(model, IacFormat.TERRAFORM))
    assert result.capacity.of("table").read.max_capacity_units == 2_000
    assert result.capacity.quota_findings == () and "# Quota" not in result.code.text


# --- 3. a missing price is never $0 -------------------------------------------------------------------------


def test_standard_ia_without_throughput_prices_is_not_available_never_zero() -> None:
    # eu-west-1 has no Standard-IA price (§9.3): every IA option is not available and there is no $0 recommendation
    result = estimate_monthly_cost(flat(10, 5), load_price_sheet("eu-west-1"), EstimateOptions(table_classes=(IA,)))
    assert result.recommendation is None
    assert all(o.status.startswith(("not available", "not offered")) for o in result.options)


def test_pitr_without_a_price_is_excluded_and_said_so() -> None:
    # eu-west-1 has no PITR price (§9.3): the recommendation compares what is priced and says what it leaves out
    result = estimate_monthly_cost(flat(10, 5, point_in_time_recovery=True), load_price_sheet("eu-west-1"),
                                   EstimateOptions(table_classes=(STANDARD,)))
    best = result.recommendation
    assert best.excluded_lines == ("Point-in-time recovery, table + LSIs (GB-month)",)
    assert "excludes Point-in-time recovery" in best.reason
    option = result.option(best.option)
    assert option.monthly_total_usd is None and "excluding Point-in-time recovery" in option.status


def test_a_reserved_term_missing_from_the_sheet_is_not_available_never_not_offered() -> None:
    # AWS sells 3-year reserved capacity for Standard tables (§9.2); our us-east-2 sheet has no 3-year price
    # (AWS Labs' reco config lists none for 'CMH'): that is unknown to us, not "not offered" by AWS
    result = estimate_monthly_cost(flat(10, 5), load_price_sheet("us-east-2"), STANDARD_ONLY)
    three_years = result.option(OPT.RESERVED_3Y, STANDARD)
    assert three_years.monthly_total_usd is None and "not offered" not in three_years.status
    assert three_years.status == (
        "not available: no price for reserved_3y_rcu_upfront, reserved_3y_rcu_hourly, reserved_3y_wcu_upfront, "
        "reserved_3y_wcu_hourly: not available in the us-east-2 price sheet (enter a negotiated price to include it)")
    assert result.option(OPT.RESERVED_1Y, STANDARD).monthly_total_usd is not None  # the 1-year term is priced


def test_not_offered_options_say_why_and_charts_draw_only_known_lines() -> None:
    result = estimate_monthly_cost(flat(10, 5, point_in_time_recovery=True), load_price_sheet("eu-west-1"))
    assert result.option(OPT.RESERVED_1Y, IA).status.startswith("not offered: reserved capacity is not offered")
    rows = cost_components(result)
    # what a bar leaves out is its hover text, not its axis label (a long label took half the chart)
    assert rows and all(r["excludes"] == "Point-in-time recovery" and "excludes" not in r["option"] for r in rows)
    assert not any("Standard-IA" in r["option"] for r in rows)  # IA has no throughput price in eu-west-1


# --- 4. every Region is priced at its own sheet, or refused -----------------------------------------------

# Provisioned Standard list prices, AWS Labs' reco config (dynamodb-rules §9.2-9.4 for the first three):
# flat 70 reads/s and 7 writes/s -> ceil(70 / 0.7) = 100 RCU and ceil(7 / 0.7) = 10 WCU; 730 h a month:
# 73,000 RCU-hours and 7,300 WCU-hours, each line rounded to the cent (half up)
REGION_PRICES = [
    ("us-east-1", "0.00013", "0.00065", "9.49", "4.75"),  # 73,000 x 0.00013 = 9.49; 7,300 x 0.00065 = 4.745
    ("us-east-2", "0.00013", "0.00065", "9.49", "4.75"),  # 73,000 x 0.00013 = 9.49; 7,300 x 0.00065 = 4.745
    ("us-west-1", "0.000145", "0.000725", "10.59", "5.29"),  # 73,000 x 0.000145 = 10.585; 7,300 x 0.000725 = 5.2925
    ("us-west-2", "0.00013", "0.00065", "9.49", "4.75"),  # 73,000 x 0.00013 = 9.49; 7,300 x 0.00065 = 4.745
    ("ca-central-1", "0.000143", "0.000715", "10.44", "5.22"),  # 73,000 x 0.000143 = 10.439; 7,300 x 0.000715 = 5.2195
    ("eu-west-1", "0.000147", "0.000735", "10.73", "5.37"),  # 73,000 x 0.000147 = 10.731; 7,300 x 0.000735 = 5.3655
    ("eu-west-2", "0.0001544", "0.000772", "11.27", "5.64"),  # 73,000 x 0.0001544 = 11.2712; 7,300 x 0.000772 = 5.6356
    ("eu-west-3", "0.0001544", "0.000772", "11.27", "5.64"),  # 73,000 x 0.0001544 = 11.2712; 7,300 x 0.000772 = 5.6356
    # 73,000 x 0.0001586 = 11.5778; 7,300 x 0.000793 = 5.7889
    ("eu-central-1", "0.0001586", "0.000793", "11.58", "5.79"),
    ("eu-north-1", "0.00014", "0.000698", "10.22", "5.10"),  # 73,000 x 0.00014 = 10.22; 7,300 x 0.000698 = 5.0954
    # 73,000 x 0.00015435 = 11.26755; 7,300 x ... = 5.633775
    ("eu-south-1", "0.00015435", "0.00077175", "11.27", "5.63"),
    # 73,000 x 0.0001484 = 10.8332; 7,300 x 0.000742 = 5.4166
    ("ap-northeast-1", "0.0001484", "0.000742", "10.83", "5.42"),
    # 73,000 x 0.00014098 = 10.29154; 7,300 x 0.0007049 = 5.14577
    ("ap-northeast-2", "0.00014098", "0.0007049", "10.29", "5.15"),
    ("ap-southeast-1", "0.000148", "0.00074", "10.80", "5.40"),  # 73,000 x 0.000148 = 10.804; 7,300 x 0.00074 = 5.402
    ("ap-southeast-2", "0.000148", "0.00074", "10.80", "5.40"),  # 73,000 x 0.000148 = 10.804; 7,300 x 0.00074 = 5.402
    ("ap-south-1", "0.000148", "0.00074", "10.80", "5.40"),  # 73,000 x 0.000148 = 10.804; 7,300 x 0.00074 = 5.402
    ("sa-east-1", "0.000195", "0.000975", "14.24", "7.12"),  # 73,000 x 0.000195 = 14.235; 7,300 x 0.000975 = 7.1175
]


@pytest.mark.parametrize(("region", "rcu_price", "wcu_price", "reads_usd", "writes_usd"), REGION_PRICES,
                         ids=[r[0] for r in REGION_PRICES])
def test_each_region_prices_fixed_capacity_at_its_own_sheet(region, rcu_price, wcu_price, reads_usd,
                                                            writes_usd) -> None:
    sheet = load_price_sheet(region)
    result = estimate_monthly_cost(flat(70, 7), sheet, EstimateOptions(table_classes=(STANDARD,)))
    fixed = lines(result.option(OPT.PROVISIONED_FIXED))
    assert sheet.price(PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, STANDARD).value == Decimal(rcu_price)
    assert sheet.price(PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, STANDARD).value == Decimal(wcu_price)
    assert fixed["Read capacity, table t (RCU-hours)"] == Decimal(reads_usd)
    assert fixed["Write capacity, table t (WCU-hours)"] == Decimal(writes_usd)


# On-demand and storage at each Region's own sheet, where the sheet has them (§9.2-9.4; eu-central-1 from a
# third-party copy of its AWS Price List, see its sheet). Flat 100 reads/s and 10 writes/s of 1-unit requests:
# 100 x 2,628,000 s (730 h) = 262.8 M RRU and 10 x 2,628,000 = 26.28 M WRU; 100 GiB of storage
ON_DEMAND_PRICES = [
    # 262.8 x 0.125 = 32.85; 26.28 x 0.625 = 16.425 -> 16.43; 100 x 0.25 = 25.00
    ("us-east-1", "32.85", "16.43", "25.00"),
    # us-east-2: the same figures from one third-party copy of its Price List (an assumption)
    ("us-east-2", "32.85", "16.43", "25.00"),
    # 262.8 x 0.1415 = 37.1862 -> 37.19; 26.28 x 0.705 = 18.5274 -> 18.53; 100 x 0.283 = 28.30
    ("eu-west-1", "37.19", "18.53", "28.30"),
    # 262.8 x 0.1425 = 37.449 -> 37.45; 26.28 x 0.715 = 18.7902 -> 18.79; 100 x 0.285 = 28.50
    ("ap-northeast-1", "37.45", "18.79", "28.50"),
    # 262.8 x 0.1525 = 40.077 -> 40.08; 26.28 x 0.7625 = 20.0385 -> 20.04; 100 x 0.306 = 30.60
    ("eu-central-1", "40.08", "20.04", "30.60"),
]


@pytest.mark.parametrize(("region", "reads_usd", "writes_usd", "storage_usd"), ON_DEMAND_PRICES,
                         ids=[r[0] for r in ON_DEMAND_PRICES])
def test_on_demand_and_storage_use_the_regions_own_sheet(region, reads_usd, writes_usd, storage_usd) -> None:
    usage = TableUsage(table=ResourceUsage.flat("t", 100, 10, storage_bytes=100 * 1024**3))
    option = estimate_monthly_cost(usage, load_price_sheet(region), STANDARD_ONLY).option(OPT.ON_DEMAND)
    got = lines(option)
    assert (got["Reads, table t (RRU)"], got["Writes, table t (WRU)"], got["Storage, table t (GB-month)"]) == (
        Decimal(reads_usd), Decimal(writes_usd), Decimal(storage_usd))
    # 32.85 + 16.43 + 25.00 = 74.28 in us-east-1; the total is the sum of the rounded lines
    assert option.monthly_total_usd == Decimal(reads_usd) + Decimal(writes_usd) + Decimal(storage_usd)


def test_eu_central_1_prices_pitr_and_replicated_writes_from_its_own_sheet() -> None:
    # PITR 100 GiB x $0.2448 = $24.48; a replica in eu-central-1 takes 26.28 M rWRU x $0.7625 = $20.0385 -> $20.04
    # (replicated = single-Region write price since Nov 2024, §5, §9.1)
    usage = TableUsage(table=ResourceUsage.flat("t", 100, 10, storage_bytes=100 * 1024**3),
                       point_in_time_recovery=True)
    sheet = load_price_sheet("eu-central-1")
    got = lines(estimate_monthly_cost(usage, sheet, STANDARD_ONLY).option(OPT.ON_DEMAND))
    assert got["Point-in-time recovery, table + LSIs (GB-month)"] == Decimal("24.48")
    assert sheet.price(PriceItem.REPLICATED_WRITE_REQUEST_UNITS, STANDARD).value == Decimal("0.7625")
    # 26.28 x 0.7625 = 20.0385 -> 20.04
    rwru = line_item("r", sheet.price(PriceItem.REPLICATED_WRITE_REQUEST_UNITS, STANDARD), Decimal(26_280_000))
    assert rwru.monthly_cost_usd == Decimal("20.04")


def test_us_east_2_prices_a_replica_s_replicated_writes_at_its_own_wru_price() -> None:
    # AWS (Nov 2024, dynamodb-rules §5, §9.1): a replicated write costs the same as a single-Region write, so
    # us-east-2 rWRU = its own WRU, $0.625 per million (never another Region's price). Home us-east-1 with a
    # replica in us-east-2, 10 writes/s of 1 unit for 730 h: 10 x 2,628,000 = 26.28 M rWRU x $0.625 = $16.425
    # -> $16.43 in us-east-2 (was "not available": the sheet had no rWRU)
    sheet = load_price_sheet("us-east-2")
    rwru = sheet.price(PriceItem.REPLICATED_WRITE_REQUEST_UNITS, STANDARD)
    assert rwru.value == sheet.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD).value == Decimal("0.625")
    assert rwru.is_assumption and "aws.amazon.com/blogs/database" in rwru.source
    usage = TableUsage(table=ResourceUsage.flat("t", 0, 10), replica_regions=("us-east-2",))
    got = lines(estimate_monthly_cost(usage, load_price_sheet("us-east-1"), STANDARD_ONLY).option(OPT.ON_DEMAND))
    assert got["Replicated writes, table t, us-east-2 (rWRU)"] == Decimal("16.43")


UNPRICED_ON_DEMAND = ["us-west-2", "ap-southeast-1"]
_ZERO = re.compile(r"\$0\.00(?!\d)|\bNone\b|USD 0(?![.\d])")


@pytest.mark.parametrize("region", UNPRICED_ON_DEMAND)
def test_unpriced_lines_are_never_zero_or_none_in_the_cli_report_and_charts(region) -> None:
    # us-west-2 and ap-southeast-1 have no sourced on-demand or storage price: the CLI text, the JSON, the
    # Markdown report and the chart rows say "not available" or leave the line out, never $0.00 or None
    model_file = str(ROOT / "modeling" / "examples" / "crm_single_table.yaml")
    text = run_main(costs_main, ["estimate", model_file, "--region", region, "--format", "text"])
    assert text.returncode == 0 and "On-demand (Standard): not available" in text.stdout
    assert not _ZERO.search(text.stdout), _ZERO.search(text.stdout)
    for fmt in ("md", "html"):
        report = run_main(costs_main, ["report", model_file, "--region", region, "--format", fmt,
                                       "--hot-key-values", "1000"])
        visible = re.sub(r"<script.*?</script>", "", report.stdout, flags=re.S)  # the charts' bundled JS
        assert report.returncode == 0 and not _ZERO.search(visible), _ZERO.search(visible)
    document = json.loads(run_main(costs_main, ["estimate", model_file, "--region", region]).stdout)
    on_demand = [o for o in document["options"] if o["option"] == "on_demand"]
    assert on_demand and all(o["monthly_total_usd"] is None and o["priced_subtotal_usd"] is None
                             for o in on_demand)
    result = estimate_model(EstimateRequest(_doc_model(10, 70).model_copy(update={"table": _doc_model(
        10, 70).table.model_copy(update={"region": region})}), compare_designs=False))
    rows = cost_components(result.cost)
    assert rows and all(r["monthly USD"] is not None for r in rows)
    assert not any(r["option"].startswith("On-demand") for r in rows)  # no throughput price: not drawn


@pytest.mark.parametrize("region", UNPRICED_ON_DEMAND)
def test_the_break_even_and_pattern_charts_leave_out_what_has_no_price(region) -> None:
    # flat 70 reads/s and 7 writes/s: 70 x 2,628,000 = 183.96 M RCU-seconds a month = 51,100 RCU-hours at 100 %
    # utilisation x $0.00013 = $6.643 (us-west-2) / x $0.000148 = $7.5628 (ap-southeast-1); writes 5,110 WCU-hours
    # x $0.00065 = $3.3215 / x $0.00074 = $3.7814: provisioned $9.9645 / $11.3442 at 100 %. On-demand has no price:
    # None in every row, never the $0 line the chart used to draw
    rows = break_even_curve(flat(70, 7), load_price_sheet(region), STANDARD)
    expected = {"us-west-2": 9.9645, "ap-southeast-1": 11.3442}[region]
    assert rows[-1]["utilisation %"] == 100 and rows[-1]["provisioned USD/month"] == pytest.approx(expected)
    assert all(r["on-demand USD/month"] is None for r in rows)
    figure = charts.break_even(rows, None)
    assert [trace.name for trace in figure.data] == ["provisioned"]
    assert "on-demand not drawn: no price in this Region" in figure.layout.title.text
    patterns = charts.cost_by_pattern([{"access pattern": "get_doc_by_id", "on-demand USD/month": None}])
    assert len(patterns.data[0].x) == 0 and "1 of 1 not drawn" in patterns.layout.title.text


def test_every_shipped_region_is_in_the_table_above() -> None:
    assert sorted(available_regions()) == sorted(r[0] for r in REGION_PRICES)


def test_a_region_without_a_sheet_is_refused_clearly_and_takes_negotiated_prices() -> None:
    # af-south-1 ships no sheet: nothing priced, no recommendation, the message says how to fix it
    model = _doc_model(10, 70).model_copy(update={"table": _doc_model(10, 70).table.model_copy(
        update={"region": "af-south-1"})})
    refused = estimate_model(EstimateRequest(model, compare_designs=False))
    assert refused.price_sheet.region == "af-south-1" and not refused.price_sheet.is_shipped
    assert refused.cost.recommendation is None and "negotiated prices" in refused.region_message
    # negotiated: $0.0002 per RCU-hour and $0.001 per WCU-hour: 100 RCU x 730 h x 0.0002 = $14.60;
    # the writes (none: ceil(0 / 0.7) = 0 -> the 1-WCU minimum, §8) 1 x 730 x 0.001 = $0.73
    overrides = ((PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, STANDARD, Decimal("0.0002")),
                 (PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, STANDARD, Decimal("0.001")))
    negotiated = estimate_model(EstimateRequest(model, price_overrides=overrides, compare_designs=False))
    fixed = lines(negotiated.cost.option(OPT.PROVISIONED_FIXED))
    assert fixed["Read capacity, table docs (RCU-hours)"] == Decimal("14.60")
    assert fixed["Write capacity, table docs (WCU-hours)"] == Decimal("0.73")


def test_us_west_2_is_priced_as_us_west_2_never_another_region() -> None:
    # on-demand in us-west-2 has no sourced price: not available, never ap-northeast-1's $0.1425 / M
    model = _doc_model(10, 70)
    model = model.model_copy(update={"table": model.table.model_copy(update={"region": "us-west-2"})})
    result = estimate_model(EstimateRequest(model, compare_designs=False))
    assert result.price_sheet.region == "us-west-2" and result.price_sheet.is_shipped
    assert result.cost.option(OPT.ON_DEMAND).status.startswith("not available")
    assert price_sheet_for("us-west-2").price(PriceItem.ON_DEMAND_READ_REQUEST_UNITS, STANDARD).value is None


# --- 5. sparse indexes and 6. transactions ----------------------------------------------------------------


def _sparse_model() -> Model:
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Sparse", "table": {"name": "devices"},
        "entities": [{"name": "Device", "item_count": 1000, "identifiers": ["id"], "attributes": [
            {"name": "id", "avg_size_bytes": 10, "generator": {"kind": "sequence", "prefix": "d", "width": 9}},
            {"name": "status", "avg_size_bytes": 7,
             "generator": {"kind": "enum", "values": ["OFFLINE", "ONLINE"], "weights": [0.1, 0.9]}},
            {"name": "note", "avg_size_bytes": 100}]}],
        "access_patterns": [
            {"name": "update_status_by_id", "kind": "update", "entities": ["Device"], "inputs": ["id"],
             "changed_attributes": ["status"], "traffic": {"peak_requests_per_second": 1,
                                                           "average_requests_per_second": 1}},
            {"name": "update_note_by_id", "kind": "update", "entities": ["Device"], "inputs": ["id"],
             "changed_attributes": ["note"], "traffic": {"peak_requests_per_second": 1,
                                                         "average_requests_per_second": 1}},
            {"name": "put_device_by_id", "kind": "write", "entities": ["Device"], "inputs": ["id"],
             "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}},
            {"name": "list_offline_devices", "kind": "read_many", "entities": ["Device"], "inputs": ["status"],
             "expected_items": 10, "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}}],
        "key_design": {"global_secondary_indexes": [{"name": "GSI1", "partition_key": {"name": "GSI1PK"},
                                                     "sort_key": {"name": "GSI1SK"},
                                                     "projection": {"type": "KEYS_ONLY"}}],
                       "entities": [{"entity": "Device", "table": {"partition_key": "DEV#{id}", "sort_key": "DEV"},
                                     "indexes": {"GSI1": {"partition_key": "STATUS#{status}", "sort_key": "DEV#{id}",
                                                          "only_when": [{"attribute": "status",
                                                                         "equals": "OFFLINE"}]}}}]}})


SPARSE = [
    # s = share of Devices in GSI1 = weight of OFFLINE = 0.1; a KEYS_ONLY entry is under 1 KB: 1 WCU a write
    # update of the gating attribute (§4.1): an item in the index (s = 0.1) is rewritten once if it stays, or
    # deleted once if it moves out; an item outside costs nothing: 0.1 x 1 WCU = 0.1 WCU a request. (Reading
    # the new value as independent of the old charged 2 x 0.1 x 0.9 + 0.1^2 = 0.19, issue 27 D3.)
    ("update_status_by_id", {"GSI1": Decimal("0.1")}),
    # an update of an attribute neither in the keys nor projected (KEYS_ONLY) writes nothing to the index
    ("update_note_by_id", {}),
    # a new item enters the index only when OFFLINE: 0.1 put a request
    ("put_device_by_id", {"GSI1": Decimal("0.1")}),
]


@pytest.mark.parametrize(("pattern", "expected"), SPARSE, ids=[s[0] for s in SPARSE])
def test_sparse_index_writes_follow_membership(pattern, expected) -> None:
    model = _sparse_model()
    profile = capacity_profile(model, rule_based_designs(model)[0])
    capacity = next(c for c in profile.patterns if c.pattern == pattern)
    assert {i: u.normalize() for i, u in capacity.index_write_units_per_request} == expected


def _shop_model(product_bytes: int, changed: tuple[str, ...] = ()) -> Model:
    # Order items: 100 B note + keys; Product: `product_bytes` B description + keys (a few dozen bytes)
    def entity(name: str, body: int) -> dict:
        return {"name": name, "item_count": 100, "identifiers": ["id"], "attributes": [
            {"name": "id", "avg_size_bytes": 8, "generator": {"kind": "sequence", "prefix": name[0], "width": 7}},
            {"name": "category", "avg_size_bytes": 5}, {"name": "body", "avg_size_bytes": body}]}
    order, product = entity("Order", 100), entity("Product", product_bytes)
    order["attributes"] = [a for a in order["attributes"] if a["name"] != "category"]
    traffic = {"peak_requests_per_second": 1, "average_requests_per_second": 1}
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Shop", "table": {"name": "shop"},
        "entities": [order, product],
        "access_patterns": [
            {"name": "checkout_by_id", "kind": "transact_write", "entities": ["Order", "Product"], "inputs": ["id"],
             "expected_items": 2, "changed_attributes": list(changed), "traffic": traffic},
            {"name": "read_both_by_id", "kind": "transact_read", "entities": ["Order", "Product"], "inputs": ["id"],
             "expected_items": 2, "traffic": traffic},
            {"name": "list_products_by_category", "kind": "read_many", "entities": ["Product"],
             "inputs": ["category"], "expected_items": 5, "traffic": traffic}],
        "key_design": {"global_secondary_indexes": [{"name": "GSI1", "partition_key": {"name": "GSI1PK"},
                                                     "sort_key": {"name": "GSI1SK"},
                                                     "projection": {"type": "KEYS_ONLY"}}],
                       "entities": [{"entity": "Order", "table": {"partition_key": "ID#{id}", "sort_key": "ID#{id}"}},
                                    {"entity": "Product", "table": {"partition_key": "ID#{id}", "sort_key": "ID#{id}"},
                                     "indexes": {"GSI1": {"partition_key": "CAT#{category}",
                                                          "sort_key": "P#{id}"}}}]}})


def _pattern(model: Model, name: str):
    design = rule_based_designs(model)[0]
    # the planner answers a two-entity read by id with a Query on this small model; the units rule under test
    # is the TransactGetItems one, so the plan is made a TransactGetItems of the same items
    plans = tuple(dataclasses.replace(p, operation=Operation.TRANSACT_GET_ITEMS) if p.pattern == "read_both_by_id"
                  else p for p in design.plans)
    design = dataclasses.replace(design, plans=plans)
    return next(c for c in capacity_profile(model, design).patterns if c.pattern == name)


TRANSACTIONS = [
    # (Product body bytes, pattern, read units, write units), 2 items: one Order, one Product
    # writes: Order ~ 0.15 KB -> 1 KB -> x2 = 2 WCU; Product ~ 1.15 KB -> 2 KB -> x2 = 4 WCU: 6 (§2, per item);
    # rounding the average (~0.65 KB -> 1 KB -> 2 x 2 items) would give 4
    (1_100, "checkout_by_id", Decimal(0), Decimal(6)),
    # reads: Order ~ 0.15 KB -> 4 KB -> x2 = 2 RCU; Product ~ 4.25 KB -> 8 KB -> x2 = 4 RCU: 6;
    # the average (~2.2 KB -> 4 KB -> 2 x 2 items) would give 4
    (4_200, "read_both_by_id", Decimal(6), Decimal(0)),
]


@pytest.mark.parametrize(("product_bytes", "pattern", "reads", "writes"), TRANSACTIONS, ids=["write", "read"])
def test_transactions_round_each_item_before_doubling(product_bytes, pattern, reads, writes) -> None:
    capacity = _pattern(_shop_model(product_bytes), pattern)
    assert (capacity.read_units_per_request, capacity.write_units_per_request) == (reads, writes)


def test_a_transactional_update_of_an_index_key_is_a_delete_and_a_put() -> None:
    # the Product of the transaction changes `category`, part of GSI1's key: delete + put = 2 writes (1x under a
    # transaction, §2); the Order has no category (a new item, not in GSI1): 0
    capacity = _pattern(_shop_model(1_100, ("category",)), "checkout_by_id")
    assert dict(capacity.index_write_units_per_request) == {"GSI1": Decimal("2.000000")}


# --- 7. global tables ----------------------------------------------------------------------------------------


def test_replica_writes_and_storage_use_the_replica_regions_sheet() -> None:
    # home us-east-1, replica eu-west-1: 7 writes/s -> 10 WCU fixed; the replica's table writes are rWCU at
    # eu-west-1's $0.000735 (§9.3): 7,300 x 0.000735 = $5.3655 -> $5.37 (at us-east-1's $0.00065 it was $4.75)
    result = estimate_monthly_cost(flat(70, 7, replica_regions=("eu-west-1",)), load_price_sheet("us-east-1"),
                                   EstimateOptions(table_classes=(STANDARD,)))
    fixed = lines(result.option(OPT.PROVISIONED_FIXED))
    assert fixed["Replicated write capacity, table t, eu-west-1 (rWCU-hours)"] == Decimal("5.37")
    assert fixed["Replicated write capacity, table t, us-east-1 (rWCU-hours)"] == Decimal("4.75")


def test_an_eu_central_1_replica_is_priced_at_eu_central_1s_sheet_on_demand() -> None:
    # home us-east-1, replica eu-central-1, on-demand, 100 reads/s, 10 writes/s, 100 GiB (730 h = 2,628,000 s):
    # home: 262.8 M RRU x $0.125 = $32.85; 26.28 M rWRU x $0.625 = $16.425 -> $16.43; 100 x $0.25 = $25.00 (§9.2)
    # replica: 26.28 M rWRU x $0.7625 = $20.0385 -> $20.04; 100 GiB x $0.306 = $30.60 (eu-central-1's sheet)
    # total 32.85 + 16.43 + 25.00 + 20.04 + 30.60 = $124.92
    usage = TableUsage(table=ResourceUsage.flat("t", 100, 10, storage_bytes=100 * 1024**3),
                       replica_regions=("eu-central-1",))
    option = estimate_monthly_cost(usage, US_EAST_1, STANDARD_ONLY).option(OPT.ON_DEMAND)
    got = lines(option)
    assert got["Replicated writes, table t, eu-central-1 (rWRU)"] == Decimal("20.04")
    assert got["Storage in eu-central-1, table t (GB-month)"] == Decimal("30.60")
    assert got["Replicated writes, table t, us-east-1 (rWRU)"] == Decimal("16.43")
    assert option.monthly_total_usd == Decimal("124.92")


def test_global_tables_reserve_reads_but_not_replicated_writes() -> None:
    # 700 reads/s -> 1,000 RCU: 10 one-year blocks at $30 / 12 + $0.0025 x 730 = $4.325 each beat
    # 1,000 x 730 x $0.00013 = $94.90 on-rate (§9.2, §10): "Reserved RCU ... (10 x 100 RCU)"; the table's
    # writes stay rWCU: 10 WCU x 730 x $0.00065 = $4.745 -> $4.75, flagged as our reading (an assumption)
    result = estimate_monthly_cost(flat(700, 7, replica_regions=("eu-west-1",)), load_price_sheet("us-east-1"),
                                   EstimateOptions(table_classes=(STANDARD,)))
    reserved = result.option(OPT.RESERVED_1Y)
    names = lines(reserved)
    assert "Reserved RCU, 1-year, hourly (10 x 100 RCU)" in names
    assert names["Replicated write capacity, table t, us-east-1 (rWCU-hours)"] == Decimal("4.75")
    assert not any(name.startswith("Reserved WCU") for name in names)
    assert any("reserved capacity covers reads" in a for a in result.assumptions)


# --- 8. auto scaling scale-in: 20 points below target for 15 minutes ----------------------------------------

SCALE_IN = [
    # (consumption after minute 0, target, evaluator rule?, capacity at minute 40)
    # min 100 RCU, target 70 %, 55 units/s = 55 %: AWS scales in only below 70 - 20 = 50 % (re:Post, §11.1): 100
    (55.0, 0.7, False, 100.0),
    # the evaluator scales in when 100 > 1.2 x ceil(55 / 0.7) = 1.2 x 79 = 94.8 (§12.3): min 100 holds it at 100
    (55.0, 0.7, True, 100.0),
    # 49 units/s = 49 % < 50 % for 15 minutes: scale in to max(ceil(49 / 0.7) = 70, min 1) = 70
    (49.0, 0.7, False, 70.0),
    # target 20 %: 20 - 20 = 0 %, never below: no scale-in, stays at ceil(100 / 0.2) = 500
    (10.0, 0.2, False, 500.0),
]


@pytest.mark.parametrize(("units", "target", "evaluator", "expected"), SCALE_IN,
                         ids=["55pct-aws", "55pct-evaluator-min", "49pct-aws", "target-20"])
def test_scale_in_needs_20_points_below_target_for_15_minutes(units, target, evaluator, expected) -> None:
    reads = np.full(60, units)
    reads[:3] = 70.0 if target == 0.7 else 100.0  # start at ceil(70 / 0.7) = 100 (or 100 / 0.2 = 500)
    policy = ScalingPolicy(target, 1, 10**6, scale_in_points_below_target=None if evaluator else 0.2)
    if evaluator:
        policy = ScalingPolicy(target, 100, 10**6, scale_in_points_below_target=None)
    capacity = simulate_autoscaling(reads, np.zeros(60), policy).reads.capacity_units
    assert capacity[40] == expected


def test_scale_in_at_55_percent_differs_between_the_rules_without_a_minimum() -> None:
    # min 1: the evaluator drops 100 -> ceil(55 / 0.7) = 79 at minute 18 (15 quiet minutes 3-17);
    # AWS's rule keeps 100 (55 % is not 20 points below 70 %)
    reads = np.full(60, 55.0)
    reads[:3] = 70.0
    aws = simulate_autoscaling(reads, np.zeros(60), ScalingPolicy(0.7, 1, 10**6)).reads.capacity_units
    evaluator = simulate_autoscaling(reads, np.zeros(60), ScalingPolicy(
        0.7, 1, 10**6, scale_in_points_below_target=None)).reads.capacity_units
    assert (aws[40], evaluator[40]) == (100.0, 79.0)


# --- 9. reserved blocks with the free tier ---------------------------------------------------------------

BLOCKS = [
    # (flat RCU, free tier, blocks): one 1-year block = $30 / 12 + $0.0025 x 730 = $4.325 (us-east-1, §9.2)
    # 60 RCU, free tier: none reserved (60 - 25) x 730 x $0.00013 = $3.3215 < one block $4.325 -> 0
    (60, True, 0),
    # 60 RCU, no free tier: 60 x 730 x $0.00013 = $5.694 > $4.325 -> 1 block
    (60, False, 1),
    # 84 RCU, free tier: (84 - 25) x 730 x $0.00013 = $5.5991 > $4.325 -> 1 block
    (84, True, 1),
    # 30 RCU, free tier: (30 - 25) x 730 x $0.00013 = $0.4745 -> 0
    (30, True, 0),
]


@pytest.mark.parametrize(("rcu", "free", "blocks"), BLOCKS, ids=["60-free", "60-paid", "84-free", "30-free"])
def test_reserved_blocks_count_the_free_tier(rcu, free, blocks) -> None:
    block = Decimal(30) / 12 + Decimal("0.0025") * 730
    free_unit_hours = Decimal(25 * 730) if free else Decimal(0)
    assert reserved_blocks(np.full(1440, float(rcu)), block, Decimal("0.00013"), free_unit_hours) == blocks


def test_reserved_option_with_the_free_tier_buys_no_block_when_none_pays() -> None:
    # 42 reads/s -> ceil(42 / 0.7) = 60 RCU; free tier: (60 - 25) x 730 x $0.00013 = $3.32, no block line;
    # 1 write/s -> ceil(1 / 0.7) = 2 WCU, inside the 25 free: $0
    result = estimate_monthly_cost(flat(42, 1, free_tier=True), load_price_sheet("us-east-1"),
                                   EstimateOptions(table_classes=(STANDARD,), reserved_basis=OPT.PROVISIONED_FIXED))
    reserved = lines(result.option(OPT.RESERVED_1Y))
    assert reserved["RCU at the provisioned rate, none reserved (RCU-hours)"] == Decimal("3.32")
    assert not any(name.startswith("Reserved RCU") for name in reserved)


# --- 10. the small ones -------------------------------------------------------------------------------------


def test_the_free_tier_month_length_is_stated() -> None:
    # 25 units x 730 h = 18,250 free unit-hours a month (AWS's Price List: 25 x 744 = 18,600 for 31 days)
    result = estimate_monthly_cost(flat(1, 1, free_tier=True), load_price_sheet("us-east-1"))
    assert any("18,250" in a and "730" in a for a in result.assumptions)


def test_the_json_option_is_called_provisioned_fixed() -> None:
    run = subprocess.run([sys.executable, "-m", "costs", "monthly", "--region", "us-east-1", "--reads-per-second",
                          "1", "--read-item-bytes", "100", "--read-consistency", "eventual", "--writes-per-second",
                          "1", "--write-item-bytes", "100", "--storage-gb", "1"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "provisioned_fixed" in {o["option"] for o in json.loads(run.stdout)["options"]}


def test_the_cli_says_when_a_region_has_no_price_sheet() -> None:
    # af-south-1 ships no sheet: the estimate runs, prices nothing, and says so on stderr and in the output
    model_file = str(ROOT / "modeling" / "examples" / "crm_single_table.yaml")
    run = subprocess.run([sys.executable, "-m", "costs", "estimate", model_file, "--region", "af-south-1", "--format",
                          "text"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "No price sheet ships for af-south-1" in run.stderr and "No price sheet ships for af-south-1" in run.stdout
    assert "$0.00" not in run.stdout and "No recommendation" in run.stdout


def test_the_iot_heartbeat_writes_its_sparse_index_once_per_offline_device() -> None:
    # update_device_last_seen_by_id SETs status; GSI2 holds only OFFLINE devices (generator weight 0.03), its
    # entry under 1 KB. An OFFLINE device's heartbeat moves it out (one delete); an ONLINE one stays out
    # (nothing): 0.03 x 1 WCU = 0.03 a request (§4.1). Before: 2 x 0.03 x 0.97 + 0.03^2 = 0.0591.
    model = load_example("iot_telemetry")
    profile = capacity_profile(model, rule_based_designs(model)[0])
    heartbeat = next(c for c in profile.patterns if c.pattern == "update_device_last_seen_by_id")
    assert dict(heartbeat.index_write_units_per_request)["GSI2"] == Decimal("0.03")
