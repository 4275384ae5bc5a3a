"""Benchmark: the local preview on the embedded moto endpoint, for every built-in example.

    .venv/bin/python bench/preview_bench.py [--items 2000] [--workers 4]

For each example: generate and load about `--items` items with the product's loader
(`modeling.preview.loader.load_items`), then run every access pattern with its oracle check
(`studio.preview.run_preview`). The baseline, measured in the same run on the same endpoint, is a
bare loop of pre-built BatchWriteItem calls with the same items (the endpoint's ceiling), so the
ratio loader rate / bare rate says what the loader's threads, retries and bookkeeping cost (its
final count is timed apart, in "load s"). Each is timed --rounds times, alternating, each into a
fresh table; the best of each counts.
Targets: ratio at least 0.9; the whole preview of the largest example under 10 s.
Not a test: timings depend on the machine, so nothing here fails the suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the repository

from costs.design_ranking import propose
from modeling.endpoint.adapter import configured_endpoint, dynamodb_client
from modeling.examples import example_document, list_examples
from modeling.model_file import model_from_document
from modeling.preview.loader import batches_of, load_items
from modeling.preview.ownership import TableGuard
from modeling.preview.session import load_workers, preview_data, preview_setup
from modeling.preview.tables import create_preview_table, delete_preview_table, mark_loaded
from studio.preview import PreviewRun, run_preview


def bare_load_seconds(client: Any, table_name: str, batches: list[list[dict[str, Any]]]) -> float:
    """The ceiling: one thread sending pre-built BatchWriteItem requests, nothing else."""
    started = time.perf_counter()
    for batch in batches:
        client.batch_write_item(RequestItems={table_name: [{"PutRequest": {"Item": item}} for item in batch]})
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=None,
                        help="concurrent BatchWriteItem requests (default: the product's choice for the endpoint)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating timed loads per example; best counts")
    args = parser.parse_args()
    endpoint = configured_endpoint({})
    client = dynamodb_client(endpoint)
    print(f"endpoint: {endpoint.describe()}; about {args.items} items per example\n")
    print(f"{'example':28} {'items':>6} {'bare/s':>8} {'loader/s':>9} {'ratio':>6} {'generate s':>10} "
          f"{'load s':>7} {'run s':>6} {'preview s':>9} {'passed':>7}")
    ratios, totals = [], {}
    for example in list_examples():
        model = model_from_document(example_document(example.slug))
        setup = preview_setup(model, propose(model)[0], endpoint, "bench", example.slug, args.items)
        started = time.perf_counter()
        data = preview_data(setup)
        generated = time.perf_counter() - started
        workers = args.workers or load_workers(endpoint)
        batches = batches_of(data)
        bare_times, loader_times = [], []
        for _ in range(args.rounds):  # alternate, each into a fresh table; the best of each is compared
            create_preview_table(client, setup.table, model.table, setup.design.key_design, setup.owner)
            bare_times.append(bare_load_seconds(client, setup.table.name, batches))
            identity = create_preview_table(client, setup.table, model.table, setup.design.key_design, setup.owner)
            load_started = time.perf_counter()
            report = load_items(client, TableGuard(client, setup.owner, identity), data, workers=workers)
            load_seconds = time.perf_counter() - load_started  # with the final count
            loader_times.append(report.seconds)  # the writes alone, what the bare loop does
        bare = min(bare_times)
        assert report.complete, f"{example.slug}: {report.items_counted} of {report.items_expected} items counted"
        mark_loaded(client, identity, setup.owner, setup.fingerprint)
        run_started = time.perf_counter()
        result = run_preview(PreviewRun(setup, data))
        run_seconds = time.perf_counter() - run_started
        delete_preview_table(client, setup.table, setup.owner)
        bare_rate, loader_rate = len(data.items) / bare, len(data.items) / min(loader_times)
        ratios.append(loader_rate / bare_rate)
        total = generated + load_seconds + run_seconds
        totals[example.slug] = (len(data.items), total)
        print(f"{example.slug:28} {len(data.items):>6} {bare_rate:>8.0f} {loader_rate:>9.0f} "
              f"{loader_rate / bare_rate:>6.2f} {generated:>10.2f} {load_seconds:>7.2f} {run_seconds:>6.2f} "
              f"{total:>9.2f} {result.passed:>3}/{len(result.results):<3}")
    largest = max(totals, key=lambda slug: totals[slug][0])
    print(f"\nloader/bare ratio: min {min(ratios):.2f}, mean {sum(ratios) / len(ratios):.2f} (target >= 0.9)")
    print(f"whole preview of the largest example ({largest}, {totals[largest][0]} items): "
          f"{totals[largest][1]:.1f} s (target < 10 s); slowest: {max(t for _, t in totals.values()):.1f} s")


if __name__ == "__main__":
    main()
