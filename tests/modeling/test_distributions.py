"""modeling.data.distributions: each distribution's mean and 99th percentile against a numpy simulation.

The simulations draw 200,000 values with numpy directly (a fixed seed, never through the code under test),
by a different route where numpy has one (a truncated `Generator.zipf`, `Generator.power`). Tolerances: a
mean within 5 standard errors of the simulation's (sd / sqrt(200,000)); a discrete p99 within one value of
the simulation's (`np.quantile(..., method="inverted_cdf")`), a continuous one within 0.002 of the range.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np
import pytest

from modeling.data.distributions import (
    HotValue,
    Poisson,
    TimestampRange,
    Uniform,
    Weighted,
    Zipf,
    harmonic_number,
    pick_indices,
    top_share,
    value_shares,
    weighted_quantile,
    zipf_tail_weight,
)
from modeling.model import HotValueDistribution, TimestampFormat, UniformDistribution, ZipfDistribution

SAMPLES = 200_000


def _rng(seed: int = 2029) -> np.random.Generator:
    return np.random.default_rng(seed)


def _p99(samples: np.ndarray) -> float:
    return float(np.quantile(samples, 0.99, method="inverted_cdf"))


def _assert_matches(distribution: Uniform | Zipf | HotValue | Weighted | Poisson, simulated: np.ndarray) -> None:
    """Mean within 5 standard errors of the simulation's; p99 a value the simulation puts at the 99th percentile
    (at least 99 % of the draws at or below it and at most 99 % below it, each within 5 standard errors of a
    share, sqrt(0.99 x 0.01 / 200,000) = 0.00022). The same for the type's own draw."""
    tolerance = 5 * float(simulated.std()) / math.sqrt(len(simulated))
    share_tolerance = 5 * math.sqrt(0.99 * 0.01 / len(simulated))
    p99 = distribution.quantile(0.99)
    drawn = distribution.draw(_rng(7), SAMPLES)
    assert distribution.mean == pytest.approx(float(simulated.mean()), abs=tolerance)
    assert float(drawn.mean()) == pytest.approx(float(simulated.mean()), abs=2 * tolerance)
    for draws in (simulated, drawn):
        assert float(np.mean(draws <= p99)) >= 0.99 - share_tolerance
        assert float(np.mean(draws < p99)) <= 0.99 + share_tolerance
    assert abs(_p99(drawn) - _p99(simulated)) <= max(1.0, 0.1 * p99)


def _truncated_zipf(count: int, exponent: float) -> np.ndarray:
    """Zipf over ranks 1..count as numpy's unbounded Zipf conditioned on rank <= count, as 0-based indices."""
    kept: list[np.ndarray] = []
    rng, total = _rng(), 0
    while total < SAMPLES:
        ranks = rng.zipf(exponent, size=SAMPLES)
        ranks = ranks[ranks <= count]
        kept.append(ranks)
        total += len(ranks)
    return np.concatenate(kept)[:SAMPLES] - 1


def test_zipf_mean_over_three_values_by_hand() -> None:
    # weights 1, 1/2, 1/3 for indices 0, 1, 2; H(3, 1) = 11/6
    # mean index = (0 x 1 + 1 x 1/2 + 2 x 1/3) / (11/6) = (7/6) / (11/6) = 7/11
    # share of the heaviest = 1 / (11/6) = 6/11; p99: cumulative 6/11, 9/11, 1 -> index 2
    zipf = Zipf(3, 1.0)
    assert zipf.mean == pytest.approx(7 / 11, rel=1e-12)
    assert zipf.top_share == pytest.approx(6 / 11, rel=1e-12)
    assert zipf.quantile(0.99) == 2
    assert zipf.quantile(0.5) == 0  # 6/11 = 0.545 >= 0.5


@pytest.mark.parametrize(("count", "exponent"), [(100, 1.1), (1000, 2.0)])
def test_zipf_against_numpy_truncated_zipf(count: int, exponent: float) -> None:
    _assert_matches(Zipf(count, exponent), _truncated_zipf(count, exponent))


