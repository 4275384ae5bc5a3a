"""Every bad model file in `bad_files/` is rejected with each expected problem at its readable path.

`bad_files/expected.yaml` lists, per file, the problems validating it must report (all of them, in one
pass); the command line must report them too, with exit status 1 and never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from modeling.__main__ import main
from modeling.errors import ModelFileError, Problem, Severity
from modeling.model_file import MAX_FILE_BYTES, document_problems, model_from_document, parse_document
from tests.cli_runner import CliResult, run_main

BAD_FILES = Path(__file__).with_name("bad_files")
EXPECTED_FILE = BAD_FILES / "expected.yaml"
EXPECTED: dict[str, list[dict[str, str]]] = yaml.safe_load(EXPECTED_FILE.read_text(encoding="utf-8"))
MANY_PROBLEMS = ("many_value_problems.yaml", "many_reference_problems.yaml")

KNOWN_BUGS: dict[str, str] = {}


def corpus() -> list[Any]:
    return [pytest.param(name, id=name, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[name])]
                         if name in KNOWN_BUGS else []) for name in sorted(EXPECTED)]


def problems_of(data: bytes, filename: str) -> list[Problem]:
    """What loading reports: file problems, or else every problem of the document."""
    try:
        return document_problems(parse_document(data, filename))
    except ModelFileError as exc:
        return exc.problems


def reported(expected: dict[str, str], problems: list[Problem]) -> bool:
    return any(p.severity is Severity.ERROR and p.path == expected["path"]
               and expected["contains"] in p.message and expected.get("suggestion", "") in p.suggestion
               for p in problems)


def run_validate(path: Path) -> CliResult:
    """`python -m modeling validate FILE`, called in this process (tests/test_cli_smoke.py starts the real one)."""
    return run_main(main, ["validate", path])


def test_corpus_and_expectations_list_the_same_files() -> None:
    on_disk = {path.name for path in BAD_FILES.iterdir()} - {EXPECTED_FILE.name}
    assert on_disk == set(EXPECTED)
    assert all(EXPECTED.values()), "every bad file expects at least one problem"


@pytest.mark.parametrize("name", corpus())
def test_loading_a_bad_file_reports_every_expected_problem(name: str) -> None:
    problems = problems_of((BAD_FILES / name).read_bytes(), name)
    missing = [e for e in EXPECTED[name] if not reported(e, problems)]
    assert not missing, f"not reported: {missing}; reported: {[str(p) for p in problems]}"


@pytest.mark.parametrize("name", MANY_PROBLEMS)
def test_model_from_document_raises_every_problem_of_a_file_at_once(name: str) -> None:
    document = parse_document((BAD_FILES / name).read_bytes(), name)
    with pytest.raises(ModelFileError) as caught:
        model_from_document(document, source=name)
    assert len(EXPECTED[name]) >= 5
    assert all(reported(e, caught.value.problems) for e in EXPECTED[name])


@pytest.mark.parametrize("name", corpus())
def test_cli_rejects_a_bad_file_with_its_problem_paths_and_no_traceback(name: str) -> None:
    result = run_validate(BAD_FILES / name)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1
    for expected in EXPECTED[name]:
        assert f"error: {expected['path'] or '(file)'}: " in result.stdout


# --- the size limit (a file over 5 MB is written here, never kept in the repository) -------------


def test_file_over_5_mb_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"format: dynamodb-design-studio/model\n" + b"#" * MAX_FILE_BYTES)
    [problem] = problems_of(path.read_bytes(), path.name)
    assert (problem.path, "larger than 5 MB" in problem.message) == ("", True)
    result = run_validate(path)
    assert (result.returncode, "Traceback" in result.stderr) == (1, False)
    assert "larger than 5 MB" in result.stdout


def test_file_of_exactly_5_mb_is_parsed() -> None:
    header = b'{"format": "dynamodb-design-studio/model", "version": 1}'
    document = parse_document(header + b" " * (MAX_FILE_BYTES - len(header)), "padded.json")
    assert document == {"format": "dynamodb-design-studio/model", "version": 1}
