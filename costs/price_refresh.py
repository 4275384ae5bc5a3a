"""`dds prices refresh`: DynamoDB's prices from AWS's Price List, written as dated sheets into the workspace.

    dds prices refresh [--region R ...] [--offer-file FILE]

With AWS credentials it asks the Price List Query API (`pricing:GetProducts`, service code `AmazonDynamoDB`,
filtered by `regionCode`; the API answers from us-east-1, one of its three endpoints, AWS Billing User Guide,
"Using the AWS Price List Query API"); with `--offer-file` it reads an offer file the user downloaded
(`costs.price_list.OFFER_FILE_URL`). Every sheet is built and checked before any is written, so a bad
answer, an unknown Region or a missing credential leaves the sheets in use as they were. A written sheet
goes to `costs.pricing.refreshed_sheet_dir()`; the engine prefers it over the shipped one for its Region.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

from costs.errors import PriceListError, PriceSheetError
from costs.price_list import (
    BILLING_CODES,
    OFFER_FILE_URL,
    SERVICE_CODE,
    Coverage,
    PriceListProduct,
    coverage,
    listed_prices,
    products_from_get_products,
    products_from_offer_file,
    refreshed_sheet,
)
from costs.pricing import (
    PriceSheet,
    available_regions,
    load_price_sheet,
    price_sheet_from_dict,
    price_sheet_to_dict,
    refreshed_sheet_dir,
    unpriced_sheet,
)

PRICING_API_REGION = "us-east-1"  # the Query API's endpoints are us-east-1, eu-central-1 and ap-south-1
# An offer file is read whole, so its size is capped; 64 MB is our bound (AWS states no size for the file).
MAX_OFFER_FILE_BYTES = 64 * 1024 * 1024
ANY_REGION_OFFER_FILE = OFFER_FILE_URL.format(region="REGION")
HOW_TO_REFRESH = ("run `dds prices refresh --region REGION` with AWS credentials configured (aws configure, or "
                  f"AWS_PROFILE), or download the Region's offer file from {ANY_REGION_OFFER_FILE} and run "
                  "`dds prices refresh --region REGION --offer-file index.json`")


@dataclass(frozen=True)
class RefreshResult:
    """One Region's refreshed sheet, where it was written, and the usage types the Price List did not give."""

    region: str
    path: Path
    sheet: PriceSheet
    coverage: Coverage


def credentials_available() -> bool:
    """Whether boto3 finds AWS credentials (environment, profile, SSO, instance role); never shows them."""
    try:
        return boto3.Session().get_credentials() is not None
    except BotoCoreError:
        return False


def pricing_client() -> Any:
    return boto3.client("pricing", region_name=PRICING_API_REGION)


def check_regions(regions: Sequence[str]) -> list[str]:
    """The Regions asked for, each once, or PriceListError naming an unknown one."""
    for region in regions:
        if region not in BILLING_CODES:
            raise PriceListError(f"unknown Region {region[:40]!r}: write an AWS Region name such as us-west-2 "
                                 f"(known: {', '.join(sorted(BILLING_CODES))})")
    return list(dict.fromkeys(regions))


def fetch_products(client: Any, region: str) -> list[PriceListProduct]:
    """All of `region`'s DynamoDB products from GetProducts, every page."""
    filters = [{"Type": "TERM_MATCH", "Field": "regionCode", "Value": region}]
    try:
        pages = client.get_paginator("get_products").paginate(ServiceCode=SERVICE_CODE, FormatVersion="aws_v1",
                                                              Filters=filters)
        price_list = [entry for page in pages for entry in page.get("PriceList", [])]
    except NoCredentialsError:
        raise PriceListError(f"no AWS credentials: {HOW_TO_REFRESH}") from None
    except ClientError as exc:
        error = exc.response.get("Error", {})
        raise PriceListError(f"the AWS Price List refused the request ({error.get('Code', 'error')}: "
                             f"{str(error.get('Message', ''))[:200]}); check the credentials' pricing:GetProducts "
                             "permission, or use --offer-file") from None
    except BotoCoreError as exc:
        raise PriceListError(f"the AWS Price List could not be reached ({exc}); try again, or use --offer-file") \
            from None
    return products_from_get_products(price_list)


