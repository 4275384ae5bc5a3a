"""Benchmark: build the key distribution of 10 million keys (population, per-key load, partition of every key)
and compare it with the floor (hashing the same keys alone with pandas' vectorised hashing) and a plain
Python loop with hashlib.

Run: .venv/bin/python bench/hot_partitions_bench.py [--keys 10000000] [--repeats 3] [--skewed]
Targets (issue 6): < 3 s for 10 million keys, within 2x of the hashing floor, >= 20x faster than the loop,
peak memory < 2 GB. Issue 14: on the general path (`--skewed`: zipf keys, every column real) the build
within 3x of the floor, and the whole analysis (`analyse_hot_partitions`: every index, the distribution,
the what-ifs) at 10 million keys under 3 s. The build, the floor and the loop are each timed as the best of
`--repeats` runs (the same rule for all three); the loop runs on a sample (200,000 keys) and is extrapolated
linearly. The skew metrics (top shares, Gini) are not part of building the distribution and are timed on
their own. Each ratio is printed twice: wall clock, and CPU time of this process (`time.process_time`; the
work is single-threaded, so on an idle machine both agree, while on a shared one the CPU ratio stays steady
when the wall clock swings with the other processes).
The default population (unique ids, spread evenly) keeps its per-key columns as lazy constants; `--skewed`
(zipf keys) makes every column vary, to show the general path: the zipf share vector and the item draw are
computed over every key, while the per-row read, write, byte and utilisation columns are built only when a
reader needs their rows (the build's per-partition sums come from the two vectors; the whole analysis
builds them), see `columns.LazyColumns`.
Not a test: timings depend on the machine, so nothing here fails the suite.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the repository

from modeling.design.checks.context import build_context
from modeling.design.generator import explicit_design
from modeling.design.plans import Design
from modeling.hot_partitions import HotPartitionRequest, analyse_hot_partitions
from modeling.hot_partitions.load import build_index_load, contributions, index_templates
from modeling.hot_partitions.metrics import skew_row
from modeling.hot_partitions.partitions import Placement, partition_count, partition_frame, place
from modeling.memo import clear_domain_caches
from modeling.model import Model

LOOP_SAMPLE = 200_000


def bench_model(keys: int) -> Model:
    """One entity of `keys` items keyed by its unique id, written and read at a steady rate."""
    return Model.model_validate({
        "name": "bench", "table": {"name": "bench"},
        "entities": [{"name": "Event", "item_count": keys, "identifiers": ["eventId"],
                      "attributes": [{"name": "eventId", "unique": True, "avg_size_bytes": 36},
                                     {"name": "payload", "avg_size_bytes": 400}]}],
        "access_patterns": [
            {"name": "put_event", "kind": "write", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": {"peak_requests_per_second": 5000, "average_requests_per_second": 1000}},
            {"name": "get_event_by_id", "kind": "read_one", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": {"peak_requests_per_second": 20000, "average_requests_per_second": 4000}}],
        "key_design": {"entities": [{"entity": "Event", "table": {"partition_key": "EVENT#{eventId}",
                                                                  "sort_key": "A"}}]}})


def skewed_model(keys: int) -> Model:
    """`keys` devices whose events pick them by a zipf law (5 events per device): every per-key column varies,
    so none stays a lazy constant; the population draws its items with a seeded stratified draw over the keys."""
    return Model.model_validate({
        "name": "bench", "table": {"name": "bench"},
        "entities": [
            {"name": "Device", "item_count": keys, "identifiers": ["deviceId"],
             "attributes": [{"name": "deviceId", "unique": True, "avg_size_bytes": 36}]},
            {"name": "Event", "item_count": 5 * keys, "identifiers": ["eventId"], "attributes": [
                {"name": "eventId", "unique": True, "avg_size_bytes": 36},
                {"name": "deviceId", "avg_size_bytes": 36, "generator": {
                    "kind": "reference", "entity": "Device", "attribute": "deviceId",
                    "distribution": {"kind": "zipf", "exponent": 0.8}}},
                {"name": "payload", "avg_size_bytes": 400}]}],
        "access_patterns": [
            {"name": "put_event", "kind": "write", "entities": ["Event"], "inputs": ["deviceId"],
             "traffic": {"peak_requests_per_second": 5000, "average_requests_per_second": 1000}},
            {"name": "list_events_by_device", "kind": "read_many", "entities": ["Event"], "inputs": ["deviceId"],
             "expected_items": 5, "traffic": {"peak_requests_per_second": 20000, "average_requests_per_second": 4000}}],
        "key_design": {"entities": [{"entity": "Event", "table": {"partition_key": "DEVICE#{deviceId}",
                                                                  "sort_key": "{eventId}"}}]}})


def _design(model: Model) -> Design:
    """The bench models' own key design (each states one)."""
    design = explicit_design(model)
    if design is None:
        raise ValueError(f"the model {model.name} states no key design")
    return design


def build_distribution(model: Model, keys: int, seed: int = 42) -> tuple[Placement, pd.DataFrame]:
    """The measured work: key population and per-key load of the table, every key hashed to its partition,
    and the per-partition sums (PARTITION_COLUMNS)."""
    ctx = build_context(model, _design(model))
    load = build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), keys, seed)
    placement = place(load, partition_count(load), seed)
    return placement, partition_frame(placement)


