"""Reading DynamoDB's prices from AWS's Price List: one Region's products, in the two documented shapes.

AWS publishes the Price List two ways (AWS Billing User Guide, "Reading the service price list file for an
AWS service", https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-service-price-list-file-for-services.html):

- the **Query API**, `pricing:GetProducts`: `PriceList` is a list of JSON *strings*, each one product
  `{"product": {"sku", "productFamily", "attributes": {...}}, "terms": {"OnDemand"|"Reserved": {...}}, ...}`;
- the **offer file** (`.../offers/v1.0/aws/AmazonDynamoDB/current/<region>/index.json`): one document,
  `{"publicationDate", "products": {sku: {...}}, "terms": {"OnDemand"|"Reserved": {sku: {...}}}}`.

Both carry, per term, `effectiveDate`, `termAttributes` (reserved: `LeaseContractLength` 1yr/3yr) and
`priceDimensions` `{rateCode: {"unit", "beginRange", "endRange", "pricePerUnit": {"USD": "0.000000625"}}}`.
`products_from_get_products` and `products_from_offer_file` turn both into the same `PriceListProduct`s;
`listed_prices` keeps one Region's usage types; `refreshed_sheet` builds a dated, sourced sheet.

The usage types are DynamoDB's billing codes (AWS, DynamoDB Developer Guide, "Best practices for
understanding your AWS billing and usage reports",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-understanding-billing.html): an optional
Region prefix (none for us-east-1, e.g. `USW2-` for us-west-2), then the code (`ReadRequestUnits`,
`IA-ReadRequestUnits`, `WriteCapacityUnit-Hrs`, `TimedStorage-ByteHrs`, `HeavyUsage:dynamodb.read`, ...).
A product is kept only when its prefix is the Region's own (and its `regionCode`, when present, the Region):
a price is that Region's or it is missing, never another Region's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation

from costs.errors import PriceListError
from costs.pricing import Confidence, Price, PriceItem, PriceSheet, SheetOrigin
from modeling.model import TableClass

SERVICE_CODE = "AmazonDynamoDB"
OFFER_FILE_URL = "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonDynamoDB/current/{region}/index.json"
BILLING_DOC_URL = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-understanding-billing.html"

# Region -> billing Region code, the usage-type prefix (bp-understanding-billing.html, "Billing Region Code"
# table). us-east-1's usage types carry no prefix ("If absent, that indicates the us-east-1 Region"); eu-west-1
# is listed as both EU and EUW1.
BILLING_CODES: dict[str, tuple[str, ...]] = {
    "af-south-1": ("AFS1",), "ap-east-1": ("APE1",), "ap-northeast-1": ("APN1",), "ap-northeast-2": ("APN2",),
    "ap-northeast-3": ("APN3",), "ap-southeast-1": ("APS1",), "ap-southeast-2": ("APS2",), "ap-south-1": ("APS3",),
    "ap-southeast-3": ("APS4",), "ap-south-2": ("APS5",), "ap-southeast-4": ("APS6",), "ca-central-1": ("CAN1",),
    "eu-central-1": ("EUC1",), "eu-central-2": ("EUC2",), "eu-north-1": ("EUN1",), "eu-south-1": ("EUS1",),
    "eu-south-2": ("EUS2",), "eu-west-1": ("EU", "EUW1"), "eu-west-2": ("EUW2",), "eu-west-3": ("EUW3",),
    "il-central-1": ("ILC1",), "me-central-1": ("MEC1",), "me-south-1": ("MES1",), "sa-east-1": ("SAE1",),
    "us-east-1": ("", "USE1"), "us-east-2": ("USE2",), "us-gov-east-1": ("UGE1",), "us-gov-west-1": ("UGW1",),
    "us-west-1": ("USW1",), "us-west-2": ("USW2",),
}
_ALL_PREFIXES = frozenset(code for codes in BILLING_CODES.values() for code in codes if code)

STANDARD, IA = TableClass.STANDARD, TableClass.STANDARD_INFREQUENT_ACCESS
Key = tuple[PriceItem, TableClass | None]

# Usage type (without the Region prefix) -> the sheet entry it prices (bp-understanding-billing.html, tables
# "Provisioned", "On-Demand", "Global Tables", "Streams", "Storage", "Backup and Restore", "Export and Import").
ON_DEMAND_USAGE_TYPES: dict[str, Key] = {
    "ReadRequestUnits": (PriceItem.ON_DEMAND_READ_REQUEST_UNITS, STANDARD),
    "IA-ReadRequestUnits": (PriceItem.ON_DEMAND_READ_REQUEST_UNITS, IA),
    "WriteRequestUnits": (PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, STANDARD),
    "IA-WriteRequestUnits": (PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, IA),
    "ReadCapacityUnit-Hrs": (PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, STANDARD),
    "IA-ReadCapacityUnit-Hrs": (PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, IA),
    "WriteCapacityUnit-Hrs": (PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, STANDARD),
    "IA-WriteCapacityUnit-Hrs": (PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, IA),
    "ReplWriteRequestUnits": (PriceItem.REPLICATED_WRITE_REQUEST_UNITS, STANDARD),
    "IA-ReplWriteRequestUnits": (PriceItem.REPLICATED_WRITE_REQUEST_UNITS, IA),
    "ReplWriteCapacityUnit-Hrs": (PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS, STANDARD),
    "IA-ReplWriteCapacityUnit-Hrs": (PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS, IA),
    "TimedStorage-ByteHrs": (PriceItem.STORAGE_GB_MONTH, STANDARD),
    "IA-TimedStorage-ByteHrs": (PriceItem.STORAGE_GB_MONTH, IA),
    "TimedPITRStorage-ByteHrs": (PriceItem.CONTINUOUS_BACKUP_GB_MONTH, None),
    "TimedBackupStorage-ByteHrs": (PriceItem.ON_DEMAND_BACKUP_GB_MONTH, None),
    "RestoreDataSize-Bytes": (PriceItem.RESTORE_GB, None),
    "Streams-RequestsCount": (PriceItem.STREAMS_READ_REQUEST_UNITS, None),
    "ExportDataSize-Bytes": (PriceItem.EXPORT_TO_S3_GB, None),
    "IncrementalExportDataSize-Bytes": (PriceItem.INCREMENTAL_EXPORT_GB, None),
    "ImportDataSize-Bytes": (PriceItem.IMPORT_FROM_S3_GB, None),
    "ChangeDataCaptureUnits-Kinesis": (PriceItem.CHANGE_DATA_CAPTURE_UNITS, None),
}
# Reserved capacity: "Both 1-year and 3-year reserved capacity are billed using the same SKUs"; the term's
# LeaseContractLength tells them apart, an upfront fee (unit "Quantity") and an hourly fee (unit "Hrs").
RESERVED_USAGE_TYPES: dict[str, str] = {"HeavyUsage:dynamodb.read": "rcu", "HeavyUsage:dynamodb.write": "wcu"}
RESERVED_TERMS = {"1yr": 1, "3yr": 3}
UPFRONT_UNIT, HOURLY_UNIT = "Quantity", "Hrs"


def reserved_key(usage_code: str, years: int, upfront: bool) -> Key:
    unit = RESERVED_USAGE_TYPES[usage_code]
    return PriceItem(f"reserved_{years}y_{unit}_{'upfront' if upfront else 'hourly'}"), STANDARD


# Every sheet entry a refresh reads from the Price List (the rest of a sheet, the free allowances, DAX and
# internet transfer, stays as the Region's shipped sheet has it). A missing one is "not available", named.
REFRESHED_KEYS: frozenset[Key] = frozenset({
    *ON_DEMAND_USAGE_TYPES.values(),
    *(reserved_key(code, years, upfront) for code in RESERVED_USAGE_TYPES for years in RESERVED_TERMS.values()
      for upfront in (True, False)),
})


@dataclass(frozen=True)
class PriceListProduct:
    """One product of the Price List with its terms, as both shapes give it."""

    sku: str
    attributes: Mapping[str, str]
    terms: Mapping[str, object]  # {"OnDemand": {offerTermCode: term}, "Reserved": {...}}


@dataclass(frozen=True)
class ListedPrice:
    """One price read from the Price List: USD per unit of the usage type (per request unit, per GB-month, ...)."""

    key: Key
    usd_per_unit: Decimal
    usage_type: str
    sku: str
    effective_date: date


def products_from_get_products(price_list: Iterable[object]) -> list[PriceListProduct]:
    """The products of GetProducts' `PriceList` (JSON strings, one product each)."""
    products = []
    for number, text in enumerate(price_list, start=1):
        try:
            document = json.loads(text) if isinstance(text, str) else None
        except json.JSONDecodeError as exc:
            raise PriceListError(f"PriceList entry {number} is not JSON ({exc.msg})") from None
        products.append(_product(document, f"PriceList entry {number}", None))
    return products


