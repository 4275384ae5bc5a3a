"""Import from a live table, against the embedded endpoint over HTTP with tables these tests create:
entities and key templates recovered from loaded sample items, a Scan that stays within its bounds,
only read requests, and typed errors for a missing table, a dead endpoint and a refused request."""

from __future__ import annotations

import contextlib
import socket
import time
import uuid
from decimal import Decimal

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber
from moto.server import ThreadedMotoServer

from modeling.data.sample_data import generate_items, item_keys
from modeling.design.generator import rule_based_designs
from modeling.endpoint.adapter import Endpoint, EndpointKind, dynamodb_client
from modeling.errors import EndpointError, Severity
from modeling.examples import load_example
from modeling.interop.infrastructure import create_table_input
from modeling.interop.live_import import (
    READ_ONLY_OPERATIONS,
    ImportRequest,
    TableNotFoundError,
    import_live_table,
    list_table_names,
)
from modeling.model import BillingMode, Model
from modeling.model_file import document_problems, model_from_document


def _table_like(endpoint: Endpoint, made: list[str], model: Model) -> tuple[str, object]:
    """An on-demand table with the example's first design, and a boto3 Table to load items into."""
    design = rule_based_designs(model)[0].key_design
    on_demand = model.model_copy(update={"table": model.table.model_copy(update={
        "billing_mode": BillingMode.PAY_PER_REQUEST, "deletion_protection": False})})
    name = f"import-{uuid.uuid4().hex[:10]}"
    dynamodb_client(endpoint).create_table(**{**create_table_input(on_demand, design), "TableName": name})
    made.append(name)
    resource = boto3.resource("dynamodb", endpoint_url=endpoint.url, region_name=endpoint.region,
                              aws_access_key_id="test", aws_secret_access_key="test")
    return name, resource.Table(name)


def _load_example_items(table: object, model: Model, per_entity: int) -> None:
    design = rule_based_designs(model)[0].key_design
    with table.batch_writer() as writer:
        for entity, items in generate_items(model, per_entity).items():
            for item in items:
                writer.put_item(Item={**item, **item_keys(design, entity, item)})


def _templates(keys: list[dict]) -> set[tuple]:
    """Each entity's key templates, without its name: (table templates, {index: templates})."""
    return {(tuple(sorted(k["table"].items())),
             tuple(sorted((i, tuple(sorted(t.items()))) for i, t in k.get("indexes", {}).items())))
            for k in keys}


@pytest.mark.parametrize("slug, entities", [
    ("crm_single_table", {"Salesperson", "Customer", "Contact", "Ticket"}),
    ("student_platform", {"Tenant", "Student", "XpTransfer"}),
    ("ecommerce_orders", {"Customer", "Order", "OrderItem", "Product"}),
])
def test_import_recovers_the_entities_and_key_templates_that_were_loaded(
        endpoint: Endpoint, made_tables: list[str], slug: str, entities: set[str]) -> None:
    model = load_example(slug)
    name, table = _table_like(endpoint, made_tables, model)
    _load_example_items(table, model, 10)
    result = import_live_table(endpoint, ImportRequest(name))
    design = result.document["key_design"]
    assert {e["name"] for e in result.document["entities"]} == entities
    original = [k.model_dump(mode="json", exclude_defaults=True)
                for k in rule_based_designs(model)[0].key_design.entities]
    assert _templates(design["entities"]) == _templates(original)
    assert design["global_secondary_indexes"] == [i.model_dump(mode="json", exclude_defaults=True) for i in
                                                  rule_based_designs(model)[0].key_design.global_secondary_indexes]
    problems = document_problems(result.document)
    assert [p.path for p in problems] == ["access_patterns"] and problems[0].severity is Severity.WARNING


