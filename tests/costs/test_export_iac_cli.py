"""`python -m costs export-iac`: files that cfn-lint and python-hcl2 accept, notes on stderr, clear errors."""

from __future__ import annotations

from pathlib import Path

import hcl2

from costs.__main__ import main
from modeling.examples import EXAMPLES_DIR
from tests.cli_runner import CliResult, run_main
from tests.modeling.test_infrastructure import cfn_lint_problems

CRM = str(EXAMPLES_DIR / "crm_single_table.yaml")


def run(*args: str) -> CliResult:
    return run_main(main, ["export-iac", *args])


def test_cloudformation_file_of_a_provisioned_model_passes_cfn_lint(tmp_path: Path) -> None:
    target = tmp_path / "template.yaml"
    result = run(CRM, "--format", "cloudformation", "-o", str(target), "--tag", "team=sales")
    assert result.returncode == 0, result.stderr
    assert "wrote CloudFormation (YAML)" in result.stdout
    assert "note: Capacities come from the cost engine" in result.stderr
    text = target.read_text(encoding="utf-8")
    assert "AWS::ApplicationAutoScaling::ScalingPolicy" in text and cfn_lint_problems(text) == []


def test_terraform_on_standard_output_with_fixed_capacity() -> None:
    result = run(CRM, "--format", "terraform", "--fixed-capacity")
    assert result.returncode == 0, result.stderr
    parsed = hcl2.loads(result.stdout)
    kinds = [kind for resource in parsed["resource"] for kind in resource if "cloudwatch" not in kind]
    assert kinds == ['"aws_dynamodb_table"'] and "fixed capacity" in result.stderr


def test_bad_input_is_one_line_on_stderr_never_a_traceback(tmp_path: Path) -> None:
    cases = [([CRM, "--format", "pulumi"], 2, "unknown format"),
             ([str(tmp_path / "missing.yaml"), "--format", "cli-json"], 1, "cannot read the file"),
             ([CRM, "--format", "cli-json", "--tag", "aws:owner=me"], 1, "not allowed"),
             ([CRM, "--format", "cli-json", "--design", "Nope"], 1, "no design of that name"),
             ([CRM, "--format", "cli-json", "-o", str(tmp_path / "no-dir" / "x.json")], 1, "cannot write")]
    for args, code, words in cases:
        result = run(*args)
        assert result.returncode == code and words in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
