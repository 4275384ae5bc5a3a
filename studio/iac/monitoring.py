"""Launch alarms and a dashboard for the exported table, with thresholds derived from the cost engine's estimate.

Which operations to watch and how much traffic to expect come from `costs.capacity.capacity_profile` (the
one estimator, the Capacity & cost page's figures); provisioned capacities from `studio.iac.infrastructure`.
Metric, dimension and statistic names are AWS's ("DynamoDB Metrics and dimensions",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html); the account
alarms follow CloudWatch's recommended alarms for DynamoDB
(https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/Best_Practice_Recommended_Alarms_AWS_Services.html#DynamoDB).

- Throttling above 0: `ReadThrottleEvents` / `WriteThrottleEvents` per table and per GSI (a GSI needs both
  `TableName` and `GlobalSecondaryIndexName`: the table's figure leaves its GSIs out), and
  `ThrottledRequests` per operation the patterns use (`TableName`, `Operation`). Sum over one minute.
- Consumed versus provisioned (provisioned tables): `ConsumedReadCapacityUnits` is published per minute
  and read with Sum, so the threshold in units per minute is target x provisioned units/s x 60 s (AWS's own
  example: 80 % of 5 RCU = 0.8 x 5 x 60 = 240). With auto scaling the provisioned figure is the scaling
  maximum: above target at the maximum, auto scaling has no room left. Five minutes in a row, because
  burst capacity absorbs up to 300 s of unused capacity (dynamodb-rules §7.1).
- `SuccessfulRequestLatency` p99 per operation, `SystemErrors` per operation, `UserErrors` for the
  account (it has no `TableName`; HTTP 400s from bugs, not throttling or failed conditions), with a
  threshold of 1 % of the model's peak requests per minute.
- `ReplicationLatency` per replica Region (`TableName`, `ReceivingRegion`), Average.
- `AccountProvisionedReadCapacityUtilization` / `...Write...` (no dimensions, Maximum, > 80 %, 5-minute
  periods, 2 of 2) for provisioned tables: the account's provisioned-capacity quota is shared (§8).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from costs.capacity import CapacityProfile
from costs.errors import UsageError
from modeling.design.plans import TABLE, Design, Operation
from modeling.interop.iac_alarms import (
    ALARM_TOPIC_ARN_PATTERN,
    TABLE_NAME,
    DashboardWidget,
    MetricAlarm,
    Monitoring,
    Statistic,
)
from modeling.interop.iac_request import ProvisionedCapacity, scaled_resources
from modeling.model import Model

MINUTE_SECONDS = 60
CAPACITY_SUSTAINED_MINUTES = 5  # burst capacity covers up to 300 s of unused capacity (dynamodb-rules §7.1)
ERROR_SUSTAINED_MINUTES = 3  # of 5: the SDKs retry a lone HTTP 500; three bad minutes in five are not transient
USER_ERROR_SHARE = 0.01  # UserErrors above 1 % of the peak requests: a deploy sending malformed requests
# AWS's recommended account alarms: Maximum above 80 % over two 5-minute periods
ACCOUNT_UTILIZATION_PERCENT = 80.0
ACCOUNT_PERIOD_SECONDS = 300
# Global tables usually replicate within a second; an Average above 5 s for 10 minutes means falling behind
REPLICATION_LATENCY_MS = 5_000.0
REPLICATION_SUSTAINED_MINUTES = 10
# p99 latency inside DynamoDB (SuccessfulRequestLatency excludes the network), per operation: single-item
# calls are single-digit milliseconds; a Query or Scan page reads up to 1 MB; batches and transactions do
# up to 100 items' work. Starting points: tune them after a week of production traffic.
LATENCY_P99_MS = {Operation.GET_ITEM: 20.0, Operation.PUT_ITEM: 25.0, Operation.UPDATE_ITEM: 25.0,
                  Operation.DELETE_ITEM: 25.0, Operation.QUERY: 50.0, Operation.SCAN: 200.0,
                  Operation.BATCH_GET_ITEM: 100.0, Operation.BATCH_WRITE_ITEM: 100.0,
                  Operation.TRANSACT_GET_ITEMS: 100.0, Operation.TRANSACT_WRITE_ITEMS: 100.0}
LATENCY_SUSTAINED_MINUTES = 5


@dataclass(frozen=True)
class MonitoringOptions:
    alarms: bool = True
    account_alarms: bool = True  # UserErrors and the account utilisation alarms: once per account and Region
    dashboard: bool = True
    alarm_topic_arn: str = ""  # default of the SNS topic parameter; empty: alarms change state, notify nobody

    def __post_init__(self) -> None:
        if not re.match(ALARM_TOPIC_ARN_PATTERN, self.alarm_topic_arn):
            raise UsageError("the alarm topic is not an SNS topic ARN", "alarm_topic_arn", self.alarm_topic_arn,
                             "give arn:aws:sns:REGION:ACCOUNT:NAME (a standard topic), or leave it empty")


def monitoring_plan(model: Model, design: Design, profile: CapacityProfile, capacity: ProvisionedCapacity | None,
                    target_utilization: float, options: MonitoringOptions = MonitoringOptions()) -> Monitoring:
    """The alarms and dashboard for the design's table; see the module docstring for every threshold."""
    operations = sorted({p.operation for p in profile.patterns}, key=list(Operation).index)
    resources = scaled_resources(design.key_design)
    alarms: list[MetricAlarm] = []
    if options.alarms:
        alarms += _throttle_alarms(resources, operations)
        if capacity is not None:
            alarms += _capacity_alarms(resources, capacity, target_utilization)
        alarms += _latency_and_error_alarms(operations)
        alarms += _replication_alarms(model)
        if options.account_alarms:
            alarms += _account_alarms(profile, provisioned=capacity is not None)
    widgets = _widgets(resources, operations, model, capacity is not None) if options.dashboard else ()
    return Monitoring(tuple(alarms), widgets, options.alarm_topic_arn)


