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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import streamlit as st
from streamlit.elements.lib.mutable_tab_container import TabContainer

KEEP: Literal["page"] = "page"  # `persist_state=KEEP`: a widget's value kept while its tab is hidden


def lazy_tabs(labels: list[str], key: str) -> Sequence[TabContainer]:
    """The tabs, the first open at first; `key` holds the open tab's label in the session state. Labels must not
    change between runs (other labels are another widget: the first tab would open again)."""
    return st.tabs(labels, key=key, on_change="rerun")