def test_the_imported_model_generates_items_whose_keys_look_like_the_table(
        endpoint: Endpoint, made_tables: list[str]) -> None:
    model = load_example("crm_single_table")
    name, table = _table_like(endpoint, made_tables, model)
    _load_example_items(table, model, 10)
    imported = model_from_document(import_live_table(endpoint, ImportRequest(name)).document)
    design = rule_based_designs(imported)[0]
    assert design.name == "Your design" and design.plans == ()
    customer = imported.entity("Customer")
    assert customer.attribute("salespersonId").generator.kind == "reference"
    assert customer.attribute("customerId").generator.model_dump() == {"kind": "uuid", "prefix": "cus_"}
    assert imported.entity("Ticket").attribute("ticketId").generator.model_dump(exclude_defaults=True) == {
        "kind": "sequence", "width": 7, "prefix": "T-"}
    regenerated = generate_items(imported, 3)
    keys = item_keys(design.key_design, "Ticket", regenerated["Ticket"][0])
    assert keys["PK"].startswith("CUSTOMER#cus_") and keys["SK"].startswith("TICKET#T-")
    assert keys["GSI1PK"].startswith("SALESPERSON#") and keys["GSI1SK"].startswith("TICKET#")


def _recorded_calls(client: object) -> list[tuple[str, dict]]:
    calls: list[tuple[str, dict]] = []
    client.meta.events.register("provide-client-params.dynamodb.*",
                                lambda params, model, **_: calls.append((model.name, dict(params))))
    return calls


def test_a_table_larger_than_the_limit_is_sampled_quickly_with_read_requests_only(
        endpoint: Endpoint, made_tables: list[str]) -> None:
    name, table = _table_like(endpoint, made_tables, load_example("chat_messages"))
    with table.batch_writer() as writer:
        for n in range(1500):
            writer.put_item(Item={"PK": f"ROOM#r{n % 30}", "SK": f"MESSAGE#{n:05d}", "body": "hello",
                                  "roomId": f"r{n % 30}", "seq": Decimal(n)})
    client = dynamodb_client(endpoint)
    calls = _recorded_calls(client)
    started = time.monotonic()
    result = import_live_table(endpoint, ImportRequest(name, sample_items=120), client)
    assert time.monotonic() - started < 5
    assert result.items_read == 120 and result.pages_read == 1 and result.table_item_count == 1500
    assert {operation for operation, _ in calls} <= READ_ONLY_OPERATIONS
    scans = [params for operation, params in calls if operation == "Scan"]
    assert sum(p["Limit"] for p in scans) <= 120
    assert result.document["entities"][0]["item_count"] == 1500  # scaled from the sample to ItemCount


def test_the_page_bound_stops_the_scan_before_the_item_bound(endpoint: Endpoint, made_tables: list[str]) -> None:
    """Items of ~2 KB: a 1 MB Scan page holds about 500, so one page cannot reach 1,000 items."""
    name, table = _table_like(endpoint, made_tables, load_example("chat_messages"))
    with table.batch_writer() as writer:
        for n in range(1000):
            writer.put_item(Item={"PK": f"ROOM#r{n}", "SK": "ROOM", "roomId": f"r{n}", "blob": "x" * 2000})
    result = import_live_table(endpoint, ImportRequest(name, sample_items=1000, max_pages=1))
    assert result.pages_read == 1 and 0 < result.items_read < 1000


def test_table_settings_come_from_the_description(endpoint: Endpoint, made_tables: list[str]) -> None:
    client = dynamodb_client(endpoint)
    name = f"import-{uuid.uuid4().hex[:10]}"
    client.create_table(TableName=name, BillingMode="PROVISIONED",
                        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "N"}],
                        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    made_tables.append(name)
    client.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    client.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={
        "PointInTimeRecoveryEnabled": True})
    client.put_item(TableName=name, Item={"id": {"N": "1"}, "ttl": {"N": "1900000000"}, "ok": {"BOOL": True}})
    client.put_item(TableName=name, Item={"id": {"N": "2"}, "ttl": {"N": "1900003600"}, "ok": {"BOOL": False}})
    document = import_live_table(endpoint, ImportRequest(name)).document
    assert document["table"] == {"name": name, "region": "us-east-1", "billing_mode": "PROVISIONED",
                                 "point_in_time_recovery": True, "stream_view_type": "NEW_IMAGE",
                                 "ttl_attribute": "ttl"}
    assert document["key_design"]["partition_key"] == {"name": "id", "type": "N"}
    assert document["key_design"]["sort_key"] is None
    entity = document["entities"][0]
    assert entity["name"] == entity_name_of_table(name) and entity["identifiers"] == ["id"]
    ttl = next(a for a in entity["attributes"] if a["name"] == "ttl")
    assert ttl["generator"]["format"] == "epoch_seconds"
    assert not [p for p in document_problems(document) if p.severity is Severity.ERROR]


