"""Value distributions, one home: how often each value of a key or an attribute occurs.

A model states how values spread in a few ways (`modeling.model`): a distribution over ranked values
(`uniform`, `zipf`, `hot_value`), explicit enum weights, and a timestamp range with its recent bias; a
relationship's children per parent vary around their mean as a Poisson count does. Each is a small frozen
type here with its `mean`, its `quantile(q)` and `draw(rng, size)` (numpy's `Generator`). Ranked values are
indices, 0 the hottest; the sample data draws them (`pick_indices`), the design checks take the share of the
heaviest value (`top_share`), the items-read estimate and the hot-partition simulation take every value's share
(`value_shares`, `zipf_rank_bins`, `zipf_tail_weight`). Time attributes: how long one value lasts
(`time_bucket_seconds`) and how many such values a range holds (`TimestampRange.buckets`).

Each caller's arithmetic is kept as it was (the same expression in the same order), so designs, estimates,
hot-partition results and seeded sample data do not move by a bit: the Zipf weights of the sample draw are
`1 / k**s` and those of the estimates `k**-s`, which can differ in the last place.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import cache
from typing import overload

import numpy as np
import numpy.typing as npt

from modeling.model import (
    Distribution,
    Entity,
    EnumGenerator,
    HotValueDistribution,
    TimestampFormat,
    TimestampRangeGenerator,
    ZipfDistribution,
)

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.int64]

# Ranks summed one by one before the rest of a Zipf normaliser is taken as an integral (`harmonic_number`).
EXACT_HARMONIC_TERMS = 1000


def _inverted_cdf(shares: FloatArray, q: float) -> int:
    """The smallest index whose cumulative share reaches `q` (numpy's `inverted_cdf` quantile)."""
    cumulative = np.cumsum(shares)
    return int(min(np.searchsorted(cumulative, q * cumulative[-1]), len(shares) - 1))


# --- values ranked by popularity (index 0 the hottest) ------------------------------------------------


@dataclass(frozen=True)
class Uniform:
    """Every one of `count` values equally likely."""

    count: int

    @property
    def mean(self) -> float:
        return (self.count - 1) / 2

    def quantile(self, q: float) -> float:
        return float(max(math.ceil(q * self.count) - 1, 0))

    def shares(self) -> FloatArray:
        weights = np.ones(self.count)
        shares: FloatArray = weights / weights.sum()
        return shares

    def draw(self, rng: np.random.Generator, size: int) -> IndexArray:
        return rng.integers(0, self.count, size=size)


@dataclass(frozen=True)
class Zipf:
    """The value of rank k (index k - 1) has weight k^-exponent, over `count` values."""

    count: int
    exponent: float

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(self.count, dtype=float), self.shares()))

    def quantile(self, q: float) -> float:
        return float(_inverted_cdf(self.shares(), q))

    def weights(self) -> FloatArray:
        """k^-s for k = 1 .. count (unnormalised)."""
        return np.arange(1, self.count + 1, dtype=float) ** -self.exponent

    def shares(self) -> FloatArray:
        weights = self.weights()
        shares: FloatArray = weights / weights.sum()
        return shares

    def draw(self, rng: np.random.Generator, size: int) -> IndexArray:
        weights = 1.0 / np.arange(1, self.count + 1) ** self.exponent  # the sample data's own expression
        return rng.choice(self.count, size=size, p=weights / weights.sum())

    @property
    def top_share(self) -> float:
        """The expected share of the heaviest value: 1 / H(count, exponent)."""
        return 1.0 / harmonic_number(self.count, self.exponent)


@dataclass(frozen=True)
class HotValue:
    """Value 0 takes `share` of the draws; every draw that is not hot is uniform over all `count` values."""

    count: int
    share: float

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(self.count, dtype=float), self.shares()))

    def quantile(self, q: float) -> float:
        return float(_inverted_cdf(self.shares(), q))

    def shares(self) -> FloatArray:
        weights = np.full(self.count, (1 - self.share) / self.count)
        weights[0] += self.share
        shares: FloatArray = weights / weights.sum()
        return shares

    def draw(self, rng: np.random.Generator, size: int) -> IndexArray:
        hot = rng.random(size) < self.share
        return np.where(hot, 0, rng.integers(0, self.count, size=size))


@dataclass(frozen=True)
class Weighted:
    """Index i drawn in proportion to `weights[i]` (an enum generator's explicit weights)."""

    weights: tuple[float, ...]

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(len(self.weights), dtype=float), self.shares()))

    def quantile(self, q: float) -> float:
        return float(_inverted_cdf(self.shares(), q))

    def shares(self) -> FloatArray:
        weights = np.asarray(self.weights, dtype=float)
        shares: FloatArray = weights / weights.sum()
        return shares

    @property
    def top_share(self) -> float:
        return max(self.weights) / sum(self.weights)

    def draw(self, rng: np.random.Generator, size: int) -> IndexArray:
        return rng.choice(len(self.weights), size=size, p=self.shares())


