"""Sample-data generator specs inferred from attribute values: one set of rules for every importer.

The NoSQL Workbench importer (values in a model file) and the live-table importer (values read with a
bounded Scan) both ask: which generator would produce values like these? The answer is a generator spec
as a model document (`{"kind": "uuid", "prefix": "cus_"}`), or None when nothing fits. The rules are
deliberately stable: a model exported with generated data and imported again infers the same specs.

>>> generator_for("S", ["T-0001", "T-0002"])
{'kind': 'sequence', 'prefix': 'T-', 'start': 1, 'width': 4}
>>> generator_for("N", [Decimal(1767225600)], is_ttl=True)["format"]
'epoch_seconds'
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from modeling.limits import MAX_ITEM_BYTES  # dynamodb-rules §6: an item is at most 400 KB

MAX_EXACT_INTEGER = 2**53  # beyond this, integer ranges are not sampled exactly
MAX_ENUM_VALUES = 10

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_UUID = re.compile(r"^(?P<prefix>.*?)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
_PREFIXED_NUMBER = re.compile(r"^(?P<prefix>[A-Za-z_\-]*?)(?P<digits>\d+)$")


def generator_for(kind: str, values: list[Any], is_ttl: bool = False) -> dict[str, Any] | None:
    """A generator spec for values of one DynamoDB type (`S`, `N`, `BOOL`), or None when nothing fits."""
    scalars = [v for v in values if v is not None]
    if not scalars or kind not in ("S", "N", "BOOL"):
        return None
    if all(isinstance(v, bool) for v in scalars):
        return {"kind": "boolean", "true_share": round(sum(scalars) / len(scalars), 2)}
    if all(isinstance(v, Decimal) for v in scalars):
        return _number_generator(scalars, is_ttl)
    return _text_generator([str(v) for v in scalars])


def _text_generator(texts: list[str]) -> dict[str, Any]:
    distinct = list(dict.fromkeys(texts))
    if all(_EMAIL.match(t) for t in texts):
        return {"kind": "faker", "provider": "email"}
    uuids = [m for t in texts if (m := _UUID.match(t)) is not None]
    if len(uuids) == len(texts) and len({m["prefix"] for m in uuids}) == 1:
        return {"kind": "uuid", **({"prefix": uuids[0]["prefix"]} if uuids[0]["prefix"] else {})}
    if all(_ISO.match(t) and _is_moment(t) for t in texts):
        date_only = all(len(t) == 10 for t in texts)
        return {"kind": "timestamp_range", "start": min(texts), "end": max(texts),
                "format": "date" if date_only else "iso8601"}
    prefixed = [m for t in texts if (m := _PREFIXED_NUMBER.match(t)) is not None]
    if (len(distinct) > 1 and len(prefixed) == len(texts) and all(len(m["digits"]) <= 15 for m in prefixed)
            and len({m["prefix"] for m in prefixed}) == 1 and prefixed[0]["prefix"]):
        widths = {len(m["digits"]) for m in prefixed}
        padded = len(widths) == 1 and any(m["digits"].startswith("0") for m in prefixed)
        return {"kind": "sequence", "prefix": prefixed[0]["prefix"], "start": min(int(m["digits"]) for m in prefixed),
                "width": widths.pop() if padded else 0}
    if len(distinct) > 2 and all(t.isascii() and t.isdigit() and len(t) < 16 for t in texts):
        return {"kind": "int_range", "min": min(map(int, texts)), "max": max(map(int, texts))}
    if len(distinct) <= MAX_ENUM_VALUES:
        return {"kind": "enum", "values": distinct}
    average = round(sum(len(t.encode()) for t in texts) / len(texts))
    return {"kind": "text", "length_bytes": min(MAX_ITEM_BYTES, max(1, average))}


def _is_moment(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        return False
    return True


def _number_generator(numbers: list[Decimal], is_ttl: bool) -> dict[str, Any] | None:
    if max(abs(n) for n in numbers) >= MAX_EXACT_INTEGER:
        return None  # ids and the like beyond exact sampling: the values are shown, not generated
    if all(n == n.to_integral_value() for n in numbers):
        if is_ttl:  # the TTL attribute holds epoch seconds (dynamodb-rules §6)
            return {"kind": "timestamp_range", "start": _epoch_text(min(numbers)), "end": _epoch_text(max(numbers)),
                    "format": "epoch_seconds"}
        return {"kind": "int_range", "min": int(min(numbers)), "max": int(max(numbers))}
    # only finite Decimals reach here (the item's numbers), whose exponent is an int ('n', 'N', 'F' are NaN/inf's)
    decimals = min(10, max(-int(n.as_tuple().exponent) for n in numbers))
    return {"kind": "float_range", "min": float(min(numbers)), "max": float(max(numbers)), "decimals": decimals}


def _epoch_text(seconds: Decimal) -> str:
    return datetime.fromtimestamp(int(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
