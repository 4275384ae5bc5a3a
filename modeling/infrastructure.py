"""Infrastructure as code for a key design: CloudFormation YAML, Terraform, and `create-table` JSON.

One request shape is built first, the `CreateTable` input (`create_table_input`, also the AWS CLI's
`--cli-input-json` file); the CloudFormation template adds what CreateTable cannot hold (PITR, TTL,
auto scaling), and the Terraform configuration says the same in HCL. Capacities are not worked out
here: a provisioned model needs a `ProvisionedCapacity`, which `costs.infrastructure` derives from the
cost engine (costs may import modeling, never the reverse).

>>> from modeling.examples import load_example
>>> from modeling.generator import propose_designs
>>> model = load_example("chat_messages")
>>> code = infrastructure_code(model, propose_designs(model)[0].key_design, IacFormat.CLI_JSON)
>>> json.loads(code.text)["BillingMode"]
'PAY_PER_REQUEST'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import yaml

from modeling.design import TABLE
from modeling.errors import ModelingError
from modeling.model import BillingMode, KeyAttribute, KeyDesign, Model, ProjectionType, SecondaryIndex

# Tagging rules for DynamoDB resources (not in dynamodb-facts.md; from AWS's tagging page)
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html#TaggingRestrictions
MAX_TAGS = 50
MAX_TAG_KEY_CHARS, MAX_TAG_VALUE_CHARS = 128, 256
_TAG_TEXT = re.compile(r"^[\w\s.:/=+\-@]*$")
# Application Auto Scaling names for DynamoDB (dynamodb-facts §11.1: target tracking)
# https://docs.aws.amazon.com/autoscaling/application/userguide/services-that-can-integrate-dynamodb.html
_READ, _WRITE = "Read", "Write"


class IacFormat(StrEnum):
    CLOUDFORMATION = "cloudformation"
    TERRAFORM = "terraform"
    CLI_JSON = "cli-json"


FILE_NAMES = {IacFormat.CLOUDFORMATION: "template.yaml", IacFormat.TERRAFORM: "main.tf",
              IacFormat.CLI_JSON: "create-table.json"}
LABELS = {IacFormat.CLOUDFORMATION: "CloudFormation (YAML)", IacFormat.TERRAFORM: "Terraform (HCL)",
          IacFormat.CLI_JSON: "AWS CLI create-table JSON"}


class InfrastructureError(ModelingError):
    """The design cannot be exported as asked (capacity missing, a tag DynamoDB refuses)."""


@dataclass(frozen=True)
class DimensionCapacity:
    """Provisioned reads or writes of the table or one GSI; min and max only with auto scaling."""

    capacity_units: int
    min_capacity_units: int | None = None
    max_capacity_units: int | None = None


@dataclass(frozen=True)
class ResourceCapacity:
    read: DimensionCapacity
    write: DimensionCapacity


@dataclass(frozen=True)
class ProvisionedCapacity:
    """Capacity of the table (key `modeling.design.TABLE`) and each GSI; LSIs use the table's (§4.2).

    `target_utilization_percent` is None for fixed capacity, else the auto scaling target (20-90).
    `source` says where the numbers come from, in words.
    """

    resources: Mapping[str, ResourceCapacity]
    target_utilization_percent: float | None = None
    source: str = ""

    def of(self, resource: str) -> ResourceCapacity:
        if resource not in self.resources:
            raise InfrastructureError(f"no provisioned capacity for `{resource}`; every GSI of a provisioned "
                                      "table needs its own read and write capacity")
        return self.resources[resource]


@dataclass(frozen=True)
class IacCode:
    format: IacFormat
    text: str
    file_name: str
    notes: tuple[str, ...] = field(default=())


def infrastructure_code(model: Model, key_design: KeyDesign, fmt: IacFormat,
                        capacity: ProvisionedCapacity | None = None,
                        tags: tuple[tuple[str, str], ...] = ()) -> IacCode:
    """The design as code in one format, with notes on what the format cannot hold."""
    _check_tags(tags)
    if model.table.billing_mode is BillingMode.PROVISIONED and capacity is None:
        raise InfrastructureError("the table is provisioned, so the export needs its capacities; "
                                  "use costs.infrastructure.export_infrastructure, which sizes them")
    if model.table.billing_mode is BillingMode.PAY_PER_REQUEST:
        capacity = None
    builders = {IacFormat.CLOUDFORMATION: cloudformation_template, IacFormat.TERRAFORM: terraform_config,
                IacFormat.CLI_JSON: _cli_json}
    text = builders[fmt](model, key_design, capacity, tags)
    return IacCode(fmt, text, FILE_NAMES[fmt], _notes(model, fmt, capacity))


def parse_tags(text: str) -> tuple[tuple[str, str], ...]:
    """`KEY=VALUE` lines (blank lines ignored) as tag pairs, checked against DynamoDB's tagging rules.

    >>> parse_tags("team=payments\\nenv = prod")
    (('team', 'payments'), ('env', 'prod'))
    """
    tags = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, equals, value = line.partition("=")
        if not equals:
            raise InfrastructureError(f"tag line {number} has no `=`; write one tag per line as KEY=VALUE")
        tags.append((key.strip(), value.strip()))
    _check_tags(tuple(tags))
    return tuple(tags)


def _check_tags(tags: tuple[tuple[str, str], ...]) -> None:
    if len(tags) > MAX_TAGS:
        raise InfrastructureError(f"{len(tags)} tags; DynamoDB allows at most {MAX_TAGS} per table")
    keys = [key for key, _ in tags]
    for key, value in tags:
        if not 1 <= len(key) <= MAX_TAG_KEY_CHARS or not _TAG_TEXT.match(key) or key.lower().startswith("aws:"):
            raise InfrastructureError(f"the tag key {key!r} is not allowed: use 1-{MAX_TAG_KEY_CHARS} letters, "
                                      "digits, spaces or _ . : / = + - @, not starting with aws:")
        if len(value) > MAX_TAG_VALUE_CHARS or not _TAG_TEXT.match(value):
            raise InfrastructureError(f"the value of tag {key!r} is not allowed: use up to {MAX_TAG_VALUE_CHARS} "
                                      "letters, digits, spaces or _ . : / = + - @")
        if keys.count(key) > 1:
            raise InfrastructureError(f"the tag key {key!r} is given twice; keep one")


def _notes(model: Model, fmt: IacFormat, capacity: ProvisionedCapacity | None) -> tuple[str, ...]:
    table = model.table
    notes = []
    if capacity is not None and capacity.source:
        notes.append(capacity.source)
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


# --- CreateTable input (the AWS CLI's --cli-input-json) ----------------------------------------------


def create_table_input(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None = None,
                       tags: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    """The CreateTable request for the design; the API reference names every field.

    https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
    """
    table = model.table
    request: dict[str, Any] = {
        "TableName": table.name,
        "AttributeDefinitions": [{"AttributeName": a.name, "AttributeType": str(a.type)}
                                 for a in key_attributes(key_design)],
        "KeySchema": _key_schema(key_design.partition_key, key_design.sort_key),
        "BillingMode": str(table.billing_mode),
    }
    if capacity is not None:
        request["ProvisionedThroughput"] = _throughput(capacity.of(TABLE))
    if key_design.global_secondary_indexes:
        request["GlobalSecondaryIndexes"] = [_index(i, capacity) for i in key_design.global_secondary_indexes]
    if key_design.local_secondary_indexes:
        request["LocalSecondaryIndexes"] = [_index(i, None) for i in key_design.local_secondary_indexes]
    if table.stream_view_type is not None:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": str(table.stream_view_type)}
    request["TableClass"] = str(table.table_class)
    request["DeletionProtectionEnabled"] = table.deletion_protection
    if tags:
        request["Tags"] = [{"Key": key, "Value": value} for key, value in tags]
    return request


def key_attributes(key_design: KeyDesign) -> list[KeyAttribute]:
    """Key attributes of the table and every index, once each, in order (AttributeDefinitions holds only these)."""
    found: dict[str, KeyAttribute] = {}
    for index in (None, *key_design.global_secondary_indexes, *key_design.local_secondary_indexes):
        keys = (key_design.partition_key, key_design.sort_key) if index is None else (index.partition_key,
                                                                                     index.sort_key)
        for key in keys:
            if key is not None:
                found.setdefault(key.name, key)
    return list(found.values())


def _key_schema(partition_key: KeyAttribute, sort_key: KeyAttribute | None) -> list[dict[str, str]]:
    schema = [{"AttributeName": partition_key.name, "KeyType": "HASH"}]
    if sort_key is not None:
        schema.append({"AttributeName": sort_key.name, "KeyType": "RANGE"})
    return schema


def _index(index: SecondaryIndex, capacity: ProvisionedCapacity | None) -> dict[str, Any]:
    projection: dict[str, Any] = {"ProjectionType": str(index.projection.type)}
    if index.projection.type is ProjectionType.INCLUDE:
        projection["NonKeyAttributes"] = list(index.projection.non_key_attributes)
    body: dict[str, Any] = {"IndexName": index.name, "KeySchema": _key_schema(index.partition_key, index.sort_key),
                            "Projection": projection}
    if capacity is not None:
        body["ProvisionedThroughput"] = _throughput(capacity.of(index.name))
    return body


def _throughput(resource: ResourceCapacity) -> dict[str, int]:
    return {"ReadCapacityUnits": resource.read.capacity_units, "WriteCapacityUnits": resource.write.capacity_units}


def _cli_json(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None,
              tags: tuple[tuple[str, str], ...]) -> str:
    return json.dumps(create_table_input(model, key_design, capacity, tags), indent=2) + "\n"


# --- CloudFormation -------------------------------------------------------------------------------------


def cloudformation_template(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None = None,
                            tags: tuple[tuple[str, str], ...] = ()) -> str:
    """A template with the table (and auto scaling when asked), written with yaml.safe_dump: no custom tags.

    https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-table.html
    """
    request = create_table_input(model, key_design, capacity, tags)
    properties: dict[str, Any] = {"TableName": {"Ref": "TableName"}}
    properties.update({k: v for k, v in request.items() if k not in ("TableName", "StreamSpecification")})
    table = model.table
    if table.stream_view_type is not None:
        properties["StreamSpecification"] = {"StreamViewType": str(table.stream_view_type)}
    properties["PointInTimeRecoverySpecification"] = {"PointInTimeRecoveryEnabled": table.point_in_time_recovery}
    if table.ttl_attribute:
        properties["TimeToLiveSpecification"] = {"AttributeName": table.ttl_attribute, "Enabled": True}
    resources: dict[str, Any] = {"Table": {"Type": "AWS::DynamoDB::Table", "DeletionPolicy": "Retain",
                                           "UpdateReplacePolicy": "Retain", "Properties": properties}}
    if table.replica_regions:
        resources["Table"].update(Type="AWS::DynamoDB::GlobalTable",
                                  Properties=_cfn_global_table(model, key_design, capacity, properties))
    elif capacity is not None and capacity.target_utilization_percent is not None:
        resources.update(_cfn_autoscaling(key_design, capacity))
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": _one_line(f"DynamoDB table for the Design Studio model {model.name!r}")[:1024],
        "Parameters": {"TableName": {
            "Type": "String", "Default": table.name, "MinLength": 3, "MaxLength": 255,
            "AllowedPattern": "[a-zA-Z0-9_.-]+", "Description": "Name of the DynamoDB table"}},
        "Resources": resources,
        "Outputs": _cfn_outputs(table.stream_view_type is not None or bool(table.replica_regions)),
    }
    header = "# Generated by DynamoDB Design Studio. Validate with: cfn-lint template.yaml\n"
    # a JSON round trip unshares repeated values, which safe_dump would write as &anchors and *aliases
    # (CloudFormation rejects YAML aliases)
    unshared = json.loads(json.dumps(template))
    return header + yaml.safe_dump(unshared, sort_keys=False, allow_unicode=True, width=100)


def _cfn_outputs(with_stream: bool) -> dict[str, Any]:
    outputs = {"TableName": {"Description": "Name of the table", "Value": {"Ref": "Table"}},
               "TableArn": {"Description": "ARN of the table", "Value": {"Fn::GetAtt": ["Table", "Arn"]}}}
    if with_stream:
        outputs["StreamArn"] = {"Description": "ARN of the table's stream",
                                "Value": {"Fn::GetAtt": ["Table", "StreamArn"]}}
    return outputs


def _scaled_resources(key_design: KeyDesign) -> list[tuple[str, str]]:
    """(resource, logical-id stem) for the table and each GSI; stems are unique CloudFormation ids."""
    scaled = [(TABLE, "Table")]
    used = {"table"}  # compared lower-case: Terraform names are the stems in snake case
    for index in key_design.global_secondary_indexes:
        stem = base = "Index" + re.sub(r"[^A-Za-z0-9]", "", index.name)
        number = 2
        while stem.lower() in used:
            stem, number = f"{base}{number}", number + 1
        used.add(stem.lower())
        scaled.append((index.name, stem))
    return scaled


def _cfn_autoscaling(key_design: KeyDesign, capacity: ProvisionedCapacity) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    for resource, stem in _scaled_resources(key_design):
        kind = "table" if resource == TABLE else "index"
        resource_id = "table/${Table}" if resource == TABLE else f"table/${{Table}}/index/{resource}"
        for dimension in (_READ, _WRITE):
            scaling = getattr(capacity.of(resource), dimension.lower())
            target = f"{stem}{dimension}ScalableTarget"
            resources[target] = {"Type": "AWS::ApplicationAutoScaling::ScalableTarget", "Properties": {
                "MinCapacity": scaling.min_capacity_units or scaling.capacity_units,
                "MaxCapacity": scaling.max_capacity_units or scaling.capacity_units,
                "ResourceId": {"Fn::Sub": resource_id},
                "ScalableDimension": f"dynamodb:{kind}:{dimension}CapacityUnits",
                "ServiceNamespace": "dynamodb"}}
            resources[f"{stem}{dimension}ScalingPolicy"] = {"Type": "AWS::ApplicationAutoScaling::ScalingPolicy",
                                                            "Properties": {
                "PolicyName": f"{stem}{dimension}TargetTracking",
                "PolicyType": "TargetTrackingScaling",
                "ScalingTargetId": {"Ref": target},
                "TargetTrackingScalingPolicyConfiguration": {
                    "TargetValue": float(capacity.target_utilization_percent or 70),
                    "PredefinedMetricSpecification": {
                        "PredefinedMetricType": f"DynamoDB{dimension}CapacityUtilization"}}}}
    return resources


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- Terraform ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Raw:
    """An HCL expression written as is (a reference such as `aws_dynamodb_table.table.name`)."""

    text: str


@dataclass(frozen=True)
class _Block:
    type: str
    labels: tuple[str, ...]
    body: tuple[tuple[str, Any] | _Block, ...]


def hcl_string(text: str) -> str:
    """A quoted HCL string literal that means exactly `text`: escapes, and no template interpolation.

    >>> hcl_string('a "b" ${c}')
    '"a \\\\"b\\\\" $${c}"'
    """
    out = []
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    # `${` and `%{` start template sequences in a quoted string; doubling the sign makes them literal
    return '"' + "".join(out).replace("${", "$${").replace("%{", "%%{") + '"'


def _hcl_value(value: Any, indent: str) -> str:
    if isinstance(value, _Raw):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return hcl_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_hcl_value(v, indent) for v in value) + "]"
    if isinstance(value, dict):
        inner = indent + "  "
        lines = [f"{inner}{hcl_string(k)} = {_hcl_value(v, inner)}" for k, v in value.items()]
        return "{\n" + "\n".join(lines) + f"\n{indent}}}"
    raise TypeError(f"no HCL form for {type(value).__name__}")


def _hcl_block(block: _Block, indent: str = "") -> str:
    labels = "".join(f" {hcl_string(label)}" for label in block.labels)
    lines = [f"{indent}{block.type}{labels} {{"]
    inner = indent + "  "
    for entry in block.body:
        if isinstance(entry, _Block):
            lines.append(_hcl_block(entry, inner))
        else:
            lines.append(f"{inner}{entry[0]} = {_hcl_value(entry[1], inner)}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def terraform_config(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None = None,
                     tags: tuple[tuple[str, str], ...] = ()) -> str:
    """`aws_dynamodb_table` with the same settings, plus `aws_appautoscaling_target/policy` when auto scaled.

    https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/dynamodb_table
    """
    blocks = [
        _Block("terraform", (), (_Block("required_providers", (), (
            ("aws", {"source": "hashicorp/aws", "version": ">= 5.0"}),)),)),
        _Block("provider", ("aws",), (("region", model.table.region),)),
        _Block("variable", ("table_name",), (("type", _Raw("string")), ("default", model.table.name),
                                             ("description", "Name of the DynamoDB table"))),
        _table_block(model, key_design, capacity, tags),
    ]
    if capacity is not None and capacity.target_utilization_percent is not None:
        blocks.extend(_tf_autoscaling(key_design, capacity))
    blocks.append(_Block("output", ("table_arn",), (("value", _Raw("aws_dynamodb_table.table.arn")),)))
    if model.table.stream_view_type is not None or model.table.replica_regions:
        blocks.append(_Block("output", ("stream_arn",), (("value", _Raw("aws_dynamodb_table.table.stream_arn")),)))
    header = "# Generated by DynamoDB Design Studio from the model " + hcl_string(_one_line(model.name)) + "\n\n"
    return header + "\n\n".join(_hcl_block(b) for b in blocks) + "\n"


def _table_block(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None,
                 tags: tuple[tuple[str, str], ...]) -> _Block:
    table = model.table
    body: list[tuple[str, Any] | _Block] = [("name", _Raw("var.table_name")),
                                            ("billing_mode", str(table.billing_mode))]
    if capacity is not None:
        body += [("read_capacity", capacity.of(TABLE).read.capacity_units),
                 ("write_capacity", capacity.of(TABLE).write.capacity_units)]
    body.append(("hash_key", key_design.partition_key.name))
    if key_design.sort_key is not None:
        body.append(("range_key", key_design.sort_key.name))
    body += [("table_class", str(table.table_class)), ("deletion_protection_enabled", table.deletion_protection)]
    stream = table.stream_view_type or ("NEW_AND_OLD_IMAGES" if table.replica_regions else None)
    if stream is not None:
        body += [("stream_enabled", True), ("stream_view_type", str(stream))]
    body += [_Block("attribute", (), (("name", a.name), ("type", str(a.type)))) for a in key_attributes(key_design)]
    body += [_tf_index("global_secondary_index", i, capacity) for i in key_design.global_secondary_indexes]
    body += [_tf_index("local_secondary_index", i, None) for i in key_design.local_secondary_indexes]
    body.append(_Block("point_in_time_recovery", (), (("enabled", table.point_in_time_recovery),)))
    if table.ttl_attribute:
        body.append(_Block("ttl", (), (("attribute_name", table.ttl_attribute), ("enabled", True))))
    body += [_Block("replica", (), (("region_name", region),)) for region in table.replica_regions]
    if tags:
        body.append(("tags", dict(tags)))
    if capacity is not None and capacity.target_utilization_percent is not None:
        # auto scaling changes the capacity; without this every plan would set it back
        body.append(_Block("lifecycle", (), (("ignore_changes", [_Raw("read_capacity"), _Raw("write_capacity")]),)))
    return _Block("resource", ("aws_dynamodb_table", "table"), tuple(body))


def _tf_index(kind: str, index: SecondaryIndex, capacity: ProvisionedCapacity | None) -> _Block:
    body: list[tuple[str, Any]] = [("name", index.name)]
    if kind == "global_secondary_index":
        body.append(("hash_key", index.partition_key.name))
    if index.sort_key is not None:
        body.append(("range_key", index.sort_key.name))
    body.append(("projection_type", str(index.projection.type)))
    if index.projection.type is ProjectionType.INCLUDE:
        body.append(("non_key_attributes", list(index.projection.non_key_attributes)))
    if capacity is not None:
        body += [("read_capacity", capacity.of(index.name).read.capacity_units),
                 ("write_capacity", capacity.of(index.name).write.capacity_units)]
    return _Block(kind, (), tuple(body))


def _tf_autoscaling(key_design: KeyDesign, capacity: ProvisionedCapacity) -> list[_Block]:
    blocks = []
    for resource, stem in _scaled_resources(key_design):
        kind = "table" if resource == TABLE else "index"
        resource_id = (_Raw('"table/${aws_dynamodb_table.table.name}"') if resource == TABLE
                       else _Raw(f'"table/${{aws_dynamodb_table.table.name}}/index/{resource}"'))
        for dimension in (_READ, _WRITE):
            scaling = getattr(capacity.of(resource), dimension.lower())
            name = f"{stem.lower().replace('index', 'index_', 1)}_{dimension.lower()}"  # index_gsi1_read
            target = f"aws_appautoscaling_target.{name}"
            blocks.append(_Block("resource", ("aws_appautoscaling_target", name), (
                ("min_capacity", scaling.min_capacity_units or scaling.capacity_units),
                ("max_capacity", scaling.max_capacity_units or scaling.capacity_units),
                ("resource_id", resource_id),
                ("scalable_dimension", f"dynamodb:{kind}:{dimension}CapacityUnits"),
                ("service_namespace", "dynamodb"))))
            blocks.append(_Block("resource", ("aws_appautoscaling_policy", name), (
                ("name", f"{stem}{dimension}TargetTracking"),
                ("policy_type", "TargetTrackingScaling"),
                ("resource_id", _Raw(f"{target}.resource_id")),
                ("scalable_dimension", _Raw(f"{target}.scalable_dimension")),
                ("service_namespace", _Raw(f"{target}.service_namespace")),
                _Block("target_tracking_scaling_policy_configuration", (), (
                    _Block("predefined_metric_specification", (), (
                        ("predefined_metric_type", f"DynamoDB{dimension}CapacityUtilization"),)),
                    ("target_value", float(capacity.target_utilization_percent or 70)))))))
    return blocks
def _cfn_global_table(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None,
                      properties: dict[str, Any]) -> dict[str, Any]:
    """`AWS::DynamoDB::GlobalTable`: the table in its own Region and every replica Region (dynamodb-facts §5).

    Per-Region settings move into `Replicas`; a provisioned global table scales writes with auto scaling
    only, so fixed write capacity becomes a range of one value.
    https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-dynamodb-globaltable.html
    """
    table = model.table
    shared = {k: properties[k] for k in ("TableName", "AttributeDefinitions", "KeySchema", "BillingMode",
                                         "LocalSecondaryIndexes", "TimeToLiveSpecification") if k in properties}
    shared["StreamSpecification"] = {"StreamViewType": "NEW_AND_OLD_IMAGES"}  # replication reads this stream
    replica: dict[str, Any] = {
        "PointInTimeRecoverySpecification": properties["PointInTimeRecoverySpecification"],
        "TableClass": str(table.table_class), "DeletionProtectionEnabled": table.deletion_protection}
    if "Tags" in properties:
        replica["Tags"] = properties["Tags"]
    indexes = [{k: v for k, v in i.items() if k != "ProvisionedThroughput"}
               for i in properties.get("GlobalSecondaryIndexes", [])]
    if capacity is not None:
        shared["WriteProvisionedThroughputSettings"] = _global_writes(capacity, TABLE)
        replica["ReadProvisionedThroughputSettings"] = _global_reads(capacity, TABLE)
        for index in indexes:
            index["WriteProvisionedThroughputSettings"] = _global_writes(capacity, index["IndexName"])
        if indexes:
            replica["GlobalSecondaryIndexes"] = [
                {"IndexName": i["IndexName"],
                 "ReadProvisionedThroughputSettings": _global_reads(capacity, i["IndexName"])} for i in indexes]
    if indexes:
        shared["GlobalSecondaryIndexes"] = indexes
    regions = dict.fromkeys((table.region, *table.replica_regions))  # the table's own Region once, first
    shared["Replicas"] = [{"Region": region, **replica} for region in regions]
    return shared


def _global_writes(capacity: ProvisionedCapacity, resource: str) -> dict[str, Any]:
    writes = capacity.of(resource).write
    return {"WriteCapacityAutoScalingSettings": {
        "MinCapacity": writes.min_capacity_units or writes.capacity_units,
        "MaxCapacity": writes.max_capacity_units or writes.capacity_units,
        "SeedCapacity": writes.capacity_units,
        "TargetTrackingScalingPolicyConfiguration": {"TargetValue": float(capacity.target_utilization_percent or 70)}}}


def _global_reads(capacity: ProvisionedCapacity, resource: str) -> dict[str, Any]:
    reads = capacity.of(resource).read
    if capacity.target_utilization_percent is None:
        return {"ReadCapacityUnits": reads.capacity_units}
    return {"ReadCapacityAutoScalingSettings": {
        "MinCapacity": reads.min_capacity_units or reads.capacity_units,
        "MaxCapacity": reads.max_capacity_units or reads.capacity_units,
        "SeedCapacity": reads.capacity_units,
        "TargetTrackingScalingPolicyConfiguration": {"TargetValue": float(capacity.target_utilization_percent)}}}
