"""Monthly cost of one table for each capacity option and table class, as line items.

`estimate_monthly_cost(usage, price_sheet, options)` prices a `TableUsage` on-demand, provisioned at a
fixed capacity, provisioned with auto scaling, and with 1- or 3-year reserved capacity, for the
Standard and Standard-IA classes. Every figure is a `CostLineItem` (name, unit, quantity, unit price,
monthly cost in Decimal USD, source, confidence, assumption flag); totals are sums of line items,
each rounded to the cent as a bill does. A price that is not available makes its line "not available"
and the option incomplete, never $0. A month is 730 hours (dynamodb-rules §0.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, localcontext

from costs.autoscaling import (
    CapacityPlan,
    DimensionScaling,
    monthly_unit_hours,
)
from costs.errors import PriceSheetError
from costs.pricing import (
    HOURS_PER_MONTH,
    RESERVED_BLOCK_UNITS,
    CapacityDimension,
    CostLineItem,
    Price,
    PriceItem,
    PriceSheet,
    block_month_usd,
    break_even_utilization,
    line_item,
    on_demand_item,
    price_sheet_for,
    provisioned_item,
    reserved_blocks,
    reserved_items,
    round_to_cent,
)
from costs.quotas import quota_findings
from costs.usage import (
    RESERVED_TERM_YEARS,
    CapacityCurves,
    CapacityDemand,
    CapacityOption,
    EstimateOptions,
    TableUsage,
    bytes_to_gb,
    capacity_demands,
    describe_assumptions,
    elementwise_sum,
    label,
    monthly_units,
)
from modeling.model import TableClass
from modeling.traffic import HOURS_PER_DAY

MONTHS_PER_YEAR = 12  # reserved upfront fees are spread over 12 x term months (§9.2)
READ, WRITE = CapacityDimension.READ, CapacityDimension.WRITE


@dataclass(frozen=True)
class OptionEstimate:
    option: CapacityOption
    table_class: TableClass
    line_items: tuple[CostLineItem, ...] = ()
    unavailable_reason: str = ""
    upfront_usd: Decimal = Decimal(0)
    capacity: tuple[CapacityPlan, ...] = ()
    # with a reason: False when AWS does not offer the option (reserved for Standard-IA), True when it is
    # offered but our price sheet lacks a price for it (unknown, never "not offered")
    offered: bool = True

    @property
    def monthly_total_usd(self) -> Decimal | None:
        """Sum of the line items; None when the option is unavailable or a price is missing (never $0)."""
        return self.priced_subtotal_usd if self.is_complete else None

    @property
    def priced_subtotal_usd(self) -> Decimal:
        """Sum of the line items that have a price (a lower bound when the option is incomplete)."""
        return sum((i.monthly_cost_usd for i in self.line_items if i.monthly_cost_usd is not None), Decimal(0))

    @property
    def is_complete(self) -> bool:
        return not self.unavailable_reason and all(i.monthly_cost_usd is not None for i in self.line_items)

    @property
    def has_assumptions(self) -> bool:
        return any(item.is_assumption for item in self.line_items)

    @property
    def missing_lines(self) -> tuple[str, ...]:
        """Names of the lines without a price (sorted)."""
        return tuple(sorted(i.name for i in self.line_items if i.monthly_cost_usd is None))

    @property
    def lacks_throughput_price(self) -> bool:
        """A read, write or capacity line has no price: the option is not available (never $0)."""
        return any(not _is_shared_line(name) for name in self.missing_lines)

    @property
    def serves_peak(self) -> bool:
        """Whether every resource's capacity reaches its busiest minute (on-demand: always)."""
        return all(plan.serves_peak for plan in self.capacity)

    @property
    def status(self) -> str:
        """Plain words for a table cell: the total, or why there is none."""
        if self.unavailable_reason:
            return f"{'not available' if self.offered else 'not offered'}: {self.unavailable_reason}"
        if self.lacks_throughput_price:
            return "not available: no price for " + ", ".join(n for n in self.missing_lines if not _is_shared_line(n))
        if not self.serves_peak:
            return "cannot serve the peak: capacity stays below the busiest minute's demand"
        if self.missing_lines:
            return f"${self.priced_subtotal_usd:,} excluding " + ", ".join(self.missing_lines) + " (no price)"
        return f"${self.monthly_total_usd:,}"


