"""Throttling risk of a provisioned capacity curve: minutes over capacity, and what burst capacity absorbs.

dynamodb-rules §7.1 (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html):
DynamoDB keeps up to 300 seconds of unused read and write capacity and may spend it above the provisioned
rate (best effort, and background maintenance may use it). The simulation fills that bucket in quiet
minutes and spends it in minutes over capacity.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from costs.autoscaling import DimensionScaling

BURST_SECONDS = 300  # §7.1: up to 5 minutes of unused capacity
SECONDS_PER_MINUTE = 60


@dataclass(frozen=True)
class ThrottlingRisk:
    """Where demand exceeds provisioned capacity over one day, before and after burst capacity."""

    minutes_over_capacity: int  # minutes whose demand is above the capacity provisioned
    peak_excess_units_per_second: float  # the largest excess, units/s above capacity
    excess_unit_seconds: float  # units above capacity over the day
    throttled_unit_seconds_after_burst: float  # what burst capacity could not absorb
    minutes_throttled_after_burst: int


_RISKS: weakref.WeakKeyDictionary[DimensionScaling, ThrottlingRisk] = weakref.WeakKeyDictionary()


def cached_throttling_risk(scaling: DimensionScaling) -> ThrottlingRisk:
    """`throttling_risk` once per curve (every option priced on the same curve shares it)."""
    if scaling not in _RISKS:
        _RISKS[scaling] = throttling_risk(scaling)
    return _RISKS[scaling]


def throttling_risk(scaling: DimensionScaling, burst_seconds: int = BURST_SECONDS) -> ThrottlingRisk:
    """Demand above capacity per minute, and what up to `burst_seconds` of unused capacity absorbs.

    dynamodb-rules §7.1 (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html):
    DynamoDB keeps up to 300 seconds of unused capacity and may spend it above the provisioned rate
    (best effort). The bucket starts the day where the previous identical day left it (two passes).
    """
    capacity, consumed = scaling.capacity_units, scaling.consumed_units
    excess = np.maximum(consumed - capacity, 0.0)
    if not excess.any():  # never over capacity: nothing to absorb (most curves; the walk below is ~2 ms)
        return ThrottlingRisk(0, 0.0, 0.0, 0.0, 0)
    bucket, throttled = 0.0, np.zeros(len(capacity))
    minutes = list(zip(capacity.tolist(), consumed.tolist(), strict=True))
    for pass_number in (0, 1):
        # the same arithmetic as min(), written out: this walk is most of a target change's estimate
        for m, (cap, used) in enumerate(minutes):
            if used <= cap:
                filled, limit = bucket + (cap - used) * SECONDS_PER_MINUTE, cap * burst_seconds
                bucket = filled if filled <= limit else limit
                continue
            short = (used - cap) * SECONDS_PER_MINUTE
            spent = bucket if bucket <= short else short
            bucket -= spent
            if pass_number:
                throttled[m] = short - spent
    return ThrottlingRisk(int((excess > 0).sum()), float(excess.max(initial=0.0)),
                          float(excess.sum()) * SECONDS_PER_MINUTE, float(throttled.sum()),
                          int((throttled > 1e-9).sum()))