def products_from_offer_file(document: object) -> list[PriceListProduct]:
    """The products of an offer file: `products` by SKU, and each SKU's terms under `terms.<type>.<sku>`."""
    if not isinstance(document, dict) or not isinstance(document.get("products"), dict) or not isinstance(
            document.get("terms"), dict):
        raise PriceListError("it is not an AWS Price List offer file: no \"products\" and \"terms\" objects")
    terms = document["terms"]
    products = []
    for sku, product in document["products"].items():
        by_type = {kind: group.get(sku, {}) for kind, group in terms.items() if isinstance(group, dict)}
        products.append(_product({"product": product, "terms": by_type}, f"product {sku}", sku))
    return products


def _product(document: object, where: str, sku: str | None) -> PriceListProduct:
    product = document.get("product") if isinstance(document, dict) else None
    attributes = product.get("attributes") if isinstance(product, dict) else None
    terms = document.get("terms") if isinstance(document, dict) else None
    if not isinstance(product, dict) or not isinstance(attributes, dict) or not isinstance(terms, dict):
        raise PriceListError(f"{where} has no product.attributes or terms, as AWS's Price List products have")
    return PriceListProduct(str(product.get("sku") or sku or ""), attributes, terms)


def usage_code(usage_type: str, region: str) -> str | None:
    """The usage type without `region`'s own prefix, or None when it belongs to another Region.

    >>> usage_code("USW2-ReadRequestUnits", "us-west-2"), usage_code("ReadRequestUnits", "us-east-1")
    ('ReadRequestUnits', 'ReadRequestUnits')
    >>> usage_code("USW2-ReadRequestUnits", "us-east-1") is None, usage_code("IA-ReadRequestUnits", "us-east-1")
    (True, 'IA-ReadRequestUnits')
    """
    prefix, _, rest = usage_type.partition("-")
    has_prefix = prefix in _ALL_PREFIXES and bool(rest)
    own = BILLING_CODES.get(region, ())
    if has_prefix:
        return rest if prefix in own else None
    return usage_type if "" in own else None


