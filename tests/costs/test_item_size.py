"""Item size rules (dynamodb-rules §6): names + values, the Number algorithm, containers, sets, limits."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from costs.errors import ItemFormatError
from costs.item_size import (
    ITEM_SIZE_LIMIT_BYTES,
    item_problems,
    item_size_bytes,
    name_size_bytes,
    number_size_bytes,
    value_size_bytes,
)

# W20: AWS Labs' sample item, 137 bytes; per attribute name + value (§13 W20)
W20_ITEM = {
    "Id": {"N": "101"},  # 2 + 3 (digits 01|01 -> 2 pairs + 1)
    "Title": {"S": "Book 101 Title"},  # 5 + 14
    "ISBN": {"S": "111-1111111111"},  # 4 + 14
    "Authors": {"L": [{"S": "Author1"}]},  # 7 + (3 + 7 + 1)
    "Price": {"N": "2"},  # 5 + 2 (pair 02 + 1)
    "Dimensions": {"S": "8.5 x 11.0 x 0.5"},  # 10 + 16
    "PageCount": {"N": "500"},  # 9 + 2 (pairs 05|00, trailing 00 stripped)
    "InPublication": {"BOOL": True},  # 13 + 1
    "ProductCategory": {"S": "Book"},  # 15 + 4
}
W20_PER_ATTRIBUTE = [5, 19, 18, 18, 7, 26, 11, 14, 19]


def test_w19_two_one_letter_strings_are_23_bytes() -> None:
    # "shirt-color" (11) + "R" (1) + "shirt-size" (10) + "M" (1) = 23
    assert item_size_bytes({"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}}) == 23


def test_w20_sample_item_is_137_bytes() -> None:
    # 5 + 19 + 18 + 18 + 7 + 26 + 11 + 14 + 19 = 137
    assert item_size_bytes(W20_ITEM) == 137


@pytest.mark.parametrize(("name", "expected"), zip(W20_ITEM, W20_PER_ATTRIBUTE, strict=True), ids=list(W20_ITEM))
def test_w20_each_attribute_is_name_plus_value(name: str, expected: int) -> None:
    assert name_size_bytes(name) + value_size_bytes(W20_ITEM[name]) == expected


NUMBERS = [
    ("0", 1),  # zero is 1 byte
    ("2", 2),  # 02 -> 1 pair + 1
    ("101", 3),  # 01|01 -> 2 pairs + 1
    ("500", 2),  # 05|00 -> trailing zero pair stripped -> 1 pair + 1
    ("-1", 3),  # 01 -> 1 pair + 1 + 1 for the sign
    ("0.5", 2),  # 00.|50 -> leading 00 stripped -> 1 pair + 1
    ("12.34", 3),  # 12.|34 -> 2 pairs + 1
    ("-0.001", 3),  # 00.|00|10 -> 1 pair + 1 + 1
    ("1E+2", 2),  # 100 -> 01|00 -> 1 pair + 1
    ("1e-130", 2),  # 1 significant digit at any magnitude
    ("12345678901234567890123456789012345678", 20),  # 38 digits = 19 pairs + 1
    ("-1.2345678901234567890123456789012345678", 21),  # 01.|23..78|80 = 20 pairs + 1 + 1 = 22, capped at 21
]


@pytest.mark.parametrize(("text", "expected"), NUMBERS, ids=[t for t, _ in NUMBERS])
def test_number_size_follows_the_digit_pair_algorithm(text: str, expected: int) -> None:
    assert number_size_bytes(text) == expected


CONTAINERS = [
    ("empty-list", {"L": []}, 3),  # 3 bytes overhead
    ("list-of-one-char", {"L": [{"S": "a"}]}, 5),  # 3 + 1 + 1 per element
    ("map-k-v", {"M": {"k": {"S": "v"}}}, 6),  # 3 + (1 name + 1 value) + 1 per element
    ("nested-map", {"M": {"m": {"M": {}}}}, 8),  # 3 + (1 + 3) + 1
    ("string-set", {"SS": ["a", "bc"]}, 3),  # plain sum 1 + 2, no overhead (§6 [AWS-CODE])
    ("number-set", {"NS": ["1", "22"]}, 4),  # 2 + 2
    ("binary-set", {"BS": ["aGk="]}, 2),  # base64 of "hi" -> 2 raw bytes
    ("binary-base64", {"B": "aGVsbG8="}, 5),  # "hello"
    ("binary-raw-bytes", {"B": b"hello"}, 5),
    ("null", {"NULL": True}, 1),
    ("utf8-string", {"S": "é€"}, 5),  # 2 + 3 UTF-8 bytes
]


@pytest.mark.parametrize(("value", "expected"), [(v, e) for _, v, e in CONTAINERS], ids=[i for i, _, _ in CONTAINERS])
def test_value_sizes_of_every_type(value: dict, expected: int) -> None:
    assert value_size_bytes(value) == expected


MALFORMED = [
    ("not-an-object", ["x"]),
    ("unknown-type", {"a": {"STRING": "x"}}),
    ("two-type-keys", {"a": {"S": "x", "N": "1"}}),
    ("string-not-text", {"a": {"S": 5}}),
    ("number-as-float", {"a": {"N": 1.5}}),
    ("number-not-digits", {"a": {"N": "abc"}}),
    ("number-nan", {"a": {"N": "NaN"}}),
    ("number-39-digits", {"a": {"N": "1" * 39}}),
    ("bad-base64", {"a": {"B": "***"}}),
    ("bool-as-text", {"a": {"BOOL": "true"}}),
    ("null-false", {"a": {"NULL": False}}),
    ("list-not-array", {"a": {"L": {"S": "x"}}}),
    ("map-not-object", {"a": {"M": []}}),
    ("empty-set", {"a": {"SS": []}}),
]


@pytest.mark.parametrize("item", [i for _, i in MALFORMED], ids=[n for n, _ in MALFORMED])
def test_malformed_dynamodb_json_raises_a_typed_error_naming_the_field(item: object) -> None:
    with pytest.raises(ItemFormatError, match="field="):
        item_size_bytes(item)  # type: ignore[arg-type]


def test_nesting_beyond_32_levels_is_rejected() -> None:
    value: dict = {"S": "x"}
    for _ in range(33):
        value = {"L": [value]}
    with pytest.raises(ItemFormatError, match="nesting"):
        item_size_bytes({"a": value})


def _item_of(size_bytes: int) -> dict:
    return {"a": {"S": "x" * (size_bytes - 1)}}  # 1-byte name + (size - 1) bytes of value


@pytest.mark.parametrize(("size", "problems"), [(1, 0), (ITEM_SIZE_LIMIT_BYTES, 0), (ITEM_SIZE_LIMIT_BYTES + 1, 1)],
                         ids=["1B", "400KB-exactly", "400KB-plus-1B"])
def test_items_over_400_kb_are_a_problem(size: int, problems: int) -> None:
    # 400 KB = 409,600 bytes (AWS's KB is 1,024 B, §0.2)
    assert item_size_bytes(_item_of(size)) == size
    assert len(item_problems(_item_of(size))) == problems


KEYS = [
    ("pk-2048", {"pk": {"S": "x" * 2048}}, "pk", None, 0),
    ("pk-2049", {"pk": {"S": "x" * 2049}}, "pk", None, 1),
    ("sk-1024", {"pk": {"S": "a"}, "sk": {"S": "x" * 1024}}, "pk", "sk", 0),
    ("sk-1025", {"pk": {"S": "a"}, "sk": {"S": "x" * 1025}}, "pk", "sk", 1),
    ("pk-empty", {"pk": {"S": ""}}, "pk", None, 1),
    ("pk-missing", {"other": {"S": "a"}}, "pk", None, 1),
    ("pk-bool", {"pk": {"BOOL": True}}, "pk", None, 1),
]


@pytest.mark.parametrize(("item", "pk", "sk", "count"), [k[1:] for k in KEYS], ids=[k[0] for k in KEYS])
def test_key_values_must_be_1_to_2048_and_1_to_1024_bytes(item: dict, pk: str, sk: str | None, count: int) -> None:
    assert len(item_problems(item, partition_key=pk, sort_key=sk)) == count


@given(st.text(max_size=50), st.text(max_size=50))
def test_a_string_attribute_counts_name_and_value_in_utf8(name: str, value: str) -> None:
    assert item_size_bytes({name: {"S": value}}) == len(name.encode()) + len(value.encode())


@given(st.integers(min_value=1, max_value=10**30))
def test_multiplying_by_100_shifts_pairs_and_keeps_the_size(number: int) -> None:
    # the digits move by one whole pair; the new trailing 00 pair is stripped
    assert number_size_bytes(str(number * 100)) == number_size_bytes(str(number))


@given(st.decimals(allow_nan=False, allow_infinity=False, places=6, min_value=-(10**20), max_value=10**20))
def test_a_negative_number_costs_one_byte_more_up_to_the_cap(number: Decimal) -> None:
    if number != 0:
        assert number_size_bytes(-abs(number)) == min(number_size_bytes(abs(number)) + 1, 21)


@given(st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=5), max_size=5), st.text(min_size=1))
def test_adding_an_attribute_never_shrinks_an_item(values: dict, extra: str) -> None:
    item = {k: {"S": v} for k, v in values.items() if k != extra}
    assert item_size_bytes({**item, extra: {"NULL": True}}) > item_size_bytes(item)
