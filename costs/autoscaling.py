"""Provisioned capacity under DynamoDB auto scaling, simulated minute by minute from consumption.

The rules are those of AWS Labs' capacity-mode evaluator (dynamodb-rules §12.3), which reproduces
the documented behaviour of §11.1 and the decrease quota of §8, with four deliberate differences:
scale-out needs consumption above the target, as AWS documents it (the evaluator's ">=" also scales out
at the target, rule 2); scale-in follows AWS's documented rule, not the evaluator's (see rule 3), and (because real
Application Auto Scaling never provisions outside [min, max])
the maximum always caps capacity (the evaluator skips a scale-out when demand exceeds the maximum,
and can briefly exceed it), and, with `whole_units` (the default), capacity is a whole number of
units, as DynamoDB provisions it (the evaluator keeps fractions; §12.6 traces use `whole_units=False`).

Rules, for one table or GSI, reads and writes walked together (u = consumed units/s in minute i,
need(x) = x / target, capacity est[i]):

1. est[0] = need(u[0]) within [min, max]; minutes 1 and 2 keep it.
2. Scale-out from minute 3: if need(min(u[i-2], u[i-1])) > est[i-1] (two consecutive minutes above the
   target: AWS scales out "when consumed capacity exceeds the target for 2 consecutive minutes", §11.1;
   a minute exactly at the target is not above it), est[i] = min(need(max(u[i-2], u[i-1])), max);
   otherwise est[i] = est[i-1].
3. Scale-in from minute 15: candidate = max(min(need(max(u[i-15..i-1])), est[i]), min); a dimension
   qualifies when it has not decreased in the previous 15 minutes, the candidate is below est[i-1],
   and consumption stayed 20 percentage points or more below the target for all 15 minutes:
   max(u[i-15..i-1]) < (target - 0.20) x est[i-1] (below 50 % for a 70 % target). AWS: "scale down
   when consumed capacity is 20% or more below the target for 15 consecutive minutes" (AWS
   re:Post knowledge center, https://repost.aws/knowledge-center/dynamodb-auto-scaling, example:
   minimum 100 RCU, target 70 % -> scale in below 50 RCU; dynamodb-rules §11.1; and the DynamoDB
   developer guide's AutoScaling.html: the low CloudWatch alarm of target tracking). The evaluator
   instead scales in when est[i-1] > 1.2 x candidate (below 58.3 % for a 70 % target, §12.3);
   `scale_in_points_below_target=None` selects that rule (used for the §12.6 traces).
4. Decrease quota (§8, shared by reads and writes, reset at 00:00 UTC): 4 decreases at any time of the
   day, each dimension's drop counting one: while fewer than 4 happened today, qualifying dimensions drop
   to their candidates, but never more than the free decreases left (with one left and both qualifying,
   one drops, alternating, writes first). After that, one decrease per hour: it needs no decrease of
   either dimension in the previous 60 minutes; when both qualify only one drops, alternating, writes first.

`simulate_autoscaling` is vectorised: numpy computes whole stretches between decreases, and Python
only visits decrease events and the few minutes where a scale-out can trigger.
`simulate_autoscaling_reference` is the same rules as a plain per-minute loop (tests, benchmark).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import ClassVar, overload

import numpy as np

from costs.errors import ScalingPolicyError
from costs.pricing import HOURS_PER_MONTH, CapacityDimension
from costs.throttling import ThrottlingRisk, cached_throttling_risk

# dynamodb-rules §11.1 https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
MIN_TARGET_UTILIZATION, MAX_TARGET_UTILIZATION = 0.2, 0.9  # target tracking accepts 20 %-90 %
DEFAULT_TARGET_UTILIZATION = 0.7  # console default (§11.1)
# dynamodb-rules §11.1, §12.3 https://repost.aws/knowledge-center/dynamodb-auto-scaling
SCALE_OUT_MINUTES = 2  # consumption above target for 2 consecutive minutes
SCALE_IN_MINUTES = 15  # scale-in looks at the previous 15 minutes
SCALE_IN_HEADROOM = 1.2  # §12.3 (evaluator only): scale in when provisioned > 1.2 x required
# dynamodb-rules §11.1 https://repost.aws/knowledge-center/dynamodb-auto-scaling: scale in when consumption
# stays 20 percentage points or more below the target for 15 consecutive minutes (70 % target -> below 50 %)
SCALE_IN_POINTS_BELOW_TARGET = 0.20
# dynamodb-rules §8 (decreases per day) https://docs.aws.amazon.com/general/latest/gr/ddb.html
FREE_DECREASES_PER_DAY = 4
DECREASE_INTERVAL_MINUTES = 60  # then 1 per hour without a decrease in the preceding hour
MINUTES_PER_HOUR, MINUTES_PER_DAY, HOURS_PER_DAY = 60, 1440, 24
MIN_CAPACITY_UNITS = 1  # §8: minimum provisioned capacity per table or GSI
# The simulation prices what the load needs: its default maximum is not the quota (which can be raised, §8);
# the estimate raises a finding naming the quota increase instead (costs.quotas)
UNCAPPED_MAX_CAPACITY_UNITS = 10**12
_ROUNDING_SLACK = 1e-9  # 100.0000000001 units after a division still provisions 100
# 7 units/s over 0.7 is 10.000000000000002 in floating point: still exactly at the target of 10 units
_ABOVE_TARGET_SLACK = 1e-9
_NEVER = -(10**9)  # "last decrease" before any decrease
_NEVER_AGAIN = 1 << 62  # "next decrease" when there is none


@dataclass(frozen=True)
class ScalingPolicy:
    """One dimension's auto scaling settings; `target_utilization` is a fraction (0.7 = 70 %)."""

    target_utilization: float = DEFAULT_TARGET_UTILIZATION
    min_capacity_units: float = MIN_CAPACITY_UNITS
    max_capacity_units: float = UNCAPPED_MAX_CAPACITY_UNITS
    whole_units: bool = True
    scale_in_points_below_target: float | None = SCALE_IN_POINTS_BELOW_TARGET  # None: the evaluator's 1.2 rule

    def __post_init__(self) -> None:
        if not MIN_TARGET_UTILIZATION <= self.target_utilization <= MAX_TARGET_UTILIZATION:
            raise ScalingPolicyError("target utilisation is outside AWS's 20-90 % range", "target_utilization",
                                     self.target_utilization, "give a fraction such as 0.7, not a percent (AWS: "
                                     "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html)")
        if not MIN_CAPACITY_UNITS <= self.min_capacity_units <= self.max_capacity_units:
            raise ScalingPolicyError("need 1 <= min_capacity_units <= max_capacity_units", "min_capacity_units",
                                     self.min_capacity_units, f"max_capacity_units is {self.max_capacity_units} (AWS: "
                                     "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)")
        points = self.scale_in_points_below_target
        if points is not None and not 0 < points < 1:
            raise ScalingPolicyError("scale-in threshold must be a fraction between 0 and 1",
                                     "scale_in_points_below_target", points, "AWS's rule is 0.20 (https://repost.aws/knowledge-center/dynamodb-auto-scaling)")
        if self.whole_units and not all(float(v).is_integer() for v in (self.min_capacity_units,
                                                                         self.max_capacity_units)):
            raise ScalingPolicyError("whole-unit capacity needs whole min and max", "min_capacity_units",
                                     self.min_capacity_units, "round them, or set whole_units=False")


