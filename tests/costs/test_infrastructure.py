"""Infrastructure as code sized by the cost engine: every example through cfn-lint and python-hcl2,
provisioned capacities that serve the peak, and auto scaling resources for the table and every GSI."""

from __future__ import annotations

import json

import hcl2
import pytest
import yaml

from costs.errors import UnknownDesignError, UsageError
from costs.estimate import EstimateRequest
from modeling.examples import list_examples, load_example
from modeling.interop.infrastructure import IacFormat
from modeling.model import KeyAttribute, KeyAttributeType, Projection, SecondaryIndex
from studio.estimate import estimate_model
from studio.iac.infrastructure import InfrastructureRequest, export_infrastructure
from tests.modeling.test_infrastructure import cfn_lint_problems

EXAMPLES = [e.slug for e in list_examples()]
SCALING_TYPES = ("AWS::ApplicationAutoScaling::ScalableTarget", "AWS::ApplicationAutoScaling::ScalingPolicy")


def _export(slug: str, fmt: IacFormat, **options: object):
    return export_infrastructure(InfrastructureRequest(load_example(slug), fmt, **options))


@pytest.mark.parametrize("auto_scaling", [True, False], ids=["auto-scaling", "fixed"])
@pytest.mark.parametrize("slug", EXAMPLES)
def test_every_example_template_passes_cfn_lint(slug: str, auto_scaling: bool) -> None:
    result = _export(slug, IacFormat.CLOUDFORMATION, auto_scaling=auto_scaling, tags=(("team", "platform"),))
    assert cfn_lint_problems(result.code.text) == []


def _resources(text: str) -> dict:
    return yaml.safe_load(text)["Resources"]


def test_auto_scaling_covers_the_table_and_every_gsi_in_both_dimensions() -> None:
    result = _export("crm_single_table", IacFormat.CLOUDFORMATION, target_utilization=0.6)
    resources = _resources(result.code.text)
    targets = {r["Properties"]["ScalableDimension"] + " " + r["Properties"]["ResourceId"]["Fn::Sub"]: r["Properties"]
               for r in resources.values() if r["Type"] == SCALING_TYPES[0]}
    assert sorted(targets) == sorted(f"dynamodb:{kind}:{dim}CapacityUnits {rid}" for kind, rid in [
        ("table", "table/${Table}"), ("index", "table/${Table}/index/GSI1"), ("index", "table/${Table}/index/GSI2")]
        for dim in ("Read", "Write"))
    policies = [r["Properties"] for r in resources.values() if r["Type"] == SCALING_TYPES[1]]
    assert len(policies) == 6
    assert {p["TargetTrackingScalingPolicyConfiguration"]["TargetValue"] for p in policies} == {60.0}
    table = resources["Table"]["Properties"]
    initial = table["ProvisionedThroughput"]["ReadCapacityUnits"]
    read_target = targets["dynamodb:table:ReadCapacityUnits table/${Table}"]
    assert 1 <= read_target["MinCapacity"] <= initial <= read_target["MaxCapacity"]


def test_fixed_capacity_has_no_scaling_resources_and_serves_the_peak_hour_at_the_target() -> None:
    model = load_example("iot_telemetry")
    result = export_infrastructure(InfrastructureRequest(model, IacFormat.CLOUDFORMATION, auto_scaling=False))
    resources = _resources(result.code.text)
    # the alarms and dashboard (tests/costs/test_monitoring.py) are CloudWatch resources
    assert [r["Type"] for r in resources.values() if not r["Type"].startswith("AWS::CloudWatch::")] == [
        "AWS::DynamoDB::Table"]
    estimate = estimate_model(EstimateRequest(model, compare_designs=False))
    peaks = {row["resource"]: row for row in estimate.resource_rows}
    table = resources["Table"]["Properties"]
    for name, throughput in [(model.table.name, table["ProvisionedThroughput"]),
                             *((g["IndexName"], g["ProvisionedThroughput"]) for g in table["GlobalSecondaryIndexes"])]:
        for dim in ("read", "write"):
            units = throughput[f"{dim.capitalize()}CapacityUnits"]
            needed = peaks[name][f"peak-hour {dim} units/s"] / 0.7
            assert max(1, needed) <= units < max(1, needed) + 1, (name, dim)
    assert "cost engine" in result.code.notes[0]


