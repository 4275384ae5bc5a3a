"""`python -m modeling import-table`: a table on a real endpoint (this process's embedded server, reached
over HTTP by the command's own client) written as a valid model; one clear line for a missing table."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from modeling.__main__ import main
from modeling.endpoint.adapter import configured_endpoint, dynamodb_client, embedded_endpoint_url
from modeling.model_file import load_model_file
from tests.cli_runner import CliResult, run_main


def run(*args: str) -> CliResult:
    return run_main(main, ["import-table", *args])


@pytest.fixture
def table() -> Iterator[str]:
    client = dynamodb_client(configured_endpoint({}))
    name = f"cli-import-{uuid.uuid4().hex[:8]}"
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                                   {"AttributeName": "SK", "KeyType": "RANGE"}],
                        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                              {"AttributeName": "SK", "AttributeType": "S"}])
    for n in range(4):
        client.put_item(TableName=name, Item={"PK": {"S": f"DEVICE#d{n}"}, "SK": {"S": f"READING#{n:04d}"},
                                              "deviceId": {"S": f"d{n}"}, "seq": {"N": str(n)},
                                              "celsius": {"N": f"2{n}.5"}})
    yield name
    client.delete_table(TableName=name)


def test_import_table_writes_a_valid_model_and_says_what_it_inferred(table: str, tmp_path: Path) -> None:
    target = tmp_path / "imported.yaml"
    result = run("--table", table, "--endpoint", embedded_endpoint_url(), "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert "inferred: Entity Reading" in result.stderr
    model = load_model_file(target)
    keys = model.key_design.entities[0]
    assert (keys.entity, keys.table.partition_key, keys.table.sort_key) == (
        "Reading", "DEVICE#{deviceId}", "READING#{seq:4}")
    assert model.entity("Reading").attribute("celsius").generator.kind == "float_range"


def test_a_missing_table_is_one_line_without_a_traceback(table: str, tmp_path: Path) -> None:
    typo = table[:-1]  # one character short: the closest name is offered, however many tables the endpoint has
    result = run("--table", typo, "--endpoint", embedded_endpoint_url(), "-o", str(tmp_path / "m.yaml"))
    assert result.returncode == 1 and f"no table {typo!r}" in result.stderr
    assert f"did you mean {table!r}?" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "m.yaml").exists()