# Lines every option of a class shares (storage, backups, Streams): an option missing only these is compared on
# what is priced, and says what it excludes; a missing read, write or capacity price makes it not available.
_SHARED_PREFIXES = ("storage", "point-in-time", "on-demand backups", "dynamodb streams")


def _is_shared_line(name: str) -> bool:
    return name.lower().startswith(_SHARED_PREFIXES)


@dataclass(frozen=True)
class StorageProjection:
    table_class: TableClass
    month: int
    storage_gb: Decimal
    monthly_cost_usd: Decimal | None


@dataclass(frozen=True)
class Recommendation:
    option: CapacityOption
    table_class: TableClass
    monthly_cost_usd: Decimal
    reason: str
    break_even_read_utilization: Decimal | None
    break_even_write_utilization: Decimal | None
    saving_usd: Decimal  # against the runner-up
    runner_up: str
    saving_vs_on_demand_usd: Decimal | None
    excluded_lines: tuple[str, ...] = ()  # unpriced lines common to every option compared (not in the total)


@dataclass(frozen=True)
class CostEstimate:
    region: str
    price_sheet_effective_date: date
    options: tuple[OptionEstimate, ...]
    recommendation: Recommendation | None
    storage_projections: tuple[StorageProjection, ...]
    assumptions: tuple[str, ...]
    quota_findings: tuple[str, ...] = ()  # quota increases the load needs (dynamodb-rules §8), never ceilings

    def option(self, option: CapacityOption, table_class: TableClass = TableClass.STANDARD) -> OptionEstimate:
        return next(o for o in self.options if o.option is option and o.table_class is table_class)


def estimate_monthly_cost(usage: TableUsage, price_sheet: PriceSheet,
                          options: EstimateOptions | None = None) -> CostEstimate:
    """Price `usage` for every option and class in `options`; see the module docstring."""
    options = options or EstimateOptions()
    curves = CapacityCurves(usage, options)
    estimates = tuple(_option_estimate(usage, price_sheet, options, curves, option, table_class)
                      for table_class in options.table_classes for option in options.capacity_options)
    return CostEstimate(price_sheet.region, price_sheet.effective_date, estimates,
                        _recommend(estimates, price_sheet, curves), _projections(usage, price_sheet, options),
                        _assumptions(usage, options), quota_findings(usage, curves))


def option_estimate(usage: TableUsage, price_sheet: PriceSheet, options: EstimateOptions, option: CapacityOption,
                    table_class: TableClass) -> OptionEstimate:
    """One option of `estimate_monthly_cost(usage, price_sheet, options)`, the same figures, without pricing the
    others or the recommendation (the key-design search ranks thousands of layouts on on-demand alone)."""
    return _option_estimate(usage, price_sheet, options, CapacityCurves(usage, options), option, table_class)


def _assumptions(usage: TableUsage, options: EstimateOptions) -> tuple[str, ...]:
    extra: tuple[str, ...] = ()
    if usage.replica_regions:
        extra = ("Global table: reserved capacity covers reads and non-replicated writes (GSI writes) in the home "
                 "Region; the table's replicated writes (rWCU) and every replica Region stay at provisioned rates. "
                 "AWS's text says reservations are not for rWCU; whether a global table's RCU can be reserved is "
                 "our reading (https://aws.amazon.com/dynamodb/pricing/provisioned/), an assumption.",
                 "Each replica Region's writes and storage are priced at that Region's own sheet; a Region without "
                 "a price is not available, never the home Region's price.")
    return (*describe_assumptions(usage, options), *extra)


# --- one option ----------------------------------------------------------------------------------------


@dataclass
class _Pricing:
    """What the line builders share for one option and class."""

    usage: TableUsage
    sheet: PriceSheet
    options: EstimateOptions
    table_class: TableClass
    free_unit_hours: dict[CapacityDimension, Decimal] = field(default_factory=dict)

    def price(self, item: PriceItem) -> Price:
        return self.sheet.price(item, self.table_class)


