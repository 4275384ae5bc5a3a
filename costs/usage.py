"""The cost engine's input: what one table and its indexes consume, already in capacity units.

`TableUsage` does not care how the numbers were derived (a model's access patterns, CloudWatch, a
quick calculator). Rates are *units* per second, not requests: a strongly consistent 8 KB read is
2 units (see `costs.units`). The same unit numbers are billed as RRU/WRU on-demand (per request) and
sized as RCU/WCU when provisioned (per second). Each table or index gives 24 hourly averages
(UTC hour 0 to 23), which the engine repeats every day.

>>> table = ResourceUsage.flat("Orders", read_units_per_second=10.0, write_units_per_second=2.0)
>>> TableUsage(table=table, item_count=1000).table.peak_read_units_per_second
10.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from costs.errors import UsageError
from costs.pricing import HOURS_PER_MONTH, SECONDS_PER_HOUR
from modeling.model import TableClass, TrafficProfile
from modeling.traffic import HOURS_PER_DAY, hourly_shares

# dynamodb-facts §6 (Limits and overheads) and §4.1: storage bills 100 bytes per item and per index
# entry on top of the item size https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
STORAGE_OVERHEAD_BYTES_PER_ITEM = 100
# dynamodb-facts §5: global tables add 48 bytes per item (same page)
GLOBAL_TABLE_OVERHEAD_BYTES_PER_ITEM = 48
# dynamodb-facts §0.2 and §15 item 8: whether the bill's GB is 10^9 or 2^30 bytes is UNCONFIRMED.
# We follow the facts file's binary convention (1 GB = 1,024 MB) and state it as an assumption.
BYTES_PER_GB = 1024**3


@dataclass(frozen=True)
class ResourceUsage:
    """Consumption of the base table or one index: 24 hourly averages of units per second, and storage.

    `is_gsi=False` with a name other than the table's is an LSI, whose reads and writes use the base
    table's capacity (dynamodb-facts §4.2) and whose size counts towards PITR like the table's.
    """

    name: str
    read_units_per_second: tuple[float, ...]
    write_units_per_second: tuple[float, ...]
    is_gsi: bool = False
    storage_bytes: int = 0

    def __post_init__(self) -> None:
        for rates, label in ((self.read_units_per_second, "read"), (self.write_units_per_second, "write")):
            _check_hourly(rates, f"{self.name}.{label}_units_per_second")
        if self.storage_bytes < 0:
            raise UsageError("storage cannot be negative", f"{self.name}.storage_bytes", self.storage_bytes)

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
        return max(self.read_units_per_second)

    @property
    def peak_write_units_per_second(self) -> float:
        return max(self.write_units_per_second)


@dataclass(frozen=True)
class TableUsage:
    """Everything the engine needs about one table: consumption, storage and billing-relevant settings.

    `stream_read_requests_per_month` counts billable GetRecords calls only: those made by Lambda
    triggers and by global-table replication are free (dynamodb-facts §9.2, Streams row).
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
        if self.on_demand_backup_gb < 0:
            raise UsageError("backup size must not be negative", "on_demand_backup_gb", self.on_demand_backup_gb)

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
    bad = [rate for rate in rates if not (isinstance(rate, int | float) and math.isfinite(rate) and rate >= 0)]
    if bad:
        raise UsageError("rates must be finite and not negative", label, bad[0], "units per second, e.g. 12.5")
