"""SQL column types and names -> DynamoDB attribute types and sample-data generators.

Types follow what the value is in DynamoDB JSON (docs/sql-import.md): numbers `N`, booleans (and MySQL's
`TINYINT(1)`) `BOOL`, binary `B`, JSON `M`, arrays `L`, everything else `S`. A generator is chosen from,
in order: the column's enum values (`ENUM`, `CHECK ... IN`, a PostgreSQL enum type), a UUID or text key,
the type (booleans, numbers within their CHECK bounds, timestamps), then the name (`email`, `phone`,
`city` ... as Faker providers; `description`, `body` as text). Foreign keys (references) are decided by
`modeling.interop.sql_import`, which knows the other tables.

>>> dynamodb_type("TINYINT", (1,)), dynamodb_type("DECIMAL", (10, 2)), dynamodb_type("JSONB", ())
('BOOL', 'N', 'M')
"""

from __future__ import annotations

import re
from typing import Any

from modeling.interop.sql_schema import INTEGER_TYPES, Column, Table

TIMESTAMP_START, TIMESTAMP_END = "2020-01-01T00:00:00Z", "2026-12-01T00:00:00Z"
YEAR_MIN, YEAR_MAX = 1901, 2155  # MySQL's YEAR range (MySQL 8.0 reference manual, "The YEAR Type")
NUMBER_TYPES = INTEGER_TYPES | {"DECIMAL", "DOUBLE", "FLOAT", "MONEY", "SMALLMONEY", "BIGDECIMAL", "UDECIMAL",
                                "UDOUBLE"}
