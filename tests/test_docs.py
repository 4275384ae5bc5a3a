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


# --- the rules live in the repository (issue 29 item 5) ---------------------------------------------------------

RULES_DOC = ROOT / "docs" / "dynamodb-rules.md"
# Spelled in pieces so this file does not match itself.
FORBIDDEN = ("dynamodb-" + "facts", "../" + "shared", "shared " + "stack-notes", "(stack-" + "notes §",
             "landscape" + ".md", "STYLE" + ".md")
SKIPPED_DIRS = {".git", ".venv", "__pycache__", "node_modules", "site", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                ".hypothesis"}
CITATION = re.compile(r"dynamodb-rules(?:\.md)?((?:[^\n§]{0,12}§\s?\d+(?:\.\d+)?(?:\s?-\s?§?\d+(?:\.\d+)?)?)+)")
SECTION = re.compile(r"§\s?(\d+(?:\.\d+)?)(?:\s?-\s?§?(\d+(?:\.\d+)?))?")


def _repository_texts() -> dict[str, str]:
    texts = {}
    for directory, subdirectories, files in os.walk(ROOT):
        subdirectories[:] = [d for d in subdirectories if d not in SKIPPED_DIRS]
        for name in files:
            path = Path(directory) / name
            data = path.read_bytes()
            if b"\0" not in data:
                texts[path.relative_to(ROOT).as_posix()] = data.decode("utf-8", errors="replace")
    return texts


def _rules_headings() -> set[str]:
    text = RULES_DOC.read_text(encoding="utf-8")
    return {m.group(1) for m in re.finditer(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", text, re.M)}


def _cited_sections(text: str) -> set[str]:
    """Every section a `dynamodb-rules §N` citation names, a range (`§9.2-9.4`) by both ends."""
    cited = set()
    for citation in CITATION.finditer(text):
        for section in SECTION.finditer(citation.group(1)):
            cited.update(s for s in section.groups() if s)
    return cited


def test_no_file_points_outside_the_repository() -> None:
    found = sorted(f"{path}: {word}" for path, text in _repository_texts().items() for word in FORBIDDEN
                   if word in text)
    assert not found, f"cite docs/dynamodb-rules.md (or AWS's page) instead: {found}"


def test_the_citation_reader_finds_sections_and_ranges() -> None:
    # a citation can name several sections, a range, and the `.md` form; other files' sections are not read
    text = "x (dynamodb-rules §1.2, §2, §4.1) y `docs/dynamodb-rules.md` §9.2-9.4; other-notes.md §4.3"
    assert _cited_sections(text) == {"1.2", "2", "4.1", "9.2", "9.4"}


def test_every_cited_rules_section_is_a_heading() -> None:
    headings = _rules_headings()
    # the sections the code leans on most must be there, numbered as they are cited
    assert {"0.2", "1.1", "1.2", "2", "4.1", "4.2", "5", "6", "7.1", "8", "9.2", "13", "15"} <= headings
    missing = sorted(f"{path}: §{section}" for path, text in _repository_texts().items()
                     for section in _cited_sections(text) if section not in headings)
    assert not missing, f"these sections are cited but docs/dynamodb-rules.md has no such heading: {missing}"
    assert sum(len(_cited_sections(text)) > 0 for text in _repository_texts().values()) > 50


def test_the_rules_page_cites_aws_for_every_numbered_section() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    unsourced = [p.split("\n", 1)[0] for p in parts if "https://" not in p and not p.startswith("0. ")]
    assert not unsourced, f"name AWS's page for these sections: {unsourced}"


def test_every_cited_stack_note_is_a_section() -> None:
    # `docs/stack-notes.md §N` (what moto, Streamlit and Chromium do here) replaced the shared notes a clone lacks
    headings = set(re.findall(r"^## §(\d+) ", (ROOT / "docs" / "stack-notes.md").read_text(encoding="utf-8"), re.M))
    cited = {(path, n) for path, text in _repository_texts().items()
             for n in re.findall(r"stack-notes\.md §(\d+)", text)}
    assert cited and {n for _, n in cited} <= headings, sorted(c for c in cited if c[1] not in headings)
