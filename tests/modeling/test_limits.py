"""Every size a model can ask for is bounded, and a value over its bound gets a message with the path, the
value, the limit and a fix (issue 15, finding 2)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from modeling.errors import errors_only
from modeling.model_file import document_problems

BASE: dict[str, Any] = {
    "format": "dynamodb-design-studio/model", "version": 1, "name": "Limits",
    "table": {"name": "limits-table"},
    "entities": [{"name": "Order", "item_count": 1000, "identifiers": ["orderId"], "attributes": [
        {"name": "orderId", "generator": {"kind": "uuid"}},
        {"name": "status", "generator": {"kind": "enum", "values": ["A", "B"]}},
        {"name": "total", "type": "N", "generator": {"kind": "int_range", "min": 0, "max": 10}},
        {"name": "notes", "generator": {"kind": "text", "length_bytes": 10}}]}],
    "relationships": [{"name": "order_self", "kind": "one_to_many", "parent": "Order", "child": "Order",
                       "cardinality": {"mean": 1}}],
    "access_patterns": [{"name": "get_order", "kind": "read_one", "entities": ["Order"], "inputs": ["orderId"],
                         "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}}],
}


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    document = copy.deepcopy(BASE)
    node = document
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return document


def test_the_base_document_is_valid() -> None:
    assert errors_only(document_problems(BASE)) == []


# (where, value, readable path, words the message must hold: the value and the limit)
OVER_LIMIT = [
    (("entities", 0, "item_count"), 10**15 + 1, "entities[Order].item_count",
     ("1,000,000,000,000,001", "1,000,000,000,000,000")),
    (("entities", 0, "attributes", 3, "generator", "length_bytes"), 400 * 1024 + 1,
     "entities[Order].attributes[notes].generator.length_bytes", ("409,601", "409,600")),
    (("entities", 0, "attributes", 0, "avg_size_bytes"), 10**6,
     "entities[Order].attributes[orderId].avg_size_bytes", ("1,000,000", "409,600")),
    (("entities", 0, "attributes", 2, "generator", "max"), 10**40,
     "entities[Order].attributes[total].generator.max", ("38 significant digits",)),
    (("relationships", 0, "cardinality", "mean"), 1e16, "relationships[order_self].cardinality.mean",
     ("1,000,000,000,000,000",)),
    (("access_patterns", 0, "traffic", "peak_requests_per_second"), 1e12,
     "access_patterns[get_order].traffic.peak_requests_per_second", ("1,000,000,000,000", "1,000,000,000")),
    (("access_patterns", 0, "expected_items"), 1e10, "access_patterns[get_order].expected_items",
     ("10,000,000,000", "1,000,000,000")),
]


@pytest.mark.parametrize(("where", "value", "path", "words"), OVER_LIMIT, ids=[o[2] for o in OVER_LIMIT])
def test_a_value_over_its_limit_is_refused_with_path_value_limit_and_fix(where, value, path, words) -> None:
    problems = errors_only(document_problems(_with(where, value)))
    assert [p.path for p in problems] == [path]
    text = f"{problems[0].message} {problems[0].suggestion}"
    assert all(w in text for w in words), text
    assert problems[0].suggestion  # how to fix it, not just what is wrong


def _many(kind: str, count: int) -> dict[str, Any]:
    document = copy.deepcopy(BASE)
    if kind == "entities":
        document["entities"] = [{"name": f"E{n}", "item_count": 1, "attributes": [{"name": "id"}]}
                                for n in range(count)]
        document["relationships"], document["access_patterns"] = [], []
    elif kind == "attributes":
        document["entities"][0]["attributes"] += [{"name": f"a{n}"} for n in range(count - 4)]
    elif kind == "values":
        document["entities"][0]["attributes"][1]["generator"]["values"] = [f"V{n}" for n in range(count)]
    return document


@pytest.mark.parametrize(("kind", "limit", "path"), [
    ("entities", 2_000, "entities"),
    ("attributes", 1_000, "entities[Order].attributes"),
    ("values", 10_000, "entities[Order].attributes[status].generator.values"),
])
def test_counts_are_bounded_at_their_limit_and_not_below(kind: str, limit: int, path: str) -> None:
    at_limit = errors_only(document_problems(_many(kind, limit)))
    assert [p for p in at_limit if p.path == path] == []
    over = [p for p in errors_only(document_problems(_many(kind, limit + 1))) if p.path == path]
    assert len(over) == 1
    assert f"{limit + 1:,} entries" in over[0].message and f"{limit:,}" in over[0].message
    assert over[0].suggestion


def test_a_real_table_size_stays_allowed() -> None:
    # a real table can hold 10^12 items: the bound is on what the simulations allocate, not on the count
    assert errors_only(document_problems(_with(("entities", 0, "item_count"), 10**12))) == []