BOOLEAN_TYPES = frozenset({"BOOLEAN", "BIT"})
BINARY_TYPES = frozenset({"BINARY", "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "IMAGE"})
MAP_TYPES = frozenset({"JSON", "JSONB", "HSTORE", "OBJECT", "STRUCT", "MAP"})
TIMESTAMP_TYPES = frozenset({"TIMESTAMP", "TIMESTAMPTZ", "TIMESTAMPLTZ", "TIMESTAMPNTZ", "DATETIME", "DATETIME2",
                             "DATETIME64", "SMALLDATETIME"})
DATE_TYPES = frozenset({"DATE", "DATE32"})
LONG_TEXT_TYPES = frozenset({"TEXT", "MEDIUMTEXT", "LONGTEXT", "TINYTEXT", "CLOB"})
# Column names -> Faker providers (lower-cased, whole name or its last `_` word)
NAME_PROVIDERS = {
    "email": "email", "email_address": "email", "phone": "phone_number", "phone_number": "phone_number",
    "mobile": "phone_number", "first_name": "first_name", "firstname": "first_name", "given_name": "first_name",
    "last_name": "last_name", "lastname": "last_name", "surname": "last_name", "family_name": "last_name",
    "full_name": "name", "username": "user_name", "user_name": "user_name", "login": "user_name",
    "city": "city", "country": "country", "country_code": "country_code", "postcode": "postcode",
    "postal_code": "postcode", "zip": "postcode", "zip_code": "postcode", "url": "url", "website": "url",
    "homepage": "url", "ip": "ipv4", "ip_address": "ipv4", "address": "street_address",
    "street": "street_address", "street_address": "street_address", "company": "company",
    "company_name": "company", "job": "job", "job_title": "job", "color": "color_name", "colour": "color_name",
}
TEXT_NAMES = frozenset({"description", "body", "notes", "note", "comment", "comments", "content", "bio", "summary",
                        "message", "details"})
COMPANY_TABLES = re.compile(r"(compan|account|organi[sz]ation|org$|vendor|supplier|customer_compan|tenant)", re.I)
PRODUCT_TABLES = re.compile(r"(product|item|sku|article|catalog)", re.I)


def column_generator(table: Table, column: Column) -> dict[str, Any] | None:
    """The generator spec (a model document) for a column that is not a foreign key, or None."""
    name = column.name
    kind = dynamodb_type(column.sql_type, column.type_parameters)
    lower = column.name.lower()
    if column.enum_values:  # on an SS (a MySQL SET), the set's members: each sample item holds some of them
        return {"kind": "enum", "values": list(dict.fromkeys(column.enum_values))}
    if column.sql_type == "UUID" or (name in table.primary_key and kind == "S"
                                     and column.sql_type not in TIMESTAMP_TYPES | DATE_TYPES):
        return {"kind": "uuid"}
    if kind == "BOOL":
        return {"kind": "boolean"}
    if kind == "N":
        return _number_generator(table, column.name)
    if column.sql_type in TIMESTAMP_TYPES | DATE_TYPES:
        return {"kind": "timestamp_range", "start": TIMESTAMP_START, "end": TIMESTAMP_END,
                **({"format": "date"} if column.sql_type in DATE_TYPES else {})}
    if kind != "S":
        return None  # SS without members, B, M, L: the sample data's own defaults
    provider = _provider(table, lower)
    if provider is not None:
        return {"kind": "faker", "provider": provider}
    if lower in TEXT_NAMES or column.sql_type in LONG_TEXT_TYPES:
        return {"kind": "text", "length_bytes": 200}
    length = column.type_parameters[0] if column.type_parameters else 24
    return {"kind": "text", "length_bytes": max(1, min(length, 32))}


def dynamodb_type(sql_type: str, parameters: tuple[int, ...]) -> str:
    if sql_type in BOOLEAN_TYPES or (sql_type in ("TINYINT", "UTINYINT") and parameters == (1,)):
        return "BOOL"  # MySQL's BOOLEAN is TINYINT(1); phpBB-style flags are TINYINT(1) UNSIGNED
    if sql_type == "SET":
        return "SS"  # MySQL's SET('a','b'): any number of the listed strings, no order, no repeats
    if sql_type in NUMBER_TYPES:
        return "N"
    if sql_type in BINARY_TYPES or sql_type in ("BYTEA", "VARBINARY"):
        return "B"
    if sql_type in MAP_TYPES:
        return "M"
    if sql_type in ("ARRAY", "LIST"):
        return "L"
    return "S"


def _number_generator(table: Table, name: str) -> dict[str, Any]:
    column = table.column(name)
    assert column is not None
    if not column.computed and (column.auto_increment or (name in table.primary_key and len(table.primary_key) == 1)):
        return {"kind": "sequence"}
    year = column.sql_type == "YEAR"  # MySQL's YEAR: 1901 to 2155 (MySQL 8.0 reference manual, 13.2.4)
    low = column.minimum if column.minimum is not None else (
        YEAR_MIN if year else 1 if name.lower() in ("version", "quantity") else 0)
    high = column.maximum if column.maximum is not None else (
        YEAR_MAX if year else 10 if name.lower() in ("version", "quantity") else max(low, 0) + 1000)
    high = max(high, low)
    if column.sql_type in INTEGER_TYPES:
        return {"kind": "int_range", "min": int(low), "max": int(high)}
    scale = column.type_parameters[1] if len(column.type_parameters) > 1 else 2
    return {"kind": "float_range", "min": float(low), "max": float(high), "decimals": min(scale, 10)}


def _provider(table: Table, lower: str) -> str | None:
    last = lower.rsplit("_", 1)[-1]
    if lower in NAME_PROVIDERS:
        return NAME_PROVIDERS[lower]
    if "email" in lower:
        return "email"
    if lower in ("name", "title", "display_name") or last == "name":
        if COMPANY_TABLES.search(table.name):
            return "company"
        if PRODUCT_TABLES.search(table.name):
            return "ecommerce_name"
        return "name" if lower != "title" else "catch_phrase"
    return NAME_PROVIDERS.get(last) if last in ("phone", "city", "country", "url", "postcode", "zip") else None