@dataclass(frozen=True, eq=False)
class DimensionScaling:
    """Reads or writes of one table or GSI, per minute: capacity provisioned and units consumed."""

    capacity_units: np.ndarray
    consumed_units: np.ndarray
    decrease_minutes: tuple[int, ...] = ()

    @property
    def capacity_unit_hours(self) -> float:
        """Unit-hours billed: each minute provisions capacity for 1/60 h (§12.4: mean over the hour)."""
        return float(self.capacity_units.sum()) / MINUTES_PER_HOUR

    @property
    def throttled_unit_minutes(self) -> float:
        """Sum over minutes of units/s consumed above capacity: the throttling risk before burst capacity."""
        return float(np.maximum(self.consumed_units - self.capacity_units, 0.0).sum())

    @property
    def average_utilization(self) -> float:
        capacity = float(self.capacity_units.sum())
        return float(self.consumed_units.sum()) / capacity if capacity else 0.0


@dataclass(frozen=True, eq=False)
class ScalingResult:
    reads: DimensionScaling
    writes: DimensionScaling


@dataclass(frozen=True)
class CapacityPlan:
    """Provisioned capacity of one resource and dimension over the costed day."""

    resource: str
    dimension: CapacityDimension
    average_capacity_units: float
    peak_capacity_units: float
    capacity_unit_hours_per_month: Decimal
    average_utilization: float
    throttled_unit_minutes_per_day: float
    peak_demand_units_per_second: float
    # the curve summarised, for `throttling`; not part of a plan's document (report_text.plain), which shows
    # `throttling` in its place, as it did when the field was measured up front
    scaling: DimensionScaling = field(compare=False, repr=False, metadata={"document": False})
    DOCUMENT_PROPERTIES: ClassVar[tuple[str, ...]] = ("throttling",)

    @property
    def throttling(self) -> ThrottlingRisk:
        """Measured when a page or report asks: the design search prices thousands of plans and never does (the
        burst walk was a third of its time)."""
        return cached_throttling_risk(self.scaling)

    @property
    def serves_peak(self) -> bool:
        """Whether the capacity ever reaches the busiest minute's demand."""
        return self.peak_capacity_units + 1e-9 >= self.peak_demand_units_per_second


