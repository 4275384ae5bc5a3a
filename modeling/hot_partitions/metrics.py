"""Skew metrics of one index: top-1 and top-10 shares, max/mean partition, Gini, largest item collection.

Rows may group several cold key values (`IndexLoad.key_values`); every metric is per real key value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from modeling.hot_partitions.columns import constant_value, largest, ratio, top_rows, total
from modeling.hot_partitions.frames import HOT_UTILISATION, PARTITION_BYTES
from modeling.hot_partitions.partitions import Placement

_GINI_SAMPLE_ROWS = 200_000  # beyond this, Gini is estimated on a seeded sample of rows

HEALTHY, SKEWED, HOT, THROTTLES, TOO_LARGE = "healthy", "skewed but fits", "hot", "throttles", "collection over 10 GB"


def top_shares(row_totals: np.ndarray, key_values: np.ndarray, keys: tuple[int, ...] = (1, 10),
               busiest: np.ndarray | None = None) -> tuple[float, ...]:
    """Shares of the total held by the 1, 10 ... busiest key values (rows ranked by their per-key value);
    `busiest`: those rows, busiest first, when the caller knows them."""
    whole = total(row_totals)
    if whole <= 0 or not len(row_totals):
        return tuple(0.0 for _ in keys)
    count = min(max(keys), len(row_totals))
    if busiest is not None:  # only the top rows' per-key values are read: no 10-million-row division
        top = busiest[:count]
        top_values = ratio(np.asarray(row_totals[top]), np.asarray(key_values[top]))
    else:
        per_key = ratio(row_totals, key_values)
        top = top_rows(per_key, count)
        top_values = per_key[top]
    before = np.cumsum(key_values[top]) - key_values[top]
    return tuple(float((top_values * np.minimum(key_values[top], np.clip(n - before, 0, None))).sum() / whole)
                 for n in keys)


def top_share(row_totals: np.ndarray, key_values: np.ndarray, keys: int) -> float:
    """Share of the total held by the `keys` busiest key values."""
    return top_shares(row_totals, key_values, (keys,))[0]


def gini(row_totals: np.ndarray, key_values: np.ndarray, rng: np.random.Generator,
         busiest: np.ndarray | None = None) -> float:
    """Gini coefficient of the per-key values (0 = every key equal, towards 1 = one key has everything).

    Above `_GINI_SAMPLE_ROWS` rows the busiest 1,000 rows are kept exactly and the rest estimated from a
    seeded sample, reweighted to the key values it stands for.
    """
    per_key = ratio(row_totals, key_values)
    if len(per_key) < 2 or constant_value(per_key) is not None or total(per_key) <= 0 or np.ptp(per_key) == 0:
        return 0.0
    return GiniSample.of(per_key, key_values, rng, busiest=busiest).gini()


@dataclass(frozen=True, eq=False)
class GiniSample:
    """The rows a Gini estimate reads: every row up to `_GINI_SAMPLE_ROWS`, else the 1,000 busiest (and a
    `keep` row) exactly plus a seeded uniform sample of the others, reweighted to the key values they stand
    for. A what-if that changes one kept row (write sharding) reuses the sample instead of drawing again."""

    values: np.ndarray  # per-key value of each sampled row
    weights: np.ndarray  # key values each sampled row stands for
    rows: np.ndarray  # the sampled rows

    @classmethod
    def of(cls, per_key: np.ndarray, key_values: np.ndarray, rng: np.random.Generator,
           keep: int | None = None, busiest: np.ndarray | None = None) -> GiniSample:
        """`busiest`: the 1,000 busiest rows when the caller knows them."""
        count = len(per_key)
        if count <= _GINI_SAMPLE_ROWS:
            rows = np.arange(count)
            return cls(np.asarray(per_key[rows], dtype=float), np.asarray(key_values[rows], dtype=float), rows)
        if busiest is not None and len(busiest) >= 1000:
            exact = busiest[:1000]
        elif constant_value(per_key) is not None:
            exact = np.arange(1000)
        else:
            exact = np.argpartition(per_key, count - 1000)[count - 1000:]
        exact = np.unique(np.concatenate([exact, [keep] if keep is not None else []]).astype(np.int64))
        # the j-th row outside `exact` is j plus the number of exact rows at or before it
        drawn = rng.integers(0, count - len(exact), _GINI_SAMPLE_ROWS)
        chosen = np.sort(drawn + np.searchsorted(exact - np.arange(len(exact)), drawn, side="right"))
        scale = (total(key_values) - float(key_values[exact].sum())) / float(key_values[chosen].sum())
        rows = np.concatenate([exact, chosen])
        weights = np.concatenate([key_values[exact], key_values[chosen] * scale])
        return cls(per_key[rows], weights, rows)

    def sharded(self, row: int, shards: int) -> GiniSample:
        """The sample with `row`'s key split into `shards` keys of 1/shards of its load each."""
        if shards <= 1:
            return self
        at = int(np.flatnonzero(self.rows == row)[0])
        others = np.ones(len(self.rows), dtype=bool)
        others[at] = False
        return GiniSample(np.concatenate([self.values[others], np.full(shards, self.values[at] / shards)]),
                          np.concatenate([self.weights[others], np.full(shards, self.weights[at])]),
                          np.concatenate([self.rows[others], np.full(shards, row)]))

    def gini(self) -> float:
        x, w = self.values, self.weights
        if len(x) < 2 or float((x * w).sum()) <= 0 or np.ptp(x) == 0:
            return 0.0
        ranked = bool(np.all(x[1:] <= x[:-1]))  # already ranked (one zipf dimension): no sort needed
        order = np.arange(len(x))[::-1] if ranked else np.argsort(x, kind="stable")
        x, w = x[order], w[order]
        population = np.concatenate([[0.0], np.cumsum(w) / w.sum()])
        lorenz = np.concatenate([[0.0], np.cumsum(x * w) / (x * w).sum()])
        return float(np.clip(1 - np.sum(np.diff(population) * (lorenz[1:] + lorenz[:-1])), 0.0, 1.0))


