"""The preview table on the endpoint: its name, its creation from the design, and its cleanup.

Every preview table is named `dds-<session>-<model>` (two workshop attendees never share one) and
tagged as created by the product. Loading into or deleting a table is refused unless the table carries
that tag: the product never modifies or deletes a table it did not create.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.errors import EndpointError, ModelingError
from modeling.model import BillingMode, KeyDesign, ProjectionType, SecondaryIndex, TableSettings
from modeling.preview.dataset import key_attributes

CREATOR_TAG = "created-by"
CREATOR = "dynamodb-design-studio"
MODEL_TAG = "dynamodb-design-studio:model"
SESSION_TAG = "dynamodb-design-studio:session"
LOADED_TAG = "dynamodb-design-studio:loaded"  # the fingerprint of the data a completed load wrote
# A preview needs little throughput; provisioned models get this much per table and per GSI so that
# the preview shows the billing mode without paying for the production capacity.
PREVIEW_PROVISIONED_UNITS = 10
_NAME_PREFIX = "dds-"
_MAX_TABLE_NAME = 255


class ForeignTableError(ModelingError):
    """A table with the preview's name exists but was not created by the product."""


@dataclass(frozen=True)
class PreviewTable:
    name: str
    namespace: str
    model_slug: str


def preview_table(namespace: str, model_slug: str) -> PreviewTable:
    """The preview table of one session's model; names allow [A-Za-z0-9_.-] only (3 to 255 characters)."""
    clean = [re.sub(r"[^A-Za-z0-9_.\-]+", "-", part).strip("-") or "x" for part in (namespace, model_slug)]
    name = f"{_NAME_PREFIX}{clean[0]}-{clean[1]}"[:_MAX_TABLE_NAME]
    return PreviewTable(name, namespace, model_slug)


def create_table_request(table: PreviewTable, settings: TableSettings, key_design: KeyDesign) -> dict[str, Any]:
    """CreateTable parameters for the design: keys, indexes, projections, billing mode, ownership tags."""
    provisioned = settings.billing_mode is BillingMode.PROVISIONED
    throughput = {"ReadCapacityUnits": PREVIEW_PROVISIONED_UNITS, "WriteCapacityUnits": PREVIEW_PROVISIONED_UNITS}
    request: dict[str, Any] = {
        "TableName": table.name,
        "AttributeDefinitions": [{"AttributeName": a.name, "AttributeType": a.type.value}
                                 for a in key_attributes(key_design)],
        "KeySchema": _key_schema(key_design.partition_key.name,
                                 key_design.sort_key.name if key_design.sort_key else None),
        "BillingMode": settings.billing_mode.value,
        "Tags": [{"Key": CREATOR_TAG, "Value": CREATOR}, {"Key": MODEL_TAG, "Value": table.model_slug[:256]},
                 {"Key": SESSION_TAG, "Value": table.namespace[:256]}],
    }
    if provisioned:
        request["ProvisionedThroughput"] = throughput
    if key_design.global_secondary_indexes:
        extra = {"ProvisionedThroughput": throughput} if provisioned else {}
        request["GlobalSecondaryIndexes"] = [{**_index(index, index.partition_key.name), **extra}
                                             for index in key_design.global_secondary_indexes]
    if key_design.local_secondary_indexes:
        request["LocalSecondaryIndexes"] = [_index(index, key_design.partition_key.name)
                                            for index in key_design.local_secondary_indexes]
    return request


def _key_schema(partition_key: str, sort_key: str | None) -> list[dict[str, str]]:
    schema = [{"AttributeName": partition_key, "KeyType": "HASH"}]
    if sort_key:
        schema.append({"AttributeName": sort_key, "KeyType": "RANGE"})
    return schema


def _index(index: SecondaryIndex, partition_key: str) -> dict[str, Any]:
    projection: dict[str, Any] = {"ProjectionType": index.projection.type.value}
    if index.projection.type is ProjectionType.INCLUDE:
        projection["NonKeyAttributes"] = list(index.projection.non_key_attributes)
    return {"IndexName": index.name,
            "KeySchema": _key_schema(partition_key, index.sort_key.name if index.sort_key else None),
            "Projection": projection}


