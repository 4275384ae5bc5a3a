"""Sample-data generator specs inferred from a sampled attribute's values, where the values make it obvious.

UUIDs (keeping a common prefix), padded sequences, e-mails, ISO-8601 timestamps and dates, up to
`MAX_ENUM_VALUES` repeated values (an enum with the observed weights), number ranges, booleans, and
epoch seconds for the table's TTL attribute. Anything else gets no generator (sample data then uses
the type's default). Used by `modeling.live_inference`.

>>> generator_for("S", ["T-0001", "T-0002"], is_ttl=False)
{'kind': 'sequence', 'start': 1, 'width': 4, 'prefix': 'T-'}
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

_UUID = re.compile(r"^(?P<prefix>.*?)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_SEQUENCE = re.compile(r"^(?P<prefix>\D*?)(?P<digits>\d+)$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
MAX_ENUM_VALUES = 12


def generator_for(kind: str, values: list[Any], is_ttl: bool) -> dict[str, Any] | None:
    """A generator spec (as a document) for values of one DynamoDB type, or None when nothing is obvious."""
    if kind == "BOOL":
        return {"kind": "boolean", "true_share": round(sum(map(bool, values)) / len(values), 3)}
    if kind == "N":
        return _number_generator(values, is_ttl)
    if kind != "S":
        return None
    return _text_generator(values)


def _number_generator(values: list[Decimal], is_ttl: bool) -> dict[str, Any]:
    low, high = min(values), max(values)
    if all(v == v.to_integral_value() for v in values):
        if is_ttl:  # the TTL attribute holds epoch seconds (dynamodb-facts §10 on TTL deletes)
            return {"kind": "timestamp_range", "start": _epoch_text(low), "end": _epoch_text(high),
                    "format": "epoch_seconds"}
        return {"kind": "int_range", "min": int(low), "max": int(high)}
    decimals = max(-v.normalize().as_tuple().exponent for v in values)
    return {"kind": "float_range", "min": float(low), "max": float(high), "decimals": min(int(decimals), 10)}


def _epoch_text(seconds: Decimal) -> str:
    return datetime.fromtimestamp(int(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _text_generator(values: list[str]) -> dict[str, Any] | None:
    distinct = len(set(values))
    uuids = [_UUID.match(v) for v in values]
    if all(uuids) and len({m["prefix"] for m in uuids}) == 1:
        return {"kind": "uuid", **({"prefix": uuids[0]["prefix"]} if uuids[0]["prefix"] else {})}
    if all(_EMAIL.match(v) for v in values):
        return {"kind": "faker", "provider": "email"}
    if all(_TIMESTAMP.match(v) for v in values):
        start, end = min(values), max(values)
        return {"kind": "timestamp_range", "start": start, "end": end,
                **({"format": "date"} if all(len(v) == 10 for v in values) else {})}
    sequence = _sequence_generator(values) if distinct == len(values) else None
    if sequence:
        return sequence
    if distinct <= MAX_ENUM_VALUES and distinct * 2 <= len(values):
        counts = Counter(values).most_common()
        return {"kind": "enum", "values": [v for v, _ in counts],
                "weights": [round(c / len(values), 4) for _, c in counts]}
    return None


def _sequence_generator(values: list[str]) -> dict[str, Any] | None:
    matches = [_SEQUENCE.match(v) for v in values]
    if not all(matches) or len({m["prefix"] for m in matches}) != 1:
        return None
    widths = {len(m["digits"]) for m in matches}
    padded = len(widths) == 1 and any(m["digits"].startswith("0") for m in matches)
    spec = {"kind": "sequence", "start": min(int(m["digits"]) for m in matches)}
    if padded:
        spec["width"] = widths.pop()
    if matches[0]["prefix"]:
        spec["prefix"] = matches[0]["prefix"]
    return spec

