"""One design engine answers "what design?" everywhere (issue 28, item 1).

For every built-in example and every expert model, the design each caller opens on is the same design, under
the same name: `dds design --format json`'s first (run in-process), the Layout page's default (the first of
the designs its picker offers, laid out by the function the page calls), the workshop's pick for a lesson
document (`workshop.roles.document_design`) and the design the cost-review report prices. Before the fix the
CLI and the workshop used the rule-based generator while the pages and the report used the search's
ranking: on E-commerce orders the CLI said "Item collections" with 2 GSIs and the pages "Proposed" with 4.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from costs.estimate import EstimateRequest
from dds.cli import main as dds_main
from modeling.design.plans import TABLE
from modeling.examples import EXAMPLES_DIR
from modeling.model_file import read_document_file
from studio.interop import remembered_workbench_download, workbench_download
from studio.reports.review_report import ReviewRequest, build_review_report, load_reviewed_model
from tests.cli_runner import run_main
from tests.expert_models.comparison import EXPERT_MODELS_DIR
from tests.golden_files import assert_matches_golden
from ui import layout_views
from workshop.roles import document_design

EXAMPLE_FILES = sorted(EXAMPLES_DIR.glob("*.yaml"))
EXPERT_FILES = sorted(EXPERT_MODELS_DIR.glob("*/*.yaml"))  # model.yaml (no design) and expert.yaml (its own)
REPORT_HOT_KEY_VALUES = 1_000  # the report's hot-partition simulation does not choose the design: keep it small


@dataclass(frozen=True)
class Answer:
    """A caller's design, as it names it and as the key design it builds."""

    caller: str
    name: str
    key_design: dict[str, Any]


def _key_design(design: Any) -> dict[str, Any]:
    return design.key_design.model_dump(mode="json", exclude_defaults=True)  # as `dds design --format json` writes


def cli_answer(path: Path) -> Answer:
    result = run_main(dds_main, ["design", path, "--format", "json"])
    assert result.returncode == 0, result.stderr
    first = json.loads(result.stdout)[0]
    return Answer("dds design", first["name"], first["key_design"])


def layout_answer(path: Path) -> Answer:
    model_json = load_reviewed_model(path)[0].model_dump_json()
    offered = layout_views.design_names(model_json)  # the page's picker; its default is the first
    shown = layout_views.cached_layout(model_json, offered[0], TABLE, 4, 42).design
    assert shown.name == offered[0]
    return Answer("Layout page", shown.name, _key_design(shown))


def workshop_answer(path: Path) -> Answer:
    design = document_design(read_document_file(path))
    return Answer("workshop", design.name, _key_design(design))


def report_answer(path: Path) -> Answer:
    model, source = load_reviewed_model(path)
    report = build_review_report(ReviewRequest(EstimateRequest(model), source, datetime(2026, 1, 1, tzinfo=UTC),
                                               hot_key_values=REPORT_HOT_KEY_VALUES))
    named = dict(report.header.pairs)["Design priced"]
    assert named == report.estimate.design.name
    return Answer("report", named, _key_design(report.estimate.design))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_dds_design_json_matches_its_reviewed_golden_file(path: Path, update_golden: bool) -> None:
    """What `dds design --format json` prints: the ranking every page shows (tests/golden/designs)."""
    result = run_main(dds_main, ["design", path, "--format", "json"])
    assert result.returncode == 0, result.stderr
    assert_matches_golden(f"designs/{path.stem}.json", result.stdout, update_golden)


def _file_id(path: Path) -> str:
    return str(path.relative_to(path.parents[1]))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=_file_id)
def test_every_caller_opens_an_example_on_the_same_design(path: Path) -> None:
    _assert_one_answer(path)


@pytest.mark.parametrize("path", EXPERT_FILES, ids=_file_id)
def test_every_caller_opens_an_expert_model_on_the_same_design(path: Path) -> None:
    _assert_one_answer(path)


def _assert_one_answer(path: Path) -> None:
    answers = [cli_answer(path), layout_answer(path), workshop_answer(path), report_answer(path)]
    names = {a.caller: a.name for a in answers}
    assert len(set(names.values())) == 1, f"{path.name}: the callers name different designs: {names}"
    for answer in answers[1:]:
        assert answer.key_design == answers[0].key_design, (
            f"{path.name}: {answer.caller}'s '{answer.name}' is not the design `dds design` proposes")


def test_dds_design_says_on_stderr_how_good_the_search_answer_is() -> None:
    """stdout stays the designs (JSON a program can parse); stderr says the search proved its answer optimal."""
    result = run_main(dds_main, ["design", EXAMPLE_FILES[0], "--format", "json"])
    assert result.returncode == 0
    json.loads(result.stdout)
    assert "Search: optimal within its space of" in result.stderr


@pytest.mark.parametrize("path", [*EXAMPLE_FILES, *EXPERT_FILES[:6]], ids=_file_id)
def test_the_model_pages_workbench_download_is_keyed_like_dds_export(path: Path, tmp_path: Path) -> None:
    """The Model page's "Download NoSQL Workbench JSON" and `dds export --format workbench` write the same table,
    keys, indexes and items (the page once keyed the file by the rule-based generator's design, which on
    E-commerce orders is not the one every other page shows). Only the file's dates may differ."""
    written = tmp_path / "cli.json"
    result = run_main(dds_main, ["export", path, "--format", "workbench", "-o", written, "--seed", "7",
                                 "--items", "2"])
    assert result.returncode == 0, result.stderr
    model = load_reviewed_model(path)[0]
    download = workbench_download(model, 7, 2)
    assert download.error == ""
    page, cli = json.loads(download.text), json.loads(written.read_text(encoding="utf-8"))
    assert page["DataModel"] == cli["DataModel"]
    assert remembered_workbench_download(model, 7, 2) == download  # what the page shows the notes of