RankDistribution = Uniform | Zipf | HotValue


def ranked(distribution: Distribution, count: int) -> RankDistribution:
    """The distribution a model states over `count` ranked values."""
    if isinstance(distribution, ZipfDistribution):
        return Zipf(count, distribution.exponent)
    if isinstance(distribution, HotValueDistribution):
        return HotValue(count, distribution.share)
    return Uniform(count)


def enum_values(generator: EnumGenerator) -> RankDistribution | Weighted:
    """How an enum generator picks its values: its weights, else its distribution."""
    if generator.weights is not None:
        return Weighted(generator.weights)
    return ranked(generator.distribution, len(generator.values))


def pick_indices(rng: np.random.Generator, value_count: int, size: int, distribution: Distribution) -> IndexArray:
    """Indices into `value_count` values, skewed as the distribution says (index 0 is the hottest)."""
    if value_count <= 0:
        return np.zeros(size, dtype=np.int64)
    return ranked(distribution, value_count).draw(rng, size)


def value_shares(count: int, distribution: Distribution) -> FloatArray:
    """Share of each of `count` values under a distribution (index 0 the hottest)."""
    return ranked(distribution, count).shares()


@cache
def harmonic_number(count: float, exponent: float) -> float:
    """H(n, s) = sum of k^-s for k = 1..n: exact for 1,000 terms, then the integral of the tail."""
    exact = int(min(count, EXACT_HARMONIC_TERMS))
    total = math.fsum(k ** -exponent for k in range(1, exact + 1))
    if count > exact:
        total += zipf_tail_weight(exact + 0.5, count + 0.5, exponent)
    return total


@overload
def zipf_tail_weight(low: float, high: float, exponent: float) -> float: ...


@overload
def zipf_tail_weight(low: FloatArray, high: FloatArray, exponent: float) -> FloatArray: ...


def zipf_tail_weight(low: float | FloatArray, high: float | FloatArray, exponent: float) -> float | FloatArray:
    """The Zipf weight of the ranks from `low` to `high`: the integral of x^-s over [low, high] (ranks k cover
    [k - 0.5, k + 0.5]). Floats or arrays alike (`math.log` for floats, `np.log` for arrays)."""
    if exponent == 1:
        if isinstance(low, np.ndarray) or isinstance(high, np.ndarray):
            return np.log(high / low)
        return math.log(high / low)
    return (high ** (1 - exponent) - low ** (1 - exponent)) / (1 - exponent)


def zipf_rank_bins(count: int, exact_ranks: int, bins: int, exponent: float) -> tuple[FloatArray, FloatArray]:
    """(ranks per row, Zipf weight per row): the `exact_ranks` hottest one by one, the rest in about `bins`
    geometric bins weighted by `zipf_tail_weight`."""
    exact = min(count, exact_ranks)
    sizes = [np.ones(exact)]
    weights = [np.arange(1, exact + 1, dtype=float) ** -exponent]
    if count > exact:
        edges = np.unique(np.round(np.geomspace(exact + 1, count + 1, bins + 1)))
        low, high = edges[:-1] - 0.5, edges[1:] - 0.5
        sizes.append(edges[1:] - edges[:-1])
        weights.append(zipf_tail_weight(low, high, exponent))
    return np.concatenate(sizes), np.concatenate(weights)


def top_share(distribution: Distribution, count: float) -> float:
    """Share of occurrences taken by the most common of `count` values (the design checks' estimate: a hot
    value takes its share and the rest spread over the other values)."""
    if count <= 1:
        return 1.0
    if isinstance(distribution, ZipfDistribution):
        return 1.0 / harmonic_number(count, distribution.exponent)
    if isinstance(distribution, HotValueDistribution):
        return max(distribution.share, (1 - distribution.share) / (count - 1))
    return 1.0 / count


