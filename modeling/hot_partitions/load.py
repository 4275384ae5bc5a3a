"""Peak traffic per key value: each access pattern's units spread over the key values of the index it uses.

APPROXIMATE, like the checks' estimates whose unit functions it reuses: read units per request from
`read_units_per_request` (dynamodb-facts §1.1, §1.2), table writes ceil(item / 1 KB) per item (x2 in a
transaction, §2), index writes from the plan's `index_writes` at ceil(entry / 1 KB) each (§4.1). An LSI
lives on the table's partitions (§4.2), so its reads and writes load the table's key values.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from modeling.design.checks.context import Context
from modeling.design.checks.estimates import entry_bytes, lsi_entry_bytes, read_units_per_request
from modeling.design.planner import AccessPath
from modeling.design.plans import TABLE, Operation, PatternPlan
from modeling.hot_partitions.columns import Accumulator, constant, constant_value, ratio, scaled
from modeling.hot_partitions.frames import PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, WRITE_BLOCK_BYTES
from modeling.hot_partitions.population import Layout, layout, row_items, row_shares
from modeling.model import AccessPattern, KeyTemplates, PatternKind

_NEW_ITEM_KINDS = frozenset({PatternKind.WRITE, PatternKind.BATCH_WRITE, PatternKind.TRANSACT_WRITE})


@dataclass(frozen=True)
class Contribution:
    """One pattern's peak units per second on one partition-key template of one physical index."""

    pattern: str
    index: str  # TABLE or a GSI name (an LSI's traffic is the table's)
    entity: str
    template: str
    read_units_per_second: float
    write_units_per_second: float
    requests_per_second: float  # the pattern's peak rate, to turn a burst's requests into units
    new_items: bool = False  # writes new items: time-bucketed keys take them on the newest bucket
    fixed: tuple[tuple[str, str], ...] = ()  # attribute values pinned by filters or a sparse index

    def shares(self, rows: Layout) -> np.ndarray:
        """Share of this contribution per row of the entity's layout (sums to 1)."""
        return row_shares(rows, dict(self.fixed), self.new_items)

    @property
    def utilisation(self) -> float:
        """Share of one partition the whole contribution needs (dynamodb-facts §7.1)."""
        return self.read_units_per_second / PARTITION_READ_UNITS + self.write_units_per_second / PARTITION_WRITE_UNITS


def physical_index(path: AccessPath) -> str:
    """The partitions a path uses: a GSI its own, the table and its LSIs the table's (dynamodb-facts §4.2)."""
    return path.name if path.is_global else TABLE


def contributions(ctx: Context) -> list[Contribution]:
    """Every pattern's peak units on every template it touches, in model order.

    A Scan reads every partition in turn rather than one key value, so it is left out (check DDS201 reports it).
    """
    parts: list[Contribution] = []
    for pattern, plan in ctx.plans():
        if plan.operation is Operation.SCAN:
            continue
        if plan.operation.is_write:
            parts.extend(_write_parts(ctx, pattern, plan))
        else:
            parts.extend(_read_parts(ctx, pattern, plan))
    return parts


def _fixed(pattern: AccessPattern, templates: KeyTemplates | None) -> tuple[tuple[str, str], ...]:
    """Values pinned by the pattern's filters and the path's sparse-index conditions."""
    conditions = (*pattern.filters, *(templates.only_when if templates is not None else ()))
    return tuple(dict.fromkeys((c.attribute, str(c.equals)) for c in conditions))


def _read_parts(ctx: Context, pattern: AccessPattern, plan: PatternPlan) -> Iterator[Contribution]:
    path = ctx.paths.get(plan.index)
    entity = next((e for e in plan.entities if path is not None and e in path.templates), None)
    if path is None or entity is None:
        return
    rate = pattern.traffic.peak_requests_per_second
    units = read_units_per_request(ctx, plan) * rate
    templates = path.templates[entity]
    yield Contribution(pattern.name, physical_index(path), entity, templates.partition_key, units, 0.0, rate,
                       fixed=_fixed(pattern, templates if path.name != TABLE else None))


