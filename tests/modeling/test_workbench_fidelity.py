"""NoSQL Workbench fidelity (issue 19.1): the model, the IaC and the export against the original file.

Each fixture in tests/fixtures/workbench-fidelity/ shows one shape in a few items. The expectations are read
from the original JSON with `json.load` (key names, declared attributes, items), never from the importer's
own reading of the file.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import hcl2
import pytest
import yaml

from modeling.__main__ import main
from modeling.design.keys import KeyTemplate, render_key
from modeling.endpoint.adapter import configured_endpoint, dynamodb_client
from modeling.errors import errors_only
from modeling.interop.iac_request import create_table_input
from modeling.interop.infrastructure import IacFormat, infrastructure_code
from modeling.interop.nosql_workbench import WorkbenchImport, export_workbench, import_workbench
from modeling.model import Attribute, AttributeType, IntRangeGenerator, Model
from modeling.model_file import document_problems, model_to_document
from tests.cli_runner import run_main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "workbench-fidelity"


def _original(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _imported(name: str, table: str | None = None) -> WorkbenchImport:
    return import_workbench((FIXTURES / name).read_bytes(), table, name)


def _key_names(keys: dict[str, Any]) -> list[str]:
    return [keys[k]["AttributeName"] for k in ("PartitionKey", "SortKey") if k in keys]


def _all_items(table: dict[str, Any]) -> list[dict[str, Any]]:
    return [*table.get("TableData", []), *(i for f in table.get("TableFacets", []) for i in f.get("TableData", []))]


# --- 1. `#` in attribute names -------------------------------------------------------------------------------


def test_hash_in_key_attribute_names_is_kept_in_the_model_every_iac_format_and_the_export() -> None:
    table = _original("hash_names.json")["DataModel"][0]
    table_keys = _key_names(table["KeyAttributes"])
    index_keys = {i["IndexName"]: _key_names(i["KeyAttributes"]) for i in table["GlobalSecondaryIndexes"]}
    assert table_keys == ["CustomerID", "State#Date"] and index_keys == {"ByDevice": ["device#detail", "State#Date"]}
    model = _imported("hash_names.json").model
    design = model.key_design
    assert [k.name for k in (design.partition_key, design.sort_key) if k] == table_keys
    assert {i.name: [k.name for k in (i.partition_key, i.sort_key) if k]
            for i in design.global_secondary_indexes} == index_keys
    defined = sorted({*table_keys, *index_keys["ByDevice"]})

    request = json.loads(infrastructure_code(model, design, IacFormat.CLI_JSON).text)
    assert sorted(a["AttributeName"] for a in request["AttributeDefinitions"]) == defined
    assert [k["AttributeName"] for k in request["KeySchema"]] == table_keys
    assert [k["AttributeName"] for k in request["GlobalSecondaryIndexes"][0]["KeySchema"]] == index_keys["ByDevice"]

    resource = yaml.safe_load(infrastructure_code(model, design, IacFormat.CLOUDFORMATION).text)
    properties = resource["Resources"]["Table"]["Properties"]
    assert sorted(a["AttributeName"] for a in properties["AttributeDefinitions"]) == defined
    assert [k["AttributeName"] for k in properties["KeySchema"]] == table_keys

    terraform = hcl2.loads(infrastructure_code(model, design, IacFormat.TERRAFORM).text)
    block = terraform["resource"][0]['"aws_dynamodb_table"']['"table"']
    assert sorted(a["name"].strip('"') for a in block["attribute"]) == defined
    assert [block["hash_key"].strip('"'), block["range_key"].strip('"')] == table_keys
    index = block["global_secondary_index"][0]
    assert [index["hash_key"].strip('"'), index["range_key"].strip('"')] == index_keys["ByDevice"]

    exported = export_workbench(model, items_per_entity=5).document["DataModel"][0]
    assert _key_names(exported["KeyAttributes"]) == table_keys
    assert _key_names(exported["GlobalSecondaryIndexes"][0]["KeyAttributes"]) == index_keys["ByDevice"]
    assert all({"CustomerID", "State#Date", "device#detail"} <= set(i) for i in _all_items(exported))


def test_a_table_made_from_the_create_table_request_takes_every_original_item_into_its_gsi() -> None:
    original = _original("hash_names.json")["DataModel"][0]
    items = _all_items(original)
    model = _imported("hash_names.json").model
    request = {**create_table_input(model, model.key_design), "TableName": f"nwb-hash-{uuid.uuid4().hex[:10]}"}
    client = dynamodb_client(configured_endpoint({}))  # the embedded moto server, over HTTP
    client.create_table(**request)
    try:
        for item in items:  # the file's own DynamoDB JSON, as NoSQL Workbench would commit it
            client.put_item(TableName=request["TableName"], Item=item)
        for item in _all_items(export_workbench(model, items_per_entity=5).document["DataModel"][0]):
            client.put_item(TableName=request["TableName"], Item=item)
        # 5 original items + 5 exported ones, all distinct keys (the exported keys are rendered from new values)
        table_count = client.scan(TableName=request["TableName"], Select="COUNT")["Count"]
        index_count = client.scan(TableName=request["TableName"], IndexName="ByDevice", Select="COUNT")["Count"]
        reached = client.query(TableName=request["TableName"], IndexName="ByDevice",
                               KeyConditionExpression="#d = :d", ExpressionAttributeNames={"#d": "device#detail"},
                               ExpressionAttributeValues={":d": {"S": "phone#fw1"}})["Items"]
    finally:
        client.update_table(TableName=request["TableName"], DeletionProtectionEnabled=False)
        client.delete_table(TableName=request["TableName"])
    assert table_count == len(items) + 5 == 10
    assert index_count == table_count  # every item has both GSI keys, so every item reaches the index
    assert [i["CustomerID"]["S"] for i in reached] == ["c-001"]  # the one original item with device#detail phone#fw1


def test_the_model_validator_and_the_key_grammar_accept_hash_in_attribute_names() -> None:
    model = _imported("hash_names.json").model
    assert errors_only(document_problems(model_to_document(model))) == []
    assert KeyTemplate.parse("S#{State#Date}#{n:3}").attribute_names == ("State#Date", "n")
    assert render_key(KeyTemplate.parse("X#{device#detail}"), {"device#detail": "phone"}) == "X#phone"
    document = model_to_document(model)
    document["entities"][0]["attributes"][0]["name"] = "has space"  # `{has space}` would read as a typo
    problems = errors_only(document_problems(document))
    assert problems and "spaces, { } :" in problems[0].suggestion


# --- 2. declared attributes no item carries -----------------------------------------------------------------


@pytest.mark.parametrize("table", ["Devices", "Shop"])
def test_declared_attributes_no_item_carries_are_kept_or_named_in_the_notes(table: str) -> None:
    original = next(t for t in _original("declared_attributes.json")["DataModel"] if t["TableName"] == table)
    carried = {name for item in _all_items(original) for name in item}
    unused = {a["AttributeName"]: a["AttributeType"] for a in original["NonKeyAttributes"]
              if a["AttributeName"] not in carried}
    assert unused  # the fixture has the shape
    result = _imported("declared_attributes.json", table)
    attributes = {a.name: a for e in result.model.entities for a in e.attributes}
    notes = "\n".join(result.inferred)
    for name, kind in unused.items():
        if name in attributes:
            assert attributes[name].type.value == kind and not attributes[name].required
        else:
            assert f"`{name}`" in notes and "declared on the table but in no item" in notes
    if len(result.model.entities) == 1:  # one entity: nothing to guess, they are kept on it
        assert set(unused) <= set(attributes)


# --- 3. export: distinct primary keys, unique attributes unique, the count said is the count written ----------


def _primary_keys(document: dict[str, Any]) -> list[tuple[str, ...]]:
    table = document["DataModel"][0]
    names = _key_names(table["KeyAttributes"])
    return [tuple(json.dumps(item[n], sort_keys=True) for n in names) for item in _all_items(table)]


@pytest.mark.parametrize("items", [20, 25])
def test_exported_items_have_distinct_primary_keys_and_unique_numbers(items: int) -> None:
    model = _imported("hash_names.json").model  # identifiers CustomerID, State, Date: few values each
    entity = model.entities[0]
    serial = Attribute(name="serial", type=AttributeType.N, unique=True,
                       generator=IntRangeGenerator(kind="int_range", min=1, max=3))  # 3 values for 20+ items
    model = model.model_copy(update={"entities": (entity.model_copy(
        update={"attributes": (*entity.attributes, serial)}),)})
    Model.model_validate(model_to_document(model))
    exported = export_workbench(model, items_per_entity=items)
    keys = _primary_keys(exported.document)
    assert len(keys) == len(set(keys)) == items  # the identifiers are made distinct, so nothing is left out
    serials = [i["serial"]["N"] for i in _all_items(exported.document["DataModel"][0])]
    assert len(set(serials)) == len(serials) == items
    assert exported.item_count == items


def test_identifiers_seen_with_one_value_still_give_distinct_exported_keys() -> None:
    table = _original("one_item_facets.json")["DataModel"][0]
    partitions = {i["PK"]["S"] for i in _all_items(table)}
    assert partitions == {"P-1"}  # one patient, so every id was seen with one value only
    exported = export_workbench(_imported("one_item_facets.json").model, items_per_entity=20)
    keys = _primary_keys(exported.document)
    assert len(keys) == len(set(keys)) == 2 * 20 == exported.item_count
    assert not exported.notes or not any("sample items had the primary key" in n for n in exported.notes)


def test_an_entity_whose_keys_are_constant_is_written_once_and_the_notes_say_so() -> None:
    model = _imported("hash_names.json").model
    keys = model.key_design.entities[0]
    one = {"sort_key": "ONE"}  # the table's sort key attribute is also ByDevice's: one template for both
    constant = keys.model_copy(update={"table": keys.table.model_copy(update={"partition_key": "CART", **one}),
                                       "indexes": {"ByDevice": keys.indexes["ByDevice"].model_copy(update=one)}})
    model = model.model_copy(update={"key_design": model.key_design.model_copy(update={"entities": (constant,)})})
    exported = export_workbench(model, items_per_entity=4)
    assert len(_primary_keys(exported.document)) == 1 == exported.item_count
    assert any("3 of 4 sample items had the primary key" in n for n in exported.notes)


def test_the_cli_says_the_number_of_items_it_wrote(tmp_path: Path) -> None:
    model_file, output = tmp_path / "carts.yaml", tmp_path / "carts.json"
    assert run_main(main, ["import-workbench", FIXTURES / "hash_names.json", "-o", model_file]).returncode == 0
    result = run_main(main, ["export-workbench", model_file, "-o", output, "--items", "20"])
    assert result.returncode == 0, result.stderr
    written = _all_items(json.loads(output.read_text(encoding="utf-8"))["DataModel"][0])
    keys = _primary_keys(json.loads(output.read_text(encoding="utf-8")))
    assert len(written) == len(set(keys)) == 20
    assert f"{len(written)} sample items for 1 entities" in result.stderr


# --- 4. letters-only key values -----------------------------------------------------------------------------


def _fits(template: str, value: str) -> bool:
    """Whether some values of the template's attributes render exactly `value` (constant text must match)."""
    parsed = KeyTemplate.parse(template)
    constants = [s.text for s in parsed.segments if not s.is_attribute]
    position = 0
    for text in constants:
        found = value.find(text, position)
        if found == -1:
            return False
        position = found + len(text)
    return value.startswith(parsed.segments[0].text) if not parsed.segments[0].is_attribute else True


