"""Infrastructure as code without capacities: CreateTable JSON accepted by a real endpoint, CloudFormation
checked by cfn-lint, Terraform parsed by python-hcl2, and HCL strings that cannot inject template syntax."""

from __future__ import annotations

import json
import uuid

import hcl2
import pytest
import yaml

from modeling.design.generator import rule_based_designs
from modeling.design.plans import TABLE
from modeling.endpoint.adapter import configured_endpoint, dynamodb_client
from modeling.examples import list_examples, load_example
from modeling.interop.infrastructure import (
    DimensionCapacity,
    IacFormat,
    InfrastructureError,
    ProvisionedCapacity,
    ResourceCapacity,
    create_table_input,
    hcl_string,
    infrastructure_code,
)
from modeling.model import KeyAttribute, KeyAttributeType, KeyDesign, Model, Projection, SecondaryIndex

ON_DEMAND_EXAMPLES = [e.slug for e in list_examples() if load_example(e.slug).table.billing_mode == "PAY_PER_REQUEST"]


def _design(model: Model) -> KeyDesign:
    return rule_based_designs(model)[0].key_design


def _with_lsi(model: Model) -> tuple[Model, KeyDesign]:
    """A variant with an LSI on a Number sort key and a KEYS_ONLY projection (no example has an LSI)."""
    design = _design(model)
    lsi = SecondaryIndex(name="LSI1", partition_key=design.partition_key,
                         sort_key=KeyAttribute(name="LSI1SK", type=KeyAttributeType.N),
                         projection=Projection(type="KEYS_ONLY"))
    return model, design.model_copy(update={"local_secondary_indexes": (lsi,)})


def cfn_lint_problems(template: str) -> list[str]:
    """Every cfn-lint match (errors, warnings and informational) for the template text."""
    from cfnlint.api import ManualArgs, lint  # imported here: about 1 s of CPU, needed only by slow tests

    return [str(m) for m in lint(template, config=ManualArgs(regions=["us-east-1"], include_checks=["I"]))]


@pytest.mark.parametrize("slug", ON_DEMAND_EXAMPLES)
def test_on_demand_example_templates_pass_cfn_lint(slug: str) -> None:
    model = load_example(slug)
    code = infrastructure_code(model, _design(model), IacFormat.CLOUDFORMATION, tags=(("team", "data"),))
    assert cfn_lint_problems(code.text) == []
    table = yaml.safe_load(code.text)["Resources"]["Table"]["Properties"]
    assert table["BillingMode"] == "PAY_PER_REQUEST" and "ProvisionedThroughput" not in table
    assert all("ProvisionedThroughput" not in g for g in table.get("GlobalSecondaryIndexes", []))


def test_cfn_lint_catches_a_broken_template() -> None:
    """The oracle can fail: a dropped attribute definition and a bad projection are reported."""
    model = load_example("crm_single_table").model_copy(update={"table": load_example("chat_messages").table})
    text = infrastructure_code(model, _design(model), IacFormat.CLOUDFORMATION).text
    broken = text.replace("      - AttributeName: GSI2SK\n        AttributeType: S\n", "").replace(
        "ProjectionType: INCLUDE", "ProjectionType: SOME")
    problems = cfn_lint_problems(broken)
    assert any("E3039" in p for p in problems) and any("SOME" in p for p in problems)


