"""Benchmark of the key-design search (printed, not a timed test).

Every figure is the first search on its model (nothing remembered: each run is a fresh process, warmed on an
unrelated one-entity model so that imports, Faker and the price sheets are loaded, as they are in the app),
repeated and reported as the median (the machine is shared). For every built-in example: the branch-and-bound
search against exhaustive enumeration of the same space in the same run (time, designs priced, partial
layouts pruned, same winner). Then a generated model with 30 entities, 40 relationships and 120 access
patterns, against the rule-based generator's time in the same run as the baseline. Wall and CPU seconds are
both printed: on a loaded machine the wall time is mostly waiting for a core. Targets on a 2-core machine:
under 1 s per built-in example, under 10 s with a stated optimality gap for the large model.

    python bench/design_search_bench.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from costs.search_pricing import SEARCH_PRICING
from modeling.design.generator import generate_design
from modeling.design.search import NoDesign, search_layouts
from modeling.examples import list_examples, load_example
from modeling.model import Model

EXHAUSTIVE_LIMIT = 400  # complete layouts; larger spaces are not enumerated
EXAMPLE_TARGET_S, LARGE_TARGET_S = 1.0, 10.0
LARGE = "large"


class Measurement(TypedDict, total=False):
    """One process's figures (`_measure`), sent as JSON; the generator's run has wall and cpu only."""

    wall: float
    cpu: float
    priced: int
    pruned: int
    space: int
    budget: bool
    monthly: str
    on_demand: str
    gap: float | None
    winner: str


def large_model(entities: int = 30, relationships: int = 40, patterns: int = 120, seed: int = 7) -> Model:
    rng = random.Random(seed)
    names = [f"E{i:02d}" for i in range(entities)]
    entity_docs: list[dict[str, Any]]  # JSON of the entities: their attributes grow below
    entity_docs = [{"name": n, "item_count": rng.choice([1_000, 50_000, 2_000_000]), "identifiers": [f"{n.lower()}Id"],
                    "attributes": [{"name": f"{n.lower()}Id", "generator": {"kind": "uuid"}},
                                   {"name": "createdAt", "generator": {"kind": "timestamp_range", "start": "2024-01-01",
                                                                       "end": "2026-01-01"}},
                                   {"name": "status", "generator": {"kind": "enum", "values": ["OPEN", "DONE"]}},
                                   {"name": "body", "avg_size_bytes": rng.choice([100, 400, 1500])}]}
                   for n in names]
    rel_docs: list[dict[str, Any]] = []
    used: set[tuple[int, int]] = set()
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
    def traffic() -> dict[str, int]:
        rate = rng.choice([1, 10, 100])
        return {"peak_requests_per_second": rate * 2, "average_requests_per_second": rate}

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


def _warm_up() -> None:
    """Load what a running app has loaded (imports, Faker, price sheets) on a model no figure is about."""
    search_layouts(Model.model_validate({
        "name": "Warm-up", "table": {"name": "warm"},
        "entities": [{"name": "Widget", "item_count": 10, "identifiers": ["widgetId"],
                      "attributes": [{"name": "widgetId", "generator": {"kind": "uuid"}},
                                     {"name": "label", "generator": {"kind": "faker", "provider": "word"}}]}],
        "access_patterns": [
            {"name": "get_widget", "kind": "read_one", "entities": ["Widget"], "inputs": ["widgetId"],
             "traffic": {"peak_requests_per_second": 2, "average_requests_per_second": 1}},
            {"name": "put_widget", "kind": "write", "entities": ["Widget"], "inputs": ["widgetId"],
             "traffic": {"peak_requests_per_second": 2, "average_requests_per_second": 1}}]}), SEARCH_PRICING)


def _measure(name: str, mode: str) -> Measurement:
    """One cold measurement in this (fresh) process: `mode` is bounded, exhaustive or generator."""
    model = large_model() if name == LARGE else load_example(name)
    _warm_up()
    wall, cpu = time.perf_counter(), time.process_time()
    if mode == "generator":
        generate_design(model)
        return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}
    result = search_layouts(model, SEARCH_PRICING, exhaustive=mode == "exhaustive")
    if isinstance(result, NoDesign):
        raise SystemExit(f"{name}: the search found no design")
    stats = result.stats
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "priced": stats.candidates_costed,
            "pruned": stats.partial_layouts_pruned, "space": stats.complete_layouts,
            "budget": stats.budget_exhausted, "monthly": str(result.best.monthly_cost_usd),
            "on_demand": str(getattr(result.best, "on_demand_usd", result.best.monthly_cost_usd)),
            "gap": getattr(stats, "optimality_gap", None),
            "winner": hashlib.sha256(repr(result.best.rank_key()).encode()).hexdigest()[:16]}


def _runs(name: str, mode: str, repeat: int) -> Measurement:
    """The median of `repeat` fresh processes (the other fields are the same in every run)."""
    runs: list[Measurement] = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--measure", name, mode], check=True, capture_output=True,
                             text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    result = runs[0].copy()
    result["wall"] = statistics.median(float(r["wall"]) for r in runs)
    result["cpu"] = statistics.median(float(r["cpu"]) for r in runs)
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per figure (the median is shown)")
    parser.add_argument("--measure", nargs=2, metavar=("MODEL", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(_measure(*args.measure)))
        return 0
    print(f"first search on each model, median of {args.repeat} fresh processes; wall (CPU) seconds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'model':28} {'space':>7} {'search s':>14} {'priced':>7} {'pruned':>7} {'exhaustive s':>14} "
          f"{'priced':>7} {'time ratio':>11} {'same winner':>12} {'< 1 s wall/CPU':>17}")
    for example in list_examples():
        bounded = _runs(example.slug, "bounded", args.repeat)
        space = int(bounded["space"])
        if space <= EXHAUSTIVE_LIMIT:
            full = _runs(example.slug, "exhaustive", args.repeat)
            ratio = f"{float(bounded['wall']) / float(full['wall']):.2f}x"
            same = str(full["winner"] == bounded["winner"])
            exhaustive = f"{_seconds(full):>14} {full['priced']:7d}"
        else:
            ratio, same, exhaustive = "-", "not run", f"{'-':>14} {'-':>7}"
        met = "/".join("yes" if float(seconds) < EXAMPLE_TARGET_S else "no"
                       for seconds in (bounded["wall"], bounded["cpu"]))
        print(f"{example.slug:28} {space:7d} {_seconds(bounded):>14} {bounded['priced']:7d} {bounded['pruned']:7d} "
              f"{exhaustive} {ratio:>11} {same:>12} {met:>17}")
    baseline = _runs(LARGE, "generator", args.repeat)
    search = _runs(LARGE, "bounded", args.repeat)
    print(f"\nlarge model (30 entities, 40 relationships, 120 patterns): space {float(search['space']):.3g} layouts")
    print(f"  rule-based generator (baseline): {_seconds(baseline)} s")
    print(f"  search: {_seconds(search)} s ({float(search['wall']) / float(baseline['wall']):.1f}x the baseline), "
          f"{search['priced']} designs priced, {search['pruned']} partial layouts pruned, budget exhausted: "
          f"{search['budget']}; best ${search['monthly']}/month as ranked (on-demand ${search['on_demand']}); "
          f"optimality gap: {_gap(search)}; under {LARGE_TARGET_S:g} s: "
          f"{'yes' if float(search['wall']) < LARGE_TARGET_S else 'no'}")
    return 0


def _gap(run: Measurement) -> str:
    gap = run.get("gap")
    return "not computed (this version of the search states none)" if gap is None else f"{float(gap):.1%}"


def _seconds(run: Measurement) -> str:
    return f"{float(run['wall']):.2f} ({float(run['cpu']):.2f})"


if __name__ == "__main__":
    raise SystemExit(main())
