"""Price sheets: dated, sourced DynamoDB list prices for one Region, loaded from `costs/price_sheets/`.

Prices are data, never constants in code (dynamodb-rules §0): each price carries its source and a
confidence tag (§0.1). A price AWS does not publish, or that no trusted source confirms, is either an
*assumption* (shown as such) or *not available* (`value=None`); the engine never turns it into $0.
A user's negotiated rate replaces a price through `with_override`, marked "user override".
`line_item` is the one place a quantity is multiplied by a price (rounded to the cent, half up);
`break_even_utilization`, `reserved_unit_hour_usd` and `reserved_blocks` derive §10's figures.

>>> sheet = load_price_sheet("us-east-1")
>>> sheet.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, TableClass.STANDARD).value
Decimal('0.625')
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from costs.errors import PriceSheetError
from modeling.model import TableClass
from modeling.workspace.folder import default_workspace_dir

PRICE_SHEET_DIR = Path(__file__).resolve().parent / "price_sheets"
REFRESHED_SHEETS_FOLDER = "price-sheets"  # inside the workspace folder (refreshed_sheet_dir)
# dynamodb-rules §0.2: the AWS Pricing Calculator convention, 8,760 h / 12. Used for every monthly figure.
HOURS_PER_MONTH = Decimal(730)
HOURS_PER_YEAR = Decimal(8760)
SECONDS_PER_HOUR = Decimal(3600)  # §0.2: one provisioned unit-hour serves 3,600 unit-seconds
CENT = Decimal("0.01")  # bills round each line to the cent (W27 totals are sums of rounded lines)
RESERVED_BLOCK_UNITS = 100  # §9.2 (Reserved-capacity rules): bought in blocks of 100 units


class Confidence(StrEnum):
    """How far a price can be trusted (dynamodb-rules §0.1), plus the user's own override."""

    AWS_DOC = "AWS-DOC"
    AWS_DOC_2023 = "AWS-DOC-2023"
    AWS_CODE = "AWS-CODE"
    THIRD_PARTY_PRICE_LIST = "3P-PL"
    THIRD_PARTY = "3P"
    DERIVED = "DERIVED"
    UNCONFIRMED = "UNCONFIRMED"
    USER_OVERRIDE = "USER-OVERRIDE"
    # AWS's own Price List (Query API or offer file) read by `dds prices refresh`: first-party, dated
    AWS_PRICE_LIST = "AWS-PL"


class SheetOrigin(StrEnum):
    """Where a sheet's prices come from: the files shipped with the product, a refresh from AWS's Price List
    written into the workspace (`dds prices refresh`), or nowhere (a Region without a sheet)."""

    SHIPPED = "shipped"
    AWS_PRICE_LIST = "aws-price-list"
    NONE = "none"


class CapacityDimension(StrEnum):
    READ = "read"
    WRITE = "write"