def _dimensions(resource: str) -> tuple[tuple[str, str], ...]:
    if resource == TABLE:
        return (("TableName", TABLE_NAME),)
    return ("TableName", TABLE_NAME), ("GlobalSecondaryIndexName", resource)


def _where(resource: str) -> str:
    return "the table" if resource == TABLE else f"GSI {resource}"


def _throttle_alarms(resources: list[tuple[str, str]], operations: list[Operation]) -> list[MetricAlarm]:
    alarms = []
    for resource, stem in resources:
        for word in ("Read", "Write"):
            effect = ("throttled GSI write holds back every write to the table" if resource != TABLE and word == "Write"
                      else "throttled request is retried by the SDK and adds latency")
            alarms.append(MetricAlarm(
                f"{word}ThrottleEvents{stem}", f"{word}ThrottleEvents", _dimensions(resource), Statistic.SUM,
                MINUTE_SECONDS, 1, 1, 0.0,
                f"{word} requests to {_where(resource)} were throttled in the last minute (Sum above 0). A "
                f"{effect}; look for a hot key (CloudWatch Contributor Insights) or capacity below the load."))
    for operation in operations:
        kind = "write" if operation.is_write else "read"
        alarms.append(MetricAlarm(
            f"ThrottledRequests{operation}", "ThrottledRequests", (("TableName", TABLE_NAME),
                                                                    ("Operation", str(operation))),
            Statistic.SUM, MINUTE_SECONDS, 1, 1, 0.0,
            f"{operation} ({kind}) requests were throttled in the last minute (Sum above 0): a request fails "
            "when any of its table or index events is throttled (a batch only when all are). The design's "
            "access patterns use this operation."))
    return alarms


def _capacity_alarms(resources: list[tuple[str, str]], capacity: ProvisionedCapacity,
                     target_utilization: float) -> list[MetricAlarm]:
    alarms = []
    for resource, stem in resources:
        for word, unit in (("Read", "RCU"), ("Write", "WCU")):
            provisioned = getattr(capacity.of(resource), word.lower())
            units = provisioned.max_capacity_units or provisioned.capacity_units
            which = "the auto scaling maximum" if provisioned.max_capacity_units else "the provisioned capacity"
            threshold = target_utilization * units * MINUTE_SECONDS
            alarms.append(MetricAlarm(
                f"Consumed{word}Capacity{stem}", f"Consumed{word}CapacityUnits", _dimensions(resource),
                Statistic.SUM, MINUTE_SECONDS, CAPACITY_SUSTAINED_MINUTES, CAPACITY_SUSTAINED_MINUTES,
                round(threshold, 3),
                f"{_where(resource).capitalize()} consumed more than {target_utilization:.0%} of {which} "
                f"({units:,} {unit}) for {CAPACITY_SUSTAINED_MINUTES} minutes. The metric is a per-minute Sum, so "
                f"the threshold is {target_utilization:g} x {units:,} {unit} x {MINUTE_SECONDS} s = {threshold:,.0f} "
                "units a minute. Raise the capacity (or the maximum) before throttling starts."))
    return alarms


def _latency_and_error_alarms(operations: list[Operation]) -> list[MetricAlarm]:
    alarms = []
    for operation in operations:
        dims = (("TableName", TABLE_NAME), ("Operation", str(operation)))
        limit = LATENCY_P99_MS[operation]
        alarms.append(MetricAlarm(
            f"Latency{operation}", "SuccessfulRequestLatency", dims, Statistic.P99, MINUTE_SECONDS,
            LATENCY_SUSTAINED_MINUTES, LATENCY_SUSTAINED_MINUTES, limit,
            f"p99 of {operation} latency inside DynamoDB above {limit:g} ms for {LATENCY_SUSTAINED_MINUTES} minutes "
            "(network time excluded). A starting point for this operation: large items, pages near 1 MB or "
            "a hot partition raise it; tune after a week of traffic."))
        alarms.append(MetricAlarm(
            f"SystemErrors{operation}", "SystemErrors", dims, Statistic.SUM, MINUTE_SECONDS, 5,
            ERROR_SUSTAINED_MINUTES, 0.0,
            f"DynamoDB answered {operation} with HTTP 500 in {ERROR_SUSTAINED_MINUTES} of the last 5 minutes. "
            "The SDKs retry a lone 500; repeated ones are a service issue: check the AWS Health Dashboard."))
    return alarms