def test_uniform_against_numpy_integers() -> None:
    # by hand: mean (50 - 1) / 2 = 24.5; p99 = ceil(0.99 x 50) - 1 = 49
    uniform = Uniform(50)
    assert (uniform.mean, uniform.quantile(0.99)) == (24.5, 49)
    _assert_matches(uniform, _rng().integers(0, 50, size=SAMPLES))


def test_hot_value_against_numpy_draw() -> None:
    # by hand: index 0 has 0.5 + 0.5/10 = 0.55, the others 0.05 each: mean 0.5 x 4.5 = 2.25;
    # cumulative 0.55 + 8 x 0.05 = 0.95 at index 8, 1.0 at index 9: p99 = 9
    hot = HotValue(10, 0.5)
    assert hot.mean == pytest.approx(2.25, rel=1e-12)
    assert hot.quantile(0.99) == 9
    rng = _rng()
    simulated = np.where(rng.random(SAMPLES) < 0.5, 0, rng.integers(0, 10, size=SAMPLES))
    _assert_matches(hot, simulated)


def test_enum_weights_against_numpy_choice() -> None:
    # by hand: shares 0.1, 0.2, 0.7: mean 0.2 + 1.4 = 1.6; p99 = 2; heaviest 0.7
    weighted = Weighted((1.0, 2.0, 7.0))
    assert weighted.mean == pytest.approx(1.6, rel=1e-12)
    assert (weighted.quantile(0.99), weighted.top_share) == (2, 0.7)
    _assert_matches(weighted, _rng().choice(3, size=SAMPLES, p=[0.1, 0.2, 0.7]))


@pytest.mark.parametrize(("lam", "p99"), [(10.0, 18), (200.0, 234)])
def test_poisson_against_numpy_poisson(lam: float, p99: int) -> None:
    # p99 from the Poisson CDF: lam 10: P(X <= 17) = 0.9857, P(X <= 18) = 0.9928 -> 18;
    # lam 200: about 200 + 2.326 x sqrt(200) + 0.5 ~ 233.4 -> 234 (P(X <= 233) = 0.9898, P(X <= 234) = 0.9915);
    # each CDF is the sum of exp(k ln lam - lam - ln k!) over k
    poisson = Poisson(lam)
    assert poisson.quantile(0.99) == p99
    _assert_matches(poisson, _rng().poisson(lam, size=SAMPLES))


@pytest.mark.parametrize("recent_bias", [0.0, 0.5, 1.0])
def test_timestamp_fraction_against_numpy_power(recent_bias: float) -> None:
    # the fraction of the range is u^a with a = 1 - 0.9 x bias, u uniform: numpy's power(1/a) draws x^(1/a - 1)
    # densities, the same law. By hand for bias 0.5: a = 0.55, mean 1 / 1.55 = 0.64516, p99 0.99^0.55 = 0.99449
    power = 1 - 0.9 * recent_bias
    stamps = TimestampRange(datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 1, 11, tzinfo=UTC), recent_bias)
    simulated = _rng().power(1 / power, size=SAMPLES)
    if recent_bias == 0.5:
        assert stamps.mean == pytest.approx(0.645161, abs=1e-6)
        assert stamps.quantile(0.99) == pytest.approx(0.994488, abs=1e-6)
    tolerance = 5 * float(simulated.std()) / math.sqrt(SAMPLES)
    assert stamps.mean == pytest.approx(float(simulated.mean()), abs=tolerance)
    assert stamps.quantile(0.99) == pytest.approx(float(np.quantile(simulated, 0.99)), abs=0.002)
    drawn = stamps.draw(_rng(7), SAMPLES)
    assert float(drawn.mean()) == pytest.approx(float(simulated.mean()), abs=2 * tolerance)
    assert float(np.quantile(drawn, 0.99)) == pytest.approx(float(np.quantile(simulated, 0.99)), abs=0.002)


