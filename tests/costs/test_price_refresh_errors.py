"""`dds prices refresh` on bad input: one plain line saying what is wrong and how to fix it, a non-zero exit,
no traceback, and the sheets in use unchanged (the shipped ones, or an earlier refresh)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import boto3
import pytest
from botocore.stub import Stubber

from costs import price_refresh
from costs.errors import PriceListError
from costs.price_refresh import refresh
from costs.pricing import PriceItem, SheetOrigin, price_sheet_for, refreshed_regions
from dds.cli import main as dds_main
from modeling.model import TableClass
from tests.cli_runner import ROOT, run_main

OFFER_FILE = ROOT / "tests" / "fixtures" / "price_list" / "AmazonDynamoDB-offer.json"


def offer(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "index.json"
    path.write_text(text, encoding="utf-8")
    return path


def price_changed_to(usd: str) -> str:
    document = json.loads(OFFER_FILE.read_text(encoding="utf-8"))
    terms = next(iter(document["terms"]["OnDemand"].values()))
    dimension = next(iter(next(iter(terms.values()))["priceDimensions"].values()))
    dimension["pricePerUnit"]["USD"] = usd
    return json.dumps(document)


@pytest.mark.parametrize(("text", "says"), [
    ("{not json", "is not JSON"),
    ('{"products": []}', 'no "products" and "terms" objects'),
    ('{"products": {"A": {"sku": "A"}}, "terms": {"OnDemand": {}}}', "has no product.attributes"),
    (price_changed_to("abc"), "pricePerUnit.USD is 'abc'"),
    (price_changed_to("-1"), "pricePerUnit.USD is '-1'"),
], ids=["not-json", "no-products-object", "product-without-attributes", "price-not-a-number", "negative-price"])
def test_a_malformed_offer_file_is_refused_and_nothing_is_written(text: str, says: str, tmp_path: Path) -> None:
    with pytest.raises(PriceListError, match=says):
        refresh(["us-east-1"], offer_file=offer(tmp_path, text))
    assert refreshed_regions() == () and price_sheet_for("us-east-1").origin is SheetOrigin.SHIPPED


def test_an_unknown_region_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    with pytest.raises(PriceListError, match="unknown Region 'xx-nowhere-1': write an AWS Region name"):
        refresh(["us-east-1", "xx-nowhere-1"], offer_file=OFFER_FILE)
    assert refreshed_regions() == ()  # not even us-east-1: all or nothing


def test_an_api_error_names_aws_code_and_keeps_an_earlier_refresh() -> None:
    refresh(["us-east-1"], offer_file=OFFER_FILE, today=date(2026, 12, 1))
    client = boto3.client("pricing", region_name="us-east-1")
    with Stubber(client) as stubber:
        stubber.add_client_error("get_products", "AccessDeniedException", "not authorized to perform "
                                 "pricing:GetProducts", http_status_code=400)
        with pytest.raises(PriceListError, match=r"refused the request \(AccessDeniedException: not authorized"):
            refresh(["us-east-1"], client=client, today=date(2026, 12, 2))
    assert price_sheet_for("us-east-1").retrieved_date == date(2026, 12, 1)  # the earlier refresh stays


def test_no_credentials_says_how_to_refresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for variable in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    with pytest.raises(PriceListError, match=r"no AWS credentials: run `dds prices refresh --region REGION` with"):
        refresh(["us-west-2"])
    assert price_sheet_for("us-west-2").origin is SheetOrigin.SHIPPED


@pytest.mark.parametrize(("args", "says"), [
    (["--region", "xx-nowhere-1"], "unknown Region 'xx-nowhere-1'"),
    (["--region", "us-east-1", "--offer-file", "missing.json"], "cannot read the offer file missing.json"),
], ids=["unknown-region", "missing-offer-file"])
def test_the_command_prints_one_line_and_exits_1(args: list[str], says: str) -> None:
    result = run_main(dds_main, ["prices", "refresh", *args])
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and says in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.rstrip().endswith("The price sheets in use are unchanged.")


def test_the_command_writes_the_sheet_and_names_what_is_missing(workspace_dir: Path) -> None:
    result = run_main(dds_main, ["prices", "refresh", "--region", "us-east-1", "--offer-file", OFFER_FILE])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("us-east-1: 19 usage types priced from the AWS Price List, effective 2024-11-01")
    assert lines[0].endswith(f"written to {workspace_dir / 'price-sheets' / 'us-east-1.json'}")
    assert lines[-1] == ("us-east-1: not in the Price List, not available: IA-ReplWriteRequestUnits, "
                         "IA-ReplWriteCapacityUnit-Hrs, IncrementalExportDataSize-Bytes")


def test_two_products_pricing_one_usage_type_differently_are_refused(tmp_path: Path) -> None:
    document = json.loads(OFFER_FILE.read_text(encoding="utf-8"))
    sku = next(s for s, p in document["products"].items() if p["attributes"]["usagetype"] == "WriteRequestUnits")
    twin = json.loads(json.dumps({"product": document["products"][sku], "terms": document["terms"]["OnDemand"][sku]}))
    twin["product"]["sku"] = "TWIN"
    [term] = twin["terms"].values()
    next(iter(term["priceDimensions"].values()))["pricePerUnit"]["USD"] = "0.000001"
    document["products"]["TWIN"], document["terms"]["OnDemand"]["TWIN"] = twin["product"], twin["terms"]
    with pytest.raises(PriceListError, match=r"two prices for WriteRequestUnits: 0\.0000006250 \(SKU TESTSKU"):
        refresh(["us-east-1"], offer_file=offer(tmp_path, json.dumps(document)))
    assert refreshed_regions() == ()


def test_a_get_products_entry_that_is_not_json_is_refused() -> None:
    client = boto3.client("pricing", region_name="us-east-1")
    with Stubber(client) as stubber:
        stubber.add_response("get_products", {"FormatVersion": "aws_v1", "PriceList": ["{truncated"]})
        with pytest.raises(PriceListError, match="PriceList entry 1 is not JSON"):
            refresh(["us-east-1"], client=client)
    assert refreshed_regions() == ()


def test_the_command_reads_the_query_api_when_credentials_are_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = json.loads((OFFER_FILE.parent / "get-products-us-east-1.json").read_text(encoding="utf-8"))
    client = boto3.client("pricing", region_name="us-east-1")
    monkeypatch.setattr(price_refresh, "pricing_client", lambda: client)  # the test settings' dummy credentials
    with Stubber(client) as stubber:
        for page in pages:
            stubber.add_response("get_products", page)
        result = run_main(dds_main, ["prices", "refresh", "--region", "us-east-1"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("us-east-1: 19 usage types priced from the AWS Price List")
    assert price_sheet_for("us-east-1").price(PriceItem.STORAGE_GB_MONTH, TableClass.STANDARD).source.startswith(
        "AWS Price List (Query API GetProducts, AmazonDynamoDB, regionCode=us-east-1), SKU TESTSKU")
