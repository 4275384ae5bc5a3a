"""Benchmark: build the key distribution of 10 million keys (items, traffic, partitions) and compare it with
the floor (hashing the same keys alone with pandas' vectorised hashing) and a plain Python loop with hashlib.

Run: .venv/bin/python bench/hot_partitions_bench.py [--keys 10000000]
Targets (issue 6): < 3 s for 10 million keys, within 2x of the hashing floor, >= 20x faster than the loop,
peak memory < 2 GB. The Python loop runs on a sample (200,000 keys) and is extrapolated linearly.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import time
import tracemalloc

import numpy as np
import pandas as pd

from modeling.checks.context import build_context
from modeling.generator import explicit_design
from modeling.hot_partitions.load import build_index_load, contributions, index_templates
from modeling.hot_partitions.metrics import skew_row
from modeling.hot_partitions.partitions import partition_count, partition_frame, place
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


def build_distribution(model: Model, keys: int, seed: int = 42) -> pd.DataFrame:
    """Key population, per-key traffic, hash to partitions, per-partition sums and skew: the measured work."""
    ctx = build_context(model, explicit_design(model))
    load = build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), keys, seed)
    placement = place(load, partition_count(load), seed)
    skew_row(placement, np.random.default_rng(seed))
    return partition_frame(placement)


def hashing_floor(keys: int) -> float:
    """Seconds to hash the same number of integer key ids with pandas' vectorised hashing."""
    ids = np.arange(keys, dtype=np.uint64)
    start = time.perf_counter()
    pd.util.hash_array(ids)
    return time.perf_counter() - start


def python_loop(keys: int) -> float:
    """Seconds for a plain Python loop (hashlib md5 per key, dict of partition sums), extrapolated linearly."""
    start = time.perf_counter()
    sums: dict[int, float] = {}
    for key in range(LOOP_SAMPLE):
        partition = int.from_bytes(hashlib.md5(f"EVENT#{key}".encode()).digest()[:8], "big") % 64
        sums[partition] = sums.get(partition, 0.0) + 1.0
    return (time.perf_counter() - start) * keys / LOOP_SAMPLE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=10_000_000)
    keys = parser.parse_args().keys
    model = bench_model(keys)
    tracemalloc.start()
    start = time.perf_counter()
    frame = build_distribution(model, keys)
    elapsed = time.perf_counter() - start
    _, peak_bytes = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    floor, loop = hashing_floor(keys), python_loop(keys)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"keys: {keys:,} over {len(frame)} partitions")
    print(f"distribution build: {elapsed:.2f} s (target < 3 s)")
    print(f"hashing floor (pandas.util.hash_array): {floor:.2f} s -> ratio {elapsed / floor:.2f}x (target <= 2x)")
    print(f"python loop with hashlib: {loop:.1f} s, extrapolated from {LOOP_SAMPLE:,} keys "
          f"-> {loop / elapsed:.0f}x faster (target >= 20x)")
    print(f"peak memory: {peak_bytes / 2**20:,.0f} MB traced (tracemalloc), {rss_mb:,.0f} MB max RSS (target < 2 GB)")


if __name__ == "__main__":
    main()
