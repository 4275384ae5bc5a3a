"""`dds`: every subcommand is documented in docs/cli.md and reaches the command line that does the work."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from dds.cli import SUBCOMMANDS, main
from modeling.examples import EXAMPLES_DIR
from modeling.model_file import load_model_file
from tests.cli_runner import ROOT, run_main
from tests.fixture_files import workbench_file

CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
ALL_DOCS = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
CHAT = EXAMPLES_DIR / "chat_messages.yaml"


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_subcommand_is_documented_on_the_command_line_page(name: str) -> None:
    assert re.search(rf"`dds {name}\b", CLI_DOC), f"document `dds {name}` in docs/cli.md"


def test_the_docs_document_no_subcommand_that_does_not_exist() -> None:
    documented = set(re.findall(r"`dds ([a-z][a-z-]*)", ALL_DOCS))
    assert documented <= set(SUBCOMMANDS)


def test_pyproject_installs_the_dds_command() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # run, not main: the console script must end quietly when its reader goes away (tests/test_cli_pipes.py)
    assert project["scripts"] == {"dds": "dds.cli:run"}


def test_validate_design_and_check_reach_the_command_lines_that_do_the_work() -> None:
    assert run_main(main, ["validate", CHAT]).stdout == f"{CHAT}: ok\n"
    designs = json.loads(run_main(main, ["design", CHAT, "--format", "json"]).stdout)
    assert designs[0]["name"] == "Proposed"  # the ranking's name, as on every page
    assert json.loads(run_main(main, ["check", CHAT, "--format", "json"]).stdout)["design"] == "Proposed"


def test_estimate_keeps_the_budget_gate_exit_status() -> None:
    result = run_main(main, ["estimate", CHAT, "--budget-usd", "10"])
    assert result.returncode == 3 and "over budget" in result.stderr


def test_export_writes_infrastructure_or_a_workbench_file_by_format(tmp_path: Path) -> None:
    request = json.loads(run_main(main, ["export", CHAT, "--format", "cli-json"]).stdout)
    assert request["TableName"] and request["KeySchema"]
    target = tmp_path / "chat.json"
    assert run_main(main, ["export", CHAT, "--format=workbench", "-o", target, "--items", "2"]).returncode == 0
    assert json.loads(target.read_text(encoding="utf-8"))["ModelMetadata"]["Version"] == "3.0"


def test_import_workbench_writes_a_model_and_import_without_a_source_says_what_to_name(tmp_path: Path) -> None:
    target = tmp_path / "bank.yaml"
    result = run_main(main, ["import", "workbench", workbench_file("BankModel.json"), "--table",
                             "TransactionHistory", "-o", target])
    assert result.returncode == 0, result.stderr
    assert load_model_file(target).entities
    missing = run_main(main, ["import"])
    assert missing.returncode == 2 and "dds import workbench FILE" in missing.stderr


def test_migrate_says_plainly_that_it_is_not_available_yet() -> None:
    result = run_main(main, ["migrate", CHAT])
    assert result.returncode == 2 and "not yet available" in result.stderr and result.stdout == ""


def test_examples_and_schema() -> None:
    slugs = [line.split("\t")[0] for line in run_main(main, ["examples"]).stdout.splitlines()]
    assert "chat_messages" in slugs
    assert "properties" in json.loads(run_main(main, ["schema"]).stdout)


def test_an_unknown_subcommand_is_a_usage_error_listing_the_real_ones() -> None:
    result = run_main(main, ["nope"])
    assert result.returncode == 2 and "serve" in result.stderr and "Traceback" not in result.stderr


def test_loadtest_reaches_the_costs_command_line(tmp_path: Path) -> None:
    target = tmp_path / "loadtest.mjs"
    result = run_main(main, ["loadtest", CHAT, "--format", "k6", "-o", target])
    assert result.returncode == 0, result.stderr
    assert "export default function" in target.read_text(encoding="utf-8")
