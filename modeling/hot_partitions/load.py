"""Peak traffic per key value: each access pattern's units spread over the key values of the index it uses.

APPROXIMATE, like the checks' estimates whose unit functions it reuses: read units per request from
`read_units_per_request` (dynamodb-rules §1.1, §1.2), table writes ceil(item / 1 KB) per item (x2 in a
transaction, §2), index writes from the plan's `index_writes` at ceil(entry / 1 KB) each (§4.1). An LSI
lives on the table's partitions (§4.2), so its reads and writes load the table's key values.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from modeling.design.checks.context import Context
from modeling.design.checks.estimates import entry_bytes, lsi_entry_bytes, read_units_per_request
from modeling.design.plan_units import fetch_units_per_request, uniqueness_read_units_per_request
from modeling.design.planner import AccessPath, membership_share
from modeling.design.plans import TABLE, Operation, PatternPlan
from modeling.errors import ModelingError
from modeling.hot_partitions.columns import LazyColumns, constant, constant_value, ratio, top_rows, total
from modeling.hot_partitions.frames import PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, WRITE_BLOCK_BYTES
from modeling.hot_partitions.population import Layout, layout, row_items, row_shares_known
from modeling.model import AccessPattern, AttributeFilter, Entity, KeyTemplates, PatternKind

BUSIEST_ROWS = 1000  # busiest rows remembered per index: the key table, the profile, the skew and Gini read them
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

    def share_key(self, rows: Layout) -> ShareKey:
        """What its share vector depends on: two contributions with the same key share one vector."""
        return share_key(rows, self.entity, self.fixed, self.new_items)

    @property
    def utilisation(self) -> float:
        """Share of one partition the whole contribution needs (dynamodb-rules §7.1)."""
        return self.read_units_per_second / PARTITION_READ_UNITS + self.write_units_per_second / PARTITION_WRITE_UNITS


def physical_index(path: AccessPath) -> str:
    """The partitions a path uses: a GSI its own, the table and its LSIs the table's (dynamodb-rules §4.2)."""
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
    """The read on the partitions of the path it uses; a fetch after a GSI query on the table's partitions of the
    items it fetches. A read through a uniqueness item counts its owner's GetItem here: the GetItem on the
    uniqueness item reads a partition of its own (one item per unique value, read exactly as often as its owner's
    key is here), which the page does not list (dynamodb-rules §1.2, §4.1)."""
    path = ctx.paths.get(plan.index)
    entity = next((e for e in plan.entities if path is not None and e in path.templates), None)
    if path is None or entity is None:
        return
    rate = pattern.traffic.peak_requests_per_second
    # the estimator's units of the request (a GSI fetch is apart), less the uniqueness item's, which it holds
    units = (read_units_per_request(ctx, plan) - float(uniqueness_read_units_per_request(plan))) * rate
    fetch = float(fetch_units_per_request(plan, ctx.sizes))
    templates = path.templates[entity]
    yield Contribution(pattern.name, physical_index(path), entity, templates.partition_key, units, 0.0, rate,
                       fixed=_fixed(pattern, templates if path.name != TABLE else None))
    fetched = [e for e in plan.entities if e in ctx.keys] if fetch > 0 else []
    for name in fetched:  # each returned item read whole from its own table key (§1.2); filters pin the same values
        yield Contribution(pattern.name, TABLE, name, ctx.keys[name].table.partition_key,
                           fetch * rate / len(fetched), 0.0, rate, fixed=_fixed(pattern, None))


def _write_parts(ctx: Context, pattern: AccessPattern, plan: PatternPlan) -> Iterator[Contribution]:
    """Table writes per entity, then index writes (dynamodb-rules §1.2, §2, §4.1)."""
    rate = pattern.traffic.peak_requests_per_second
    known = {name: found for name in plan.entities if (found := ctx.entity(name)) is not None}
    entities = [e for e in plan.entities if e in known and e in ctx.keys]
    new_items = pattern.kind in _NEW_ITEM_KINDS
    # §2: a transaction's items cost twice; a put that claims a unique value is one (its plan says so), whatever
    # its kind (a sign-up's `write` with a unique email: 1 WCU here since issue 27's D2 counted its items apart)
    transactional = plan.write.transactional if plan.write is not None else pattern.kind is PatternKind.TRANSACT_WRITE
    factor = 2.0 if transactional else 1.0
    for entity in entities:
        blocks = math.ceil(ctx.item_bytes.get(entity, 0.0) / WRITE_BLOCK_BYTES)
        units = plan.items_written_per_request / len(entities) * blocks * factor * rate
        yield Contribution(pattern.name, TABLE, entity, ctx.keys[entity].table.partition_key, 0.0, units, rate,
                           new_items, _fixed(pattern, None))
    for write in plan.index_writes:
        path = ctx.paths.get(write.index)
        if path is None:
            continue
        members = [e for e in entities if e in path.templates]
        for entity in members:
            blocks = math.ceil(entry_bytes(ctx, known[entity], path) / WRITE_BLOCK_BYTES)
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

