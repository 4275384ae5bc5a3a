"""The built-in examples: valid, without warnings, stable on disk (golden files), and realistic."""

from __future__ import annotations

import pytest

from modeling.examples import list_examples, load_example
from modeling.model import PatternKind
from modeling.model_file import FileFormat, document_problems, dump_model, read_document_file
from tests.golden_files import assert_matches_golden

EXAMPLES = [e.slug for e in list_examples()]
REQUIRED = {"student_platform", "crm_single_table", "ecommerce_orders", "chat_messages", "iot_telemetry"}


def test_the_five_required_examples_and_a_mistakes_variant_ship() -> None:
    assert set(EXAMPLES) >= REQUIRED
    assert any("mistake" in slug for slug in EXAMPLES)


@pytest.mark.parametrize("slug", EXAMPLES)
def test_example_has_no_problem_at_all(slug: str) -> None:
    example = next(e for e in list_examples() if e.slug == slug)
    assert document_problems(read_document_file(example.path)) == []


@pytest.mark.parametrize("slug", EXAMPLES)
def test_example_matches_its_golden_canonical_form(slug: str, update_golden: bool) -> None:
    assert_matches_golden(f"examples/{slug}.json", dump_model(load_example(slug), FileFormat.JSON),
                          update_golden)


@pytest.mark.parametrize("slug", EXAMPLES)
def test_example_has_traffic_reads_writes_and_generators(slug: str) -> None:
    model = load_example(slug)
    kinds = {p.kind for p in model.access_patterns}
    assert any(k.is_read for k in kinds) and any(not k.is_read for k in kinds)
    assert all(p.traffic.peak_requests_per_second > 0 for p in model.access_patterns)
    assert all(a.generator is not None for e in model.entities for a in e.attributes)
    assert all(e.item_count > 0 for e in model.entities)


def test_student_platform_covers_the_issue_patterns() -> None:
    model = load_example("student_platform")
    kinds = {p.kind for p in model.access_patterns}
    assert {PatternKind.TRANSACT_WRITE, PatternKind.UPDATE, PatternKind.READ_MANY} <= kinds
    assert any("email" in p.inputs for p in model.access_patterns)
