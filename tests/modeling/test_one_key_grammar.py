"""One key grammar (modeling.design.keys) for both importers: the same key values, read from a NoSQL Workbench
file and from a real table on the embedded moto server (over HTTP) holding that file's items, give the
same key templates."""

from __future__ import annotations

import uuid

import pytest

from modeling.endpoint.adapter import Endpoint, dynamodb_client
from modeling.interop.live_import import ImportRequest, import_live_table
from modeling.interop.nosql_workbench import import_workbench, read_workbench
from modeling.interop.nosql_workbench.document import Table, iter_items
from tests.fixture_files import workbench_file

# Tables whose templates both importers infer from the key values alone (no facet aliases, type
# attributes or naming hints that only a Workbench file has).
SAME_VALUES = [("SocialNetworkSchema.json", "SNS"), ("BankModel.json", "PaymentScheduler"),
               ("BankModel.json", "TransactionHistory"), ("RecurringPaymentsSchema.json", "ReoccuringPayments")]


def _table_holding(endpoint: Endpoint, made: list[str], table: Table) -> str:
    """A table with the Workbench table's keys, holding every item of the file (as DynamoDB JSON)."""
    client = dynamodb_client(endpoint)
    keys = [table.partition_key, *([table.sort_key] if table.sort_key else [])]
    name = f"grammar-{uuid.uuid4().hex[:10]}"
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": k.name, "KeyType": kind} for k, kind in zip(
                            keys, ("HASH", "RANGE"), strict=False)],
                        AttributeDefinitions=[{"AttributeName": k.name, "AttributeType": k.type} for k in keys])
    made.append(name)
    for _, item in iter_items(table):
        client.put_item(TableName=name, Item=item)
    return name


def _table_templates(entities: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    return sorted(entities, key=lambda pair: (pair[0], pair[1] or ""))


@pytest.mark.parametrize("file_name, table_name", SAME_VALUES)
def test_both_importers_read_the_same_templates_from_the_same_key_values(
        endpoint: Endpoint, made_tables: list[str], file_name: str, table_name: str) -> None:
    data = workbench_file(file_name).read_bytes()
    table = read_workbench(data, file_name).table(table_name)
    from_file = import_workbench(data, table_name).model.key_design.entities
    live = import_live_table(endpoint, ImportRequest(_table_holding(endpoint, made_tables, table)))
    from_table = live.document["key_design"]["entities"]
    assert _table_templates([(k["table"]["partition_key"], k["table"].get("sort_key")) for k in from_table]) == \
        _table_templates([(k.table.partition_key, k.table.sort_key) for k in from_file])


def test_lower_case_labels_are_labels_for_both(endpoint: Endpoint, made_tables: list[str]) -> None:
    """The AWS social-network sample labels with `u`, `p`, `follower`...: written out by hand from the
    file's key values (PK `u#12345#follower` / SK `u#23456` is a follower collection, and so on).
    The live import used to read these labels as values, and every item collection as one entity."""
    data = workbench_file("SocialNetworkSchema.json").read_bytes()
    live = import_live_table(endpoint, ImportRequest(_table_holding(
        endpoint, made_tables, read_workbench(data).table("SNS"))))
    entities = live.document["key_design"]["entities"]
    templates = {(k["table"]["partition_key"], k["table"].get("sort_key")) for k in entities}
    assert templates == {
        ("u#{uId}", '"count"'), ("u#{uId}", '"info"'), ("u#{uId}#follower", "u#{uId2}"),
        ("u#{uId}#following", "u#{uId2}"), ("u#{uId}#post", "p#{pId}"), ("u#{uId}#timeline", "p#{pId}#u#{uId2}"),
        ("p#{pId}#likelist", "u#{uId}"), ("p#{pId}#likecount", '"count"')}