def test_timestamp_moments_buckets_and_formats() -> None:
    # 10 days: 10 day buckets, 240 hour buckets, at most one per item
    stamps = TimestampRange(datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 1, 11, tzinfo=UTC),
                            format=TimestampFormat.EPOCH_SECONDS)
    assert stamps.span_seconds == 864_000
    assert (stamps.buckets(86400, 1e9), stamps.buckets(3600, 1e9), stamps.buckets(3600, 50)) == (10, 240, 50)
    moments = stamps.moments(_rng(), 1000)
    assert all(stamps.start <= m <= stamps.end and m.microsecond == 0 for m in moments)
    mean_seconds = float(np.mean([(m - stamps.start).total_seconds() for m in moments]))
    # uniform over 864,000 s: mean 432,000 s, sd 864,000 / sqrt(12) = 249,415 s, 5 standard errors of 1,000 draws
    assert mean_seconds == pytest.approx(432_000, abs=5 * 249_415 / math.sqrt(1000))


def test_zipf_tail_weight_by_hand() -> None:
    # the integral of x^-2 from 1.5 to 3.5 = 1/1.5 - 1/3.5 = 0.666667 - 0.285714 = 0.380952
    assert zipf_tail_weight(1.5, 3.5, 2.0) == pytest.approx(1 / 1.5 - 1 / 3.5, rel=1e-12)
    # exponent 1: ln(3.5 / 1.5) = 0.847298, for floats and arrays alike
    assert zipf_tail_weight(1.5, 3.5, 1.0) == pytest.approx(math.log(3.5 / 1.5), rel=1e-12)
    arrays = zipf_tail_weight(np.array([1.5, 10.5]), np.array([3.5, 20.5]), 1.0)
    assert arrays == pytest.approx([math.log(3.5 / 1.5), math.log(20.5 / 10.5)], rel=1e-12)


def test_harmonic_number_exact_then_integral() -> None:
    # H(3, 1) = 1 + 1/2 + 1/3 = 11/6. Beyond 1,000 terms the tail is the integral over [k - 0.5, k + 0.5]: the
    # midpoint rule's error is about s/24 x 1000.5^-(s+1), 1.3e-7 for s = 0.8, so within 1e-8 of a sum of ~39
    assert harmonic_number(3, 1.0) == pytest.approx(11 / 6, rel=1e-15)
    for exponent in (0.8, 1.0, 1.5):
        exact = float(np.sum(np.arange(1, 50_001, dtype=float) ** -exponent))
        assert harmonic_number(50_000, exponent) == pytest.approx(exact, rel=1e-8)


def test_top_share_and_value_shares_of_model_distributions() -> None:
    zipf, hot, uniform = ZipfDistribution(kind="zipf", exponent=1.0), HotValueDistribution(kind="hot_value",
                                                                                           share=0.5), \
        UniformDistribution(kind="uniform")
    assert top_share(zipf, 3) == pytest.approx(6 / 11)
    assert top_share(hot, 10) == 0.5  # max(0.5, 0.5 / 9): the checks' reading, rest over the other 9
    assert top_share(hot, 2) == 0.5
    assert top_share(uniform, 4) == 0.25
    assert top_share(zipf, 1) == 1.0
    assert value_shares(3, zipf) == pytest.approx([6 / 11, 3 / 11, 2 / 11])
    assert value_shares(10, hot)[0] == pytest.approx(0.55)  # the sample draw's reading: 0.5 + 0.5 / 10


def test_pick_indices_draws_the_stated_distribution() -> None:
    rng = _rng()
    assert pick_indices(rng, 0, 5, UniformDistribution(kind="uniform")).tolist() == [0] * 5
    indices = pick_indices(rng, 3, SAMPLES, ZipfDistribution(kind="zipf", exponent=1.0))
    shares = np.bincount(indices, minlength=3) / SAMPLES
    # 6/11, 3/11, 2/11 within 5 standard errors (sqrt(p(1 - p) / n) <= 0.0012)
    assert shares == pytest.approx([6 / 11, 3 / 11, 2 / 11], abs=0.006)


def test_weighted_quantile_orders_values() -> None:
    # values 5, 1, 3 with probabilities 0.2, 0.5, 0.3: sorted 1 (0.5), 3 (0.8), 5 (1.0)
    values, probs = np.array([5.0, 1.0, 3.0]), np.array([0.2, 0.5, 0.3])
    assert [weighted_quantile(values, probs, q) for q in (0.5, 0.79, 0.99)] == [1.0, 3.0, 5.0]
