"""Per-row columns that may be constant: one value repeated over millions of rows, stored as a zero-stride view.

A population of one key value per item spread evenly (ids, unique attributes) has the same items, bytes and
units on every row. Such a column is `np.broadcast_to(value, (rows,))`: read-only, no memory, and the sums,
maxima and ratios below take it in O(1) instead of touching every row. Every other array passes through.
"""

from __future__ import annotations

import numpy as np


def constant(value: float, rows: int) -> np.ndarray:
    """A read-only column holding `value` on each of `rows` rows (no memory)."""
    return np.broadcast_to(np.float64(value), (rows,))


def constant_value(column: np.ndarray) -> float | None:
    """The value of a constant (zero-stride) column, else None."""
    if column.ndim == 1 and len(column) and column.strides[0] == 0:
        return float(column[0])
    return None


def total(column: np.ndarray) -> float:
    """Sum of a column (rows x value when constant)."""
    value = constant_value(column)
    return value * len(column) if value is not None else float(column.sum())


def largest(column: np.ndarray) -> float:
    """Maximum of a non-empty column."""
    value = constant_value(column)
    return value if value is not None else float(column.max())


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """Row-wise numerator / denominator, constant when both are."""
    top, bottom = constant_value(numerator), constant_value(denominator)
    if top is not None and bottom is not None:
        return constant(top / bottom, len(numerator))
    if bottom == 1.0:
        return numerator
    ratio: np.ndarray = numerator / denominator  # annotated: numpy's stubs type this result Any
    return ratio


def scaled(column: np.ndarray, factor: float, reuse: bool = False) -> np.ndarray:
    """column x factor, constant when the column is; `reuse` writes into a writable column the caller owns."""
    value = constant_value(column)
    if value is not None:
        return constant(value * factor, len(column))
    product: np.ndarray = np.multiply(column, factor, out=column if reuse and column.flags.writeable else None)
    return product  # annotated: numpy's stubs type a ufunc's result Any


def top_rows(values: np.ndarray, count: int) -> np.ndarray:
    """The rows of the `count` largest values, largest first, ties by row: exactly
    `np.argsort(-values, kind="stable")[:count]`, without sorting every row (a full sort of 10 million rows
    takes about a second; this takes two passes)."""
    rows = len(values)
    count = max(0, min(count, rows))
    if constant_value(values) is not None:
        return np.arange(count)
    if rows <= max(4 * count, 4096):
        return np.argsort(-values, kind="stable")[:count]
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    chosen = _top_rows_scouted(values, count)
    if chosen is None:
        threshold = values[np.argpartition(values, rows - count)[rows - count]]  # the count-th largest
        above = np.flatnonzero(values > threshold)
        ties = np.flatnonzero(values == threshold)[:count - len(above)]
        chosen = np.concatenate([above, ties])  # ascending rows within each group, as a stable sort keeps them
        chosen.sort()
    return chosen[np.argsort(-values[chosen], kind="stable")]


_SCOUT_ROWS = 1 << 16  # rows whose count-th largest value bounds the whole column's from below


def _top_rows_scouted(values: np.ndarray, count: int) -> np.ndarray | None:
    """The rows `top_rows` keeps (ascending), found without an argpartition of every row (~0.15 s and an
    80 MB index over 10 million rows), or None where that would not help.

    The count-th largest value of the first `_SCOUT_ROWS` rows, `bound`, is at most the column's. If fewer
    than `count` rows hold more than `bound`, the column's count-th largest is `bound` itself: those rows
    and the first ties of `bound` are the answer. Otherwise it is among the rows above `bound`, usually few.
    A NaN (which argpartition ranks above every number) leaves the plain way."""
    scout = values[:max(_SCOUT_ROWS, 4 * count)]
    bound = np.partition(scout, len(scout) - count)[len(scout) - count]
    if np.isnan(bound) or bool(np.isnan(values).any()):
        return None
    greater = np.flatnonzero(values > bound)
    if len(greater) < count:
        ties = _first_equal_rows(values, bound, count - len(greater))
        return np.sort(np.concatenate([greater, ties]))
    if len(greater) > len(values) // 4:
        return None
    pool = values[greater]
    threshold = pool[np.argpartition(pool, len(pool) - count)[len(pool) - count]]
    above = greater[pool > threshold]
    ties = greater[pool == threshold][:count - len(above)]
    return np.sort(np.concatenate([above, ties]))


