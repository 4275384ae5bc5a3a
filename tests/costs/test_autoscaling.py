"""Auto scaling simulation (dynamodb-rules §8, §11, §12): the §12.6 traces, W25, the quota, and the
vectorised walk giving exactly the per-minute reference loop's result on random inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costs.autoscaling import (
    ScalingPolicy,
    fixed_capacity,
    fixed_capacity_units,
    minute_series,
    simulate_autoscaling,
    simulate_autoscaling_reference,
)
from costs.errors import ScalingPolicyError

EVALUATOR = ScalingPolicy(target_utilization=0.7, min_capacity_units=1, max_capacity_units=80_000, whole_units=False,
                          scale_in_points_below_target=None)  # §12.3: the evaluator's own scale-in rule


def _spikes(minutes: int, every: int | None, start: int = 25) -> np.ndarray:
    """0.5 units/s with 5-minute spikes to 100 units/s from `start` (and every `every` minutes)."""
    units = np.full(minutes, 0.5)
    for first in range(start, minutes, every or minutes):
        units[first:first + 5] = 100.0
    return units


def _clock(minutes: tuple[int, ...]) -> list[str]:
    return [f"{m // 60:02d}:{m % 60:02d}" for m in minutes]


def test_trace_one_spike_scales_out_at_27_and_back_at_45() -> None:
    # §12.6: spike 25-29; minute 27 sees two spike minutes -> 100 / 0.7 = 142.857; 15 quiet minutes
    # after the spike (30-44) -> back to max(0.5 / 0.7, min 1) = 1 at minute 45
    writes = simulate_autoscaling(np.full(120, 0.5), _spikes(120, None), EVALUATOR).writes.capacity_units
    assert writes[26] == 1 and writes[27] == pytest.approx(142.857, abs=1e-3)
    assert writes[44] == pytest.approx(142.857, abs=1e-3) and writes[45] == 1


def test_trace_four_free_decreases_then_one_an_hour() -> None:
    # §12.6: a spike every 30 minutes; 4 free scale-ins, the 5th waits 60 minutes after the 4th
    writes = simulate_autoscaling(np.full(300, 0.5), _spikes(300, 30), EVALUATOR).writes
    assert _clock(writes.decrease_minutes) == ["00:45", "01:15", "01:45", "02:15", "03:15", "04:15"]


def test_the_quota_resets_at_midnight_utc() -> None:
    # day 1: 4 free + hourly from 03:15 to 23:15 (21) = 25 (at most 27, §8); day 2 starts with 4 free again
    writes = simulate_autoscaling(np.full(2880, 0.5), _spikes(2880, 30), EVALUATOR).writes
    day_two = [m for m in writes.decrease_minutes if m >= 1440]
    assert len(writes.decrease_minutes) - len(day_two) == 25
    assert _clock(tuple(day_two[:6])) == ["24:15", "24:45", "25:15", "25:45", "26:45", "27:45"]


@pytest.mark.parametrize("simulate", [simulate_autoscaling, simulate_autoscaling_reference], ids=["walk", "loop"])
def test_a_minute_exactly_at_target_is_not_above_it(simulate) -> None:
    # AWS (§11.1): scale out when consumption EXCEEDS the target for 2 consecutive minutes. 1 unit/s at
    # 1 / 0.7 = 1.429 provisioned is exactly at 70 %, not above: minute 31 looks at minutes 29 (1 unit/s, at
    # target) and 30 (100) -> no scale-out; minute 32 looks at 30 and 31 (both 100 > 0.7 x 1.429 = 1) ->
    # 100 / 0.7 = 142.857. (The §12.6 evaluator's ">=" scaled out at minute 31, one minute early.)
    writes = np.full(60, 1.0)
    writes[30:35] = 100.0
    capacity = np.asarray(simulate(np.full(60, 0.5), writes, EVALUATOR).writes.capacity_units)
    assert capacity[31] == pytest.approx(1 / 0.7) and capacity[32] == pytest.approx(100 / 0.7)


def test_whole_units_exactly_at_target_do_not_scale_out() -> None:
    # min 10 WCU, target 70 %: 7 units/s is exactly 70 % of 10 (7 / 0.7 = 10.000000000000002 in floating point)
    # for 30 minutes: never above the target, so capacity stays 10; 7.1 units/s from minute 30 is above it:
    # minute 32 (minutes 30, 31 above) -> ceil(7.1 / 0.7) = ceil(10.14) = 11
    writes = np.full(40, 7.0)
    writes[30:] = 7.1
    capacity = simulate_autoscaling(np.zeros(40), writes, ScalingPolicy(0.7, 10, 1000)).writes.capacity_units
    assert capacity[:32].tolist() == [10.0] * 32 and capacity[32] == 11


def _both_dimensions_spike(minutes: int) -> tuple[np.ndarray, np.ndarray]:
    """Writes spike at 00:25, 00:55 and 01:25; reads and writes both spike at 01:55 (5 minutes of 100 units/s
    over 0.5)."""
    reads, writes = np.full(minutes, 0.5), _spikes(minutes, 30)
    writes[115 + 5:] = 0.5  # writes: spikes at 25, 55, 85 and 115 only
    reads[115:120] = 100.0
    return reads, writes


@pytest.mark.parametrize("simulate", [simulate_autoscaling, simulate_autoscaling_reference], ids=["walk", "loop"])
def test_two_dimensions_never_take_a_fifth_free_decrease(simulate) -> None:
    # Evaluator timing (§12.6): a spike at s scales in at s + 20. Writes drop at 00:45, 01:15, 01:45 (3 of
    # the 4 free decreases, §8); reads and writes both qualify at 02:15 with ONE free decrease left: writes
    # drop (writes first), reads wait until an hour has passed without a decrease: 03:15. Before the fix both
    # dropped at 02:15, a fifth decrease inside the first hour after the fourth.
    reads, writes = _both_dimensions_spike(300)
    result = simulate(reads, writes, EVALUATOR)
    assert _clock(result.writes.decrease_minutes) == ["00:45", "01:15", "01:45", "02:15"]
    assert _clock(result.reads.decrease_minutes) == ["03:15"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0.5, 5.0, 100.0]), min_size=24, max_size=24),
       st.lists(st.sampled_from([0.5, 5.0, 100.0]), min_size=24, max_size=24))
def test_decreases_obey_the_daily_quota(read_levels: list[float], write_levels: list[float]) -> None:
    # §8, General Reference: 4 decreases at any time of a UTC day, then one more only after an hour without any
    # decrease (of either dimension: the counter is shared). So the 5th, 6th ... decrease of a day has no other
    # decrease in the 60 minutes before it, and no two of them fall in the same minute.
    reads, writes = np.repeat(read_levels, 60), np.repeat(write_levels, 60)  # levels held 60 minutes each
    result = simulate_autoscaling(reads, writes, ScalingPolicy(0.7, 1, 10_000))
    events = sorted([*result.reads.decrease_minutes, *result.writes.decrease_minutes])
    for n, minute in enumerate(events):
        if n >= 4:
            assert not [m for m in events[:n] if minute - 60 < m], (n, minute, events)


def test_w25_scales_out_after_two_minutes_above_70_percent() -> None:
    # W25: min 100 RCU, target 70 %: 69 units/s stays at 100; 71 units/s from minute 10 for two
    # minutes (10, 11) -> minute 12 provisions ceil(71 / 0.7) = 102
    reads = np.full(40, 69.0)
    reads[10:] = 71.0
    capacity = simulate_autoscaling(reads, np.zeros(40), ScalingPolicy(0.7, 100, 40_000)).reads.capacity_units
    assert capacity[11] == 100 and capacity[12] == 102


def test_scale_in_waits_15_quiet_minutes_and_stops_at_the_minimum() -> None:
    # 150 units/s -> ceil(150 / 0.7) = 215; from minute 20 at 45 units/s: minute 35 sees 15 quiet
    # minutes, 215 > 1.2 x max(ceil(45 / 0.7) = 65, min 100) = 120 -> drops to 100
    reads = np.full(60, 150.0)
    reads[20:] = 45.0
    result = simulate_autoscaling(reads, np.zeros(60), ScalingPolicy(0.7, 100, 40_000)).reads
    assert result.capacity_units[34] == 215 and result.capacity_units[35] == 100 and result.decrease_minutes == (35,)


def test_capacity_never_exceeds_the_maximum_and_the_excess_is_throttled() -> None:
    # 500 units/s with max 300: capacity is 300 from minute 0; 200 units/s over it x 60 minutes = 12,000
    reads = simulate_autoscaling(np.full(60, 500.0), np.zeros(60), ScalingPolicy(0.7, 1, 300)).reads
    assert reads.capacity_units.max() == 300 and reads.throttled_unit_minutes == 200 * 60


def test_whole_units_by_default_and_unit_hours_billed() -> None:
    # 10 units/s flat -> ceil(10 / 0.7) = 15 units every minute of an hour = 15 unit-hours
    reads = simulate_autoscaling(np.full(60, 10.0), np.zeros(60)).reads
    assert set(reads.capacity_units) == {15.0} and reads.capacity_unit_hours == 15


def test_fixed_capacity_is_peak_over_target() -> None:
    # ceil(100 / 0.7) = ceil(142.86) = 143; tiny peaks still get the 1-unit minimum (§8)
    assert fixed_capacity_units(100, ScalingPolicy()) == 143 and fixed_capacity_units(0.1, ScalingPolicy()) == 1
    assert fixed_capacity(minute_series([10.0] * 24), 143).capacity_unit_hours == 143 * 24


@pytest.mark.parametrize(("kwargs", "hint"), [({"target_utilization": 70}, "not a percent"),
                                              ({"target_utilization": 0.1}, "20-90"),
                                              ({"min_capacity_units": 0}, "min_capacity_units"),
                                              ({"min_capacity_units": 1.5}, "whole")],
                         ids=["target-as-percent", "target-below-20", "min-zero", "fractional-min"])
def test_out_of_range_policies_are_rejected(kwargs: dict, hint: str) -> None:
    with pytest.raises(ScalingPolicyError, match=hint):
        ScalingPolicy(**kwargs)


# --- the vectorised walk against the per-minute reference ------------------------------------------


def _series(rng: np.random.Generator, minutes: int, kind: str) -> np.ndarray:
    if kind == "noisy-hours":  # hourly steps with 10 % noise, like a daily profile
        hourly = rng.uniform(0, 50, minutes // 60 + 1)
        return np.repeat(hourly, 60)[:minutes] * rng.lognormal(0, 0.1, minutes)
    if kind == "spikes":
        units = np.full(minutes, rng.uniform(0, 3))
        for start in rng.integers(0, minutes, 10):
            units[start:start + rng.integers(1, 10)] = rng.uniform(0, 200)
        return units
    if kind == "integers":  # exact ties with the target and with 1.2 x candidates
        return rng.integers(0, 10, minutes).astype(float)
    return rng.exponential(5, minutes)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), minutes=st.integers(1, 3200),
       kinds=st.tuples(*[st.sampled_from(["noisy-hours", "spikes", "integers", "random"])] * 2),
       target=st.floats(0.2, 0.9), bounds=st.tuples(st.integers(1, 5), st.integers(5, 400)), whole=st.booleans())
def test_vectorised_walk_equals_the_per_minute_loop(seed: int, minutes: int, kinds: tuple[str, str], target: float,
                                                     bounds: tuple[int, int], whole: bool) -> None:
    rng = np.random.default_rng(seed)
    reads, writes = _series(rng, minutes, kinds[0]), _series(rng, minutes, kinds[1])
    policy = ScalingPolicy(target, *bounds, whole_units=whole)
    fast, slow = simulate_autoscaling(reads, writes, policy), simulate_autoscaling_reference(reads, writes, policy)
    for a, b in ((fast.reads, slow.reads), (fast.writes, slow.writes)):
        assert np.array_equal(a.capacity_units, b.capacity_units)
        assert a.decrease_minutes == b.decrease_minutes
