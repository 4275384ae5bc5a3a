"""Price sheets: every price sourced and tagged, §9 values, §10 derived figures, overrides, validation."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import numpy as np
import pytest

from costs.errors import PriceSheetError
from costs.pricing import (
    PRICE_SHEET_DIR,
    CapacityDimension,
    Confidence,
    PriceItem,
    PriceSheet,
    available_regions,
    break_even_utilization,
    line_item,
    load_price_sheet,
    price_sheet_from_dict,
    reserved_blocks,
    reserved_unit_hour_usd,
    with_override,
)
from modeling.model import TableClass

STANDARD, IA = TableClass.STANDARD, TableClass.STANDARD_INFREQUENT_ACCESS
READ, WRITE = CapacityDimension.READ, CapacityDimension.WRITE
REGIONS = ["us-east-1", "eu-west-1", "ap-northeast-1"]


def pre_cut_us_east_1() -> PriceSheet:
    """us-east-1 before the 1 Nov 2024 cut (§9.1), for regression tests only: never shipped as data."""
    sheet = load_price_sheet("us-east-1")
    for item, table_class, usd in [(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD, "1.25"),
                                   (PriceItem.ON_DEMAND_READ_REQUEST_UNITS, STANDARD, "0.25"),
                                   (PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, IA, "1.56"),
                                   (PriceItem.ON_DEMAND_READ_REQUEST_UNITS, IA, "0.31"),
                                   (PriceItem.REPLICATED_WRITE_REQUEST_UNITS, STANDARD, "1.875"),
                                   (PriceItem.REPLICATED_WRITE_REQUEST_UNITS, IA, "2.344"),
                                   (PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS, STANDARD, "0.000975")]:
        sheet = with_override(sheet, item, usd, table_class, note="pre-Nov-2024 list price (§9.1)")
    return sheet


# The 17 Regions the Model page offers (ui/model_editor.py REGIONS): each ships a sheet. The three of the
# facts file (§9.2-9.4) were retrieved 2026-11-30; the others were seeded 2026-12-01 from AWS Labs' reco config
SHIPPED = ["us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "eu-west-1", "eu-west-2", "eu-west-3",
           "eu-central-1", "eu-north-1", "eu-south-1", "ap-northeast-1", "ap-northeast-2", "ap-southeast-1",
           "ap-southeast-2", "ap-south-1", "sa-east-1"]


def test_a_sheet_ships_for_each_region_the_model_page_offers() -> None:
    assert set(available_regions()) == set(SHIPPED)


@pytest.mark.parametrize("region", SHIPPED)
def test_every_price_has_a_source_a_confidence_and_dates(region: str) -> None:
    sheet = load_price_sheet(region)
    retrieved = "2026-11-30" if region in REGIONS else "2026-12-01"
    assert sheet.region == region and str(sheet.retrieved_date) == retrieved and sheet.effective_date
    for price in sheet.prices:
        assert price.source.strip() and isinstance(price.confidence, Confidence)
        if price.confidence in (Confidence.UNCONFIRMED, Confidence.THIRD_PARTY):
            assert price.is_assumption, price


@pytest.mark.parametrize("region", REGIONS)
def test_missing_prices_are_not_available_never_zero(region: str) -> None:
    sheet = load_price_sheet(region)
    missing = [p for p in sheet.prices if p.value is None]
    assert all(p.is_assumption or "not offered" in p.note for p in missing)
    assert not [p for p in sheet.prices if p.value == 0 and not p.item.value.startswith("free_tier_")]


LISTED = [  # (region, item, class, value) straight from dynamodb-rules §9.2-§9.4
    ("us-east-1", PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD, "0.625"),
    ("us-east-1", PriceItem.ON_DEMAND_READ_REQUEST_UNITS, IA, "0.155"),
    ("us-east-1", PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, STANDARD, "0.00013"),
    ("us-east-1", PriceItem.STORAGE_GB_MONTH, IA, "0.10"),
    ("us-east-1", PriceItem.RESERVED_3Y_WCU_UPFRONT, STANDARD, "180"),
    ("us-east-1", PriceItem.CONTINUOUS_BACKUP_GB_MONTH, None, "0.20"),
    ("eu-west-1", PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD, "0.705"),
    ("eu-west-1", PriceItem.RESERVED_1Y_RCU_HOURLY, STANDARD, "0.0029"),
    ("eu-west-1", PriceItem.STORAGE_GB_MONTH, IA, None),
    ("ap-northeast-1", PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, STANDARD, "0.0001484"),
    ("ap-northeast-1", PriceItem.STORAGE_GB_MONTH, STANDARD, "0.285"),
]


@pytest.mark.parametrize(("region", "item", "table_class", "value"), LISTED,
                         ids=[f"{r}-{i}-{c}" for r, i, c, _ in LISTED])
def test_sheets_hold_the_facts_file_prices(region: str, item: PriceItem, table_class: TableClass | None,
                                           value: str | None) -> None:
    price = load_price_sheet(region).price(item, table_class)
    assert price.value == (None if value is None else Decimal(value))


def test_unconfirmed_prices_are_marked_as_assumptions() -> None:
    # §15 item 2: eu-west-1 Standard storage ($0.283) is a pre-2024 third-party figure
    assert load_price_sheet("eu-west-1").price(PriceItem.STORAGE_GB_MONTH, STANDARD).is_assumption
    assert not load_price_sheet("us-east-1").price(PriceItem.STORAGE_GB_MONTH, STANDARD).is_assumption


BREAK_EVEN = [  # §10, rounded to 0.1 %: provisioned unit-hour / (3,600 x on-demand per unit)
    ("us-east-1", READ, "0.289"),  # 0.00013 / (3,600 x 0.000000125) = 0.2889
    ("us-east-1", WRITE, "0.289"),  # 0.00065 / (3,600 x 0.000000625) = 0.2889
    ("eu-west-1", READ, "0.289"),  # 0.000147 / (3,600 x 0.0000001415) = 0.2886
    ("eu-west-1", WRITE, "0.290"),  # 0.000735 / (3,600 x 0.000000705) = 0.2896
    ("ap-northeast-1", READ, "0.289"),  # 0.0001484 / (3,600 x 0.0000001425) = 0.2893
    ("ap-northeast-1", WRITE, "0.288"),  # 0.000742 / (3,600 x 0.000000715) = 0.2883
]


@pytest.mark.parametrize(("region", "dimension", "expected"), BREAK_EVEN, ids=[f"{r}-{d}" for r, d, _ in BREAK_EVEN])
def test_break_even_utilization_matches_section_10(region: str, dimension: CapacityDimension, expected: str) -> None:
    assert break_even_utilization(load_price_sheet(region), STANDARD, dimension).quantize(Decimal("0.001")) == \
        Decimal(expected)


def test_break_even_was_14_4_percent_before_the_2024_cut() -> None:
    # §10: 0.00065 / (3,600 x 0.00000125) = 0.1444
    assert break_even_utilization(pre_cut_us_east_1(), STANDARD, WRITE).quantize(Decimal("0.001")) == \
        Decimal("0.144")


RESERVED = [  # §10: (upfront / (8,760 x years) + hourly) / 100, rounded to 8 decimals
    ("us-east-1", 1, WRITE, "0.00029923"),  # (150 / 8,760 + 0.0128) / 100
    ("us-east-1", 1, READ, "0.00005925"),  # (30 / 8,760 + 0.0025) / 100
    ("us-east-1", 3, WRITE, "0.00014949"),  # (180 / 26,280 + 0.0081) / 100
    ("us-east-1", 3, READ, "0.00002970"),  # (36 / 26,280 + 0.0016) / 100
    ("eu-west-1", 1, WRITE, "0.00033849"),
    ("eu-west-1", 1, READ, "0.00006770"),
    ("eu-west-1", 3, WRITE, "0.00016940"),
    ("eu-west-1", 3, READ, "0.00003348"),
    ("ap-northeast-1", 1, WRITE, "0.00034266"),
    ("ap-northeast-1", 1, READ, "0.00006804"),
    ("ap-northeast-1", 3, WRITE, "0.00017123"),
    ("ap-northeast-1", 3, READ, "0.00003360"),
]


@pytest.mark.parametrize(("region", "years", "dimension", "expected"), RESERVED,
                         ids=[f"{r}-{y}y-{d}" for r, y, d, _ in RESERVED])
def test_reserved_effective_rate_matches_section_10(region: str, years: int, dimension: CapacityDimension,
                                                    expected: str) -> None:
    rate = reserved_unit_hour_usd(load_price_sheet(region), years, dimension)
    assert rate.quantize(Decimal("0.00000001")) == Decimal(expected)


def test_override_returns_a_new_sheet_marked_user_override() -> None:
    original = load_price_sheet("us-east-1")
    cheaper = with_override(original, PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, "0.5", STANDARD)
    price = cheaper.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD)
    assert (price.value, price.confidence, price.source) == (Decimal("0.5"), Confidence.USER_OVERRIDE, "user override")
    assert original.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD).value == Decimal("0.625")


def test_override_fills_a_price_that_is_not_available() -> None:
    sheet = with_override(load_price_sheet("eu-west-1"), PriceItem.STORAGE_GB_MONTH, "0.11", IA)
    assert sheet.price(PriceItem.STORAGE_GB_MONTH, IA).value == Decimal("0.11")


def test_line_items_round_half_up_to_the_cent() -> None:
    # 42,177,000 WRU x $0.625 per million = $26.360625 -> $26.36; 13.14 M x $0.625 = $8.2125 -> $8.21
    price = load_price_sheet("us-east-1").price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD)
    assert line_item("w", price, Decimal(42_177_000)).monthly_cost_usd == Decimal("26.36")
    assert line_item("w", price, Decimal(13_140_000)).monthly_cost_usd == Decimal("8.21")
    assert line_item("w", price, Decimal(8_000)).monthly_cost_usd == Decimal("0.01")  # $0.005 -> $0.01


def _shipped(region: str = "us-east-1") -> dict:
    return json.loads((PRICE_SHEET_DIR / f"{region}.json").read_text(encoding="utf-8"))


def _break(document: dict, change: str) -> dict:
    broken = copy.deepcopy(document)
    entry = broken["prices"][0]
    {"unconfirmed-not-assumption": lambda: entry.update(confidence="UNCONFIRMED", assumption=False),
     "float-price": lambda: entry.update(value=0.625),
     "missing-source": lambda: entry.update(source=""),
     "unknown-item": lambda: entry.update(item="free_lunch"),
     "missing-entry": lambda: broken["prices"].pop(0),
     "duplicate-entry": lambda: broken["prices"].append(dict(entry)),
     "user-override-in-file": lambda: entry.update(confidence="USER-OVERRIDE")}[change]()
    return broken


@pytest.mark.parametrize("change", ["unconfirmed-not-assumption", "float-price", "missing-source", "unknown-item",
                                    "missing-entry", "duplicate-entry", "user-override-in-file"])
def test_invalid_price_sheets_are_rejected(change: str) -> None:
    with pytest.raises(PriceSheetError, match="field="):
        price_sheet_from_dict(_break(_shipped(), change), "test")


def test_unknown_region_names_the_available_ones() -> None:
    with pytest.raises(PriceSheetError, match="us-east-1"):
        load_price_sheet("mars-north-1")


def test_reserved_blocks_round_to_the_cheaper_count() -> None:
    # us-east-1 1-year RCU block-month = 30 / 12 + 0.0025 x 730 = $4.325; an on-rate RCU-month = 0.00013 x 730
    block, unit_hour = Decimal("4.325"), Decimal("0.00013")
    # 150 RCU: 1 block + 50 x $0.0949 = $9.07 > 2 blocks = $8.65 -> 2 blocks
    assert reserved_blocks(np.full(1440, 150.0), block, unit_hour) == 2
    # 120 RCU: 1 block + 20 x $0.0949 = $6.22 < 2 blocks = $8.65 -> 1 block
    assert reserved_blocks(np.full(1440, 120.0), block, unit_hour) == 1
    # 40 RCU: 40 x $0.0949 = $3.80 < 1 block = $4.325 -> none
    assert reserved_blocks(np.full(1440, 40.0), block, unit_hour) == 0
