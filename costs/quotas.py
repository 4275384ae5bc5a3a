"""Quota findings: the default quotas a load exceeds, and the increase to request (never a ceiling).

DynamoDB's throughput quotas are defaults that can be raised (dynamodb-rules §8, General Reference
https://docs.aws.amazon.com/general/latest/gr/ddb.html): per table (the table plus its GSIs) 40,000
read and 40,000 write units per second, in provisioned and in on-demand mode (§7.2); per account and
Region 80,000 provisioned read and write units. The engine prices what the load needs and names the
quota increase here.
"""

from __future__ import annotations

import math

from costs.pricing import CapacityDimension
from costs.usage import CapacityCurves, CapacityOption, TableUsage, capacity_demands
from modeling.limits import ACCOUNT_PROVISIONED_QUOTA_UNITS, TABLE_THROUGHPUT_QUOTA_UNITS  # default quotas

_UNITS = {CapacityDimension.READ: ("read", "RCU", "RRU"), CapacityDimension.WRITE: ("write", "WCU", "WRU")}


def quota_findings(usage: TableUsage, curves: CapacityCurves) -> tuple[str, ...]:
    """One sentence per quota the load exceeds: which quota, the default, and the value to request."""
    findings = []
    demands = capacity_demands(usage)
    fixed = curves.get(CapacityOption.PROVISIONED_FIXED)
    for dim, (word, capacity_unit, request_unit) in _UNITS.items():
        on_demand_peak = sum(float(d.minutes(dim).max(initial=0.0)) for d in demands)
        if on_demand_peak > TABLE_THROUGHPUT_QUOTA_UNITS:
            findings.append(
                f"On-demand: the busiest minute needs {math.ceil(on_demand_peak):,} {request_unit}/s on table "
                f"{usage.table.name} and its GSIs, above the default table-level {word} throughput quota of "
                f"{TABLE_THROUGHPUT_QUOTA_UNITS:,}: request an increase to at least {math.ceil(on_demand_peak):,} "
                "in Service Quotas or requests above it are throttled (AWS: "
                "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).")
        provisioned = sum(float(fixed[(d.name, dim)].capacity_units.max(initial=0.0)) for d in demands)
        if provisioned > TABLE_THROUGHPUT_QUOTA_UNITS:
            findings.append(
                f"Provisioned: serving the busiest minute at the target utilisation needs {provisioned:,.0f} "
                f"{capacity_unit} on table {usage.table.name} and its GSIs, above the default table-level {word} "
                f"quota of {TABLE_THROUGHPUT_QUOTA_UNITS:,}: request an increase to at least {provisioned:,.0f} "
                "before provisioning it (AWS: "
                "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).")
        if provisioned > ACCOUNT_PROVISIONED_QUOTA_UNITS:
            findings.append(
                f"Provisioned: {provisioned:,.0f} {capacity_unit} is above the default account-level {word} quota "
                f"of {ACCOUNT_PROVISIONED_QUOTA_UNITS:,} for the Region (shared by every table): request an "
                f"increase to at least {provisioned:,.0f} plus the other tables' capacity (AWS: "
                "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).")
    return tuple(findings)
