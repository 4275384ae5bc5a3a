"""The sidebar every page shows: which model is open, and which DynamoDB endpoint is in use."""

from __future__ import annotations

import streamlit as st

from studio.editing import new_document
from studio.errors import EndpointError
from studio.preview import NAME_PREFIX, Endpoint, EndpointStatus, check_endpoint, configured_endpoint
from ui import session
from ui.presenter import presenter_toggle
from ui.text import plain
from workshop.isolation import workshop_mode

STATUS_TTL_SECONDS = 15


def render_sidebar() -> None:
    with st.sidebar:
        simple = presenter_toggle()  # presenter view: the open model only, no endpoint panel
        _model_switcher(simple)
        if not simple:
            st.divider()
            _endpoint_status()


def _model_switcher(simple: bool = False) -> None:
    slug = session.current_slug()
    drafts = session.workspace().drafts()
    labels = {d.slug: f"{d.name}  ·  {d.slug}" for d in drafts}
    slugs = list(labels) if slug in labels else [slug, *labels]
    # Always the open model, set before the widget is drawn: it may have changed elsewhere (a button, a link, a
    # lesson), and on another page the picker is a new widget, which ignored the value the last page's picker
    # left and showed the newest model instead (found by tests/pages/test_session_stateful.py). Setting the
    # state (not an index) also updates the browser's copy, which would otherwise send the old choice back.
    st.session_state[session.MODEL_WIDGET_KEY] = slug
    picker, delete = st.columns([5, 1], vertical_alignment="bottom")
    picker.selectbox("Open model", slugs, key=session.MODEL_WIDGET_KEY, format_func=lambda s: labels.get(s, s),
                     on_change=_switch_to_chosen, help="Models are saved automatically in the workspace.")
    if slug in labels and not simple:
        with delete.popover("🗑", help="Delete the open model"):
            _delete(slug)
    skipped = session.workspace().skipped()
    if skipped and not simple:
        st.caption("Not models, so not listed (folders, links or special files): "
                   + ", ".join(plain(name) for name in skipped[:5]))
    if not simple and st.button("➕ New empty model", key="sidebar.new_model", width="stretch"):
        session.open_new_document(new_document("New model", "new-model"))
        st.rerun()


def _delete(slug: str) -> None:
    """Delete the open model, once the user ticked that they mean it (nothing is deleted by one click)."""
    confirm = st.checkbox(f"Yes, delete {plain(slug)} from the workspace", key="sidebar.delete_confirm")
    if st.button("Delete model", key="sidebar.delete", disabled=not confirm, type="primary"):
        session.workspace().delete(slug)
        session.discard_open_draft()  # the user deleted it: an edit of it not yet saved goes with it
        st.session_state.pop("sidebar.delete_confirm", None)
        session.switch_to(session.workspace().most_recent() or "")
        st.rerun()


def endpoint_changed() -> None:
    """This session created or deleted a table: the sidebar's status is read again, not taken from its cache."""
    st.session_state["sidebar.endpoint_token"] = st.session_state.get("sidebar.endpoint_token", 0) + 1


def _switch_to_chosen() -> None:
    session.switch_to(st.session_state[session.MODEL_WIDGET_KEY])


@st.cache_data(ttl=STATUS_TTL_SECONDS, show_spinner=False)
def _cached_status(endpoint: Endpoint, token: int, own_prefix: str | None) -> EndpointStatus:
    """Cached per endpoint (and workshop session); Retry bumps `token`, a new cache key, so it asks again at once."""
    return check_endpoint(endpoint, own_prefix)


def _own_table_prefix() -> str | None:
    """In a workshop, the name prefix of this session's tables (the room's total is no attendee's business)."""
    return f"{NAME_PREFIX}{session.table_namespace()}-" if workshop_mode() else None


def _table_count(status: EndpointStatus, own: bool) -> str:
    if status.table_count is None:
        return ""
    count = f"{status.table_count}+" if status.count_is_lower_bound else str(status.table_count)
    return f" · {count} table(s){' of yours' if own else ''}"


def _endpoint_status() -> None:
    st.caption("DynamoDB endpoint")
    try:
        own_prefix = _own_table_prefix()
        status = _cached_status(configured_endpoint(), st.session_state.get("sidebar.endpoint_token", 0), own_prefix)
    except EndpointError as exc:
        st.error(f"Endpoint not usable: {plain(exc)}", icon="🔌")
        return
    if status.reachable:
        st.success(f"{plain(status.message)}{_table_count(status, own_prefix is not None)}", icon="🟢")
        return
    st.error(plain(status.message), icon="🔴")
    if st.button("Retry", key="sidebar.endpoint_retry"):
        endpoint_changed()
        st.rerun()
