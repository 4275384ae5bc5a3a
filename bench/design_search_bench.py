"""Benchmark of the key-design search (printed, not a timed test).

For every built-in example: the branch-and-bound search against exhaustive enumeration of the same space,
measured in the same run (time, designs priced, partial layouts pruned, same winner). Then a generated model
with 30 entities, 40 relationships and 120 access patterns, against the rule-based generator's time as the
baseline. Targets on a 2-core machine: under 0.5 s per built-in example, under 10 s for the large model.

    python bench/design_search_bench.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from costs.design_search import search_layouts
from modeling.design.generator import generate_design
from modeling.examples import list_examples, load_example
from modeling.model import Model

EXHAUSTIVE_LIMIT = 400  # complete layouts; larger spaces are not enumerated


def large_model(entities: int = 30, relationships: int = 40, patterns: int = 120, seed: int = 7) -> Model:
    rng = random.Random(seed)
    names = [f"E{i:02d}" for i in range(entities)]
    entity_docs = [{"name": n, "item_count": rng.choice([1_000, 50_000, 2_000_000]), "identifiers": [f"{n.lower()}Id"],
                    "attributes": [{"name": f"{n.lower()}Id", "generator": {"kind": "uuid"}},
                                   {"name": "createdAt", "generator": {"kind": "timestamp_range", "start": "2024-01-01",
                                                                       "end": "2026-01-01"}},
                                   {"name": "status", "generator": {"kind": "enum", "values": ["OPEN", "DONE"]}},
                                   {"name": "body", "avg_size_bytes": rng.choice([100, 400, 1500])}]}
                   for n in names]
    rel_docs, used = [], set()
    while len(rel_docs) < relationships:
        parent, child = sorted(rng.sample(range(entities), 2))
        if (parent, child) in used:
            continue
        used.add((parent, child))
        p, c = names[parent], names[child]
        attribute = f"{p.lower()}Id"
        child_doc = entity_docs[child]
        child_doc["attributes"].append({"name": attribute})
        rel_docs.append({"name": f"{p.lower()}_{c.lower()}", "kind": "one_to_many", "parent": p, "child": c,
                         "child_attributes": [attribute], "cardinality": {"mean": rng.choice([5, 50, 500])}})
    traffic = lambda: {"peak_requests_per_second": (r := rng.choice([1, 10, 100])) * 2,  # noqa: E731
                       "average_requests_per_second": r}
    pattern_docs = []
    for i in range(patterns):
        kind = i % 4
        if kind == 0 and rel_docs:
            rel = rng.choice(rel_docs)
            pattern_docs.append({"name": f"list_{i}", "kind": "read_many", "entities": [rel["child"]],
                                 "inputs": rel["child_attributes"], "expected_items": 20, "traffic": traffic(),
                                 "range_condition": {"attribute": "createdAt", "operator": "greater_than"}})
        elif kind == 1:
            n = rng.choice(names)
            pattern_docs.append({"name": f"get_{i}", "kind": "read_one", "entities": [n],
                                 "inputs": [f"{n.lower()}Id"], "traffic": traffic()})
        elif kind == 2:
            n = rng.choice(names)
            pattern_docs.append({"name": f"put_{i}", "kind": "write", "entities": [n],
                                 "inputs": [f"{n.lower()}Id"], "traffic": traffic()})
        else:
            n = rng.choice(names)
            pattern_docs.append({"name": f"open_{i}", "kind": "read_many", "entities": [n], "inputs": [],
                                 "filters": [{"attribute": "status", "equals": "OPEN"}], "expected_items": 10,
                                 "traffic": traffic()})
    return Model.model_validate({"name": "Large generated", "table": {"name": "large"}, "entities": entity_docs,
                                 "relationships": rel_docs, "access_patterns": pattern_docs})


def main() -> int:
    print(f"{'model':28} {'space':>7} {'search s':>9} {'priced':>7} {'pruned':>7} {'exhaustive s':>13} "
          f"{'priced':>7} {'time ratio':>11} {'same winner':>12}")
    for example in list_examples():
        model = load_example(example.slug)
        search_layouts(model)  # warm caches (Faker, price sheet) so both runs pay the same
        bounded = search_layouts(model)
        space = bounded.stats.complete_layouts
        if space <= EXHAUSTIVE_LIMIT:
            full = search_layouts(model, exhaustive=True)
            ratio = f"{bounded.stats.seconds / full.stats.seconds:.2f}x"
            same = str(full.best.rank_key() == bounded.best.rank_key())
            exhaustive = f"{full.stats.seconds:13.2f} {full.stats.candidates_costed:7d}"
        else:
            ratio, same, exhaustive = "-", "not run", f"{'-':>13} {'-':>7}"
        print(f"{example.slug:28} {space:7d} {bounded.stats.seconds:9.2f} {bounded.stats.candidates_costed:7d} "
              f"{bounded.stats.partial_layouts_pruned:7d} {exhaustive} {ratio:>11} {same:>12}")
    model = large_model()
    started = time.perf_counter()
    generate_design(model)
    baseline = time.perf_counter() - started
    result = search_layouts(model)
    stats = result.stats
    print(f"\nlarge model (30 entities, 40 relationships, 120 patterns): space {stats.complete_layouts:.3g} layouts")
    print(f"  rule-based generator (baseline): {baseline:.2f} s")
    print(f"  search: {stats.seconds:.2f} s ({stats.seconds / baseline:.1f}x the baseline), "
          f"{stats.candidates_costed} designs priced, {stats.partial_layouts_pruned} partial layouts pruned, "
          f"budget exhausted: {stats.budget_exhausted}; best ${result.best.monthly_cost_usd}/month on-demand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