def _first_equal_rows(values: np.ndarray, value: float, count: int) -> np.ndarray:
    """The first `count` rows holding `value`, ascending (a chunk at a time: ties may be every row)."""
    found: list[np.ndarray] = []
    wanted = count
    for start in range(0, len(values), 1 << 20):
        rows = np.flatnonzero(values[start:start + (1 << 20)] == value)[:wanted] + start
        found.append(rows)
        wanted -= len(rows)
        if wanted <= 0:
            break
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


class Accumulator:
    """Named float columns over `rows` rows built by adding windows: stays constant while every addition is a
    constant over all rows, materialised (zeros, then in-place adds) on the first one that is not."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self._columns: dict[str, float | np.ndarray] = {}
        self._adopted: set[str] = set()  # columns that are still a caller's array (copied before adding into)

    def add(self, name: str, window: slice, values: np.ndarray, owned: bool = False) -> None:
        """Add `values` over `window`; `owned`: the caller hands a fresh writable array over, which becomes
        the column when it is the first addition over all rows (no zeros, no copy)."""
        current = self._columns.get(name, 0.0)
        value = constant_value(values)
        whole = window.indices(self.rows)[:2] == (0, self.rows) and len(values) == self.rows
        if isinstance(current, float) and value is not None and whole:
            self._columns[name] = current + value
            return
        adopt = owned and whole and values.flags.writeable and values.dtype == np.float64
        if isinstance(current, float) and current == 0.0 and adopt:
            self._columns[name] = values
            self._adopted.add(name)
            return
        if isinstance(current, float) and value is None and whole:  # a constant so far: one pass, not three
            self._columns[name] = np.add(values, current)
            return
        if isinstance(current, float):
            current = np.zeros(self.rows) if current == 0.0 else np.full(self.rows, current)
            self._columns[name] = current
        elif name in self._adopted:  # the caller may still read its array (an item draw): add into a copy
            current = self._columns[name] = current.copy()
            self._adopted.discard(name)
        current[window] += value if value is not None else values

    def column(self, name: str) -> np.ndarray:
        current = self._columns.get(name, 0.0)
        return constant(current, self.rows) if isinstance(current, float) else current


class LazyColumns:
    """Named columns built like `Accumulator`'s (the same additions in the same order, so the same bytes), but
    each only when it is first read. Per-partition sums and totals come from the few vectors the columns are
    sums of (`load.Factored`), so at 10 million rows a column nobody reads row by row (bytes, read and write
    units on the build's path) never costs its passes or its 80 MB. A built column is read-only: it is shared
    by every later reader."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        # per column, its additions in order: (window, vector, factor or None: the vector as it is, owned)
        self._additions: dict[str, list[tuple[slice, np.ndarray, float | None, bool]]] = {}
        self._built: dict[str, np.ndarray] = {}

    def replaced(self, columns: dict[str, np.ndarray], drop: tuple[str, ...] = ()) -> LazyColumns:
        """A copy with the given columns (built already) in place of these, and the `drop` ones left out;
        the other columns keep their additions (built again if both copies read them)."""
        rows = len(next(iter(columns.values()))) if columns else self.rows
        result = LazyColumns(rows)
        gone = {*columns, *drop}
        result._additions = {n: a for n, a in self._additions.items() if n not in gone}
        result._built = {**{n: c for n, c in self._built.items() if n not in gone}, **columns}
        return result

    def add(self, name: str, window: slice, values: np.ndarray, owned: bool = False) -> None:
        """As `Accumulator.add`, when the column is built."""
        self._additions.setdefault(name, []).append((window, values, None, owned))

    def add_scaled(self, name: str, window: slice, vector: np.ndarray, factor: float) -> None:
        """Add `scaled(vector, factor)` over `window` (computed, as a fresh array, when the column is built)."""
        self._additions.setdefault(name, []).append((window, vector, factor, True))

    def __contains__(self, name: str) -> bool:
        return name in self._built or name in self._additions

    def built(self, name: str) -> np.ndarray | None:
        """The column if it is built already (never builds it)."""
        return self._built.get(name)

    def column(self, name: str) -> np.ndarray:
        built = self._built.get(name)
        if built is None:
            accumulator = Accumulator(self.rows)
            for window, vector, factor, owned in self._additions.get(name, ()):
                accumulator.add(name, window, vector if factor is None else scaled(vector, factor), owned)
            built = accumulator.column(name)
            built.flags.writeable = False
            self._built[name] = built
        return built
