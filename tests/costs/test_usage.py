"""The engine's input: storage overheads, monthly units, hourly shapes, validation, LSI folding."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest

from costs.errors import UsageError
from costs.usage import (
    CapacityOption,
    EstimateOptions,
    FixedCapacity,
    ResourceUsage,
    TableUsage,
    capacity_demands,
    index_storage_bytes,
    monthly_units,
    table_storage_bytes,
)
from modeling.model import TrafficProfile, TrafficShape


def test_storage_adds_100_bytes_per_item() -> None:
    # §6: 1,000 items x (900 B + 100 B) = 1,000,000 B
    assert table_storage_bytes(1000, 900) == 1_000_000


def test_global_tables_add_48_more_bytes_per_item() -> None:
    # §5: 1,000 x (900 + 100 + 48) = 1,048,000 B
    assert table_storage_bytes(1000, 900, is_global_table=True) == 1_048_000


def test_index_entries_carry_100_bytes_each() -> None:
    # §4.1: 500 entries x (60 B + 100 B) = 80,000 B; a sparse index with no entries stores nothing
    assert index_storage_bytes(500, 60) == 80_000 and index_storage_bytes(0, 60) == 0


def test_one_unit_per_second_is_2_628_000_units_a_month() -> None:
    # 3,600 s x 730 h = 2,628,000
    assert monthly_units((1.0,) * 24) == Decimal(2_628_000)


def test_monthly_units_remove_float_noise() -> None:
    # 42,177,000 writes a month as a rate is 16.0490867...; back to a month it is exactly 42,177,000 again
    rate = 42_177_000 / 2_628_000
    assert monthly_units((rate,) * 24) == Decimal(42_177_000)


def test_a_profile_spreads_the_daily_average_over_the_hours() -> None:
    table = ResourceUsage.from_profile("t", 10.0, 2.0, TrafficProfile(shape=TrafficShape.BUSINESS_HOURS))
    assert sum(table.read_units_per_second) / 24 == pytest.approx(10.0)
    assert table.peak_read_units_per_second > 10.0 > min(table.read_units_per_second)


def test_lsi_units_use_the_table_capacity_and_gsis_their_own() -> None:
    table = ResourceUsage.flat("t", 10.0, 1.0)
    lsi, gsi = ResourceUsage.flat("byDate", 5.0, 1.0), ResourceUsage.flat("GSI1", 3.0, 2.0, is_gsi=True)
    table_demand, gsi_demand = capacity_demands(TableUsage(table=table, indexes=(lsi, gsi)))
    assert (table_demand.read_units_per_second[0], table_demand.write_units_per_second[0]) == (15.0, 2.0)
    assert (gsi_demand.name, gsi_demand.read_units_per_second[0]) == ("GSI1", 3.0)


BAD_USAGE = [
    ("23-hours", lambda: ResourceUsage("t", (1.0,) * 23, (1.0,) * 24)),
    ("negative-rate", lambda: ResourceUsage.flat("t", -1.0)),
    ("nan-rate", lambda: ResourceUsage.flat("t", float("nan"))),
    ("negative-storage", lambda: ResourceUsage.flat("t", storage_bytes=-1)),
    ("rate-above-10^12", lambda: ResourceUsage.flat("t", 1e13)),  # would overflow Decimal money
    ("storage-above-an-exabyte", lambda: ResourceUsage.flat("t", storage_bytes=10**19)),
    ("duplicate-names", lambda: TableUsage(table=ResourceUsage.flat("t"), indexes=(ResourceUsage.flat("t"),))),
    ("table-as-gsi", lambda: TableUsage(table=ResourceUsage.flat("t", is_gsi=True))),
    ("growth-out-of-range", lambda: TableUsage(table=ResourceUsage.flat("t"), monthly_growth_percent=5000.0)),
    ("fixed-capacity-zero", lambda: FixedCapacity(0, 1)),
    ("reserved-basis-on-demand", lambda: EstimateOptions(reserved_basis=CapacityOption.ON_DEMAND)),
    ("zero-simulated-days", lambda: EstimateOptions(simulated_days=0)),
]


@pytest.mark.parametrize("build", [b for _, b in BAD_USAGE], ids=[i for i, _ in BAD_USAGE])
def test_invalid_usage_is_rejected_with_a_typed_error(build: Callable[[], object]) -> None:
    with pytest.raises(UsageError, match="field="):
        build()


def test_auto_scaled_curves_are_remembered_by_demand_and_policy_never_by_name() -> None:
    """The design search prices many designs whose resources carry the same traffic: one simulation serves them
    (CapacityCurves remembers it by the per-minute demand). A different policy or demand is simulated anew."""
    from costs.autoscaling import ScalingPolicy
    from costs.usage import CapacityCurves

    def curves(name: str, reads: float, target: float) -> dict[object, object]:
        options = EstimateOptions(scaling_policy=ScalingPolicy(target_utilization=target))
        usage = TableUsage(table=ResourceUsage.from_profile(name, reads, 2.0,
                                                            TrafficProfile(shape=TrafficShape.BUSINESS_HOURS)))
        return {dim: scaling for (_, dim), scaling in CapacityCurves(usage, options).get(
            CapacityOption.PROVISIONED_AUTOSCALING).items()}

    first, renamed = curves("orders", 100.0, 0.7), curves("payments", 100.0, 0.7)
    assert all(first[dim] is renamed[dim] for dim in first)  # one simulation, shared
    assert not any(scaling.capacity_units.flags.writeable for scaling in first.values())  # so nobody can change it
    # 100 RCU/s average at a business-hours peak, 70 % vs 50 % target: the capacity differs, so does the key
    tighter = curves("orders", 100.0, 0.5)
    assert all(tighter[dim].capacity_units.max() > first[dim].capacity_units.max() for dim in first)
    busier = curves("orders", 200.0, 0.7)  # twice the reads, the same writes
    assert [busier[dim].consumed_units.max() / first[dim].consumed_units.max() for dim in first] in ([2, 1], [1, 2])
