"""The priced migration plan: units per step from AWS's rules, prices of the model's Region, three phases for
a new table, "not available" for a Region without prices. Figures worked out by hand in the comments."""

from __future__ import annotations

import copy
import json
import math
from decimal import Decimal

from costs.migration_prices import migration_pricing
from modeling.design.sizing import design_sizes
from modeling.migration.plan import Mode, PlanOptions
from modeling.migration.pricing import (
    copy_write_units,
    move_write_units,
    plan_json,
    plan_json_text,
    plan_markdown,
    price_plan,
    scan_read_units,
    update_write_units,
)
from tests.evolution_models import (
    library,
    library_document,
    with_branch_partition_key,
    with_loan_sort_key_by_due_date,
    with_loans_by_book,
)

PRICING = migration_pricing()  # the cost engine's prices, as studio.migration passes them


def test_units_of_a_scan_and_of_each_kind_of_write() -> None:
    # 50,000 items x 300 B = 15,000,000 B -> ceil(15,000,000 / 4,096) = 3,663 blocks x 0.5 (eventual) = 1,831.5
    assert scan_read_units(50_000, 300) == Decimal("1831.5")
    assert scan_read_units(0, 300) == 0
    # UpdateItem: larger of 900 B / 1,100 B -> 2 KB = 2, plus one 300 B index entry put = 1 -> 3
    assert update_write_units(900, 1100, (300,)) == 3
    # transaction: 2 x (put 1,100 B -> 2 + delete 900 B -> 1) = 6, plus entries 200 B deleted, 200 + 300 B put = 3
    assert move_write_units(900, 1100, (200,), (200, 300)) == 9
    # conditional put 2,500 B -> 3 KB = 3, plus one 100 B entry = 1
    assert copy_write_units(2500, (100,)) == 4


def test_a_gsi_backfill_is_priced_in_the_models_region() -> None:
    priced = price_plan(library(), library(with_loans_by_book()), pricing=PRICING)
    assert priced.plan.spec.mode is Mode.BACKFILL and priced.region == "eu-west-1"
    backfill = next(s for s in priced.steps if s.units.items)
    # 50,000 Loans; each item and its ByBook entry are well under 1 KB: per item 1 (UpdateItem) + 1 (entry put)
    assert backfill.units.items == 50_000 and backfill.units.write_units == 100_000
    # the Scan reads every item of the table, the 10,000 Members too, though it changes only the Loans
    member_bytes, loan_bytes = (design_sizes(library(), library().key_design).item_bytes(e) for e in ("Member", "Loan"))
    scanned = 10_000 * member_bytes + 50_000 * loan_bytes
    assert backfill.units.read_units == math.ceil(scanned / 4096) * Decimal("0.5")
    # the read-back before each checkpoint: each backfilled Loan (under 4 KB) read strongly consistent = 1 RRU
    assert loan_bytes < 4096 and backfill.units.readback_units == 50_000
    # eu-west-1 (dynamodb-rules §9.3): $0.705 per million WRU -> 0.1 M x 0.705 = $0.0705 -> $0.07;
    # provisioned $0.000735 per WCU-hour: 100,000 / 3,600 = 27.78 WCU-hours x 0.000735 = $0.0204 -> $0.02
    writes_od = next(x for x in backfill.lines_on_demand if x.name.startswith("Writes"))
    writes_prov = next(x for x in backfill.lines_provisioned if x.name.startswith("Writes"))
    assert writes_od.monthly_cost_usd == Decimal("0.07") and writes_prov.monthly_cost_usd == Decimal("0.02")
    # 50,000 items at the default 500 items/s = 100 s = 0.0278 h
    assert backfill.duration_hours.quantize(Decimal("0.0001")) == Decimal("0.0278")
    # the order: deploy the writers, create the GSI online, backfill, switch reads
    assert [s.step.title.split()[0] for s in priced.steps] == ["Deploy", "Apply", "Backfill", "Switch"]