def listed_prices(products: Iterable[PriceListProduct], region: str) -> dict[Key, ListedPrice]:
    """`region`'s prices by sheet entry; other Regions' products, and usage types the engine does not use, are
    left out. Two products pricing one entry differently is an error, never a silent choice."""
    found: dict[Key, ListedPrice] = {}
    for product in products:
        code = usage_code(str(product.attributes.get("usagetype", "")), region)
        if code is None or product.attributes.get("regionCode", region) != region:
            continue
        for listed in _prices_of(product, code):
            _keep(found, listed)
    return found


def _prices_of(product: PriceListProduct, code: str) -> list[ListedPrice]:
    usage_type = str(product.attributes.get("usagetype"))
    if code in ON_DEMAND_USAGE_TYPES:
        term = _single_term(product, "OnDemand")
        if term is None:
            return []
        dimension = _paid_dimension(term, product.sku)
        return [ListedPrice(ON_DEMAND_USAGE_TYPES[code], _usd(dimension, product.sku), usage_type, product.sku,
                            _effective(term, product.sku))]
    if code in RESERVED_USAGE_TYPES:
        return [price for term in _terms(product, "Reserved") for price in _reserved(product, code, term)]
    return []


def _reserved(product: PriceListProduct, code: str, term: Mapping[str, object]) -> list[ListedPrice]:
    attributes = term.get("termAttributes")
    years = RESERVED_TERMS.get(str(attributes.get("LeaseContractLength", ""))) if isinstance(attributes, dict) \
        else None
    if years is None:
        return []
    usage_type, effective = str(product.attributes.get("usagetype")), _effective(term, product.sku)
    return [ListedPrice(reserved_key(code, years, dimension.get("unit") == UPFRONT_UNIT),
                        _usd(dimension, product.sku), usage_type, product.sku, effective)
            for dimension in _dimensions(term, product.sku) if dimension.get("unit") in (UPFRONT_UNIT, HOURLY_UNIT)]


