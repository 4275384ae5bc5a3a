"""The whole estimate of a given design: what the Capacity & cost page, the CLI and the report show.

The design is chosen before (`studio.estimate.estimate_model` runs the search and picks the model's own or a
proposal); `estimate_design` works out capacity per access pattern (`costs.capacity`), prices every option and
table class (`costs.monthly`), and derives the tables a reviewer reads: units and on-demand cost per access
pattern and per index, and the same estimate for the other candidate designs with deltas per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from costs.autoscaling import ScalingPolicy
from costs.capacity import CapacityProfile, UsageExtras
from costs.cost_text import missing_kinds
from costs.design_cost import priced_design
from costs.design_ranking import lost_because
from costs.errors import CostError
from costs.monthly import CostEstimate, OptionEstimate
from costs.pricing import (
    HOURS_PER_MONTH,
    SECONDS_PER_HOUR,
    CapacityDimension,
    Price,
    PriceItem,
    PriceSheet,
    available_regions,
    on_demand_item,
    price_sheet_for,
    provisioned_item,
    round_to_cent,
    with_override,
)
from costs.usage import CapacityCurves, CapacityOption, EstimateOptions, TableUsage, label, monthly_units
from modeling.design.plans import Design
from modeling.model import Model, TableClass

REGION_NAME = re.compile(r"^[a-z]{2}(-gov)?-[a-z]+-\d$")
SECONDS_PER_MONTH = HOURS_PER_MONTH * SECONDS_PER_HOUR  # 730 h x 3,600 s (dynamodb-rules §0.2)


class UnknownRegionError(CostError):
    """No price sheet for the Region asked for."""


@dataclass(frozen=True)
class EstimateRequest:
    model: Model
    design_name: str | None = None  # None: the model's own design, else the first proposal
    region: str | None = None  # None: the model's table Region
    target_utilization: float = 0.7
    free_tier: bool = False
    price_overrides: tuple[tuple[PriceItem, TableClass | None, Decimal], ...] = ()
    compare_designs: bool = True
    extras: UsageExtras = field(default_factory=UsageExtras)


@dataclass(frozen=True)
class ModelEstimate:
    design: Design
    designs: tuple[Design, ...]
    price_sheet: PriceSheet
    profile: CapacityProfile
    usage: TableUsage
    cost: CostEstimate
    pattern_rows: tuple[dict[str, Any], ...]
    resource_rows: tuple[dict[str, Any], ...]
    comparison: tuple[dict[str, Any], ...] = field(default=())
    line_deltas: tuple[dict[str, Any], ...] = field(default=())

    @property
    def region_message(self) -> str:
        """Empty when the Region has a shipped price sheet; otherwise what to do about it."""
        return region_message(self.price_sheet)

    @property
    def recommended(self) -> OptionEstimate | None:
        best = self.cost.recommendation
        return self.cost.option(best.option, best.table_class) if best else None


def region_message(sheet: PriceSheet) -> str:
    """The message every page, the CLI and the report show for a Region without a price sheet."""
    if sheet.is_shipped:
        return ""
    return (f"No price sheet ships for {sheet.region}: every price there is \"not available\" (never $0 and "
            f"never another Region's). Enter negotiated prices (per-unit USD) to price it, or choose one of the "
            f"priced Regions: {', '.join(available_regions())}.")


def estimate_design(request: EstimateRequest, sheet: PriceSheet, design: Design,
                    designs: tuple[Design, ...]) -> ModelEstimate:
    """Capacity and monthly cost of `design` at `sheet`'s prices (`request_price_sheet`), with the other candidates
    (`designs`, the search's, the winner first) side by side."""
    model_json = request.model.model_dump_json()  # once: every design's price is keyed by it
    profile, usage, cost = _priced(request, design, sheet, model_json)
    comparison: tuple[dict[str, Any], ...] = ()
    deltas: tuple[dict[str, Any], ...] = ()
    if request.compare_designs and len(designs) > 1:
        others = {d.name: _priced(request, d, sheet, model_json)[2] for d in designs if d.name != design.name}
        # why each lost, from these estimates: at the Region asked for, as the table beside it (the ranking's
        # own reasons are priced in the model's Region)
        priced = {design.name: cost, **others}
        winner = designs[0]
        lost = {d.name: lost_because(request.model, winner, priced[winner.name], d, priced[d.name])
                for d in designs[1:]}
        lost[winner.name] = "cheapest (the search's winner)"
        comparison = tuple({**row, "why it lost": lost.get(row["design"], "")}
                           for row in _comparison_rows(design.name, cost, others))
        deltas = tuple(_line_deltas(design.name, cost, others))
    return ModelEstimate(design, designs, sheet, profile, usage, cost,
                         tuple(pattern_rows(profile, sheet, request.model.table.table_class)),
                         tuple(resource_rows(usage)), comparison, deltas)


def request_price_sheet(request: EstimateRequest) -> PriceSheet:
    """The Region's sheet; a Region without one gets every price "not available" (never another Region's),
    to be filled in with negotiated prices."""
    region = request.region or request.model.table.region
    if not REGION_NAME.match(region):
        raise UnknownRegionError("not an AWS Region name", "region", region,
                                 f"write it like us-east-1; priced Regions: {', '.join(available_regions())}")
    sheet = price_sheet_for(region)
    for item, table_class, value in request.price_overrides:
        sheet = with_override(sheet, item, value, table_class)
    return sheet


def _priced(request: EstimateRequest, design: Design, sheet: PriceSheet,
            model_json: str) -> tuple[CapacityProfile, TableUsage, CostEstimate]:
    """The design priced with the request's settings. The capacity does not depend on the Region, the prices,
    the target or the free tier, and the ranking priced the same designs with the default settings already:
    `priced_design` remembers both by content, so neither a rerun nor the first estimate after the ranking
    sizes or prices a design twice."""
    replicas = {r: price_sheet_for(r) for r in request.model.table.replica_regions}
    options = EstimateOptions(scaling_policy=ScalingPolicy(target_utilization=request.target_utilization),
                              replica_price_sheets=replicas)
    return priced_design(request.model, design, sheet, options, request.free_tier, request.extras, model_json)


# --- per access pattern and per index --------------------------------------------------------------


def pattern_rows(profile: CapacityProfile, sheet: PriceSheet, table_class: TableClass) -> list[dict[str, Any]]:
    """Units per request and per second for each pattern, its share, and its on-demand monthly cost."""
    read_price = sheet.price(PriceItem.ON_DEMAND_READ_REQUEST_UNITS, table_class)
    write_price = sheet.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, table_class)
    total = sum(float(c.units_per_request) * c.average_requests_per_second for c in profile.patterns) or 1.0
    rows = []
    for c in profile.patterns:
        writes = c.write_units_per_request + sum((u for _, u in c.index_write_units_per_request), Decimal(0))
        reads = c.read_units_per_request + c.fetch_read_units_per_request  # the index query and its fetch
        average_rps = Decimal(repr(c.average_requests_per_second))
        monthly = None
        if read_price.value is not None and write_price.value is not None:
            read_usd = reads * read_price.value / read_price.per
            write_usd = writes * write_price.value / write_price.per
            monthly = round_to_cent(average_rps * SECONDS_PER_MONTH * (read_usd + write_usd))
        rows.append({
            "access pattern": c.pattern, "operation": c.operation.value, "index": c.index,
            "read units per request": float(reads), "write units per request": float(writes),
            "index writes (units per request)": ", ".join(f"{i}: {float(u):g}" for i, u in
                                                          c.index_write_units_per_request),
            "peak requests/s": c.peak_requests_per_second, "average requests/s": c.average_requests_per_second,
            "peak units/s": float(c.units_per_request) * c.peak_requests_per_second,
            "average units/s": float(c.units_per_request) * c.average_requests_per_second,
            "share of units": float(c.units_per_request) * c.average_requests_per_second / total,
            "on-demand USD/month": monthly,
        })
    return rows


