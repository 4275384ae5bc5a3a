"""Above MAX_SIMULATED_PARTITIONS the per-partition figures are a uniform sample of partitions: each sampled
partition exact, the sample statistically right, and a model asking for 10^15 items finishes in bounded
memory with the sampling said plainly (issue 15, finding 2)."""

from __future__ import annotations

import math
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import yaml

from modeling.design.checks.context import build_context
from modeling.design.generator import explicit_design
from modeling.hot_partitions import HotPartitionRequest, analyse_hot_partitions
from modeling.hot_partitions.load import IndexLoad, build_index_load, contributions, index_templates
from modeling.hot_partitions.partitions import place
from modeling.limits import MAX_SIMULATED_PARTITIONS
from modeling.model import Model

ROOT = Path(__file__).resolve().parents[2]


def _events_document(items: int) -> dict:
    return {
        "format": "dynamodb-design-studio/model", "version": 1, "name": "events", "table": {"name": "events"},
        "entities": [{"name": "Event", "item_count": items, "identifiers": ["eventId"],
                      "attributes": [{"name": "eventId", "unique": True, "avg_size_bytes": 36},
                                     {"name": "payload", "avg_size_bytes": 400}]}],
        "access_patterns": [
            {"name": "get_event", "kind": "read_one", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": {"peak_requests_per_second": 20000, "average_requests_per_second": 4000}}],
        "key_design": {"entities": [{"entity": "Event", "table": {"partition_key": "EVENT#{eventId}",
                                                                  "sort_key": "A"}}]}}


def _table_load(keys: int, items: int | None = None) -> IndexLoad:
    model = Model.model_validate(_events_document(items or keys))
    ctx = build_context(model, explicit_design(model))
    return build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), keys, 42)


def _skewed(load: IndexLoad, seed: int = 7) -> IndexLoad:
    """The same rows with varied (materialised) per-row traffic and items, so sums differ by partition."""
    rng = np.random.default_rng(seed)
    rows = len(load.key_values)
    return load.with_columns({"key_values": np.ones(rows), "items": rng.integers(1, 50, rows).astype(float),
                              "collection_bytes": rng.integers(100, 5000, rows).astype(float),
                              "read_units": rng.pareto(1.5, rows), "write_units": np.zeros(rows)})


def test_each_sampled_partition_has_exactly_the_figures_of_the_full_placement() -> None:
    load = _skewed(_table_load(50_000))
    full = place(load, 5_000, salt=99)
    sample = place(load, 5_000, salt=99, max_simulated=400)
    assert sample.sampled and sample.shown == 400 and not full.sampled
    numbers = sample.numbers(np.arange(400))
    assert len(set(numbers.tolist())) == 400  # 400 distinct real partitions
    for column in (load.items, load.collection_bytes, load.utilisation):
        np.testing.assert_allclose(sample.sums(column), full.sums(column)[numbers])
    np.testing.assert_array_equal(sample.counts, full.counts[numbers])
    np.testing.assert_allclose(sample.busiest_key(), full.busiest_key()[numbers])
    busiest_row = int(np.argmax(load.per_key))  # the anchor: its partition is always shown
    assert full.partition[busiest_row] in numbers
    rows = np.arange(0, 50_000, 997)
    np.testing.assert_array_equal(sample.row_numbers(rows), full.partition[rows].astype(np.int64))


def test_a_uniform_population_sampled_matches_the_hand_computed_spread() -> None:
    # 2,000,000 key values hashed uniformly onto 400,000 partitions: Poisson with mean 5 key values per
    # partition. Over a sample of 100,000 partitions: mean 5 (std sqrt(5 / 100,000) = 0.007) and a share of
    # empty partitions of e^-5 = 0.006738 (std sqrt(0.006738 * 0.993 / 100,000) = 0.00026).
    load = _table_load(2_000_000)
    placement = place(load, 400_000, salt=3)
    assert placement.shown == MAX_SIMULATED_PARTITIONS == 100_000
    counts = placement.counts
    assert abs(counts.mean() - 5.0) < 0.05
    assert abs((counts == 0).mean() - math.exp(-5)) < 0.0015
    # every key value of an even population carries the same traffic: per partition, rows x per-key load
    per_key = float(load.per_key[0]) if np.ndim(load.per_key) else float(load.per_key)
    np.testing.assert_allclose(placement.sums(load.utilisation), counts * per_key)


def test_an_analysis_of_a_petabyte_table_is_bounded_and_says_it_sampled() -> None:
    model = Model.model_validate(_events_document(10**15))
    tracemalloc.start()
    report = analyse_hot_partitions(HotPartitionRequest(model=model, design=explicit_design(model),
                                                        max_key_values=10_000))
    _, peak_bytes = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak_bytes < 400 * 1024**2  # it went to 6.3 GB and beyond before
    # 10^15 items of at least 436 B (36 + 400 B of values, names and keys come on top) need at least
    # 10^15 x 436 / 10 GiB = 40.6 million partitions for storage alone: far above the sample
    partitions = int(report.skew["partitions"].iloc[0])
    assert partitions >= 40_600_000
    assert len(report.partitions) == MAX_SIMULATED_PARTITIONS
    assert report.timeline["partition"].nunique() <= MAX_SIMULATED_PARTITIONS
    notes = [f for f in report.findings if "uniform sample" in f.message]
    assert len(notes) == 1 and f"{partitions:,} partitions" in notes[0].message
    # the whole population is still counted: 10^15 items, each key value 1 / 10^15 of the reads
    assert float(report.skew["items"].iloc[0]) == 1e15
    assert math.isclose(float(report.keys["traffic_share"].iloc[0]), 1e-15, rel_tol=1e-6)


def test_the_cost_report_cli_on_a_petabyte_model_finishes_with_correct_figures(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(yaml.safe_dump(_events_document(10**15)), encoding="utf-8")
    completed = subprocess.run([sys.executable, "-m", "costs", "report", str(path), "--format", "md",
                                "-o", str(tmp_path / "r.md")], cwd=ROOT, capture_output=True, text=True,
                               timeout=300, check=False)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "Traceback" not in completed.stderr
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "uniform sample" in text
