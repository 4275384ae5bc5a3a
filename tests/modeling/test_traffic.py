"""Daily traffic profiles: shares sum to one, the busiest hours are where each shape says."""

from __future__ import annotations

import pytest

from modeling.model import TrafficProfile, TrafficShape
from modeling.traffic import hourly_shares, peak_to_average_ratio


@pytest.mark.parametrize("shape", [s for s in TrafficShape if s is not TrafficShape.CUSTOM])
def test_builtin_shapes_have_24_shares_summing_to_one(shape: TrafficShape) -> None:
    shares = hourly_shares(TrafficProfile(shape=shape))
    assert len(shares) == 24 and sum(shares) == pytest.approx(1.0)


def test_business_hours_peak_at_office_time_and_evenings_in_the_evening() -> None:
    business = hourly_shares(TrafficProfile(shape=TrafficShape.BUSINESS_HOURS))
    evening = hourly_shares(TrafficProfile(shape=TrafficShape.EVENING_PEAK))
    assert business[10] > business[20] and business[3] < business[12]
    assert evening[20] > evening[10] and evening[20] == max(evening)


def test_custom_weights_are_normalised() -> None:
    profile = TrafficProfile(shape=TrafficShape.CUSTOM, hourly_weights=(3.0,) + (1.0,) * 23)
    shares = hourly_shares(profile)
    assert shares[0] == pytest.approx(3 / 26) and peak_to_average_ratio(profile) == pytest.approx(24 * 3 / 26)


def test_flat_profile_has_no_peak() -> None:
    assert peak_to_average_ratio(TrafficProfile()) == pytest.approx(1.0)
