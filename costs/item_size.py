"""Item sizes for the cost engine: `modeling.item_size` (dynamodb-rules §6), its errors as `ItemFormatError`.

The rules live in `modeling.item_size` (one home for DynamoDB's rules; `costs` may import `modeling`,
never the reverse). This module keeps the cost engine's names and turns `ItemSizeError` into the cost
engine's `ItemFormatError`, which pages and the command line catch as a `CostError`.

>>> item_size_bytes({"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}})
23
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, TypeVar

from costs.errors import ItemFormatError
from modeling import item_size as _rules
from modeling.errors import ItemSizeError, Problem
from modeling.item_size import (  # noqa: F401  (the cost engine's names)
    ALL_TYPES,
    CONTAINER_OVERHEAD_BYTES,
    ELEMENT_OVERHEAD_BYTES,
    ITEM_SIZE_LIMIT_BYTES,
    KEY_TYPES,
    NUMBER_SIZE_CAP_BYTES,
    PARTITION_KEY_LIMIT_BYTES,
    SCALAR_TYPES,
    SORT_KEY_LIMIT_BYTES,
)
from modeling.limits import MAX_NESTING_LEVELS, MAX_NUMBER_SIGNIFICANT_DIGITS  # noqa: F401  (the cost engine's names)

_T = TypeVar("_T")


@contextmanager
def _as_cost_error() -> Iterator[None]:
    try:
        yield
    except ItemSizeError as error:
        raise ItemFormatError(error.what, error.field, error.value, error.hint) from None


def _delegate(function: Callable[..., _T], *args: Any) -> _T:
    with _as_cost_error():
        return function(*args)


def item_size_bytes(item: Mapping[str, Any]) -> int:
    """Bytes of an item: per attribute, its name in UTF-8 plus its value (§6)."""
    return _delegate(_rules.item_size_bytes, item)


def name_size_bytes(name: str) -> int:
    """Bytes of an attribute name or map key: its UTF-8 length (§6)."""
    return _rules.name_size_bytes(name)


def value_size_bytes(value: Any, path: str = "value", depth: int = 0) -> int:
    """Bytes of one typed value such as `{"S": "x"}` (§6); `path` names it in errors."""
    return _delegate(_rules.value_size_bytes, value, path, depth)


def number_size_bytes(number: str | int | Decimal) -> int:
    """Bytes of a Number (§6 digit pairs).

    >>> [number_size_bytes(n) for n in ("101", "2", "500", "-1")]
    [3, 2, 2, 3]
    """
    return _delegate(_rules.number_size_bytes, number)


def parse_number(number: str | int | Decimal, path: str = "N") -> Decimal:
    """A DynamoDB Number as a Decimal; rejects floats, NaN, infinity and more than 38 significant digits."""
    return _delegate(_rules.parse_number, number, path)


def binary_size_bytes(value: str | bytes | bytearray, path: str = "B") -> int:
    """Bytes of a Binary: the raw bytes; base64 text is decoded first (§6)."""
    return _delegate(_rules.binary_size_bytes, value, path)


def parse_item_json(text: str) -> dict[str, Any]:
    """Parse DynamoDB JSON text into an item; JSON errors become `ItemFormatError`."""
    return _delegate(_rules.parse_item_json, text)


def item_problems(item: Mapping[str, Any], partition_key: str | None = None,
                  sort_key: str | None = None) -> list[Problem]:
    """Every limit an item breaks: its 400 KB size and its key value lengths (§6). Empty when fine."""
    return _delegate(_rules.item_problems, item, partition_key, sort_key)