def table_owner_tags(client: Any, name: str) -> dict[str, str] | None:
    """The table's tags, or None when no such table exists."""
    try:
        arn = client.describe_table(TableName=name)["Table"]["TableArn"]
        tags = client.list_tags_of_resource(ResourceArn=arn).get("Tags", [])
    except ClientError as exc:
        if _code(exc) == "ResourceNotFoundException":
            return None
        raise _endpoint_error("read the table's tags", exc) from None
    except BotoCoreError as exc:
        raise _endpoint_error("read the table's tags", exc) from None
    return {tag["Key"]: tag["Value"] for tag in tags}


def ensure_owned(client: Any, name: str) -> bool:
    """True when the table exists and the product created it, False when it does not exist.

    Raises ForeignTableError for a table someone else created: it is never written to or deleted.
    """
    tags = table_owner_tags(client, name)
    if tags is None:
        return False
    if tags.get(CREATOR_TAG) != CREATOR:
        raise ForeignTableError(f"the table {name} exists but was not created by DynamoDB Design Studio "
                                f"(it has no `{CREATOR_TAG}: {CREATOR}` tag), so the preview will not write to "
                                "it or delete it; rename that table or point the preview at another endpoint")
    return True


def mark_loaded(client: Any, name: str, fingerprint: str) -> None:
    """Tag the table with the fingerprint of the data it now holds in full (after the count check)."""
    try:
        arn = client.describe_table(TableName=name)["Table"]["TableArn"]
        client.tag_resource(ResourceArn=arn, Tags=[{"Key": LOADED_TAG, "Value": fingerprint}])
    except (ClientError, BotoCoreError) as exc:
        raise _endpoint_error("tag the loaded table", exc) from None


def loaded_fingerprint(client: Any, name: str) -> str | None:
    """The fingerprint of the data a product-made table holds in full, or None."""
    tags = table_owner_tags(client, name)
    if not tags or tags.get(CREATOR_TAG) != CREATOR:
        return None
    return tags.get(LOADED_TAG)


def create_preview_table(client: Any, table: PreviewTable, settings: TableSettings, key_design: KeyDesign) -> None:
    """Create the table (replacing an earlier preview table of the product) and wait until it is active."""
    if ensure_owned(client, table.name):
        delete_preview_table(client, table)
    try:
        client.create_table(**create_table_request(table, settings, key_design))
        client.get_waiter("table_exists").wait(TableName=table.name, WaiterConfig={"Delay": 1, "MaxAttempts": 120})
        if settings.ttl_attribute:
            client.update_time_to_live(TableName=table.name, TimeToLiveSpecification={
                "Enabled": True, "AttributeName": settings.ttl_attribute})
    except ClientError as exc:
        raise _endpoint_error(f"create the table {table.name}", exc) from None
    except BotoCoreError as exc:
        raise _endpoint_error(f"create the table {table.name}", exc) from None


def delete_preview_table(client: Any, table: PreviewTable) -> bool:
    """Delete the preview table if it exists and the product created it; False when there was none."""
    if not ensure_owned(client, table.name):
        return False
    try:
        client.delete_table(TableName=table.name)
        client.get_waiter("table_not_exists").wait(TableName=table.name,
                                                   WaiterConfig={"Delay": 1, "MaxAttempts": 120})
    except (ClientError, BotoCoreError) as exc:
        raise _endpoint_error(f"delete the table {table.name}", exc) from None
    return True


def _code(exc: ClientError) -> str:
    return exc.response.get("Error", {}).get("Code", "")


def _endpoint_error(action: str, exc: Exception) -> EndpointError:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return EndpointError(f"the endpoint refused to {action}: {error.get('Code', 'error')}: "
                             f"{error.get('Message', '')}")
    text = str(exc)
    return EndpointError(f"could not {action}: the endpoint did not answer ({text[:160]}); check that it is "
                         "running, then retry")