def last_day(scaling: DimensionScaling) -> DimensionScaling:
    """The steady state of a multi-day simulation: its last day (earlier days warm it up)."""
    start = len(scaling.capacity_units) - MINUTES_PER_DAY
    return DimensionScaling(scaling.capacity_units[start:], scaling.consumed_units[start:],
                            tuple(m - start for m in scaling.decrease_minutes if m >= start))


def monthly_unit_hours(scaling: DimensionScaling) -> Decimal:
    """Capacity unit-hours billed in a 730-hour month by one day's per-minute capacity (§0.2, §12.4)."""
    day_unit_hours = Decimal(repr(float(scaling.capacity_units.sum()))) / MINUTES_PER_HOUR
    return (day_unit_hours * HOURS_PER_MONTH / HOURS_PER_DAY).quantize(Decimal("0.000001"))


def capacity_plan(resource: str, dimension: CapacityDimension, scaling: DimensionScaling) -> CapacityPlan:
    """Summary of one day's capacity curve for a report."""
    return CapacityPlan(resource, dimension, float(scaling.capacity_units.mean()),
                        float(scaling.capacity_units.max()), monthly_unit_hours(scaling),
                        scaling.average_utilization, scaling.throttled_unit_minutes,
                        float(scaling.consumed_units.max(initial=0.0)), scaling)


def minute_series(hourly_units_per_second: Sequence[float], days: int = 1) -> np.ndarray:
    """Per-minute rates for `days` days from 24 hourly rates (each hour flat)."""
    return np.repeat(np.tile(np.asarray(hourly_units_per_second, dtype=float), days), MINUTES_PER_HOUR)


def fixed_capacity(consumed_units: np.ndarray, capacity_units: float) -> DimensionScaling:
    """The same capacity every minute (provisioned without auto scaling), for the same reporting."""
    consumed = np.asarray(consumed_units, dtype=float)
    return DimensionScaling(np.full(consumed.shape, float(capacity_units)), consumed)


def fixed_capacity_units(peak_units_per_second: float, policy: ScalingPolicy) -> float:
    """Capacity that serves the peak at the target utilisation: ceil(peak / target), within [min, max]."""
    return _clamp(_round_up(peak_units_per_second / policy.target_utilization, policy), policy)


def simulate_autoscaling(read_units: np.ndarray, write_units: np.ndarray, read_policy: ScalingPolicy = ScalingPolicy(),
                         write_policy: ScalingPolicy | None = None) -> ScalingResult:
    """Auto-scaled capacity of one table or GSI; inputs are consumed units/s per minute from 00:00 UTC."""
    consumed = _as_pair(read_units, write_units)
    policies = (write_policy or read_policy, read_policy)  # index 0 = writes: they go first when alternating
    capacity, decreases = _walk(_signals(consumed, policies), consumed.shape[1])
    return _result(consumed, capacity, decreases)


