"""Whose preview table this is: the product writes to or deletes only tables this installation made.

A preview table carries four tags (set by CreateTable, so they exist from the first instant):
- `created-by: dynamodb-design-studio`: made by the product;
- the instance: a random id kept in the workspace (modeling.workspace.folder.instance_id), so a colleague's
  installation pointed at the same endpoint is another owner, never touched;
- the session: which workshop attendee (or `local`) the table belongs to;
- the load: a random id given at creation, so a table deleted and created again under the same name,
  even within the same second, is recognised as another table.

`owned_identity` runs before every write path (loading, resuming, re-sending after a failure,
the write patterns, cleanup); `TableGuard` repeats it during a load and raises `TableReplacedError`
when the table is no longer the one the load began with, so the load starts over instead of resuming.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.endpoint.adapter import NotDynamoDB
from modeling.errors import EndpointError, ModelingError

CREATOR_TAG = "created-by"
CREATOR = "dynamodb-design-studio"
INSTANCE_TAG = "dynamodb-design-studio:instance"
SESSION_TAG = "dynamodb-design-studio:session"
LOAD_TAG = "dynamodb-design-studio:load"
_TAG_VALUE_MAX = 256  # AWS tagging rules: a tag value has at most 256 Unicode characters


class ForeignTableError(ModelingError):
    """A table with the preview's name exists but this installation and session did not create it."""


class TableReplacedError(ModelingError):
    """The table was deleted, or deleted and created again, since the load began."""

    requests: int = 0  # requests the abandoned load had sent, so the report can count every attempt


@dataclass(frozen=True)
class Owner:
    """Who may write to a preview table: this installation of the product, in this session."""

    instance: str
    session: str


@dataclass(frozen=True)
class TableIdentity:
    """One incarnation of a table: a table deleted and created again under its name differs here."""

    name: str
    arn: str
    created: str  # CreationDateTime as the endpoint reports it
    load_id: str


def new_load_id() -> str:
    return uuid.uuid4().hex


def ownership_tags(owner: Owner, load_id: str) -> list[dict[str, str]]:
    """The tags CreateTable gives a preview table (besides the model's name)."""
    return [{"Key": CREATOR_TAG, "Value": CREATOR}, {"Key": INSTANCE_TAG, "Value": owner.instance},
            {"Key": SESSION_TAG, "Value": owner.session[:_TAG_VALUE_MAX]}, {"Key": LOAD_TAG, "Value": load_id}]


def table_tags(client: Any, name: str) -> tuple[TableIdentity, dict[str, str]] | None:
    """The table's identity and tags, or None when no such table exists."""
    try:
        table = client.describe_table(TableName=name)["Table"]
        tags = client.list_tags_of_resource(ResourceArn=table["TableArn"]).get("Tags", [])
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "ResourceNotFoundException":
            return None
        raise endpoint_error("read the table's tags", exc) from None
    except BotoCoreError as exc:
        raise endpoint_error("read the table's tags", exc) from None
    except (KeyError, TypeError, AttributeError):
        raise EndpointError("the endpoint's answer to DescribeTable has no table in it: it does not behave "
                            "like DynamoDB; check the endpoint URL") from None
    values = {tag["Key"]: tag["Value"] for tag in tags}
    created = str(table.get("CreationDateTime", ""))
    return TableIdentity(name, table["TableArn"], created, values.get(LOAD_TAG, "")), values


def owned_identity(client: Any, name: str, owner: Owner) -> TableIdentity | None:
    """The table's identity when this installation and session created it; None when there is no table.

    Raises ForeignTableError for any other table: it is never written to or deleted.
    """
    found = table_tags(client, name)
    if found is None:
        return None
    identity, tags = found
    refusal = foreign_reason(tags, owner)
    if refusal:
        raise ForeignTableError(f"the table {name} exists but {refusal}, so the preview will not write to it or "
                                "delete it; delete or rename that table yourself, or point the preview at "
                                "another endpoint")
    return identity


def foreign_reason(tags: dict[str, str], owner: Owner) -> str:
    """Why a table with these tags is not this owner's, or '' when it is."""
    if tags.get(CREATOR_TAG) != CREATOR:
        return f"was not created by DynamoDB Design Studio (it has no `{CREATOR_TAG}: {CREATOR}` tag)"
    instance = tags.get(INSTANCE_TAG)
    if instance != owner.instance:
        which = f"instance {instance[:8]}…" if instance else "an older version without an instance tag"
        return f"was created by another installation of DynamoDB Design Studio ({which})"
    if tags.get(SESSION_TAG) != owner.session[:_TAG_VALUE_MAX]:
        return "belongs to another session of this installation"
    return ""


@dataclass(frozen=True)
class TableGuard:
    """Checks, before a write, that the table is still the very one a load began with."""

    client: Any
    owner: Owner
    identity: TableIdentity

    def check(self) -> None:
        current = owned_identity(self.client, self.identity.name, self.owner)
        if current is None:
            raise TableReplacedError(f"the table {self.identity.name} was deleted during the load")
        if current != self.identity:
            raise TableReplacedError(f"the table {self.identity.name} was deleted and created again during the "
                                     "load (another tab or a cleanup may have reloaded it)")


def endpoint_error(action: str, exc: Exception) -> EndpointError:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return EndpointError(f"the endpoint refused to {action}: {error.get('Code', 'error')}: "
                             f"{error.get('Message', '')}")
    if isinstance(exc, NotDynamoDB):
        return EndpointError(f"could not {action}: {exc}")
    return EndpointError(f"could not {action}: the endpoint did not answer ({str(exc)[:160]}); check that it is "
                         "running, then retry")
