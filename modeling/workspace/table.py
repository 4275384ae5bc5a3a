"""The workspace as a DynamoDB table, so several app servers share one set of drafts.

Selected with `DESIGN_STUDIO_WORKSPACE=dynamodb://TABLE`, on the configured endpoint (modeling.endpoint.adapter,
with its timeouts and botocore's standard retries for throttling). One table holds every workspace:

| attribute | value |
|---|---|
| `PK` (partition key) | `WORKSPACE#local`, or `WORKSPACE#SESSION#<token>` for a workshop attendee |
| `SK` (sort key) | `MODEL#<slug>` |
| `version` | the hash of the draft's JSON bytes, the same version the folder gives |
| `document` | those bytes, zlib-compressed (Binary): the bytes loaded are the bytes saved |
| `name`, `modified_ns` | for the listing |
| `expires_at` | workshop sessions only: epoch seconds, the table's TTL attribute |

The GSI `listing` has the same keys and projects only `name`, `version`, `modified_ns` and `expires_at`,
so listing the drafts and asking a draft's version read a few hundred bytes per draft instead of the
documents (a projection on the table itself would not: the whole item is read and charged, facts §1.2).

A save is one PutItem with a condition on `version` (or `attribute_not_exists(PK)` for a new draft);
`ConditionalCheckFailedException` returns the item as it is (ReturnValuesOnConditionCheckFailure), so
the conflict carries the other side's document at no extra request. A draft is one item, never split:
a save is then atomic under one condition, and a model whose compressed bytes exceed DynamoDB's 400 KB
item limit (facts §6) is refused with a message (splitting would need a transaction over the parts, at
twice the write units, for models that already strain every page).

The product creates the table itself (on-demand, tagged `created-by: dynamodb-design-studio` and
`dynamodb-design-studio:purpose: workspace`, the preview's ownership tags) and never writes to a table of
that name without those tags (ForeignWorkspaceTableError). The tags are not bound to one installation's
instance id: every app server sharing the workspace is an owner.

The check runs before every write, not once per process (issue 30.4: after the table was deleted and an
untagged one created under its name, the same process saved a draft into it): a DescribeTable gives the
table's identity (ARN and creation time, as the preview's TableIdentity); one whose tags this process has
checked passes at that one request; a new identity has its tags checked again (a foreign table is refused);
a table that is gone is created again, tagged, and the listing cached for the old one is dropped.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.endpoint.adapter import Endpoint, EndpointKind, dynamodb_client
from modeling.errors import (
    EndpointError,
    ForeignWorkspaceTableError,
    ModelFileError,
    WorkspaceConflictError,
    WorkspaceError,
)
from modeling.item_size import item_size_bytes
from modeling.limits import MAX_ITEM_BYTES
from modeling.model_file import parse_document
from modeling.preview.ownership import CREATOR, CREATOR_TAG, TableIdentity, endpoint_error, table_tags
from modeling.workspace.folder import Draft, DraftInfo, document_bytes, document_version, is_valid_slug, max_drafts
from modeling.workspace.store import copy_draft, create_with_fresh_slug

PURPOSE_TAG = "dynamodb-design-studio:purpose"
PURPOSE = "workspace"
LISTING_INDEX = "listing"
PARTITION_PREFIX = "WORKSPACE#"
SORT_PREFIX = "MODEL#"
TTL_ATTRIBUTE = "expires_at"
_LISTED = ["name", "version", "modified_ns", TTL_ATTRIBUTE]
_COMPRESSION_LEVEL = 9  # fixed: the same document gives the same stored bytes
_NAME_MAX = 256  # the listing shows a name, never a page of text
_checked_tables: set[tuple[str | None, str]] = set()
# (endpoint URL, table) -> the identity of the table whose tags were last checked in this process
_verified: dict[tuple[str, str], tuple[str, str]] = {}
_clients: dict[Endpoint, Any] = {}
# Another server's save shows in this process's listing within this long; saves are checked by the
# table's condition whatever the listing says, so a stale listing never lets a save overwrite.
LISTING_CACHE_SECONDS = 2.0
_LISTING_CACHE_MAX = 4096  # namespaces remembered per process (a room of attendees, with room to spare)
_listing_cache: dict[tuple[str, str], tuple[float, dict[str, dict[str, Any]]]] = {}
_cache_lock = threading.Lock()
_checked_lock = threading.Lock()


def partition_value(namespace: str) -> str:
    """`local` for one user; a workshop session's token is prefixed so it cannot collide with `local`."""
    return f"{PARTITION_PREFIX}local" if namespace == "local" else f"{PARTITION_PREFIX}SESSION#{namespace}"