def _option_estimate(usage: TableUsage, sheet: PriceSheet, options: EstimateOptions, curves: CapacityCurves,
                     option: CapacityOption, table_class: TableClass) -> OptionEstimate:
    ctx = _Pricing(usage, sheet, options, table_class, _free_unit_hours(usage, sheet, table_class))
    if option in RESERVED_TERM_YEARS and (reason := _reserved_unavailable(ctx, RESERVED_TERM_YEARS[option])):
        return OptionEstimate(option, table_class, unavailable_reason=reason[0], offered=reason[1])
    shared = (*storage_lines(ctx), *_extra_lines(ctx))
    if option is CapacityOption.ON_DEMAND:
        return OptionEstimate(option, table_class, (*_on_demand_lines(ctx), *shared, *_replica_lines(ctx, None)))
    basis = options.reserved_basis if option in RESERVED_TERM_YEARS else option
    curve = curves.get(basis)
    plans = curves.plans(basis)
    if option in RESERVED_TERM_YEARS:
        lines, upfront = _reserved_lines(ctx, curve, RESERVED_TERM_YEARS[option])
        return OptionEstimate(option, table_class, (*lines, *shared, *_replica_lines(ctx, curve)),
                              upfront_usd=upfront, capacity=plans)
    throughput = _provisioned_lines(ctx, curve)
    return OptionEstimate(option, table_class, (*throughput, *shared, *_replica_lines(ctx, curve)), capacity=plans)


def _reserved_unavailable(ctx: _Pricing, years: int) -> tuple[str, bool] | None:
    """(why the reserved term has no estimate, whether AWS offers it), or None when it can be priced."""
    # dynamodb-rules §9.2 (Reserved-capacity rules): Standard class, single-Region tables only
    # https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/822948021fcd815a33c040fb6cce5fa0d4127df4/doc_source/HowItWorks.ReadWriteCapacityMode.md
    if ctx.table_class is not TableClass.STANDARD:
        return ("reserved capacity is not offered for Standard-IA tables "
                "(https://aws.amazon.com/dynamodb/pricing/provisioned/)"), False
    # a missing price is unknown to us, not a sign that AWS does not sell the term: say so
    missing = [item.value for dim in CapacityDimension for item in (*reserved_items(years, dim), provisioned_item(dim))
               if ctx.price(item).value is None]
    if missing:
        return (f"no price for {', '.join(missing)}: not available in the {ctx.sheet.region} price sheet (enter "
                "a negotiated price to include it)", True)
    return None


def _on_demand_lines(ctx: _Pricing) -> list[CostLineItem]:
    """Request units per month; a global table's base-table writes are rWRU in every Region (§5, W27)."""
    lines = []
    for demand in capacity_demands(ctx.usage):
        what = _resource_label(demand.name, demand.is_table)
        lines.append(line_item(f"Reads, {what} (RRU)", ctx.price(on_demand_item(READ)),
                               monthly_units(demand.read_units_per_second)))
        replicated = demand.is_table and ctx.usage.replica_regions
        item = PriceItem.REPLICATED_WRITE_REQUEST_UNITS if replicated else on_demand_item(WRITE)
        name = f"Replicated writes, {what}, {ctx.sheet.region} (rWRU)" if replicated else f"Writes, {what} (WRU)"
        lines.append(line_item(name, ctx.price(item), monthly_units(demand.write_units_per_second)))
    return lines


def _provisioned_lines(ctx: _Pricing, curve: dict[tuple[str, CapacityDimension], DimensionScaling]
                       ) -> list[CostLineItem]:
    lines = []
    for (name, dim), scaling in curve.items():
        is_table = name == ctx.usage.table.name
        what = f"table {name}" if is_table else f"index {name}"
        if dim is WRITE and is_table and ctx.usage.replica_regions:
            lines.append(line_item(f"Replicated write capacity, {what}, {ctx.sheet.region} (rWCU-hours)",
                                   ctx.price(PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS),
                                   monthly_unit_hours(scaling)))
            continue
        unit = "RCU" if dim is READ else "WCU"
        lines.append(_free_tier_line(ctx, f"{'Read' if dim is READ else 'Write'} capacity, {what} ({unit}-hours)",
                                     ctx.price(provisioned_item(dim)), monthly_unit_hours(scaling), dim))
    return lines