def test_a_chosen_write_rate_sets_the_duration() -> None:
    priced = price_plan(library(), library(with_loan_sort_key_by_due_date()),
                        options=PlanOptions(write_rate_items_per_second=50), pricing=PRICING)
    rewrite = next(s for s in priced.steps if s.units.items)
    # 50,000 Loans at 50 items/s = 1,000 s = 0.2778 h; each move: 2 x (1 + 1) = 4 WRU (no index) -> 200,000
    assert rewrite.duration_hours.quantize(Decimal("0.0001")) == Decimal("0.2778")
    assert rewrite.units.write_units == 200_000
    # the read-back reads each Loan's OLD key, gone once it moved: a read of nothing is still 1 RRU -> 50,000
    assert rewrite.units.readback_units == 50_000
    # eu-west-1 on-demand reads (dynamodb-rules §9.3) $0.1415 per million RRU: 0.05 M x 0.1415 = $0.0071 -> $0.01
    readback = next(x for x in rewrite.lines_on_demand if x.name.startswith("Read-back"))
    assert readback.quantity == Decimal("0.05") and readback.monthly_cost_usd == Decimal("0.01")


def test_a_new_table_has_three_phases_with_their_checks_and_the_second_tables_cost() -> None:
    priced = price_plan(library(), library(with_branch_partition_key()), options=PlanOptions(grey_period_days=10),
                        pricing=PRICING)
    phases = [s.step.phase for s in priced.steps]
    assert phases == sorted(phases) and {p.split(".")[0] for p in phases} == {"1", "2", "3"}
    assert all(s.step.checks and s.step.rollback for s in priced.steps)
    backfill = next(s for s in priced.steps if s.units.items)
    # every item moves: 10,000 Members x (1 put + 1 ByBranch entry) + 50,000 Loans x 1 put (all under 1 KB)
    assert backfill.units.items == 60_000 and backfill.units.write_units == 10_000 * 2 + 50_000
    # dual writes: create_loan at 2 requests/s average, 1 WRU each = 2 WRU/s x 2,628,000 s = 5,256,000 WRU/month
    # x $0.705 / M = $3.705 -> $3.71 (eu-west-1, §9.3), plus the second table's storage (well under a cent)
    dual = next(x for x in backfill.extra_monthly_on_demand if x.name.startswith("Dual"))
    assert dual.quantity == Decimal("5.256") and dual.monthly_cost_usd == Decimal("3.71")
    # grey period: 10 days = 240 h of a 730 h month -> 3.71 x 240 / 730 = $1.22 (storage adds $0.00)
    assert priced.grey_period_usd(False) == Decimal("1.22")
    document = plan_json(priced)
    assert document["mode"] == "new_table" and len(document["steps"]) == 5


def test_a_region_without_prices_says_not_available_never_zero() -> None:
    document = copy.deepcopy(with_loans_by_book())
    document["table"]["region"] = "me-south-1"
    priced = price_plan(library(), library(document), pricing=PRICING)
    backfill = next(s for s in priced.steps if s.units.items)
    assert backfill.one_time_on_demand_usd is None and backfill.one_time_provisioned_usd is None
    text = plan_markdown(priced)
    assert "not available" in text and "$0.07" not in text
    assert json.loads(plan_json_text(priced))["totals"]["one_time_usd"]["on_demand"] == "not available"


def test_the_plan_is_the_same_bytes_whatever_the_order_of_the_file() -> None:
    reordered = copy.deepcopy(with_loans_by_book())
    reordered["entities"].reverse()
    reordered["access_patterns"].reverse()
    old = copy.deepcopy(library_document())
    old["key_design"]["entities"].reverse()
    first = plan_json_text(price_plan(library(), library(with_loans_by_book()), pricing=PRICING))
    again = plan_json_text(price_plan(library(old), library(reordered), pricing=PRICING))
    assert first == again
    assert plan_markdown(price_plan(library(), library(with_loans_by_book()), pricing=PRICING)).startswith(
        "# Migration plan")


def test_settings_switched_on_in_place_touch_no_item_and_cost_nothing_once() -> None:
    document = copy.deepcopy(library_document())
    document["table"].update(point_in_time_recovery=True, deletion_protection=True)
    priced = price_plan(library(), library(document), pricing=PRICING)
    assert priced.plan.spec.mode is Mode.NONE
    assert [s.step.title for s in priced.steps] == ["Apply table.deletion_protection",
                                                    "Apply table.point_in_time_recovery"]
    assert all(s.units.items == 0 and not s.lines_on_demand for s in priced.steps)
    assert priced.one_time_usd(False) == 0 and priced.duration_hours == 0
