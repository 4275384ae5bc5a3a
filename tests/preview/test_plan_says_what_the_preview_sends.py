"""The key condition a plan shows (Layout, `dds design`, the report) is the one the Preview sends: the same
operator on the same key attributes. A composite sort key `BOOK#{loanEndDate}#...` read with `loanEndDate >
:date` said `SK > :sk` while the Preview sent `SK BETWEEN :sk_from AND :sk_to` (bounded by `BOOK#`, or the other
patterns' items sharing the index come back), issue 28's composite moves."""

from __future__ import annotations

import re

import pytest

from modeling.examples import list_examples, load_example
from modeling.model import Model
from modeling.preview.dataset import build_preview_data, preview_counts
from modeling.preview.oracle import choose_inputs
from modeling.preview.requests import RequestBuildError, build_read_request, is_read, read_shape
from studio.design import propose
from tests.expert_models.comparison import load, use_cases

MODELS = [(example.slug, lambda slug=example.slug: load_example(slug)) for example in list_examples()] + [
    (case.name, lambda path=case.model_path: load(path)) for case in use_cases()]

_OPERATOR = re.compile(r"BETWEEN|begins_with|<=|>=|<|>|=")


def _shape_of(condition: str) -> list[str]:
    """Each clause's operator, in order: `#SK BETWEEN :a AND :b` and `SK BETWEEN :sk_from AND :sk_to` agree."""
    return [_OPERATOR.search(clause).group(0) for clause in re.split(r"\bAND\b(?![^:]*:sk_to)", condition)
            if _OPERATOR.search(clause)]


def _sent(condition: str, names: dict[str, str]) -> list[str]:
    return _shape_of(re.sub(r"#\w+", lambda m: names.get(m.group(0), m.group(0)), condition))


@pytest.mark.parametrize(("name", "model_of"), MODELS, ids=[name for name, _ in MODELS])
def test_every_query_plan_shows_the_condition_the_preview_sends(name: str, model_of: object) -> None:
    model: Model = model_of()  # type: ignore[operator]
    design = propose(model)[0]
    data = build_preview_data(model, design.key_design, preview_counts(model, 150), 7)
    compared = 0
    for pattern in model.access_patterns:
        plan = design.plan(pattern.name)
        if plan is None or not is_read(pattern) or plan.operation.value != "Query" or plan.through is not None:
            continue
        shape = read_shape(model, design.key_design, plan)
        try:
            request = build_read_request(shape, "t", choose_inputs(model, shape, data, 7))
        except RequestBuildError:
            continue  # no sample item carries the inputs: the Preview says so; nothing sent to compare
        sent = _sent(request.params["KeyConditionExpression"], request.params.get("ExpressionAttributeNames", {}))
        assert _shape_of(plan.key_condition) == sent, (pattern.name, plan.key_condition,
                                                        request.params["KeyConditionExpression"])
        compared += 1
    assert compared or not any(p.kind.is_read for p in model.access_patterns)