class PriceItem(StrEnum):
    """Every price and free allowance a sheet holds; the values are the keys used in the JSON files."""

    ON_DEMAND_WRITE_REQUEST_UNITS = "on_demand_write_request_units"
    ON_DEMAND_READ_REQUEST_UNITS = "on_demand_read_request_units"
    PROVISIONED_WRITE_CAPACITY_UNIT_HOURS = "provisioned_write_capacity_unit_hours"
    PROVISIONED_READ_CAPACITY_UNIT_HOURS = "provisioned_read_capacity_unit_hours"
    REPLICATED_WRITE_REQUEST_UNITS = "replicated_write_request_units"
    REPLICATED_WRITE_CAPACITY_UNIT_HOURS = "replicated_write_capacity_unit_hours"
    RESERVED_1Y_WCU_UPFRONT = "reserved_1y_wcu_upfront"
    RESERVED_1Y_WCU_HOURLY = "reserved_1y_wcu_hourly"
    RESERVED_1Y_RCU_UPFRONT = "reserved_1y_rcu_upfront"
    RESERVED_1Y_RCU_HOURLY = "reserved_1y_rcu_hourly"
    RESERVED_3Y_WCU_UPFRONT = "reserved_3y_wcu_upfront"
    RESERVED_3Y_WCU_HOURLY = "reserved_3y_wcu_hourly"
    RESERVED_3Y_RCU_UPFRONT = "reserved_3y_rcu_upfront"
    RESERVED_3Y_RCU_HOURLY = "reserved_3y_rcu_hourly"
    STORAGE_GB_MONTH = "storage_gb_month"
    FREE_TIER_STORAGE_GB = "free_tier_storage_gb"
    FREE_TIER_WRITE_CAPACITY_UNITS = "free_tier_write_capacity_units"
    FREE_TIER_READ_CAPACITY_UNITS = "free_tier_read_capacity_units"
    FREE_TIER_STREAMS_READ_REQUEST_UNITS = "free_tier_streams_read_request_units"
    CONTINUOUS_BACKUP_GB_MONTH = "continuous_backup_gb_month"
    ON_DEMAND_BACKUP_GB_MONTH = "on_demand_backup_gb_month"
    RESTORE_GB = "restore_gb"
    EXPORT_TO_S3_GB = "export_to_s3_gb"
    INCREMENTAL_EXPORT_GB = "incremental_export_gb"
    IMPORT_FROM_S3_GB = "import_from_s3_gb"
    STREAMS_READ_REQUEST_UNITS = "streams_read_request_units"
    CHANGE_DATA_CAPTURE_UNITS = "change_data_capture_units"
    DAX_T3_SMALL_NODE_HOURS = "dax_t3_small_node_hours"
    DAX_R5_LARGE_NODE_HOURS = "dax_r5_large_node_hours"
    DATA_TRANSFER_OUT_GB = "data_transfer_out_gb"


# Priced per table class (one entry per class); every other item has one entry with table_class null.
CLASS_SPECIFIC_ITEMS = frozenset({
    PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, PriceItem.ON_DEMAND_READ_REQUEST_UNITS,
    PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS,
    PriceItem.REPLICATED_WRITE_REQUEST_UNITS, PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS,
    *(item for item in PriceItem if item.value.startswith("reserved_")),
    PriceItem.STORAGE_GB_MONTH, PriceItem.FREE_TIER_STORAGE_GB,
    PriceItem.FREE_TIER_WRITE_CAPACITY_UNITS, PriceItem.FREE_TIER_READ_CAPACITY_UNITS,
})


@dataclass(frozen=True)
class Price:
    """One price (USD per `per` units of `unit`) or free allowance (units per month); `value=None`: not available."""

    item: PriceItem
    table_class: TableClass | None
    value: Decimal | None
    per: int
    unit: str
    confidence: Confidence
    source: str
    is_assumption: bool
    note: str = ""
    usage_type: str = ""  # the AWS Price List usage type the price was read from, when it was

    @property
    def is_available(self) -> bool:
        return self.value is not None

    @property
    def unit_label(self) -> str:
        """What one priced quantity is, e.g. `1,000,000 WRU` or `WCU-hour`."""
        return self.unit if self.per == 1 else f"{self.per:,} {self.unit}"


@dataclass(frozen=True)
class PriceSheet:
    """All prices of one Region, with the date they took effect and the date they were retrieved."""

    region: str
    effective_date: date
    retrieved_date: date
    currency: str
    prices: tuple[Price, ...]
    source_file: str = ""
    notes: str = ""
    is_shipped: bool = True  # False: a Region without a sheet, every price "not available" until negotiated
    origin: SheetOrigin = SheetOrigin.SHIPPED  # where the prices came from (the page's price-source line)

    def price(self, item: PriceItem, table_class: TableClass | None = None) -> Price:
        """The price of `item` for `table_class` (ignored for items that do not depend on the class)."""
        wanted = table_class if item in CLASS_SPECIFIC_ITEMS else None
        for price in self.prices:
            if price.item is item and price.table_class is wanted:
                return price
        raise PriceSheetError("the price sheet has no entry for this price", "item", f"{item}/{wanted}",
                              f"add it to {self.source_file or 'the sheet'}, with value null if unknown")


def reserved_items(term_years: int, dimension: CapacityDimension) -> tuple[PriceItem, PriceItem]:
    """The (upfront, hourly) price items of a reserved-capacity term (1 or 3 years) and dimension (§9.2)."""
    unit = "wcu" if dimension is CapacityDimension.WRITE else "rcu"
    return PriceItem(f"reserved_{term_years}y_{unit}_upfront"), PriceItem(f"reserved_{term_years}y_{unit}_hourly")