def test_a_facets_varying_letters_only_values_become_an_attribute_and_a_shared_one_a_label() -> None:
    table = _original("letter_labels.json")["DataModel"][0]
    facet = next(f for f in table["TableFacets"] if f["FacetName"] == "Group")
    values = [i["PK"]["S"] for i in facet["TableData"]]
    assert len(set(values)) == len(values) == 5 and all(v.split("#")[1].isalpha() for v in values)
    result = _imported("letter_labels.json", "Realms")
    keys = {k.entity: k.table for k in result.model.key_design.entities}
    template = KeyTemplate.parse(keys["Group"].partition_key)
    assert template.constant_prefix == "GROUP#" and len(template.attribute_names) == 1  # not GROUP#asgard
    assert all(_fits(keys["Group"].partition_key, v) for v in values)
    assert keys["Group"].sort_key == "meta"  # every item has it: a label
    group = result.model.entity("Group")
    assert group is not None and group.item_count == 5
    # ROLE#admin in both Admin items: a label by the evidence, and the notes say it is a guess
    assert keys["Admin"].partition_key == "ROLE#admin"
    assert any("`admin` is taken as a label" in n for n in result.inferred)


def test_table_data_without_facets_gives_one_entity_not_one_per_user_name() -> None:
    table = _original("letter_labels.json")["DataModel"][1]
    names = {i["PK"]["S"].split("#")[1] for i in table["TableData"]}
    assert names == {"alice", "bob", "carol"}
    result = _imported("letter_labels.json", "People")
    assert len(result.model.entities) == 1 and result.model.entities[0].item_count == len(table["TableData"])
    assert not {e.name.lower() for e in result.model.entities} & names
    template = KeyTemplate.parse(result.model.key_design.entities[0].table.partition_key)
    assert template.constant_prefix == "USER#" and len(template.attribute_names) == 1
    assert any("the words after `USER`" in n and "vary between items" in n for n in result.inferred)