def _keep(found: dict[Key, ListedPrice], listed: ListedPrice) -> None:
    previous = found.get(listed.key)
    if previous is not None and previous.usd_per_unit != listed.usd_per_unit:
        raise PriceListError(f"two prices for {listed.usage_type}: {previous.usd_per_unit:f} (SKU {previous.sku}) "
                             f"and {listed.usd_per_unit:f} (SKU {listed.sku}); use AWS's file as published")
    if previous is None or listed.effective_date > previous.effective_date:
        found[listed.key] = listed


def _terms(product: PriceListProduct, kind: str) -> list[Mapping[str, object]]:
    group = product.terms.get(kind, {})
    if not isinstance(group, dict):
        raise PriceListError(f"SKU {product.sku}: terms.{kind} is not an object")
    return [term for term in group.values() if isinstance(term, dict)]


def _single_term(product: PriceListProduct, kind: str) -> Mapping[str, object] | None:
    terms = _terms(product, kind)
    if len(terms) > 1:
        raise PriceListError(f"SKU {product.sku} has {len(terms)} {kind} terms; the Price List gives one")
    return terms[0] if terms else None


def _dimensions(term: Mapping[str, object], sku: str) -> list[Mapping[str, object]]:
    dimensions = term.get("priceDimensions")
    if not isinstance(dimensions, dict) or not dimensions:
        raise PriceListError(f"SKU {sku}: a term without priceDimensions")
    return [d for d in dimensions.values() if isinstance(d, dict)]


def _paid_dimension(term: Mapping[str, object], sku: str) -> Mapping[str, object]:
    """The open-ended tier ("endRange": "Inf"): the price after any free band (25 GB of storage, 18,600 free
    capacity-unit-hours), or the only tier."""
    dimensions = _dimensions(term, sku)
    if len(dimensions) == 1:
        return dimensions[0]
    open_ended = [d for d in dimensions if str(d.get("endRange", "")) == "Inf"]
    if len(open_ended) != 1:
        raise PriceListError(f"SKU {sku}: {len(dimensions)} price tiers and no single open-ended one")
    return open_ended[0]


def _usd(dimension: Mapping[str, object], sku: str) -> Decimal:
    price = dimension.get("pricePerUnit")
    text = price.get("USD") if isinstance(price, dict) else None
    try:
        value = Decimal(str(text))
    except InvalidOperation:
        value = Decimal(-1)
    if text is None or not value.is_finite() or value < 0:
        raise PriceListError(f"SKU {sku}: pricePerUnit.USD is {text!r}, not a price in USD")
    return value


def _effective(term: Mapping[str, object], sku: str) -> date:
    text = str(term.get("effectiveDate", ""))
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        raise PriceListError(f"SKU {sku}: effectiveDate {text!r} is not a date") from None


# --- the refreshed sheet --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coverage:
    """What a refresh found for one Region, by usage type: priced from the Price List, kept from the Region's
    own shipped sheet (the Price List did not give it), or not available (neither has it)."""

    priced: tuple[str, ...]
    kept: tuple[str, ...]
    missing: tuple[str, ...]


