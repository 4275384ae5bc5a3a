"""A few real `python -m ...` runs: the entry points start, exit with the right status and never print a
traceback. Everything else about the command lines is tested in-process through `main(argv)`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from modeling.examples import EXAMPLES_DIR

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          check=False)


def test_modeling_validates_an_example_and_exits_0() -> None:
    path = EXAMPLES_DIR / "chat_messages.yaml"
    result = run("-m", "modeling", "validate", str(path))
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{path}: ok\n", "")


def test_modeling_rejects_a_bad_file_with_exit_1_and_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: dynamodb-design-studio/model\nversion: 1\nname: x\n", encoding="utf-8")
    result = run("-m", "modeling", "validate", str(bad))
    assert result.returncode == 1 and "`table` is missing" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_costs_prints_json_and_a_usage_error_is_one_line() -> None:
    # "id" (2) + "A1" (2) + "n" (1) + 101 (3) = 8 bytes (dynamodb-rules §6)
    result = run("-m", "costs", "item-size", '{"id": {"S": "A1"}, "n": {"N": "101"}}')
    assert result.returncode == 0 and json.loads(result.stdout) == {"bytes": 8}
    usage = run("-m", "costs", "units", "--operation", "GetItems", "--item-bytes", "1")
    assert usage.returncode == 2 and len(usage.stderr.strip().splitlines()) == 1


def test_costs_estimate_gates_a_launch_on_budget_with_exit_3() -> None:
    result = run("-m", "costs", "estimate", str(EXAMPLES_DIR / "chat_messages.yaml"), "--budget-usd", "10")
    assert result.returncode == 3 and "over budget" in result.stderr


def test_dds_runs_as_a_module_and_hands_help_to_the_subcommand() -> None:
    result = run("-m", "dds", "estimate", "--help")
    assert result.returncode == 0 and "--budget-usd" in result.stdout
