"""How many items share one key value: counts per parent rank and their spread, for `modeling.design.items_read`.

Children choose their parent by a distribution (rank 1 the hottest, the sample-data generator's
convention); the hottest parents are kept one by one and the rest grouped in geometric bins, each row with
its expected count (`lam`) and its share of requests (`prob`, requests even over parents). A parent is
never given more than the relationship's max: the overflow goes to the others in proportion. Around its
expected value a count varies as a Poisson count does (normal for large means).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from modeling.data.distributions import poisson_pmf_table, poisson_support_top, zipf_rank_bins
from modeling.model import Distribution, HotValueDistribution, ZipfDistribution

_EXACT_RANKS = 128  # hottest parents computed one by one; the rest in geometric bins
_BINS = 128
_POISSON_UP_TO = 400.0  # above this mean a count's spread is taken as normal
_POISSON_GROUPS = (4.0, 32.0, 128.0, _POISSON_UP_TO)
_NORMAL_POINTS = np.array([NormalDist().inv_cdf((i + 0.5) / 40) for i in range(40)])


@dataclass(frozen=True)
class Rows:
    """Expected matching items per group of key values (`lam`), and the share of requests each gets."""

    lam: np.ndarray
    prob: np.ndarray
    exact: bool = False  # counts known exactly (one item per key): no Poisson spread
    maximum: float | None = None  # no key value holds more (the relationship's max): the spread stops there

    @property
    def mean(self) -> float:
        return float(np.dot(self.lam, self.prob))


@lru_cache(maxsize=512)
def parent_rows(parents: int, children: float, distribution: Distribution, maximum: int | None) -> Rows:
    """Children per parent, parents grouped by popularity rank; requests even over parents."""
    parents = max(parents, 1)
    if isinstance(distribution, ZipfDistribution):
        sizes, weights = zipf_rank_bins(parents, _EXACT_RANKS, _BINS, distribution.exponent)
        per_parent = children * (weights / weights.sum()) / sizes
    elif isinstance(distribution, HotValueDistribution):
        sizes = np.array([1.0, parents - 1.0]) if parents > 1 else np.ones(1)
        rest = children * (1 - distribution.share) / parents
        per_parent = np.array([children * distribution.share + rest, rest])[: len(sizes)]
    else:
        sizes, per_parent = np.ones(1) * parents, np.array([children / parents])
    if maximum is not None:
        per_parent = water_fill(per_parent, sizes, float(maximum))
    return Rows(per_parent, sizes / sizes.sum(), maximum=None if maximum is None else float(maximum))


def water_fill(per_parent: np.ndarray, sizes: np.ndarray, maximum: float) -> np.ndarray:
    """Cap every parent at `maximum`; the overflow goes to the parents below it, in proportion."""
    total = float(np.dot(per_parent, sizes))
    if maximum * sizes.sum() <= total:
        return np.full_like(per_parent, maximum)
    if float(per_parent.max(initial=0.0)) <= maximum:
        return per_parent  # nobody over the max (no children at all, too): nothing to move
    capped = np.zeros(len(per_parent), dtype=bool)
    result = per_parent
    for _ in range(len(per_parent)):
        free = total - maximum * sizes[capped].sum()
        scale = free / float(np.dot(per_parent[~capped], sizes[~capped]))
        result = np.where(capped, maximum, per_parent * scale)
        newly = (result > maximum) & ~capped
        if not newly.any():
            break
        capped |= newly
    capped_values: np.ndarray = np.minimum(result, maximum)
    return capped_values


def spread_counts(rows: Rows) -> tuple[np.ndarray, np.ndarray]:
    """Counts around small expected values spread as Poisson counts; large ones are kept as they are.

    The spread ignores `rows.maximum`: what no key value can exceed is the caller's to apply (`items_read`
    caps the percentiles and pages, and keeps the mean the model's counts give)."""
    small = (rows.lam <= _POISSON_UP_TO) & (not rows.exact)
    large = ~small & (not rows.exact)
    values, probs = [rows.lam[~small & ~large]], [rows.prob[~small & ~large]]
    if large.any():  # a Poisson count with a large mean is close to normal: equal-probability points of it
        lam = rows.lam[large]
        values.append((lam[:, None] + _NORMAL_POINTS[None, :] * np.sqrt(lam)[:, None]).ravel())
        probs.append(np.repeat(rows.prob[large] / len(_NORMAL_POINTS), len(_NORMAL_POINTS)))
    low = 0.0
    for high in _POISSON_GROUPS:  # each group of rows gets a support just wide enough for its largest mean
        group = small & (rows.lam > low) & (rows.lam <= high) if low else small & (rows.lam <= high)
        low = high
        if not group.any():
            continue
        lam, prob = rows.lam[group], rows.prob[group]
        top = poisson_support_top(lam.max())
        values.append(np.arange(top + 1, dtype=float))
        probs.append(prob @ poisson_pmf_table(lam, top))
    return np.concatenate(values), np.concatenate(probs)