def resource_rows(usage: TableUsage) -> list[dict[str, Any]]:
    """The table and each index: average and peak units per second, storage."""
    rows = []
    for resource in (usage.table, *usage.indexes):
        kind = "table" if resource is usage.table else ("GSI" if resource.is_gsi else "LSI (uses the table's capacity)")
        reads, writes = resource.read_units_per_second, resource.write_units_per_second
        rows.append({"resource": resource.name, "kind": kind,
                     "average read units/s": sum(reads) / len(reads),
                     "peak-hour read units/s": resource.peak_read_units_per_second,
                     "average write units/s": sum(writes) / len(writes),
                     "peak-hour write units/s": resource.peak_write_units_per_second,
                     "storage GiB": resource.storage_bytes / 1024**3})
    return rows


# --- design comparison -------------------------------------------------------------------------------


def _best_total(cost: CostEstimate) -> tuple[str, Decimal | None]:
    best = cost.recommendation
    if best is None:
        return "no complete option", None
    return f"{label(best.option)} ({label(best.table_class)})", best.monthly_cost_usd


def _comparison_rows(chosen: str, cost: CostEstimate, others: dict[str, CostEstimate]) -> list[dict[str, Any]]:
    rows = []
    _base_label, base_total = _best_total(cost)
    on_demand = cost.option(CapacityOption.ON_DEMAND).monthly_total_usd
    for name, estimate in [(chosen, cost), *others.items()]:
        option, total = _best_total(estimate)
        od = estimate.option(CapacityOption.ON_DEMAND).monthly_total_usd
        rows.append({"design": name, "cheapest option": option, "cheapest USD/month": total,
                     "delta vs chosen USD/month": None if total is None or base_total is None else total - base_total,
                     "on-demand USD/month": od,
                     "on-demand delta USD/month": None if od is None or on_demand is None else od - on_demand})
    return rows


