"""Reading and writing model files: formats agree, dumps read back, problems carry readable paths."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from modeling.__main__ import main
from modeling.errors import ModelFileError, Severity, errors_only
from modeling.model_file import (
    FileFormat,
    document_problems,
    dump_model,
    model_from_document,
    model_to_document,
    parse_document,
    readable_path,
)
from tests.cli_runner import CliResult, run_main

SHOP_YAML = """\
format: dynamodb-design-studio/model
version: 1
name: Shop orders
table: {name: shop-orders, region: eu-west-1, ttl_attribute: expires_at}
entities:
  - name: Customer
    item_count: 10000
    identifiers: [customer_id]
    attributes:
      - {name: customer_id, generator: {kind: uuid, prefix: "C-"}}
      - {name: email, generator: {kind: faker, provider: email}}
  - name: Order
    item_count: 200000
    identifiers: [order_id]
    attributes:
      - {name: order_id, generator: {kind: sequence, width: 8}}
      - {name: customer_id, generator: {kind: reference, entity: Customer, attribute: customer_id}}
      - {name: status, generator: {kind: enum, values: [PAID, UNPAID], weights: [0.8, 0.2]}}
      - {name: total, type: N, generator: {kind: float_range, min: 1, max: 500}}
      - {name: expires_at, type: N, generator: {kind: int_range, min: 1700000000, max: 1800000000}}
relationships:
  - name: customer_orders
    kind: one_to_many
    parent: Customer
    child: Order
    child_attributes: [customer_id]
    cardinality: {mean: 20, max: 500, distribution: {kind: zipf, exponent: 1.5}}
access_patterns:
  - name: get_customer_by_id
    kind: read_one
    entities: [Customer]
    inputs: [customer_id]
    traffic: {peak_requests_per_second: 100, average_requests_per_second: 20}
  - name: list_orders_by_customer
    kind: read_many
    entities: [Order]
    inputs: [customer_id]
    filters: [{attribute: status, equals: UNPAID}]
    traffic: {peak_requests_per_second: 50, average_requests_per_second: 10}
key_design:
  global_secondary_indexes:
    - {name: GSI1, partition_key: {name: GSI1PK}, sort_key: {name: GSI1SK}}
  entities:
    - entity: Customer
      table: {partition_key: "CUSTOMER#{customer_id}", sort_key: PROFILE}
    - entity: Order
      table: {partition_key: "ORDER#{order_id}", sort_key: ORDER}
      indexes:
        GSI1: {partition_key: "CUSTOMER#{customer_id}", sort_key: "ORDER#{order_id}"}