def _replication_alarms(model: Model) -> list[MetricAlarm]:
    table = model.table
    alarms = []
    for region in dict.fromkeys(r for r in table.replica_regions if r != table.region):
        stem = "".join(part.capitalize() for part in region.split("-"))
        alarms.append(MetricAlarm(
            f"ReplicationLatency{stem}", "ReplicationLatency", (("TableName", TABLE_NAME),
                                                                 ("ReceivingRegion", region)),
            Statistic.AVERAGE, MINUTE_SECONDS, REPLICATION_SUSTAINED_MINUTES, REPLICATION_SUSTAINED_MINUTES,
            REPLICATION_LATENCY_MS,
            f"Writes made in {table.region} take more than {REPLICATION_LATENCY_MS / 1000:g} s on average to "
            f"reach the replica in {region}, for {REPLICATION_SUSTAINED_MINUTES} minutes. Replication usually "
            "takes under a second; readers there see stale items and a failover would lose recent writes."))
    return alarms


def _account_alarms(profile: CapacityProfile, provisioned: bool) -> list[MetricAlarm]:
    peak_per_minute = sum(p.peak_requests_per_second for p in profile.patterns) * MINUTE_SECONDS
    threshold = max(1, math.ceil(USER_ERROR_SHARE * peak_per_minute))
    alarms = [MetricAlarm(
        "UserErrors", "UserErrors", (), Statistic.SUM, MINUTE_SECONDS, 5, 5, float(threshold),
        f"More than {threshold:,} HTTP 400 errors a minute for 5 minutes, account-wide in this Region (the metric "
        f"has no TableName): {USER_ERROR_SHARE:.0%} of the model's peak of {peak_per_minute:,.0f} requests a "
        "minute. Throttling and failed conditions are not counted here: these are malformed requests, missing "
        "permissions or missing tables, usually a deploy. Deploy account alarms once per account and Region.")]
    if provisioned:
        for word in ("Read", "Write"):
            alarms.append(MetricAlarm(
                f"AccountProvisioned{word}Utilization", f"AccountProvisioned{word}CapacityUtilization", (),
                Statistic.MAXIMUM, ACCOUNT_PERIOD_SECONDS, 2, 2, ACCOUNT_UTILIZATION_PERCENT,
                f"The account's provisioned {word.lower()} capacity in this Region is above "
                f"{ACCOUNT_UTILIZATION_PERCENT:g} % of its quota (AWS's recommended alarm): new tables, GSIs or "
                "auto scaling cannot go higher once it is reached. Request a quota increase in Service Quotas. "
                "Account-wide: deploy it once per account and Region."))
    return alarms


def _widgets(resources: list[tuple[str, str]], operations: list[Operation], model: Model,
             provisioned: bool) -> tuple[DashboardWidget, ...]:
    widgets = []
    for resource, _ in resources:
        dims = _dimensions(resource)
        for word in ("Read", "Write"):
            lines = [(f"Consumed{word}CapacityUnits", dims, Statistic.SUM)]
            if provisioned:
                lines.append((f"Provisioned{word}CapacityUnits", dims, Statistic.AVERAGE))
            lines.append((f"{word}ThrottleEvents", dims, Statistic.SUM))
            widgets.append(DashboardWidget(f"{_where(resource).capitalize()}: {word.lower()} capacity and throttles",
                                           tuple(lines)))
    by_operation = [(("TableName", TABLE_NAME), ("Operation", str(o))) for o in operations]
    widgets.append(DashboardWidget("SuccessfulRequestLatency p99 per operation (ms)",
                                   tuple(("SuccessfulRequestLatency", d, Statistic.P99) for d in by_operation)))
    widgets.append(DashboardWidget("ThrottledRequests and SystemErrors per operation", tuple(
        (metric, d, Statistic.SUM) for d in by_operation for metric in ("ThrottledRequests", "SystemErrors"))))
    widgets.append(DashboardWidget("Account: UserErrors (HTTP 400, every table in the Region)",
                                   (("UserErrors", (), Statistic.SUM),)))
    if provisioned:
        widgets.append(DashboardWidget("Account: provisioned-capacity utilisation (% of the quota)", tuple(
            (f"AccountProvisioned{w}CapacityUtilization", (), Statistic.MAXIMUM) for w in ("Read", "Write")),
            ACCOUNT_UTILIZATION_PERCENT))
    replicas = [r for r in dict.fromkeys(model.table.replica_regions) if r != model.table.region]
    if replicas:
        widgets.append(DashboardWidget("ReplicationLatency per replica Region (ms)", tuple(
            ("ReplicationLatency", (("TableName", TABLE_NAME), ("ReceivingRegion", r)), Statistic.AVERAGE)
            for r in replicas), REPLICATION_LATENCY_MS))
    return tuple(widgets)