def simulate_autoscaling_reference(read_units: Sequence[float], write_units: Sequence[float],
                                   read_policy: ScalingPolicy = ScalingPolicy(),
                                   write_policy: ScalingPolicy | None = None) -> ScalingResult:
    """The same rules as `simulate_autoscaling`, as a plain per-minute loop (slow; the oracle for tests)."""
    consumed = _as_pair(read_units, write_units)
    policies = (write_policy or read_policy, read_policy)
    series = [consumed[k].tolist() for k in (0, 1)]
    n = consumed.shape[1]
    capacity = [[0.0] * n, [0.0] * n]
    decreases: tuple[list[int], list[int]] = ([], [])
    last, counter, turn = [_NEVER, _NEVER], 0, 0
    for i in range(n):
        counter = 0 if i % MINUTES_PER_DAY == 0 else counter
        for k in (0, 1):
            capacity[k][i] = _reference_grow(series[k], capacity[k], i, policies[k])
        if i < SCALE_IN_MINUTES:
            continue
        candidates = [_reference_candidate(series[k], capacity[k][i], i, policies[k]) for k in (0, 1)]
        qualifies = [_reference_qualifies(series[k], capacity[k][i - 1], candidates[k], i, policies[k])
                     and i >= last[k] + SCALE_IN_MINUTES for k in (0, 1)]
        lowered, counter, turn = _decide(qualifies, counter, turn, i, last)
        for k in lowered:
            capacity[k][i], last[k] = candidates[k], i
            decreases[k].append(i)
    return _result(consumed, np.array(capacity), decreases)


# --- the vectorised walk ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Signals:
    """Per-minute inputs of the walk, writes in row 0 and reads in row 1."""

    start: np.ndarray  # est[0] per dimension
    low: np.ndarray  # need(min of the two previous minutes); +inf before minute 3
    grow: np.ndarray  # min(need(max of the two previous minutes), max)
    floor: np.ndarray  # need(max of the previous 15 minutes); +inf before minute 15
    min_units: np.ndarray  # shape (2, 1)
    scale_in_above: np.ndarray  # capacity above it may scale in (see _Stretch and `_scale_in_threshold`)
    min_factor: np.ndarray  # capacity must exceed min_factor x min to scale in: 1.2 (evaluator) or 1


def _signals(consumed: np.ndarray, policies: tuple[ScalingPolicy, ScalingPolicy]) -> _Signals:
    n = consumed.shape[1]
    low, grow, floor = np.full((2, n), np.inf), np.zeros((2, n)), np.full((2, n), np.inf)
    for k, (units, policy) in enumerate(zip(consumed, policies, strict=True)):
        if n > SCALE_OUT_MINUTES:
            low[k, 3:] = np.minimum(units[1:-2], units[2:-1]) / policy.target_utilization
            grow[k, 2:] = np.minimum(_round_up(np.maximum(units[:-2], units[1:-1]) / policy.target_utilization,
                                               policy), policy.max_capacity_units)
        if n > SCALE_IN_MINUTES:
            floor[k, SCALE_IN_MINUTES:] = _round_up(_window_max(units)[:-1] / policy.target_utilization, policy)
    start = np.array([_clamp(_round_up(float(consumed[k, 0]) / policies[k].target_utilization, policies[k]),
                             policies[k]) if n else 0.0 for k in (0, 1)])
    min_units = np.array([[p.min_capacity_units] for p in policies], dtype=float)
    above = np.full((2, n), np.inf)
    for k, (units, policy) in enumerate(zip(consumed, policies, strict=True)):
        if n > SCALE_IN_MINUTES:
            above[k, SCALE_IN_MINUTES:] = _scale_in_threshold(_window_max(units)[:-1], floor[k, SCALE_IN_MINUTES:],
                                                              policy)
    factors = np.array([1.0 if p.scale_in_points_below_target is not None else SCALE_IN_HEADROOM for p in policies])
    return _Signals(start, low, grow, floor, min_units, above, factors)


def _scale_in_threshold(window_max: np.ndarray, floor: np.ndarray, policy: ScalingPolicy) -> np.ndarray:
    """Capacity strictly above which a decrease qualifies, per minute.

    AWS (§11.1): max consumption of the 15 minutes < (target - 0.20) x capacity, and the candidate
    (floor) below the capacity. Evaluator (§12.3): capacity > 1.2 x floor.
    """
    points = policy.scale_in_points_below_target
    if points is None:
        return SCALE_IN_HEADROOM * floor
    margin = policy.target_utilization - points
    if margin <= 0:  # a target of 20 % or less never scales in by this rule
        return np.full(floor.shape, np.inf)
    threshold: np.ndarray = np.maximum(floor, window_max / margin)  # annotated: numpy types a ufunc result Any
    return threshold