def provisioned_item(dimension: CapacityDimension) -> PriceItem:
    return (PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS if dimension is CapacityDimension.WRITE
            else PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS)


def on_demand_item(dimension: CapacityDimension) -> PriceItem:
    return (PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS if dimension is CapacityDimension.WRITE
            else PriceItem.ON_DEMAND_READ_REQUEST_UNITS)


def break_even_utilization(sheet: PriceSheet, table_class: TableClass,
                           dimension: CapacityDimension) -> Decimal | None:
    """Utilisation above which provisioned capacity costs less than on-demand, as a fraction (§10).

    provisioned price per unit-hour / (3,600 x on-demand price per unit); e.g. us-east-1 writes
    0.00065 / (3,600 x 0.000000625) = 0.2889. None when either price is not available.
    """
    provisioned = sheet.price(provisioned_item(dimension), table_class)
    on_demand = sheet.price(on_demand_item(dimension), table_class)
    if provisioned.value is None or on_demand.value is None or on_demand.value == 0:
        return None
    return provisioned.value / (SECONDS_PER_HOUR * on_demand.value / on_demand.per)


def reserved_unit_hour_usd(sheet: PriceSheet, term_years: int, dimension: CapacityDimension) -> Decimal | None:
    """Effective reserved price per unit-hour: (upfront / (8,760 x years) + hourly) / 100 (§10)."""
    upfront, hourly = (sheet.price(item, TableClass.STANDARD) for item in reserved_items(term_years, dimension))
    if upfront.value is None or hourly.value is None:
        return None
    return (upfront.value / (HOURS_PER_YEAR * term_years) + hourly.value) / RESERVED_BLOCK_UNITS


def block_month_usd(sheet: PriceSheet, term_years: int, dimension: CapacityDimension) -> Decimal | None:
    """One 100-unit reserved block for a month: upfront / (12 x years) + hourly x 730 h (§9.2, §10)."""
    upfront, hourly = (sheet.price(item, TableClass.STANDARD) for item in reserved_items(term_years, dimension))
    if upfront.value is None or hourly.value is None:
        return None
    return upfront.value / (12 * term_years) + hourly.value * HOURS_PER_MONTH  # 12 months a year


def reserved_blocks(capacity_units: np.ndarray, block_month: Decimal, unit_hour_usd: Decimal,
                    free_unit_hours: Decimal = Decimal(0)) -> int:
    """Blocks of 100 units that minimise a month's cost for one day's per-minute capacity (§9.2).

    A block costs `block_month` whether used or not; capacity above the blocks is billed at the
    provisioned `unit_hour_usd`, after the free tier's `free_unit_hours` (the always-free 25 units x
    730 h are deducted from the capacity billed at the provisioned rate, never from reserved blocks).
    Ties go to fewer blocks. E.g. a flat 49,800 RCU -> 498 blocks (W29); us-east-1 reads averaging
    60 RCU with the free tier -> 0 blocks: (60 - 25) x 730 x $0.00013 = $3.32 beats one 1-year block
    at $30 / 12 + $0.0025 x 730 = $4.33.
    """
    top = math.ceil(float(np.max(capacity_units, initial=0.0)) / RESERVED_BLOCK_UNITS)

    def month_usd(blocks: int) -> float:
        above = float(np.maximum(capacity_units - RESERVED_BLOCK_UNITS * blocks, 0.0).sum())
        unit_hours_above = above / 60 * float(HOURS_PER_MONTH / 24)  # per-minute units -> unit-hours per month
        billed = max(unit_hours_above - float(free_unit_hours), 0.0)
        return blocks * float(block_month) + float(unit_hour_usd) * billed

    # The month's cost is convex in the block count (a line plus a convex decreasing function, clipped
    # at the free tier), so the first count whose next block saves nothing is the cheapest and the
    # fewest: a binary search, never one row per possible block (millions at a hot table's peak).
    low, high = 0, top
    while low < high:
        middle = (low + high) // 2
        if month_usd(middle + 1) >= month_usd(middle):
            high = middle
        else:
            low = middle + 1
    return low


