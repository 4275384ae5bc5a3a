"""Findings of the hot-partition analysis: each names the index, the access pattern responsible and the fix.

Severity: ERROR when one key value needs more than one partition (a hard limit: adaptive capacity can at
most isolate a key at the per-partition maximum, dynamodb-rules §7.1) or an item collection outgrows
10 GB with an LSI (§4.2); WARNING when a key is hot, or a partition is overloaded although every key on
it fits (adaptive capacity can split it, best-effort, §7.1; pre-warm with warm throughput, §7.3).
All figures are APPROXIMATE.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from modeling.design.checks.catalogue import ERROR, INFO, WARNING, FindingSeverity, number
from modeling.hot_partitions.columns import ratio
from modeling.hot_partitions.frames import HOT_UTILISATION, PARTITION_BYTES
from modeling.hot_partitions.load import IndexLoad
from modeling.hot_partitions.partitions import Placement
from modeling.model import Model


@dataclass(frozen=True)
class HotPartitionFinding:
    """One problem (or note) on one index, with the pattern that causes it and what to do."""

    severity: FindingSeverity
    index: str
    pattern: str | None
    key_value: str
    message: str
    fix: str


def top_patterns(load: IndexLoad, rows: np.ndarray) -> list[str | None]:
    """For each row, the access pattern that puts the most load on it."""
    rows = np.asarray(rows, dtype=np.int64)
    totals: dict[str, np.ndarray] = {}
    for part in load.parts:
        totals[part.pattern] = totals.get(part.pattern, np.zeros(len(rows))) + load.part_utilisation_at(part, rows)
    if not totals:
        return [None] * len(rows)
    names = list(totals)
    stacked = np.vstack([totals[n] for n in names])
    best = np.argmax(stacked, axis=0)
    return [names[b] if stacked[b, i] > 0 else None for i, b in enumerate(best)]


def top_pattern(load: IndexLoad, row: int) -> str | None:
    """The access pattern that puts the most load on one row."""
    return top_patterns(load, np.array([row]))[0]


def shards_needed(utilisation: float) -> int:
    """Suffixes that keep each shard at or under the hot threshold (half a partition)."""
    return max(2, math.ceil(utilisation / HOT_UTILISATION))


def _fix(model: Model, pattern: str | None, utilisation: float) -> str:
    """The remedy for a hot key, by what the responsible pattern does."""
    access = next((p for p in model.access_patterns if p.name == pattern), None)
    shards = shards_needed(utilisation)
    if access is not None and not access.kind.is_read:
        return (f"Write-shard the key: append a suffix 0..{shards - 1} (random or hashed from an item attribute) "
                f"so {pattern}'s writes spread over {shards} key values, or partition by a higher-cardinality "
                f"attribute; reads of the key then fan out to {shards} Queries.")
    return (f"Serve {pattern}'s hot reads from a cache (DAX or the application), or copy the item under "
            f"{shards} suffixed keys and read a random one; a higher-cardinality key avoids it altogether.")


def peak_findings(model: Model, load: IndexLoad, placement: Placement,
                  labels: dict[int, str]) -> list[HotPartitionFinding]:
    """Hot key and overloaded partition at peak, and oversized item collections, on one index."""
    found = []
    per_key = load.per_key
    row = int(np.argmax(per_key)) if len(per_key) else 0
    if len(per_key) and per_key[row] >= HOT_UTILISATION:
        pattern = top_pattern(load, row)
        over = per_key[row] > 1
        found.append(HotPartitionFinding(
            ERROR if over else WARNING, load.index, pattern, labels.get(row, "?"),
            f"At peak the key value {labels.get(row, '?')} on {load.index} needs {per_key[row]:.0%} of one "
            f"partition (≈ {load.read_units[row] / load.key_values[row]:,.0f} RCU/s and "
            f"{load.write_units[row] / load.key_values[row]:,.0f} WCU/s; limits 3,000 RCU / 1,000 WCU, approximate), "
            f"mostly from {pattern}. " + ("One key value cannot be split across partitions, so it throttles."
                                         if over else "Little headroom is left for spikes."),
            _fix(model, pattern, float(per_key[row]))))
    found.extend(_partition_findings(load, placement, per_key))
    found.extend(_collection_findings(load, labels))
    return found


def _partition_findings(load: IndexLoad, placement: Placement, per_key: np.ndarray) -> list[HotPartitionFinding]:
    partition_load = placement.sums(load.utilisation)
    worst = int(np.argmax(partition_load))
    if partition_load[worst] <= 1 or (len(per_key) and per_key.max() > 1):
        return []
    pattern = top_pattern(load, int(np.argmax(np.where(placement.partition == worst, per_key, -1))))
    number = int(placement.numbers(np.array([worst]))[0])
    return [HotPartitionFinding(
        WARNING, load.index, pattern, f"partition {number}",
        f"Partition {number} of {load.index} carries {partition_load[worst]:.0%} of one partition's capacity at "
        "peak although every key value on it fits: it throttles until adaptive capacity splits it (best-effort).",
        "Pre-warm the table (warm throughput) or set a higher partition count; the keys themselves are fine.")]


def _collection_findings(load: IndexLoad, labels: dict[int, str]) -> list[HotPartitionFinding]:
    per_key = ratio(load.collection_bytes, load.key_values)  # no division when every row is one key value
    row = int(np.argmax(per_key)) if len(per_key) else 0
    if not len(per_key) or per_key[row] <= PARTITION_BYTES:
        return []
    return [HotPartitionFinding(
        ERROR if load.has_lsi else WARNING, load.index, None, labels.get(row, "?"),
        f"The item collection of {labels.get(row, '?')} on {load.index} holds ≈ {per_key[row] / 2**30:,.1f} GB: "
        + ("with an LSI an item collection may not exceed 10 GB." if load.has_lsi
           else "it spans partitions by sort key, but its throughput stays that of one key value."),
        "Add a higher-cardinality attribute (or a bucket suffix) to the partition key.")]


def burst_findings(timeline: pd.DataFrame, pattern: str, index: str, key_value: str,
                   burst_key_utilisation: float) -> list[HotPartitionFinding]:
    """Where and when the burst scenario crosses the per-partition limits (§7.1).

    `burst_key_utilisation` is the busiest key value's peak share of one partition while the burst runs.
    """
    during = timeline[timeline["burst_utilisation"] > 0]
    if during.empty:  # never read .iloc[0] of nothing: the burst runs outside the timeline's window
        return [HotPartitionFinding(
            INFO, index, pattern, key_value,
            f"The burst of {pattern} runs outside the timeline's window, so the timeline shows none of it.",
            "Start the burst inside the window, or widen the window.")]
    if burst_key_utilisation > 1:
        first = during.sort_values(["burst_utilisation", "time_seconds"], ascending=[False, True]).iloc[0]
        return [HotPartitionFinding(
            ERROR, index, pattern, key_value,
            f"During the burst of {pattern}, key value {key_value} on {index} needs {burst_key_utilisation:.0%} of "
            f"one partition (partition {int(first['partition'])}, t = {number(first['time_seconds'])} s; "
            "approximate): a "
            "single key value cannot exceed one partition, so the burst throttles.",
            f"Write-shard {key_value} into at least {shards_needed(burst_key_utilisation)} suffixes, or spread the "
            "burst (queue and pace it).")]
    over = during[during["utilisation"] > 1]
    if over.empty:
        return []
    first = over.sort_values("time_seconds").iloc[0]
    return [HotPartitionFinding(
        WARNING, index, pattern, key_value,
        f"During the burst of {pattern}, partition {int(first['partition'])} of {index} reaches "
        f"{over['utilisation'].max():.0%} of its capacity from t = {number(first['time_seconds'])} s although "
        "every key value fits: it throttles until adaptive capacity isolates the hot keys (best-effort).",
        "Pre-warm the table (warm throughput) before the event, or pace the burst.")]


def burst_elsewhere_finding(pattern: str, index: str) -> HotPartitionFinding:
    """A burst of a pattern that sends nothing to the analysed index (it reads or writes others)."""
    return HotPartitionFinding(
        INFO, index, pattern, "(none)",
        f"The burst of {pattern} sends no request to {index}, so it changes nothing here.",
        f"Analyse the index {pattern} uses (the table or one of its GSIs) to see the burst's effect.")


def sampling_finding(placement: Placement) -> HotPartitionFinding:
    """Say plainly that the per-partition figures of an index are a sample (`partitions.Placement`)."""
    return HotPartitionFinding(
        INFO, placement.load.index, None, "(all partitions)",
        f"{placement.load.index} needs about {placement.partitions:,} partitions; the per-partition figures and the "
        f"timeline show a uniform sample of {placement.shown:,} of them, always including the busiest key value's "
        "partition. Each partition shown is exact; key values, items and totals cover the whole index.",
        "Nothing to do: the busiest partitions outside the sample carry about the same load as the ones shown.")


def sharding_finding(index: str, key_value: str, shards: int, multiplier: float) -> HotPartitionFinding:
    """The price of write sharding: every read of the key becomes N Queries."""
    return HotPartitionFinding(
        INFO, index, None, key_value,
        f"{key_value} on {index} is write-sharded into {shards} suffixes: its reads now take {number(multiplier)} "
        "Queries each (read fan-out).", "Keep N as small as the peak allows; cache reads of the whole key.")
