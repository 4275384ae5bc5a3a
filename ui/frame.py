"""What every page does first: page settings and the shared sidebar.

A deep link on a freshly started server runs the page without `app.py` (Streamlit's legacy `pages/`
mode, docs/stack-notes.md §4), so each page sets the page configuration itself.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from studio.errors import WorkspaceError
from ui import rerun_coalescing
from ui.model_editor import apply_pending_edits
from ui.nav_guard import guard_page_links
from ui.save_status import render_save_status
from ui.session import bind_browser, open_shared_link
from ui.sidebar import render_sidebar
from ui.text import plain

_ROUTED_KEY = "frame.routed_through_app"

rerun_coalescing.install()  # before any click can race a field's save (see the module)


def page_frame(title: str) -> None:
    _route_through_app()
    st.set_page_config(page_title=f"{title} · DynamoDB Design Studio", page_icon="🗂️", layout="wide")
    try:
        apply_pending_edits()  # first: what the user typed is saved whatever page this run shows (see the function)
        open_shared_link()  # a `?share=` link opens as a new model of this session, on any page
        render_sidebar()
        with st.sidebar:
            guard_page_links()  # a fast click on another page waits for the field being edited (see the module)
        bind_browser()  # workshop mode: the cookie that ties the session to this browser
        with st.container(key="frame.save_status"):  # one slot: what follows keeps its place (and open tabs)
            render_save_status()  # an edit that could not be saved: why, and the user's choices
    except WorkspaceError as exc:  # a table workspace whose endpoint does not answer (a folder never raises here)
        st.error(f"The workspace cannot be reached: {plain(str(exc))}. Reload the page to try again.", icon="💾")
        st.stop()


def _route_through_app() -> None:
    """A deep link that is a fresh server's first request runs in Streamlit's legacy `pages/` mode: the page
    works (it is self-sufficient) but the sidebar lists file names ("capacity and cost", "app") instead of
    app.py's titled, grouped navigation, for every session until one loads `/`. Leaving the mode (the flag
    `st.navigation` itself clears) and rerunning runs app.py, which routes the same URL to this page.
    `PagesManager.uses_pages_directory` is Streamlit's (1.67, pinned); tests/e2e/test_browser.py's deep-link
    test sees the sidebar's titles, so a Streamlit that renames it fails there, not silently."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        # once per session, at its first run (a page load, which carries no click to lose); AppTest resets the
        # flag before every run, where rerunning each time would drop the button click of that run
        if not st.session_state.get(_ROUTED_KEY):
            st.session_state[_ROUTED_KEY] = True
            st.rerun()
