"""NoSQL Workbench import and export against the real files in tests/fixtures/nosql-workbench/."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modeling.design.generator import explicit_design, generate_design
from modeling.errors import ModelFileError, errors_only
from modeling.examples import example_document, list_examples
from modeling.interop.nosql_workbench import export_workbench, import_workbench, read_workbench, workbench_document
from modeling.interop.nosql_workbench.document import normalised_value
from modeling.model_file import MAX_FILE_BYTES, document_problems, model_from_document, model_to_document
from tests.fixture_files import WORKBENCH_DIR, WORKBENCH_FILES, workbench_file

FILES = WORKBENCH_FILES
TABLES = [(f, t.name) for f in FILES for t in read_workbench(workbench_file(f).read_bytes(), f).tables]

# A version 1.0 file (no public 1.0 fixture is among the vendored files): no AWSService, no billing,
# items only inside facets, written after aws-samples/amazon-dynamodb-design-patterns' AnOnlineShop.
VERSION_1 = {
    "ModelName": "Shop", "ModelMetadata": {"Author": "", "DateCreated": "Jun 22, 2020, 11:55 PM",
                                           "DateLastModified": "Jun 24, 2020, 04:06 PM", "Description": "",
                                           "Version": "1.0"},
    "DataModel": [{
        "TableName": "OnlineShop",
        "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                          "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
        "NonKeyAttributes": [{"AttributeName": "Email", "AttributeType": "S"},
                             {"AttributeName": "Quantity", "AttributeType": "N"}],
        "TableFacets": [
            {"FacetName": "customer", "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
             "TableData": [{"PK": {"S": "c#12345"}, "SK": {"S": "c#12345"}, "Email": {"S": "a@example.com"}},
                           {"PK": {"S": "c#23456"}, "SK": {"S": "c#23456"}, "Email": {"S": "b@example.com"}}],
             "NonKeyAttributes": ["Email"], "DataAccess": {"MySql": {}}},
            {"FacetName": "orderItem",
             "KeyAttributeAlias": {"PartitionKeyAlias": "OrderId", "SortKeyAlias": "p#ProductId"},
             "TableData": [{"PK": {"S": "o#1"}, "SK": {"S": "p#12345"}, "Quantity": {"N": "2"}},
                           {"PK": {"S": "o#1"}, "SK": {"S": "p#99887"}, "Quantity": {"N": "5"}}],
             "NonKeyAttributes": ["Quantity"], "DataAccess": {"MySql": {}}}],
        "DataAccess": {"MySql": {}}}],
}


def _bytes(name: str) -> bytes:
    return workbench_file(name).read_bytes()


@pytest.mark.parametrize("name, table", TABLES)
def test_every_table_of_every_fixture_imports_to_a_valid_model(name: str, table: str) -> None:
    result = import_workbench(_bytes(name), table, name)
    document = model_to_document(result.model)
    assert errors_only(document_problems(document)) == []
    assert model_from_document(document) == result.model
    assert result.model.access_patterns == ()
    assert any("no access patterns" in note for note in result.inferred)
    source = read_workbench(_bytes(name), name).table(table)
    assert {i.name for i in result.model.key_design.global_secondary_indexes} == {i.name for i in source.indexes}
    if source.facets:
        assert [e.name for e in result.model.entities] == [f.name[:1].upper() + f.name[1:] for f in source.facets]


@pytest.mark.parametrize("name", FILES)
def test_import_export_import_keeps_tables_indexes_facets_items_and_the_model(name: str) -> None:
    first = read_workbench(_bytes(name), name)
    written = json.dumps(workbench_document(first)).encode()
    second = read_workbench(written, "again.json")
    assert second.tables == first.tables  # keys, attributes, indexes, facets, items, billing, unknown keys
    assert second.extras == first.extras and second.name == first.name
    assert json.loads(written)["ModelMetadata"]["Version"] == "3.0"
    for table in first.tables:
        assert import_workbench(written, table.name).model == import_workbench(_bytes(name), table.name).model


def test_written_files_have_the_structure_nosql_workbench_writes() -> None:
    reference = json.loads(_bytes("RecurringPaymentsSchema.json"))  # 3.0, facets and GSIs, saved by NWB
    ours = workbench_document(read_workbench(_bytes("RecurringPaymentsSchema.json")))
    assert list(ours) == list(reference) and list(ours["ModelMetadata"]) == list(reference["ModelMetadata"])
    assert list(ours["DataModel"][0]) == list(reference["DataModel"][0])
    assert list(ours["DataModel"][0]["TableFacets"][0]) == ["FacetName", "KeyAttributeAlias", "TableData",
                                                              "NonKeyAttributes", "DataAccess"]
    assert ours == reference  # an unchanged 3.0 file is written back byte-for-byte equal as data


def test_facets_become_entities_with_their_key_aliases() -> None:
    model = import_workbench(_bytes("GamePlayerProfilesSchema.json")).model
    items = next(k for k in model.key_design.entities if k.entity == "Items")
    assert (items.table.partition_key, items.table.sort_key) == ("{playerID}", "ITEMS#{ItemID}")
    entity = model.entity("Items")
    assert entity.identifiers == ("playerID", "ItemID")
    assert entity.attribute("ItemAttributes").type == "M"


def test_key_templates_are_read_from_the_item_values() -> None:
    result = import_workbench(_bytes("FlightsFares.json"))  # 2.0 with web-modeler extensions
    fare = next(k for k in result.model.key_design.entities if k.entity == "Fare")
    assert fare.table.sort_key == "{dest}#{start}#{class}"
    assert fare.indexes["GSI1"].sort_key == "{origin}#{start}"
    assert "DataModel[data].ModelSchema" in result.unknown_keys and "DataModel[data].SavedQuery" in result.unknown_keys


def test_entities_come_from_key_labels_when_there_are_no_facets() -> None:
    model = import_workbench(_bytes("ChatSystemSchema.json")).model
    keys = {k.entity: k.table for k in model.key_design.entities}
    assert keys["User"].partition_key == "User:{userId}" and keys["User"].sort_key == "{CreatedAt}"
    assert keys["Room"].partition_key == "Room:{roomId}" and keys["Room"].sort_key == "meta"
    assert model.table.billing_mode == "PROVISIONED"


def test_untyped_and_double_wrapped_nested_values_are_typed() -> None:
    assert normalised_value({"M": {"M": {"HP": {"N": "50"}}}})[0] == {"M": {"HP": {"N": "50"}}}
    assert normalised_value({"M": {"on": True, "tags": ["a", 2]}})[0] == {
        "M": {"on": {"BOOL": True}, "tags": {"L": [{"S": "a"}, {"N": "2"}]}}}
    vehicles = read_workbench(_bytes("ConnectedVehiclesSchema.json"))
    assert any("untyped" in note for note in vehicles.notes)
    game = read_workbench(_bytes("GamePlayerProfilesSchema.json"))
    assert any("wrapped twice" in note for note in game.notes)


def test_attribute_names_with_hash_are_kept_exactly() -> None:
    result = import_workbench(_bytes("CartModel.json"))
    assert result.model.key_design.sort_key.name == "Status#Date"  # DynamoDB allows `#` in attribute names
    assert not any("is named" in note for note in result.inferred)


def test_a_version_1_file_with_data_only_in_facets_imports() -> None:
    result = import_workbench(json.dumps(VERSION_1).encode())
    keys = {k.entity: k.table for k in result.model.key_design.entities}
    assert keys["Customer"].partition_key == "c#{cId}"
    assert keys["OrderItem"].sort_key == "p#{ProductId}"
    assert result.model.entity("OrderItem").attribute("Quantity").generator.kind == "int_range"
    assert any("no billing mode" in note for note in result.inferred)


def test_the_caller_chooses_the_table_and_hears_which_exist() -> None:
    assert import_workbench(_bytes("BankModel.json")).table == "PaymentScheduler"
    result = import_workbench(_bytes("BankModel.json"), "TransactionHistory")
    assert result.tables == ("PaymentScheduler", "TransactionHistory")
    with pytest.raises(ModelFileError) as caught:
        import_workbench(_bytes("BankModel.json"), "Payments")
    assert "PaymentScheduler, TransactionHistory" in caught.value.problems[0].suggestion


@pytest.mark.parametrize("data, path, words", [
    (b"{not json", "", "JSON syntax error"),
    (b'{"format": "dynamodb-design-studio/model", "version": 1}', "format", "Design Studio model"),
    (json.dumps({"ModelName": "x", "DataModel": [{"TableName": "t", "KeyAttributes": {}}]}).encode(),
     "DataModel[t].KeyAttributes.PartitionKey", "partition key is missing"),
    (json.dumps({"DataModel": [{"TableName": "t", "KeyAttributes": {"PartitionKey": {
        "AttributeName": "PK", "AttributeType": "STRING"}}}]}).encode(),
     "DataModel[t].KeyAttributes.PartitionKey.AttributeType", "unknown attribute type"),
    (b" " * (MAX_FILE_BYTES + 1), "", "larger than"),
])
def test_malformed_files_give_problems_with_paths(data: bytes, path: str, words: str) -> None:
    with pytest.raises(ModelFileError) as caught:
        import_workbench(data)
    problem = caught.value.problems[0]
    assert problem.path == path and words in problem.message


@pytest.mark.parametrize("slug", [e.slug for e in list_examples()])
def test_an_exported_model_imports_back_with_its_entities_table_keys_and_indexes(slug: str) -> None:
    model = model_from_document(example_document(slug))
    exported = export_workbench(model, seed=3, items_per_entity=4)
    back = import_workbench(json.dumps(exported.document).encode()).model
    design = (explicit_design(model) or generate_design(model)).key_design
    assert [e.name for e in back.entities] == [e.name for e in model.entities]
    assert {k.entity: k.table for k in back.key_design.entities} == {k.entity: k.table for k in design.entities}
    assert back.key_design.global_secondary_indexes == design.global_secondary_indexes
    assert back.table.billing_mode == model.table.billing_mode
    for entity in model.entities:
        assert {a.name for a in entity.attributes} <= {a.name for a in back.entity(entity.name).attributes}
        assert back.entity(entity.name).item_count == 4


def test_export_renders_keys_through_the_design_and_is_seeded() -> None:
    model = model_from_document(example_document("crm_single_table"))
    first = export_workbench(model, seed=9, items_per_entity=3)
    assert first.document["DataModel"] == export_workbench(model, seed=9, items_per_entity=3).document["DataModel"]
    assert first.document["DataModel"] != export_workbench(model, seed=10, items_per_entity=3).document["DataModel"]
    table = first.document["DataModel"][0]
    facet = table["TableFacets"][0]
    keys = next(k for k in model.key_design.entities if k.entity == facet["FacetName"])
    assert facet["KeyAttributeAlias"]["PartitionKeyAlias"] == keys.table.partition_key
    pk = model.key_design.partition_key.name
    prefix = keys.table.partition_key.split("{")[0]
    assert all(item[pk]["S"].startswith(prefix) for item in facet["TableData"]) and len(facet["TableData"]) == 3
    assert table["BillingMode"] == model.table.billing_mode
    assert any("access patterns" in note for note in first.notes)


def test_unknown_keys_are_kept_reported_and_written_back() -> None:
    document = json.loads(_bytes("ChatSystemSchema.json"))
    table = document["DataModel"][0]
    table["AccessPatterns"] = [{"Name": "getRoom", "Type": "Query"}]  # e.g. what NWB 3.20 may add
    document["ModelMetadata"]["Workspace"] = "team"
    result = import_workbench(json.dumps(document).encode())
    assert set(result.unknown_keys) == {"DataModel[Chat].AccessPatterns", "ModelMetadata.Workspace"}
    assert any("DataModel[Chat].AccessPatterns" in note for note in result.inferred)
    written = workbench_document(result.source)
    assert written["DataModel"][0]["AccessPatterns"] == table["AccessPatterns"]
    assert written["ModelMetadata"]["Workspace"] == "team"


def test_sample_data_formats_become_generators_and_are_written_for_emails() -> None:
    document = json.loads(_bytes("GamePlayerProfilesSchema.json"))
    document["DataModel"][0]["SampleDataFormats"] = {"Email": ["identifiers", "Email"],
                                                    "Nickname": ["dataTypes", "String"]}
    model = import_workbench(json.dumps(document).encode()).model
    metadata = model.entity("Metadata")
    assert metadata.attribute("Email").generator.provider == "email"
    assert metadata.attribute("Nickname").generator.kind == "enum"  # "String" says nothing: values decide
    exported = export_workbench(model, items_per_entity=2).document["DataModel"][0]
    assert exported["SampleDataFormats"]["Email"] == ["identifiers", "Email"]


def test_exported_items_agree_with_the_declared_attribute_types() -> None:
    model = import_workbench(_bytes("ConnectedVehiclesSchema.json")).model  # maps without generators
    table = export_workbench(model, items_per_entity=3).document["DataModel"][0]
    declared = {a["AttributeName"]: a["AttributeType"] for a in table["NonKeyAttributes"]}
    for facet in table["TableFacets"]:
        for item in facet["TableData"]:
            for name, value in item.items():
                if name in declared:
                    assert list(value) == [declared[name]], (name, value)


def test_out_of_range_numbers_stay_text_instead_of_growing() -> None:
    document = json.loads(_bytes("SocialNetworkSchema.json"))
    document["DataModel"][0]["TableData"][1]["post#"] = {"N": "1E+999999999"}
    result = import_workbench(json.dumps(document).encode())  # returns at once, no billion-digit string
    assert errors_only(document_problems(model_to_document(result.model))) == []


_json = st.recursive(st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.text(max_size=12)
                     | st.floats(allow_nan=False, allow_infinity=False),
                     lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children,
                                                                                       max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(FILES), where=st.integers(0, 10**6), key=st.text(max_size=8), value=_json)
def test_odd_values_anywhere_in_the_data_import_and_export_or_give_problems(name: str, where: int, key: str,
                                                                          value: object) -> None:
    document = json.loads(_bytes(name))
    table = document["DataModel"][0]
    items = table.get("TableData") or [i for f in table.get("TableFacets", []) for i in f.get("TableData", [])]
    item = items[where % len(items)]
    names = sorted(item)
    item[names[where % len(names)] if where % 3 else key] = value  # a key value, another value, or a new one
    try:
        result = import_workbench(json.dumps(document).encode())
    except ModelFileError as exc:
        assert exc.problems
        return
    assert errors_only(document_problems(model_to_document(result.model))) == []
    export_workbench(result.model, items_per_entity=2)


def test_the_vendored_fixture_folder_holds_exactly_the_listed_files() -> None:
    """A file added without being listed would never be tested; a listed file missing fails here by name."""
    assert sorted(p.name for p in WORKBENCH_DIR.glob("*.json")) == sorted(WORKBENCH_FILES)
