"""The docs stay true: the JSON Schema file matches the types, every field is documented, examples work, the CLI
reference is what the parsers print, and the site builds with no broken link."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from modeling.model_file import document_problems, parse_document
from modeling.schema import model_json_schema

ROOT = Path(__file__).resolve().parents[1]
FORMAT_DOC = (ROOT / "docs" / "model-format.md").read_text(encoding="utf-8")


def test_schema_file_matches_the_types() -> None:
    committed = json.loads((ROOT / "docs" / "model.schema.json").read_text(encoding="utf-8"))
    assert committed == model_json_schema(), "run: python -m modeling schema > docs/model.schema.json"


def test_every_field_and_enum_value_is_documented() -> None:
    schema = model_json_schema()
    missing = set()
    for definition in [schema, *schema["$defs"].values()]:
        for name in [*definition.get("properties", {}), *definition.get("enum", [])]:
            if f"`{name}`" not in FORMAT_DOC:
                missing.add(name)
    assert not missing, f"document these in docs/model-format.md: {sorted(missing)}"


def test_the_minimal_model_in_the_docs_is_valid() -> None:
    block = re.search(r"## A minimal model\s+```yaml\n(.*?)```", FORMAT_DOC, re.S)
    assert block is not None
    assert document_problems(parse_document(block.group(1).encode(), "minimal.yaml")) == []


def test_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in readme and ".venv/bin/python -m pytest" in ci


def test_every_design_check_is_documented_with_its_title() -> None:
    from modeling.design.checks import CHECKS

    text = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    missing = [i for i, c in CHECKS.items() if f"## {i} · {c.title}" not in text]
    assert not missing, f"add these checks to docs/checks.md: {missing}"


def test_the_workshop_page_counts_the_lessons_there_are() -> None:
    from workshop.lessons import LESSONS

    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    page = (ROOT / "docs" / "workshops.md").read_text(encoding="utf-8")
    said = re.search(r"\*\*Lessons page\*\*[^:]*: (\w+) short guided lessons", page)
    assert said is not None and said.group(1) == words[len(LESSONS)], (said and said.group(1), len(LESSONS))


def test_the_cli_reference_is_what_the_parsers_print_now() -> None:
    from dds.cli_reference import REGENERATE, render

    committed = (ROOT / "docs" / "cli-reference.md").read_text(encoding="utf-8")
    assert committed == render(), f"docs/cli-reference.md is out of date with the parsers; run: {REGENERATE}"


def test_the_cli_reference_shows_the_options_of_every_subcommand_but_serve() -> None:
    from dds.cli import SUBCOMMANDS

    page = (ROOT / "docs" / "cli-reference.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## `dds ([a-z-]+)`\n(.*?)(?=^## )", page, re.S | re.M))
    assert sorted(sections) == sorted(SUBCOMMANDS)
    without_usage = [name for name, text in sections.items() if "usage: " not in text]
    assert without_usage == ["serve"]  # serve hands every option to `streamlit run`
    # one option per command line that does the work, as its parser defines it
    assert "--budget-usd N" in sections["estimate"] and "--sample-items N" in sections["import"]
    assert "--offer-file FILE" in sections["prices"] and "--rehearse" in sections["migrate"]


def _mkdocs_build(config: Path, site: Path) -> dict[str, Any]:
    """subprocess.run's arguments for CI's strict build (.ci/run) into `site`; never with -q, which stops MkDocs 1.6
    counting warnings (the test body names subprocess, so tests/conftest.py puts the test in the slow tier)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)]
    return {"args": command, "capture_output": True, "text": True, "check": False,
            "env": {**os.environ, "NO_MKDOCS_2_WARNING": "1"}}


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    result = subprocess.run(**_mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "cli-reference" / "index.html").is_file()


def test_a_broken_anchor_fails_the_strict_build(tmp_path: Path) -> None:
    for name in ("mkdocs.yml", "CONTRIBUTING.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    with (tmp_path / "docs" / "cli.md").open("a", encoding="utf-8") as page:
        page.write("\nSee [the lessons](workshops.md#no-such-section).\n")
    result = subprocess.run(**_mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site"))
    assert result.returncode == 1
    assert "does not contain an anchor '#no-such-section'" in result.stderr