def _write_parts(ctx: Context, pattern: AccessPattern, plan: PatternPlan) -> Iterator[Contribution]:
    """Table writes per entity, then index writes (dynamodb-facts §1.2, §2, §4.1)."""
    rate = pattern.traffic.peak_requests_per_second
    entities = [e for e in plan.entities if ctx.entity(e) is not None and e in ctx.keys]
    new_items = pattern.kind in _NEW_ITEM_KINDS
    factor = 2.0 if pattern.kind is PatternKind.TRANSACT_WRITE else 1.0  # §2
    for entity in entities:
        blocks = math.ceil(ctx.item_bytes.get(entity, 0.0) / WRITE_BLOCK_BYTES)
        units = plan.items_written_per_request / len(entities) * blocks * factor * rate
        yield Contribution(pattern.name, TABLE, entity, ctx.keys[entity].table.partition_key, 0.0, units, rate,
                           new_items, _fixed(pattern, None))
    for write in plan.index_writes:
        path = ctx.paths.get(write.index)
        members = [e for e in entities if path is not None and e in path.templates]
        for entity in members:
            blocks = math.ceil(entry_bytes(ctx, ctx.entity(entity), path) / WRITE_BLOCK_BYTES)
            units = write.writes_per_item * plan.items_written_per_request / len(members) * blocks * rate
            templates = path.templates[entity]
            yield Contribution(pattern.name, physical_index(path), entity, templates.partition_key, 0.0, units,
                               rate, new_items, _fixed(pattern, templates))


def index_templates(ctx: Context) -> dict[str, dict[str, str]]:
    """Physical index -> entity -> partition-key template (the table first, then each GSI)."""
    result = {TABLE: {k.entity: k.table.partition_key for k in ctx.design.key_design.entities
                      if ctx.entity(k.entity) is not None}}
    for index in ctx.design.key_design.global_secondary_indexes:
        path = ctx.paths[index.name]
        result[index.name] = {e: t.partition_key for e, t in path.templates.items() if ctx.entity(e) is not None}
    return result


# --- the load of one index -------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """The rows of one partition-key template on an index, with each entity's layout."""

    template: str
    start: int
    rows: int
    layouts: tuple[tuple[str, Layout], ...]

    def layout_of(self, entity: str) -> Layout:
        return dict(self.layouts).get(entity, self.layouts[0][1])


@dataclass(frozen=True, eq=False)
class IndexLoad:
    """Per key-value row of one physical index: key values, items, bytes and peak units per second."""

    index: str
    segments: tuple[Segment, ...]
    key_values: np.ndarray
    items: np.ndarray
    collection_bytes: np.ndarray
    read_units: np.ndarray  # RCU/s at peak, summed over the row's key values
    write_units: np.ndarray  # WCU/s at peak
    parts: tuple[Contribution, ...]
    has_lsi: bool = False
    sharded: tuple[int, int] = (-1, 1)  # (row split by write sharding, shard count); extra shards are appended

    @property
    def base_rows(self) -> int:
        return sum(s.rows for s in self.segments)

    @cached_property
    def utilisation(self) -> np.ndarray:
        """Share of one partition per row: RCU/3,000 + WCU/1,000, a linear mix (dynamodb-facts §7.1)."""
        read, write = constant_value(self.read_units), constant_value(self.write_units)
        if read is not None and write is not None:
            return constant(read / PARTITION_READ_UNITS + write / PARTITION_WRITE_UNITS, len(self.read_units))
        result = self.read_units / PARTITION_READ_UNITS
        result += self.write_units / PARTITION_WRITE_UNITS
        return result

    @cached_property
    def per_key(self) -> np.ndarray:
        """Utilisation of each single key value of a row (no copy when no row groups several keys)."""
        if constant_value(self.key_values) is None and bool(np.all(self.key_values == 1)):
            return self.utilisation
        return ratio(self.utilisation, self.key_values)

    def segment_at(self, row: int) -> Segment:
        return next(s for s in self.segments if s.start <= row < s.start + s.rows)

    def part_utilisation_at(self, part: Contribution, rows: np.ndarray) -> np.ndarray:
        """How much of one partition a single contribution puts on each given row (a shard: its share)."""
        hot_row, shards = self.sharded
        rows = np.asarray(rows)
        is_shard = (rows >= self.base_rows) | (rows == hot_row)
        origin = np.where(is_shard, hot_row, rows)
        result = np.zeros(len(rows))
        for segment in self.segments:
            inside = (origin >= segment.start) & (origin < segment.start + segment.rows)
            if part.template != segment.template or not inside.any():
                continue
            shares = part.shares(segment.layout_of(part.entity))
            local = origin[inside] - segment.start
            result[inside] = np.where(local < len(shares), shares[np.minimum(local, len(shares) - 1)], 0.0)
        return result * part.utilisation / np.where(is_shard, shards, 1)


