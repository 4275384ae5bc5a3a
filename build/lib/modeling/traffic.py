"""Daily traffic profiles: how a model's traffic spreads over the 24 hours of a day (UTC).

The shapes are stated assumptions, documented in docs/model-format.md, and used by the cost and
hot-partition analyses; a model that knows better gives 24 custom weights.
"""

from __future__ import annotations

from modeling.model import TrafficProfile, TrafficShape

HOURS_PER_DAY = 24

# Relative weights per UTC hour 0..23.
_SHAPE_WEIGHTS: dict[TrafficShape, tuple[float, ...]] = {
    TrafficShape.FLAT: (1.0,) * HOURS_PER_DAY,
    # office hours 08:00-17:59 at full load, shoulders at half, nights at a tenth
    TrafficShape.BUSINESS_HOURS: (0.1,) * 7 + (0.5,) + (1.0,) * 10 + (0.5,) + (0.1,) * 5,
    # consumer traffic: evenings 18:00-22:59 at full load, afternoons half, mornings 0.3, nights 0.1
    TrafficShape.EVENING_PEAK: (0.1,) * 7 + (0.3,) * 5 + (0.5,) * 6 + (1.0,) * 5 + (0.1,),
}


def hourly_shares(profile: TrafficProfile) -> tuple[float, ...]:
    """The share of a day's requests in each UTC hour; 24 values that sum to 1.

    >>> round(max(hourly_shares(TrafficProfile(shape=TrafficShape.FLAT))), 4)
    0.0417
    """
    weights = profile.hourly_weights if profile.shape is TrafficShape.CUSTOM else _SHAPE_WEIGHTS[profile.shape]
    assert weights is not None  # a custom profile without weights fails validation
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def peak_to_average_ratio(profile: TrafficProfile) -> float:
    """How much busier the busiest hour is than the daily average (1.0 for a flat profile)."""
    return max(hourly_shares(profile)) * HOURS_PER_DAY
