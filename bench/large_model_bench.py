"""Benchmark: the command line on large valid models (issue 15, finding 13).

Generates a model of N entities (each with an id, a parent reference, a status enum, a timestamp and a
text attribute; a one-to-many relationship to the previous entity; a get, a list and a write pattern), writes
it to a temporary file and times, in one run:
  python -m modeling validate on --entities (default 2,000): the baseline, parsing and validation alone
  python -m modeling check    on 10, N/2 and N = --entities
  python -m modeling design   on 10, N/2 and N = --entities
  python -m costs estimate    on 10, N/2 and N = --cost-entities (default 200)
Each is run in a subprocess (what a user runs) and printed with its ratio to the baseline, so the figures
compare across machines, and with its growth from N/2 to N entities (2x linear, 4x quadratic).

Run: .venv/bin/python bench/large_model_bench.py [--entities 2000] [--cost-entities 200] [--only check]
Not a test: timings depend on the machine, so nothing here fails the suite.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SMALL_ENTITIES = 10


def entity(number: int) -> dict[str, Any]:
    """One entity: id, parent reference (to the previous entity), status, timestamp and text."""
    name = f"Thing{number}"
    attributes: list[dict[str, Any]] = [
        {"name": f"thing{number}Id", "type": "S", "unique": True, "avg_size_bytes": 36,
         "generator": {"kind": "uuid"}},
        {"name": "status", "type": "S", "avg_size_bytes": 6,
         "generator": {"kind": "enum", "values": ["NEW", "OPEN", "DONE"]}},
        {"name": "createdAt", "type": "S", "avg_size_bytes": 24,
         "generator": {"kind": "timestamp_range", "start": "2024-01-01", "end": "2026-01-01"}},
        {"name": "notes", "type": "S", "required": False, "avg_size_bytes": 200,
         "generator": {"kind": "text", "length_bytes": 200}},
    ]
    if number > 0:
        attributes.append({"name": f"thing{number - 1}Id", "type": "S", "avg_size_bytes": 36,
                           "generator": {"kind": "reference", "entity": f"Thing{number - 1}",
                                         "attribute": f"thing{number - 1}Id"}})
    return {"name": name, "item_count": 1_000 * (1 + number % 97), "identifiers": [f"thing{number}Id"],
            "attributes": attributes}


def patterns(number: int) -> list[dict[str, Any]]:
    name, key = f"Thing{number}", f"thing{number}Id"
    def traffic() -> dict[str, float]:  # a fresh dict each time: YAML would write a shared one as an alias
        return {"peak_requests_per_second": 10.0 + number % 13, "average_requests_per_second": 5.0}

    found: list[dict[str, Any]] = [
        {"name": f"get_thing{number}_by_id", "kind": "read_one", "entities": [name], "inputs": [key],
         "traffic": traffic()},
        {"name": f"put_thing{number}", "kind": "write", "entities": [name], "traffic": traffic()}]
    if number > 0:
        found.append({"name": f"list_thing{number}_by_parent", "kind": "read_many", "entities": [name],
                      "inputs": [f"thing{number - 1}Id"], "range_condition": {"attribute": "createdAt",
                                                                              "operator": "between"},
                      "expected_items": 20, "traffic": traffic()})
    return found


def large_model(entities: int) -> dict[str, Any]:
    """A valid model of `entities` entities chained by one-to-many relationships."""
    return {
        "format": "dynamodb-design-studio/model", "version": 1, "name": f"Bench {entities} entities",
        "table": {"name": "bench-table", "region": "us-east-1"},
        "entities": [entity(n) for n in range(entities)],
        "relationships": [{"name": f"thing{n - 1}_has_thing{n}", "kind": "one_to_many",
                           "parent": f"Thing{n - 1}", "child": f"Thing{n}",
                           "child_attributes": [f"thing{n - 1}Id"], "cardinality": {"mean": 10}}
                          for n in range(1, entities)],
        "access_patterns": [p for n in range(entities) for p in patterns(n)],
    }


def write_model(directory: Path, entities: int) -> Path:
    path = directory / f"bench-{entities}.yaml"
    path.write_text(yaml.safe_dump(large_model(entities), sort_keys=False), encoding="utf-8")
    return path


def timed(arguments: list[str]) -> float:
    """CPU seconds (user + system) one CLI run takes, its output discarded; fails loudly if the command fails.

    CPU time rather than wall time: on a shared machine the wall clock measures the other users too."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    completed = subprocess.run([sys.executable, "-m", *arguments], cwd=ROOT, capture_output=True, text=True,
                               check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode not in (0, 1) or "error:" in completed.stderr:  # check exits 1 with findings
        raise SystemExit(f"{' '.join(arguments)} failed ({completed.returncode}):\n{completed.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

COMMANDS = {
    "validate": lambda path: ["modeling", "validate", str(path)],
    "check": lambda path: ["modeling", "check", str(path)],
    "design": lambda path: ["modeling", "design", str(path)],
    "estimate": lambda path: ["costs", "estimate", str(path)],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=2_000)
    parser.add_argument("--cost-entities", type=int, default=200)
    parser.add_argument("--only", choices=sorted(COMMANDS), action="append")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths: dict[int, Path] = {}

        def model(entities: int) -> Path:
            if entities not in paths:
                paths[entities] = write_model(Path(folder), entities)
            return paths[entities]

        baseline = timed(COMMANDS["validate"](model(args.entities)))  # parsing alone, measured in this run
        print(f"baseline: validate {args.entities:,} entities {baseline:.2f} s CPU (times below are CPU seconds)")
        for name in args.only or [c for c in COMMANDS if c != "validate"]:
            size = args.cost_entities if name == "estimate" else args.entities
            small, half, full = (timed(COMMANDS[name](model(n))) for n in (SMALL_ENTITIES, size // 2, size))
            # the 10-entity run is mostly start-up (imports, price sheets): subtracted, the growth from N/2 to N
            # is ~2x when the work is linear in the entities and ~4x when it is quadratic
            growth = (full - small) / max(half - small, 1e-9)
            print(f"{name:9} {SMALL_ENTITIES:>5} entities {small:6.2f} s | {size // 2:>5} entities {half:6.2f} s"
                  f" | {size:>5} entities {full:6.2f} s | {full / baseline:5.1f}x validate of {args.entities:,}"
                  f" | N/2 -> N: {full / half:4.2f}x, {growth:4.2f}x without start-up (linear 2, quadratic 4)")


if __name__ == "__main__":
    main()
