"""Key populations: how an entity's items and requests spread over the values of a partition-key template.

Each attribute of a template becomes a `Dimension` (how many distinct values, and how skewed, following
the sample-data generators: `modeling.data.distributions.pick_indices` semantics, index 0 the hottest value).
A `Layout` enumerates key values as integer rows: the product of small closed dimensions, or else the
dimension with the most values alone (a composite `TENANT#{t}#STUDENT#{s}` is as many keys as students).
Beyond `cap` rows the coldest ranks are grouped, each row then standing for `key_values[row]` keys.
No strings are rendered except labels of the few keys shown.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from modeling.data.distributions import TimestampRange, time_bucket_seconds, zipf_tail_weight
from modeling.design.checks.estimates import COUNTRY_CODES, COUNTRY_PROVIDERS, parse_template
from modeling.design.collection_sizes import water_fill
from modeling.hot_partitions.columns import constant, constant_value
from modeling.model import (
    BooleanGenerator,
    ConstantGenerator,
    Distribution,
    Entity,
    EnumGenerator,
    FakerGenerator,
    FloatRangeGenerator,
    HotValueDistribution,
    IntRangeGenerator,
    Model,
    ReferenceGenerator,
    TimestampRangeGenerator,
    UniformDistribution,
    ZipfDistribution,
)

_UNIFORM = UniformDistribution(kind="uniform")
_DRAW_CHUNK = 1 << 16  # rows per step of the item draw: its running sums stay in the CPU cache


@dataclass(frozen=True)
class Dimension:
    """The distinct values of one key attribute and how items and requests pick them."""

    attribute: str
    values: float  # distinct values (may exceed the simulation cap)
    distribution: Distribution = _UNIFORM
    weights: tuple[float, ...] | None = None  # explicit weights (enums, booleans) in `labels` order
    labels: tuple[str, ...] = ()  # value names of a small closed set
    is_time: bool = False  # a time bucket: new items and writes go to the newest value (index 0)
    per_item: bool = False  # about one value per item (identifier, unique or free-form attribute)
    maximum_items: float | None = None  # items one value holds at most (the relationship's cardinality max)


def dimension(model: Model, entity: Entity, name: str) -> Dimension:
    """The dimension of one attribute of an entity, read from its generator (or relationship)."""
    items = float(max(entity.item_count, 1))
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute is not None else None
    bucket = time_bucket_seconds(entity, name)
    if bucket is not None and bucket >= 1:  # dynamodb-rules §7.1: the "now" bucket takes every write
        return Dimension(name, _time_values(generator, bucket, items), is_time=True)
    if isinstance(generator, ConstantGenerator):
        return Dimension(name, 1.0, labels=(str(generator.value),))
    if isinstance(generator, EnumGenerator):
        return Dimension(name, float(len(generator.values)), generator.distribution, generator.weights,
                         generator.values)
    if isinstance(generator, BooleanGenerator):
        return Dimension(name, 2.0, weights=(generator.true_share, 1 - generator.true_share),
                         labels=("true", "false"))
    if isinstance(generator, ReferenceGenerator):
        return _reference(model, entity, name, generator)
    if isinstance(generator, FakerGenerator) and generator.provider in COUNTRY_PROVIDERS:
        return Dimension(name, float(COUNTRY_CODES))
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator) and not (attribute and attribute.unique):
        scale = 10 ** generator.decimals if isinstance(generator, FloatRangeGenerator) else 1
        return Dimension(name, min(float((generator.max - generator.min) * scale + 1), items), generator.distribution)
    return _from_relationship(model, entity, name) or Dimension(name, items, per_item=True)


def _time_values(generator: object, bucket_seconds: float, items: float) -> float:
    """Buckets in a timestamp generator's range (uniform over it), at most one per item."""
    if not isinstance(generator, TimestampRangeGenerator):
        return items
    return TimestampRange.of(generator).buckets(bucket_seconds, items)


def _reference(model: Model, entity: Entity, name: str, generator: ReferenceGenerator) -> Dimension:
    """A foreign key: one value per parent item, skewed by the generator or the relationship cardinality."""
    parent = model.entity(generator.entity)
    values = float(max(parent.item_count, 1)) if parent is not None else float(max(entity.item_count, 1))
    related = _from_relationship(model, entity, name)
    if isinstance(generator.distribution, UniformDistribution) and related is not None:
        return related
    return Dimension(name, values, generator.distribution,
                     maximum_items=related.maximum_items if related is not None else None)