# (template, entity, pinned values, writes to the newest time bucket): a share vector's identity
ShareKey = tuple[str, str, tuple[tuple[str, str], ...], bool]


def share_key(rows: Layout, entity: str, fixed: tuple[tuple[str, str], ...], new_items: bool) -> ShareKey:
    return rows.template, entity, fixed, new_items and any(d.is_time for d in rows.dims)  # only buckets care


@dataclass(frozen=True, eq=False)
class _VectorFacts:
    """What is known of one read-only vector without another pass over it (None: not known)."""

    vector: np.ndarray
    total: float | None = None  # `columns.total(vector)`
    non_increasing: bool | None = None  # `values[1:] <= values[:-1]` on every row
    whole: bool = False  # whole numbers only (an item draw): sums of it are exact in any order


class ShareVectors:
    """Share vectors of one index by `ShareKey`, each computed once (a zipf over 10 million rows is one of the
    costliest steps) and read-only, as the build, the spread, the item draw and later lookups all read them;
    and the totals of the load's vectors, each a pass over every row, taken once (the item draw and the
    partition count both ask for a share vector's) or known without one (an item draw's)."""

    def __init__(self) -> None:
        self._vectors: dict[ShareKey, np.ndarray] = {}
        self._facts: dict[int, _VectorFacts] = {}  # by id, holding the vector (ids of freed arrays are reused)

    def _known(self, vector: np.ndarray) -> _VectorFacts:
        facts = self._facts.get(id(vector))
        return facts if facts is not None and facts.vector is vector else _VectorFacts(vector)

    def _learn(self, vector: np.ndarray, **facts: Any) -> None:
        self._facts[id(vector)] = replace(self._known(vector), **facts)

    def total(self, vector: np.ndarray) -> float:
        """`columns.total(vector)` of a read-only vector, remembered."""
        known = self._known(vector).total
        if known is None:
            known = total(vector)
            self._learn(vector, total=known)
        return known

    def remember_total(self, vector: np.ndarray, value: float, whole: bool = False) -> None:
        """Record a vector's total known exactly without a pass (what `columns.total` gives); `whole`: the
        vector holds whole numbers (an item draw), so sums of it are exact in any order."""
        self._learn(vector, total=value, **({"whole": True} if whole else {}))

    def whole(self, vector: np.ndarray) -> bool:
        """Whether the vector is known to hold whole numbers only."""
        return self._known(vector).whole

    def get(self, key: ShareKey, rows: Layout) -> np.ndarray:
        vector = self._vectors.get(key)
        if vector is None:
            _, _, fixed, newest = key
            known = row_shares_known(rows, dict(fixed), newest)
            vector = known.vector
            vector.flags.writeable = False
            self._vectors[key] = vector
            self._learn(vector, total=known.total, non_increasing=known.non_increasing)
        return vector

    def non_increasing(self, vector: np.ndarray) -> bool:
        """`values[1:] <= values[:-1]` on every row, known from the normalising pass or compared now."""
        known = self._known(vector).non_increasing
        return known if known is not None else _non_increasing(vector)


@dataclass(frozen=True)
class Segment:
    """The rows of one partition-key template on an index, with each entity's layout."""

    template: str
    start: int
    rows: int
    layouts: tuple[tuple[str, Layout], ...]

    def layout_of(self, entity: str) -> Layout:
        return dict(self.layouts).get(entity, self.layouts[0][1])


# the columns of an index's load, by their attribute names on IndexLoad
COLUMN_NAMES = ("key_values", "items", "collection_bytes", "read_units", "write_units", "utilisation")
_UNIT_COLUMNS = ("read_units", "write_units", "utilisation")


@dataclass(frozen=True, eq=False)
class Factored:
    """How a built index's columns are sums of read-only vectors over row windows. A per-partition sum or a
    total of any of these columns is then a weighted sum of a few per-partition sums of the vectors (one share
    vector gives the reads, writes and utilisation; one item draw gives the items and bytes), instead of one
    pass over every row per column, and the column itself need never be built (`LazyColumns`)."""

    unit_terms: tuple[tuple[int, np.ndarray, float, float], ...]  # (first row, share vector, RCU/s, WCU/s)
    item_terms: tuple[tuple[int, np.ndarray, float], ...] = ()  # (first row, items per row, bytes per item)

    def terms_of(self, name: str) -> list[tuple[int, np.ndarray, float]] | None:
        """(first row, vector, weight) terms whose weighted sum is the column `name`, if they are known."""
        if name in _UNIT_COLUMNS:
            return [(start, vector, _weight(name, read, write)) for start, vector, read, write in self.unit_terms]
        if self.item_terms and name in ("items", "collection_bytes"):
            return [(start, vector, 1.0 if name == "items" else entry) for start, vector, entry in self.item_terms]
        return None


def _weight(name: str, read: float, write: float) -> float:
    if name == "read_units":
        return read
    if name == "write_units":
        return write
    return read / PARTITION_READ_UNITS + write / PARTITION_WRITE_UNITS  # dynamodb-rules §7.1


@dataclass(frozen=True, eq=False)
class IndexLoad:
    """Per key-value row of one physical index: key values, items, bytes and peak units per second.

    The columns (`COLUMN_NAMES`) live in `columns` and are built when first read; `with_columns` gives a
    variant with some of them replaced."""

    index: str
    segments: tuple[Segment, ...]
    columns: LazyColumns = field(repr=False)
    parts: tuple[Contribution, ...]
    has_lsi: bool = False
    sharded: tuple[int, int] = (-1, 1)  # (row split by write sharding, shard count); extra shards are appended
    share_vectors: ShareVectors = field(default_factory=ShareVectors, repr=False)
    factored: Factored | None = field(default=None, repr=False)
    busiest_hint: np.ndarray | None = field(default=None, repr=False)  # the busiest rows, when known already

    @property
    def key_values(self) -> np.ndarray:
        return self.columns.column("key_values")

    @property
    def items(self) -> np.ndarray:
        return self.columns.column("items")

    @property
    def collection_bytes(self) -> np.ndarray:
        return self.columns.column("collection_bytes")

    @property
    def read_units(self) -> np.ndarray:
        """RCU/s at peak, summed over the row's key values."""
        return self.columns.column("read_units")

    @property
    def write_units(self) -> np.ndarray:
        """WCU/s at peak."""
        return self.columns.column("write_units")

    def column(self, name: str) -> np.ndarray:
        """One of `COLUMN_NAMES` (built if it is not yet)."""
        return self.utilisation if name == "utilisation" else self.columns.column(name)

    def column_name(self, values: np.ndarray) -> str | None:
        """Which of this load's built columns `values` is, if any (builds none)."""
        for name in COLUMN_NAMES:
            built = self.__dict__.get(name) if name == "utilisation" else self.columns.built(name)
            if built is values:
                return name
        return None

    def term_total(self, name: str) -> float | None:
        """The column's total from its terms (no pass over the column), if they are known. Equal to
        `total(column)` up to the rounding of the additions' order."""
        terms = self.factored.terms_of(name) if self.factored is not None else None
        totals = self.share_vectors.total
        return None if terms is None else sum(totals(vector) * weight for _, vector, weight in terms)

    def whole_items(self) -> tuple[np.ndarray, float] | None:
        """(items per row, their total) of the one item draw over every row that the items and bytes sum up
        per partition (the other item terms constant: summed from the row counts), when it holds whole
        numbers, so that its per-partition sums are exact in any order (`partitions.place`)."""
        terms = self.factored.terms_of("items") if self.factored is not None else None
        varying = [t for t in terms or () if constant_value(t[1]) is None]
        if len(varying) != 1:
            return None
        start, vector, _ = varying[0]
        if start != 0 or len(vector) != self.columns.rows or not self.share_vectors.whole(vector):
            return None
        return vector, self.share_vectors.total(vector)

    def with_columns(self, columns: dict[str, np.ndarray], **changes: Any) -> IndexLoad:
        """This load with the given columns replaced (and any `changes` to its other fields). The terms no
        longer describe the columns, so they are dropped; the utilisation follows new read or write units
        unless it is given too."""
        stale = ("utilisation",) if {"read_units", "write_units"} & columns.keys() else ()
        return replace(self, columns=self.columns.replaced(columns, drop=stale), factored=None, **changes)

    @property
    def base_rows(self) -> int:
        return sum(s.rows for s in self.segments)

    @cached_property
    def utilisation(self) -> np.ndarray:
        """Share of one partition per row: RCU/3,000 + WCU/1,000, a linear mix (dynamodb-rules §7.1)."""
        if "utilisation" in self.columns:
            return self.columns.column("utilisation")  # summed with the units, one pass
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

    @cached_property
    def ranked(self) -> bool:
        """Per-key load never rises with the row (one zipf, uniform or hot-value dimension): the busiest
        rows are the first ones."""
        single = self._single_share()
        if single is not None and self.share_vectors.non_increasing(single[0]):  # x weight > 0 keeps the order
            return True
        return _non_increasing(self.per_key)

    def _single_share(self) -> tuple[np.ndarray, float] | None:
        """(share vector, weight) when the per-key load is, bit for bit, one share vector times a positive
        weight (one key value per row, one vector over every row, the column not built yet): the build's
        per-key questions are then answered from the vector, and the 10-million-row column is not made."""
        terms = self.factored.terms_of("utilisation") if self.factored is not None else None
        if terms is None or len(terms) != 1 or "per_key" in self.__dict__ or constant_value(self.key_values) != 1.0:
            return None
        start, vector, weight = terms[0]
        return (vector, weight) if start == 0 and len(vector) == self.columns.rows and weight > 0 else None

    def constant_per_key(self) -> float | None:
        """The per-key load when it is the same on every row, else None."""
        single = self._single_share()
        if single is None:
            return constant_value(self.per_key)
        value = constant_value(single[0])
        return None if value is None else value * single[1]

    def per_key_at(self, rows: np.ndarray) -> np.ndarray:
        """`per_key[rows]` (from the share vector while the column is not built)."""
        single = self._single_share()
        loads: np.ndarray = self.per_key[rows] if single is None else single[0][rows] * single[1]
        return loads  # annotated: numpy's stubs type an indexed array Any

    @cached_property
    def _busiest(self) -> np.ndarray:
        if self.busiest_hint is not None:
            return self.busiest_hint
        rows = len(self.key_values)
        return np.arange(min(rows, BUSIEST_ROWS)) if self.ranked else top_rows(self.per_key, BUSIEST_ROWS)

    def busiest_rows(self, count: int) -> np.ndarray:
        """Rows of the `count` busiest key values, busiest first, ties by row (`columns.top_rows`)."""
        return self._busiest[:count] if count <= BUSIEST_ROWS else top_rows(self.per_key, count)

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
            rows_of = segment.layout_of(part.entity)
            shares = self.share_vectors.get(part.share_key(rows_of), rows_of)
            local = origin[inside] - segment.start
            result[inside] = np.where(local < len(shares), shares[np.minimum(local, len(shares) - 1)], 0.0)
        return result * part.utilisation / np.where(is_shard, shards, 1)


