"""Monthly cost as line items (dynamodb-rules §9, §10, §13): hand-computed cases, W27/W29/W31, options,
classes, free tier, global tables, projections and the recommendation. A month is 730 hours."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from costs.monthly import CostEstimate, OptionEstimate, estimate_monthly_cost
from costs.pricing import PriceItem, PriceSheet, load_price_sheet
from costs.usage import CapacityOption, EstimateOptions, FixedCapacity, ResourceUsage, TableUsage
from modeling.model import TableClass, TrafficProfile, TrafficShape
from tests.costs.test_pricing import pre_cut_us_east_1

GB = 1024**3
STANDARD, IA = TableClass.STANDARD, TableClass.STANDARD_INFREQUENT_ACCESS
OPT = CapacityOption
US_EAST_1 = load_price_sheet("us-east-1")
W27_UNITS_PER_SECOND = 42_177_000 / 2_628_000  # 42,177,000 a month over 730 h x 3,600 s


def flat(reads: float, writes: float, storage_gb: float = 0, **settings: object) -> TableUsage:
    table = ResourceUsage.flat("Orders", reads, writes, storage_bytes=round(storage_gb * GB))
    return TableUsage(table=table, **settings)


def estimate(usage: TableUsage, sheet: PriceSheet = US_EAST_1, **options: object) -> CostEstimate:
    return estimate_monthly_cost(usage, sheet, EstimateOptions(**options))


def costs(option: OptionEstimate) -> dict[str, Decimal | None]:
    return {line.name: line.monthly_cost_usd for line in option.line_items}


def test_on_demand_flat_traffic_by_hand() -> None:
    # reads 10 units/s x 2,628,000 s = 26.28 M RRU x $0.125 = $3.285 -> $3.29
    # writes 5 units/s -> 13.14 M WRU x $0.625 = $8.2125 -> $8.21; storage 10 GB x $0.25 = $2.50
    on_demand = estimate(flat(10, 5, 10)).option(OPT.ON_DEMAND)
    assert costs(on_demand) == {"Reads, table Orders (RRU)": Decimal("3.29"),
                                "Writes, table Orders (WRU)": Decimal("8.21"),
                                "Storage, table Orders (GB-month)": Decimal("2.50")}
    assert on_demand.monthly_total_usd == Decimal("14.00")


def test_provisioned_fixed_flat_traffic_by_hand() -> None:
    # RCU ceil(10 / 0.7) = 15 x 730 h = 10,950 x $0.00013 = $1.4235 -> $1.42
    # WCU ceil(5 / 0.7) = 8 x 730 h = 5,840 x $0.00065 = $3.796 -> $3.80; storage $2.50; total $7.72
    fixed = estimate(flat(10, 5, 10)).option(OPT.PROVISIONED_FIXED)
    assert costs(fixed) == {"Read capacity, table Orders (RCU-hours)": Decimal("1.42"),
                            "Write capacity, table Orders (WCU-hours)": Decimal("3.80"),
                            "Storage, table Orders (GB-month)": Decimal("2.50")}
    assert [line.quantity for line in fixed.line_items[:2]] == [Decimal(10_950), Decimal(5_840)]


def test_flat_traffic_auto_scales_to_the_fixed_capacity() -> None:
    result = estimate(flat(10, 5, 10))
    assert result.option(OPT.PROVISIONED_AUTOSCALING).monthly_total_usd == Decimal("7.72")


def test_small_tables_reserve_no_blocks() -> None:
    # a 1-year RCU block costs 30 / 12 + 0.0025 x 730 = $4.325 a month > 15 RCU on-rate ($1.42): none reserved
    reserved = estimate(flat(10, 5, 10)).option(OPT.RESERVED_1Y)
    assert reserved.upfront_usd == 0 and reserved.monthly_total_usd == Decimal("7.72")
    assert "RCU at the provisioned rate, none reserved (RCU-hours)" in costs(reserved)


def test_recommendation_is_the_cheapest_option_with_the_break_even() -> None:
    # Standard only: fixed $7.72 ties with auto scaling and reserved; the simpler option wins the tie
    result = estimate(flat(10, 5, 10), table_classes=(STANDARD,))
    best = result.recommendation
    assert best.option is OPT.PROVISIONED_FIXED and best.monthly_cost_usd == Decimal("7.72")
    assert best.saving_vs_on_demand_usd == Decimal("6.28")  # $14.00 - $7.72
    assert best.break_even_read_utilization.quantize(Decimal("0.001")) == Decimal("0.289")  # §10
    assert "28.9%" in best.reason


def test_recommendation_never_beats_a_cheaper_complete_option() -> None:
    usage = TableUsage(table=ResourceUsage.from_profile("t", 40.0, 8.0, TrafficProfile(shape=TrafficShape.EVENING_PEAK),
                                                        storage_bytes=80 * GB))
    result = estimate(usage)
    totals = [o.monthly_total_usd for o in result.options if o.monthly_total_usd is not None]
    assert result.recommendation.monthly_cost_usd == min(totals)


def test_standard_ia_wins_when_storage_dominates() -> None:
    # 1,000 GB: Standard fixed = 2 RCU ($0.19) + 2 WCU ($0.95) + $250 = $251.14
    # Standard-IA fixed = 2 x 730 x $0.00016 ($0.23) + 2 x 730 x $0.00081 ($1.18) + $100 = $101.41
    result = estimate(flat(1, 1, 1000))
    assert result.option(OPT.PROVISIONED_FIXED, STANDARD).monthly_total_usd == Decimal("251.14")
    assert result.option(OPT.PROVISIONED_FIXED, IA).monthly_total_usd == Decimal("101.41")
    assert (result.recommendation.option, result.recommendation.table_class) == (OPT.PROVISIONED_FIXED, IA)


def test_totals_derive_from_line_items_only() -> None:
    for option in estimate(flat(10, 5, 10, point_in_time_recovery=True)).options:
        if option.monthly_total_usd is not None:
            assert option.monthly_total_usd == sum(line.monthly_cost_usd for line in option.line_items)


def test_w31_provisioned_1000_wcu_and_10000_rcu() -> None:
    # W31: 1,000 x 730 x $0.00065 = $474.50; 10,000 x 730 x $0.00013 = $949.00; total $1,423.50
    fixed = estimate(flat(1, 1), fixed_capacity={"Orders": FixedCapacity(10_000, 1_000)}).option(OPT.PROVISIONED_FIXED)
    assert costs(fixed)["Write capacity, table Orders (WCU-hours)"] == Decimal("474.50")
    assert costs(fixed)["Read capacity, table Orders (RCU-hours)"] == Decimal("949.00")
    assert fixed.monthly_total_usd == Decimal("1423.50")  # storage line: 0 GB, "depends on usage"


def test_w29_tokyo_reserves_498_rcu_and_203_wcu_blocks() -> None:
    # W29: 498 x $34.20 = $17,031.60 and 203 x $171.40 = $34,794.20 upfront -> $51,825.80
    usage = flat(1, 1)
    options = {"fixed_capacity": {"Orders": FixedCapacity(49_800, 20_300)}, "reserved_basis": OPT.PROVISIONED_FIXED}
    reserved = estimate(usage, load_price_sheet("ap-northeast-1"), **options).option(OPT.RESERVED_1Y)
    assert reserved.upfront_usd == Decimal("51825.80")
    blocks = {line.name: line.quantity for line in reserved.line_items if "upfront" in line.name}
    assert blocks == {"Reserved RCU, 1-year, upfront amortised (498 x 100 RCU)": 498,
                      "Reserved WCU, 1-year, upfront amortised (203 x 100 WCU)": 203}


def test_reserved_monthly_cost_amortises_the_upfront_over_the_term() -> None:
    # 200 RCU flat, 3-year: 2 blocks x (36 / 36 + 0.0016 x 730) = 2 x ($1.00 + $1.168) -> $2.00 + $2.34
    usage = flat(1, 1)
    options = {"fixed_capacity": {"Orders": FixedCapacity(200, 1)}, "reserved_basis": OPT.PROVISIONED_FIXED}
    reserved = costs(estimate(usage, **options).option(OPT.RESERVED_3Y))
    assert reserved["Reserved RCU, 3-year, upfront amortised (2 x 100 RCU)"] == Decimal("2.00")
    assert reserved["Reserved RCU, 3-year, hourly (2 x 100 RCU)"] == Decimal("2.34")


def _w27_usage(**settings: object) -> TableUsage:
    table = ResourceUsage.flat("t", W27_UNITS_PER_SECOND, W27_UNITS_PER_SECOND, storage_bytes=27 * GB)
    return TableUsage(table=table, point_in_time_recovery=True, on_demand_backup_gb=Decimal(60),
                      stream_read_requests_per_month=2_592_000, free_tier=True, **settings)


def test_w27_on_demand_example_at_current_prices() -> None:
    # writes 42.177 M x $0.625 = $26.36; reads 42.177 M RRU x $0.125 = $5.27; storage (27 - 25 free) x $0.25
    # = $0.50; PITR 27 x $0.20 = $5.40; backups 60 x $0.10 = $6.00; Streams (2,592,000 - 2.5 M free) = 0.92
    # x $0.02 per 100,000 = $0.0184 -> $0.02
    lines = costs(estimate(_w27_usage(), capacity_options=(OPT.ON_DEMAND,), table_classes=(STANDARD,)).options[0])
    assert lines == {"Reads, table t (RRU)": Decimal("5.27"), "Writes, table t (WRU)": Decimal("26.36"),
                     "Storage, table t (GB-month)": Decimal("0.50"),
                     "Point-in-time recovery, table + LSIs (GB-month)": Decimal("5.40"),
                     "On-demand backups (GB-month)": Decimal("6.00"), "DynamoDB Streams reads": Decimal("0.02")}


def test_w27_at_pre_2024_prices_regression() -> None:
    # §9.1 pre-cut: writes 42.177 M x $1.25 = $52.72; reads x $0.25 = $10.54 (W27 as published)
    lines = costs(estimate(_w27_usage(), pre_cut_us_east_1(), capacity_options=(OPT.ON_DEMAND,),
                           table_classes=(STANDARD,)).options[0])
    assert (lines["Writes, table t (WRU)"], lines["Reads, table t (RRU)"]) == (Decimal("52.72"), Decimal("10.54"))


@pytest.mark.parametrize(("sheet", "expected"), [(US_EAST_1, "26.36"), (pre_cut_us_east_1(), "79.08")],
                         ids=["current-0.625", "pre-cut-1.875"])
def test_w27_global_table_bills_replicated_writes_in_both_regions(sheet: PriceSheet, expected: str) -> None:
    # W27: 2 Regions x 42.177 M rWRU: now 84.354 M x $0.625 = $52.72 = 2 x $26.36; pre-cut 2 x $79.08 = $158.16
    # W27 prices both Regions at the same rates: the replica gets the same sheet under its own name
    replica = dataclasses.replace(sheet, region="us-west-2")
    result = estimate(_w27_usage(replica_regions=("us-west-2",)), sheet, table_classes=(STANDARD,),
                      replica_price_sheets={"us-west-2": replica})
    lines = costs(result.option(OPT.ON_DEMAND))
    assert lines["Replicated writes, table t, us-east-1 (rWRU)"] == Decimal(expected)
    assert lines["Replicated writes, table t, us-west-2 (rWRU)"] == Decimal(expected)
    assert "Writes, table t (WRU)" not in lines


def test_global_tables_reserve_reads_and_price_replicas_at_their_own_sheet() -> None:
    # reserved: reads reservable (an assumption), the table's rWCU at the provisioned rWCU rate; the us-west-2
    # replica at us-west-2's sheet: rWCU $0.00065 known (reco 'PDX'), its storage price unknown -> not available
    result = estimate(flat(10, 5, 10, replica_regions=("us-west-2",)), table_classes=(STANDARD,))
    reserved = result.option(OPT.RESERVED_1Y)
    assert not reserved.unavailable_reason
    assert any(li.name.startswith("Replicated write capacity, table Orders, us-east-1") and li.is_assumption
               for li in reserved.line_items)
    replica = {li.name: li for li in result.option(OPT.PROVISIONED_FIXED).line_items if "us-west-2" in li.name}
    rwcu = replica["Replicated write capacity, table Orders, us-west-2 (rWCU-hours)"]
    assert rwcu.unit_price_usd == Decimal("0.00065")
    assert all(li.monthly_cost_usd is None for name, li in replica.items() if name.startswith("Storage"))


def test_a_replica_with_its_own_sheet_uses_its_prices() -> None:
    tokyo = load_price_sheet("ap-northeast-1")
    result = estimate(flat(10, 5, 10, replica_regions=("ap-northeast-1",)), table_classes=(STANDARD,),
                      replica_price_sheets={"ap-northeast-1": tokyo})
    lines = {li.name: li for li in result.option(OPT.ON_DEMAND).line_items}
    line = lines["Replicated writes, table Orders, ap-northeast-1 (rWRU)"]
    assert line.unit_price_usd == Decimal("0.715") and not line.is_assumption  # §9.4 price, §5 rule


def test_unavailable_prices_make_an_option_incomplete_not_free() -> None:
    # eu-west-1 has no Standard-IA prices (§15 item 1): no total, lines say "not available"
    result = estimate(flat(10, 5, 10), load_price_sheet("eu-west-1"))
    ia = result.option(OPT.ON_DEMAND, IA)
    assert ia.monthly_total_usd is None and all(line.monthly_cost_usd is None for line in ia.line_items)
    assert "not offered" in result.option(OPT.RESERVED_1Y, IA).unavailable_reason
    assert result.recommendation.table_class is STANDARD


def test_assumed_prices_are_flagged_on_their_lines() -> None:
    # eu-west-1 Standard storage ($0.283) is UNCONFIRMED (§15 item 2)
    storage = estimate(flat(10, 5, 10), load_price_sheet("eu-west-1")).option(OPT.ON_DEMAND).line_items[-1]
    assert storage.name.startswith("Storage") and storage.is_assumption and storage.confidence == "UNCONFIRMED"


def test_free_tier_is_off_by_default_and_deducts_when_on() -> None:
    # 30 units/s fixed: ceil(30 / 0.7) = 43 RCU x 730 = 31,390 RCU-h; free 25 x 730 = 18,250
    # -> 13,140 x $0.00013 = $1.7082 -> $1.71 (without: 31,390 x $0.00013 = $4.0807 -> $4.08)
    def read_line(free_tier: bool) -> Decimal | None:
        return costs(estimate(flat(30, 0, free_tier=free_tier)).option(OPT.PROVISIONED_FIXED))[
            "Read capacity, table Orders (RCU-hours)"]
    assert (read_line(False), read_line(True)) == (Decimal("4.08"), Decimal("1.71"))


def test_pitr_bills_table_and_lsis_but_not_gsis() -> None:
    # 10 GB table + 2 GB LSI = 12 GB x $0.20 = $2.40 (the 5 GB GSI is not backed up by PITR, §9.2)
    usage = TableUsage(table=ResourceUsage.flat("t", 1, 1, storage_bytes=10 * GB), point_in_time_recovery=True,
                       indexes=(ResourceUsage.flat("lsi", storage_bytes=2 * GB),
                                ResourceUsage.flat("gsi", is_gsi=True, storage_bytes=5 * GB)))
    assert costs(estimate(usage).option(OPT.ON_DEMAND))["Point-in-time recovery, table + LSIs (GB-month)"] == \
        Decimal("2.40")


def test_storage_growth_projects_12_and_36_months() -> None:
    # 10 GB growing 10 % a month: 10 x 1.1^12 = 31.384 GB x $0.25 = $7.85; 10 x 1.1^36 = 309.127 GB -> $77.28
    projections = estimate(flat(1, 1, 10, monthly_growth_percent=10.0), table_classes=(STANDARD,)).storage_projections
    assert [(p.month, p.storage_gb.quantize(Decimal("0.001")), p.monthly_cost_usd) for p in projections] == [
        (12, Decimal("31.384"), Decimal("7.85")), (36, Decimal("309.127"), Decimal("77.28"))]


def test_auto_scaling_follows_a_daily_profile_and_reports_throttling_risk() -> None:
    # business hours: the peak hour is 2.0x the average; fixed capacity pays for the peak all day
    usage = TableUsage(table=ResourceUsage.from_profile("t", 10.0, 2.0,
                                                        TrafficProfile(shape=TrafficShape.BUSINESS_HOURS)))
    result = estimate(usage, table_classes=(STANDARD,))
    scaled, fixed = result.option(OPT.PROVISIONED_AUTOSCALING), result.option(OPT.PROVISIONED_FIXED)
    assert scaled.monthly_total_usd < fixed.monthly_total_usd
    assert any(plan.throttled_unit_minutes_per_day > 0 for plan in scaled.capacity)  # 2 minutes at each step up
    assert all(plan.throttled_unit_minutes_per_day == 0 for plan in fixed.capacity)


def test_every_estimate_states_its_conventions() -> None:
    assumptions = " ".join(estimate(flat(1, 1)).assumptions)
    assert "730 hours" in assumptions and "UNCONFIRMED" in assumptions and "Free tier not applied" in assumptions


def test_a_reserved_recommendation_states_the_commitment_and_half_the_traffic() -> None:
    """Issue 28.6: traffic is still a guess, so a reservation says what it commits to and how it fares at half."""
    # reads 700 units/s flat -> ceil(700 / 0.7) = 1,000 RCU = 10 blocks of 100 RCU, 3-year: $36 upfront each
    # ($360 upfront; $1.00 a month each over 36 months) + $0.0016/h x 730 h = $1.168 -> 10 x $2.168 = $21.68 a
    # month committed. On-demand: 700 x 2,628,000 s = 1,839.6 M RRU x $0.125 = $229.95; half the traffic
    # $114.975 -> $114.98. Pays off above 21.68 / 229.95 = 9.4% -> "9%". (Writes 0: 1 WCU at the on-rate.)
    result = estimate(flat(700, 0, 0), table_classes=(STANDARD,))
    best = result.recommendation
    assert best.option is OPT.RESERVED_3Y
    assert ("a 3-year commitment: $360.00 upfront and $21.68 a month (upfront amortised) for 36 months"
            in best.reason)
    assert "half the estimate, on-demand would cost about $114.98 a month against at least $21.68" in best.reason
    assert "above about 9% of the estimate" in best.reason


def test_a_recommendation_without_an_on_demand_price_says_on_demand_was_left_out() -> None:
    # a sheet without the on-demand read price: on-demand is not available, so "cheapest" is among the rest
    sheet = dataclasses.replace(US_EAST_1, prices=tuple(
        dataclasses.replace(p, value=None) if p.item is PriceItem.ON_DEMAND_READ_REQUEST_UNITS else p
        for p in US_EAST_1.prices))
    best = estimate(flat(10, 5, 10), sheet, table_classes=(STANDARD,)).recommendation
    assert best.option is not OPT.ON_DEMAND
    assert "On-demand is left out of this comparison (not available" in best.reason


def test_a_tie_is_called_a_tie_not_a_saving_of_nothing() -> None:
    # flat(10, 5, 10), Standard: fixed, auto scaling and reserved all cost $7.72 (see above): no "$0.00 less"
    best = estimate(flat(10, 5, 10), table_classes=(STANDARD,)).recommendation
    assert "$0.00 a month less" not in best.reason
    assert "the same as" in best.reason and "to the cent" in best.reason
