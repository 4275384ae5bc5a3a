"""Presenter view: larger fonts and a simplified sidebar for the room's projector (`?presenter=1`).

The style sheet is a constant written here, never built from user text (the one use of
unsafe_allow_html in the app, for CSS only).
"""

from __future__ import annotations

import streamlit as st

PRESENTER_PARAMETER = "presenter"
_WIDGET_KEY = "sidebar.presenter"

_PRESENTER_CSS = """
<style>
[data-testid="stMain"] { font-size: 1.45rem; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] li { font-size: 1.45rem; line-height: 1.55; }
[data-testid="stMain"] h1 { font-size: 3.2rem; }
[data-testid="stMain"] h2, [data-testid="stMain"] h3 { font-size: 2.3rem; }
[data-testid="stMain"] button p { font-size: 1.3rem; }
</style>
"""


def presenter_on() -> bool:
    """Presenter view for this session: the sidebar toggle, first set from `?presenter=1`."""
    if _WIDGET_KEY not in st.session_state:
        st.session_state[_WIDGET_KEY] = st.query_params.get(PRESENTER_PARAMETER) == "1"
    return bool(st.session_state[_WIDGET_KEY])


def presenter_toggle() -> bool:
    """The sidebar toggle; keeps `?presenter=1` in the URL while on, so a refresh keeps the view."""
    presenter_on()
    on = st.toggle("Presenter view", key=_WIDGET_KEY, help="Larger fonts, a simpler sidebar, one step at a time")
    if on and st.query_params.get(PRESENTER_PARAMETER) != "1":
        st.query_params[PRESENTER_PARAMETER] = "1"
    elif not on and PRESENTER_PARAMETER in st.query_params:
        del st.query_params[PRESENTER_PARAMETER]
    if on:
        st.markdown(_PRESENTER_CSS, unsafe_allow_html=True)
    return on
