"""A half-built model on any page: what to add first (modeling.design.missing), with a link to the Model page.

A new empty model, an entity without attributes, patterns without traffic are normal states while a model
is built: a page shows what its figures do not reflect yet, and a page that needs a design stops, saying what
to add, when there is none (no entities).
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from studio.design import nothing_to_design, proposal_refusal, propose, what_is_missing
from studio.errors import CostError, Problem, errors_only
from studio.model import Model
from ui import session
from ui.text import plain

MODEL_PAGE = "pages/model.py"


def what_to_add(model: Model, *, link: bool = True) -> None:
    """One note per step the model still lacks, first step first, then a link to the Model page."""
    missing = what_is_missing(model)
    for step in missing:
        st.info(plain(step.message), icon="➕")  # it quotes entity and pattern names
    if missing and link:
        model_page_link()


def has_design(model: Model) -> bool:
    """Say what the model lacks; False when there is nothing to design (no entities yet)."""
    what_to_add(model)
    return not nothing_to_design(model)


def require_design(model: Model) -> None:
    """Say what the model lacks; stop the page when there is nothing to design (no entities yet), or when its
    designs cannot be sized (a table beyond what the cost engine prices: 10^15 items of 4 KB is 4 EB), saying
    what to change instead of a traceback (issue 30)."""
    if not has_design(model):
        st.stop()
    try:
        designs = propose(model)  # memoised: the page's own call reuses it
    except CostError as exc:
        st.error(f"This model's designs cannot be sized: {plain(exc)}", icon="⛔")
        model_page_link()
        st.stop()
    refusal = proposal_refusal(model)
    if refusal is not None:  # no candidate passes the design checks: none is offered (issue 28.4)
        (st.warning if designs else st.error)(plain(refusal.message), icon="⛔")
        if not designs:
            model_page_link()
            st.stop()


def what_to_add_on_the_model_page(document: dict[str, Any], problems: list[Problem]) -> None:
    """The same notes on the Model page itself (no link), once the model has no errors."""
    if not errors_only(problems):
        what_to_add(Model.model_validate(document), link=False)


def model_page_link() -> None:
    """A link to the Model page that keeps the open model (and the workshop session) in the URL."""
    try:
        st.page_link(MODEL_PAGE, label="Add it on the Model page", icon="✏️", query_params=session.link_params())
    except StreamlitPageNotFoundError:
        # a page run as the entry script (AppTest on one page file) has no other page to link to; a browser
        # always runs app.py (also for a deep link: docs/stack-notes.md §4), so there the link resolves
        st.caption("Add it on the Model page (sidebar).")
