"""Benchmark: sample-data generation (`modeling.data.sample_data.generate_items`), issue 27.7.

    .venv/bin/python bench/sample_data_bench.py [--items 1000] [--rounds 5]

Times `--items` items per entity for the six built-in examples (every attribute has a generator) and for the
library fixture (tests/fixtures/write-semantics/library_states.yaml: almost none, so generators are chosen by name and
optional attributes follow the model's states). Prints the best of `--rounds` and the time per item.
Not a test: timings depend on the machine, so nothing here fails the suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from modeling.data.sample_data import generate_items  # noqa: E402
from modeling.examples import list_examples, load_example  # noqa: E402
from modeling.model import Model  # noqa: E402
from modeling.model_file import load_model_file  # noqa: E402


def best_seconds(models: list[Model], items: int, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        for model in models:
            generate_items(model, items, seed=42)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sets = {"examples": [load_example(e.slug) for e in list_examples()],
            "library": [load_model_file(ROOT / "tests/fixtures/write-semantics/library_states.yaml")]}
    for name, models in sets.items():
        best_seconds(models, args.items, 1)  # warm up: imports, Faker's tables
        seconds = best_seconds(models, args.items, args.rounds)
        total = args.items * sum(len(m.entities) for m in models)
        print(f"{name:9} {seconds * 1000:8.0f} ms  {seconds * 1e6 / total:6.1f} µs/item  ({total:,} items)")


if __name__ == "__main__":
    main()
