"""Infrastructure as code sized by the cost engine: one call for the Import & export page and the CLI.

`modeling.interop.infrastructure` writes the code; a provisioned table also needs capacities, and those come
from here: the same capacity profile and per-minute curves the Capacity & cost page prices
(`costs.capacity`, `costs.usage.CapacityCurves`), so the exported numbers and the estimate agree.

- Fixed capacity: ceil(peak hourly units/s / target), at least 1, for the table and each GSI (LSIs
  use the table's, dynamodb-rules §4.2).
- Auto scaling: the initial capacity is the fixed figure (the table serves its peak from the first
  minute), the minimum is the lowest capacity of the simulated day, the maximum is the fixed figure
  times `max_capacity_headroom` (room for growth beyond the modelled peak); target tracking at the
  chosen utilisation (§11.1).
- Quotas are never ceilings (§8): capacities follow what the load needs, and when the table with its
  GSIs goes above a default quota (40,000 units per table, 80,000 per account and Region, per
  dimension) the export says which quota to raise and to what, in the notes and in the code's header.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from costs.autoscaling import DEFAULT_TARGET_UTILIZATION, MIN_CAPACITY_UNITS, ScalingPolicy
from costs.capacity import capacity_profile, table_usage
from costs.design_ranking import chosen_design, proposal_refusal, propose
from costs.errors import UsageError
from costs.pricing import CapacityDimension
from costs.usage import CapacityCurves, CapacityOption, EstimateOptions
from modeling.design.plans import TABLE, Design
from modeling.interop.infrastructure import (
    DimensionCapacity,
    IacCode,
    IacFormat,
    ProvisionedCapacity,
    ResourceCapacity,
    infrastructure_code,
)
from modeling.limits import ACCOUNT_PROVISIONED_QUOTA_UNITS, TABLE_THROUGHPUT_QUOTA_UNITS
from modeling.model import BillingMode, Model
from studio.iac.monitoring import MonitoringOptions, monitoring_plan

DEFAULT_MAX_CAPACITY_HEADROOM = 2.0


@dataclass(frozen=True)
class InfrastructureRequest:
    model: Model
    format: IacFormat
    design_name: str | None = None  # None: the model's own design, else the first proposal
    auto_scaling: bool = True  # provisioned tables only
    target_utilization: float = DEFAULT_TARGET_UTILIZATION
    max_capacity_headroom: float = DEFAULT_MAX_CAPACITY_HEADROOM
    tags: tuple[tuple[str, str], ...] = field(default=())
    monitoring: MonitoringOptions = field(default=MonitoringOptions())  # alarms and dashboard (not in cli-json)


@dataclass(frozen=True)
class InfrastructureExport:
    code: IacCode
    design: Design
    capacity: ProvisionedCapacity | None

    def capacity_rows(self) -> list[dict[str, object]]:
        """One row per resource and dimension, for a table on the page."""
        if self.capacity is None:
            return []
        rows = []
        for resource, capacity in self.capacity.resources.items():
            for dimension, scaling in (("read", capacity.read), ("write", capacity.write)):
                rows.append({"resource": resource, "dimension": dimension,
                             "provisioned units": scaling.capacity_units,
                             "auto scaling min": scaling.min_capacity_units,
                             "auto scaling max": scaling.max_capacity_units})
        return rows


def export_infrastructure(request: InfrastructureRequest) -> InfrastructureExport:
    """The model's design as code; provisioned tables get the capacities the cost engine sizes."""
    design = chosen_design(propose(request.model), request.design_name or None, proposal_refusal(request.model))
    capacity = None
    if request.model.table.billing_mode is BillingMode.PROVISIONED:
        capacity = provisioned_capacity(request.model, design, request.auto_scaling, request.target_utilization,
                                        request.max_capacity_headroom)
    monitoring = monitoring_plan(request.model, design, capacity_profile(request.model, design), capacity,
                                 request.target_utilization, request.monitoring)
    code = infrastructure_code(request.model, design.key_design, request.format, capacity, request.tags, monitoring)
    return InfrastructureExport(code, design, capacity)


