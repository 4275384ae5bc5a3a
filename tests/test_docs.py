"""The docs stay true: the JSON Schema file matches the types, every field is documented, examples work."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


def test_the_readme_counts_the_lessons_there_are() -> None:
    from workshop.lessons import LESSONS

    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    said = re.search(r"\*\*Lessons page\*\*[^:]*: (\w+) short guided lessons", readme)
    assert said is not None and said.group(1) == words[len(LESSONS)], (said and said.group(1), len(LESSONS))
