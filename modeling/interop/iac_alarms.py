"""CloudWatch alarms and a dashboard for a table, as plain data the CloudFormation and Terraform writers render.

What to watch and where the thresholds come from is decided in `studio.iac.monitoring` (thresholds follow the
cost engine's estimate; costs may import modeling, never the reverse). Here are the shapes, and the
dashboard body, which both writers emit as the same JSON.

Metric, dimension and statistic names are AWS's, from "DynamoDB Metrics and dimensions":
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html
A dimension value `TABLE_NAME` stands for the exported table's name (a `Ref` in CloudFormation, a
reference in Terraform); every other value (an index name, an operation, a Region) is written as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

NAMESPACE = "AWS/DynamoDB"
TABLE_NAME = "${TABLE_NAME}"  # placeholder: each writer swaps in its own reference to the table's name
REGION = "${REGION}"  # placeholder for the stack's Region in the dashboard body
DASHBOARD_PERIOD_SECONDS = 60
# An SNS topic ARN in any partition; empty means "notify nobody". FIFO topics cannot be alarm actions.
ALARM_TOPIC_ARN_PATTERN = r"^$|^arn:aws[a-z-]*:sns:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,256}$"


class Statistic(StrEnum):
    """CloudWatch's statistic names (a percentile such as `p99` is an extended statistic)."""

    SUM = "Sum"
    AVERAGE = "Average"
    MAXIMUM = "Maximum"
    MINIMUM = "Minimum"
    SAMPLE_COUNT = "SampleCount"
    P99 = "p99"

    @property
    def is_extended(self) -> bool:
        return self.value.startswith("p")


@dataclass(frozen=True)
class MetricAlarm:
    """One `AWS::CloudWatch::Alarm` / `aws_cloudwatch_metric_alarm`, compared with GreaterThanThreshold."""

    key: str  # unique letters and digits: the CloudFormation logical id after "Alarm", the alarm name's suffix
    metric_name: str
    dimensions: tuple[tuple[str, str], ...]  # (name, value); empty for account-level metrics
    statistic: Statistic
    period_seconds: int
    evaluation_periods: int
    datapoints_to_alarm: int
    threshold: float
    description: str  # why the alarm exists and how its threshold was derived (at most 1,024 characters)


@dataclass(frozen=True)
class DashboardWidget:
    """A metric graph: (metric, dimensions, statistic) lines, with an optional horizontal threshold line."""

    title: str
    metrics: tuple[tuple[str, tuple[tuple[str, str], ...], Statistic], ...]
    threshold: float | None = None


@dataclass(frozen=True)
class Monitoring:
    """The alarms and dashboard of one export; `alarm_topic_arn` is the SNS topic parameter's default."""

    alarms: tuple[MetricAlarm, ...] = ()
    widgets: tuple[DashboardWidget, ...] = ()
    alarm_topic_arn: str = ""
    notes: tuple[str, ...] = field(default=())

    @property
    def has_dashboard(self) -> bool:
        return bool(self.widgets)


def dashboard_body(widgets: tuple[DashboardWidget, ...]) -> dict[str, Any]:
    """The CloudWatch dashboard body (JSON) with `TABLE_NAME` and `REGION` placeholders, two graphs a row.

    https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CloudWatch-Dashboard-Body-Structure.html
    """
    body = []
    for number, widget in enumerate(widgets):
        lines = []
        for metric, dimensions, statistic in widget.metrics:
            line: list[Any] = [NAMESPACE, metric]
            for name, value in dimensions:
                line += [name, value]
            line.append({"stat": str(statistic), "label": _label(metric, dimensions, statistic)})
            lines.append(line)
        properties: dict[str, Any] = {"title": widget.title, "view": "timeSeries", "region": REGION,
                                      "period": DASHBOARD_PERIOD_SECONDS, "metrics": lines}
        if widget.threshold is not None:
            properties["annotations"] = {"horizontal": [{"label": "alarm threshold", "value": widget.threshold}]}
        body.append({"type": "metric", "x": 12 * (number % 2), "y": 6 * (number // 2), "width": 12, "height": 6,
                     "properties": properties})
    return {"widgets": body}


def _label(metric: str, dimensions: tuple[tuple[str, str], ...], statistic: Statistic) -> str:
    extra = [value for name, value in dimensions if name != "TableName"]
    return " ".join([metric, *extra, str(statistic)])
