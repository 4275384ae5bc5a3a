"""Lessons find indexes by role (the access pattern an index serves), so renumbering or renaming the
indexes of a lesson's design (as a change to the generator's numbering would) breaks no lesson.

The renaming is applied where the designs enter the lessons' states: the generator's design adopted by
`workshop.states` and the examples' own designs. The expected index is found from the renamed document's
key templates (the Student index keyed by status, the Order index with an only_when), not from the plans."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from modeling.examples import example_document
from modeling.model_file import document_problems, model_from_document
from workshop import breaks, reveals, states
from workshop.lessons import LESSONS, state_design
from workshop.roles import IndexRoleError, document_design, index_serving
from workshop.states import State, state_document
from workshop.verification import PatternServed, verify

Renaming = Callable[[list[str]], dict[str, str]]


def _rotated(names: list[str]) -> dict[str, str]:
    """GSI1 -> GSI2 -> GSI3 -> GSI1: a number written into a lesson now names another, existing index."""
    return {name: names[(k + 1) % len(names)] for k, name in enumerate(names)}


def _renamed(names: list[str]) -> dict[str, str]:
    """Names without numbers, in reverse order (`Ix-c`, `Ix-b`, `Ix-a`)."""
    return {name: f"Ix-{chr(ord('a') + len(names) - 1 - k)}" for k, name in enumerate(names)}


def _rename_indexes(key_design: dict[str, Any], renaming: Renaming) -> dict[str, Any]:
    names = [i["name"] for i in key_design.get("global_secondary_indexes", [])]
    if not names:
        return key_design
    new = renaming(names)
    for index in key_design["global_secondary_indexes"]:
        index["name"] = new[index["name"]]
    for keys in key_design.get("entities", []):
        keys["indexes"] = {new.get(name, name): templates for name, templates in keys.get("indexes", {}).items()}
    return key_design


@pytest.fixture(params=[_rotated, _renamed], ids=["rotated", "renamed"])
def renaming(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Renaming]:
    chosen: Renaming = request.param
    adopt = states.adopt_key_design

    def example(slug: str) -> dict[str, Any]:
        document = example_document(slug)
        if "key_design" in document:
            _rename_indexes(document["key_design"], chosen)
        return document

    monkeypatch.setattr(states, "example_document", example)
    monkeypatch.setattr(states, "adopt_key_design", lambda document, design: adopt(
        document, _rename_indexes(design, chosen)))
    state_design.cache_clear()
    yield chosen
    state_design.cache_clear()


def _index_of(document: dict[str, Any], entity: str, found: Callable[[dict[str, Any]], bool]) -> str:
    keys = next(k for k in document["key_design"]["entities"] if k["entity"] == entity)
    (name,) = [name for name, templates in keys.get("indexes", {}).items() if found(templates)]
    return name


def _roster(document: dict[str, Any]) -> str:
    return _index_of(document, "Student", lambda t: "{status}" in t["partition_key"])


def _sparse(document: dict[str, Any]) -> str:
    return _index_of(document, "Order", lambda t: bool(t.get("only_when")))


def test_the_renaming_moves_the_indexes_the_lessons_use(renaming: Renaming) -> None:
    """Without this, the other tests would pass with the shipped names."""
    assert _roster(state_document(State.STUDENT_MISTAKES)) != "GSI1"
    assert _roster(state_document(State.STUDENT_DESIGNED)) != "GSI2"


@pytest.mark.parametrize("state", list(State))
def test_every_state_is_still_a_valid_model(renaming: Renaming, state: State) -> None:
    assert [p for p in document_problems(state_document(state)) if p.severity == "error"] == []


def test_lesson_texts_name_the_renamed_index(renaming: Renaming) -> None:
    hot = LESSONS[1]
    mistakes_roster = _roster(state_document(State.STUDENT_MISTAKES))
    assert f"the findings on {mistakes_roster}'s partition key" in hot.steps[0].look_at
    assert f"Table or index {mistakes_roster};" in hot.steps[1].look_at
    assert f"The roster index ({_roster(state_document(State.STUDENT_DESIGNED))})" in hot.steps[2].look_at
    gsis = [i["name"] for i in state_document(State.STUDENT_DESIGNED)["key_design"]["global_secondary_indexes"]]
    assert f"{', '.join(gsis[:-1])} and {gsis[-1]}." in LESSONS[3].steps[1].look_at
    sparse = _sparse(state_document(State.SHOP_SPARSE))
    assert f"Someone removed {sparse} " in LESSONS[4].break_it.brief
    assert f"Give Order a {sparse} entry again" in LESSONS[4].break_it.fix


def test_reveals_analyse_the_renamed_index(renaming: Renaming) -> None:
    mistakes = model_from_document(state_document(State.STUDENT_MISTAKES))
    hot = reveals.status_key_hot_partition(mistakes)
    assert hot.text.startswith(f"On {_roster(state_document(State.STUDENT_MISTAKES))} ")
    assert float(hot.figures[0].rstrip("%")) > 50  # still the status index: one status takes most of the traffic
    sparse = reveals.unpaid_report_sparse(model_from_document(state_document(State.SHOP_SPARSE)))
    assert f"With the sparse {_sparse(state_document(State.SHOP_SPARSE))} " in sparse.text


def test_dropping_the_sparse_index_drops_the_renamed_one_only(renaming: Renaming) -> None:
    sparse = state_document(State.SHOP_SPARSE)
    broken = breaks.drop_sparse_index(sparse)
    order = next(k for k in broken["key_design"]["entities"] if k["entity"] == "Order")
    kept = next(k for k in sparse["key_design"]["entities"] if k["entity"] == "Order")["indexes"]
    assert order.get("indexes", {}) == {n: t for n, t in kept.items() if n != _sparse(sparse)}
    result = verify(broken, [PatternServed("report", "list_unpaid_orders_by_date"),
                             PatternServed("history", "list_orders_by_customer")])
    assert [r.passed for r in result.results] == [False, True]


@pytest.mark.parametrize("number", [2, 5], ids=["hot-partition", "filters-dont-save"])
def test_the_break_it_exercises_that_name_indexes_still_work(renaming: Renaming, number: int) -> None:
    exercise = LESSONS[number - 1].break_it
    assert not exercise.check(exercise.broken_document()).passed
    assert exercise.check(exercise.fixed_document()).passed


def test_a_role_no_index_plays_is_a_typed_error() -> None:
    design = document_design(state_document(State.SHOP_SCAN))
    with pytest.raises(IndexRoleError, match="on the table"):
        index_serving(design, "list_unpaid_orders_by_date")  # a Scan in this state
    with pytest.raises(IndexRoleError, match="no access pattern"):
        index_serving(design, "list_orders_by_status")  # removed from this state
