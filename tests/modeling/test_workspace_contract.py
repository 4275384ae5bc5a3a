"""One contract for both workspaces (issue #14, "One workspace for a team or a room").

Every test in the first part runs against the folder and against the DynamoDB table, the latter on a
real moto server over HTTP (the embedded endpoint, addressed by its URL as any configured endpoint is).
The second part covers what only the table has: the 400 KB item limit, the ownership tags, expiry,
namespaces.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from modeling.endpoint.adapter import Endpoint, EndpointKind, configured_endpoint, dynamodb_client
from modeling.errors import ForeignWorkspaceTableError, ModelFileError, WorkspaceConflictError, WorkspaceError
from modeling.workspace.folder import Workspace, document_bytes, document_version
from modeling.workspace.store import WorkspaceStore, workspace_table_name
from modeling.workspace.table import (
    CREATOR,
    CREATOR_TAG,
    TableWorkspace,
    forget_checked_tables,
    open_table_workspace,
    partition_value,
    sort_value,
)

# A draft need not be a valid model (nothing typed is lost on a validation error): odd characters,
# numbers and nesting must come back exactly.
DRAFT: dict[str, Any] = {"format": "dynamodb-design-studio/model", "version": 1, "name": "Café orders ✓",
                         "entities": [{"name": "Order", "item_count": 1500, "growth": 0.25,
                                       "attributes": [{"name": "id", "type": "S", "identifier": True}]}],
                         "access_patterns": [], "note": "line one\nline \"two\""}


@pytest.fixture(scope="module")
def endpoint() -> Endpoint:
    """The embedded moto server, as a configured endpoint (the table workspace refuses the in-memory
    embedded kind in the app, where it would not outlive the process)."""
    embedded = configured_endpoint({})
    return Endpoint(EndpointKind.CUSTOM, embedded.url, "us-east-1")


@pytest.fixture
def table_name(endpoint: Endpoint) -> Iterator[str]:
    """A table of its own, for the tests of the table itself (deleted afterwards, if one was made)."""
    forget_checked_tables()
    name = f"dds-workspace-test-{secrets.token_hex(4)}"
    yield name
    with contextlib.suppress(ClientError):  # a test that refused to create the table leaves none
        dynamodb_client(endpoint).delete_table(TableName=name)


@pytest.fixture(scope="module")
def shared_table(endpoint: Endpoint) -> Iterator[str]:
    """One workspace table for the module; each test works in a namespace of its own (creating a table
    takes most of a second on a busy machine)."""
    forget_checked_tables()
    name = f"dds-workspace-test-{secrets.token_hex(4)}"
    open_table_workspace(endpoint, name, "local")
    yield name
    dynamodb_client(endpoint).delete_table(TableName=name)


@pytest.fixture
def open_table(endpoint: Endpoint, shared_table: str) -> Callable[..., TableWorkspace]:
    own = secrets.token_hex(16)

    def make(namespace: str | None = None, ttl_seconds: float | None = None) -> TableWorkspace:
        return open_table_workspace(endpoint, shared_table, namespace or own, ttl_seconds)

    return make


@pytest.fixture(params=["folder", "table"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> WorkspaceStore:
    if request.param == "folder":
        return Workspace(tmp_path / "drafts")
    return request.getfixturevalue("open_table")()


def test_both_implement_the_interface(store: WorkspaceStore) -> None:
    assert isinstance(store, WorkspaceStore)


def test_a_save_loads_back_byte_identical_with_the_same_version(store: WorkspaceStore) -> None:
    version = store.save("orders", DRAFT)
    draft = store.read("orders")
    assert document_bytes(draft.document) == document_bytes(DRAFT)
    # the version is the hash of the stored bytes, whichever store holds them
    assert version == draft.version == store.version("orders") == document_version(document_bytes(DRAFT))
    assert store.exists("orders")


def test_a_save_on_a_stale_version_is_refused_and_carries_the_other_side(store: WorkspaceStore) -> None:
    base = store.save("orders", DRAFT)
    theirs = {**DRAFT, "description": "their edit"}
    theirs_version = store.save("orders", theirs, expected_version=base)
    mine = {**DRAFT, "description": "my edit"}
    with pytest.raises(WorkspaceConflictError) as refused:
        store.save("orders", mine, expected_version=base)
    assert refused.value.found_version == theirs_version
    assert refused.value.theirs == theirs
    assert store.load("orders") == theirs  # nothing of theirs was lost
    # and mine is saved once the user chooses it over theirs, on the version the conflict named
    store.save("orders", mine, expected_version=refused.value.found_version)
    assert store.load("orders") == mine


def test_a_new_draft_never_replaces_an_existing_one(store: WorkspaceStore) -> None:
    store.save("orders", DRAFT)
    with pytest.raises(WorkspaceConflictError):
        store.save("orders", {**DRAFT, "name": "other"}, expected_version="")
    assert store.load("orders") == DRAFT
    assert store.create(DRAFT) == "caf-orders"
    assert store.create(DRAFT) == "caf-orders-2"


def test_concurrent_saves_from_one_version_let_exactly_one_through(store: WorkspaceStore) -> None:
    base = store.save("orders", DRAFT)
    outcomes: list[str] = []

    def save(number: int) -> None:
        try:
            store.save("orders", {**DRAFT, "name": f"writer {number}"}, expected_version=base)
            outcomes.append("saved")
        except WorkspaceConflictError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=save, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict"] * 5 + ["saved"]


def test_listing_is_most_recent_first_with_names(store: WorkspaceStore) -> None:
    assert store.drafts() == [] and store.most_recent() is None
    for name in ("First", "Second", "Third"):
        store.create({**DRAFT, "name": name})
    store.save("second", {**DRAFT, "name": "Second, edited"})
    assert [(d.slug, d.name) for d in store.drafts()] == [("second", "Second, edited"), ("third", "Third"),
                                                          ("first", "First")]
    assert store.most_recent() == "second"
    assert store.skipped() == []


def test_delete_removes_the_draft_only(store: WorkspaceStore) -> None:
    store.save("orders", DRAFT)
    store.save("kept", DRAFT)
    store.delete("orders")
    assert not store.exists("orders") and store.version("orders") is None
    assert [d.slug for d in store.drafts()] == ["kept"]
    with pytest.raises(WorkspaceError):
        store.read("orders")
    store.delete("orders")  # deleting what is gone is not an error


def test_copy_is_a_new_draft_with_the_new_name(store: WorkspaceStore) -> None:
    store.save("orders", DRAFT)
    slug = store.copy("orders", "Orders (their version)")
    assert slug == "orders-their-version"
    assert store.load(slug) == {**DRAFT, "name": "Orders (their version)"}
    assert store.load("orders") == DRAFT


def test_the_number_of_drafts_is_capped(store: WorkspaceStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_MAX_DRAFTS", "2")
    store.create(DRAFT)
    store.create(DRAFT)
    with pytest.raises(WorkspaceError, match="limit"):
        store.create(DRAFT)
    assert len(store.drafts()) == 2


def test_a_name_that_is_not_a_slug_is_refused(store: WorkspaceStore) -> None:
    with pytest.raises(WorkspaceError, match="lower-case"):
        store.save("../escape", DRAFT)
    assert not store.exists("../escape")


def test_a_damaged_draft_raises_on_read_and_is_left_as_it_is(store: WorkspaceStore) -> None:
    store.save("orders", DRAFT)
    if isinstance(store, Workspace):
        path = store.root / "orders.json"
        path.write_bytes(b"{not json")
        raw_before: Any = path.read_bytes()
    else:
        key = {"PK": {"S": partition_value(store.namespace)}, "SK": {"S": sort_value("orders")}}
        store.client.update_item(TableName=store.table, Key=key, UpdateExpression="SET document = :d",
                                 ExpressionAttributeValues={":d": {"B": b"not zlib"}})
        raw_before = store.client.get_item(TableName=store.table, Key=key)["Item"]
    with pytest.raises((ModelFileError, WorkspaceError)):
        store.read("orders")
    raw_after = (store.root / "orders.json").read_bytes() if isinstance(store, Workspace) else \
        store.client.get_item(TableName=store.table, Key=key)["Item"]
    assert raw_after == raw_before


def test_a_save_that_cannot_reach_the_store_is_a_workspace_error(tmp_path: Path, table_name: str) -> None:
    # folder: below a regular file (root ignores permission bits); table: an endpoint where nothing listens
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(WorkspaceError):
        Workspace(blocker / "drafts").save("orders", DRAFT)
    dead = Endpoint(EndpointKind.CUSTOM, "http://127.0.0.1:9", "us-east-1")
    space = TableWorkspace(dynamodb_client(dead), table_name, "local")
    with pytest.raises(WorkspaceError) as refused:
        space.save("orders", DRAFT)
    assert not isinstance(refused.value, WorkspaceConflictError)


# --- the table only --------------------------------------------------------------------------------


def test_a_model_over_the_400_kb_item_limit_is_refused_and_a_large_one_fits(
        open_table: Callable[..., TableWorkspace]) -> None:
    space = open_table()
    # 500,000 random hex digits do not compress below 4 bits a digit: 250,000 bytes, under 409,600
    # (400 KB, facts §6); 1,000,000 of them (500,000 bytes) cannot fit
    fits = {**DRAFT, "description": secrets.token_hex(250_000)}
    space.save("fits", fits)
    assert space.load("fits") == fits
    too_large = {**DRAFT, "description": secrets.token_hex(500_000)}
    with pytest.raises(WorkspaceError, match="409,600-byte item limit"):
        space.save("large", too_large)
    assert not space.exists("large")


def test_the_table_is_created_with_the_ownership_tags(endpoint: Endpoint, table_name: str) -> None:
    open_table_workspace(endpoint, table_name, "local")
    client = dynamodb_client(endpoint)
    arn = client.describe_table(TableName=table_name)["Table"]["TableArn"]
    tags = {t["Key"]: t["Value"] for t in client.list_tags_of_resource(ResourceArn=arn)["Tags"]}
    assert tags == {CREATOR_TAG: CREATOR, "dynamodb-design-studio:purpose": "workspace"}


@pytest.mark.parametrize("tags", [[], [{"Key": CREATOR_TAG, "Value": CREATOR}]], ids=["untagged", "not-a-workspace"])
def test_a_table_of_that_name_without_the_tags_is_never_written(endpoint: Endpoint, table_name: str,
                                                                tags: list[dict[str, str]]) -> None:
    client = dynamodb_client(endpoint)
    keys = [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}]
    client.create_table(TableName=table_name, KeySchema=keys, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK")],
                        **({"Tags": tags} if tags else {}))
    with pytest.raises(ForeignWorkspaceTableError, match="not created by DynamoDB Design Studio"):
        open_table_workspace(endpoint, table_name, "local")
    assert client.scan(TableName=table_name)["Count"] == 0


def _replace_table(client: Any, table: str, tags: list[dict[str, str]] | None) -> None:
    """Delete the table; create it again untagged (tags None: leave it gone), as someone else might."""
    client.delete_table(TableName=table)
    client.get_waiter("table_not_exists").wait(TableName=table, WaiterConfig={"Delay": 0.2, "MaxAttempts": 50})
    if tags is not None:
        keys = [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}]
        client.create_table(TableName=table, KeySchema=keys, BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK")],
                            **({"Tags": tags} if tags else {}))


def test_a_table_replaced_by_a_foreign_one_while_the_server_runs_is_never_written(endpoint: Endpoint,
                                                                                  table_name: str) -> None:
    """Issue 30.4: the ownership check ran once per process, so the next save went into the foreign table."""
    space = open_table_workspace(endpoint, table_name, "local")
    space.save("orders", DRAFT)
    client = dynamodb_client(endpoint)
    _replace_table(client, table_name, [])  # same name, same schema, no tags
    with pytest.raises(ForeignWorkspaceTableError, match="not created by DynamoDB Design Studio"):
        space.save("orders", {**DRAFT, "name": "second save"})
    with pytest.raises(ForeignWorkspaceTableError):
        space.delete("orders")
    with pytest.raises(ForeignWorkspaceTableError):  # a workspace opened again in the same process, too
        open_table_workspace(endpoint, table_name, "local").save("other", DRAFT)
    assert client.scan(TableName=table_name)["Count"] == 0


def test_a_workspace_table_deleted_while_the_server_runs_is_made_again_at_the_next_save(endpoint: Endpoint,
                                                                                       table_name: str) -> None:
    space = open_table_workspace(endpoint, table_name, "local")
    space.save("orders", DRAFT)
    assert [d.slug for d in space.drafts()] == ["orders"]  # listed (and the listing cached)
    client = dynamodb_client(endpoint)
    _replace_table(client, table_name, None)
    second = {**DRAFT, "name": "after the table went"}
    version = space.save("fresh", second)
    arn = client.describe_table(TableName=table_name)["Table"]["TableArn"]
    tags = {t["Key"]: t["Value"] for t in client.list_tags_of_resource(ResourceArn=arn)["Tags"]}
    assert tags == {CREATOR_TAG: CREATOR, "dynamodb-design-studio:purpose": "workspace"}
    assert space.read("fresh").version == version and space.load("fresh") == second
    # the listing is the new table's: the draft that went with the old table is not shown
    assert [d.slug for d in space.drafts()] == ["fresh"] and not space.exists("orders")


def test_an_unchanged_table_costs_one_describe_table_per_save(endpoint: Endpoint, table_name: str) -> None:
    space = open_table_workspace(endpoint, table_name, "local")
    asked: list[str] = []

    def record(model: Any, **_: Any) -> None:
        asked.append(model.name)

    space.client.meta.events.register("before-call.dynamodb.*", record)
    try:
        space.save("orders", DRAFT)
        space.save("orders", {**DRAFT, "name": "again"})
    finally:
        space.client.meta.events.unregister("before-call.dynamodb.*", record)
    assert asked == ["DescribeTable", "PutItem", "DescribeTable", "PutItem"]


def test_the_embedded_endpoint_is_refused_for_a_shared_workspace(table_name: str) -> None:
    with pytest.raises(WorkspaceError, match="outlives this process"):
        open_table_workspace(configured_endpoint({}), table_name, "local")


def test_namespaces_do_not_see_each_others_drafts(open_table: Callable[..., TableWorkspace]) -> None:
    mine, theirs = open_table(), open_table(secrets.token_hex(16))
    mine.save("orders", DRAFT)
    assert theirs.drafts() == [] and not theirs.exists("orders")
    theirs.save("orders", {**DRAFT, "name": "theirs"})
    assert mine.load("orders") == DRAFT


def test_a_workshop_draft_expires_after_the_session_ttl(open_table: Callable[..., TableWorkspace]) -> None:
    now = [1_000_000.0]
    opened = open_table()
    space = TableWorkspace(opened.client, opened.table, opened.namespace, ttl_seconds=3600, clock=lambda: now[0])
    space.save("orders", DRAFT)
    now[0] += 3599
    assert space.exists("orders")
    now[0] += 2  # past its TTL: DynamoDB deletes it within days, readers treat it as gone at once
    assert not space.exists("orders") and space.drafts() == []
    assert space.create(DRAFT) == "caf-orders"  # an expired draft's name is free again


def test_the_stored_document_is_the_folders_bytes_compressed(open_table: Callable[..., TableWorkspace]) -> None:
    space = open_table()
    space.save("orders", DRAFT)
    key = {"PK": {"S": f"WORKSPACE#SESSION#{space.namespace}"}, "SK": {"S": "MODEL#orders"}}
    item = space.client.get_item(TableName=space.table, Key=key)["Item"]
    assert zlib.decompress(item["document"]["B"]) == document_bytes(DRAFT)


def test_the_setting_names_a_table_or_a_folder() -> None:
    assert workspace_table_name({"DESIGN_STUDIO_WORKSPACE": "dynamodb://team-models"}) == "team-models"
    assert workspace_table_name({"DESIGN_STUDIO_WORKSPACE": str(Path.home())}) is None
    assert workspace_table_name({}) is None
    with pytest.raises(WorkspaceError, match="does not name a DynamoDB table"):
        workspace_table_name({"DESIGN_STUDIO_WORKSPACE": "dynamodb://a b"})
    assert os.environ.get("DESIGN_STUDIO_WORKSPACE")  # the suite's own folder, untouched


def test_a_page_runs_worth_of_version_checks_asks_the_index_once(open_table: Callable[..., TableWorkspace]) -> None:
    space = open_table()
    space.save("orders", DRAFT)
    asked: list[str] = []

    def record(model: Any, **_: Any) -> None:
        asked.append(model.name)

    space.client.meta.events.register("before-call.dynamodb.*", record)
    try:
        for _ in range(10):  # what one Model page run asks (22 queries a run before the listing was cached)
            assert space.exists("orders") and space.version("orders") and space.drafts()
    finally:
        space.client.meta.events.unregister("before-call.dynamodb.*", record)
    assert asked.count("Query") <= 1 and "GetItem" not in asked
    # this process's own save is in the listing at once, whatever the index's lag
    version = space.save("orders", {**DRAFT, "name": "renamed"})
    assert space.version("orders") == version and space.drafts()[0].name == "renamed"
