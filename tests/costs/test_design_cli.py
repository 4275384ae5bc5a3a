"""`dds design` / `dds check` (`python -m costs design|check`): Markdown and JSON output, --write, and clear
errors; the designs are the ranking every page shows (`studio.design.propose`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from costs.__main__ import main
from modeling.__main__ import main as modeling_main
from modeling.examples import EXAMPLES_DIR
from modeling.model_file import load_model_file
from tests.cli_runner import CliResult, run_main


def run(*args: str) -> CliResult:
    return run_main(main, args)


def test_design_prints_the_charts_as_markdown() -> None:
    result = run("design", str(EXAMPLES_DIR / "chat_messages.yaml"))
    assert result.returncode == 0
    # Members keyed by user with GSI1 inverting them, or by room with GSI1 inverting them: the two mirrors cost
    # the same, and the ranking's tie-break picks the first; either way one list pattern is a Query on GSI1
    assert "### Entity chart" in result.stdout and "| list_members_by_room | Query | GSI1 |" in result.stdout


def test_design_json_lists_each_candidate_with_its_figures() -> None:
    designs = json.loads(run("design", str(EXAMPLES_DIR / "ecommerce_orders.yaml"), "--format", "json").stdout)
    assert [d["name"] for d in designs] == ["Proposed", "Fewer GSIs"]  # the ranking's, as on the Layout page
    assert all(d["figures"]["scans"] == 0 for d in designs)


def test_write_puts_the_first_design_into_the_model(tmp_path: Path) -> None:
    target = tmp_path / "chat.yaml"
    shutil.copy(EXAMPLES_DIR / "chat_messages.yaml", target)
    assert run("design", str(target), "--write").returncode == 0
    model = load_model_file(target)
    assert model.key_design is not None and {k.entity for k in model.key_design.entities} == {
        "Room", "Member", "Message"}


def test_an_invalid_model_gets_its_problems_and_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: dynamodb-design-studio/model\nversion: 1\nname: x\n", encoding="utf-8")
    result = run("design", str(bad))
    assert result.returncode == 1 and "`table` is missing" in result.stderr and "Traceback" not in result.stderr


def test_check_exits_non_zero_on_error_findings_and_names_them() -> None:
    result = run("check", str(EXAMPLES_DIR / "student_platform_mistakes.yaml"))
    assert result.returncode == 1
    assert "DDS101 key_design.entities[Student].indexes[GSI1].partition_key" in result.stdout
    assert "DDS201 access_patterns[get_transfer_parties_by_ids]" in result.stdout


def test_check_json_is_quiet_about_errors_on_a_generated_design() -> None:
    result = run("check", str(EXAMPLES_DIR / "chat_messages.yaml"), "--format", "json")
    report = json.loads(result.stdout)
    assert result.returncode == 0 and report["design"] == "Proposed"
    assert all(f["severity"] != "error" for f in report["findings"])


def test_check_of_an_unknown_design_name_is_a_usage_error() -> None:
    result = run("check", str(EXAMPLES_DIR / "chat_messages.yaml"), "--design", "Nope")
    assert result.returncode == 2 and "Proposed" in result.stderr


def test_the_modeling_alias_says_where_design_and_check_moved() -> None:
    """`python -m modeling design` cannot rank designs (modeling never imports costs): it points to the command
    that shows the pages' designs instead of answering with other ones."""
    for command in ("design", "check"):
        result = run_main(modeling_main, [command, EXAMPLES_DIR / "chat_messages.yaml", "--format", "json"])
        assert result.returncode == 2 and f"`dds {command}`" in result.stderr and result.stdout == ""


def test_design_and_check_say_why_when_no_candidate_passes_the_checks(tmp_path: Path, monkeypatch) -> None:
    """Issue 28.4: every candidate returning other entities' items is refused, in one line, not offered."""
    from modeling.design import proposal
    from modeling.design.checks.catalogue import finding
    from modeling.model_file import FileFormat, dump_document, model_to_document
    from tests.modeling.exact_models import books_model

    def always_wrong(model: object, design: object) -> list:
        return [finding("DDS206", "access_patterns[list_titles_by_isbn]", "the Query returns the Book item too",
                        pattern="list_titles_by_isbn")]
    monkeypatch.setattr(proposal, "check_design", always_wrong)
    path = tmp_path / "books.yaml"
    model = books_model().model_copy(update={"name": "Books refused by the CLI"})  # its own memo entry
    path.write_text(dump_document(model_to_document(model), FileFormat.YAML), encoding="utf-8")
    for command in ("design", "check"):
        result = run(command, str(path))
        assert result.returncode == 1 and result.stdout == ""
        assert "No design is proposed" in result.stderr and "returns the Book item too" in result.stderr
        assert "Traceback" not in result.stderr