def _line_deltas(chosen: str, cost: CostEstimate, others: dict[str, CostEstimate]) -> list[dict[str, Any]]:
    """On-demand (Standard) line items of every design side by side, with the delta to the chosen one."""
    def lines(estimate: CostEstimate) -> dict[str, Decimal | None]:
        return {i.name: i.monthly_cost_usd for i in estimate.option(CapacityOption.ON_DEMAND).line_items}

    base = lines(cost)
    rows = []
    for name, estimate in others.items():
        other = lines(estimate)
        for line in dict.fromkeys([*base, *other]):
            ours, theirs = base.get(line), other.get(line)
            delta = None if ours is None and theirs is None else (theirs or Decimal(0)) - (ours or Decimal(0))
            rows.append({"design": name, "line item (on-demand, Standard)": line, f"{chosen} USD/month": ours,
                         "this design USD/month": theirs, "delta USD/month": delta})
    return rows


# --- data for the charts --------------------------------------------------------------------------------


def cost_components(cost: CostEstimate) -> list[dict[str, Any]]:
    """Tidy rows (option, component, monthly USD, excludes) for a stacked bar; components group line items by
    kind; `excludes` names the kinds of unpriced lines an option's bar leaves out ("" when none)."""
    rows = []
    for option in cost.options:
        if option.unavailable_reason or option.lacks_throughput_price:
            continue  # not offered, or no throughput price: nothing known to draw
        for item in option.line_items:
            if item.monthly_cost_usd is None:
                continue  # drawn only when known; "excludes" says what is left out (the chart's hover text)
            rows.append({"option": f"{label(option.option)} ({label(option.table_class)})",
                         "component": _component(item.name), "monthly USD": float(item.monthly_cost_usd),
                         "excludes": missing_kinds(option.missing_lines)})
    return rows


def _component(line_item_name: str) -> str:
    """The chart component of a line item: reads, writes, reserved capacity, storage, backups..."""
    name = line_item_name.lower()
    for prefix, component in (("reserved rcu", "reserved reads"), ("reserved wcu", "reserved writes"),
                              ("storage", "storage"), ("point-in-time", "point-in-time recovery")):
        if name.startswith(prefix):
            return component
    if name.startswith(("read", "rcu")):
        return "reads"
    if name.startswith(("write", "wcu")):
        return "writes"
    return name.split(",")[0].split("(")[0].strip()


def autoscaling_day(usage: TableUsage, target_utilization: float, resource: str | None = None,
                    dimension: CapacityDimension = CapacityDimension.READ) -> list[dict[str, Any]]:
    """One simulated day per minute: units consumed and capacity provisioned with auto scaling."""
    options = EstimateOptions(scaling_policy=ScalingPolicy(target_utilization=target_utilization))
    curves = CapacityCurves(usage, options).get(CapacityOption.PROVISIONED_AUTOSCALING)
    scaling = curves[(resource or usage.table.name, dimension)]
    return [{"minute": minute, "hour": minute / 60, "consumed units/s": float(consumed), "capacity units": float(cap)}
            for minute, (consumed, cap) in enumerate(zip(scaling.consumed_units, scaling.capacity_units, strict=True))]


def break_even_curve(usage: TableUsage, sheet: PriceSheet, table_class: TableClass) -> list[dict[str, Any]]:
    """Monthly throughput cost of on-demand vs provisioned at 10-100 % average utilisation (same consumption).

    Provisioned capacity-hours = units consumed / (3,600 x utilisation); on-demand pays per unit. The
    lines cross at the break-even utilisation (dynamodb-rules §10). A line whose read or write price is not
    available is None in every row (never $0): the chart leaves it out and says so.
    """
    units = {d: sum((monthly_units(r) for r in _rates(usage, d)), Decimal(0)) for d in CapacityDimension}
    on_demand = _sum_usd([(units[d], sheet.price(on_demand_item(d), table_class)) for d in CapacityDimension])
    rows = []
    for percent in range(10, 101, 5):
        hours = {d: units[d] / (SECONDS_PER_HOUR * Decimal(percent) / 100) for d in CapacityDimension}
        provisioned = _sum_usd([(hours[d], sheet.price(provisioned_item(d), table_class)) for d in CapacityDimension])
        rows.append({"utilisation %": percent, "on-demand USD/month": on_demand,
                     "provisioned USD/month": provisioned})
    return rows


def _rates(usage: TableUsage, dimension: CapacityDimension) -> list[tuple[float, ...]]:
    resources = (usage.table, *(i for i in usage.indexes if i.is_gsi))
    return [r.read_units_per_second if dimension is CapacityDimension.READ else r.write_units_per_second
            for r in resources]


def _sum_usd(quantities: list[tuple[Decimal, Price]]) -> float | None:
    """Sum of quantity x price; None when any price is not available (a missing price is never $0)."""
    total = Decimal(0)
    for quantity, price in quantities:
        if price.value is None:
            return None
        total += quantity / price.per * price.value
    return float(total)


def price_rows(sheet: PriceSheet) -> list[dict[str, Any]]:
    """Every price of the sheet with its unit, confidence, source and whether it is an assumption."""
    return [{"price": p.item.value, "table class": p.table_class.value if p.table_class else "",
             "USD": p.value, "per": p.unit_label, "confidence": p.confidence.value,
             "assumption": p.is_assumption, "source": p.source, "note": p.note} for p in sheet.prices]
