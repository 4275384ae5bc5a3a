"""`migrate`: one file is the format upgrade (not yet needed, unchanged); OLD NEW gives the changes (modeling)
and the priced plan (costs, dds), with the migration script on request. Never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from costs.__main__ import main as costs_main
from dds.cli import main as dds_main
from modeling.__main__ import main as modeling_main
from tests.cli_runner import run_main
from tests.evolution_models import library_document, with_loans_by_book


def _files(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(library_document()), encoding="utf-8")
    new.write_text(json.dumps(with_loans_by_book()), encoding="utf-8")
    return old, new


def test_one_file_is_still_the_format_upgrade_that_is_not_needed_yet(tmp_path: Path) -> None:
    old, _ = _files(tmp_path)
    for main in (dds_main, modeling_main):
        result = run_main(main, ["migrate", old])
        assert result.returncode == 2 and "not yet available" in result.stderr and result.stdout == ""


def test_modeling_migrate_lists_every_change_with_what_it_needs(tmp_path: Path) -> None:
    old, new = _files(tmp_path)
    text = run_main(modeling_main, ["migrate", old, new])
    assert text.returncode == 0 and "needs a backfill: key_template added key_design.entities[Loan]" in text.stdout
    document = json.loads(run_main(modeling_main, ["migrate", old, new, "--format", "json"]).stdout)
    assert document["overall"] == "backfill" and len(document["changes"]) == 3


def test_the_priced_plan_as_markdown_and_json_and_the_script(tmp_path: Path) -> None:
    old, new = _files(tmp_path)
    plan = run_main(dds_main, ["migrate", old, new, "--rate", "100"])
    assert plan.returncode == 0 and plan.stdout.startswith("# Migration plan") and "100 items/s" in plan.stdout
    script = tmp_path / "migrate_library.py"
    result = run_main(costs_main, ["migrate", old, new, "--format", "json", "--script", script])
    assert result.returncode == 0 and json.loads(result.stdout)["mode"] == "backfill"
    source = script.read_text(encoding="utf-8")
    compile(source, str(script), "exec")  # a valid Python file
    assert "script_main(SPEC" in source and "--confirm" in source


def test_bad_input_is_one_line_never_a_traceback(tmp_path: Path) -> None:
    old, new = _files(tmp_path)
    fill = run_main(costs_main, ["migrate", old, new, "--fill", "Loan.nothing=1"])
    assert fill.returncode == 1 and "no attribute 'nothing'" in fill.stderr and "Traceback" not in fill.stderr
    design = run_main(costs_main, ["migrate", old, new, "--new-design", "nope"])
    assert design.returncode == 1 and "choose one of" in design.stderr
    missing = run_main(costs_main, ["migrate", old, tmp_path / "absent.yaml"])
    assert missing.returncode == 1 and "Traceback" not in missing.stderr


def test_the_docs_show_the_plan_the_command_prints_for_the_student_platform() -> None:
    from tests.cli_runner import ROOT

    docs = (ROOT / "docs" / "migrations.md").read_text(encoding="utf-8")
    plan = run_main(dds_main, ["migrate", ROOT / "modeling/examples/student_platform.yaml",
                               ROOT / "docs/examples/student_platform_school_year.yaml",
                               "--fill", "Student.schoolYear=2026"]).stdout
    for line in plan.splitlines():
        if line.startswith(("| One-time capacity", "| 3 |", "- Units:", "- Writes (WRU)")):
            assert line in docs, f"docs/migrations.md is out of date: regenerate the example plan ({line})"


def test_rehearse_runs_the_plan_on_the_embedded_endpoint_and_says_how_it_went(tmp_path: Path) -> None:
    old, new = _files(tmp_path)
    result = run_main(costs_main, ["migrate", old, new, "--rehearse", "--items", "40", "-o", tmp_path / "plan.md"])
    assert result.returncode == 0, result.stderr
    assert "rehearsal (backfill): passed" in result.stderr
    assert "0 lost, 0 doubled" in result.stderr and "4 of 4" in result.stderr


def test_two_designs_of_one_model(tmp_path: Path) -> None:
    from costs.design_ranking import propose
    from modeling.examples import EXAMPLES_DIR
    from modeling.model_file import load_model_file

    path = EXAMPLES_DIR / "ecommerce_orders.yaml"  # chat_messages has one design free of errors (issue 28.4)
    names = [d.name for d in propose(load_model_file(path))]  # the names the command knows
    assert len(names) >= 2
    result = run_main(costs_main, ["migrate", path, path, "--old-design", names[0], "--new-design", names[1],
                                   "--format", "json"])
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["changes"] and all(c["path"].startswith("key_design.") for c in document["changes"])