def _from_relationship(model: Model, entity: Entity, name: str) -> Dimension | None:
    """A child attribute holding its parent's identifier: parents' count, the cardinality's skew and max."""
    for relationship in model.relationships:
        parent = model.entity(relationship.parent)
        if relationship.child == entity.name and name in relationship.child_attributes and parent is not None:
            maximum = relationship.cardinality.max
            return Dimension(name, float(max(parent.item_count, 1)), relationship.cardinality.distribution,
                             maximum_items=None if maximum is None else float(maximum))
    return None


# --- layouts ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """How key values of one (entity, template) map to rows: `dims` enumerated as a product (row-major)."""

    template: str
    dims: tuple[Dimension, ...]
    key_values: np.ndarray  # real key values per row (1.0 unless the row groups cold ranks)

    @property
    def rows(self) -> int:
        return len(self.key_values)


def layout(model: Model, entity: Entity, template: str, cap: int) -> Layout:
    """The row layout of a template for an entity; at most `cap` rows."""
    dims = tuple(dimension(model, entity, n) for n in dict.fromkeys(parse_template(template).attribute_names))
    if not dims:
        return Layout(template, (), constant(1.0, 1))
    if all(not d.per_item for d in dims) and math.prod(d.values for d in dims) <= cap:
        rows = round(math.prod(d.values for d in dims))
        return Layout(template, dims, constant(1.0, rows))
    dominant = max(dims, key=lambda d: (d.values, d.per_item))
    return Layout(template, (dominant,), _grouped_key_values(dominant.values, cap))


def _grouped_key_values(values: float, cap: int) -> np.ndarray:
    """Key values per row: one each up to `cap`; beyond, cap/2 single ranks then even groups of the rest."""
    if values <= cap:
        return constant(1.0, max(1, round(values)))
    exact = cap // 2
    edges = np.linspace(exact, values, cap - exact + 1)
    return np.concatenate([np.ones(exact), np.diff(edges)])


