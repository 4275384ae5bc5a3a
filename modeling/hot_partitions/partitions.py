"""Physical partitions: how many, which key value lands where, and the load per partition over time.

A partition serves 3,000 RCU and 1,000 WCU per second (or a linear mix) and holds 10 GB
(dynamodb-rules §7.1). Key values are spread by a seeded uniform hash. One key value never spans
partitions for throughput: adaptive capacity can at best isolate it on its own partition at the
per-partition maximum (§7.1), and burst capacity cannot lift that ceiling (§7.1) - so load above 1.0
of one partition on one key value is a hard limit, while an overloaded partition whose keys all fit
can be relieved by splitting (reported separately).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from modeling.hot_partitions.columns import constant_value, largest, top_rows, total
from modeling.hot_partitions.frames import HOT_UTILISATION, PARTITION_BYTES, PARTITION_COLUMNS, TIMELINE_COLUMNS
from modeling.hot_partitions.load import IndexLoad
from modeling.limits import MAX_SIMULATED_PARTITIONS, MAX_TIMELINE_CELLS

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
_MIX = (np.uint64(30), np.uint64(0xBF58476D1CE4E5B9), np.uint64(27), np.uint64(0x94D049BB133111EB), np.uint64(31))
_CHUNK = 1 << 15  # rows hashed per step: the working arrays stay in the CPU cache


def partition_count(load: IndexLoad, override: int | None = None) -> int:
    """Partitions of an index: the user's number, else enough for its storage (10 GB each, §7.1) and for twice
    its peak throughput (3,000 RCU / 1,000 WCU each, §7.1), since on-demand keeps room for 2x the previous peak
    (§7.2)."""
    if override:
        return int(override)
    storage = _ceiling_of_total(load, "collection_bytes", PARTITION_BYTES)
    throughput = _ceiling_of_total(load, "utilisation", HOT_UTILISATION, slack=1e-9)
    return max(1, storage, throughput)


def _ceiling_of_total(load: IndexLoad, name: str, unit: float, slack: float = 0.0) -> int:
    """ceil(total / unit - slack) of a column, the total from the vectors it is a sum of (no pass over the
    column, which then need not be built), unless it lies so near a whole number that the order of the
    additions could decide the ceiling (the two totals differ by a few units in the last place): then the
    column's own total, as before."""
    estimate = load.term_total(name)
    if estimate is not None:
        ratio = estimate / unit - slack
        if estimate == 0.0 or abs(ratio - round(ratio)) > 1e-9 * max(1.0, abs(ratio)):  # columns are >= 0
            return math.ceil(ratio)
    return math.ceil(total(load.column(name)) / unit - slack)


def hash_rows(rows: np.ndarray, salt: int, in_place: bool = False) -> np.ndarray:
    """Seeded splitmix64 of row ids: a uniform 64-bit hash, vectorised (wrapping uint64 arithmetic).

    `in_place` reuses a uint64 `rows` array the caller owns (one allocation fewer).
    """
    z = rows if in_place and rows.dtype == np.uint64 else rows.astype(np.uint64)
    z += np.uint64((salt * _GOLDEN) & _MASK)
    return _mix(z, np.empty_like(z))


