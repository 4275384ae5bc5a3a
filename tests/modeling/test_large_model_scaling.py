"""The generator stays linear in the entities (issue 15, finding 13).

Not timed: it counts Python function calls (deterministic) for a chain model of N and 2N entities. Before
the fix, rule_based_designs made 3.4x the calls when the entities doubled from 20 to 40 and 3.6x from 40 to 80
(a scan of every entity per pattern, the key design rebuilt per pattern); linear work makes 2x.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from modeling.design.generator import rule_based_designs
from modeling.model import Model

LINEAR_RATIO_CEILING = 2.5  # 2.0 is linear; a quadratic term shows as 3-4 at these sizes


def chain_model(entities: int) -> Model:
    """Entities chained by one-to-many relationships, each with a get, a list-by-parent and a write."""
    docs, patterns = [], []
    for n in range(entities):
        attributes: list[dict[str, Any]] = [
            {"name": f"thing{n}Id", "unique": True, "generator": {"kind": "uuid"}},
            {"name": "status", "generator": {"kind": "enum", "values": ["NEW", "DONE"]}},
            {"name": "createdAt", "generator": {"kind": "timestamp_range", "start": "2024-01-01",
                                                "end": "2026-01-01"}}]
        if n:
            attributes.append({"name": f"thing{n - 1}Id"})
            patterns.append({"name": f"list_thing{n}_by_parent", "kind": "read_many", "entities": [f"Thing{n}"],
                             "inputs": [f"thing{n - 1}Id"], "expected_items": 20,
                             "range_condition": {"attribute": "createdAt", "operator": "between"}})
        docs.append({"name": f"Thing{n}", "item_count": 1_000 * (1 + n % 7), "identifiers": [f"thing{n}Id"],
                     "attributes": attributes})
        patterns += [{"name": f"get_thing{n}", "kind": "read_one", "entities": [f"Thing{n}"],
                      "inputs": [f"thing{n}Id"]},
                     {"name": f"put_thing{n}", "kind": "write", "entities": [f"Thing{n}"]}]
    relationships = [{"name": f"r{n}", "kind": "one_to_many", "parent": f"Thing{n - 1}", "child": f"Thing{n}",
                      "child_attributes": [f"thing{n - 1}Id"], "cardinality": {"mean": 10}}
                     for n in range(1, entities)]
    for pattern in patterns:
        pattern["traffic"] = {"peak_requests_per_second": 10.0, "average_requests_per_second": 5.0}
    return Model.model_validate({"name": "Chain", "table": {"name": "chain"}, "entities": docs,
                                 "relationships": relationships, "access_patterns": patterns})


def python_calls(work: Callable[[], object]) -> int:
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call":
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(previous)
    return count


def test_proposing_designs_makes_linearly_more_calls_for_twice_the_entities() -> None:
    small, large = chain_model(20), chain_model(40)
    rule_based_designs(chain_model(3))  # imports and one-off caches are not counted
    ratio = python_calls(lambda: rule_based_designs(large)) / python_calls(lambda: rule_based_designs(small))
    assert ratio < LINEAR_RATIO_CEILING, f"rule_based_designs made {ratio:.2f}x the calls for 2x the entities"

