"""One CreateTable builder: the preview table made on the real endpoint and the exported infrastructure as
code describe the same key attributes, key schemas, indexes, projections and billing mode."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from modeling.endpoint.adapter import Endpoint
from modeling.interop.iac_request import uniform_capacity
from modeling.interop.infrastructure import IacFormat, infrastructure_code
from modeling.model import KeyAttribute, KeyDesign, Model, Projection, SecondaryIndex
from modeling.preview.session import PreviewSetup
from modeling.preview.tables import create_preview_table, delete_preview_table


def _shape(request: dict[str, Any]) -> dict[str, Any]:
    """What a table is, from a CreateTable request, a CloudFormation table or a DescribeTable answer."""
    def keys(schema: list[dict[str, str]]) -> list[tuple[str, str]]:
        return [(k["AttributeName"], k["KeyType"]) for k in schema]

    def index(body: dict[str, Any]) -> tuple[Any, ...]:
        projection = body["Projection"]
        return (keys(body["KeySchema"]), projection["ProjectionType"], sorted(projection.get("NonKeyAttributes", [])),
                "ProvisionedThroughput" in body and bool(body["ProvisionedThroughput"].get("ReadCapacityUnits")))

    billing = request.get("BillingMode") or request.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED")
    return {"attributes": sorted((a["AttributeName"], a["AttributeType"]) for a in request["AttributeDefinitions"]),
            "keys": keys(request["KeySchema"]), "billing": billing,
            "gsis": {i["IndexName"]: index(i) for i in request.get("GlobalSecondaryIndexes", [])},
            "lsis": {i["IndexName"]: index(i)[:3] for i in request.get("LocalSecondaryIndexes", [])}}


def _with_an_lsi(setup: PreviewSetup) -> tuple[Model, KeyDesign]:
    """The example's design plus a KEYS_ONLY LSI, so all three projection kinds and both index kinds appear."""
    design = setup.design.key_design
    lsi = SecondaryIndex(name="ByCreated", partition_key=design.partition_key,
                         sort_key=KeyAttribute(name="LSI1SK", type="S"), projection=Projection(type="KEYS_ONLY"))
    return setup.model, design.model_copy(update={"local_secondary_indexes": (lsi,)})


@pytest.mark.parametrize("example", ["crm_single_table", "student_platform_mistakes"])  # provisioned; on demand
def test_the_preview_table_and_the_exported_code_describe_the_same_table(
        make_setup: Any, client: Any, endpoint: Endpoint, example: str) -> None:
    setup = make_setup(example)
    model, design = _with_an_lsi(setup)
    create_preview_table(client, setup.table, model.table, design, setup.owner)
    try:
        described = client.describe_table(TableName=setup.table.name)["Table"]
    finally:
        delete_preview_table(client, setup.table, setup.owner)
    capacity = uniform_capacity(design, 5)  # the export's units differ from the preview's; the shape must not
    cli = json.loads(infrastructure_code(model, design, IacFormat.CLI_JSON, capacity).text)
    cloudformation = yaml.safe_load(infrastructure_code(model, design, IacFormat.CLOUDFORMATION, capacity).text)
    table = cloudformation["Resources"]["Table"]["Properties"]
    assert _shape(described) == _shape(cli) == _shape(table)
    shape = _shape(cli)
    # written by hand from the design: the LSI keeps the table's partition key, KEYS_ONLY, no capacity of its own
    assert shape["lsis"] == {"ByCreated": ([(design.partition_key.name, "HASH"), ("LSI1SK", "RANGE")],
                                           "KEYS_ONLY", [])}
    assert set(shape["gsis"]) == {i.name for i in design.global_secondary_indexes}
    provisioned = model.table.billing_mode == "PROVISIONED"
    assert shape["billing"] == model.table.billing_mode
    assert all(g[3] is provisioned for g in shape["gsis"].values())  # each GSI has capacity exactly when provisioned