def _window_max(units: np.ndarray) -> np.ndarray:
    """max(units[j .. j+14]) for every j, by doubling windows 1 -> 2 -> 4 -> 8 -> 15 (4 numpy passes)."""
    best, width = units, 1
    while width * 2 <= SCALE_IN_MINUTES:
        best, width = np.maximum(best[:-width], best[width:]), width * 2
    window: np.ndarray = np.maximum(best[:len(units) - SCALE_IN_MINUTES + 1], best[SCALE_IN_MINUTES - width:])
    return window  # annotated: numpy's stubs type a ufunc's result Any


def _walk(signals: _Signals, n: int) -> tuple[np.ndarray, tuple[list[int], list[int]]]:
    """Day by day: each dimension's scale-out path is computed once with numpy and recomputed only
    after that dimension decreases; the next decrease is the first minute where it would qualify past
    the stability and quota limits, so Python runs once per decrease event, not once per minute."""
    capacity = np.empty((2, n))
    capacity[:, :3] = signals.start[:, None]
    decreases: tuple[list[int], list[int]] = ([], [])
    last, turn = [_NEVER, _NEVER], 0
    for day_start in range(0, n, MINUTES_PER_DAY):
        p, end, counter = max(day_start, 3), min(n, day_start + MINUTES_PER_DAY), 0  # the quota resets at 00:00
        paths = [_Stretch(capacity, signals, k, p, end) for k in (0, 1)]
        while p < end:
            gate = max(DECREASE_INTERVAL_MINUTES, max(last) + DECREASE_INTERVAL_MINUTES) \
                if counter >= FREE_DECREASES_PER_DAY else 0
            nexts = [paths[k].first_hit(max(p, gate, last[k] + SCALE_IN_MINUTES)) for k in (0, 1)]
            i = min(nexts)
            if i >= end:
                break
            lowered, counter, turn = _decide([nexts[k] == i for k in (0, 1)], counter, turn, i, last)
            for k in lowered:
                capacity[k, i] = max(min(signals.floor[k, i], capacity[k, i]), signals.min_units[k, 0])
                last[k] = i
                decreases[k].append(i)
                paths[k] = _Stretch(capacity, signals, k, i + 1, end)
            p = i + 1
    return capacity, decreases


class _Stretch:
    """One dimension from minute `p` to `end` with scale-out only, written into `capacity[k, p:end]`,
    and where on that path a decrease would qualify (before the stability and quota rules)."""

    def __init__(self, capacity: np.ndarray, signals: _Signals, k: int, p: int, end: int) -> None:
        self.p, self.end = p, end
        if p >= end:
            self.qualifies = np.zeros(0, dtype=bool)
            return
        previous = capacity[k, p - 1]
        path = _scale_out_path(previous, signals.low[k, p:end], signals.grow[k, p:end])
        capacity[k, p:end] = path
        # before > 1.2 x max(min(floor, path), min) reduces to before > 1.2 x floor and before > 1.2 x min,
        # because before (the previous minute's path) never exceeds path within a stretch
        before = np.concatenate(([previous], path[:-1]))
        self.qualifies = (before > signals.scale_in_above[k, p:end]) & (before > signals.min_factor[k] *
                                                                         signals.min_units[k, 0])

    def first_hit(self, start: int) -> int:
        """The first minute >= start where a decrease would qualify, or a huge number."""
        offset = max(start - self.p, 0)
        if offset >= len(self.qualifies):
            return _NEVER_AGAIN
        index = int(self.qualifies[offset:].argmax()) + offset
        return self.p + index if self.qualifies[index] else _NEVER_AGAIN


def _scale_out_path(previous: float, low: np.ndarray, grow: np.ndarray) -> np.ndarray:
    """Capacity with scale-out only: it rises to grow[j] at each minute j where low[j] >= the current
    capacity. numpy finds each next rise (argmax); Python only steps from rise to rise."""
    path = np.full(len(low), previous)
    level, j, rises, levels = previous, 0, [], []
    while j < len(low):
        j += int(_above(low[j:], level).argmax())  # the next minute above target, if any
        if not _above(low[j], level):
            break
        if grow[j] > level:
            level = float(grow[j])
            rises.append(j)
            levels.append(level)
        j += 1
    if rises:
        path[rises] = levels
        path = np.maximum.accumulate(path)
    return path