def test_lsi_and_table_settings_map_to_cloudformation() -> None:
    model, design = _with_lsi(load_example("iot_telemetry").model_copy(
        update={"table": load_example("ecommerce_orders").table.model_copy(update={
            "ttl_attribute": "expiresAt", "point_in_time_recovery": True, "table_class":
            "STANDARD_INFREQUENT_ACCESS", "deletion_protection": True})}))
    code = infrastructure_code(model, design, IacFormat.CLOUDFORMATION)
    assert cfn_lint_problems(code.text) == []
    template = yaml.safe_load(code.text)
    table = template["Resources"]["Table"]["Properties"]
    assert table["LocalSecondaryIndexes"] == [{
        "IndexName": "LSI1", "KeySchema": [{"AttributeName": design.partition_key.name, "KeyType": "HASH"},
                                           {"AttributeName": "LSI1SK", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}}]
    assert {"AttributeName": "LSI1SK", "AttributeType": "N"} in table["AttributeDefinitions"]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expiresAt", "Enabled": True}
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert (table["TableClass"], table["DeletionProtectionEnabled"]) == ("STANDARD_INFREQUENT_ACCESS", True)
    assert template["Outputs"]["StreamArn"]["Value"] == {"Fn::GetAtt": ["Table", "StreamArn"]}


def test_attribute_definitions_hold_only_key_attributes_once() -> None:
    model = load_example("student_platform_mistakes")
    request = create_table_input(model, _design(model))
    names = [a["AttributeName"] for a in request["AttributeDefinitions"]]
    keys = {k["AttributeName"] for index in [request, *request.get("GlobalSecondaryIndexes", [])]
            for k in index["KeySchema"]}
    assert sorted(names) == sorted(keys) and len(names) == len(set(names))


def test_a_provisioned_table_without_capacities_is_refused() -> None:
    model = load_example("crm_single_table")
    with pytest.raises(InfrastructureError, match="capacities"):
        infrastructure_code(model, _design(model), IacFormat.TERRAFORM)


@pytest.mark.parametrize("tags, words", [((("aws:owner", "x"),), "aws:"), ((("team", 'a"b'),), "value"),
                                         ((("team", "a"), ("team", "b")), "twice")])
def test_tags_dynamodb_would_refuse_are_refused_with_a_reason(tags: tuple, words: str) -> None:
    model = load_example("chat_messages")
    with pytest.raises(InfrastructureError, match=words):
        infrastructure_code(model, _design(model), IacFormat.CLI_JSON, tags=tags)


# --- Terraform --------------------------------------------------------------------------------------


def _tf_table(text: str) -> dict:
    return hcl2.loads(text)["resource"][0]['"aws_dynamodb_table"']['"table"']


@pytest.mark.parametrize("slug", ON_DEMAND_EXAMPLES)
def test_terraform_parses_and_matches_the_design(slug: str) -> None:
    model = load_example(slug)
    design = _design(model)
    table = _tf_table(infrastructure_code(model, design, IacFormat.TERRAFORM).text)
    assert table["hash_key"] == f'"{design.partition_key.name}"'
    assert table["billing_mode"] == '"PAY_PER_REQUEST"' and "read_capacity" not in table
    assert [g["name"] for g in table.get("global_secondary_index", [])] == [
        f'"{g.name}"' for g in design.global_secondary_indexes]
    assert len(table["attribute"]) == len(create_table_input(model, design)["AttributeDefinitions"])


def test_terraform_lsi_ttl_pitr_replicas_and_tags() -> None:
    model, design = _with_lsi(load_example("iot_telemetry"))
    model = model.model_copy(update={"table": model.table.model_copy(update={
        "billing_mode": "PAY_PER_REQUEST", "point_in_time_recovery": True, "replica_regions": ("eu-west-1",)})})
    code = infrastructure_code(model, design, IacFormat.TERRAFORM, tags=(("cost-centre", "iot/42"),))
    table = _tf_table(code.text)
    assert table["local_secondary_index"][0]["range_key"] == '"LSI1SK"'
    assert table["local_secondary_index"][0]["projection_type"] == '"KEYS_ONLY"'
    assert table["ttl"][0]["attribute_name"] == '"expiresAt"'
    assert table["point_in_time_recovery"][0]["enabled"] is True
    assert table["replica"][0]["region_name"] == '"eu-west-1"'
    assert table["stream_view_type"] == '"NEW_AND_OLD_IMAGES"'  # replicas need it
    assert table["tags"] == {'"cost-centre"': '"iot/42"'}
    assert any("replica" in note.lower() for note in code.notes)


@pytest.mark.parametrize("text", ['say "hi"', "back\\slash", "${var.secret}", "%{ if true }x%{ endif }",
                                  "line\nbreak", "tab\there", "bell\x07", "ünïcode ✓"])
def test_hcl_strings_parse_as_one_literal_without_interpolation(text: str) -> None:
    literal = hcl_string(text)
    parsed = hcl2.loads(f"value = {literal}\n")["value"]
    assert parsed == literal  # python-hcl2 keeps the literal as written: one string, nothing evaluated
    assert "${" not in literal.replace("$${", "") and "%{" not in literal.replace("%%{", "")


def test_model_name_in_the_terraform_header_cannot_break_out_of_the_comment() -> None:
    model = load_example("chat_messages").model_copy(update={"name": 'Chat\nresource "x" "y" {}'})
    parsed = hcl2.loads(infrastructure_code(model, _design(model), IacFormat.TERRAFORM).text)
    assert [list(r) for r in parsed["resource"]] == [['"aws_dynamodb_table"']]


# --- the CLI JSON on a real endpoint ------------------------------------------------------------------


def _created(request: dict) -> dict:
    """Create the table on the embedded endpoint over HTTP, describe it, and delete it (the test made it)."""
    client = dynamodb_client(configured_endpoint({}))
    request = {**request, "TableName": f"iac-{uuid.uuid4().hex[:12]}"}
    client.create_table(**request)
    try:
        return client.describe_table(TableName=request["TableName"])["Table"]
    finally:
        client.update_table(TableName=request["TableName"], DeletionProtectionEnabled=False)
        client.delete_table(TableName=request["TableName"])


def _indexes(description: dict, kind: str) -> dict:
    return {i["IndexName"]: (i["KeySchema"], i["Projection"]) for i in description.get(kind, [])}


@pytest.mark.parametrize("slug", [*ON_DEMAND_EXAMPLES, "lsi"])
def test_cli_json_creates_the_designed_table_on_the_endpoint(slug: str) -> None:
    model, design = _with_lsi(load_example("chat_messages")) if slug == "lsi" else (
        load_example(slug), _design(load_example(slug)))
    request = json.loads(infrastructure_code(model, design, IacFormat.CLI_JSON).text)
    described = _created(request)
    assert described["KeySchema"] == request["KeySchema"]
    assert sorted(described["AttributeDefinitions"], key=str) == sorted(request["AttributeDefinitions"], key=str)
    for kind in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        expected = {i["IndexName"]: (i["KeySchema"], i["Projection"]) for i in request.get(kind, [])}
        assert _indexes(described, kind) == expected
    assert described["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_provisioned_cli_json_sets_the_given_capacities_on_the_endpoint() -> None:
    model = load_example("crm_single_table")
    design = _design(model)
    units = {TABLE: (7, 3), "GSI1": (5, 2), "GSI2": (4, 1)}
    capacity = ProvisionedCapacity({name: ResourceCapacity(DimensionCapacity(r), DimensionCapacity(w))
                                    for name, (r, w) in units.items()})
    code = infrastructure_code(model, design, IacFormat.CLI_JSON, capacity)
    described = _created(json.loads(code.text))
    assert (described["ProvisionedThroughput"]["ReadCapacityUnits"],
            described["ProvisionedThroughput"]["WriteCapacityUnits"]) == units[TABLE]
    for index in described["GlobalSecondaryIndexes"]:
        throughput = index["ProvisionedThroughput"]
        assert (throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"]) == units[index["IndexName"]]
    assert any("update-continuous-backups" in note for note in code.notes)  # PITR is a separate call