def skew_row(placement: Placement, rng: np.random.Generator) -> dict[str, object]:
    """One SKEW_COLUMNS row for an index (or a what-if variant of it)."""
    load = placement.load
    utilisation = load.utilisation
    partition_load = placement.sums(utilisation)
    busiest = largest(load.per_key) if len(utilisation) else 0.0
    biggest = largest(ratio(load.collection_bytes, load.key_values)) if len(utilisation) else 0.0
    mean = float(partition_load.mean())
    traffic = top_shares(utilisation, load.key_values, busiest=load.busiest_rows(10))
    items = top_shares(load.items, load.key_values)
    return {
        "index": load.index, "key_values": total(load.key_values), "items": total(load.items),
        "partitions": placement.partitions,
        "top1_traffic_share": traffic[0], "top10_traffic_share": traffic[1],
        "top1_item_share": items[0], "top10_item_share": items[1],
        "max_to_mean_partition": float(partition_load.max() / mean) if mean > 0 else 1.0,
        "gini": gini(utilisation, load.key_values, rng, load.busiest_rows(1000)),
        "largest_collection_bytes": biggest, "largest_collection_share_of_10gb": biggest / PARTITION_BYTES,
        "busiest_key_utilisation": busiest,
        "verdict": verdict(busiest, float(partition_load.max()), biggest),
    }


def verdict(busiest_key: float, busiest_partition: float, largest_collection_bytes: float) -> str:
    """One word on an index: throttles (a key above one partition, §7.1), hot, skewed but fits, healthy."""
    if busiest_key > 1:
        return THROTTLES
    if largest_collection_bytes > PARTITION_BYTES:
        return TOO_LARGE
    if busiest_key >= HOT_UTILISATION:
        return HOT
    return SKEWED if busiest_partition > 1 else HEALTHY