def _rank_edges(key_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and last 1-based rank each row covers."""
    if constant_value(key_values) == 1.0:  # one key value per row: ranks 1..rows
        ranks = np.arange(1, len(key_values) + 1, dtype=float)
        return ranks, ranks
    last = np.cumsum(key_values)
    return last - key_values + 1, last


@dataclass(frozen=True)
class Shares:
    """A share vector with what its normalising pass learnt of it at no extra pass over memory: its total
    (`float(vector.sum())` bit for bit) and whether it never rises with the row (None: not known)."""

    vector: np.ndarray
    total: float | None = None
    non_increasing: bool | None = None


def dimension_weights(dim: Dimension, key_values: np.ndarray) -> np.ndarray:
    """Share of items (and requests) per row of one dimension; sums to 1."""
    return dimension_shares(dim, key_values).vector


def dimension_shares(dim: Dimension, key_values: np.ndarray) -> Shares:
    """`dimension_weights` with its total and order (`Shares`)."""
    if dim.weights is not None:
        weights = np.asarray(dim.weights, dtype=float)
    elif isinstance(dim.distribution, ZipfDistribution):
        if constant_value(key_values) == 1.0:  # single ranks: the powers and their total in one pass
            return normalise(*rank_powers_and_total(len(key_values), dim.distribution.exponent))
        weights = _zipf_rows(dim.distribution.exponent, key_values)
    elif constant_value(key_values) is not None and not isinstance(dim.distribution, HotValueDistribution):
        return Shares(constant(1.0 / len(key_values), len(key_values)))  # even: every row the same share
    else:
        weights = key_values / key_values.sum()
        if isinstance(dim.distribution, HotValueDistribution):  # pick_indices: share to 0, rest uniform
            weights = weights * (1 - dim.distribution.share)
            weights[0] += dim.distribution.share
    return normalise(weights)  # every branch above made a new array


_LEAF_ROWS = 1 << 16  # rows of a summation leaf: divided, summed and compared while in the CPU cache


def pairwise_total(values: np.ndarray, leaf_total: Callable[[int, int], float]) -> float:
    """`float(values.sum())` of a contiguous float64 vector, bit for bit, from the totals of its leaves.

    NumPy sums such a vector pairwise: halves of n // 2 rounded down to a multiple of 8, recursively, down
    to blocks it sums directly; the total of a block is exactly what it gives for the block alone. So the
    vector is cut the same way down to leaves of at most `_LEAF_ROWS`, `leaf_total(start, stop)` sums
    each (in row order: a caller may change a leaf just before summing it) and the halves are added as NumPy
    adds them. tests/modeling/test_hot_partition_scale.py checks this against `values.sum()`."""
    return _pairwise_node(0, len(values), leaf_total)


def _pairwise_node(start: int, rows: int, leaf_total: Callable[[int, int], float]) -> float:
    # a module function, not a closure calling itself: that would be a reference cycle holding the vector
    # until the garbage collector runs (80 MB more resident per build)
    if rows <= _LEAF_ROWS:
        return leaf_total(start, start + rows)
    half = rows // 2
    half -= half % 8
    return _pairwise_node(start, half, leaf_total) + _pairwise_node(start + half, rows - half, leaf_total)


def normalise(weights: np.ndarray, weights_total: float | None = None) -> Shares:
    """`weights /= weights.sum()` in place (the same bits), returning the result's total and order: the
    division, the second total and the comparison go a cache-sized leaf at a time, in one pass over memory
    instead of three. `weights_total`: `float(weights.sum())` if the caller has it."""
    if weights_total is None:
        weights_total = float(weights.sum())
    ordered = True

    def divide_and_sum(start: int, stop: int) -> float:
        nonlocal ordered
        leaf = np.divide(weights[start:stop], weights_total, out=weights[start:stop])
        if ordered:  # the leaf and the last row before it
            ordered = bool(np.all(weights[start + 1:stop] <= weights[start:stop - 1])) and (
                start == 0 or bool(weights[start] <= weights[start - 1]))
        return float(leaf.sum())
    total = pairwise_total(weights, divide_and_sum)
    return Shares(weights, total, ordered)


def rank_powers(ranks: int, exponent: float) -> np.ndarray:
    """k^-s for k = 1 .. ranks. Only ranks prime to 6 take a power (the costly step over 10 million rows):
    an even rank is 2^-s times its half and an odd multiple of 3 is 3^-s times its third, filled in blocks
    of ranks (doubling, then `_POWER_BLOCK` at a time) so that every half and third is known before it is
    used. Equal to `np.arange(1, ranks + 1.0) ** -exponent` within a few units in the last place (one
    product per factor)."""
    powers = _RankPowers(ranks, exponent)
    powers.fill_to(ranks)
    return powers.weights


def rank_powers_and_total(ranks: int, exponent: float) -> tuple[np.ndarray, float]:
    """`rank_powers` and `float(weights.sum())`, each summation leaf summed as soon as it is filled (one
    pass over memory, not two)."""
    powers = _RankPowers(ranks, exponent)

    def fill_and_sum(start: int, stop: int) -> float:
        powers.fill_to(stop)
        return float(powers.weights[start:stop].sum())
    return powers.weights, pairwise_total(powers.weights, fill_and_sum)


_POWER_BLOCK = 1 << 16  # ranks filled per step once past the doubling start: the block stays in the CPU cache


class _RankPowers:
    """`rank_powers` filled in rank order, a block at a time. NumPy's strided loops are slower than its
    contiguous ones, so each block's powers and products are computed into a contiguous buffer and then
    copied into their strided places (the same ufuncs on the same values: the same bits)."""

    def __init__(self, ranks: int, exponent: float) -> None:
        self.weights = np.empty(ranks)  # weights[k - 1] is rank k
        self._exponent = -exponent
        self._two, self._three = 2.0 ** -exponent, 3.0 ** -exponent
        self._buffer = np.empty(_POWER_BLOCK // 2 + 8)
        self._filled = 0  # ranks 1 .. _filled are known

    def fill_to(self, last: int) -> None:
        """Fill ranks up to `last`."""
        while self._filled < last:
            low = self._filled + 1  # ranks low .. high - 1 come from ranks below low, all known
            high = min(last + 1, 2 * low if low < _POWER_BLOCK else low + _POWER_BLOCK)
            self._fill_block(low, high)
            self._filled = high - 1

    def _fill_block(self, low: int, high: int) -> None:
        weights, buffer = self.weights, self._buffer
        for first in (1, 5):  # ranks 6j + 1 and 6j + 5 in the block take a power
            start = low + (first - low) % 6
            if start < high:
                column = buffer[:(high - 1 - start) // 6 + 1]
                column[:] = np.arange(start, high, 6, dtype=float)
                weights[start - 1:high - 1:6] = np.power(column, self._exponent, out=column)
        half_first, half_last = (low + 1) // 2, (high - 1) // 2  # halves m of the even ranks 2m in the block
        if half_first <= half_last:
            halves = weights[half_first - 1:half_last]
            weights[2 * half_first - 1:2 * half_last:2] = np.multiply(halves, self._two, out=buffer[:len(halves)])
        odd_first = (low + 2) // 3 | 1  # the smallest odd m with 3m >= low
        odd_last = (high - 1) // 3  # the largest m with 3m < high
        odd_last -= 1 - odd_last % 2  # ... that is odd
        if odd_first <= odd_last:  # ranks 3m for odd m: 3 x (odd_first .. odd_last, step 2)
            thirds = weights[odd_first - 1:odd_last:2]
            weights[3 * odd_first - 1:3 * odd_last:6] = np.multiply(thirds, self._three, out=buffer[:len(thirds)])


def _zipf_rows(exponent: float, key_values: np.ndarray) -> np.ndarray:
    """Zipf weight of each row: k^-s for single ranks, the integral of x^-s over grouped ranks."""
    if constant_value(key_values) == 1.0:
        return rank_powers(len(key_values), exponent)
    first, last = _rank_edges(key_values)
    weights = first ** -exponent
    grouped = key_values > 1 if constant_value(key_values) != 1.0 else np.zeros(0, dtype=bool)
    if grouped.any():
        low, high = first[grouped] - 0.5, last[grouped] + 0.5
        weights[grouped] = zipf_tail_weight(low, high, exponent)
    return weights


def row_shares(rows: Layout, fixed: dict[str, str], new_items: bool) -> np.ndarray:
    """Share of a pattern's requests per row: the dimensions' weights, one value where the pattern fixes it.

    Filters and sparse-index conditions (`fixed`) pin one value; writing new items pins the newest time bucket.
    """
    return row_shares_known(rows, fixed, new_items).vector


def row_shares_known(rows: Layout, fixed: dict[str, str], new_items: bool) -> Shares:
    """`row_shares` with the total and order its one dimension's weights came with (`Shares`), if any."""
    shares, known = np.ones(1), Shares(np.ones(1))
    for dim in rows.dims:
        key_values = rows.key_values if len(rows.dims) == 1 else np.ones(round(dim.values))
        known = dimension_shares(dim, key_values)
        weights = known.vector
        if dim.attribute in fixed or (new_items and dim.is_time):
            pinned = np.zeros(len(weights))
            pinned[_value_index(dim, fixed.get(dim.attribute))] = 1.0
            weights = pinned
        shares = np.kron(shares, weights) if len(rows.dims) > 1 else weights
    return known if len(rows.dims) == 1 and shares is known.vector else Shares(shares)


def _value_index(dim: Dimension, value: str | None) -> int:
    """Row of a fixed value in a dimension: its label's position, else the hottest (0)."""
    return dim.labels.index(value) if value is not None and value in dim.labels else 0


def row_items(rows: Layout, items: float, rng: np.random.Generator, shares: np.ndarray | None = None,
              shares_total: float | None = None) -> tuple[np.ndarray, float | None]:
    """Items per row: exact for one-per-item keys, a seeded stratified draw over the weights otherwise; and
    their total when the draw knows it exactly (`stratified_counts`), else None.

    `shares`: `row_shares(rows, {}, new_items=False)` already computed by the caller (read, not changed), and
    `shares_total` its sum if the caller has it."""
    if len(rows.dims) == 1 and rows.dims[0].per_item:
        each = constant_value(rows.key_values)
        if each is not None:  # one key value per row: the same items on every row (no memory)
            return constant(each * (items / (each * rows.rows)), rows.rows), None
        return rows.key_values * (items / rows.key_values.sum()), None
    if shares is None:
        shares = row_shares(rows, {}, new_items=False)
    maximum = rows.dims[0].maximum_items if len(rows.dims) == 1 else None
    capped = shares if maximum is None else capped_shares(shares, rows.key_values, items, maximum, shares_total)
    if capped is shares:
        return stratified_counts(round(items), shares, rng, shares_total)
    counts, _ = stratified_counts(round(items), capped, rng)
    # a row at the max gets its floor or ceiling: the ceiling of 500.000...1 would be one loan too many
    return np.minimum(counts, np.floor(maximum * rows.key_values)), None


def capped_shares(shares: np.ndarray, key_values: np.ndarray, items: float, maximum: float,
                  shares_total: float | None = None) -> np.ndarray:
    """Shares of items per row with no key value above `maximum` items (a member holds at most 500 loans):
    the overflow goes to the others in proportion, as `items_read` caps a collection (`water_fill`).
    `shares` itself, unchanged, when no key value reaches the max."""
    total = float(shares.sum()) if shares_total is None else shares_total
    per_key = shares * (items / total) / key_values
    if not len(per_key) or float(per_key.max()) <= maximum:
        return shares
    capped_shares: np.ndarray = water_fill(per_key, key_values, maximum) * key_values / items
    return capped_shares


_EXACT_COUNTS = 2.0 ** 50  # below it, whole numbers and their sums are exact floats (53-bit mantissa)


def stratified_counts(items: int, shares: np.ndarray, rng: np.random.Generator,
                      shares_total: float | None = None) -> tuple[np.ndarray, float | None]:
    """`items` items spread over rows in proportion to `shares`, as whole numbers summing to `items`.

    Row k gets floor(u + C_k) - floor(u + C_(k-1)), with C_k the expected items (items x share) of rows
    0..k and u one seeded uniform in [0, 1): the j-th item (j = 1..items) lands on the first row whose C_k
    reaches j - u (systematic sampling). Each row gets the floor or the ceiling of its expected count, and
    exactly its expected count on average over seeds. A multinomial draw (independent items) took 2.5 s
    over 10 million rows; this is one pass in cache-sized chunks. As floats (the load's columns are float).

    Also returns the counts' total without a pass over them, when it is exact: the counts are whole numbers
    that telescope to floor(items + u) - floor(u), so below 2^50 every partial sum of `counts.sum()`, in
    whatever order, is a whole number held exactly, and it equals that difference bit for bit (else None).
    `shares_total`: `float(shares.sum())` if the caller has it.
    """
    rows = len(shares)
    if items <= 0 or not rows:
        return np.zeros(rows), None
    total = float(shares.sum()) if shares_total is None else shares_total
    scale, u = items / total, rng.random()
    running = u  # u + the expected items of the rows before
    counts, step = np.empty(rows), min(rows, _DRAW_CHUNK)
    cumulative, floors = np.empty(step), np.empty(step + 1)
    floors[0] = 0.0  # floor(u)
    for start in range(0, rows, step):
        size = min(step, rows - start)
        chunk = np.multiply(shares[start:start + size], scale, out=cumulative[:size])
        np.cumsum(chunk, out=chunk)
        chunk += running
        if start + size == rows:
            chunk[-1] = items + u  # the rounding of the running sum never loses or adds an item
        running = float(chunk[-1])
        np.floor(chunk, out=floors[1:size + 1])
        np.subtract(floors[1:size + 1], floors[:size], out=counts[start:start + size])
        floors[0] = floors[size]
    return counts, (float(floors[0]) if items < _EXACT_COUNTS else None)  # floor(u) is 0: u is in [0, 1)


def row_label(rows: Layout, row: int) -> str:
    """Readable key value of one row: enum values as they are, other values by rank (`<rank 3>`)."""
    if not rows.dims:
        return rows.template
    sizes = [round(d.values) for d in rows.dims] if len(rows.dims) > 1 else [rows.rows]
    positions = np.unravel_index(row, sizes)
    texts = {d.attribute: _value_text(d, int(p), rows if len(rows.dims) == 1 else None)
             for d, p in zip(rows.dims, positions, strict=True)}
    return "".join(texts.get(s.text, f"<{s.text}>") if s.is_attribute else s.text
                   for s in parse_template(rows.template).segments)


def _value_text(dim: Dimension, position: int, grouped: Layout | None) -> str:
    if dim.labels:
        return dim.labels[position]
    if dim.is_time:
        return "<newest>" if position == 0 else f"<{position} buckets back>"
    if grouped is not None and grouped.key_values[position] > 1:
        start = int(np.sum(grouped.key_values[:position])) + 1
        return f"<ranks {start:,}-{start + int(grouped.key_values[position]) - 1:,}>"
    return f"<rank {position + 1:,}>"