def _reserved_lines(ctx: _Pricing, curve: dict[tuple[str, CapacityDimension], DimensionScaling],
                    years: int) -> tuple[list[CostLineItem], Decimal]:
    """Blocks of 100 units sized to the cheapest count, upfront amortised over the term, the rest on-rate."""
    lines, upfront_usd = [], Decimal(0)
    table, replicated = ctx.usage.table.name, bool(ctx.usage.replica_regions)
    for dim in CapacityDimension:
        # a global table's replicated writes (rWCU) cannot be reserved (§9.2): priced on their own line
        reservable = [(name, s) for (name, d), s in curve.items() if d is dim and not (
            replicated and dim is WRITE and name == table)]
        if replicated and dim is WRITE:
            lines.append(line_item(f"Replicated write capacity, table {table}, {ctx.sheet.region} (rWCU-hours)",
                                   ctx.price(PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS),
                                   monthly_unit_hours(curve[(table, WRITE)]), assumed=True))
        if not reservable:
            continue
        total = elementwise_sum([s.capacity_units for _, s in reservable])
        upfront, hourly = (ctx.price(item) for item in reserved_items(years, dim))
        on_rate = ctx.price(provisioned_item(dim))
        block_month = block_month_usd(ctx.sheet, years, dim)
        if upfront.value is None or on_rate.value is None or block_month is None:
            # `_reserved_unavailable` returns first when any of these prices is missing
            raise PriceSheetError("a reserved or provisioned price is missing", "prices", ctx.sheet.region)
        blocks = reserved_blocks(total, block_month, on_rate.value, ctx.free_unit_hours.get(dim, Decimal(0)))
        unit = "RCU" if dim is READ else "WCU"
        months = MONTHS_PER_YEAR * years
        amortised = dataclasses.replace(upfront, value=upfront.value / months, per=1,
                                        unit=f"{upfront.unit}-month (upfront / {months} months)")
        excess = DimensionScaling((total - blocks * RESERVED_BLOCK_UNITS).clip(min=0), total)
        if blocks:
            lines += [line_item(f"Reserved {unit}, {years}-year, upfront amortised ({blocks} x 100 {unit})",
                                amortised, Decimal(blocks)),
                      line_item(f"Reserved {unit}, {years}-year, hourly ({blocks} x 100 {unit})", hourly,
                                blocks * HOURS_PER_MONTH)]
        rest = f"{unit} above the reservation" if blocks else f"{unit} at the provisioned rate, none reserved"
        lines.append(_free_tier_line(ctx, f"{rest} ({unit}-hours)", on_rate, monthly_unit_hours(excess), dim))
        upfront_usd += blocks * upfront.value
    return lines, upfront_usd


# --- lines every option shares ---------------------------------------------------------------------


def storage_lines(ctx: _Pricing, where: str = "") -> list[CostLineItem]:
    """Storage of the table and each index at the class's price, after the free tier when it is on (§9.2)."""
    price, free_left = ctx.price(PriceItem.STORAGE_GB_MONTH), _free_storage_gb(ctx)
    lines = []
    for resource in (ctx.usage.table, *ctx.usage.indexes):
        gb = bytes_to_gb(resource.storage_bytes, ctx.options.bytes_per_gb)
        free = min(free_left, gb)
        free_left -= free
        kind = "table" if resource is ctx.usage.table else ("GSI" if resource.is_gsi else "LSI")
        note = "no storage given: depends on usage" if not gb else (f"{free} GB free tier deducted" if free else "")
        lines.append(line_item(f"Storage{where}, {kind} {resource.name} (GB-month)", price, gb - free, note))
    return lines


def _extra_lines(ctx: _Pricing) -> list[CostLineItem]:
    """PITR, on-demand backups and Streams reads, only when the usage has them."""
    usage, lines = ctx.usage, []
    # dynamodb-rules §9.2: PITR is billed on table + LSI size, any retention
    # https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamodbDisasterRecoveryStrategy.html
    if usage.point_in_time_recovery:
        pitr_bytes = usage.table.storage_bytes + sum(lsi.storage_bytes for lsi in usage.lsis)
        pitr_gb = bytes_to_gb(pitr_bytes, ctx.options.bytes_per_gb)
        lines.append(line_item("Point-in-time recovery, table + LSIs (GB-month)",
                               ctx.price(PriceItem.CONTINUOUS_BACKUP_GB_MONTH), pitr_gb))
    if usage.on_demand_backup_gb:
        lines.append(line_item("On-demand backups (GB-month)", ctx.price(PriceItem.ON_DEMAND_BACKUP_GB_MONTH),
                               Decimal(usage.on_demand_backup_gb)))
    # dynamodb-rules §9.2 (Streams): 2.5 M free GetRecords a month per account and Region (free tier)
    # https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CostOptimization_StreamsUsage.html
    if usage.stream_read_requests_per_month:
        reads = Decimal(usage.stream_read_requests_per_month)
        allowance = ctx.price(PriceItem.FREE_TIER_STREAMS_READ_REQUEST_UNITS).value or Decimal(0)
        free = min(allowance, reads) if usage.free_tier else Decimal(0)
        note = f"{free:,} free-tier reads deducted" if free else "free tier off: the 2.5 M free reads not deducted"
        streams = ctx.price(PriceItem.STREAMS_READ_REQUEST_UNITS)
        lines.append(line_item("DynamoDB Streams reads", streams, reads - free, note))
    return lines