@dataclass(frozen=True)
class Timing:
    """The fastest of several runs, by the wall clock and by this process's CPU time (each its own minimum)."""

    wall: float
    cpu: float

    def __truediv__(self, other: Timing) -> str:
        return f"{self.wall / other.wall:.2f}x wall, {self.cpu / other.cpu:.2f}x CPU"


def timed(repeats: int, work: Callable[[], object]) -> Timing:
    walls, cpus = [], []
    for _ in range(max(1, repeats)):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return Timing(min(walls), min(cpus))


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """Seconds of the fastest of `repeats` runs."""
    return timed(repeats, work).wall


def hashing_floor(keys: int, repeats: int) -> Timing:
    """Seconds to hash the same number of integer key ids with pandas' vectorised hashing."""
    ids = np.arange(keys, dtype=np.uint64)
    return timed(repeats, lambda: pd.util.hash_array(ids))


def python_loop(keys: int, partitions: int, repeats: int) -> float:
    """Seconds for a plain Python loop over the keys: md5 of each key's string reduced modulo the partition
    count, counted per partition; timed on LOOP_SAMPLE keys and extrapolated linearly."""
    def loop() -> list[int]:
        counts = [0] * partitions
        for key in range(LOOP_SAMPLE):
            counts[int.from_bytes(hashlib.md5(f"EVENT#{key}".encode()).digest()[:8], "big") % partitions] += 1
        return counts
    return best_of(repeats, loop) * keys / LOOP_SAMPLE


def peak_memory(model: Model, keys: int) -> int:
    """Peak bytes traced while building the distribution once more (tracemalloc slows it, so untimed)."""
    tracemalloc.start()
    build_distribution(model, keys)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def whole_analysis(model: Model, keys: int, repeats: int) -> tuple[Timing, Timing]:
    """The page's whole analysis at `keys` key values per template: cold (nothing remembered: populations,
    placements, the shard sweep), then a what-if rerun (4 write shards) that reuses what the cold one left."""
    design = _design(model)
    cold = HotPartitionRequest(model=model, design=design, max_key_values=keys)
    what_if = HotPartitionRequest(model=model, design=design, max_key_values=keys, shard_count=4)

    def from_cold() -> None:
        clear_domain_caches()
        analyse_hot_partitions(cold)
    first = timed(repeats, from_cold)
    return first, timed(repeats, lambda: analyse_hot_partitions(what_if))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skewed", action="store_true", help="zipf-distributed keys instead of unique ids")
    args = parser.parse_args()
    keys, repeats = args.keys, max(1, args.repeats)
    model = skewed_model(keys) if args.skewed else bench_model(keys)
    start = time.perf_counter()
    placement, frame = build_distribution(model, keys)
    first = time.perf_counter() - start
    build = timed(repeats, lambda: build_distribution(model, keys))
    if frame["key_values"].sum() != keys:
        raise SystemExit(f"the partitions hold {frame['key_values'].sum():,.0f} key values, not {keys:,}")
    skew_time = best_of(repeats, lambda: skew_row(placement, np.random.default_rng(42)))
    floor, loop = hashing_floor(keys, repeats), python_loop(keys, placement.partitions, repeats)
    analysis_cold, analysis_what_if = whole_analysis(model, keys, repeats)
    floor_after = hashing_floor(keys, repeats)  # the floor again, so a load change mid-run shows
    floor = Timing(min(floor.wall, floor_after.wall), min(floor.cpu, floor_after.cpu))
    peak_bytes = peak_memory(model, keys)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    build_target = "3x on the general path" if args.skewed else "2x"
    print(f"keys: {keys:,} ({'zipf over devices' if args.skewed else 'unique ids'}) over {len(frame)} partitions "
          f"(each timing: the best of {repeats} runs, wall clock and CPU time)")
    print(f"hashing floor (pandas.util.hash_array): {floor.wall:.3f} s wall, {floor.cpu:.3f} s CPU")
    print(f"distribution build: {build.wall:.3f} s wall ({build.cpu:.3f} s CPU), first run {first:.3f} s "
          f"-> {build / floor} the floor (target <= {build_target})")
    print(f"python loop with hashlib: {loop:.1f} s, extrapolated from {LOOP_SAMPLE:,} keys "
          f"-> {loop / build.wall:.0f}x faster (target >= 20x)")
    print(f"skew metrics (top shares, Gini; not part of the build): {skew_time:.3f} s")
    print(f"whole analysis (analyse_hot_partitions, cold): {analysis_cold.wall:.3f} s wall "
          f"({analysis_cold.cpu:.3f} s CPU) -> {analysis_cold / floor} the floor (target < 3 s)")
    print(f"what-if rerun (4 shards; populations and placements remembered): {analysis_what_if.wall:.3f} s wall "
          f"({analysis_what_if.cpu:.3f} s CPU) -> {analysis_what_if / floor} the floor")
    print(f"peak memory: {peak_bytes / 2**20:,.0f} MB traced (tracemalloc), {rss_mb:,.0f} MB max RSS (target < 2 GB)")


if __name__ == "__main__":
    main()
