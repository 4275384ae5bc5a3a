"""Tabs that run only the open tab's body (Streamlit's stateful tabs).

`st.tabs` sends every tab's content on every run, hidden or not: a page paid for what nobody looked at
(the Import & export page wrote the load test, about a third of its first visit, behind a closed tab). With
`on_change="rerun"`, switching tabs reruns the page and each tab's `.open` says whether it is the one shown,
so a page writes `if tab.open:` around a costly body. Two rules keep what the user typed:

- Streamlit forgets the value of a widget that was not rendered in a run, so every widget inside a tab that
  runs only when open is created with `persist_state=KEEP`: a choice made in one tab is still there after a
  visit to another (and, as before, forgotten when the user leaves the page).
- A form's typing lives in the browser until the form is submitted, and a tab whose body is not sent loses
  it: a tab holding a form runs its body whether open or not (as every tab did before).
- A text typed and not committed when another tab is clicked is committed by the blur and kept by the server,
  but the browser sometimes redraws the box empty when the tab opens again (seen in about one run in ten of
  tests/e2e/test_import_export_browser.py; the server held the text each time). So a text widget's key goes
  through `kept_text`, and on the run that opens a tab again its kept texts are set again from the server's
  value, which the browser then draws. Only text widgets: they take no `value=`, so setting them raises no
  "default value and Session State" warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import streamlit as st
from streamlit.elements.lib.mutable_tab_container import TabContainer

KEEP: Literal["page"] = "page"  # `persist_state=KEEP`: a widget's value kept while its tab is hidden
_KEPT_TEXTS = "session.kept_texts"  # keys of the text widgets inside lazy tabs, drawn again when a tab opens


def lazy_tabs(labels: list[str], key: str) -> Sequence[TabContainer]:
    """The tabs, the first open at first; `key` holds the open tab's label in the session state. Labels must not
    change between runs (other labels are another widget: the first tab would open again)."""
    tabs = st.tabs(labels, key=key, on_change="rerun")
    shown_key = f"{key}.shown"  # the tab shown by the previous run
    open_label = st.session_state.get(key)
    if shown_key in st.session_state and st.session_state[shown_key] != open_label:
        _draw_kept_texts_again()
    st.session_state[shown_key] = open_label
    return tabs


def kept_text(key: str) -> str:
    """`key`, for a text widget in a lazy tab (`persist_state=KEEP`): its text is drawn again when its tab opens."""
    st.session_state.setdefault(_KEPT_TEXTS, set()).add(key)
    return key


def _draw_kept_texts_again() -> None:
    kept = {key for key in st.session_state.get(_KEPT_TEXTS, set()) if key in st.session_state}  # another model's: gone
    for key in kept:
        st.session_state[key] = st.session_state[key]  # set through the API: the browser draws the value
    st.session_state[_KEPT_TEXTS] = kept