def _replica_lines(ctx: _Pricing, curve: dict[tuple[str, CapacityDimension], DimensionScaling] | None
                   ) -> list[CostLineItem]:
    """Per replica Region: replicated table writes (rWRU/rWCU), GSI writes (WRU/WCU) and storage (§5)."""
    lines = []
    for region in ctx.usage.replica_regions:
        sheet = ctx.options.replica_price_sheets.get(region) or price_sheet_for(region)
        replica = dataclasses.replace(ctx, sheet=sheet, free_unit_hours={})
        for demand in capacity_demands(ctx.usage):
            name, item, units = _replica_write(demand, curve)
            what = _resource_label(demand.name, demand.is_table)
            lines.append(line_item(name.format(what=what, region=region), replica.price(item), units,
                                   f"{region} prices"))
        lines += _ttl_delete_lines(replica, curve, region)
        lines += storage_lines(replica, where=f" in {region}")
    return lines


def _ttl_delete_lines(replica: _Pricing, curve: dict[tuple[str, CapacityDimension], DimensionScaling] | None,
                      region: str) -> list[CostLineItem]:
    """TTL deletes replicated into one replica Region (dynamodb-rules §5): the table's at the replicated write price,
    a GSI's at the ordinary one. Provisioned: the capacity that serves their average rate at the scaling target
    (DynamoDB deletes expired items in the background, spread over time, not at the traffic's peak)."""
    lines = []
    table = replica.usage.table.name
    target = Decimal(repr(replica.options.scaling_policy.target_utilization))
    for name, units_per_second in replica.usage.ttl_delete_units_per_second:
        name_format, item = _REPLICA_WRITES[(curve is None, name == table)]
        if curve is None:
            units = monthly_units((units_per_second,) * HOURS_PER_DAY)
            note = f"{units_per_second:.4g} TTL deletes' write units/s on average; {region} prices"
        else:
            units = (Decimal(repr(units_per_second)) / target * HOURS_PER_MONTH).quantize(Decimal("0.000001"))
            note = (f"{units_per_second:.4g} write units/s on average at {target:.0%} target utilisation; "
                    f"{region} prices")
        what = _resource_label(name, is_table=name == table)
        lines.append(line_item(f"TTL deletes: {name_format.format(what=what, region=region)}",
                               replica.price(item), units, note))
    return lines


# dynamodb-rules §5: table writes are replicated write units in every Region; GSI writes are ordinary units
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-understanding-billing.html
_REPLICA_WRITES = {  # (on-demand, base table) -> (line name, price item)
    (True, True): ("Replicated writes, {what}, {region} (rWRU)", PriceItem.REPLICATED_WRITE_REQUEST_UNITS),
    (True, False): ("Writes, {what}, {region} (WRU)", PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS),
    (False, True): ("Replicated write capacity, {what}, {region} (rWCU-hours)",
                    PriceItem.REPLICATED_WRITE_CAPACITY_UNIT_HOURS),
    (False, False): ("Write capacity, {what}, {region} (WCU-hours)", PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS),
}


def _replica_write(demand: CapacityDemand, curve: dict[tuple[str, CapacityDimension], DimensionScaling] | None
                   ) -> tuple[str, PriceItem, Decimal]:
    units = (monthly_units(demand.write_units_per_second) if curve is None
             else monthly_unit_hours(curve[(demand.name, WRITE)]))
    return (*_REPLICA_WRITES[(curve is None, demand.is_table)], units)


# --- recommendation ----------------------------------------------------------------------------------