# --- 5. an empty facet listing GSI key attributes -------------------------------------------------------------


def test_an_empty_facet_listing_an_indexs_keys_is_in_that_index() -> None:
    table = _original("empty_facet_hex_number.json")["DataModel"][0]
    empty = [f for f in table["TableFacets"] if not f.get("TableData")]
    expected = {f["FacetName"]: {i["IndexName"] for i in table["GlobalSecondaryIndexes"]
                                 if set(_key_names(i["KeyAttributes"])) <= set(f["NonKeyAttributes"])}
                for f in empty}
    assert expected == {"Loan": {"GSI1", "ByIsbn"}}
    model = _imported("empty_facet_hex_number.json").model
    keys = {k.entity: k for k in model.key_design.entities}
    for facet, indexes in expected.items():
        assert set(keys[facet].indexes) == indexes
        entity = model.entity(facet)
        assert entity is not None
        # GSI1PK / GSI1SK are index key attributes (written by the templates), not plain attributes of the entity
        assert not {"GSI1PK", "GSI1SK"} & {a.name for a in entity.attributes}
        assert keys[facet].indexes["ByIsbn"].partition_key == "{isbn}"


# --- 6. a Number attribute whose values are hex text ----------------------------------------------------------


def test_a_number_attribute_with_hex_values_is_flagged_and_the_export_agrees_with_its_items() -> None:
    table = _original("empty_facet_hex_number.json")["DataModel"][0]
    declared = {a["AttributeName"]: a["AttributeType"] for a in table["NonKeyAttributes"]}
    values = [i["colour"]["N"] for i in _all_items(table)]
    assert declared["colour"] == "N" and all(not v.isdigit() for v in values)
    result = _imported("empty_facet_hex_number.json")
    assert any("`colour` is declared N" in n and "values are S" in n for n in result.inferred)
    colour = result.model.entity("Book").attribute("colour")
    assert colour is not None and colour.type is AttributeType.S
    # `shade` is declared nowhere, but its items type it N with hex text: flagged the same way
    assert "shade" not in declared and all(list(i["shade"]) == ["N"] for i in _all_items(table) if "shade" in i)
    assert any("`shade` is typed N in the items" in n for n in result.inferred)
    assert result.model.entity("Book").attribute("shade").type is AttributeType.S
    _assert_declared_types_agree(export_workbench(result.model, items_per_entity=5).document)