# --- line items ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CostLineItem:
    """One billed quantity: `quantity` x `unit_price_usd` (per `unit`) = `monthly_cost_usd`, to the cent.

    `monthly_cost_usd` is None when the price is not available; `is_assumption` marks UNCONFIRMED or
    otherwise unverified prices and estimated inputs.
    """

    name: str
    unit: str
    quantity: Decimal
    unit_price_usd: Decimal | None
    monthly_cost_usd: Decimal | None
    source: str
    confidence: str
    is_assumption: bool
    note: str = ""


def line_item(name: str, price: Price, units: Decimal, note: str = "", assumed: bool = False) -> CostLineItem:
    """A line item: quantity = units / price.per; cost = quantity x price, rounded to the cent (half up).

    >>> line_item("Writes (WRU)", load_price_sheet("us-east-1").price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS,
    ...           TableClass.STANDARD), Decimal(42_177_000)).monthly_cost_usd
    Decimal('26.36')
    """
    quantity = _tidy(Decimal(units) / price.per)
    cost = None if price.value is None else round_to_cent(quantity * price.value)
    flag = f"price not available: {price.note}" if price.value is None else (
        f"assumption: {price.note}" if price.is_assumption else "")
    return CostLineItem(name, price.unit_label, quantity, price.value, cost, price.source, price.confidence.value,
                        price.is_assumption or assumed, "; ".join(filter(None, (note, flag))))


def _tidy(quantity: Decimal) -> Decimal:
    """Six decimals at most (binary float noise off), no trailing zeros: 9861.570000000001 -> 9861.57."""
    rounded = quantity.quantize(Decimal("0.000001"))
    return rounded.to_integral_value() if rounded == rounded.to_integral_value() else rounded.normalize()


def round_to_cent(usd: Decimal) -> Decimal:
    return usd.quantize(CENT, rounding=ROUND_HALF_UP)


# --- overrides -------------------------------------------------------------------------------------


def with_override(sheet: PriceSheet, item: PriceItem, value_usd: Decimal | str,
                  table_class: TableClass | None = None, note: str = "negotiated rate") -> PriceSheet:
    """A copy of `sheet` where one price is the user's own (a negotiated rate), marked "user override".

    `value_usd` is per the same `per` units as the replaced price (e.g. per 1,000,000 WRU).
    """
    old = sheet.price(item, table_class)
    value = _parse_money(str(value_usd), "value_usd")
    new = dataclasses.replace(old, value=value, confidence=Confidence.USER_OVERRIDE, source="user override",
                              is_assumption=False, note=note)
    return dataclasses.replace(sheet, prices=tuple(new if p is old else p for p in sheet.prices))


# --- loading ---------------------------------------------------------------------------------------

_MONEY = re.compile(r"^\d+(\.\d+)?$")
_REGION = re.compile(r"^[a-z]{2}(-gov)?-[a-z]+-\d$")  # an AWS Region name, as the sheet format requires


def available_regions() -> tuple[str, ...]:
    """Regions that ship a price sheet."""
    return tuple(sorted(path.stem for path in PRICE_SHEET_DIR.glob("*.json")))


def unpriced_sheet(region: str) -> PriceSheet:
    """A Region without a shipped sheet: every price "not available" (never $0, never another Region's).

    The always-free allowances are kept: AWS's pricing page gives them per account in every Region.
    The user fills prices in with negotiated rates (`with_override`).
    """
    template = load_price_sheet_file(PRICE_SHEET_DIR / "us-east-1.json")
    why = (f"no price sheet for {region}: enter a negotiated price")
    prices = tuple(p if p.item.value.startswith("free_tier_") else dataclasses.replace(
        p, value=None, confidence=Confidence.UNCONFIRMED, source="no price sheet for this Region",
        is_assumption=True, note=why) for p in template.prices)
    return PriceSheet(region, template.effective_date, template.retrieved_date, "USD", prices, "",
                      f"No price sheet ships for {region}: every price is not available until you enter a "
                      "negotiated one.", is_shipped=False, origin=SheetOrigin.NONE)


def price_sheet_for(region: str) -> PriceSheet:
    """The sheet the engine prices `region` with: a refreshed one in the workspace (`dds prices refresh`), else
    the shipped one, else an unpriced one. Never another Region's prices."""
    refreshed = refreshed_sheet(region)
    if refreshed is not None:
        return refreshed
    return load_price_sheet(region) if region in available_regions() else unpriced_sheet(region)