def _recommend(estimates: tuple[OptionEstimate, ...], sheet: PriceSheet,
               curves: CapacityCurves) -> Recommendation | None:
    """The cheapest complete option (ties: Standard, then the simpler option) and why."""
    comparable, excluded = _comparable(estimates)
    ranked = sorted(comparable, key=_recommendation_order)
    if not ranked:
        return None
    best, runner = ranked[0], (ranked[1] if len(ranked) > 1 else None)
    breaks = [break_even_utilization(sheet, best.table_class, d) for d in (READ, WRITE)]
    on_demand = next((e for e in ranked if e.option is CapacityOption.ON_DEMAND
                      and e.table_class is best.table_class), None)
    basis = {CapacityOption.ON_DEMAND: CapacityOption.PROVISIONED_AUTOSCALING,
             **dict.fromkeys(RESERVED_TERM_YEARS, curves.options.reserved_basis)}.get(best.option, best.option)
    utilization = curves.utilization(basis, sheet, best.table_class)
    saving = runner.priced_subtotal_usd - best.priced_subtotal_usd if runner else Decimal(0)
    runner_label = f"{label(runner.option)} ({label(runner.table_class)})" if runner else ""
    reason = _reason(best, runner_label, saving, utilization, breaks)
    if excluded:
        reason += (f" The total excludes {', '.join(excluded)}: no price in this Region (the same in every option "
                   "compared; enter a negotiated price to include them).")
    if on_demand is None:
        left_out = next((e for e in estimates if e.option is CapacityOption.ON_DEMAND
                         and e.table_class is best.table_class), None)
        reason += (" On-demand is left out of this comparison" + (f" ({left_out.status})" if left_out else "")
                   + ", so this is the cheapest of the options that could be priced.")
    if best.option in RESERVED_TERM_YEARS:
        reason += " " + _commitment(best, RESERVED_TERM_YEARS[best.option], on_demand)
    return Recommendation(best.option, best.table_class, best.priced_subtotal_usd, reason, breaks[0], breaks[1],
                          saving, runner_label,
                          on_demand.priced_subtotal_usd - best.priced_subtotal_usd if on_demand else None, excluded)


def _recommendation_order(estimate: OptionEstimate) -> tuple[Decimal, bool, int]:
    """The cheapest first; ties: Standard, then the simpler option (CapacityOption's order)."""
    return (estimate.priced_subtotal_usd, estimate.table_class is not TableClass.STANDARD,
            list(CapacityOption).index(estimate.option))


def recommended_subtotal_usd(usage: TableUsage, price_sheet: PriceSheet, options: EstimateOptions) -> Decimal | None:
    """The priced subtotal of the option `estimate_monthly_cost(usage, price_sheet, options)` recommends (the
    same figure), without its texts, projections or quota findings: the key-design search ranks every layout it
    prices on this. None when no option can be compared (no throughput price in the sheet)."""
    curves = CapacityCurves(usage, options)
    estimates = tuple(_option_estimate(usage, price_sheet, options, curves, option, table_class)
                      for table_class in options.table_classes for option in options.capacity_options)
    comparable, _ = _comparable(estimates)
    return min((e.priced_subtotal_usd for e in comparable), default=None)


def _comparable(estimates: tuple[OptionEstimate, ...]) -> tuple[list[OptionEstimate], tuple[str, ...]]:
    """Complete options; if there are none, the offered options that all lack the same prices (e.g. a
    Region without a PITR price), compared on what is priced, and the names of the lines left out."""
    offered = [e for e in estimates if not e.unavailable_reason and not e.lacks_throughput_price and e.serves_peak]
    complete = [e for e in offered if e.is_complete]
    if complete:
        return complete, ()
    if not offered:
        return [], ()
    fewest = min((e.missing_lines for e in offered), key=len)
    return [e for e in offered if e.missing_lines == fewest], fewest


def _commitment(best: OptionEstimate, years: int, on_demand: OptionEstimate | None) -> str:
    """What a reservation commits to, and how it fares if the traffic (still an estimate) is half of it.

    The reserved lines (upfront amortised and hourly) are paid whatever the traffic; on-demand throughput
    scales with the requests (§0.1), and storage is the same in both. So at half the traffic on-demand costs
    its storage plus half its throughput, the reservation at least its commitment plus storage; the
    reservation pays off while traffic stays above commitment / on-demand throughput of the estimate.
    """
    committed = _lines_usd(best, lambda name: name.startswith("Reserved "))
    text = (f"Reserved capacity is a {years}-year commitment: ${best.upfront_usd:,.2f} upfront and "
            f"${committed:,.2f} a month (upfront amortised) for {years * MONTHS_PER_YEAR} months, paid whatever the "
            "traffic turns out to be.")
    if on_demand is None:
        return text
    shared = _lines_usd(on_demand, _is_shared_line)
    throughput = on_demand.priced_subtotal_usd - shared
    best_shared = _lines_usd(best, _is_shared_line)
    if throughput <= 0:
        return text
    half = shared + throughput / 2
    text += (f" If traffic is half the estimate, on-demand would cost about ${half:,.2f} a month against at least "
             f"${committed + best_shared:,.2f} for the reservation")
    pays_off = min(committed / throughput, Decimal(1))
    return text + f"; it pays off while traffic stays above about {pays_off:.0%} of the estimate."


