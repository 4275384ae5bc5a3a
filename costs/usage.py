"""The cost engine's input: what one table and its indexes consume, already in capacity units.

`TableUsage` does not care how the numbers were derived (a model's access patterns, CloudWatch, a
quick calculator). Rates are *units* per second, not requests: a strongly consistent 8 KB read is
2 units (see `costs.units`). The same unit numbers are billed as RRU/WRU on-demand (per request) and
sized as RCU/WCU when provisioned (per second). Each table or index gives 24 hourly averages
(UTC hour 0 to 23), which the engine repeats every day. `EstimateOptions` says what to price and
how; `CapacityCurves` derives the provisioned capacity (fixed or auto-scaled) from the usage.

>>> table = ResourceUsage.flat("Orders", read_units_per_second=10.0, write_units_per_second=2.0)
>>> TableUsage(table=table, item_count=1000).table.peak_read_units_per_second
10.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

import numpy as np

from costs.autoscaling import (
    MIN_CAPACITY_UNITS,
    MINUTES_PER_DAY,
    UNCAPPED_MAX_CAPACITY_UNITS,
    CapacityPlan,
    DimensionScaling,
    ScalingPolicy,
    capacity_plan,
    fixed_capacity,
    fixed_capacity_units,
    last_day,
    minute_series,
    simulate_autoscaling,
)
from costs.errors import UsageError
from costs.pricing import HOURS_PER_MONTH, SECONDS_PER_HOUR, CapacityDimension, PriceSheet, provisioned_item
from modeling.model import TableClass, TrafficProfile
from modeling.traffic import HOURS_PER_DAY, hourly_shares

# dynamodb-rules §6 (Limits and overheads) and §4.1: storage bills 100 bytes per item and per index
# entry on top of the item size https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
STORAGE_OVERHEAD_BYTES_PER_ITEM = 100
# dynamodb-rules §5: global tables add 48 bytes per item (same page)
GLOBAL_TABLE_OVERHEAD_BYTES_PER_ITEM = 48
# dynamodb-rules §0.2 and §15 item 8: whether the bill's GB is 10^9 or 2^30 bytes is UNCONFIRMED.
# We follow the facts file's binary convention (1 GB = 1,024 MB) and state it as an assumption.
BYTES_PER_GB = 1024**3
READ, WRITE = CapacityDimension.READ, CapacityDimension.WRITE
# Sanity bounds, far above any DynamoDB quota (§8), so Decimal money keeps its precision
MAX_UNITS_PER_SECOND = 1e12
MAX_STORAGE_BYTES = 10**18  # one exabyte


@dataclass(frozen=True)
class ResourceUsage:
    """Consumption of the base table or one index: 24 hourly averages of units per second, and storage.

    `is_gsi=False` with a name other than the table's is an LSI, whose reads and writes use the base
    table's capacity (dynamodb-rules §4.2) and whose size counts towards PITR like the table's.
    """

    name: str
    read_units_per_second: tuple[float, ...]
    write_units_per_second: tuple[float, ...]
    is_gsi: bool = False
    storage_bytes: int = 0
    # Optional: the day minute by minute (1,440 rates), when peaks sit inside an hour; the hourly rates
    # above are then these minutes' hourly means (they price consumption; the minutes size capacity)
    read_units_per_minute: tuple[float, ...] = ()
    write_units_per_minute: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        for rates, label in ((self.read_units_per_second, "read"), (self.write_units_per_second, "write")):
            _check_hourly(rates, f"{self.name}.{label}_units_per_second")
        for rates, label in ((self.read_units_per_minute, "read"), (self.write_units_per_minute, "write")):
            if rates and len(rates) != MINUTES_PER_DAY:
                raise UsageError("need one rate per minute of the day", f"{self.name}.{label}_units_per_minute",
                                 len(rates), "give 1,440 values, or none to repeat each hour's rate")
        if not 0 <= self.storage_bytes <= MAX_STORAGE_BYTES:
            raise UsageError("storage is out of range", f"{self.name}.storage_bytes", self.storage_bytes,
                             "give bytes between 0 and 10^18 (1 EB): lower the entities' item_count or item sizes")

    @classmethod
    def flat(cls, name: str, read_units_per_second: float = 0.0, write_units_per_second: float = 0.0,
             is_gsi: bool = False, storage_bytes: int = 0) -> ResourceUsage:
        """The same rate in every hour of the day."""
        return cls(name, (float(read_units_per_second),) * HOURS_PER_DAY,
                   (float(write_units_per_second),) * HOURS_PER_DAY, is_gsi, storage_bytes)

    @classmethod
    def from_profile(cls, name: str, average_read_units_per_second: float, average_write_units_per_second: float,
                     profile: TrafficProfile, is_gsi: bool = False, storage_bytes: int = 0) -> ResourceUsage:
        """Daily averages spread over the hours by a `TrafficProfile` (`modeling.traffic.hourly_shares`)."""
        return cls(name, hourly_rates(average_read_units_per_second, profile),
                   hourly_rates(average_write_units_per_second, profile), is_gsi, storage_bytes)

    @property
    def peak_read_units_per_second(self) -> float:
        """The busiest minute's read rate (the busiest hour's when no minutes are given)."""
        return max(self.read_units_per_minute or self.read_units_per_second)

    @property
    def peak_write_units_per_second(self) -> float:
        return max(self.write_units_per_minute or self.write_units_per_second)

    def minutes(self, dimension: CapacityDimension) -> np.ndarray:
        """One day of per-minute rates (each hour flat unless minutes were given)."""
        given = self.read_units_per_minute if dimension is READ else self.write_units_per_minute
        hourly = self.read_units_per_second if dimension is READ else self.write_units_per_second
        return np.asarray(given, dtype=float) if given else minute_series(hourly)


@dataclass(frozen=True)
class TableUsage:
    """Everything the engine needs about one table: consumption, storage and billing-relevant settings.

    `stream_read_requests_per_month` counts billable GetRecords calls only: those made by Lambda
    triggers and by global-table replication are free (dynamodb-rules §9.2, Streams row).
    `on_demand_backup_gb` is the average size of the on-demand backups kept during the month.
    `free_tier` applies the account's always-free allowances to this table; off by default because
    the allowances are per account and Region, shared by every table.
    """

    table: ResourceUsage
    indexes: tuple[ResourceUsage, ...] = ()
    item_count: int = 0
    monthly_growth_percent: float = 0.0
    table_class: TableClass = TableClass.STANDARD
    point_in_time_recovery: bool = False
    on_demand_backup_gb: Decimal = Decimal(0)
    stream_read_requests_per_month: int = 0
    replica_regions: tuple[str, ...] = ()
    free_tier: bool = False
    assumptions: tuple[str, ...] = ()  # how the usage was derived, shown with the estimate
    # a global table's TTL deletes: (table or GSI name, write units/s on average). Free where DynamoDB deletes the
    # item, a replicated write in every replica Region (dynamodb-rules §5), so priced only in the replica lines
    ttl_delete_units_per_second: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        names = [self.table.name, *(index.name for index in self.indexes)]
        if len(set(names)) != len(names):
            raise UsageError("table and index names must be unique", "indexes", names)
        if self.table.is_gsi:
            raise UsageError("the base table cannot be a GSI", "table.is_gsi", True, "set is_gsi only on indexes")
        for value, label in ((self.item_count, "item_count"), (self.stream_read_requests_per_month,
                                                               "stream_read_requests_per_month")):
            if value < 0:
                raise UsageError("must not be negative", label, value)
        if not -100.0 <= self.monthly_growth_percent <= 1000.0:
            raise UsageError("monthly growth is out of range", "monthly_growth_percent", self.monthly_growth_percent,
                             "give a percent between -100 and 1000")
        if not 0 <= self.on_demand_backup_gb <= MAX_STORAGE_BYTES / BYTES_PER_GB:
            raise UsageError("backup size is out of range", "on_demand_backup_gb", self.on_demand_backup_gb,
                             "give GB between 0 and 10^9")
        if self.stream_read_requests_per_month > MAX_UNITS_PER_SECOND * 3600 * 744:
            raise UsageError("too many stream reads", "stream_read_requests_per_month",
                             self.stream_read_requests_per_month, "give a monthly count")

    @property
    def gsis(self) -> tuple[ResourceUsage, ...]:
        return tuple(index for index in self.indexes if index.is_gsi)

    @property
    def lsis(self) -> tuple[ResourceUsage, ...]:
        return tuple(index for index in self.indexes if not index.is_gsi)

    @property
    def storage_bytes(self) -> int:
        """Table plus every index, as billed (include the per-item overhead, see `table_storage_bytes`)."""
        return self.table.storage_bytes + sum(index.storage_bytes for index in self.indexes)


@dataclass(frozen=True, eq=False)
class CapacityDemand:
    """What one provisioned resource (the table, or one GSI) must serve: 24 hourly units/s (billing)
    and the same day per minute (sizing; each hour flat unless the usage gives minutes)."""

    name: str
    is_table: bool
    read_units_per_second: tuple[float, ...]
    write_units_per_second: tuple[float, ...]
    read_units_per_minute: np.ndarray = field(default_factory=lambda: np.zeros(MINUTES_PER_DAY))
    write_units_per_minute: np.ndarray = field(default_factory=lambda: np.zeros(MINUTES_PER_DAY))

    def minutes(self, dimension: CapacityDimension) -> np.ndarray:
        return self.read_units_per_minute if dimension is READ else self.write_units_per_minute


def capacity_demands(usage: TableUsage) -> tuple[CapacityDemand, ...]:
    """The table (with its LSIs' reads and writes, which use the table's capacity, §4.2) and each GSI."""
    def demand(name: str, is_table: bool, parts: tuple[ResourceUsage, ...]) -> CapacityDemand:
        reads = tuple(map(sum, zip(*(p.read_units_per_second for p in parts), strict=True)))
        writes = tuple(map(sum, zip(*(p.write_units_per_second for p in parts), strict=True)))
        return CapacityDemand(name, is_table, reads, writes, elementwise_sum([p.minutes(READ) for p in parts]),
                              elementwise_sum([p.minutes(WRITE) for p in parts]))

    return (demand(usage.table.name, True, (usage.table, *usage.lsis)),
            *(demand(g.name, False, (g,)) for g in usage.gsis))


def elementwise_sum(arrays: Sequence[np.ndarray]) -> np.ndarray:
    """The minute-by-minute sum of one or more per-minute curves, a new array (`sum()` starts from the int 0)."""
    total = arrays[0].copy()
    for array in arrays[1:]:
        total = total + array
    return total


def table_storage_bytes(item_count: int, average_item_size_bytes: float, is_global_table: bool = False) -> int:
    """Billed storage of a table: items x (size + 100 B overhead, + 48 B for a global table) (§6, §5).

    >>> table_storage_bytes(1000, 900)
    1000000
    """
    overhead = STORAGE_OVERHEAD_BYTES_PER_ITEM + (GLOBAL_TABLE_OVERHEAD_BYTES_PER_ITEM if is_global_table else 0)
    return math.ceil(item_count * (average_item_size_bytes + overhead))


def index_storage_bytes(entry_count: int, average_entry_size_bytes: float) -> int:
    """Billed storage of a GSI or LSI: entries x (entry size + 100 B overhead) (§4.1 GSI.md, LSI.md).

    An entry is the base table's key attributes, the index keys and the projected attributes.
    Items without the index keys have no entry (sparse index, §4.1).
    """
    return math.ceil(entry_count * (average_entry_size_bytes + STORAGE_OVERHEAD_BYTES_PER_ITEM))


def hourly_rates(average_per_second: float, profile: TrafficProfile) -> tuple[float, ...]:
    """24 hourly rates whose daily average is `average_per_second`, shaped by `profile`."""
    return tuple(average_per_second * HOURS_PER_DAY * share for share in hourly_shares(profile))


def monthly_units(hourly_units_per_second: Sequence[float]) -> Decimal:
    """Units consumed in a 730-hour month by a day of 24 hourly rates repeated (§0.2).

    Each hour serves rate x 3,600 units; a month is 730 / 24 such days. Quantised to a millionth of a
    unit, which removes binary floating-point noise (1/3 x 3 = 0.9999...) before any money is computed.
    """
    day_units = sum(Decimal(repr(rate)) for rate in hourly_units_per_second) * SECONDS_PER_HOUR
    return (day_units * HOURS_PER_MONTH / HOURS_PER_DAY).quantize(Decimal("0.000001"))


def bytes_to_gb(storage_bytes: int, bytes_per_gb: int = BYTES_PER_GB) -> Decimal:
    """Storage bytes as GB, binary by default (the convention is UNCONFIRMED, §15 item 8)."""
    return Decimal(storage_bytes) / Decimal(bytes_per_gb)


def _check_hourly(rates: Sequence[float], label: str) -> None:
    if len(rates) != HOURS_PER_DAY:
        raise UsageError("need one rate per UTC hour", label, len(rates), "give 24 values, hour 0 to 23")
    bad = [rate for rate in rates
           if not (isinstance(rate, int | float) and math.isfinite(rate) and 0 <= rate <= MAX_UNITS_PER_SECOND)]
    if bad:
        raise UsageError("rates must be between 0 and 10^12 units per second", label, bad[0],
                         "units per second, e.g. 12.5")


# --- estimate options -------------------------------------------------------------------------------


class CapacityOption(StrEnum):
    ON_DEMAND = "on_demand"
    PROVISIONED_FIXED = "provisioned_fixed"
    PROVISIONED_AUTOSCALING = "provisioned_autoscaling"
    RESERVED_1Y = "reserved_1y"
    RESERVED_3Y = "reserved_3y"


RESERVED_TERM_YEARS = {CapacityOption.RESERVED_1Y: 1, CapacityOption.RESERVED_3Y: 3}
_LABELS = {CapacityOption.ON_DEMAND: "On-demand", CapacityOption.PROVISIONED_FIXED: "Provisioned (fixed)",
           CapacityOption.PROVISIONED_AUTOSCALING: "Provisioned with auto scaling",
           CapacityOption.RESERVED_1Y: "Reserved 1-year", CapacityOption.RESERVED_3Y: "Reserved 3-year",
           TableClass.STANDARD: "Standard", TableClass.STANDARD_INFREQUENT_ACCESS: "Standard-IA"}


def label(value: CapacityOption | TableClass) -> str:
    """Display text of an option or table class."""
    return _LABELS[value]


@dataclass(frozen=True)
class FixedCapacity:
    """Provisioned capacity chosen by the user for one table or GSI (no auto scaling)."""

    read_capacity_units: int
    write_capacity_units: int

    def __post_init__(self) -> None:
        for value, name in ((self.read_capacity_units, "read_capacity_units"),
                            (self.write_capacity_units, "write_capacity_units")):
            if isinstance(value, bool) or not isinstance(value, int) or value < MIN_CAPACITY_UNITS:
                raise UsageError("provisioned capacity must be a whole number of units, at least 1", name, value,
                                 "DynamoDB's minimum is 1 RCU and 1 WCU (AWS: "
                                 "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)")


@dataclass(frozen=True)
class EstimateOptions:
    """What to price and how. Fixed capacity defaults to ceil(busiest minute's units/s / target), at least 1.

    `reserved_basis` is the provisioned curve reserved blocks are sized against (fixed or auto scaling).
    `replica_price_sheets` prices global-table replicas; a replica without one uses its Region's shipped
    sheet, or an unpriced one ("not available"), never the home Region's prices.
    """

    capacity_options: tuple[CapacityOption, ...] = tuple(CapacityOption)
    table_classes: tuple[TableClass, ...] = tuple(TableClass)
    scaling_policy: ScalingPolicy = field(default_factory=ScalingPolicy)
    fixed_capacity: Mapping[str, FixedCapacity] = field(default_factory=dict)
    reserved_basis: CapacityOption = CapacityOption.PROVISIONED_AUTOSCALING
    simulated_days: int = 2
    bytes_per_gb: int = BYTES_PER_GB
    replica_price_sheets: Mapping[str, PriceSheet] = field(default_factory=dict)
    projection_months: tuple[int, ...] = (12, 36)

    def __post_init__(self) -> None:
        if self.reserved_basis not in (CapacityOption.PROVISIONED_FIXED, CapacityOption.PROVISIONED_AUTOSCALING):
            raise UsageError("reserved capacity is sized on a provisioned curve", "reserved_basis",
                             self.reserved_basis, "use provisioned_fixed or provisioned_autoscaling")
        if self.simulated_days < 1 or self.bytes_per_gb < 1 or any(m < 0 for m in self.projection_months):
            raise UsageError("out of range", "simulated_days, bytes_per_gb, projection_months",
                             (self.simulated_days, self.bytes_per_gb, self.projection_months),
                             "at least 1 day, a positive GB size, months >= 0")
        if not self.capacity_options or not self.table_classes:
            raise UsageError("nothing to estimate", "capacity_options/table_classes",
                             (self.capacity_options, self.table_classes), "name at least one of each")


class CapacityCurves:
    """Per-minute provisioned capacity over one steady day, per option, resource and dimension.

    `get(PROVISIONED_FIXED)` holds each resource at its fixed capacity; `get(PROVISIONED_AUTOSCALING)`
    simulates `simulated_days` days of auto scaling and keeps the last. Computed on first use.
    """

    def __init__(self, usage: TableUsage, options: EstimateOptions) -> None:
        self.demands, self.options = capacity_demands(usage), options
        self._cache: dict[CapacityOption, dict[tuple[str, CapacityDimension], DimensionScaling]] = {}
        self._plans: dict[CapacityOption, tuple[CapacityPlan, ...]] = {}

    def get(self, option: CapacityOption) -> dict[tuple[str, CapacityDimension], DimensionScaling]:
        if option not in self._cache:
            make = self._autoscaled if option is CapacityOption.PROVISIONED_AUTOSCALING else self._fixed
            self._cache[option] = {key: curve for demand in self.demands for key, curve in make(demand).items()}
        return self._cache[option]

    def plans(self, option: CapacityOption) -> tuple[CapacityPlan, ...]:
        """`capacity_plan` of each curve of `option`, once: every table class and reserved term priced on the same
        curves shares them (an estimate priced them up to six times, a tenth of the key-design search)."""
        if option not in self._plans:
            self._plans[option] = tuple(capacity_plan(*key, scaling) for key, scaling in self.get(option).items())
        return self._plans[option]

    def utilization(self, option: CapacityOption, sheet: PriceSheet, table_class: TableClass) -> Decimal | None:
        """Consumed / provisioned unit-seconds, weighted by the provisioned unit-hour price of each dimension."""
        curves = self.get(option)
        prices = {d: sheet.price(provisioned_item(d), table_class).value for d in CapacityDimension}
        weights = {d: price for d, price in prices.items() if price is not None}
        if len(weights) < len(prices):
            return None
        used = sum(weights[d] * Decimal(repr(float(c.consumed_units.sum()))) for (_, d), c in curves.items())
        paid = sum(weights[d] * Decimal(repr(float(c.capacity_units.sum()))) for (_, d), c in curves.items())
        return used / paid if paid else None

    def _fixed(self, demand: CapacityDemand) -> dict[tuple[str, CapacityDimension], DimensionScaling]:
        given = self.options.fixed_capacity.get(demand.name)
        policy = self.options.scaling_policy
        out = {}
        for dim in (READ, WRITE):
            minutes = demand.minutes(dim)
            units = (given.read_capacity_units if dim is READ else given.write_capacity_units) if given else \
                fixed_capacity_units(float(minutes.max()), policy)  # sized to the busiest minute
            out[(demand.name, dim)] = fixed_capacity(minutes, units)
        return out

    def _autoscaled(self, demand: CapacityDemand) -> dict[tuple[str, CapacityDimension], DimensionScaling]:
        reads, writes = _autoscaled_last_day(np.ascontiguousarray(demand.minutes(READ), dtype=float).tobytes(),
                                             np.ascontiguousarray(demand.minutes(WRITE), dtype=float).tobytes(),
                                             self.options.simulated_days, self.options.scaling_policy)
        return {(demand.name, READ): reads, (demand.name, WRITE): writes}


@lru_cache(maxsize=256)  # about 70 kB an entry
def _autoscaled_last_day(read_minutes: bytes, write_minutes: bytes, days: int,
                         policy: ScalingPolicy) -> tuple[DimensionScaling, DimensionScaling]:
    """One resource's auto-scaled last day, remembered by its per-minute demand (as bytes, so equal curves are
    one key): the design search prices each layout with several projections, and all but one of its resources
    keep the same traffic. The arrays are read-only, as they are shared."""
    result = simulate_autoscaling(np.tile(np.frombuffer(read_minutes), days),
                                  np.tile(np.frombuffer(write_minutes), days), policy)
    return _read_only(last_day(result.reads)), _read_only(last_day(result.writes))


def _read_only(scaling: DimensionScaling) -> DimensionScaling:
    for array in (scaling.capacity_units, scaling.consumed_units):
        array.flags.writeable = False
    return scaling


def describe_assumptions(usage: TableUsage, options: EstimateOptions) -> tuple[str, ...]:
    """The conventions an estimate rests on, in words, for the report (plus the usage's own)."""
    policy = options.scaling_policy
    gb = "2^30" if options.bytes_per_gb == BYTES_PER_GB else f"{options.bytes_per_gb:,}"
    return (
        "A month is 730 hours (the AWS Pricing Calculator's convention, https://calculator.aws/).",
        f"1 GB of storage = {gb} bytes; whether AWS bills 10^9 or 2^30 bytes is UNCONFIRMED.",
        "Every day repeats the same 24 hourly rates (UTC); on-demand bills the units consumed.",
        f"Auto scaling: target {policy.target_utilization:.0%}, at least {policy.min_capacity_units:g} "
        f"unit{'' if policy.min_capacity_units == 1 else 's'}, "
        + ("no maximum (the 40,000-unit table quota can be raised, so it is a finding, not a ceiling)"
           if policy.max_capacity_units >= UNCAPPED_MAX_CAPACITY_UNITS else
           f"at most {policy.max_capacity_units:g} units")
        + f", simulated per minute for {options.simulated_days} days: scale out after 2 minutes above target, "
        "scale in when consumption stays 20 points or more below target for 15 minutes "
        "(https://repost.aws/knowledge-center/dynamodb-auto-scaling), decreases limited to 4 a day then 1 an hour "
        "(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); "
        "the last day is costed.",
        f"Fixed provisioned capacity: ceil(busiest minute's units/s / {policy.target_utilization:g}) unless given.",
        "Throttling risk: minutes a day demand exceeds provisioned capacity, and what burst capacity (up to "
        "300 seconds of unused capacity, best effort, "
        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html) "
        "cannot absorb.",
        "Reserved capacity: 100-unit blocks sized to the cheapest count for the "
        f"{label(options.reserved_basis).lower()} curve; upfront spread over 12 or 36 months.",
        "LSI reads and writes use the base table's capacity "
        "(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html).",
        "Free tier applied (per account and Region: 25 GB, 25 RCU, 25 WCU, 2.5 M stream reads): 25 units x 730 "
        "hours = 18,250 free unit-hours per dimension a month (the 730-hour month used everywhere; AWS's Price "
        "List counts 25 x 744 = 18,600 for a 31-day month), deducted from capacity billed at the provisioned "
        "rate, never from reserved blocks; reserved blocks are only bought where they beat that." if usage.free_tier
        else "Free tier not applied (it is shared by every table of the account in the Region).",
        *(["Global table: reads in replica Regions, cross-Region data transfer and the first replica "
           "restore are not included (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
           "bp-understanding-billing.html)."] if usage.replica_regions else []),
        *usage.assumptions,
    )
