"""Size of a DynamoDB item, in bytes, as DynamoDB counts it for capacity units and limits (one home: the
cost engine's `costs.item_size` delegates here).

Input is DynamoDB JSON, the wire shape of an item: `{"title": {"S": "Book"}, "price": {"N": "2"}}`.
Rules: dynamodb-rules §6 (Item size rules)
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html

>>> item_size_bytes({"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}})
23
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, cast

from modeling.errors import ItemSizeError as ItemFormatError
from modeling.errors import Problem
from modeling.limits import (
    MAX_ITEM_BYTES,
    MAX_NESTING_LEVELS,
    MAX_NUMBER_SIGNIFICANT_DIGITS,
    MAX_PARTITION_KEY_BYTES,
    MAX_SORT_KEY_BYTES,
)

# dynamodb-rules §6 (Limits), kept with the other limits in `modeling.limits`: 400 KB with AWS's
# binary KB (§0.2; AWS Labs' calculator uses 400,000 B, a quirk we do not copy), keys 2,048 and 1,024 bytes.
ITEM_SIZE_LIMIT_BYTES = MAX_ITEM_BYTES
PARTITION_KEY_LIMIT_BYTES = MAX_PARTITION_KEY_BYTES
SORT_KEY_LIMIT_BYTES = MAX_SORT_KEY_BYTES
# dynamodb-rules §6 (Number size, exact algorithm) [AWS-CODE]
# https://github.com/awslabs/amazon-dynamodb-tools/blob/b3ef85a5d7746a0716b23dd659562bbc2fee7453/snippets/item_size_calculator/index.min.js
NUMBER_SIZE_CAP_BYTES = 21
# dynamodb-rules §6 (List, Map): 3 bytes per container plus 1 byte per element
CONTAINER_OVERHEAD_BYTES = 3
ELEMENT_OVERHEAD_BYTES = 1

SCALAR_TYPES = ("S", "N", "B", "BOOL", "NULL")
KEY_TYPES = ("S", "N", "B")
ALL_TYPES = (*SCALAR_TYPES, "L", "M", "SS", "NS", "BS")


def item_size_bytes(item: Mapping[str, Any]) -> int:
    """Bytes of an item: per attribute, its name in UTF-8 plus its value (§6).

    >>> item_size_bytes({"Id": {"N": "101"}})
    5
    """
    if not isinstance(item, Mapping):
        raise ItemFormatError("an item must be a JSON object of attributes", "item", type(item).__name__,
                              'write it as {"name": {"S": "value"}}')
    return sum(name_size_bytes(name) + value_size_bytes(value, f"item.{name}") for name, value in item.items())


def name_size_bytes(name: str) -> int:
    """Bytes of an attribute name or map key: its UTF-8 length (§6)."""
    return len(name.encode("utf-8"))


def value_size_bytes(value: Any, path: str = "value", depth: int = 0) -> int:
    """Bytes of one typed value such as `{"S": "x"}` (§6); `path` names it in errors."""
    kind, payload = _type_and_payload(value, path)
    if kind in ("L", "M"):
        if depth + 1 > MAX_NESTING_LEVELS:
            raise ItemFormatError("nesting is deeper than DynamoDB allows", path, depth + 1,
                                  f"DynamoDB supports up to {MAX_NESTING_LEVELS} levels (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)")
        return _container_size_bytes(kind, payload, path, depth + 1)
    if kind in ("SS", "NS", "BS"):
        return _set_size_bytes(kind, payload, path)
    return _scalar_size_bytes(kind, payload, path)


def number_size_bytes(number: str | int | Decimal) -> int:
    """Bytes of a Number: digit pairs aligned on the decimal point, zero pairs trimmed, +1 (§6).

    >>> [number_size_bytes(n) for n in ("101", "2", "500", "-1")]
    [3, 2, 2, 3]
    """
    value = parse_number(number)
    if value.is_zero():
        return 1  # §6 step 1
    integer, _, fraction = format(value.copy_abs(), "f").partition(".")  # step 2: plain decimal, no sign
    integer = integer.lstrip("0")
    digits = integer.rjust(len(integer) + len(integer) % 2, "0") + fraction.ljust(
        len(fraction) + len(fraction) % 2, "0")  # step 3: pad to pairs aligned on the point
    pairs = [digits[i:i + 2] for i in range(0, len(digits), 2)]
    while pairs and pairs[0] == "00":  # step 4: strip leading and trailing all-zero pairs
        pairs.pop(0)
    while pairs and pairs[-1] == "00":
        pairs.pop()
    # step 5: ceil(remaining digits / 2) is the number of pairs left; +1, and +1 more when negative
    size = len(pairs) + 1 + (1 if value < 0 else 0)
    return min(size, NUMBER_SIZE_CAP_BYTES)  # step 6


def parse_number(number: str | int | Decimal, path: str = "N") -> Decimal:
    """A DynamoDB Number as a Decimal; rejects floats, NaN, infinity and more than 38 significant digits."""
    if isinstance(number, bool) or not isinstance(number, str | int | Decimal):
        raise ItemFormatError("a Number must be written as a string", path, number, 'write {"N": "1.5"}')
    try:
        value = Decimal(number.strip() if isinstance(number, str) else number)
    except InvalidOperation:
        raise ItemFormatError("not a number", path, number, 'write digits such as "42" or "-1.5E3"') from None
    if not value.is_finite():
        raise ItemFormatError("DynamoDB numbers must be finite", path, number, "NaN and Infinity are not allowed")
    # count digits without leading/trailing zeros; `normalize()` would round to the context's 28 digits
    if len("".join(map(str, value.as_tuple().digits)).strip("0")) > MAX_NUMBER_SIGNIFICANT_DIGITS:
        raise ItemFormatError("too many significant digits", path, number,
                              f"DynamoDB keeps at most {MAX_NUMBER_SIGNIFICANT_DIGITS} (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)")
    return value


def binary_size_bytes(value: str | bytes | bytearray, path: str = "B") -> int:
    """Bytes of a Binary: the raw bytes; base64 text (DynamoDB JSON's encoding) is decoded first (§6)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    if not isinstance(value, str):
        raise ItemFormatError("a Binary must be base64 text or bytes", path, value, 'write {"B": "aGVsbG8="}')
    try:
        return len(base64.b64decode(value, validate=True))
    except (binascii.Error, ValueError):
        raise ItemFormatError("not valid base64", path, value[:40], "encode the bytes with base64") from None


def parse_item_json(text: str) -> dict[str, Any]:
    """Parse DynamoDB JSON text into an item; JSON errors become `ItemFormatError`."""
    try:
        item = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ItemFormatError("not valid JSON", "item", text[:40], f"{exc.msg} at line {exc.lineno}") from None
    item_size_bytes(item)  # validates the shape
    return cast(dict[str, Any], item)  # item_size_bytes refused all but a Mapping: json.loads' is a dict of str keys


def item_problems(item: Mapping[str, Any], partition_key: str | None = None,
                  sort_key: str | None = None) -> list[Problem]:
    """Every limit an item breaks: its 400 KB size and its key value lengths (§6). Empty when fine."""
    problems = []
    size = item_size_bytes(item)
    if size > ITEM_SIZE_LIMIT_BYTES:
        problems.append(Problem("item", f"item is {size:,} bytes, over the 400 KB ({ITEM_SIZE_LIMIT_BYTES:,}-byte) "
                                "limit (AWS: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)",
                                "move large attributes to S3 and keep a pointer, or compress them"))
    for name, limit in ((partition_key, PARTITION_KEY_LIMIT_BYTES), (sort_key, SORT_KEY_LIMIT_BYTES)):
        if name is not None:
            problems.extend(_key_problems(item, name, limit))
    return problems


def _key_problems(item: Mapping[str, Any], name: str, limit_bytes: int) -> list[Problem]:
    path = f"item.{name}"
    if name not in item:
        return [Problem(path, f"key attribute {name} is missing", "every item needs its key attributes")]
    kind, payload = _type_and_payload(item[name], path)
    if kind not in KEY_TYPES:
        return [Problem(path, f"key attribute {name} has type {kind}", "key attributes must be S, N or B (https://docs.aws.amazon.com/amazondynamodb/latest/"
                        "developerguide/HowItWorks.CoreComponents.html)")]
    size = _scalar_size_bytes(kind, payload, path)
    if kind != "N" and not 1 <= size <= limit_bytes:
        return [Problem(path, f"key value is {size:,} bytes; it must be 1 to {limit_bytes:,} bytes (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)",
                        "shorten the key, e.g. hash long values")]
    return []


def _type_and_payload(value: Any, path: str) -> tuple[str, Any]:
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ItemFormatError("a value must be an object with exactly one type key", path, value,
                              'write {"S": "text"}, {"N": "1"}, {"L": [...]}, ...')
    ((kind, payload),) = value.items()
    if kind not in ALL_TYPES:
        raise ItemFormatError("unknown attribute type", path, kind, f"use one of {', '.join(ALL_TYPES)}")
    return kind, payload


def _scalar_size_bytes(kind: str, payload: Any, path: str) -> int:
    if kind == "S":
        if not isinstance(payload, str):
            raise ItemFormatError("a String must be JSON text", path, payload, 'write {"S": "text"}')
        return len(payload.encode("utf-8"))
    if kind == "N":
        return number_size_bytes(parse_number(payload, path))
    if kind == "B":
        return binary_size_bytes(payload, path)
    if kind == "BOOL" and not isinstance(payload, bool):
        raise ItemFormatError("a Boolean must be true or false", path, payload, 'write {"BOOL": true}')
    if kind == "NULL" and payload is not True:
        raise ItemFormatError("a Null must be written as true", path, payload, 'write {"NULL": true}')
    return 1  # §6: Boolean and Null are 1 byte


def _container_size_bytes(kind: str, payload: Any, path: str, depth: int) -> int:
    # §6: 3 bytes + the elements + 1 byte per element; map keys count like attribute names
    if kind == "L":
        if not isinstance(payload, Sequence) or isinstance(payload, str):
            raise ItemFormatError("a List must be a JSON array", path, payload, 'write {"L": [{"S": "a"}]}')
        elements = sum(value_size_bytes(v, f"{path}[{i}]", depth) for i, v in enumerate(payload))
    else:
        if not isinstance(payload, Mapping):
            raise ItemFormatError("a Map must be a JSON object", path, payload, 'write {"M": {"k": {"S": "v"}}}')
        elements = sum(name_size_bytes(k) + value_size_bytes(v, f"{path}.{k}", depth) for k, v in payload.items())
    return CONTAINER_OVERHEAD_BYTES + elements + ELEMENT_OVERHEAD_BYTES * len(payload)


def _set_size_bytes(kind: str, payload: Any, path: str) -> int:
    # §6 (Sets) [AWS-CODE]: AWS Labs' calculator adds the element sizes with no container overhead
    if not isinstance(payload, Sequence) or isinstance(payload, str | bytes):
        raise ItemFormatError("a set must be a JSON array", path, payload, f'write {{"{kind}": ["a", "b"]}}')
    if not payload:
        raise ItemFormatError("empty sets are not allowed", path, payload, "omit the attribute instead (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)")
    return sum(_scalar_size_bytes(kind[0], element, f"{path}[{i}]") for i, element in enumerate(payload))