def _lines_usd(option: OptionEstimate, keep: Callable[[str], bool]) -> Decimal:
    """The priced monthly cost of the option's lines whose name `keep` accepts."""
    return sum((i.monthly_cost_usd or Decimal(0) for i in option.line_items if keep(i.name)), Decimal(0))


def _reason(best: OptionEstimate, runner: str, saving: Decimal, utilization: Decimal | None,
            breaks: list[Decimal | None]) -> str:
    versus = ((f", ${saving:,.2f} a month less than {runner}" if saving.quantize(Decimal("0.01"))
               else f", the same as {runner} to the cent (the simpler option wins the tie)") if runner else "")
    known = [b for b in breaks if b is not None]
    even = " / ".join(dict.fromkeys(f"{b:.1%}" for b in known))
    why = ""
    if utilization is not None and known:
        verb = "would be" if best.option is CapacityOption.ON_DEMAND else "is"
        why = (f"; provisioned capacity {verb} used at {utilization:.1%} on average, and provisioned at list price "
               f"breaks even with on-demand at {even} utilisation")
    return (f"{label(best.option)} ({label(best.table_class)}) is the cheapest option at "
            f"${best.priced_subtotal_usd:,.2f} a month{versus}{why}.")


# --- projections and assumptions ---------------------------------------------------------------------


def _projections(usage: TableUsage, sheet: PriceSheet, options: EstimateOptions) -> tuple[StorageProjection, ...]:
    """Storage (table + indexes) and its monthly cost after N months of compound growth."""
    growth, out = 1 + Decimal(repr(usage.monthly_growth_percent)) / 100, []
    with localcontext() as context:
        context.prec = 80  # 11^36 (1,000 % a month for 3 years) x an exabyte still fits
        for table_class, month in ((c, m) for c in options.table_classes for m in options.projection_months):
            price = sheet.price(PriceItem.STORAGE_GB_MONTH, table_class)
            free = _free_storage_gb(_Pricing(usage, sheet, options, table_class))
            gb = bytes_to_gb(usage.storage_bytes, options.bytes_per_gb) * growth**month
            cost = None if price.value is None else round_to_cent(max(gb - free, Decimal(0)) * price.value)
            out.append(StorageProjection(table_class, month, gb.quantize(Decimal("0.000001")), cost))
    return tuple(out)


# --- helpers -------------------------------------------------------------------------------------------


def _free_unit_hours(usage: TableUsage, sheet: PriceSheet, table_class: TableClass) -> dict[CapacityDimension, Decimal]:
    if not usage.free_tier:
        return {}
    items = {READ: PriceItem.FREE_TIER_READ_CAPACITY_UNITS, WRITE: PriceItem.FREE_TIER_WRITE_CAPACITY_UNITS}
    units = {dim: sheet.price(item, table_class).value for dim, item in items.items()}
    return {dim: value * HOURS_PER_MONTH for dim, value in units.items() if value}


def _free_storage_gb(ctx: _Pricing) -> Decimal:
    if not ctx.usage.free_tier:
        return Decimal(0)
    return ctx.price(PriceItem.FREE_TIER_STORAGE_GB).value or Decimal(0)


def _free_tier_line(ctx: _Pricing, name: str, price: Price, unit_hours: Decimal,
                    dim: CapacityDimension) -> CostLineItem:
    """A provisioned line after the always-free 25 units x 730 h, taken by the first lines that need it."""
    free = min(ctx.free_unit_hours.get(dim, Decimal(0)), unit_hours)
    if free:
        ctx.free_unit_hours[dim] -= free
    return line_item(name, price, unit_hours - free, f"{free:,} free-tier unit-hours deducted" if free else "")


def _resource_label(name: str, is_table: bool) -> str:
    return f"table {name}" if is_table else f"index {name}"