# --- rules shared by both implementations ----------------------------------------------------------


def _decide(qualifies: list[bool], counter: int, turn: int, minute: int, last: list[int]) -> tuple[list[int], int, int]:
    """Which dimensions drop at `minute` under the decrease quota; returns (lowered, counter, turn)."""
    wanting = [k for k in (0, 1) if qualifies[k]]
    if counter < FREE_DECREASES_PER_DAY:
        if len(wanting) > FREE_DECREASES_PER_DAY - counter:  # one free decrease left for two: never a fifth
            return [turn], counter + 1, 1 - turn
        return wanting, counter + len(wanting), turn
    if minute < DECREASE_INTERVAL_MINUTES or minute < max(last) + DECREASE_INTERVAL_MINUTES or not wanting:
        return [], counter, turn
    if len(wanting) == 2:
        return [turn], counter, 1 - turn
    return wanting, counter, turn


def _reference_grow(units: list[float], capacity: list[float], i: int, policy: ScalingPolicy) -> float:
    if i < 3:
        return _clamp(_round_up(units[0] / policy.target_utilization, policy), policy)
    a, b = units[i - 2], units[i - 1]
    if _above(min(a, b) / policy.target_utilization, capacity[i - 1]):
        return min(_round_up(max(a, b) / policy.target_utilization, policy), policy.max_capacity_units)
    return capacity[i - 1]


def _reference_qualifies(units: list[float], before: float, candidate: float, i: int, policy: ScalingPolicy) -> bool:
    points = policy.scale_in_points_below_target
    if points is None:
        return before > SCALE_IN_HEADROOM * candidate
    margin = policy.target_utilization - points
    highest = max(units[i - SCALE_IN_MINUTES:i])
    return margin > 0 and before > candidate and before > highest / margin


def _reference_candidate(units: list[float], capacity_now: float, i: int, policy: ScalingPolicy) -> float:
    floor = _round_up(max(units[i - SCALE_IN_MINUTES:i]) / policy.target_utilization, policy)
    return max(min(floor, capacity_now), policy.min_capacity_units)


@overload
def _above(need: float, capacity: float) -> bool: ...
@overload
def _above(need: np.ndarray, capacity: float) -> np.ndarray: ...
def _above(need: float | np.ndarray, capacity: float) -> np.ndarray | bool:
    """Consumption over the target: need (units / target) strictly above the capacity (§11.1)."""
    return need > capacity * (1 + _ABOVE_TARGET_SLACK)


@overload
def _round_up(units: float, policy: ScalingPolicy) -> float: ...
@overload
def _round_up(units: np.ndarray, policy: ScalingPolicy) -> np.ndarray: ...
def _round_up(units: float | np.ndarray, policy: ScalingPolicy) -> float | np.ndarray:
    if not policy.whole_units:
        return units
    if isinstance(units, np.ndarray):
        return np.ceil(units - _ROUNDING_SLACK)
    return float(math.ceil(units - _ROUNDING_SLACK))


def _clamp(units: float, policy: ScalingPolicy) -> float:
    return float(min(max(units, policy.min_capacity_units), policy.max_capacity_units))


def _as_pair(read_units: Sequence[float] | np.ndarray, write_units: Sequence[float] | np.ndarray) -> np.ndarray:
    reads, writes = np.asarray(read_units, dtype=float), np.asarray(write_units, dtype=float)
    pair = np.array([writes, reads]) if reads.ndim == writes.ndim == 1 and reads.shape == writes.shape else None
    if pair is None or not np.isfinite(pair).all() or (pair < 0).any():
        raise ScalingPolicyError("consumption must be two equal-length series of finite rates >= 0",
                                 "read_units", np.shape(read_units), "one value per minute from 00:00 UTC")
    return pair


def _result(consumed: np.ndarray, capacity: np.ndarray, decreases: tuple[list[int], list[int]]) -> ScalingResult:
    writes = DimensionScaling(capacity[0], consumed[0], tuple(decreases[0]))
    return ScalingResult(reads=DimensionScaling(capacity[1], consumed[1], tuple(decreases[1])), writes=writes)
