"""What-ifs: write sharding of a hot key, and alternative partition keys for one entity.

Write sharding appends a suffix 0..N-1 to one key value: its writes, items and reads spread over N key
values (hashed to partitions like any other), but every read of that key becomes N Queries (fan-out).
Alternative keys rebuild one entity's table key population with another template and re-spread the
traffic that reaches its table key; the rest of the design is unchanged (APPROXIMATE).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from modeling.design.checks.context import Context
from modeling.design.generator import label
from modeling.design.plans import TABLE
from modeling.hot_partitions.columns import largest, ratio, total
from modeling.hot_partitions.load import BUSIEST_ROWS, Contribution, IndexLoad, build_index_load
from modeling.hot_partitions.metrics import GiniSample, gini, top_share, top_shares, verdict
from modeling.hot_partitions.partitions import BurstLoad, partition_count, place
from modeling.model import Entity, EnumGenerator, TimestampRangeGenerator


def shard(load: IndexLoad, row: int, shards: int) -> IndexLoad:
    """The index with one key value split into `shards` suffixed key values (appended rows)."""
    if shards <= 1:
        return load
    arrays = {}
    base = len(load.key_values)
    for name in ("items", "collection_bytes", "read_units", "write_units"):
        column = getattr(load, name)
        values = np.concatenate([column, np.empty(shards - 1)])  # one copy (the columns can hold 10M rows)
        values[row] = column[row] / shards
        values[base:] = values[row]
        arrays[name] = values
    key_values = np.concatenate([load.key_values, np.full(shards - 1, load.key_values[row])])
    # the utilisation and the busiest rows follow from the index's own (no pass over the copies)
    utilisation = np.concatenate([load.utilisation, np.empty(shards - 1)])
    utilisation[row] /= shards
    utilisation[base:] = utilisation[row]
    per_key = load.per_key
    others = load.busiest_rows(BUSIEST_ROWS)
    candidates = np.concatenate([others[others != row], [row], np.arange(base, base + shards - 1)])
    values = np.where(candidates == row, per_key[row] / shards, per_key[np.minimum(candidates, base - 1)])
    values[candidates >= base] = per_key[row] / shards
    busiest = candidates[np.lexsort((candidates, -values))][:BUSIEST_ROWS]
    return load.with_columns({**arrays, "key_values": key_values, "utilisation": utilisation},
                             sharded=(row, shards), busiest_hint=busiest)


def shard_burst(burst: BurstLoad | None, row: int, shards: int) -> BurstLoad | None:
    """A burst on a sharded key: each shard takes 1/N of it (writes pick a random suffix)."""
    if burst is None or shards <= 1:
        return burst
    utilisation = burst.utilisation.copy()
    utilisation[row] /= shards
    return replace(burst, utilisation=np.concatenate([utilisation, np.full(shards - 1, utilisation[row])]))


def read_request_multiplier(load: IndexLoad, row: int, shards: int) -> float:
    """Queries per read of the sharded key: N when any pattern reads it, else 1 (reads pay the fan-out)."""
    reads = any(p.read_units_per_second > 0 and load.part_utilisation_at(p, np.array([row]))[0] > 0
                for p in load.parts)
    return float(shards) if reads and shards > 1 else 1.0


def sharding_rows(load: IndexLoad, burst: BurstLoad | None, row: int, counts: tuple[int, ...],
                  rng: np.random.Generator) -> list[dict[str, object]]:
    """SHARDING_COLUMNS rows: the analysed index with its hot key split into each shard count.

    Sharding changes one key value only, so each variant's figures come from the index's own: the busiest
    of the other keys (found once), the split key's 1/N, the same total, and one Gini sample with the
    split key replaced (no variant's 10-million-row columns are built)."""
    per_key = load.per_key
    hot = float(per_key[row])
    before, after = per_key[:row], per_key[row + 1:]
    others = max(largest(before) if len(before) else -np.inf, largest(after) if len(after) else -np.inf)
    whole = max(total(load.utilisation), 1e-300)
    sample = GiniSample.of(per_key, load.key_values, rng, keep=row, busiest=load.busiest_rows(1000))
    reads = read_request_multiplier(load, row, 2) > 1
    rows = []
    for count in counts:
        burst_key = hot / count + (float(burst.utilisation[row]) / count if burst is not None else 0.0)
        busiest = max(others, hot / count)
        rows.append({
            "shard_count": count, "busiest_key_utilisation": busiest, "burst_key_utilisation": burst_key,
            "top1_traffic_share": busiest / whole, "gini": sample.sharded(row, count).gini(),
            "read_request_multiplier": float(count) if reads and count > 1 else 1.0,
            "verdict": verdict(max(busiest, burst_key), 0.0, 0.0)})
    return rows


# --- alternative partition keys --------------------------------------------------------------------


def default_alternatives(ctx: Context, entity: Entity) -> tuple[str, ...]:
    """Candidate table partition keys for an entity: its current one, identifiers, unique attributes,
    its first enum (a status) and its first timestamp (a date)."""
    keys = ctx.keys.get(entity.name)
    candidates = [keys.table.partition_key] if keys is not None else []
    names = [*entity.identifiers, *(a.name for a in entity.attributes if a.unique)]
    names += [next((a.name for a in entity.attributes if isinstance(a.generator, kind)), "")
              for kind in (EnumGenerator, TimestampRangeGenerator)]
    candidates += [f"{label(n)}#{{{n}}}" for n in names if n]
    return tuple(dict.fromkeys(candidates))


def alternative_row(ctx: Context, entity: str, template: str, parts: list[Contribution], cap: int,
                    seed: int, rng: np.random.Generator) -> dict[str, object]:
    """ALTERNATIVE_COLUMNS row: the entity alone on the table keyed by `template`, with its table traffic."""
    moved = [replace(p, template=template) for p in parts if p.index == TABLE and p.entity == entity]
    load = build_index_load(ctx, TABLE, {entity: template}, moved, cap, seed)
    placement = place(load, partition_count(load), seed)
    busiest = float(load.per_key.max())
    traffic = top_shares(load.utilisation, load.key_values, busiest=load.busiest_rows(10))  # as skew_row
    biggest = largest(ratio(load.collection_bytes, load.key_values))  # one key value per row: no division
    return {
        "entity": entity, "partition_key": template, "key_values": float(load.key_values.sum()),
        "top1_traffic_share": traffic[0], "top10_traffic_share": traffic[1],
        "top1_item_share": top_share(load.items, load.key_values, 1),
        "gini": gini(load.utilisation, load.key_values, rng), "busiest_key_utilisation": busiest,
        "largest_collection_bytes": biggest,
        "verdict": verdict(busiest, float(placement.sums(load.utilisation).max()), biggest)}
