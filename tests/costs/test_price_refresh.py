"""`dds prices refresh`: GetProducts (botocore's Stubber) and an offer file (a small file in AWS's documented
shape, tests/fixtures/price_list/) become a dated, sourced sheet in the workspace that the engine prefers.

The fixture's us-east-1 prices are dynamodb-rules §9.2's, per unit of the usage type, so every oracle below
is that price times the sheet's `per` (e.g. 0.000000625 USD per WRU x 1,000,000 = 0.625 per million).
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import boto3
import pytest
from botocore.stub import Stubber

from costs.__main__ import main as costs_main
from costs.price_refresh import refresh
from costs.pricing import (
    Confidence,
    PriceItem,
    SheetOrigin,
    price_sheet_for,
    price_source_line,
    refreshed_sheet_dir,
)
from modeling.model import TableClass
from tests.cli_runner import ROOT, run_main

FIXTURES = ROOT / "tests" / "fixtures" / "price_list"
OFFER_FILE = FIXTURES / "AmazonDynamoDB-offer.json"
STANDARD, IA = TableClass.STANDARD, TableClass.STANDARD_INFREQUENT_ACCESS
TODAY = date(2026, 12, 2)

# (item, class, value in the sheet's unit): §9.2's per-unit prices x `per`
EXPECTED_US_EAST_1 = [
    (PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD, "0.625"),  # 0.000000625 x 1,000,000
    (PriceItem.ON_DEMAND_READ_REQUEST_UNITS, STANDARD, "0.125"),  # 0.000000125 x 1,000,000
    (PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, IA, "0.78"),  # 0.00000078 x 1,000,000
    (PriceItem.ON_DEMAND_READ_REQUEST_UNITS, IA, "0.155"),
    (PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, STANDARD, "0.00013"),  # the 18,600-Inf tier, not the free 0
    (PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, IA, "0.00081"),
    (PriceItem.REPLICATED_WRITE_REQUEST_UNITS, STANDARD, "0.625"),
    (PriceItem.STORAGE_GB_MONTH, STANDARD, "0.25"),  # the 25-Inf GB tier, not the free band
    (PriceItem.STORAGE_GB_MONTH, IA, "0.1"),
    (PriceItem.CONTINUOUS_BACKUP_GB_MONTH, None, "0.2"),
    (PriceItem.ON_DEMAND_BACKUP_GB_MONTH, None, "0.1"),
    (PriceItem.RESTORE_GB, None, "0.15"),
    (PriceItem.RESERVED_1Y_WCU_UPFRONT, STANDARD, "150"),  # same SKU, LeaseContractLength 1yr, unit Quantity
    (PriceItem.RESERVED_1Y_WCU_HOURLY, STANDARD, "0.0128"),
    (PriceItem.RESERVED_3Y_RCU_UPFRONT, STANDARD, "36"),  # LeaseContractLength 3yr
    (PriceItem.RESERVED_3Y_RCU_HOURLY, STANDARD, "0.0016"),
]
EXPECTED_IDS = [f"{item.value}-{cls.value if cls else 'any'}" for item, cls, _ in EXPECTED_US_EAST_1]


def stubbed_pricing(pages: list[dict[str, object]], region: str = "us-east-1") -> tuple[object, Stubber]:
    client = boto3.client("pricing", region_name="us-east-1")
    stubber = Stubber(client)
    token = None
    for page in pages:
        expected = {"ServiceCode": "AmazonDynamoDB", "FormatVersion": "aws_v1",
                    "Filters": [{"Type": "TERM_MATCH", "Field": "regionCode", "Value": region}]}
        stubber.add_response("get_products", page, {**expected, **({"NextToken": token} if token else {})})
        token = page.get("NextToken")
    return client, stubber


def get_products_pages() -> list[dict[str, object]]:
    return json.loads((FIXTURES / "get-products-us-east-1.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("item", "table_class", "expected"), EXPECTED_US_EAST_1, ids=EXPECTED_IDS)
def test_get_products_pages_give_the_regions_prices(item: PriceItem, table_class: TableClass | None,
                                                    expected: str, tmp_path: Path) -> None:
    client, stubber = stubbed_pricing(get_products_pages())
    with stubber:
        [result] = refresh(["us-east-1"], client=client, today=TODAY, folder=tmp_path)
        stubber.assert_no_pending_responses()  # both pages were read (NextToken followed)
    price = result.sheet.price(item, table_class)
    assert price.value == Decimal(expected)
    assert price.confidence is Confidence.AWS_PRICE_LIST and price.usage_type
    assert "retrieved 2026-12-02" in price.source and "SKU TESTSKU" in price.source


@pytest.mark.parametrize(("item", "table_class", "expected"), EXPECTED_US_EAST_1, ids=EXPECTED_IDS)
def test_an_offer_file_gives_the_same_prices(item: PriceItem, table_class: TableClass | None, expected: str,
                                             tmp_path: Path) -> None:
    [result] = refresh(["us-east-1"], offer_file=OFFER_FILE, today=TODAY, folder=tmp_path)
    assert result.sheet.price(item, table_class).value == Decimal(expected)
    assert "published 2024-11-01T00:00:00Z" in result.sheet.price(item, table_class).source


def test_another_regions_product_in_the_file_is_never_used() -> None:
    # the fixture's USW2-WriteRequestUnits decoy costs 9.99 per WRU: us-east-1 keeps its own 0.625 per million
    [result] = refresh(["us-east-1"], offer_file=OFFER_FILE, today=TODAY)
    values = {p.value for p in result.sheet.prices}
    assert Decimal("9990000") not in values and Decimal("9.99") not in values
    assert result.sheet.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD).value == Decimal("0.625")


def test_a_refreshed_sheet_is_written_read_back_and_preferred(workspace_dir: Path) -> None:
    [result] = refresh(["us-east-1"], offer_file=OFFER_FILE, today=TODAY)
    assert result.path == workspace_dir / "price-sheets" / "us-east-1.json" == refreshed_sheet_dir() / "us-east-1.json"
    used = price_sheet_for("us-east-1")
    assert used.origin is SheetOrigin.AWS_PRICE_LIST
    assert used.prices == result.sheet.prices and used.retrieved_date == TODAY
    assert price_source_line(used) == ("Prices for us-east-1: from the AWS Price List, retrieved 2026-12-02 "
                                       "(effective 2024-11-01).")
    assert price_sheet_for("eu-west-1").origin is SheetOrigin.SHIPPED  # other Regions keep their shipped sheet


def test_usage_types_the_price_list_lacks_are_named_and_not_available() -> None:
    # the fixture gives no IA replicated writes nor incremental export for us-east-1, and neither does the
    # shipped sheet: not available, naming the usage type; Streams keeps us-east-1's own shipped price
    [result] = refresh(["us-east-1"], offer_file=OFFER_FILE, today=TODAY)
    assert result.coverage.missing == ("IA-ReplWriteRequestUnits", "IA-ReplWriteCapacityUnit-Hrs",
                                       "IncrementalExportDataSize-Bytes")
    rwru_ia = result.sheet.price(PriceItem.REPLICATED_WRITE_REQUEST_UNITS, IA)
    assert rwru_ia.value is None and "IA-ReplWriteRequestUnits" in rwru_ia.note and rwru_ia.is_assumption
    streams = result.sheet.price(PriceItem.STREAMS_READ_REQUEST_UNITS)
    assert "Streams-RequestsCount" in result.coverage.kept and streams.value == Decimal("0.02")
    assert "kept from the shipped sheet" in streams.note


def test_a_sparse_offer_file_prices_a_region_with_its_own_products_only(tmp_path: Path) -> None:
    # us-west-2's only product in the file is the decoy: that one price, everything else not available or
    # the shipped us-west-2 sheet's own (AWS Labs' configuration), never us-east-1's
    [result] = refresh(["us-west-2"], offer_file=OFFER_FILE, today=TODAY, folder=tmp_path)
    assert result.coverage.priced == ("USW2-WriteRequestUnits",)
    assert result.sheet.price(PriceItem.ON_DEMAND_READ_REQUEST_UNITS, STANDARD).value is None
    assert result.sheet.price(PriceItem.STORAGE_GB_MONTH, STANDARD).value is None  # us-east-1 has 0.25


def test_a_region_without_a_shipped_sheet_is_priced_once_refreshed(tmp_path: Path) -> None:
    # af-south-1 ships no sheet; an offer file with its own AFS1-WriteRequestUnits at 0.000001 USD per WRU
    # prices its writes: 1 write/s of 1 KB = 1 WRU/s x 3,600 x 730 h = 2,628,000 WRU = 2.628 M x $1.00 = $2.63
    document = json.loads(OFFER_FILE.read_text(encoding="utf-8"))
    sku = next(s for s, p in document["products"].items() if p["attributes"]["usagetype"] == "WriteRequestUnits")
    document["products"] = {sku: document["products"][sku]}
    document["products"][sku]["attributes"].update(usagetype="AFS1-WriteRequestUnits", regionCode="af-south-1")
    dimension = next(iter(next(iter(document["terms"]["OnDemand"][sku].values()))["priceDimensions"].values()))
    dimension["pricePerUnit"]["USD"] = "0.000001"
    (tmp_path / "offer.json").write_text(json.dumps(document), encoding="utf-8")
    refresh(["af-south-1"], offer_file=tmp_path / "offer.json", today=TODAY)
    result = run_main(costs_main, ["monthly", "--region", "af-south-1", "--reads-per-second", "0",
                                   "--read-item-bytes", "100", "--read-consistency", "eventual",
                                   "--writes-per-second", "1", "--write-item-bytes", "1000", "--storage-gb", "0"])
    assert result.returncode == 0, result.stderr
    [on_demand] = [o for o in json.loads(result.stdout)["options"] if o["option"] == "on_demand"]
    writes = next(line for line in on_demand["line_items"] if line["name"].startswith("Writes"))
    assert (writes["quantity"], writes["unit_price_usd"], writes["monthly_cost_usd"]) == ("2.628", "1", "2.63")
    assert writes["confidence"] == "AWS-PL" and on_demand["monthly_total_usd"] is None  # reads: not available


def test_the_estimate_names_the_refreshed_sheet_and_its_date() -> None:
    refresh(["us-east-1"], offer_file=OFFER_FILE, today=TODAY)
    model = ROOT / "modeling" / "examples" / "student_platform.yaml"  # priced in us-east-1
    result = run_main(costs_main, ["estimate", model, "--format", "md"])
    assert result.returncode == 0, result.stderr
    assert ("Prices for us-east-1: from the AWS Price List, retrieved 2026-12-02 (effective 2024-11-01)."
            in result.stdout)


def test_an_offer_file_without_a_region_refreshes_the_regions_it_holds(tmp_path: Path) -> None:
    # the fixture holds us-east-1's products and one us-west-2 decoy: those two Regions, nothing else
    results = refresh([], offer_file=OFFER_FILE, today=TODAY, folder=tmp_path)
    assert [r.region for r in results] == ["us-east-1", "us-west-2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["us-east-1.json", "us-west-2.json"]


def test_the_review_report_names_the_sheets_source_date_and_file(workspace_dir: Path) -> None:
    refresh(["us-east-1"], offer_file=OFFER_FILE, today=TODAY)
    model = ROOT / "modeling" / "examples" / "student_platform.yaml"
    result = run_main(costs_main, ["report", model, "--format", "md"])
    assert result.returncode == 0, result.stderr
    assert "Prices for us-east-1: from the AWS Price List, retrieved 2026-12-02 (effective 2024-11-01)." \
        in result.stdout
    assert str(workspace_dir / "price-sheets" / "us-east-1.json") in result.stdout