def read_offer_file(path: Path) -> tuple[list[PriceListProduct], str]:
    """The products of an offer file and a description of it (name, publication date) for the sources."""
    try:
        size = path.stat().st_size
        if size > MAX_OFFER_FILE_BYTES:
            raise PriceListError(f"{path} is {size:,} bytes, more than an offer file ({MAX_OFFER_FILE_BYTES:,}); "
                                 "download one Region's file from " + ANY_REGION_OFFER_FILE)
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PriceListError(f"cannot read the offer file {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise PriceListError(f"{path} is not JSON: download the offer file again from {ANY_REGION_OFFER_FILE}") \
            from None
    products = products_from_offer_file(document)
    published = str(document.get("publicationDate", "no publicationDate"))[:40]
    return products, f"offer file {path.name}, offer {document.get('offerCode', '?')}, published {published}"


def regions_in(products: list[PriceListProduct]) -> list[str]:
    """The known Regions an offer file has products for (by `regionCode`), or PriceListError when none."""
    found = sorted({str(p.attributes.get("regionCode")) for p in products} & BILLING_CODES.keys())
    if not found:
        raise PriceListError("the offer file names no AWS Region (no product has a regionCode): name one with "
                             "--region, or download a Region's file from " + ANY_REGION_OFFER_FILE)
    return found


def base_sheet(region: str) -> PriceSheet:
    """What a refresh starts from: the Region's shipped sheet, or its unpriced one."""
    return load_price_sheet(region) if region in available_regions() else unpriced_sheet(region)


def build_sheet(products: list[PriceListProduct], region: str, source: str,
                today: date) -> tuple[PriceSheet, Coverage]:
    """`region`'s refreshed sheet, checked as a file of the sheet format would be, and what it covers."""
    base, listed = base_sheet(region), listed_prices(products, region)
    sheet = refreshed_sheet(base, listed, source, today)
    try:
        checked = price_sheet_from_dict(price_sheet_to_dict(sheet), f"refreshed sheet for {region}")
    except PriceSheetError as exc:  # a bug here, but said plainly and nothing written
        raise PriceListError(f"the refreshed sheet for {region} is not valid ({exc}); the shipped one stays") \
            from None
    return checked, coverage(base, listed)


def write_sheet(sheet: PriceSheet, folder: Path) -> Path:
    """Write atomically (temporary file, then rename): a crash never leaves half a sheet."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{sheet.region}.json"
        data = json.dumps(price_sheet_to_dict(sheet), indent=2, ensure_ascii=False) + "\n"
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as tmp:
            tmp.write(data)
        os.replace(tmp.name, path)
    except OSError as exc:
        raise PriceListError(f"cannot write to {folder}: {exc.strerror or exc}; set DESIGN_STUDIO_WORKSPACE to a "
                             "writable folder") from None
    return path


def refresh(regions: Sequence[str], offer_file: Path | None = None, client: Any = None,
            today: date | None = None, folder: Path | None = None) -> list[RefreshResult]:
    """Refresh `regions` from the API or an offer file, all or nothing. Without `regions`: every shipped Region
    from the API, every Region the offer file holds from a file."""
    wanted = check_regions(regions or ([] if offer_file else available_regions()))
    day = today or datetime.now(UTC).date()
    if offer_file is not None:
        products, source = read_offer_file(offer_file)
        sheets = [build_sheet(products, region, source, day) for region in wanted or regions_in(products)]
    else:
        if client is None and not credentials_available():
            raise PriceListError(f"no AWS credentials: {HOW_TO_REFRESH}")
        api = client if client is not None else pricing_client()
        sheets = [build_sheet(fetch_products(api, region), region,
                              f"Query API GetProducts, {SERVICE_CODE}, regionCode={region}", day)
                  for region in wanted]
    target = folder or refreshed_sheet_dir()
    return [RefreshResult(sheet.region, write_sheet(sheet, target), sheet, found) for sheet, found in sheets]


def result_lines(result: RefreshResult) -> list[str]:
    """What the command prints for one Region: where the sheet went, and every usage type it lacks, named."""
    found = result.coverage
    lines = [f"{result.region}: {len(found.priced)} usage types priced from the AWS Price List, effective "
             f"{result.sheet.effective_date.isoformat()}, retrieved {result.sheet.retrieved_date.isoformat()}; "
             f"written to {result.path}"]
    if found.kept:
        lines.append(f"{result.region}: not in the Price List, kept from the shipped sheet: {', '.join(found.kept)}")
    if found.missing:
        lines.append(f"{result.region}: not in the Price List, not available: {', '.join(found.missing)}")
    return lines


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="dds prices", description="DynamoDB price sheets from AWS's Price List.")
    actions = root.add_subparsers(dest="action", required=True, metavar="ACTION")
    refresh_parser = actions.add_parser("refresh", help="write dated price sheets into the workspace, from the "
                                        "AWS Price List Query API (AWS credentials) or a downloaded offer file")
    refresh_parser.add_argument("--region", action="append", default=[], metavar="R",
                                help="a Region to refresh (repeat for several; default: every shipped Region, or "
                                "every Region in the offer file)")
    refresh_parser.add_argument("--offer-file", type=Path, metavar="FILE",
                                help="an AmazonDynamoDB offer file (index.json) instead of the Query API")
    return root


def main(argv: list[str] | None = None) -> int:
    """Exit 0 when every Region was written, 1 when nothing was (the message says why), 2 on a usage error."""
    args = parser().parse_args(argv)
    try:
        results = refresh(args.region, args.offer_file)
    except PriceListError as exc:
        print(f"dds prices refresh: error: {exc}. The price sheets in use are unchanged.", file=sys.stderr)
        return 1
    for result in results:
        print("\n".join(result_lines(result)))
    return 0