def refreshed_sheet_dir(environ: dict[str, str] | None = None) -> Path:
    """Where `dds prices refresh` writes its dated sheets: `price-sheets/` in the workspace folder (the same
    folder for every session of this installation), never the package."""
    return default_workspace_dir(environ) / REFRESHED_SHEETS_FOLDER


def refreshed_regions() -> tuple[str, ...]:
    """Regions with a refreshed sheet in the workspace."""
    folder = refreshed_sheet_dir()
    if not folder.is_dir():
        return ()
    return tuple(sorted(p.stem for p in folder.glob("*.json") if _REGION.match(p.stem) and p.is_file()))


def priced_regions() -> tuple[str, ...]:
    """Regions with a sheet, shipped or refreshed: the Region choices of the pages."""
    return tuple(sorted({*available_regions(), *refreshed_regions()}))


def refreshed_sheet_stamp(region: str) -> str:
    """Changes whenever the Region's refreshed sheet does (its modification time), "" without one: a cache
    of estimates keyed by it never serves prices older than the sheet."""
    if not _REGION.match(region):
        return ""
    try:
        return str((refreshed_sheet_dir() / f"{region}.json").stat().st_mtime_ns)
    except OSError:
        return ""


def refreshed_sheet(region: str) -> PriceSheet | None:
    """The refreshed sheet of `region`, or None when there is none (or it cannot be read, or names another
    Region: the shipped sheet stays in use, never another Region's prices)."""
    if not _REGION.match(region):
        return None  # also keeps a crafted name from reaching outside the folder
    path = refreshed_sheet_dir() / f"{region}.json"
    if not path.is_file():
        return None
    try:
        sheet = load_price_sheet_file(path)
    except PriceSheetError:
        return None
    return sheet if sheet.region == region and sheet.origin is SheetOrigin.AWS_PRICE_LIST else None


def price_sheet_file(sheet: PriceSheet) -> str:
    """Where a sheet was read from, as a report names it: `costs/price_sheets/<region>.json` for a shipped one,
    the workspace file for a refreshed one, "none" for a Region without a sheet."""
    if sheet.origin is SheetOrigin.NONE or not sheet.source_file:
        return "none (no price sheet for this Region)"
    if sheet.origin is SheetOrigin.SHIPPED:
        return f"costs/price_sheets/{Path(sheet.source_file).name}"
    return sheet.source_file


def price_source_line(sheet: PriceSheet) -> str:
    """One line saying where a sheet's prices come from and when, for the page, the CLI and the report.

    >>> price_source_line(load_price_sheet("us-east-1"))
    'Prices for us-east-1: the price sheet shipped with the product (effective 2024-11-01, retrieved 2026-11-30).'
    """
    if sheet.origin is SheetOrigin.AWS_PRICE_LIST:
        return (f"Prices for {sheet.region}: from the AWS Price List, retrieved {sheet.retrieved_date.isoformat()} "
                f"(effective {sheet.effective_date.isoformat()}).")
    if sheet.origin is SheetOrigin.NONE:
        return f"Prices for {sheet.region}: no price sheet; every price is not available until you enter one."
    return (f"Prices for {sheet.region}: the price sheet shipped with the product (effective "
            f"{sheet.effective_date.isoformat()}, retrieved {sheet.retrieved_date.isoformat()}).")


def load_price_sheet(region: str) -> PriceSheet:
    """The shipped price sheet of `region`, e.g. `load_price_sheet("eu-west-1")`."""
    path = PRICE_SHEET_DIR / f"{region}.json"
    if region not in available_regions():
        raise PriceSheetError("no price sheet for this Region", "region", region,
                              f"choose one of {', '.join(available_regions())}, or load your own file")
    return load_price_sheet_file(path)


