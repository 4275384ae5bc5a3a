"""Every page on a half-built model: no traceback, and the page names what to add first (issue 26).

A new empty model ("➕ New empty model") crashed six pages with an IndexError in the design search; the other
half-built states (an entity without attributes, no access patterns, patterns without traffic) ran, but the
pages did not say what their figures leave out. Each model is saved into the test's workspace and opened
through the router with `?model=<slug>`, as a link or a refresh opens it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import editing
from modeling.workspace.folder import Workspace
from tests.markdown_checks import unescape

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.name for p in (ROOT / "pages").glob("*.py"))
NOT_ABOUT_THE_OPEN_MODEL = {"lessons.py"}  # a lesson opens its own model; it shows nothing of the open one
MODEL_PAGE = "model.py"  # no link to itself


def _empty() -> dict[str, Any]:
    return editing.new_document("New model", "new-model")


def _with_customer(attributes: bool = True) -> dict[str, Any]:
    entity: dict[str, Any] = {"name": "Customer", "item_count": 1000}
    if attributes:
        entity |= {"identifiers": ["customerId"], "attributes": [{"name": "customerId", "type": "S"}]}
    return {**_empty(), "entities": [entity]}


def _with_idle_pattern() -> dict[str, Any]:
    pattern = {"name": "get_customer_by_id", "kind": "read_one", "entities": ["Customer"], "inputs": ["customerId"],
               "traffic": {"peak_requests_per_second": 0, "average_requests_per_second": 0}}
    return {**_with_customer(), "access_patterns": [pattern]}


# (document, text the page must show): what is missing, named as the user would add it
HALF_BUILT = {
    "no entities": (_empty(), "no entities yet"),
    "an entity without attributes": (_with_customer(attributes=False), "Entities without attributes: Customer"),
    "entities but no access patterns": (_with_customer(), "no access patterns yet"),
    "patterns without traffic": (_with_idle_pattern(), "no traffic (0 requests per second at peak): "
                                                       "get_customer_by_id"),
}


def _open(page: str, document: dict[str, Any], workspace_dir: Path) -> tuple[AppTest, str]:
    slug = Workspace(workspace_dir).create(document)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["model"] = slug
    at.run()
    at.switch_page(f"pages/{page}").run()
    return at, slug


def _shown_text(at: AppTest) -> str:
    return "\n".join(unescape(e.value) for kind in (at.info, at.warning, at.error, at.caption) for e in kind)


@pytest.mark.parametrize("state", list(HALF_BUILT))
@pytest.mark.parametrize("page", PAGES)
def test_a_half_built_model_says_what_to_add_on_every_page(page: str, state: str, workspace_dir: Path) -> None:
    document, missing = HALF_BUILT[state]
    at, slug = _open(page, document, workspace_dir)
    assert not at.exception, at.exception
    assert at.query_params["model"] == slug  # the half-built model itself is open, not another one
    if page in NOT_ABOUT_THE_OPEN_MODEL:
        return
    assert missing in _shown_text(at)
    if page != MODEL_PAGE:
        links = [e.proto for e in at.get("page_link")]
        assert any(link.page == "model" and f"model={slug}" in link.query_string for link in links)
