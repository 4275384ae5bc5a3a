"""`python -m costs report`: both formats written from one model file, and clean failures (no traceback)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from costs.__main__ import main
from costs.estimate import EstimateRequest
from modeling.model_file import load_model_file
from studio.estimate import estimate_model
from tests.cli_runner import ROOT, CliResult, run_main

EXAMPLE = ROOT / "modeling" / "examples" / "crm_single_table.yaml"


def run(*args: str) -> CliResult:
    return run_main(main, ["report", *args, "--hot-key-values", "10000"])


@pytest.mark.parametrize("name", ["review.html", "review.md"])
def test_report_writes_the_format_its_suffix_names(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    result = run(str(EXAMPLE), "-o", str(target), "--region", "us-east-1")
    assert result.returncode == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    digest = hashlib.sha256(EXAMPLE.read_bytes()).hexdigest()
    assert digest in text and digest in result.stdout
    best = estimate_model(EstimateRequest(load_model_file(EXAMPLE), region="us-east-1")).cost.recommendation
    assert best is not None
    if name.endswith(".html"):
        assert text.startswith("<!doctype html>") and text.count('class="plotly-graph-div"') == 5
        assert f"<dd>{best.monthly_cost_usd:,f}</dd>" in text and "us-east-1" in text
    else:
        assert text.startswith("# Cost review: CRM (single table)\n") and "<script" not in text
        assert f"**Monthly cost (USD)**: {best.monthly_cost_usd:,f}" in text


def test_format_flag_overrides_the_suffix_and_stdout_gets_markdown(tmp_path: Path) -> None:
    target = tmp_path / "review.txt"
    assert run(str(EXAMPLE), "-o", str(target), "--format", "html").returncode == 0
    assert target.read_text(encoding="utf-8").startswith("<!doctype html>")
    printed = run(str(EXAMPLE))
    assert printed.returncode == 0 and printed.stdout.startswith("# Cost review: CRM (single table)")


def test_a_bad_model_file_lists_its_problems_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    text = EXAMPLE.read_text(encoding="utf-8").replace("region: eu-west-1", "region: mars-1")
    bad.write_text(text.replace("item_count: 1200", "item_count: -5"), encoding="utf-8")
    target = tmp_path / "review.html"
    result = run(str(bad), "-o", str(target))
    assert result.returncode == 1 and not target.exists()
    assert "Traceback" not in result.stderr and "the model file has 2 problem(s)" in result.stderr
    problem_lines = [line for line in result.stderr.splitlines() if line.startswith("  error: ")]
    assert len(problem_lines) == 2 and any("table.region" in line for line in problem_lines)


@pytest.mark.parametrize(("args", "message"), [
    (["missing.yaml", "-o", "r.html"], "cannot read the file"),
    ([str(EXAMPLE), "-o", "r.pdf"], "cannot tell the format"),
    ([str(EXAMPLE), "--design", "Nope", "-o", "r.md"], "choose one of: Your design"),
    ([str(EXAMPLE), "-o", "no-such-folder/r.md"], "cannot write the report"),
], ids=["missing-file", "unknown-suffix", "unknown-design", "unwritable-output"])
def test_bad_input_is_one_clear_error_without_a_traceback(tmp_path: Path, args: list[str], message: str) -> None:
    result = run_main(main, ["report", *args], cwd=tmp_path)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr
