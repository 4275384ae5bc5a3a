"""Issue 28.4: when every candidate design fails the checks (here: each returns other entities' items), no design
is offered and every page that shows one says why, instead of opening on a design that returns wrong results."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from modeling.design import proposal
from modeling.design.checks.catalogue import finding
from modeling.model_file import model_to_document
from modeling.workspace.folder import Workspace
from tests.markdown_checks import unescape
from tests.modeling.exact_models import books_model

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", ["layout.py", "capacity_and_cost.py"])
def test_a_model_without_a_passing_design_is_refused_with_the_finding(page: str, workspace_dir: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def always_wrong(model: object, design: object) -> list:
        return [finding("DDS206", "access_patterns[list_titles_by_isbn]", "the Query returns the Book item too",
                        pattern="list_titles_by_isbn")]
    monkeypatch.setattr(proposal, "check_design", always_wrong)
    model = books_model().model_copy(update={"name": f"Books refused on {page}"})  # its own memo entry
    slug = Workspace(workspace_dir).create(model_to_document(model))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["model"] = slug
    at.run()
    at.switch_page(f"pages/{page}").run()
    assert not at.exception, at.exception
    refusals = [unescape(e.value) for e in at.error if "No design is proposed" in e.value]
    assert refusals, [e.value for e in at.error]
    assert "DDS206" in refusals[0] and "returns the Book item too" in refusals[0]