def weighted_quantile(values: FloatArray, probs: FloatArray, q: float) -> float:
    """The smallest value whose cumulative probability reaches `q` (values in any order)."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(probs[order])
    position = int(np.searchsorted(cumulative, q * cumulative[-1]))
    return float(values[order][min(position, len(values) - 1)])


# --- counts --------------------------------------------------------------------------------------------


def poisson_pmf_table(lam: FloatArray, top: int) -> FloatArray:
    """P(count = k) for k = 0 .. top (columns), one row per mean in `lam` (a mean of 0 is always 0)."""
    k = np.arange(top + 1, dtype=float)
    log_factorial = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, top + 1)))])
    with np.errstate(divide="ignore", invalid="ignore"):  # a mean of 0: log 0 = -inf and 0 x -inf, masked below
        log_pmf = k[None, :] * np.log(lam)[:, None] - lam[:, None] - log_factorial[None, :]
    pmf: FloatArray = np.where(lam[:, None] > 0, np.exp(log_pmf), (k == 0)[None, :].astype(float))
    return pmf


def poisson_support_top(lam: float) -> int:
    """The largest count worth listing for a Poisson count of mean up to `lam` (mean + 8 sd + 10)."""
    return math.ceil(lam + 8 * math.sqrt(lam) + 10)


@dataclass(frozen=True)
class Poisson:
    """A count with mean `lam`: how a key value's items vary around their expected number."""

    lam: float

    @property
    def mean(self) -> float:
        return self.lam

    def quantile(self, q: float) -> float:
        pmf = poisson_pmf_table(np.array([self.lam]), poisson_support_top(self.lam))[0]
        return float(_inverted_cdf(pmf, q))

    def draw(self, rng: np.random.Generator, size: int) -> IndexArray:
        return rng.poisson(self.lam, size=size)


# --- timestamps ----------------------------------------------------------------------------------------


RECENT_BIAS_SCALE = 0.9  # a recent bias of 1 draws fraction u^0.1 of the range: most values near its end


def parse_moment(text: str) -> datetime:
    """An ISO-8601 date or timestamp as an aware datetime (no zone: UTC)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def format_moment(moment: datetime, fmt: TimestampFormat) -> str | Decimal:
    """A moment as a timestamp generator's format writes it (epoch numbers as `Decimal`)."""
    if fmt is TimestampFormat.EPOCH_SECONDS:
        return Decimal(int(moment.timestamp()))
    if fmt is TimestampFormat.EPOCH_MILLISECONDS:
        return Decimal(int(moment.timestamp() * 1000))
    if fmt is TimestampFormat.DATE:
        return moment.date().isoformat()
    return moment.isoformat().replace("+00:00", "Z")


def format_resolution_seconds(fmt: TimestampFormat) -> float:
    """How long one value of a timestamp format lasts: a day for a date, a millisecond, else a second."""
    return {TimestampFormat.DATE: 86400.0, TimestampFormat.EPOCH_MILLISECONDS: 0.001}.get(fmt, 1.0)


@dataclass(frozen=True)
class TimestampRange:
    """A moment between `start` and `end`: fraction u^(1 - 0.9 x recent_bias) of the range, u uniform on [0, 1).

    `mean` and `quantile` are fractions of the range (0 the start, 1 the end)."""

    start: datetime
    end: datetime
    recent_bias: float = 0.0
    format: TimestampFormat = TimestampFormat.ISO_8601

    @classmethod
    def of(cls, generator: TimestampRangeGenerator) -> TimestampRange:
        return cls(parse_moment(generator.start), parse_moment(generator.end), generator.recent_bias,
                   generator.format)

    @property
    def power(self) -> float:
        return 1.0 - self.recent_bias * RECENT_BIAS_SCALE

    @property
    def span_seconds(self) -> float:
        return (self.end - self.start).total_seconds()

    @property
    def mean(self) -> float:
        return 1.0 / (1.0 + self.power)  # E[u^a] = 1 / (a + 1)

    def quantile(self, q: float) -> float:
        return float(q ** self.power)  # u^a increases with u

    def draw(self, rng: np.random.Generator, size: int) -> FloatArray:
        """Fractions of the range (bias towards its end)."""
        fractions: FloatArray = rng.random(size) ** self.power
        return fractions

    def moments(self, rng: np.random.Generator, size: int) -> list[datetime]:
        """Drawn moments, whole seconds."""
        start, span = self.start, self.end - self.start
        moments = [start + timedelta(seconds=float(f) * span.total_seconds()) for f in self.draw(rng, size)]
        return [m.replace(microsecond=0) for m in moments]

    def buckets(self, bucket_seconds: float, items: float) -> float:
        """Buckets of `bucket_seconds` in the range, at least one and at most one per item."""
        return float(min(max(1.0, math.ceil(self.span_seconds / bucket_seconds)), items))


_TIME_NAME = re.compile(r"(?i:date|time|timestamp|day|hour|minute|week|month|year)$|[a-z0-9](At|On)$|_(?i:at|on)$")
_BUCKET_SECONDS = {"minute": 60, "hour": 3600, "day": 86400, "date": 86400, "week": 604800,
                   "month": 2_629_746, "year": 31_556_952}


def time_bucket_seconds(entity: Entity, name: str) -> float | None:
    """How long one value of a time attribute lasts (None: not a time attribute)."""
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, TimestampRangeGenerator):
        return format_resolution_seconds(generator.format)
    if generator is not None or not _TIME_NAME.search(name):
        return None
    return float(next((s for word, s in _BUCKET_SECONDS.items() if word in name.lower()), 1))
