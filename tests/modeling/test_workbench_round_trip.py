"""NoSQL Workbench, issue 31 (4b, 6): the time-to-live attribute, an empty facet's aliases and inverted index,
Numbers holding hex text, ids that share a value in the sample data, and items compared in linear time.

Expectations come from the original JSON (`json.load`) or are written by hand, never from the importer's own
reading of the file.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import hcl2
import yaml

from modeling.errors import errors_only
from modeling.interop.infrastructure import IacFormat, infrastructure_code
from modeling.interop.nosql_workbench import export_workbench, import_workbench, read_workbench
from modeling.interop.nosql_workbench.document import iter_items
from modeling.model_file import document_problems, model_from_document

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "workbench-fidelity" / "ttl_inverted_empty_facet.json"


def _original() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _import(document: dict[str, Any]):
    return import_workbench(json.dumps(document).encode(), None, "model.json")


def test_the_time_to_live_attribute_is_the_models_and_the_iacs_and_is_exported_back() -> None:
    ttl = _original()["DataModel"][0]["TimeToLiveAttribute"]
    assert ttl == "purgeAfter"  # not one of the names the importer guesses a TTL from (ttl, expiresAt ...)
    model = _import(_original()).model
    assert model.table.ttl_attribute == ttl
    design = model.key_design
    properties = yaml.safe_load(infrastructure_code(model, design, IacFormat.CLOUDFORMATION).text)[
        "Resources"]["Table"]["Properties"]
    assert properties["TimeToLiveSpecification"] == {"AttributeName": ttl, "Enabled": True}
    block = hcl2.loads(infrastructure_code(model, design, IacFormat.TERRAFORM).text)[
        "resource"][0]['"aws_dynamodb_table"']['"table"']
    assert block["ttl"][0]["attribute_name"].strip('"') == ttl
    exported = export_workbench(model, items_per_entity=3)
    assert exported.document["DataModel"][0]["TimeToLiveAttribute"] == ttl
    assert not any("time to live" in note for note in exported.notes)
    assert _import(exported.document).model.table.ttl_attribute == ttl


def test_a_time_to_live_attribute_that_is_text_is_said_and_left_out() -> None:
    document = _original()
    table = document["DataModel"][0]
    table["TimeToLiveAttribute"] = "email"  # an S attribute: DynamoDB never expires an item on it
    result = _import(document)
    assert result.model.table.ttl_attribute is None
    assert any("time-to-live attribute `email` is S, not a Number" in note for note in result.inferred)
    table["TimeToLiveAttribute"] = {"AttributeName": "purgeAfter", "Enabled": False}
    assert _import(document).model.table.ttl_attribute is None


def test_an_empty_facet_takes_its_keys_from_its_aliases_and_is_in_the_inverted_index() -> None:
    table = _original()["DataModel"][0]
    session = next(f for f in table["TableFacets"] if f["FacetName"] == "Session")
    assert "TableData" not in session and session["KeyAttributeAlias"] == {
        "PartitionKeyAlias": "USER#userId", "SortKeyAlias": "SESSION#sessionId"}
    inverted = next(i for i in table["GlobalSecondaryIndexes"] if i["IndexName"] == "Inverted")["KeyAttributes"]
    assert (inverted["PartitionKey"]["AttributeName"], inverted["SortKey"]["AttributeName"]) == ("SK", "PK")
    model = _import(_original()).model
    keys = next(k for k in model.key_design.entities if k.entity == "Session")
    assert (keys.table.partition_key, keys.table.sort_key) == ("USER#{userId}", "SESSION#{sessionId}")
    # the inverted index holds SK's value as its partition key: the same template, swapped
    assert (keys.indexes["Inverted"].partition_key, keys.indexes["Inverted"].sort_key) == \
        ("SESSION#{sessionId}", "USER#{userId}")
    assert model.entity("Session").identifiers == ("userId", "sessionId")


def test_a_number_attribute_whose_generator_makes_hex_text_does_not_validate() -> None:
    document = {"format": "dynamodb-design-studio/model", "version": 1, "name": "Hex", "table": {"name": "Hex"},
                "entities": [{"name": "Paint", "item_count": 10, "identifiers": ["id"], "attributes": [
                    {"name": "id"}, {"name": "colour", "type": "N",
                                     "generator": {"kind": "enum", "values": ["ff00aa", "00ffcc"]}}]}]}
    problems = errors_only(document_problems(document))
    assert [p.path for p in problems] == ["entities[Paint].attributes[colour].type"]
    assert "ff00aa" in problems[0].message and "make the attribute S" in problems[0].suggestion
    numbers = copy.deepcopy(document)
    numbers["entities"][0]["attributes"][1]["generator"]["values"] = ["12", "-1.5E3"]
    assert errors_only(document_problems(numbers)) == []


WAREHOUSES = {
    "format": "dynamodb-design-studio/model", "version": 1, "name": "Warehouses", "table": {"name": "Orders"},
    "entities": [
        {"name": "Warehouse", "item_count": 10, "identifiers": ["warehouseId"], "attributes": [
            {"name": "warehouseId", "generator": {"kind": "sequence", "start": 100}}, {"name": "city"}]},
        {"name": "Order", "item_count": 1000, "identifiers": ["orderId"], "attributes": [
            {"name": "orderId", "generator": {"kind": "sequence", "start": 100}},
            {"name": "warehouseId", "generator": {"kind": "reference", "entity": "Warehouse",
                                                  "attribute": "warehouseId"}}]}],
    "key_design": {
        "partition_key": {"name": "PK"}, "sort_key": {"name": "SK"},
        "global_secondary_indexes": [{"name": "GSI1", "partition_key": {"name": "GSI1PK"},
                                      "sort_key": {"name": "GSI1SK"}}],
        "entities": [
            {"entity": "Warehouse", "table": {"partition_key": "WAREHOUSE#{warehouseId}", "sort_key": "WAREHOUSE"}},
            {"entity": "Order", "table": {"partition_key": "ORDER#{orderId}", "sort_key": "ORDER"},
             "indexes": {"GSI1": {"partition_key": "WAREHOUSE#{warehouseId}", "sort_key": "ORDER#{orderId}"}}}]},
}


def test_a_round_trip_keeps_a_gsi_on_the_warehouse_when_the_order_has_the_same_id() -> None:
    exported = export_workbench(model_from_document(copy.deepcopy(WAREHOUSES)), items_per_entity=1).document
    order = next(f for f in exported["DataModel"][0]["TableFacets"] if f["FacetName"] == "Order")["TableData"][0]
    # the coincidence that re-keyed the index: order 100 of warehouse 100
    assert order["orderId"] == order["warehouseId"] == {"S": "100"} and order["GSI1PK"] == {"S": "WAREHOUSE#100"}
    keys = {k.entity: k for k in _import(exported).model.key_design.entities}
    assert (keys["Order"].indexes["GSI1"].partition_key, keys["Order"].indexes["GSI1"].sort_key) == \
        ("WAREHOUSE#{warehouseId}", "ORDER#{orderId}")
    assert (keys["Order"].table.partition_key, keys["Order"].table.sort_key) == ("ORDER#{orderId}", "ORDER")


def test_an_item_in_two_facets_with_its_attributes_in_another_order_is_one_item() -> None:
    document = _original()
    facets = document["DataModel"][0]["TableFacets"]
    first = facets[0]["TableData"][0]
    facets[1]["TableData"] = [dict(reversed(list(first.items())))]  # the same item, keys in another order
    table = read_workbench(json.dumps(document).encode()).tables[0]
    assert len(list(iter_items(table))) == 2  # the two users of the User facet; the copy is not a third
    assert len(table.all_items()) == 2