"""
MINIMAL_YAML = "format: dynamodb-design-studio/model\nversion: 1\nname: Minimal\ntable: {name: minimal}\n"


@pytest.fixture
def shop() -> dict[str, Any]:
    """A fresh, valid shop document to break in one place."""
    return parse_document(SHOP_YAML.encode(), "shop.yaml")


def at(document: dict[str, Any], location: tuple[Any, ...]) -> Any:
    for part in location:
        document = document[part]
    return document


def run_cli(*args: str) -> CliResult:
    return run_main(main, args)


# --- formats and round trips ---------------------------------------------------------------------


def test_yaml_and_json_of_one_model_give_equal_models(shop: dict[str, Any]) -> None:
    json_text = json.dumps(yaml.safe_load(SHOP_YAML), indent=2)
    from_json = model_from_document(parse_document(json_text.encode(), "shop.json"))
    assert from_json == model_from_document(shop)


@pytest.mark.parametrize("fmt", list(FileFormat), ids=str)
def test_dumped_model_parses_back_to_an_equal_model(shop: dict[str, Any], fmt: FileFormat) -> None:
    model = model_from_document(shop)
    document = parse_document(dump_model(model, fmt).encode("utf-8"), f"shop.{fmt}")
    assert errors_only(document_problems(document)) == []
    assert model_from_document(document) == model


@pytest.mark.parametrize("location, kind", [
    (("entities", 1, "attributes", 1, "generator", "kind"), "reference"),
    (("relationships", 0, "cardinality", "distribution", "kind"), "zipf"),
], ids=["generator", "distribution"])
def test_dump_keeps_the_kind_of_tagged_unions(shop: dict[str, Any], location: tuple, kind: str) -> None:
    # `kind` is the tag that picks the union member; leaving it out as a default breaks reading back.
    assert at(model_to_document(model_from_document(shop)), location) == kind


def test_dump_is_stable(shop: dict[str, Any]) -> None:
    model = model_from_document(shop)
    reread = model_from_document(parse_document(dump_model(model, FileFormat.YAML).encode(), "m.yaml"))
    assert dump_model(reread, FileFormat.YAML) == dump_model(model, FileFormat.YAML)


@pytest.mark.parametrize("name, fmt", [
    ("model.json", FileFormat.JSON), ("Model.YAML", FileFormat.YAML), ("model.yml", FileFormat.YAML),
    ("model.txt", None), ("model", None)], ids=lambda value: str(value))
def test_file_format_follows_the_extension(name: str, fmt: FileFormat | None) -> None:
    assert FileFormat.from_filename(name) is fmt


# --- problems and their paths --------------------------------------------------------------------


@pytest.mark.parametrize("location, value, path", [
    (("entities", 1, "attributes", 3, "type"), "DECIMAL", "entities[Order].attributes[total].type"),
    (("access_patterns", 1, "traffic", "peak_requests_per_second"), "fast",
     "access_patterns[list_orders_by_customer].traffic.peak_requests_per_second"),
    (("access_patterns", 1, "filters", 0, "equals"), [1],
     "access_patterns[list_orders_by_customer].filters[status].equals"),
    (("key_design", "entities", 1, "table", "partition_key"), "",
     "key_design.entities[Order].table.partition_key"),
    (("relationships", 0, "cardinality", "max"), 2, "relationships[customer_orders].cardinality"),
], ids=["attribute", "traffic", "filter", "entity_keys", "relationship"])
def test_problems_name_list_items_by_name(shop: dict[str, Any], location: tuple, value: Any, path: str) -> None:
    at(shop, location[:-1])[location[-1]] = value
    assert {p.path for p in document_problems(shop)} == {path}


def test_items_without_a_usable_name_are_named_by_position(shop: dict[str, Any]) -> None:
    shop["entities"][1]["attributes"][3]["name"] = 42
    assert [p.path for p in document_problems(shop)] == ["entities[Order].attributes[3].name"]


@pytest.mark.parametrize("index_name", ["GSI1", "str"])
def test_problems_in_index_templates_name_the_index_in_brackets(shop: dict[str, Any], index_name: str) -> None:
    shop["key_design"]["global_secondary_indexes"][0]["name"] = index_name
    shop["key_design"]["entities"][1]["indexes"] = {index_name: {"sort_key": "ORDER#{order_id}"}}
    paths = [p.path for p in document_problems(shop)]
    assert paths == [f"key_design.entities[Order].indexes[{index_name}].partition_key"]


def test_all_problems_of_one_stage_are_reported_together(shop: dict[str, Any]) -> None:
    shop["table"]["region"] = "Ireland"
    shop["entities"][0]["item_count"] = -1
    shop["access_patterns"][0]["name"] = "GetCustomer"
    with pytest.raises(ModelFileError) as caught:
        model_from_document(shop, source="shop.yaml")
    assert [p.path for p in caught.value.problems] == [
        "table.region", "entities[Customer].item_count", "access_patterns[GetCustomer].name"]
    assert str(caught.value).startswith("shop.yaml: ") and "(and 2 more)" in str(caught.value)


def test_warnings_do_not_block_model_from_document(shop: dict[str, Any]) -> None:
    shop["entities"].append({"name": "AuditLog", "item_count": 5, "attributes": [{"name": "event_id"}]})
    problems = document_problems(shop)
    assert [(p.path, p.severity) for p in problems] == [("entities[AuditLog]", Severity.WARNING)]
    assert model_from_document(shop).entity("AuditLog") is not None


@pytest.mark.parametrize("version, message", [
    (0, "there is no format version 0"), (True, "whole number, got True"), (1.5, "whole number, got 1.5"),
], ids=["zero", "boolean", "fraction"])
def test_unusable_version_is_the_only_problem_reported(shop: dict[str, Any], version: Any, message: str) -> None:
    shop["version"] = version
    shop["table"]["region"] = "Ireland"  # not reported: the header decides how to read the rest
    [problem] = document_problems(shop)
    assert (problem.path, message in problem.message) == ("version", True)


# --- readable_path -------------------------------------------------------------------------------


@pytest.mark.parametrize("loc, path", [
    (("entities", 1, "attributes", 2, "generator", "enum", "weights"),
     "entities[Order].attributes[status].generator.weights"),
    (("relationships", 0, "cardinality", "distribution", "zipf", "exponent"),
     "relationships[customer_orders].cardinality.distribution.exponent"),
    (("access_patterns", 1, "filters", 0, "equals", "int"),
     "access_patterns[list_orders_by_customer].filters[status].equals"),
], ids=["generator_tag", "distribution_tag", "union_member_label"])
def test_readable_path_skips_tags_and_union_labels(shop: dict[str, Any], loc: tuple, path: str) -> None:
    text, found, _ = readable_path(loc, shop)
    assert (text, found) == (path, True)


def test_readable_path_returns_the_value_found(shop: dict[str, Any]) -> None:
    assert readable_path(("entities", 1, "attributes", 3, "type"), shop) == (
        "entities[Order].attributes[total].type", True, "N")


@pytest.mark.parametrize("loc, path", [
    (("table", "billing_mode"), "table.billing_mode"),
    (("entities", 7, "name"), "entities[7].name"),
], ids=["absent_field", "index_out_of_range"])
def test_readable_path_reports_a_location_missing_from_the_document(shop: dict[str, Any], loc: tuple,
                                                                    path: str) -> None:
    assert readable_path(loc, shop) == (path, False, None)


# --- known bugs ----------------------------------------------------------------------------------


def test_yaml_keeps_a_next_line_character_in_text(shop: dict[str, Any]) -> None:
    shop["description"] = "Caf\u00e9 menu\u0085second line"
    model = model_from_document(shop)
    text = dump_model(model, FileFormat.YAML)
    assert model_from_document(parse_document(text.encode("utf-8"), "m.yaml")) == model


def test_a_model_read_from_json_can_be_written_back(shop: dict[str, Any]) -> None:
    text = json.dumps({**shop, "description": "\ud800"})  # ensure_ascii: the file holds `\ud800`
    try:
        model = model_from_document(parse_document(text.encode("ascii"), "m.json"))
    except ModelFileError:
        return  # refusing the file is fine too
    assert dump_model(model, FileFormat.JSON).encode("utf-8")


def test_yaml_tags_cannot_hide_nesting_from_the_depth_limit() -> None:
    deep = "[" * 30 + "1" + "]" * 30
    text = f"{MINIMAL_YAML}description: !!omap [{{lines: {deep}}}]\n"
    with pytest.raises(ModelFileError):
        parse_document(text.encode(), "m.yaml")


# --- command line --------------------------------------------------------------------------------


def test_cli_prints_ok_and_exits_0_for_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "minimal.yaml"
    path.write_text(MINIMAL_YAML, encoding="utf-8")
    result = run_cli("validate", str(path))
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{path}: ok\n", "")


def test_cli_prints_warnings_but_exits_0_without_errors(tmp_path: Path) -> None:
    path = tmp_path / "unused.yaml"
    path.write_text(MINIMAL_YAML + "entities: [{name: Order, item_count: 1, attributes: [{name: id}]}]\n",
                    encoding="utf-8")
    result = run_cli("validate", str(path))
    assert result.returncode == 0
    assert f"{path}: warning: access_patterns: the model has no access patterns" in result.stdout


def test_a_filter_on_an_attribute_one_of_the_read_entities_lacks_is_an_error(shop: dict[str, Any]) -> None:
    """Issue 28.5: a filter every Customer lacks made a sparse index whose Customer share was a guessed 10%; a
    filter returns none of the items without the attribute, so the pattern is refused, with the fix."""
    pattern = shop["access_patterns"][1]
    pattern["entities"] = ["Customer", "Order"]
    problems = [p for p in document_problems(shop) if p.path == "access_patterns[list_orders_by_customer].filters"]
    assert len(problems) == 1 and "`status` is not an attribute of Customer" in problems[0].message
    assert problems[0].severity is Severity.ERROR