def test_the_export_never_declares_a_number_and_writes_text() -> None:
    model = _imported("empty_facet_hex_number.json").model
    book = model.entity("Book")
    assert book is not None
    colour = book.attribute("colour").model_copy(update={"type": AttributeType.N})  # N, with a generator of hex
    model = model.model_copy(update={"entities": tuple(
        e.model_copy(update={"attributes": tuple(colour if a.name == "colour" else a for a in e.attributes)})
        if e.name == "Book" else e for e in model.entities)})
    exported = export_workbench(model, items_per_entity=5)
    _assert_declared_types_agree(exported.document)
    assert any("`colour` is N in the model" in n for n in exported.notes)


def _assert_declared_types_agree(document: dict[str, Any]) -> None:
    table = document["DataModel"][0]
    declared = {a["AttributeName"]: a["AttributeType"] for a in table["NonKeyAttributes"]}
    for keys in [table["KeyAttributes"], *(i["KeyAttributes"] for i in table.get("GlobalSecondaryIndexes", []))]:
        declared.update({keys[k]["AttributeName"]: keys[k]["AttributeType"] for k in ("PartitionKey", "SortKey")
                         if k in keys})
    items = _all_items(table)
    assert items
    for item in items:
        for name, value in item.items():
            assert list(value) == [declared[name]], (name, value, declared[name])
