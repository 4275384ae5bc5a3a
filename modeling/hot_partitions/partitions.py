"""Physical partitions: how many, which key value lands where, and the load per partition over time.

A partition serves 3,000 RCU and 1,000 WCU per second (or a linear mix) and holds 10 GB
(dynamodb-facts §7.1). Key values are spread by a seeded uniform hash. One key value never spans
partitions for throughput: adaptive capacity can at best isolate it on its own partition at the
per-partition maximum (§7.1), and burst capacity cannot lift that ceiling (§7.1) - so load above 1.0
of one partition on one key value is a hard limit, while an overloaded partition whose keys all fit
can be relieved by splitting (reported separately).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from modeling.hot_partitions.frames import HOT_UTILISATION, PARTITION_BYTES, PARTITION_COLUMNS, TIMELINE_COLUMNS
from modeling.hot_partitions.load import IndexLoad

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def partition_count(load: IndexLoad, override: int | None = None) -> int:
    """Partitions of an index: the user's number, else enough for its storage (10 GB each, §7.1) and for twice
    its peak throughput (3,000 RCU / 1,000 WCU each, §7.1), since on-demand keeps room for 2x the previous peak
    (§7.2)."""
    if override:
        return int(override)
    storage = math.ceil(float(load.collection_bytes.sum()) / PARTITION_BYTES)
    throughput = math.ceil(float(load.utilisation.sum()) / HOT_UTILISATION - 1e-9)
    return max(1, storage, throughput)


def hash_rows(rows: np.ndarray, salt: int, in_place: bool = False) -> np.ndarray:
    """Seeded splitmix64 of row ids: a uniform 64-bit hash, vectorised (wrapping uint64 arithmetic).

    `in_place` reuses a uint64 `rows` array the caller owns (10 million rows: one allocation fewer).
    """
    z = rows if in_place and rows.dtype == np.uint64 else rows.astype(np.uint64)
    z += np.uint64((salt * _GOLDEN) & _MASK)
    z ^= z >> np.uint64(30)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(27)
    z *= np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return z


def partition_of(rows: np.ndarray, partitions: int, salt: int, in_place: bool = False) -> np.ndarray:
    """The partition each key-value row hashes to (0 .. partitions-1)."""
    hashed = hash_rows(rows, salt, in_place)
    np.remainder(hashed, np.uint64(partitions), out=hashed)
    return hashed.view(np.int64)  # values below `partitions` read the same as int64


@dataclass(frozen=True, eq=False)
class Placement:
    """Key rows of one index mapped onto its partitions."""

    load: IndexLoad
    partitions: int
    partition: np.ndarray  # per row

    def sums(self, values: np.ndarray) -> np.ndarray:
        """Per-partition sums of a per-row quantity (they add up to the index total)."""
        return np.bincount(self.partition, weights=values, minlength=self.partitions)

    def busiest_key(self) -> np.ndarray:
        """Per partition, the utilisation of its busiest single key value."""
        result = np.zeros(self.partitions)
        np.maximum.at(result, self.partition, self.load.per_key)
        return result


def place(load: IndexLoad, partitions: int, salt: int) -> Placement:
    """Hash every key row of an index onto `partitions` partitions."""
    return Placement(load, partitions, partition_of(np.arange(len(load.key_values), dtype=np.uint64), partitions, salt,
                                                         in_place=True))


def partition_frame(placement: Placement) -> pd.DataFrame:
    """PARTITION_COLUMNS for one index: one row per partition."""
    load = placement.load
    frame = pd.DataFrame({
        "index": load.index, "partition": np.arange(placement.partitions),
        "key_values": placement.sums(load.key_values), "items": placement.sums(load.items),
        "bytes": placement.sums(load.collection_bytes),
        "read_units_per_second": placement.sums(load.read_units),
        "write_units_per_second": placement.sums(load.write_units),
        "utilisation": placement.sums(load.utilisation), "busiest_key_utilisation": placement.busiest_key()})
    return frame[list(PARTITION_COLUMNS)]


# --- bursts over time ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BurstLoad:
    """Extra utilisation per row while a burst runs (at its full rate), between two instants."""

    utilisation: np.ndarray  # per row of the placement's load
    start_seconds: float
    duration_seconds: float


def bin_fractions(burst: BurstLoad, resolution_seconds: float, bins: int) -> np.ndarray:
    """Share of each time bin the burst covers (0..1): its rate averaged over the bin."""
    starts = np.arange(bins) * resolution_seconds
    end = burst.start_seconds + burst.duration_seconds
    overlap = np.clip(np.minimum(starts + resolution_seconds, end) - np.maximum(starts, burst.start_seconds), 0, None)
    return overlap / resolution_seconds


def timeline_frame(placement: Placement, burst: BurstLoad | None, resolution_seconds: float,
                   window_seconds: float, watched_rows: int = 1000) -> pd.DataFrame:
    """TIMELINE_COLUMNS: each partition's utilisation per time bin, with the excess over 1.0.

    The key-level excess is exact for the `watched_rows` rows the burst loads most (all a one-key burst
    touches); the partition-level sums are exact for every row.
    """
    load, bins = placement.load, max(1, math.ceil(window_seconds / resolution_seconds - 1e-9))
    per_key = load.per_key
    base_excess = placement.sums(np.clip(per_key - 1, 0, None) * load.key_values)
    utilisation = np.repeat(placement.sums(load.utilisation)[:, None], bins, axis=1)
    key_excess = np.repeat(base_excess[:, None], bins, axis=1)
    burst_part = np.zeros_like(utilisation)
    if burst is not None:
        fractions = bin_fractions(burst, resolution_seconds, bins)
        burst_part = np.outer(placement.sums(burst.utilisation), fractions)
        utilisation += burst_part
        watched = np.argsort(-burst.utilisation, kind="stable")[:watched_rows]
        watched = watched[burst.utilisation[watched] > 0]
        kv = load.key_values[watched][:, None]
        during = (load.utilisation[watched][:, None] + np.outer(burst.utilisation[watched], fractions)) / kv
        extra = (np.clip(during - 1, 0, None) - np.clip(per_key[watched][:, None] - 1, 0, None)) * kv
        np.add.at(key_excess, placement.partition[watched], extra)
    frame = pd.DataFrame({
        "index": load.index, "partition": np.repeat(np.arange(placement.partitions), bins),
        "time_seconds": np.tile(np.arange(bins) * resolution_seconds, placement.partitions),
        "utilisation": utilisation.ravel(), "burst_utilisation": burst_part.ravel(),
        "excess_utilisation": np.clip(utilisation - 1, 0, None).ravel(),
        "key_excess_utilisation": key_excess.ravel()})
    return frame[list(TIMELINE_COLUMNS)]
