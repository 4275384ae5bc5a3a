"""Infrastructure as code for a key design: CloudFormation YAML, Terraform, and `create-table` JSON.

One request shape is built first, the `CreateTable` input (`create_table_input`, also the AWS CLI's
`--cli-input-json` file); the CloudFormation template adds what CreateTable cannot hold (PITR, TTL,
auto scaling), and the Terraform configuration says the same in HCL. Capacities are not worked out
here: a provisioned model needs a `ProvisionedCapacity`, which `studio.iac.infrastructure` derives from the
cost engine (costs may import modeling, never the reverse).

>>> from modeling.examples import load_example
>>> from modeling.design.generator import rule_based_designs
>>> model = load_example("chat_messages")
>>> code = infrastructure_code(model, rule_based_designs(model)[0].key_design, IacFormat.CLI_JSON)
>>> json.loads(code.text)["BillingMode"]
'PAY_PER_REQUEST'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum

from modeling.interop.iac_alarms import Monitoring
from modeling.interop.iac_cloudformation import MAX_INLINE_TEMPLATE_BYTES, cloudformation_template
from modeling.interop.iac_request import (
    DimensionCapacity,
    InfrastructureError,
    ProvisionedCapacity,
    ResourceCapacity,
    check_tags,
    create_table_input,
    key_attributes,
    parse_tags,
)
from modeling.interop.iac_terraform import hcl_string, terraform_config
from modeling.model import BillingMode, KeyDesign, Model

__all__ = ["FILE_NAMES", "LABELS", "DimensionCapacity", "IacCode", "IacFormat", "InfrastructureError",
           "ProvisionedCapacity", "ResourceCapacity", "cloudformation_template", "create_table_input", "hcl_string",
           "infrastructure_code", "key_attributes", "parse_tags", "terraform_config"]


class IacFormat(StrEnum):
    CLOUDFORMATION = "cloudformation"
    TERRAFORM = "terraform"
    CLI_JSON = "cli-json"


FILE_NAMES = {IacFormat.CLOUDFORMATION: "template.yaml", IacFormat.TERRAFORM: "main.tf",
              IacFormat.CLI_JSON: "create-table.json"}
LABELS = {IacFormat.CLOUDFORMATION: "CloudFormation (YAML)", IacFormat.TERRAFORM: "Terraform (HCL)",
          IacFormat.CLI_JSON: "AWS CLI create-table JSON"}


@dataclass(frozen=True)
class IacCode:
    format: IacFormat
    text: str
    file_name: str
    notes: tuple[str, ...] = field(default=())


def infrastructure_code(model: Model, key_design: KeyDesign, fmt: IacFormat,
                        capacity: ProvisionedCapacity | None = None,
                        tags: tuple[tuple[str, str], ...] = (), monitoring: Monitoring | None = None) -> IacCode:
    """The design as code in one format, with notes on what the format cannot hold.

    `monitoring` (alarms and a dashboard, from `studio.iac.monitoring`) goes into CloudFormation and Terraform;
    create-table JSON cannot hold it, and a note says so.
    """
    check_tags(tags)
    if model.table.billing_mode is BillingMode.PROVISIONED and capacity is None:
        raise InfrastructureError("the table is provisioned, so the export needs its capacities; "
                                  "use studio.iac.infrastructure.export_infrastructure, which sizes them")
    if model.table.billing_mode is BillingMode.PAY_PER_REQUEST:
        capacity = None
    if fmt is IacFormat.CLI_JSON:
        text = _cli_json(model, key_design, capacity, tags)
    else:
        writer = cloudformation_template if fmt is IacFormat.CLOUDFORMATION else terraform_config
        text = writer(model, key_design, capacity, tags, monitoring)
    notes = _notes(model, fmt, capacity) + _monitoring_notes(fmt, monitoring)
    if fmt is IacFormat.CLOUDFORMATION and len(text.encode()) > MAX_INLINE_TEMPLATE_BYTES:
        notes += (f"The template is {len(text.encode()):,} bytes, above the {MAX_INLINE_TEMPLATE_BYTES:,} bytes "
                  "CloudFormation takes inline: deploy it with `aws cloudformation deploy --s3-bucket BUCKET` "
                  "(up to 1 MB), or export without the dashboard or the account alarms.",)
    return IacCode(fmt, text, FILE_NAMES[fmt], notes)


def _monitoring_notes(fmt: IacFormat, monitoring: Monitoring | None) -> tuple[str, ...]:
    if monitoring is None or not (monitoring.alarms or monitoring.has_dashboard):
        return ()
    if fmt is IacFormat.CLI_JSON:
        return ("create-table JSON holds no alarms or dashboard: export CloudFormation or Terraform for them.",)
    where = "the AlarmTopicArn parameter" if fmt is IacFormat.CLOUDFORMATION else "the alarm_topic_arn variable"
    notes = []
    if monitoring.alarms:
        notes.append(f"{len(monitoring.alarms)} CloudWatch alarms, each with a description of why and how its "
                     f"threshold was derived; they notify the SNS topic in {where} (empty: no notifications).")
    if any(not a.dimensions for a in monitoring.alarms):
        notes.append("UserErrors and the account utilisation alarms are account-wide: keep them in one stack "
                     "per account and Region (export the others without them).")
    return (*notes, *monitoring.notes)


def _notes(model: Model, fmt: IacFormat, capacity: ProvisionedCapacity | None) -> tuple[str, ...]:
    table = model.table
    notes = []
    if capacity is not None and capacity.source:
        notes.append(capacity.source)
    if capacity is not None:
        notes.extend(capacity.quota_findings)
    if fmt is IacFormat.CLI_JSON:
        if table.point_in_time_recovery:
            notes.append("create-table cannot turn on point-in-time recovery: run `aws dynamodb "
                         f"update-continuous-backups --table-name {table.name} --point-in-time-recovery-specification "
                         "PointInTimeRecoveryEnabled=true` after the table is ACTIVE.")
        if table.ttl_attribute:
            notes.append("create-table cannot turn on time to live: run `aws dynamodb update-time-to-live "
                         f"--table-name {table.name} --time-to-live-specification "
                         f"Enabled=true,AttributeName={table.ttl_attribute}` after the table is ACTIVE.")
        if capacity is not None and capacity.target_utilization_percent is not None:
            notes.append("create-table sets the initial capacity only; register auto scaling with "
                         "`aws application-autoscaling register-scalable-target` and `put-scaling-policy`.")
    if table.replica_regions:
        where = {IacFormat.TERRAFORM: "as `replica` blocks (with the NEW_AND_OLD_IMAGES stream they need)",
                 IacFormat.CLOUDFORMATION: "the template holds an AWS::DynamoDB::GlobalTable with a replica "
                                           f"in each Region (deploy the stack in {table.region}); per-Region "
                                           "settings are under Replicas",
                 IacFormat.CLI_JSON: "not in create-table: add them with `aws dynamodb update-table "
                                     "--replica-updates` once the table is ACTIVE"}[fmt]
        notes.append(f"Replica Regions {', '.join(table.replica_regions)}: {where}.")
        if fmt is IacFormat.CLOUDFORMATION and capacity is not None and capacity.target_utilization_percent is None:
            notes.append("A provisioned global table scales writes with auto scaling only, so the fixed write "
                         "capacity is written as a scaling range of one value.")
    if fmt is IacFormat.CLOUDFORMATION:
        notes.append("DeletionPolicy and UpdateReplacePolicy are Retain, so deleting or replacing the stack "
                     "keeps the table and its data.")
    return tuple(notes)


def _cli_json(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None,
              tags: tuple[tuple[str, str], ...]) -> str:
    return json.dumps(create_table_input(model, key_design, capacity, tags), indent=2) + "\n"