def provisioned_capacity(model: Model, design: Design, auto_scaling: bool = True,
                         target_utilization: float = DEFAULT_TARGET_UTILIZATION,
                         max_capacity_headroom: float = DEFAULT_MAX_CAPACITY_HEADROOM) -> ProvisionedCapacity:
    """Capacities of the table and each GSI from the model's traffic; see the module docstring."""
    if not 1.0 <= max_capacity_headroom <= 100.0:
        raise UsageError("the maximum-capacity headroom is out of range", "max_capacity_headroom",
                         max_capacity_headroom, "give a factor between 1 and 100, e.g. 2")
    policy = ScalingPolicy(target_utilization=target_utilization)
    usage = table_usage(model, design, capacity_profile(model, design))
    curves = CapacityCurves(usage, EstimateOptions(scaling_policy=policy))
    fixed = curves.get(CapacityOption.PROVISIONED_FIXED)
    scaled = curves.get(CapacityOption.PROVISIONED_AUTOSCALING) if auto_scaling else {}
    resources = {}
    for demand in curves.demands:
        name = TABLE if demand.is_table else demand.name
        resources[name] = ResourceCapacity(*(
            _dimension(fixed[(demand.name, dim)].capacity_units.max(),
                       scaled[(demand.name, dim)].capacity_units.min() if auto_scaling else None,
                       max_capacity_headroom)
            for dim in (CapacityDimension.READ, CapacityDimension.WRITE)))
    how = (f"auto scaling with a {target_utilization:.0%} target; initial capacity serves the peak hour, "
           f"minimum is the lowest of the simulated day, maximum {max_capacity_headroom:g}x the peak figure"
           if auto_scaling else f"fixed capacity: ceil(peak hourly units/s / {target_utilization:g})")
    source = (f"Capacities come from the cost engine (the Capacity & cost page's figures for the design "
              f"'{design.name}'): the access patterns' units at the peak hour of the "
              f"'{model.traffic_profile.shape}' traffic profile, {how}.")
    return ProvisionedCapacity(resources, target_utilization * 100 if auto_scaling else None, source,
                               _quota_findings(model.table.name, resources, auto_scaling))


def _quota_findings(table_name: str, resources: dict[str, ResourceCapacity], auto_scaling: bool) -> tuple[str, ...]:
    """The default quotas (dynamodb-rules §8, adjustable) the exported capacities of the table and its GSIs exceed."""
    what = "the auto scaling maximum" if auto_scaling else "the provisioned capacity"
    findings = []
    for word, unit in (("read", "RCU"), ("write", "WCU")):
        # the quota counts the table and its GSIs together; auto scaling may reach every maximum at once
        dimensions = [r.read if word == "read" else r.write for r in resources.values()]
        units = sum(d.max_capacity_units or d.capacity_units for d in dimensions)
        for scope, quota in (("table-level", TABLE_THROUGHPUT_QUOTA_UNITS),
                             ("account-level (every table in the Region)", ACCOUNT_PROVISIONED_QUOTA_UNITS)):
            if units > quota:
                findings.append(
                    f"{what.capitalize()} of table {table_name} and its GSIs adds up to {units:,} {unit}, above "
                    f"the default {scope} {word} quota of {quota:,} (adjustable, AWS: "
                    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html): request an "
                    f"increase to at least {units:,} {unit} in Service Quotas before deploying, or the capacity "
                    "above the quota cannot be set.")
    return tuple(findings)


def _dimension(fixed_units: float, lowest_scaled_units: float | None, headroom: float) -> DimensionCapacity:
    units = max(MIN_CAPACITY_UNITS, math.ceil(fixed_units))
    if lowest_scaled_units is None:
        return DimensionCapacity(units)
    highest = max(units, math.ceil(units * headroom))  # never capped at a quota: see _quota_findings
    lowest = max(MIN_CAPACITY_UNITS, min(units, math.floor(lowest_scaled_units)))
    return DimensionCapacity(units, lowest, highest)