def entity_name_of_table(name: str) -> str:
    from modeling.interop.live_inference import entity_name

    return entity_name(name)


def _pk_sk_table(endpoint: Endpoint, made: list[str]) -> tuple[str, object]:
    """A table keyed PK / SK: the CRM's first design overloads them (chat messages' is one item collection, keyed on
    its plain `roomId`)."""
    return _table_like(endpoint, made, load_example("crm_single_table"))


def test_values_only_inside_the_key_become_attributes(endpoint: Endpoint, made_tables: list[str]) -> None:
    name, table = _pk_sk_table(endpoint, made_tables)
    for n in range(3):
        table.put_item(Item={"PK": f"CUSTOMER#c-{n}", "SK": "PROFILE", "name": f"n{n}"})
    result = import_live_table(endpoint, ImportRequest(name))
    keys = result.document["key_design"]["entities"][0]
    assert keys["table"] == {"partition_key": "CUSTOMER#{customerId}", "sort_key": "PROFILE"}
    assert any("customerId" in note and "only inside the key" in note for note in result.inferred)
    assert not [p for p in document_problems(result.document) if p.severity is Severity.ERROR]


# --- errors ----------------------------------------------------------------------------------------------


def test_a_missing_table_is_a_typed_error_naming_the_tables_there(endpoint: Endpoint,
                                                                  made_tables: list[str]) -> None:
    name, _ = _table_like(endpoint, made_tables, load_example("chat_messages"))
    typo = name[:-1]  # the closest name is offered first, however many tables other tests left on the endpoint
    with pytest.raises(TableNotFoundError) as caught:
        import_live_table(endpoint, ImportRequest(typo))
    assert repr(typo) in str(caught.value) and f"did you mean {name!r}?" in str(caught.value)
    assert name in list_table_names(endpoint)


def test_an_endpoint_that_does_not_answer_is_reported_quickly() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(EndpointError, match="does not answer"):
        import_live_table(Endpoint(EndpointKind.CUSTOM, f"http://127.0.0.1:{port}", "us-east-1"),
                          ImportRequest("orders"))
    assert time.monotonic() - started < 10


def test_access_denied_names_the_permissions_the_import_needs(endpoint: Endpoint) -> None:
    """moto does not enforce IAM, so the refusal is stubbed on a real client (botocore's Stubber)."""
    client = dynamodb_client(endpoint)
    with Stubber(client) as stubber:
        stubber.add_client_error("describe_table", "AccessDeniedException", "User is not authorized")
        with pytest.raises(EndpointError, match="dynamodb:DescribeTable and dynamodb:Scan"):
            import_live_table(endpoint, ImportRequest("orders"), client)


@pytest.mark.parametrize("request_args", [{"table_name": "t", "sample_items": 0},
                                          {"table_name": "t", "sample_items": 10**6},
                                          {"table_name": " "}])
def test_import_requests_out_of_range_are_refused(request_args: dict) -> None:
    with pytest.raises(EndpointError):
        ImportRequest(**request_args)