def _mix(z: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser in place on `z`, with `scratch` (same length) for the shifted copies."""
    first, times1, second, times2, third = _MIX
    np.right_shift(z, first, out=scratch)
    z ^= scratch
    z *= times1
    np.right_shift(z, second, out=scratch)
    z ^= scratch
    z *= times2
    np.right_shift(z, third, out=scratch)
    z ^= scratch
    return z


def _reduce(hashed: np.ndarray, partitions: np.uint64, scratch: np.ndarray) -> np.ndarray:
    """hashed % partitions in place: h - (h // p) * p, as division by a scalar is cheaper than remainder."""
    np.floor_divide(hashed, partitions, out=scratch)
    scratch *= partitions
    hashed -= scratch
    return hashed


def partition_of(rows: np.ndarray, partitions: int, salt: int, in_place: bool = False) -> np.ndarray:
    """The partition each key-value row hashes to (0 .. partitions-1)."""
    hashed = hash_rows(rows, salt, in_place)
    return _reduce(hashed, np.uint64(partitions), np.empty_like(hashed)).view(np.int64)


def _id_dtype(partitions: int) -> type[np.unsignedinteger] | type[np.signedinteger]:
    """The narrowest integer type holding partition ids below `partitions`."""
    return np.uint8 if partitions <= 2**8 else np.uint16 if partitions <= 2**16 else np.int64


def partition_ids(rows: int, partitions: int, salt: int) -> tuple[np.ndarray, np.ndarray]:
    """Partition of every row id 0 .. rows-1 (as `partition_of` on them) and the rows per partition.

    Works through the rows in cache-sized chunks, so each step's temporaries never leave the CPU cache,
    and stores the ids in the narrowest integer type (10 million rows on 17 partitions: 10 MB, not 80 MB).
    """
    ids, counts, _ = partition_ids_and_sums(rows, partitions, salt)
    return ids, counts


_EXACT = 2.0 ** 52  # whole numbers below it, and their sums while they stay below it, are exact floats


def _whole_scale(whole: np.ndarray | None, whole_total: float, rows: int) -> float | None:
    """A power of two above the row count, if every partial sum of whole x scale + 1 stays exact."""
    if whole is None or len(whole) != rows:
        return None
    scale = 2.0 ** max(1, rows).bit_length()
    return scale if (abs(whole_total) + 2.0) * scale + rows < _EXACT else None


def partition_ids_and_sums(rows: int, partitions: int, salt: int, whole: np.ndarray | None = None,
                           whole_total: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """`partition_ids`, and the per-partition sums of `whole` (whole numbers on every row, totalling
    `whole_total`: an item draw) counted in the same pass, if they can be exactly (else None).

    Sums of whole numbers are exact in any order, so one weighted count of whole x scale + 1, a power of
    two above the row count, gives both: scale x the partition's sum plus its rows, split apart exactly.
    That takes the place of the plain count of rows here and of a second pass over every row for the sums."""
    ids = np.empty(rows, dtype=_id_dtype(partitions))
    scale = _whole_scale(whole, whole_total, rows)
    counts = np.zeros(partitions, dtype=np.int64)
    combined = np.zeros(partitions)  # scale x sum + rows, per partition
    step = max(1, min(rows, _CHUNK))
    base, z, scratch = np.arange(step, dtype=np.uint64), np.empty(step, np.uint64), np.empty(step, np.uint64)
    weights = np.empty(step)
    offset, divisor = (salt * _GOLDEN) & _MASK, np.uint64(partitions)
    for start in range(0, rows, step):
        size = min(step, rows - start)
        hashed = np.add(base[:size], np.uint64((start + offset) & _MASK), out=z[:size])  # id + salt, wrapping
        _reduce(_mix(hashed, scratch[:size]), divisor, scratch[:size])
        if whole is not None and scale is not None:
            chunk = np.multiply(whole[start:start + size], scale, out=weights[:size])
            chunk += 1.0
            combined += np.bincount(hashed.view(np.int64), weights=chunk, minlength=partitions)
        else:
            counts += np.bincount(hashed.view(np.int64), minlength=partitions)
        ids[start:start + size] = hashed
    if scale is None:
        return ids, counts, None
    sums = np.floor(combined / scale)  # exact: a power of two, and 0 <= rows per partition < scale
    return ids, (combined - sums * scale).astype(np.int64), sums


@dataclass(frozen=True, eq=False)
class Placement:
    """Key rows of one index mapped onto its partitions (all of them, or a uniform sample of them).

    With more than `MAX_SIMULATED_PARTITIONS` partitions, `simulated` consecutive partition numbers starting at
    `first` (mod `partitions`) are kept: the hash is uniform, so they are a uniform sample, and `first` is the
    partition of the anchor row (the busiest key value) so that it is always shown. Rows outside the sample have
    the id `simulated` (a sink no frame shows). Each kept partition's figures are exactly those of the full
    placement; per-partition arrays have `simulated` entries.
    """

    load: IndexLoad
    partitions: int
    partition: np.ndarray  # per row: its simulated partition id, `simulated` when outside the sample
    counts: np.ndarray  # key-value rows per simulated partition
    simulated: int = 0  # partitions simulated (0: all of them)
    first: int = 0  # real number of simulated partition 0
    salt: int = 0  # the hash salt, to number rows outside the sample
    # per-partition sums of the load's own columns, by column: the frames, findings, skew and hourly
    # figures all ask for the utilisation's, and each is a pass over every row
    _sums: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    _vector_sums: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    origin: Placement | None = field(default=None, repr=False)  # the unsharded placement this one extends

    @property
    def shown(self) -> int:
        """How many partitions the per-partition arrays hold."""
        return self.simulated or self.partitions

    @property
    def sampled(self) -> bool:
        return self.shown < self.partitions

    def numbers(self, ids: np.ndarray) -> np.ndarray:
        """Real partition numbers of simulated ids."""
        ids = np.asarray(ids, dtype=np.int64)
        return (ids + self.first) % self.partitions if self.sampled else ids

    def row_numbers(self, rows: np.ndarray) -> np.ndarray:
        """Real partition number of given rows (inside the sample or not)."""
        rows = np.asarray(rows, dtype=np.int64)
        if not self.sampled:
            numbers: np.ndarray = self.partition[rows].astype(np.int64)  # annotated: numpy's stubs type this result Any
            return numbers
        return partition_of(rows.astype(np.uint64), self.partitions, self.salt)

    def sums(self, values: np.ndarray) -> np.ndarray:
        """Per-partition sums of a per-row quantity (they add up to the index total when nothing is sampled)."""
        name = self.load.column_name(values)
        return self.column_sums(name) if name is not None else self._sums_of(values)

    def column_sums(self, name: str) -> np.ndarray:
        """Per-partition sums of one of the load's columns (`COLUMN_NAMES`), remembered: from the vectors it is
        a sum of when they are known, so the column itself need not be built."""
        known = self._sums.get(name)
        if known is None:
            known = self._sums[name] = self._column_sums(name)
        return known.copy()

    def _column_sums(self, name: str) -> np.ndarray:
        load = self.load
        if self.origin is not None and load.sharded[0] >= 0:
            return self._patched_sums(self.origin, name)
        terms = load.factored.terms_of(name) if load.factored is not None else None
        if terms is None or load.columns.rows != len(self.partition):
            return self._sums_of(load.column(name))
        result = np.zeros(self.shown)
        for start, vector, weight in terms:
            result += self._window_sums(start, vector) * weight
        return result

    def _patched_sums(self, origin: Placement, name: str) -> np.ndarray:
        """A sharded column's sums from its unsharded one's: the split row's change and the appended shards."""
        row = self.load.sharded[0]
        values, before = self.load.column(name), origin.load.column(name)
        rows = len(before)
        change = np.zeros(self.shown + 1)
        change[self.partition[row]] += values[row] - before[row]
        np.add.at(change, self.partition[rows:].astype(np.int64), values[rows:])
        return origin.column_sums(name) + change[:self.shown]

    def remember_window_sums(self, start: int, vector: np.ndarray, sums: np.ndarray) -> None:
        """Record what `_window_sums(start, vector)` gives, when it is known already."""
        self._vector_sums[(start, id(vector))] = (vector, sums)

    def _window_sums(self, start: int, vector: np.ndarray) -> np.ndarray:
        """Per-partition sums of `vector` laid on the rows from `start` on (remembered per vector)."""
        known = self._vector_sums.get((start, id(vector)))
        if known is None or known[0] is not vector:
            known = (vector, self._sums_of(vector, start))
            self._vector_sums[(start, id(vector))] = known
        return known[1]

    def _sums_of(self, values: np.ndarray, offset: int = 0) -> np.ndarray:
        """Per-partition sums of `values` laid on the rows offset .. offset + len(values) - 1."""
        value = constant_value(values)
        shown = self.shown
        if value is not None and offset == 0 and len(values) == len(self.partition):
            return self.counts * value  # the same on every row: rows per partition x the value
        result = np.zeros(shown + 1)
        for start in range(0, len(values), _CHUNK * 32):  # a sum from zero per 2^20 rows, added to the result
            stop = min(len(values), start + _CHUNK * 32)
            if value is not None:
                result += np.bincount(self.partition[offset + start:offset + stop], minlength=shown + 1) * value
                continue
            # what np.bincount(ids, weights) gives (each partition's rows added in row order), a cache-sized
            # step at a time: its own conversion of the ids to intp would allocate 8 MB per 2^20 rows, which
            # the allocator maps afresh each time (page faults, kernel time)
            counted = np.zeros(shown + 1)
            for step in range(start, stop, _CHUNK):
                end = min(stop, step + _CHUNK)
                np.add.at(counted, self.partition[offset + step:offset + end], values[step:end])
            result += counted
        return result[:shown]

    def busiest_key(self) -> np.ndarray:
        """Per partition, the utilisation of its busiest single key value."""
        return self._busiest_key.copy()

    @cached_property
    def _busiest_key(self) -> np.ndarray:
        if self.origin is not None and self.load.sharded[0] >= 0:
            return self._patched_busiest_key(self.origin)
        load = self.load
        value = load.constant_per_key()
        if value is not None:
            return np.where(self.counts > 0, max(value, 0.0), 0.0)
        if load.ranked:
            return self._first_of_each(load)
        result = np.zeros(self.shown + 1)
        np.maximum.at(result, self.partition, load.per_key)
        return result[:self.shown]

    def _patched_busiest_key(self, origin: Placement) -> np.ndarray:
        """The unsharded placement's busiest keys, with the split key's partition looked at again."""
        row, per_key, before = self.load.sharded[0], self.load.per_key, origin.load.per_key
        result = np.append(origin.busiest_key(), 0.0)
        where = int(self.partition[row])
        if where < self.shown and before[row] >= result[where]:  # it was its partition's busiest: the next one
            mask = origin.partition == where
            mask[row] = False
            result[where] = max(float(before[mask].max(initial=0.0)), 0.0)
        rows = len(before)
        changed = np.concatenate([[row], np.arange(rows, len(per_key))])
        np.maximum.at(result, self.partition[changed].astype(np.int64), np.maximum(per_key[changed], 0.0))
        return result[:self.shown]

    def _first_of_each(self, load: IndexLoad) -> np.ndarray:
        """Per partition, the per-key load of its first row: its busiest when the load never rises with the
        row. Reads rows until every non-empty partition is met (a few thousand rows, not every one)."""
        shown = self.shown
        result, seen = np.zeros(shown + 1), np.zeros(shown + 1, dtype=bool)
        wanted = np.append(self.counts > 0, False)  # the sink (rows outside a sample) is never shown
        for start in range(0, len(self.partition), _CHUNK):
            ids, first = np.unique(self.partition[start:start + _CHUNK], return_index=True)
            new = ~seen[ids]
            result[ids[new]] = np.maximum(load.per_key_at(start + first[new]), 0.0)
            seen[ids] = True
            if not (wanted & ~seen).any():
                break
        return result[:shown]


def place(load: IndexLoad, partitions: int, salt: int, anchor_row: int | None = None,
          max_simulated: int = MAX_SIMULATED_PARTITIONS) -> Placement:
    """Hash every key row of an index onto `partitions` partitions (a sample of them beyond `max_simulated`)."""
    rows = len(load.key_values)
    if partitions <= max_simulated:
        whole = load.whole_items()  # an item draw over every row: its sums come with the hashing
        ids, counts, sums = partition_ids_and_sums(rows, partitions, salt, *(whole or (None, 0.0)))
        placement = Placement(load, partitions, ids, counts, salt=salt)
        if whole is not None and sums is not None:
            placement.remember_window_sums(0, whole[0], sums)
        return placement
    anchor = int(np.argmax(load.per_key)) if anchor_row is None else anchor_row
    first = int(partition_of(np.array([anchor], dtype=np.uint64), partitions, salt)[0])
    ids = np.empty(rows, dtype=np.int64)
    for start in range(0, rows, _CHUNK * 32):
        chunk = np.arange(start, min(rows, start + _CHUNK * 32), dtype=np.uint64)
        shifted = (partition_of(chunk, partitions, salt, in_place=True) - first) % partitions
        ids[start:start + len(chunk)] = np.minimum(shifted, max_simulated)
    counts = np.bincount(ids, minlength=max_simulated + 1)[:max_simulated]
    return Placement(load, partitions, ids, counts, max_simulated, first, salt)


def extend(placement: Placement, load: IndexLoad) -> Placement:
    """The placement of `load`, which is `placement.load` with rows appended (write shards): the rows it had
    keep their partitions (the hash is of the row), so only the new rows are hashed (as `place` would)."""
    rows = len(placement.partition)
    extra = np.arange(rows, len(load.key_values), dtype=np.uint64)
    ids = partition_of(extra, placement.partitions, placement.salt)
    if placement.sampled:
        ids = np.minimum((ids - placement.first) % placement.partitions, placement.simulated)
    shown = placement.shown
    counts = placement.counts + np.bincount(ids, minlength=shown + 1)[:shown]
    partition = np.concatenate([placement.partition, ids.astype(placement.partition.dtype)])
    return Placement(load, placement.partitions, partition, counts, placement.simulated, placement.first,
                     placement.salt, origin=placement)


def partition_frame(placement: Placement) -> pd.DataFrame:
    """PARTITION_COLUMNS for one index: one row per partition."""
    load = placement.load
    sums = placement.column_sums  # by name: a column summed from its vectors is never built
    frame = pd.DataFrame({
        "index": load.index, "partition": placement.numbers(np.arange(placement.shown)),
        "key_values": sums("key_values"), "items": sums("items"), "bytes": sums("collection_bytes"),
        "read_units_per_second": sums("read_units"), "write_units_per_second": sums("write_units"),
        "utilisation": sums("utilisation"), "busiest_key_utilisation": placement.busiest_key()})
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
    fractions: np.ndarray = overlap / resolution_seconds  # annotated: numpy's stubs type this result Any
    return fractions


def timeline_frame(placement: Placement, burst: BurstLoad | None, resolution_seconds: float,
                   window_seconds: float, watched_rows: int = 1000) -> pd.DataFrame:
    """TIMELINE_COLUMNS: each partition's utilisation per time bin, with the excess over 1.0.

    The key-level excess is exact for the `watched_rows` rows the burst loads most (all a one-key burst
    touches); the partition-level sums are exact for every row. When partitions x bins exceeds
    `MAX_TIMELINE_CELLS`, only the partitions with the highest peak are kept (the others are below them).
    """
    load, bins = placement.load, max(1, math.ceil(window_seconds / resolution_seconds - 1e-9))
    per_key = load.per_key
    base = placement.sums(load.utilisation)
    over = largest(per_key) > 1 if len(per_key) else False
    base_excess = placement.sums(np.clip(per_key - 1, 0, None) * load.key_values) if over else np.zeros(
        placement.shown)
    fractions = bin_fractions(burst, resolution_seconds, bins) if burst is not None else np.zeros(bins)
    burst_sums = placement.sums(burst.utilisation) if burst is not None else np.zeros(placement.shown)
    kept = _busiest_partitions(base + burst_sums * float(fractions.max(initial=0.0)), bins)
    burst_part = np.outer(burst_sums[kept], fractions)
    utilisation = base[kept][:, None] + burst_part
    key_excess = np.repeat(base_excess[kept][:, None], bins, axis=1)
    if burst is not None:
        position = np.full(placement.shown + 1, -1, dtype=np.int64)
        position[kept] = np.arange(len(kept))
        watched = top_rows(burst.utilisation, watched_rows)
        watched = watched[burst.utilisation[watched] > 0]
        kv = load.key_values[watched][:, None]
        during = (load.utilisation[watched][:, None] + np.outer(burst.utilisation[watched], fractions)) / kv
        extra = (np.clip(during - 1, 0, None) - np.clip(per_key[watched][:, None] - 1, 0, None)) * kv
        rows = position[placement.partition[watched]]
        np.add.at(key_excess, rows[rows >= 0], extra[rows >= 0])
    numbers = placement.numbers(kept)
    frame = pd.DataFrame({
        "index": load.index, "partition": np.repeat(numbers, bins),
        "time_seconds": np.tile(np.arange(bins) * resolution_seconds, len(numbers)),
        "utilisation": utilisation.ravel(), "burst_utilisation": burst_part.ravel(),
        "excess_utilisation": np.clip(utilisation - 1, 0, None).ravel(),
        "key_excess_utilisation": key_excess.ravel()})
    return frame[list(TIMELINE_COLUMNS)]


def _busiest_partitions(peak: np.ndarray, bins: int) -> np.ndarray:
    """Partitions kept in the timeline: all, or the busiest at peak when partitions x bins exceeds the limit."""
    keep = max(1, MAX_TIMELINE_CELLS // bins)
    if len(peak) <= keep:
        return np.arange(len(peak))
    return np.sort(np.argsort(-peak, kind="stable")[:keep])
