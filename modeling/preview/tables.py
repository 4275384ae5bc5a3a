"""The preview table on the endpoint: its name, its creation from the design, and its cleanup.

Every preview table is named `dds-<namespace>-<model>` (two workshop attendees never share one; in a
workshop the namespace is a keyed hash of the session token, `workshop.isolation.table_namespace`, so a
table name never reveals the token) and tagged with its owner (modeling.preview.ownership). Loading into or
deleting a table is refused unless this installation and session created it: the product never modifies
or deletes a table it did not create.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.errors import EndpointError
from modeling.interop.iac_request import table_request, uniform_capacity
from modeling.limits import MAX_TABLE_NAME_CHARS
from modeling.model import BillingMode, KeyDesign, TableSettings
from modeling.preview.ownership import (
    CREATOR,
    CREATOR_TAG,
    LOAD_TAG,
    SESSION_TAG,
    ForeignTableError,
    Owner,
    TableIdentity,
    endpoint_error,
    new_load_id,
    owned_identity,
    ownership_tags,
    table_tags,
)

__all__ = ["CREATOR", "CREATOR_TAG", "SESSION_TAG", "ForeignTableError"]  # re-exported for callers

MODEL_TAG = "dynamodb-design-studio:model"
LOADED_TAG = "dynamodb-design-studio:loaded"  # the fingerprint of the data a completed load wrote
# A preview needs little throughput; provisioned models get this much per table and per GSI so that
# the preview shows the billing mode without paying for the production capacity.
PREVIEW_PROVISIONED_UNITS = 10
NAME_PREFIX = "dds-"


@dataclass(frozen=True)
class PreviewTable:
    name: str
    namespace: str
    model_slug: str


def preview_table(namespace: str, model_slug: str) -> PreviewTable:
    """The preview table of one session's model; names allow [A-Za-z0-9_.-] only (3 to 255 characters)."""
    clean = [re.sub(r"[^A-Za-z0-9_.\-]+", "-", part).strip("-") or "x" for part in (namespace, model_slug)]
    name = f"{NAME_PREFIX}{clean[0]}-{clean[1]}"[:MAX_TABLE_NAME_CHARS]
    return PreviewTable(name, namespace, model_slug)


def create_table_request(table: PreviewTable, settings: TableSettings, key_design: KeyDesign, owner: Owner,
                         load_id: str) -> dict[str, Any]:
    """CreateTable parameters for the design: keys, indexes, projections, billing mode, ownership tags.

    The request is `modeling.interop.iac_request.table_request`'s, the one the IaC export starts from, plus the
    ownership tags (and a small capacity when provisioned); it holds no deletion protection, since the
    product deletes its preview tables.
    """
    capacity = (uniform_capacity(key_design, PREVIEW_PROVISIONED_UNITS)
                if settings.billing_mode is BillingMode.PROVISIONED else None)
    request = table_request(table.name, settings.billing_mode, key_design, capacity)
    request["Tags"] = [*ownership_tags(owner, load_id), {"Key": MODEL_TAG, "Value": table.model_slug[:256]}]
    return request


def table_owner_tags(client: Any, name: str) -> dict[str, str] | None:
    """The table's tags, or None when no such table exists."""
    found = table_tags(client, name)
    return None if found is None else found[1]


def ensure_owned(client: Any, name: str, owner: Owner) -> TableIdentity | None:
    """The table's identity when it exists and this owner created it, None when it does not exist.

    Raises ForeignTableError for a table someone else created: it is never written to or deleted.
    """
    return owned_identity(client, name, owner)


def mark_loaded(client: Any, identity: TableIdentity, owner: Owner, fingerprint: str) -> None:
    """Tag the table with the fingerprint of the data it now holds in full (after the count check)."""
    current = owned_identity(client, identity.name, owner)
    if current != identity:
        return  # replaced since the count: the new table holds something else, so it is not marked
    try:
        client.tag_resource(ResourceArn=identity.arn, Tags=[{"Key": LOADED_TAG, "Value": fingerprint}])
    except (ClientError, BotoCoreError) as exc:
        raise endpoint_error("tag the loaded table", exc) from None


def loaded_fingerprint(client: Any, name: str, owner: Owner) -> str | None:
    """The fingerprint of the data a table this owner made holds in full, or None."""
    identity = owned_identity(client, name, owner)
    if identity is None:
        return None
    found = table_tags(client, name)
    return None if found is None else found[1].get(LOADED_TAG)


def create_preview_table(client: Any, table: PreviewTable, settings: TableSettings, key_design: KeyDesign,
                         owner: Owner) -> TableIdentity:
    """Create the table (replacing an earlier preview table of this owner), wait until it is active,
    and return its identity. A table of anyone else with that name raises ForeignTableError."""
    if ensure_owned(client, table.name, owner) is not None:
        delete_preview_table(client, table, owner)
    load_id = new_load_id()
    try:
        _create(client, create_table_request(table, settings, key_design, owner, load_id), owner)
        client.get_waiter("table_exists").wait(TableName=table.name, WaiterConfig={"Delay": 1, "MaxAttempts": 120})
        if settings.ttl_attribute:
            client.update_time_to_live(TableName=table.name, TimeToLiveSpecification={
                "Enabled": True, "AttributeName": settings.ttl_attribute})
    except (ClientError, BotoCoreError) as exc:
        raise endpoint_error(f"create the table {table.name}", exc) from None
    identity = owned_identity(client, table.name, owner)
    if identity is None:
        raise EndpointError(f"the table {table.name} was created but the endpoint does not show it; retry")
    return identity


def _create(client: Any, request: dict[str, Any], owner: Owner) -> None:
    """CreateTable; when its first answer was lost and botocore's retry finds the table in use, the table
    is ours only if it carries the load id this very request gave it."""
    try:
        client.create_table(**request)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") != "ResourceInUseException":
            raise
        load_id = next(tag["Value"] for tag in request["Tags"] if tag["Key"] == LOAD_TAG)
        identity = owned_identity(client, request["TableName"], owner)  # someone else's: ForeignTableError
        if identity is None or identity.load_id != load_id:
            raise


def delete_preview_table(client: Any, table: PreviewTable, owner: Owner) -> bool:
    """Delete the preview table if it exists and this owner created it; False when there was none."""
    if ensure_owned(client, table.name, owner) is None:
        return False
    try:
        try:
            client.delete_table(TableName=table.name)
        except ClientError as exc:  # gone already: a retry after a lost answer, or deleted meanwhile
            if exc.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
                raise
        client.get_waiter("table_not_exists").wait(TableName=table.name,
                                                   WaiterConfig={"Delay": 1, "MaxAttempts": 120})
    except (ClientError, BotoCoreError) as exc:
        raise endpoint_error(f"delete the table {table.name}", exc) from None
    return True
