"""Benchmark: auto scaling of a synthetic 200-access-pattern model, 30 days at one-minute resolution.

    .venv/bin/python bench/autoscaling_bench.py [--patterns 200] [--days 30] [--seed 7]

Builds per-minute consumption for a table and its GSIs from 200 access patterns (each with a rate,
a daily traffic shape and per-minute noise), simulates auto scaling for every table/GSI with the
vectorised `simulate_autoscaling`, then with the per-minute reference loop on the same input, checks
that both agree exactly, and prints the times. Targets: vectorised under 0.2 s, at least 20x faster.
Not a test: timings depend on the machine, so nothing here fails the suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the repository

from costs.autoscaling import (
    MINUTES_PER_DAY,
    ScalingPolicy,
    ScalingResult,
    simulate_autoscaling,
    simulate_autoscaling_reference,
)
from modeling.model import TrafficProfile, TrafficShape
from modeling.traffic import HOURS_PER_DAY, hourly_shares

_T = TypeVar("_T")
RESOURCES = ("table", "GSI1", "GSI2", "GSI3", "GSI4", "GSI5")
SHAPES = (TrafficShape.FLAT, TrafficShape.BUSINESS_HOURS, TrafficShape.EVENING_PEAK)
NOISE = 0.08  # per-minute multiplicative noise, standard deviation
DAY_TO_DAY = 0.15  # each day's volume varies by up to +/-15 %


def synthetic_consumption(patterns: int, days: int, seed: int) -> np.ndarray:
    """Consumed units/s per minute, shape (resources, 2 [reads, writes], minutes), from `patterns` patterns."""
    rng = np.random.default_rng(seed)
    shares = np.array([hourly_shares(TrafficProfile(shape=shape)) for shape in SHAPES]) * HOURS_PER_DAY
    hourly = np.zeros((len(RESOURCES), 2, HOURS_PER_DAY))
    resource = rng.integers(0, len(RESOURCES), patterns)
    is_write = rng.random(patterns) < 0.3
    rate = rng.lognormal(mean=2.0, sigma=1.2, size=patterns)  # average units/s per pattern
    shape = rng.integers(0, len(SHAPES), patterns)
    np.add.at(hourly, (resource, is_write.astype(int)), rate[:, None] * shares[shape])
    per_day = rng.uniform(1 - DAY_TO_DAY, 1 + DAY_TO_DAY, (len(RESOURCES), 2, days))
    minutes = np.repeat(hourly, 60, axis=2)  # (resources, 2, 1440)
    series = (minutes[:, :, None, :] * per_day[:, :, :, None]).reshape(len(RESOURCES), 2, days * MINUTES_PER_DAY)
    return series * rng.lognormal(0.0, NOISE, series.shape)


def simulate_all(consumption: np.ndarray, simulate: Callable[..., ScalingResult]) -> list[ScalingResult]:
    policy = ScalingPolicy()
    return [simulate(reads, writes, policy) for reads, writes in consumption]


def same(a: list[ScalingResult], b: list[ScalingResult]) -> bool:
    return all(np.array_equal(x.reads.capacity_units, y.reads.capacity_units)
               and np.array_equal(x.writes.capacity_units, y.writes.capacity_units)
               and x.reads.decrease_minutes == y.reads.decrease_minutes
               and x.writes.decrease_minutes == y.writes.decrease_minutes for x, y in zip(a, b, strict=True))


def timed(function: Callable[[], _T], repeat: int) -> tuple[float, _T]:
    """The best of `repeat` (at least one) runs, and the last run's result."""
    start = time.perf_counter()
    result = function()
    best = time.perf_counter() - start
    for _ in range(repeat - 1):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patterns", type=int, default=200)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    build_s, consumption = timed(lambda: synthetic_consumption(args.patterns, args.days, args.seed), 3)
    first_s, _ = timed(lambda: simulate_all(consumption, simulate_autoscaling), 1)
    fast_s, fast = timed(lambda: simulate_all(consumption, simulate_autoscaling), 5)
    slow_s, slow = timed(lambda: simulate_all(consumption, simulate_autoscaling_reference), 2)
    assert same(fast, slow), "vectorised and reference simulations disagree"
    minutes = consumption.shape[0] * consumption.shape[2]
    decreases = sum(len(r.reads.decrease_minutes) + len(r.writes.decrease_minutes) for r in fast)
    print(f"input: {args.patterns} access patterns -> {len(RESOURCES)} tables/GSIs x reads+writes, "
          f"{args.days} days x 1,440 min = {minutes:,} resource-minutes; {decreases} scale-ins simulated")
    print(f"build consumption from patterns: {build_s * 1000:8.1f} ms")
    print(f"vectorised simulation (best of 5): {fast_s * 1000:6.1f} ms   (first run {first_s * 1000:.1f} ms)")
    print(f"per-minute reference loop (best of 2): {slow_s * 1000:6.1f} ms")
    print(f"speed-up: {slow_s / fast_s:.1f}x   identical results: yes   "
          f"targets: < 200 ms {'met' if fast_s + build_s < 0.2 else 'MISSED'}, "
          f">= 20x {'met' if slow_s / fast_s >= 20 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