def test_lsi_and_sparse_gsi_templates_are_inferred(endpoint: Endpoint, made_tables: list[str]) -> None:
    client = dynamodb_client(endpoint)
    name = f"import-{uuid.uuid4().hex[:10]}"
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK", "LSI1SK", "GSI1PK")],
        LocalSecondaryIndexes=[{"IndexName": "LSI1", "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                                                                   {"AttributeName": "LSI1SK", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        GlobalSecondaryIndexes=[{"IndexName": "Unpaid", "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["total"]}}])
    made_tables.append(name)
    for n in range(6):
        item = {"PK": {"S": f"CUSTOMER#c{n % 2}"}, "SK": {"S": f"ORDER#o{n}"}, "orderId": {"S": f"o{n}"},
                "customerId": {"S": f"c{n % 2}"}, "placedAt": {"S": f"2026-01-0{n + 1}"},
                "LSI1SK": {"S": f"PLACED#2026-01-0{n + 1}"}, "status": {"S": "UNPAID" if n < 2 else "PAID"}}
        if n < 2:
            item["GSI1PK"] = {"S": "UNPAID"}
        client.put_item(TableName=name, Item=item)
    result = import_live_table(endpoint, ImportRequest(name))
    keys = result.document["key_design"]["entities"][0]
    assert keys["indexes"]["LSI1"] == {"partition_key": "CUSTOMER#{customerId}", "sort_key": "PLACED#{placedAt}"}
    assert keys["indexes"]["Unpaid"] == {"partition_key": "UNPAID",
                                         "only_when": [{"attribute": "status", "equals": "UNPAID"}]}
    assert any("2 of 6 sampled items have GSI1PK" in note and "status = UNPAID" in note for note in result.inferred)
    assert result.document["key_design"]["local_secondary_indexes"][0]["projection"] == {"type": "KEYS_ONLY"}
    assert not [p for p in document_problems(result.document) if p.severity is Severity.ERROR]


def test_binary_attributes_are_imported_with_their_sizes(endpoint: Endpoint, made_tables: list[str]) -> None:
    """Issue 30.6: a table holding Binary (B) and Binary set (BS) values raised TypeError in the import."""
    name, table = _pk_sk_table(endpoint, made_tables)
    for n in range(3):
        table.put_item(Item={"PK": f"CUSTOMER#c-{n}", "SK": "PROFILE", "avatar": bytes(range(n + 4)),
                             "thumbs": {b"\x00\x01", b"\xff" * (n + 1)}})
    result = import_live_table(endpoint, ImportRequest(name))
    attributes = {a["name"]: a for a in result.document["entities"][0]["attributes"]}
    assert attributes["avatar"]["type"] == "B" and attributes["thumbs"]["type"] == "BS"
    # B: the raw bytes (4, 5, 6 bytes: mean 5, max 6); BS: the sum of its members' bytes (2+1, 2+2, 2+3)
    assert (attributes["avatar"]["avg_size_bytes"], attributes["avatar"]["max_size_bytes"]) == (5, 6)
    assert (attributes["thumbs"]["avg_size_bytes"], attributes["thumbs"]["max_size_bytes"]) == (4, 5)
    assert not [p for p in document_problems(result.document) if p.severity is Severity.ERROR]


def test_every_table_is_listed_not_only_the_first_hundred() -> None:
    """ListTables answers 100 names a call: the Import tab listed one call's worth, so a table after the hundredth
    in name order was missing from its picker, which then imported the first table instead. A moto server of
    this test's own is given 150 more tables."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = Endpoint(EndpointKind.CUSTOM, f"http://127.0.0.1:{port}", "us-east-1")
    client = dynamodb_client(endpoint)
    made = [f"listing-test-{n:03d}" for n in range(150)]
    try:
        for name in made:
            client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                                AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])
        # moto keeps one backend per process: tables other tests made in this process are listed too
        assert set(made) <= set(list_table_names(endpoint))
        assert len(list_table_names(endpoint, max_pages=1)) == 100  # one page is what the tab listed before
    finally:
        for name in made:  # the backend outlives the server: leave the process's other tests as they were
            with contextlib.suppress(ClientError):
                client.delete_table(TableName=name)
        server.stop()