def load_price_sheet_file(path: Path) -> PriceSheet:
    """A price sheet from a JSON file in the format of `costs/price_sheets/`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise PriceSheetError("cannot read the price sheet", "path", str(path), str(exc)) from None
    return price_sheet_from_dict(data, str(path))


def price_sheet_from_dict(data: object, source: str = "") -> PriceSheet:
    """Validate a parsed price-sheet document: every field, every price present once per class."""
    try:
        document = _SheetFile.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise PriceSheetError("invalid price sheet", where or "sheet", error.get("input"),
                              f"{error['msg']} ({source or 'document'})") from None
    prices = tuple(_price(entry) for entry in document.prices)
    _check_complete(prices, source)
    return PriceSheet(document.region, document.effective_date, document.retrieved_date, document.currency,
                      prices, source, document.notes, origin=document.origin)


def price_sheet_to_dict(sheet: PriceSheet) -> dict[str, object]:
    """A sheet as a document of the `costs/price_sheets/` format, which `price_sheet_from_dict` reads back."""
    return {"format": "dynamodb-design-studio/price-sheet", "version": 1, "region": sheet.region,
            "effective_date": sheet.effective_date.isoformat(), "retrieved_date": sheet.retrieved_date.isoformat(),
            "currency": sheet.currency, "notes": sheet.notes, "origin": sheet.origin.value,
            "prices": [_price_entry(price) for price in sheet.prices]}


def _price_entry(price: Price) -> dict[str, object]:
    entry: dict[str, object] = {
        "item": price.item.value, "table_class": None if price.table_class is None else price.table_class.value,
        "value": None if price.value is None else format(price.value, "f"), "per": price.per, "unit": price.unit,
        "confidence": price.confidence.value, "source": price.source, "assumption": price.is_assumption,
        "note": price.note}
    if price.usage_type:
        entry["usage_type"] = price.usage_type
    return entry


def _price(entry: _PriceFile) -> Price:
    value = None if entry.value is None else Decimal(entry.value)
    return Price(entry.item, entry.table_class, value, entry.per, entry.unit, entry.confidence, entry.source,
                 entry.assumption, entry.note, entry.usage_type)


def _check_complete(prices: tuple[Price, ...], source: str) -> None:
    keys = [(p.item, p.table_class) for p in prices]
    expected = {(item, cls) for item in PriceItem
                for cls in (tuple(TableClass) if item in CLASS_SPECIFIC_ITEMS else (None,))}
    duplicates = sorted({f"{i}/{c}" for i, c in keys if keys.count((i, c)) > 1})
    missing = sorted(f"{i}/{c}" for i, c in expected - set(keys))
    unexpected = sorted(f"{i}/{c}" for i, c in set(keys) - expected)
    for problem, found in (("duplicate", duplicates), ("missing", missing), ("unexpected", unexpected)):
        if found:
            raise PriceSheetError(f"{problem} price entries", "prices", found[:5],
                                  f"list each price once per table class it depends on ({source or 'document'})")


def _parse_money(text: str, field: str) -> Decimal:
    if not _MONEY.match(text):
        raise PriceSheetError("a price must be a plain decimal string", field, text, 'write "0.625", not 6.25e-1')
    return Decimal(text)


class _PriceFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    item: PriceItem
    table_class: TableClass | None
    value: Annotated[str, Field(pattern=_MONEY.pattern)] | None
    per: Annotated[int, Field(ge=1)]
    unit: Annotated[str, Field(min_length=1)]
    confidence: Confidence
    source: Annotated[str, Field(min_length=1)]
    assumption: bool
    note: str = ""
    usage_type: str = ""

    @model_validator(mode="after")
    def _unconfirmed_is_an_assumption(self) -> _PriceFile:
        # §0.1: UNCONFIRMED is never fact, and [3P] is never the only source for a price
        if self.confidence in (Confidence.UNCONFIRMED, Confidence.THIRD_PARTY) and not self.assumption:
            raise ValueError(f"a {self.confidence} price must be marked assumption: true")
        if self.confidence is Confidence.USER_OVERRIDE:
            raise ValueError("USER-OVERRIDE is set by with_override(), not in a shipped file")
        return self


class _SheetFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["dynamodb-design-studio/price-sheet"]
    version: Literal[1]
    region: Annotated[str, Field(pattern=r"^[a-z]{2}(-gov)?-[a-z]+-\d$")]
    effective_date: date
    retrieved_date: date
    currency: Literal["USD"]
    notes: str = ""
    origin: Literal[SheetOrigin.SHIPPED, SheetOrigin.AWS_PRICE_LIST] = SheetOrigin.SHIPPED
    prices: list[_PriceFile]
