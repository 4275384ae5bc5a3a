"""What every page does first: page settings and the shared sidebar.

A deep link on a freshly started server runs the page without `app.py` (Streamlit's legacy `pages/`
mode, shared stack-notes §6.1), so each page sets the page configuration itself.
"""

from __future__ import annotations

import streamlit as st

from modeling.errors import WorkspaceError
from ui.model_editor import apply_pending_edits
from ui.save_status import render_save_status
from ui.session import bind_browser, open_shared_link
from ui.sidebar import render_sidebar
from ui.text import plain


def page_frame(title: str) -> None:
    st.set_page_config(page_title=f"{title} · DynamoDB Design Studio", page_icon="🗂️", layout="wide")
    try:
        apply_pending_edits()  # first, for a page run without app.py (a deep link; see the function)
        open_shared_link()  # a `?share=` link opens as a new model of this session, on any page
        render_sidebar()
        bind_browser()  # workshop mode: the cookie that ties the session to this browser
        with st.container(key="frame.save_status"):  # one slot: what follows keeps its place (and open tabs)
            render_save_status()  # an edit that could not be saved: why, and the user's choices
    except WorkspaceError as exc:  # a table workspace whose endpoint does not answer (a folder never raises here)
        st.error(f"The workspace cannot be reached: {plain(str(exc))}. Reload the page to try again.", icon="💾")
        st.stop()
