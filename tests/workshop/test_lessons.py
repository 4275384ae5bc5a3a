"""Lessons: every state is a valid model, every reveal states the domain's numbers, every break-it is caught
by its verification steps, and fixes an attendee would make (not only the reference fix) pass."""

from __future__ import annotations

import copy

import pytest

from modeling.model_file import document_problems
from workshop import breaks
from workshop.lessons import LESSONS, Lesson, StudioPage
from workshop.states import State, state_document
from workshop.verification import HotKeyBelowLimit, PatternServed, verify

IDS = [item.slug for item in LESSONS]


def _keys(document: dict, entity: str) -> dict:
    return next(k for k in document["key_design"]["entities"] if k["entity"] == entity)


@pytest.mark.parametrize("state", list(State))
def test_every_prepared_state_is_a_model_without_errors(state: State) -> None:
    assert [p for p in document_problems(state_document(state)) if p.severity == "error"] == []


def test_there_are_eight_lessons_each_using_the_real_pages() -> None:
    assert [item.number for item in LESSONS] == list(range(1, 9))
    pages = {step.page for item in LESSONS for step in item.steps}
    assert pages == set(StudioPage)


@pytest.mark.parametrize("chosen", LESSONS, ids=IDS)
def test_every_reveal_states_its_computed_figures(chosen: Lesson) -> None:
    for step in chosen.steps:
        reveal = step.compute_reveal()
        assert reveal.figures, step.title
        for figure in reveal.figures:
            assert figure in reveal.text, (step.title, figure)


@pytest.mark.parametrize("chosen", LESSONS, ids=IDS)
def test_break_it_fails_verification_and_the_reference_fix_passes(chosen: Lesson) -> None:
    exercise = chosen.break_it
    broken = exercise.check(exercise.broken_document())
    assert not broken.passed
    assert any(not r.passed for r in broken.results)
    assert exercise.check(exercise.fixed_document()).passed


def test_hot_partition_reveal_shows_status_key_over_one_partition() -> None:
    reveal = LESSONS[1].steps[1].compute_reveal()
    share, need, _ = reveal.figures
    assert float(share.rstrip("%")) > 50  # one status value takes most of the roster's traffic
    assert float(need.rstrip("%")) > 100  # ... and more than one partition can serve


def test_sparse_index_reads_far_less_than_scan_and_filter() -> None:
    sparse, scan, ratio = LESSONS[4].steps[1].compute_reveal().figures
    assert float(scan.replace(",", "")) > 100 * float(sparse.replace(",", ""))
    assert ratio.endswith("×")


def test_hot_partition_fix_with_write_sharding_also_passes() -> None:
    """An attendee may shard the status key by tenant differently: any high-cardinality key passes."""
    exercise = LESSONS[1].break_it
    document = exercise.broken_document()
    for templates in _keys(document, "Student")["indexes"].values():
        if templates["partition_key"] == "STATUS#{status}":
            templates["partition_key"] = "STATUS#{status}#TENANT#{tenantId}"
    assert exercise.check(document).passed


def test_hot_partition_is_caught_by_the_analysis_not_only_the_checks() -> None:
    result = verify(LESSONS[1].break_it.broken_document(), [HotKeyBelowLimit("hot", "list_students_by_status")])
    assert not result.passed and "of one partition" in result.results[0].detail


def test_unpadded_sort_key_fixed_by_hand_passes() -> None:
    exercise = LESSONS[0].break_it
    document = exercise.broken_document()
    for templates in _keys(document, "Student")["indexes"].values():
        templates["sort_key"] = (templates.get("sort_key") or "").replace("{xp}", "{xp:7}") or None
    assert exercise.check(document).passed


def test_sparse_index_fixed_with_another_name_passes() -> None:
    exercise = LESSONS[4].break_it
    document = exercise.broken_document()
    document["key_design"]["global_secondary_indexes"].append({
        "name": "UnpaidOrders", "partition_key": {"name": "UnpaidPK", "type": "S"},
        "sort_key": {"name": "UnpaidSK", "type": "S"}, "projection": {"type": "ALL"}})
    _keys(document, "Order")["indexes"]["UnpaidOrders"] = {
        "partition_key": "STATUS#{status}", "sort_key": "{orderDate}#{orderId}",
        "only_when": [{"attribute": "status", "equals": "UNPAID"}]}
    result = exercise.check(document)
    assert result.passed, result


def test_a_scan_left_in_place_fails_with_the_plan_named() -> None:
    result = verify(breaks.drop_sparse_index(state_document(State.SHOP_SPARSE)),
                    [PatternServed("report", "list_unpaid_orders_by_date")])
    assert not result.passed and "Scan on table" in result.results[0].detail


def test_billing_mode_fix_passes_when_it_follows_the_recommendation() -> None:
    exercise = LESSONS[5].break_it
    document = exercise.broken_document()
    document["table"]["billing_mode"] = "PROVISIONED"
    assert exercise.check(document).passed


def test_an_invalid_model_fails_with_its_problem_not_a_traceback() -> None:
    document = copy.deepcopy(LESSONS[0].break_it.broken_document())
    document["entities"][0]["attributes"][0]["type"] = "STRING"
    result = LESSONS[0].break_it.check(document)
    assert not result.passed and "type" in result.problem


def test_breaking_does_not_touch_the_lessons_model() -> None:
    before = state_document(State.STUDENT_DESIGNED)
    breaks.status_partition_key(before)
    assert before == state_document(State.STUDENT_DESIGNED)


def test_concurrency_lesson_loses_updates_then_a_version_condition_or_an_add_keeps_all_200() -> None:
    """Lesson 8 on the endpoint: 20 clients x 10 increments. The broken read-modify-write SET loses some (how
    many depends on the interleaving, so only "some" is asserted); a SET under a version condition (retrying
    on ConditionalCheckFailedException) and the reference ADD both end exactly 200 higher."""
    exercise = LESSONS[7].break_it
    broken = exercise.check(exercise.broken_document())
    concurrent = broken.results[1]
    assert not concurrent.passed and "increments lost" in concurrent.detail
    versioned = exercise.broken_document()
    pattern = next(p for p in versioned["access_patterns"] if p["name"] == "increment_student_xp_by_id")
    pattern["condition"] = {"kind": "version_matches", "attribute": "version"}
    result = exercise.check(versioned)
    assert result.passed, result
    assert "exactly 200 higher (under the version condition" in result.results[1].detail
