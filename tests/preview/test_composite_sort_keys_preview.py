"""Proposals whose GSIs serve several patterns through composite sort keys run correctly on moto (issue 28.3).

The search shares an entity's GSI between patterns by sorting its entries on a composite
(`BOOK#{loanEndDate}#{isbn}#{bookId}`): the planner sends `begins_with` or a range on it. Every read pattern of
such a proposal must return what the Preview's oracle asks for, and DDS206 (reads returning items not asked
for) must stay silent.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from costs.design_ranking import propose
from modeling.design.checks import check_design
from modeling.endpoint.adapter import Endpoint
from modeling.model import Model
from modeling.model_file import load_model_file
from modeling.preview.session import cleanup_preview, load_preview, preview_setup
from studio.preview import PreviewRun, run_preview
from tests.costs.test_composite_sort_keys import loans_model

_tables = itertools.count()
LIBRARY = Path(__file__).resolve().parents[1] / "expert_models" / "library_system" / "model.yaml"


def _composite_gsis(model: Model) -> int:
    """How many GSI entries of the proposal are sorted on a composite of two or more attributes."""
    design = propose(model)[0]
    return sum(templates.sort_key.count("{") >= 2 for keys in design.key_design.entities
               for name, templates in keys.indexes.items() if templates.sort_key)


@pytest.mark.parametrize("model", [loans_model(), load_model_file(LIBRARY)], ids=["loans", "library_system"])
def test_every_read_of_a_proposal_with_composite_sort_keys_matches_the_oracle(endpoint: Endpoint,
                                                                              model: Model) -> None:
    design = propose(model)[0]
    assert _composite_gsis(model) >= 1
    assert not [f for f in check_design(model, design) if f.check_id == "DDS206"]
    setup = preview_setup(model, design, endpoint, f"composite{next(_tables)}", "composite", 400, 7)
    try:
        data, _ = load_preview(setup)
        report = run_preview(PreviewRun(setup, data))
    finally:
        cleanup_preview(setup)
    reads = {p.name for p in model.access_patterns if p.kind.is_read}
    ran = [r.run for r in report.results if r.run.pattern in reads]
    assert len(ran) == len(reads)
    assert [(run.pattern, run.verdict) for run in ran if not run.passed] == []
