"""One access pattern's requests per second over a day, per minute, honouring its stated average and peak.

A model states each pattern's `average_requests_per_second` and `peak_requests_per_second`, and one
traffic profile (`modeling.traffic`) for the whole model. The profile alone gives the pattern a
busiest hour of average x 24 x the busiest hour's share, which is not its stated peak. The curve:

1. Peak at or below the profile's busiest hour: the profile is flattened around the average,
   rate = average + (profile rate - average) x k with k = (peak - average) / (busiest - average),
   so the mean stays the average and the busiest hour is the peak (a pattern whose peak equals its
   average is flat).
2. Peak above the busiest hour, and at most 24 x the average: the whole busiest hour of the profile
   runs at the peak; every other hour is scaled by (24 x average - peak) / (24 x average - busiest),
   which keeps the daily mean at the average.
3. Peak above 24 x the average (a whole hour at the peak would exceed the day's requests): the peak
   lasts L = max(1, floor(720 x average / peak)) minutes at the start of the busiest hour (half of
   the day's requests at most), the rest of the day follows the profile scaled to the remainder.
   A peak above 1,440 x the average cannot last even one minute: that minute keeps the peak for
   sizing, and the bill keeps the stated average (`billing_hourly_rates`).

Every pattern peaks in the profile's busiest hour (the first, when several tie): the coincident,
conservative reading. Capacity is sized on the per-minute sum of the patterns; consumption is billed
on its hourly means, which keep each pattern's average.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from modeling.model import TrafficProfile
from modeling.traffic import HOURS_PER_DAY, hourly_shares

MINUTES_PER_HOUR = 60
MINUTES_PER_DAY = HOURS_PER_DAY * MINUTES_PER_HOUR


def pattern_minute_rates(average: float, peak: float, profile: TrafficProfile) -> np.ndarray:
    """1,440 per-minute request rates whose mean is `average` and whose maximum is `peak` (see module)."""
    shares = np.asarray(hourly_shares(profile), dtype=float)
    hourly = average * HOURS_PER_DAY * shares
    busiest_hour = int(np.argmax(shares))
    busiest = float(hourly[busiest_hour])
    if average <= 0 or peak <= 0:
        return np.zeros(MINUTES_PER_DAY)
    if peak <= busiest + 1e-12:
        k = 0.0 if busiest - average <= 1e-12 else (peak - average) / (busiest - average)
        return np.repeat(average + (hourly - average) * k, MINUTES_PER_HOUR)
    day_hours = average * HOURS_PER_DAY  # the day's requests in hour-rate units
    if peak <= day_hours:
        scaled = hourly * ((day_hours - peak) / (day_hours - busiest))
        scaled[busiest_hour] = peak
        return np.repeat(scaled, MINUTES_PER_HOUR)
    minutes = np.repeat(hourly, MINUTES_PER_HOUR)
    block = max(1, math.floor(MINUTES_PER_DAY / 2 * average / peak))
    start = busiest_hour * MINUTES_PER_HOUR
    day_total = MINUTES_PER_DAY * average
    rest_total = day_total - float(minutes[start:start + block].sum())
    factor = max(day_total - block * peak, 0.0) / rest_total if rest_total > 0 else 0.0
    minutes = minutes * factor
    minutes[start:start + block] = peak
    return minutes


def billing_hourly_rates(minutes: np.ndarray, average: float) -> tuple[float, ...]:
    """Hourly means of a pattern's minutes, rescaled to its stated average when a one-minute peak
    alone exceeds the day's requests (case 3's limit); otherwise exactly the hourly means."""
    hourly = minutes.reshape(HOURS_PER_DAY, MINUTES_PER_HOUR).mean(axis=1)
    mean = float(hourly.mean())
    if average > 0 and mean > average * (1 + 1e-9):
        hourly = hourly * (average / mean)
    return tuple(float(v) for v in hourly)


def needs_minutes(curves: Sequence[np.ndarray]) -> bool:
    """Whether any curve changes within an hour (case 3), so hourly rates cannot size capacity."""
    return any(not np.all(c.reshape(HOURS_PER_DAY, MINUTES_PER_HOUR) == c[::MINUTES_PER_HOUR, None])
               for c in curves)