def coverage(base: PriceSheet, listed: Mapping[Key, ListedPrice]) -> Coverage:
    priced: list[str] = []
    kept: list[str] = []
    missing: list[str] = []
    for price in base.prices:
        key = (price.item, price.table_class)
        if key not in REFRESHED_KEYS or _not_offered(price):
            continue
        usage_type = listed[key].usage_type if key in listed else expected_usage_type(key, base.region)
        (priced if key in listed else kept if price.value is not None else missing).append(usage_type)
    return Coverage(*(tuple(dict.fromkeys(names)) for names in (priced, kept, missing)))


def refreshed_sheet(base: PriceSheet, listed: Mapping[Key, ListedPrice], source: str,
                    retrieved: date) -> PriceSheet:
    """`base` (the Region's shipped sheet, or its unpriced one) with every entry the Price List gives replaced
    by its price there. An entry it does not give keeps the Region's own shipped price, with that price's
    source, or stays "not available", naming the usage type; never another Region's. `source` says which Price
    List (the Query API, or an offer file and its publication date)."""
    if not listed:
        raise PriceListError(f"the Price List gave no DynamoDB price for {base.region}: for an offer file, use the "
                             f"Region's own file ({OFFER_FILE_URL.format(region=base.region)})")
    prices = tuple(_refreshed_price(price, listed, source, retrieved, base.region) for price in base.prices)
    effective = max(listed_price.effective_date for listed_price in listed.values())
    found = coverage(base, listed)
    notes = " ".join(filter(None, (
        f"Refreshed from the AWS Price List ({source}) on {retrieved.isoformat()}.",
        f"Not in it, kept from the shipped sheet of {base.region}: {', '.join(found.kept)}." if found.kept else "",
        f"Not in it, so not available: {', '.join(found.missing)}." if found.missing else "",
        "Free allowances, DAX and internet transfer are as in the shipped sheet of this Region.")))
    return replace(base, effective_date=effective, retrieved_date=retrieved, prices=prices, notes=notes,
                   source_file="", is_shipped=True, origin=SheetOrigin.AWS_PRICE_LIST)


def _refreshed_price(price: Price, listed: Mapping[Key, ListedPrice], source: str, retrieved: date,
                     region: str) -> Price:
    key = (price.item, price.table_class)
    if key not in REFRESHED_KEYS or _not_offered(price):
        return price
    found = listed.get(key)
    if found is None:
        usage_type = expected_usage_type(key, region)
        if price.value is not None:  # the Region's own shipped price, with its own source
            return replace(price, note="; ".join(filter(None, (
                price.note, f"kept from the shipped sheet: the Price List gave no {usage_type}"))))
        return replace(price, confidence=Confidence.UNCONFIRMED, is_assumption=True,
                       source=f"not in the AWS Price List ({source}), retrieved {retrieved.isoformat()}",
                       note=f"not available: the Price List has no {usage_type} for {region}")
    value = (found.usd_per_unit * price.per).normalize()
    reserved = price.item.value.startswith("reserved_")
    return replace(price, value=value, confidence=Confidence.AWS_PRICE_LIST, is_assumption=reserved,
                   source=f"AWS Price List ({source}), SKU {found.sku}, usage type {found.usage_type}, effective "
                          f"{found.effective_date.isoformat()}, retrieved {retrieved.isoformat()}",
                   note=("read as the price of one 100-unit block, as AWS quotes reserved capacity; check it "
                         "against your bill" if reserved else ""), usage_type=found.usage_type)


def _not_offered(price: Price) -> bool:
    """Reserved capacity for Standard-IA is not offered at all (§9.2): the shipped sheet says so already."""
    return price.item.value.startswith("reserved_") and price.table_class is IA


def expected_usage_type(key: Key, region: str) -> str:
    """The usage type that prices `key` in `region`, e.g. `USW2-IA-TimedStorage-ByteHrs` (us-east-1's have no
    prefix)."""
    prefix = BILLING_CODES.get(region, ("",))[0]
    names = [name for name, k in ON_DEMAND_USAGE_TYPES.items() if k == key]
    if not names:
        item = key[0].value
        names = [next(code for code, unit in RESERVED_USAGE_TYPES.items() if f"_{unit}_" in item)
                 + (" (3-year)" if "_3y_" in item else " (1-year)")]
    return f"{prefix}-{names[0]}" if prefix else names[0]