def test_provisioned_lsi_uses_the_table_capacity_and_passes_cfn_lint() -> None:
    model = load_example("iot_telemetry")
    own = export_infrastructure(InfrastructureRequest(model, IacFormat.CLI_JSON)).design.key_design
    lsi = SecondaryIndex(name="by_reading", partition_key=own.partition_key,
                         sort_key=KeyAttribute(name="LSI1SK", type=KeyAttributeType.S),
                         projection=Projection(type="INCLUDE", non_key_attributes=("value",)))
    model = model.model_copy(update={"key_design": own.model_copy(update={"local_secondary_indexes": (lsi,)})})
    result = export_infrastructure(InfrastructureRequest(model, IacFormat.CLOUDFORMATION))
    assert cfn_lint_problems(result.code.text) == []
    table = _resources(result.code.text)["Table"]["Properties"]
    assert "ProvisionedThroughput" not in table["LocalSecondaryIndexes"][0]
    assert table["LocalSecondaryIndexes"][0]["Projection"] == {"ProjectionType": "INCLUDE",
                                                              "NonKeyAttributes": ["value"]}


def test_terraform_auto_scaling_targets_point_at_the_table_and_its_indexes() -> None:
    result = _export("crm_single_table", IacFormat.TERRAFORM)
    resources = hcl2.loads(result.code.text)["resource"]
    targets = [body for r in resources for kind, named in r.items() if kind == '"aws_appautoscaling_target"'
               for body in named.values()]
    policies = [body for r in resources for kind, named in r.items() if kind == '"aws_appautoscaling_policy"'
                for body in named.values()]
    assert len(targets) == len(policies) == 6
    names = {name for r in resources for kind, named in r.items() if kind == '"aws_appautoscaling_policy"'
             for name in named}
    assert names == {f'"{resource}_{dim}"' for resource in ("table", "index_gsi1", "index_gsi2")
                     for dim in ("read", "write")}
    assert {t["resource_id"] for t in targets} == {
        '"table/${aws_dynamodb_table.table.name}"', '"table/${aws_dynamodb_table.table.name}/index/GSI1"',
        '"table/${aws_dynamodb_table.table.name}/index/GSI2"'}
    table = next(named['"table"'] for r in resources for kind, named in r.items() if kind == '"aws_dynamodb_table"')
    assert table["billing_mode"] == '"PROVISIONED"' and table["read_capacity"] >= 1
    assert all(g["read_capacity"] >= 1 for g in table["global_secondary_index"])
    assert table["lifecycle"][0]["ignore_changes"] == ["read_capacity", "write_capacity"]


def test_cli_json_of_a_provisioned_example_carries_every_gsi_capacity() -> None:
    request = json.loads(_export("iot_telemetry", IacFormat.CLI_JSON).code.text)
    assert request["BillingMode"] == "PROVISIONED" and request["ProvisionedThroughput"]["ReadCapacityUnits"] >= 1
    assert all(g["ProvisionedThroughput"]["WriteCapacityUnits"] >= 1 for g in request["GlobalSecondaryIndexes"])


def test_unknown_design_and_bad_headroom_are_refused() -> None:
    with pytest.raises(UnknownDesignError, match="Proposed"):
        _export("chat_messages", IacFormat.CLI_JSON, design_name="Nope")
    with pytest.raises(UsageError, match="headroom"):
        _export("crm_single_table", IacFormat.CLI_JSON, max_capacity_headroom=0.5)


@pytest.mark.parametrize("auto_scaling", [True, False], ids=["auto-scaling", "fixed"])
def test_replica_regions_make_a_global_table_that_passes_cfn_lint(auto_scaling: bool) -> None:
    model = load_example("crm_single_table")
    model = model.model_copy(update={"table": model.table.model_copy(update={
        "replica_regions": ("eu-central-1", "eu-west-1")})})  # the table's own Region listed again: kept once
    result = export_infrastructure(InfrastructureRequest(model, IacFormat.CLOUDFORMATION, auto_scaling=auto_scaling,
                                                         tags=(("team", "sales"),)))
    assert cfn_lint_problems(result.code.text) == []  # also catches YAML aliases (W1101) for shared settings
    resources = _resources(result.code.text)
    # a global table scales itself: no Application Auto Scaling resources (the rest are CloudWatch alarms)
    assert [k for k, r in resources.items() if not r["Type"].startswith("AWS::CloudWatch::")] == ["Table"]
    table = resources["Table"]
    assert table["Type"] == "AWS::DynamoDB::GlobalTable"
    replicas = table["Properties"]["Replicas"]
    assert [r["Region"] for r in replicas] == ["eu-west-1", "eu-central-1"]
    assert all(r["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True} for r in replicas)
    assert {g["IndexName"] for g in replicas[0]["GlobalSecondaryIndexes"]} == {"GSI1", "GSI2"}
    writes = table["Properties"]["WriteProvisionedThroughputSettings"]["WriteCapacityAutoScalingSettings"]
    assert (writes["MinCapacity"] == writes["MaxCapacity"]) is not auto_scaling
    assert table["Properties"]["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
