"""Every write pattern of every model with writes, both outcomes, on a real moto server over HTTP (issue 27,
"Done"): the built-in examples, the wallet, the library and a CRUD service written from the first seed's
article (users with a unique email, orders under optimistic locking, counters, soft delete with a TTL).

Each model is loaded with its proposed design (`costs.design_ranking.propose`, the one engine), then each write
pattern runs as the Preview's "Run every access pattern" runs it: a conditional write runs its success path
and each rejected path, and passes only when every case agrees with the oracle worked out from the model's
semantics (modeling.preview.oracle). Every case must pass; a failure names the pattern and the case.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from costs.design_ranking import propose
from modeling.examples import list_examples, load_example
from modeling.model import Model
from modeling.model_file import load_model_file
from modeling.preview.runner import RunContext, run_pattern
from modeling.preview.session import load_preview, preview_setup
from tests.fixture_files import FIXTURES_DIR

_tables = itertools.count()
_OWN = ("wallet", "library", "library_states", "library_typed_in_browser", "crud_service")


def _models() -> list[tuple[str, Model]]:
    # the `_mistakes` example is broken on purpose (its writes cannot name their items: DDS312, refused, not sent)
    found = [(e.slug, load_example(e.slug)) for e in list_examples() if not e.slug.endswith("_mistakes")]
    found += [(name, load_model_file(FIXTURES_DIR / "write-semantics" / f"{name}.yaml")) for name in _OWN]
    return [(name, m) for name, m in found if any(not p.kind.is_read for p in m.access_patterns)]


MODELS = _models()


def test_the_sweep_covers_our_own_models_and_every_kind_of_write() -> None:
    names = {name for name, _ in MODELS}
    assert set(_OWN) <= names
    crud = dict(MODELS)["crud_service"]
    conditions = {p.condition.kind.value for p in crud.access_patterns if p.condition is not None}
    assert {"attribute_not_exists", "attribute_exists", "version_matches", "compare"} <= conditions
    assert any(p.soft_delete for p in crud.access_patterns)
    assert any(u.action.value == "ADD" for p in crud.access_patterns for u in p.updates)
    assert any(a.unique for e in crud.entities for a in e.attributes)


@pytest.mark.parametrize(("name", "model"), MODELS, ids=[name for name, _ in MODELS])
def test_every_write_pattern_passes_both_outcomes(name: str, model: Model, endpoint: Any, client: Any) -> None:
    design = propose(model)[0]
    setup = preview_setup(model, design, endpoint, f"sweep{next(_tables)}", name, 300, 42)
    data, _ = load_preview(setup)
    context = RunContext(setup.model, setup.design, data, setup.table.name, setup.seed)
    failures = []
    for pattern in model.access_patterns:
        if pattern.kind.is_read:
            continue
        run = run_pattern(client, context, pattern.name)
        bad = [f"{c.case}: {c.expected}" for c in run.cases if not c.passed]
        if not run.passed or bad:
            failures.append(f"{pattern.name}: {run.verdict or run.error} {bad}")
        conditional = pattern.condition is not None or any(m.condition for m in pattern.members)
        outcomes = {c.expected == "succeeds" for c in run.cases}
        if conditional and outcomes != {True, False}:  # both paths must have run, on purpose
            failures.append(f"{pattern.name}: ran only {[c.case for c in run.cases]}")
    assert failures == [], f"{name} under {design.name}:\n" + "\n".join(failures)


def test_an_input_that_only_sets_an_attribute_takes_a_value_of_that_attribute(endpoint: Any, client: Any) -> None:
    """`returnedAt = :returnedAt` was sent the number 1 (the value every comparison accepts); a SET-only input now
    takes a value the attribute really holds: a timestamp of its generator's window, as a string."""
    import yaml

    from modeling.model_file import model_from_document

    document = yaml.safe_load((FIXTURES_DIR / "write-semantics" / "library.yaml").read_text("utf-8"))
    returning = next(p for p in document["access_patterns"] if p["name"] == "return_copy")
    returning["inputs"].append("returnedAt")
    returning["members"][1]["updates"].append({"attribute": "returnedAt", "input": "returnedAt"})
    model = model_from_document(document)
    design = propose(model)[0]
    setup = preview_setup(model, design, endpoint, f"sweep{next(_tables)}", "library", 300, 42)
    data, _ = load_preview(setup)
    run = run_pattern(client, RunContext(setup.model, setup.design, data, setup.table.name, setup.seed),
                      "return_copy")
    assert run.passed, run.verdict
    success = next(c for c in run.cases if c.expected == "succeeds")
    loans = [after for _, after in success.written if after is not None and after.get("loanStatus") == "RETURNED"]
    assert len(loans) == 1
    returned_at = loans[0]["returnedAt"]
    # the generator's window is 2026-01-01 .. 2026-06-01 (an ISO string sorts as a date)
    assert isinstance(returned_at, str) and "2026-01-01" <= returned_at <= "2026-06-02", returned_at
