"""The CreateTable request for a key design, and what every infrastructure-as-code format shares.

`create_table_input` is the one request shape (also the AWS CLI's `--cli-input-json` file); the
CloudFormation (`modeling.interop.iac_cloudformation`) and Terraform (`modeling.interop.iac_terraform`) writers start
from the same key attributes, capacities and tags. `modeling.interop.infrastructure` is the entry point.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modeling.design.plans import TABLE
from modeling.errors import ModelingError
from modeling.model import BillingMode, KeyAttribute, KeyDesign, Model, ProjectionType, SecondaryIndex

# Tagging rules for DynamoDB resources (not in dynamodb-rules.md; from AWS's tagging page)
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html#TaggingRestrictions
MAX_TAGS = 50
MAX_TAG_KEY_CHARS, MAX_TAG_VALUE_CHARS = 128, 256
_TAG_TEXT = re.compile(r"^[\w\s.:/=+\-@]*$")
# Application Auto Scaling names for DynamoDB (dynamodb-rules §11.1: target tracking)
# https://docs.aws.amazon.com/autoscaling/application/userguide/services-that-can-integrate-dynamodb.html
AUTOSCALED_DIMENSIONS = ("Read", "Write")


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
    """Capacity of the table (key `modeling.design.plans.TABLE`) and each GSI; LSIs use the table's (§4.2).

    `target_utilization_percent` is None for fixed capacity, else the auto scaling target (20-90).
    `source` says where the numbers come from, in words; `quota_findings` name each default quota the
    capacities exceed and the increase to request (a quota is never a ceiling, dynamodb-rules §8).
    """

    resources: Mapping[str, ResourceCapacity]
    target_utilization_percent: float | None = None
    source: str = ""
    quota_findings: tuple[str, ...] = ()

    def of(self, resource: str) -> ResourceCapacity:
        if resource not in self.resources:
            raise InfrastructureError(f"no provisioned capacity for `{resource}`; every GSI of a provisioned "
                                      "table needs its own read and write capacity")
        return self.resources[resource]


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
    check_tags(tuple(tags))
    return tuple(tags)


def check_tags(tags: tuple[tuple[str, str], ...]) -> None:
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


# --- CreateTable input (the AWS CLI's --cli-input-json) ----------------------------------------------


def create_table_input(model: Model, key_design: KeyDesign, capacity: ProvisionedCapacity | None = None,
                       tags: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    """The CreateTable request for the design; the API reference names every field.

    https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
    """
    table = model.table
    request = table_request(table.name, table.billing_mode, key_design, capacity)
    if table.stream_view_type is not None:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": str(table.stream_view_type)}
    request["TableClass"] = str(table.table_class)
    request["DeletionProtectionEnabled"] = table.deletion_protection
    if tags:
        request["Tags"] = [{"Key": key, "Value": value} for key, value in tags]
    return request


def table_request(table_name: str, billing_mode: BillingMode, key_design: KeyDesign,
                  capacity: ProvisionedCapacity | None = None) -> dict[str, Any]:
    """The part of CreateTable that says what the table is: key attributes, key schema, every index with
    its projection, billing mode and capacity (with `capacity`, the table's and each GSI's; LSIs use the
    table's, dynamodb-rules §4.2). The one builder: the IaC export and the preview table both start here.

    >>> from modeling.model import KeyAttribute, KeyDesign
    >>> design = KeyDesign(partition_key=KeyAttribute(name="PK", type="S"), sort_key=None)
    >>> request = table_request("orders", BillingMode.PAY_PER_REQUEST, design)
    >>> request["AttributeDefinitions"], request["KeySchema"], request["BillingMode"]
    ([{'AttributeName': 'PK', 'AttributeType': 'S'}], [{'AttributeName': 'PK', 'KeyType': 'HASH'}], 'PAY_PER_REQUEST')
    """
    request: dict[str, Any] = {
        "TableName": table_name,
        "AttributeDefinitions": [{"AttributeName": a.name, "AttributeType": str(a.type)}
                                 for a in key_attributes(key_design)],
        "KeySchema": _key_schema(key_design.partition_key, key_design.sort_key),
        "BillingMode": str(billing_mode),
    }
    if capacity is not None:
        request["ProvisionedThroughput"] = _throughput(capacity.of(TABLE))
    if key_design.global_secondary_indexes:
        request["GlobalSecondaryIndexes"] = [_index(i, capacity) for i in key_design.global_secondary_indexes]
    if key_design.local_secondary_indexes:
        request["LocalSecondaryIndexes"] = [_index(i, None) for i in key_design.local_secondary_indexes]
    return request


def uniform_capacity(key_design: KeyDesign, capacity_units: int, source: str = "") -> ProvisionedCapacity:
    """The same fixed read and write capacity for the table and every GSI."""
    each = ResourceCapacity(DimensionCapacity(capacity_units), DimensionCapacity(capacity_units))
    return ProvisionedCapacity({TABLE: each, **{i.name: each for i in key_design.global_secondary_indexes}},
                               source=source)


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


def scaled_resources(key_design: KeyDesign) -> list[tuple[str, str]]:
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


def one_line(text: str) -> str:
    return " ".join(text.split())


def quota_comment(capacity: ProvisionedCapacity | None) -> str:
    """`# Quota: ...` lines for a YAML or HCL header, one per quota the capacities exceed (may be empty)."""
    if capacity is None:
        return ""
    return "".join(f"# Quota: {one_line(finding)}\n" for finding in capacity.quota_findings)