_ORDER_CHUNK = 1 << 16  # rows compared per step: no 10-million-row temporaries, and an early exit


def _non_increasing(values: np.ndarray) -> bool:
    """values[1:] <= values[:-1] on every row (a window at a time)."""
    if constant_value(values) is not None:
        return True
    for start in range(0, len(values) - 1, _ORDER_CHUNK):
        window = values[start:start + _ORDER_CHUNK + 1]
        if not bool(np.all(window[1:] <= window[:-1])):
            return False
    return True


def _entity(ctx: Context, name: str) -> Entity:
    """An entity of an index's templates: `index_templates` keeps only the model's own."""
    entity = ctx.entity(name)
    if entity is None:
        raise ModelingError(f"the model has no entity {name!r}")
    return entity


def seeded_rng(seed: int, *parts: str) -> np.random.Generator:
    """A generator per (seed, index, template, entity); Python's hash() is salted, so sha256."""
    digest = hashlib.sha256("/".join((str(seed), *parts)).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def build_index_load(ctx: Context, index: str, templates: dict[str, str], parts: list[Contribution],
                     cap: int, seed: int) -> IndexLoad:
    """Key population and peak load of one physical index (or a what-if template set on it)."""
    segments, start = [], 0
    for template in dict.fromkeys(templates.values()):
        layouts = tuple((e, layout(ctx.model, _entity(ctx, e), template, cap))
                        for e, t in templates.items() if t == template)
        rows = max(lay.rows for _, lay in layouts)
        segments.append(Segment(template, start, rows, layouts))
        start += rows
    arrays = LazyColumns(start)  # built when read; columns constant over all rows stay zero-stride
    shares = ShareVectors()  # the items' draw and the unfixed traffic read the same vector
    item_terms: list[tuple[int, np.ndarray, float]] = []
    for segment in segments:
        item_terms += _fill_population(ctx, index, segment, arrays, seed, shares)
    mine = tuple(p for p in parts if p.index == index and templates.get(p.entity) == p.template)
    unit_terms = _spread(mine, segments, arrays, shares)
    has_lsi = index == TABLE and bool(ctx.design.key_design.local_secondary_indexes)
    factored = Factored(tuple(unit_terms), tuple(item_terms))
    return IndexLoad(index, tuple(segments), arrays, mine, has_lsi, share_vectors=shares, factored=factored)


def _spread(parts: tuple[Contribution, ...], segments: list[Segment], arrays: LazyColumns,
            shares: ShareVectors) -> list[tuple[int, np.ndarray, float, float]]:
    """Add each contribution's units to the rows, with one product per distinct share vector and unit kind
    (the arrays can hold 10 million rows: every pass over them costs as much as the arithmetic)."""
    totals: dict[tuple[int, ShareKey], list[float]] = {}
    for part in parts:
        segment = next(s for s in segments if s.template == part.template)
        entry = totals.setdefault((segment.start, part.share_key(segment.layout_of(part.entity))), [0.0, 0.0])
        entry[0] += part.read_units_per_second
        entry[1] += part.write_units_per_second
    terms = []
    for (start, key), (read, write) in totals.items():
        segment = next(s for s in segments if s.start == start)
        rows = segment.layout_of(key[1])
        vector = shares.get(key, rows)
        window = slice(start, start + rows.rows)
        utilisation = read / PARTITION_READ_UNITS + write / PARTITION_WRITE_UNITS  # dynamodb-rules §7.1
        for name, units in (("read_units", read), ("write_units", write), ("utilisation", utilisation)):
            if units:
                arrays.add_scaled(name, window, vector, units)
        terms.append((start, vector, read, write))
    return terms


def _fill_population(ctx: Context, index: str, segment: Segment, arrays: LazyColumns, seed: int,
                     shares: ShareVectors) -> list[tuple[int, np.ndarray, float]]:
    """Items and item-collection bytes per row of one template, summed over its entities; returns each
    entity's (first row, items per row, bytes per item)."""
    terms = []
    widest = max((lay for _, lay in segment.layouts), key=lambda lay: lay.rows)
    arrays.add("key_values", slice(segment.start, segment.start + widest.rows), widest.key_values)
    for name, rows in segment.layouts:
        entity = _entity(ctx, name)
        # a sparse GSI holds only the items that meet its conditions (only_when), on the key values they pin
        conditions = _only_when(ctx, index, name)
        fixed = tuple(dict.fromkeys((c.attribute, str(c.equals)) for c in conditions))
        count = float(entity.item_count) * (membership_share(entity, conditions) if conditions else 1.0)
        drawn, drawn_total = None, None
        if not (len(rows.dims) == 1 and rows.dims[0].per_item):  # row_items draws over the (pinned) shares
            drawn = shares.get(share_key(rows, name, fixed, False), rows)
            drawn_total = shares.total(drawn) if constant_value(drawn) is None else None  # as the draw sums it
        items, items_total = row_items(rows, count, seeded_rng(seed, index, segment.template, name), drawn,
                                       drawn_total)
        if items_total is not None:
            shares.remember_total(items, items_total, whole=True)  # the draw's counts
        window = slice(segment.start, segment.start + rows.rows)
        entry = _entry_bytes(ctx, index, name)
        arrays.add_scaled("collection_bytes", window, items, entry)
        terms.append((segment.start, items, entry))
        arrays.add("items", window, items, owned=True)
    return terms


def _only_when(ctx: Context, index: str, entity: str) -> tuple[AttributeFilter, ...]:
    """The conditions an entity's items meet to be in a GSI (none on the table)."""
    path = ctx.paths.get(index) if index != TABLE else None
    templates = path.templates.get(entity) if path is not None else None
    return tuple(templates.only_when) if templates is not None else ()


def _entry_bytes(ctx: Context, index: str, name: str) -> float:
    """Bytes one item adds to its key's collection: the item plus its LSI entries (§4.2), or the GSI entry."""
    entity = _entity(ctx, name)
    if index == TABLE:
        return ctx.item_bytes.get(name, 0.0) + lsi_entry_bytes(ctx, entity)
    return entry_bytes(ctx, entity, ctx.paths[index])