def seeded_rng(seed: int, *parts: str) -> np.random.Generator:
    """A generator per (seed, index, template, entity); Python's hash() is salted, so sha256."""
    digest = hashlib.sha256("/".join((str(seed), *parts)).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def build_index_load(ctx: Context, index: str, templates: dict[str, str], parts: list[Contribution],
                     cap: int, seed: int) -> IndexLoad:
    """Key population and peak load of one physical index (or a what-if template set on it)."""
    segments, start = [], 0
    for template in dict.fromkeys(templates.values()):
        layouts = tuple((e, layout(ctx.model, ctx.entity(e), template, cap))
                        for e, t in templates.items() if t == template)
        rows = max(lay.rows for _, lay in layouts)
        segments.append(Segment(template, start, rows, layouts))
        start += rows
    arrays = Accumulator(start)  # columns constant over all rows (an even one-key-per-item population) stay lazy
    # Share vectors by (segment start, entity, fixed values, newest bucket): the items' draw and the unfixed
    # traffic use the same one, computed once (a zipf over 10 million rows is one of the costliest steps).
    shares: dict[tuple, np.ndarray] = {}
    for segment in segments:
        _fill_population(ctx, index, segment, arrays, seed, shares)
    mine = tuple(p for p in parts if p.index == index and templates.get(p.entity) == p.template)
    _spread(mine, segments, arrays, shares)
    has_lsi = index == TABLE and bool(ctx.design.key_design.local_secondary_indexes)
    return IndexLoad(index, tuple(segments), *(arrays.column(n) for n in ("key_values", "items", "bytes", "read",
                                                                              "write")), mine, has_lsi)


def _spread(parts: tuple[Contribution, ...], segments: list[Segment], arrays: Accumulator,
            known: dict[tuple, np.ndarray]) -> None:
    """Add each contribution's units to the rows, computing each distinct share vector once (in place: the
    arrays can hold 10 million rows, and every temporary costs as much as the arithmetic)."""
    totals: dict[tuple, list[float]] = {}
    for part in parts:
        segment = next(s for s in segments if s.template == part.template)
        rows = segment.layout_of(part.entity)
        newest = part.new_items and any(d.is_time for d in rows.dims)  # only time buckets care
        entry = totals.setdefault((segment.start, part.entity, part.fixed, newest), [0.0, 0.0])
        entry[0] += part.read_units_per_second
        entry[1] += part.write_units_per_second
    for (start, entity, fixed, newest), (read, write) in totals.items():
        segment = next(s for s in segments if s.start == start)
        rows = segment.layout_of(entity)
        shares = known.pop((start, entity, fixed, newest), None)  # popped: scaled() below may write into it
        if shares is None:
            shares = row_shares(rows, dict(fixed), newest)
        window = slice(start, start + rows.rows)
        for name, units in (("read", read), ("write", write)):
            if units:
                arrays.add(name, window, scaled(shares, units, reuse=name == "write"))


def _fill_population(ctx: Context, index: str, segment: Segment, arrays: Accumulator, seed: int,
                     shares: dict[tuple, np.ndarray]) -> None:
    """Items and item-collection bytes per row of one template, summed over its entities."""
    widest = max((lay for _, lay in segment.layouts), key=lambda lay: lay.rows)
    arrays.add("key_values", slice(segment.start, segment.start + widest.rows), widest.key_values)
    for name, rows in segment.layouts:
        entity = ctx.entity(name)
        drawn = None
        if not (len(rows.dims) == 1 and rows.dims[0].per_item):  # row_items draws over the unfixed shares
            drawn = shares.setdefault((segment.start, name, (), False), row_shares(rows, {}, new_items=False))
        items = row_items(rows, float(entity.item_count), seeded_rng(seed, index, segment.template, name), drawn)
        window = slice(segment.start, segment.start + rows.rows)
        arrays.add("items", window, items)
        arrays.add("bytes", window, scaled(items, _entry_bytes(ctx, index, name), reuse=True))


def _entry_bytes(ctx: Context, index: str, name: str) -> float:
    """Bytes one item adds to its key's collection: the item plus its LSI entries (§4.2), or the GSI entry."""
    entity = ctx.entity(name)
    if index == TABLE:
        return ctx.item_bytes.get(name, 0.0) + lsi_entry_bytes(ctx, entity)
    return entry_bytes(ctx, entity, ctx.paths[index])
