"""The property of issue 32: whatever the Price List holds, for every Region and every usage type the price the
engine uses is that Region's own (from the Price List, else its own shipped sheet) or "not available"."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import date
from decimal import Decimal
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from costs.price_list import BILLING_CODES, ON_DEMAND_USAGE_TYPES
from costs.price_refresh import refresh
from costs.pricing import PRICE_SHEET_DIR, PriceItem, price_sheet_for

SHIPPED = sorted(path.stem for path in PRICE_SHEET_DIR.glob("*.json"))
REGIONS = [*SHIPPED, "af-south-1", "me-central-1"]  # two Regions that ship no sheet
CODES = sorted(ON_DEMAND_USAGE_TYPES)
Key = tuple[str, str | None]  # (item, table class) as the sheet files spell them


def shipped_values(region: str) -> dict[Key, Decimal | None]:
    """The Region's shipped file read as data (no sheet: every price null but the free allowances)."""
    path = PRICE_SHEET_DIR / f"{region}.json"
    template = json.loads((path if path.exists() else PRICE_SHEET_DIR / "us-east-1.json").read_text("utf-8"))
    return {(p["item"], p["table_class"]): (Decimal(p["value"]) if p["value"] is not None and (
        path.exists() or p["item"].startswith("free_tier_")) else None) for p in template["prices"]}


def offer_document(prices: dict[tuple[str, str], int]) -> dict[str, object]:
    """An offer file (AWS's documented shape) with one product per (Region, usage code): price n / 10^9 USD."""
    products, terms = {}, {}
    for number, ((region, code), nano_usd) in enumerate(sorted(prices.items())):
        sku, prefix = f"SKU{number:06d}", BILLING_CODES[region][0]
        products[sku] = {"sku": sku, "productFamily": "test", "attributes": {
            "usagetype": f"{prefix}-{code}" if prefix else code, "regionCode": region}}
        dimension = {"rateCode": f"{sku}.R", "unit": "unit", "beginRange": "0", "endRange": "Inf",
                     "pricePerUnit": {"USD": str(Decimal(nano_usd) / 10**9)}}
        terms[sku] = {f"{sku}.T": {"offerTermCode": "T", "sku": sku, "effectiveDate": "2026-11-01T00:00:00Z",
                                   "termAttributes": {}, "priceDimensions": {f"{sku}.R": dimension}}}
    return {"offerCode": "AmazonDynamoDB", "publicationDate": "2026-11-01T00:00:00Z", "products": products,
            "terms": {"OnDemand": terms}}


listed = st.dictionaries(st.tuples(st.sampled_from(REGIONS), st.sampled_from(CODES)),
                         st.integers(min_value=1, max_value=10**9), min_size=1, max_size=40)


@settings(max_examples=12)
@given(prices=listed)
def test_every_region_uses_its_own_price_or_not_available(prices: dict[tuple[str, str], int]) -> None:
    refreshed = sorted({region for region, _ in prices})
    with tempfile.TemporaryDirectory() as folder, mock.patch.dict(os.environ, {"DESIGN_STUDIO_WORKSPACE": folder}):
        offer_file = Path(folder) / "offer.json"
        offer_file.write_text(json.dumps(offer_document(prices)), encoding="utf-8")
        refresh(refreshed, offer_file=offer_file, today=date(2026, 12, 2))
        for region in REGIONS:
            own = shipped_values(region)
            from_list = {(ON_DEMAND_USAGE_TYPES[code][0].value, _class(code)): Decimal(n) / 10**9
                         for (r, code), n in prices.items() if r == region}
            for price in price_sheet_for(region).prices:
                key = (price.item.value, None if price.table_class is None else price.table_class.value)
                expected = from_list[key] * price.per if key in from_list else own[key]
                assert price.value == expected, (region, key)


def _class(code: str) -> str | None:
    table_class = ON_DEMAND_USAGE_TYPES[code][1]
    return None if table_class is None else table_class.value


def test_the_items_refreshed_are_every_usage_type_the_engine_needs() -> None:
    # the list: on-demand RRU/WRU and provisioned RCU/WCU in both classes, storage in both, PITR,
    # on-demand backup, restore, Streams, replicated writes; reserved 1- and 3-year (HeavyUsage, below)
    needed = {PriceItem.ON_DEMAND_READ_REQUEST_UNITS, PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS,
              PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS,
              PriceItem.STORAGE_GB_MONTH, PriceItem.REPLICATED_WRITE_REQUEST_UNITS,
              PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS}
    covered = {(item, cls) for item, cls in ON_DEMAND_USAGE_TYPES.values()}
    assert all((item, cls) in covered for item in needed for cls in ("STANDARD", "STANDARD_INFREQUENT_ACCESS"))
    assert {PriceItem.CONTINUOUS_BACKUP_GB_MONTH, PriceItem.ON_DEMAND_BACKUP_GB_MONTH, PriceItem.RESTORE_GB,
            PriceItem.STREAMS_READ_REQUEST_UNITS} <= {item for item, _ in covered}