def sort_value(slug: str) -> str:
    return f"{SORT_PREFIX}{slug}"


@dataclass(frozen=True)
class TableWorkspace:
    """The drafts of one namespace (`local` or a workshop token) in the workspace table."""

    client: Any
    table: str
    namespace: str
    ttl_seconds: float | None = None  # workshop sessions: a draft expires this long after its last save
    clock: Callable[[], float] = field(default=time.time, compare=False)

    def drafts(self) -> list[DraftInfo]:
        now = self.clock()
        infos = [DraftInfo(slug, entry.get("name", {}).get("S", "") or slug,
                           int(entry.get("modified_ns", {}).get("N", "0")))
                 for slug, entry in self._entries().items() if not _expired(entry, now)]
        return sorted(infos, key=lambda info: (-info.modified_ns, info.slug))

    def skipped(self) -> list[str]:
        return []  # a table has no links or FIFOs: every item is a draft

    def most_recent(self) -> str | None:
        drafts = self.drafts()
        return drafts[0].slug if drafts else None

    def exists(self, slug: str) -> bool:
        return is_valid_slug(slug) and self.version(slug) is not None

    def load(self, slug: str) -> dict[str, Any]:
        return self.read(slug).document

    def read(self, slug: str) -> Draft:
        item = self._item(slug)
        if item is None:
            raise WorkspaceError(f"the draft `{slug}` is not in {self.describe()}")
        return _draft(item, slug)

    def version(self, slug: str) -> str | None:
        """From the listing (the index is eventually consistent: a draft another server saved a moment ago
        may not be there yet, so a miss asks the table itself)."""
        if not is_valid_slug(slug):
            return None
        entry = self._entries().get(slug)
        if entry is not None:
            return None if _expired(entry, self.clock()) else str(entry["version"]["S"])
        item = self._item(slug)
        return None if item is None else str(item["version"]["S"])

    def save(self, slug: str, document: dict[str, Any], expected_version: str | None = None) -> str:
        if not is_valid_slug(slug):
            raise WorkspaceError(f"`{slug}` is not a model name the workspace can store; "
                                 "use lower-case letters, digits and dashes")
        data = document_bytes(document)
        version = document_version(data)
        item = self._new_item(slug, document, data, version)
        request: dict[str, Any] = {"TableName": self.table, "Item": item}
        self._check_table("save the model")
        if expected_version is not None:
            request.update(_condition(expected_version, self.clock()), ReturnValuesOnConditionCheckFailure="ALL_OLD")
        try:
            self.client.put_item(**request)
        except ClientError as exc:
            if _code(exc) == "ConditionalCheckFailedException":
                self._remember(slug, exc.response.get("Item") or None)
                raise _conflict(slug, exc) from None
            raise self._failure("save the model", exc) from None
        except (BotoCoreError, EndpointError) as exc:
            raise self._failure("save the model", exc) from None
        self._remember(slug, item)
        return version

    def create(self, document: dict[str, Any]) -> str:
        limit = max_drafts()
        if self._count() >= limit:
            raise WorkspaceError(f"the workspace already holds {limit} models, its limit; delete some "
                                 "(Model page, File tab) or raise DESIGN_STUDIO_MAX_DRAFTS")
        return create_with_fresh_slug(self, document)

    def copy(self, slug: str, name: str) -> str:
        return copy_draft(self, slug, name)

    def delete(self, slug: str) -> None:
        self._check_table(f"delete the draft `{slug}`")
        try:
            self.client.delete_item(TableName=self.table, Key=self._key(slug))
        except (ClientError, BotoCoreError, EndpointError) as exc:
            raise self._failure(f"delete the draft `{slug}`", exc) from None
        self._remember(slug, None)

    def describe(self) -> str:
        return f"the DynamoDB table {self.table}"

    # --- requests ---------------------------------------------------------------------------------

    def _check_table(self, action: str) -> None:
        """Before a write: still the product's own workspace table (module docstring); WorkspaceError if the
        endpoint cannot say, ForeignWorkspaceTableError for a table of that name the product did not make."""
        try:
            check_table_before_write(self.client, self.table)
        except EndpointError as exc:
            raise self._failure(action, exc) from None

    def _key(self, slug: str) -> dict[str, Any]:
        if not is_valid_slug(slug):
            raise WorkspaceError(f"`{slug}` is not a model name the workspace can store")
        return {"PK": {"S": partition_value(self.namespace)}, "SK": {"S": sort_value(slug)}}

    def _item(self, slug: str) -> dict[str, Any] | None:
        try:
            answer = self.client.get_item(TableName=self.table, Key=self._key(slug), ConsistentRead=True)
        except (ClientError, BotoCoreError, EndpointError) as exc:
            raise self._failure(f"read the draft `{slug}`", exc) from None
        item = answer.get("Item")
        return None if item is None or _expired(item, self.clock()) else item

    def _entries(self) -> dict[str, dict[str, Any]]:
        """The listing's entries by slug, asked of the index at most once per LISTING_CACHE_SECONDS per
        process: a page run asks for versions and the list a dozen times (22 queries a Model page run)."""
        key = (self.table, self.namespace)
        with _cache_lock:
            cached = _listing_cache.get(key)
            if cached is not None and time.monotonic() - cached[0] < LISTING_CACHE_SECONDS:
                return dict(cached[1])
        asked = time.monotonic()
        try:
            entries = {entry["SK"]["S"][len(SORT_PREFIX):]: entry for entry in self._listing()}
        except WorkspaceError:
            if cached is None:
                raise
            # the endpoint is away: the pages go on from the last listing, and a save says it failed
            # (the edit is kept in the tab), as with a folder that turned read-only
            return dict(cached[1])
        entries = {slug: entry for slug, entry in entries.items() if is_valid_slug(slug)}
        with _cache_lock:
            _listing_cache[key] = (asked, entries)
            if len(_listing_cache) > _LISTING_CACHE_MAX:
                _listing_cache.pop(next(iter(_listing_cache)))
        return dict(entries)

    def _remember(self, slug: str, item: dict[str, Any] | None) -> None:
        """What this process wrote (or found) is in its cached listing at once, whatever the index's lag."""
        with _cache_lock:
            cached = _listing_cache.get((self.table, self.namespace))
            if cached is None:
                return
            if item is None:
                cached[1].pop(slug, None)
            else:
                cached[1][slug] = {name: item[name] for name in ("PK", "SK", *_LISTED) if name in item}

    def _listing(self) -> Iterator[dict[str, Any]]:
        """The listing index's entries of this namespace, page by page."""
        condition = "PK = :pk AND begins_with(SK, :sk)"
        values = {":pk": {"S": partition_value(self.namespace)}, ":sk": {"S": SORT_PREFIX}}
        request: dict[str, Any] = {"TableName": self.table, "IndexName": LISTING_INDEX,
                                   "KeyConditionExpression": condition, "ExpressionAttributeValues": values}
        try:
            while True:
                answer = self.client.query(**request)
                yield from answer.get("Items", [])
                if "LastEvaluatedKey" not in answer:
                    return
                request["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
        except (ClientError, BotoCoreError, EndpointError) as exc:
            raise self._failure("list the drafts", exc) from None

    def _count(self) -> int:
        now = self.clock()
        return sum(1 for entry in self._entries().values() if not _expired(entry, now))

    def _new_item(self, slug: str, document: dict[str, Any], data: bytes, version: str) -> dict[str, Any]:
        item: dict[str, Any] = {**self._key(slug), "version": {"S": version},
                                "name": {"S": str(document.get("name") or slug)[:_NAME_MAX]},
                                "modified_ns": {"N": str(time.time_ns())},
                                "document": {"B": zlib.compress(data, _COMPRESSION_LEVEL)}}
        if self.ttl_seconds is not None:
            item[TTL_ATTRIBUTE] = {"N": str(int(self.clock() + self.ttl_seconds))}
        size = item_size_bytes(item)
        if size > MAX_ITEM_BYTES:  # facts §6: 400 KB per item, attribute names included
            raise WorkspaceError(
                f"the model is too large for {self.describe()}: {len(data):,} bytes, {size:,} bytes as a "
                f"DynamoDB item once compressed, over DynamoDB's {MAX_ITEM_BYTES:,}-byte item limit. It is kept "
                "in this tab: download it (File tab), or split it into smaller models")
        return item

    def _failure(self, action: str, exc: Exception) -> WorkspaceError:
        reason = str(exc) if isinstance(exc, EndpointError) else str(endpoint_error(action, exc))
        return WorkspaceError(f"{reason} ({self.describe()})")


def _condition(expected_version: str, now: float) -> dict[str, Any]:
    if expected_version == "":  # a new draft: none there, or only one whose time has run out
        return {"ConditionExpression": "attribute_not_exists(PK) OR #expires < :now",
                "ExpressionAttributeNames": {"#expires": TTL_ATTRIBUTE},
                "ExpressionAttributeValues": {":now": {"N": str(int(now))}}}
    return {"ConditionExpression": "#version = :expected", "ExpressionAttributeNames": {"#version": "version"},
            "ExpressionAttributeValues": {":expected": {"S": expected_version}}}


def _conflict(slug: str, exc: ClientError) -> WorkspaceConflictError:
    """The conflict, with the other side as the failed condition found it."""
    item = exc.response.get("Item")
    if not item:
        return WorkspaceConflictError(slug, "")
    try:
        theirs: dict[str, Any] | None = _draft(item, slug).document
    except (ModelFileError, WorkspaceError):
        theirs = None
    return WorkspaceConflictError(slug, item.get("version", {}).get("S", ""), theirs)


def _draft(item: dict[str, Any], slug: str) -> Draft:
    try:
        data = zlib.decompress(bytes(item["document"]["B"]))
        version = item["version"]["S"]
    except (KeyError, TypeError, zlib.error):
        raise WorkspaceError(f"the draft `{slug}` in the workspace table is damaged (its document cannot be "
                             "decompressed); it is kept as it is") from None
    return Draft(parse_document(data, f"{slug}.json"), version)


def _expired(entry: dict[str, Any], now: float) -> bool:
    """DynamoDB deletes expired items within days, not at once: readers treat them as gone."""
    stamp = entry.get(TTL_ATTRIBUTE, {}).get("N")
    return stamp is not None and float(stamp) < now


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


# --- the table itself ------------------------------------------------------------------------------


def create_table_request(table: str) -> dict[str, Any]:
    """The workspace table: a fixed schema (not a model's design, so not the preview's builder)."""
    keys = [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}]
    return {
        "TableName": table, "BillingMode": "PAY_PER_REQUEST", "KeySchema": keys,
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                 {"AttributeName": "SK", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{"IndexName": LISTING_INDEX, "KeySchema": keys,
                                    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": _LISTED}}],
        "Tags": [{"Key": CREATOR_TAG, "Value": CREATOR}, {"Key": PURPOSE_TAG, "Value": PURPOSE}],
    }


def foreign_reason(tags: dict[str, str]) -> str:
    if tags.get(CREATOR_TAG) != CREATOR:
        return f"it has no `{CREATOR_TAG}: {CREATOR}` tag"
    if tags.get(PURPOSE_TAG) != PURPOSE:
        return f"it is not tagged `{PURPOSE_TAG}: {PURPOSE}` (another of the product's tables)"
    return ""


def check_table_before_write(client: Any, table: str) -> None:
    """The table is the product's own workspace table as this process last checked it, or is checked again
    (created again when gone, refused when foreign); one DescribeTable when nothing changed."""
    key = (str(client.meta.endpoint_url), table)
    try:
        described = client.describe_table(TableName=table)["Table"]
        identity: tuple[str, str] | None = (str(described["TableArn"]), str(described.get("CreationDateTime", "")))
    except ClientError as exc:
        if _code(exc) != "ResourceNotFoundException":
            raise endpoint_error(f"check the workspace table {table}", exc) from None
        identity = None  # gone: made again below, tagged, before the write
    except BotoCoreError as exc:
        raise endpoint_error(f"check the workspace table {table}", exc) from None
    except (KeyError, TypeError):
        raise EndpointError("the endpoint's answer to DescribeTable has no table in it: it does not behave like "
                            "DynamoDB; check the endpoint URL") from None
    with _checked_lock:
        if identity is not None and _verified.get(key) == identity:
            return
    checked = ensure_workspace_table(client, table)
    with _checked_lock:
        known = _verified.get(key)
        _verified[key] = (checked.arn, checked.created)
    if known is not None:  # another table than the one listed: its drafts are not the cached ones
        with _cache_lock:
            for cached in [k for k in _listing_cache if k[0] == table]:
                _listing_cache.pop(cached)


def ensure_workspace_table(client: Any, table: str) -> TableIdentity:
    """Create the table when absent; raise ForeignWorkspaceTableError when it exists without our tags.
    Returns the identity of the table whose tags passed."""
    try:
        found = table_tags(client, table)
        if found is None:
            _create(client, table)
            found = table_tags(client, table)
    except EndpointError as exc:
        raise WorkspaceError(f"the workspace table {table} cannot be opened: {exc}") from None
    if found is None:
        raise WorkspaceError(f"the workspace table {table} was created but the endpoint does not show it; retry")
    refusal = foreign_reason(found[1])
    if refusal:
        raise ForeignWorkspaceTableError(
            f"the table {table} exists but was not created by DynamoDB Design Studio as its workspace ({refusal}), "
            "so no model is saved in it or read from it. Name another table in DESIGN_STUDIO_WORKSPACE="
            "dynamodb://NAME, or delete or rename that table yourself")
    return found[0]


def _create(client: Any, table: str) -> None:
    try:
        client.create_table(**create_table_request(table))
    except ClientError as exc:
        if _code(exc) != "ResourceInUseException":  # another server created it at the same moment
            raise endpoint_error(f"create the workspace table {table}", exc) from None
    except BotoCoreError as exc:
        raise endpoint_error(f"create the workspace table {table}", exc) from None
    try:
        client.get_waiter("table_exists").wait(TableName=table, WaiterConfig={"Delay": 1, "MaxAttempts": 120})
        client.update_time_to_live(TableName=table, TimeToLiveSpecification={"Enabled": True,
                                                                            "AttributeName": TTL_ATTRIBUTE})
    except ClientError as exc:
        if "already enabled" not in str(exc).lower():
            raise endpoint_error(f"prepare the workspace table {table}", exc) from None
    except BotoCoreError as exc:
        raise endpoint_error(f"prepare the workspace table {table}", exc) from None


def open_table_workspace(endpoint: Endpoint, table: str, namespace: str,
                         ttl_seconds: float | None = None) -> TableWorkspace:
    """The namespace's drafts in the table, creating and checking the table once per process."""
    if endpoint.kind is EndpointKind.EMBEDDED:
        raise WorkspaceError("DESIGN_STUDIO_WORKSPACE=dynamodb://... needs an endpoint that outlives this "
                             "process: the embedded one keeps its data in this process's memory, so models would "
                             "be lost at exit and no other app server would see them. Set DESIGN_STUDIO_ENDPOINT "
                             "(DynamoDB Local's URL, or aws)")
    with _checked_lock:
        # one client per endpoint and process: a page asks the workspace several times per run, and a
        # boto3 client takes tens of milliseconds to build (clients are thread-safe)
        client = _clients.get(endpoint)
        if client is None:
            client = _clients[endpoint] = dynamodb_client(endpoint)
        if (endpoint.url, table) not in _checked_tables:
            checked = ensure_workspace_table(client, table)
            _checked_tables.add((endpoint.url, table))
            _verified[(str(client.meta.endpoint_url), table)] = (checked.arn, checked.created)
    return TableWorkspace(client, table, namespace, ttl_seconds)


def forget_checked_tables() -> None:
    """Check the table's tags again at next use (tests replace tables between cases)."""
    with _checked_lock:
        _checked_tables.clear()
        _verified.clear()
        _clients.clear()
    with _cache_lock:
        _listing_cache.clear()
