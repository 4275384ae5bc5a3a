"""`python -m modeling import-workbench` and `export-workbench`: files written, notes on stderr, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from modeling.__main__ import main
from modeling.examples import EXAMPLES_DIR
from modeling.interop.nosql_workbench import import_workbench
from modeling.model_file import load_model_file
from tests.cli_runner import CliResult, run_main
from tests.fixture_files import workbench_file


def run(*args: str | Path) -> CliResult:
    return run_main(main, args)


def test_import_writes_the_chosen_table_as_a_valid_model(tmp_path: Path) -> None:
    output = tmp_path / "bank.yaml"
    result = run("import-workbench", workbench_file("BankModel.json"), "--table", "TransactionHistory", "-o", output)
    assert result.returncode == 0, result.stderr
    model = load_model_file(output)
    assert model.table.name == "TransactionHistory"
    assert "PaymentScheduler, TransactionHistory" in result.stderr and "inferred:" in result.stderr


def test_import_of_an_unknown_table_or_a_broken_file_fails_with_a_message(tmp_path: Path) -> None:
    result = run("import-workbench", workbench_file("BankModel.json"), "--table", "Nope", "-o", tmp_path / "x.yaml")
    assert result.returncode == 1 and "choose one of: PaymentScheduler, TransactionHistory" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"DataModel": [', encoding="utf-8")
    result = run("import-workbench", broken, "-o", tmp_path / "x.yaml")
    assert result.returncode == 1 and "JSON syntax error" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.yaml").exists()


def test_export_writes_a_seeded_workbench_file_that_imports_back(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    model = EXAMPLES_DIR / "ecommerce_orders.yaml"
    assert run("export-workbench", model, "-o", first, "--seed", "5", "--items", "3").returncode == 0
    result = run("export-workbench", model, "-o", second, "--seed", "5", "--items", "3")
    assert result.returncode == 0 and "access patterns" in result.stderr
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["DataModel"] == b["DataModel"] and a["ModelMetadata"]["Version"] == "3.0"
    back = import_workbench(first.read_bytes()).model
    assert [e.name for e in back.entities] == [e.name for e in load_model_file(model).entities]


def test_export_refuses_bad_arguments_and_invalid_models(tmp_path: Path) -> None:
    model = EXAMPLES_DIR / "ecommerce_orders.yaml"
    assert run("export-workbench", model, "-o", tmp_path / "x.json", "--items", "-1").returncode == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: dynamodb-design-studio/model\nversion: 1\nname: x\n", encoding="utf-8")
    result = run("export-workbench", bad, "-o", tmp_path / "x.json")
    assert result.returncode == 1 and "`table` is missing" in result.stderr
