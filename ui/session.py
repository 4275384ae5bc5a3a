"""The model a browser session is working on, autosaved to the workspace on every change.

The open model's slug is kept in the session and mirrored in the URL (`?model=<slug>`), so a browser
refresh (a new Streamlit session) reopens the same model, and a fresh session without one opens the
most recently edited draft. Every page calls these accessors: none relies on `app.py` having run.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from modeling.editing import new_document
from modeling.errors import ModelFileError, Problem, WorkspaceError, errors_only
from modeling.examples import example_document
from modeling.model import Model
from modeling.model_file import document_problems
from modeling.workspace import Workspace, default_workspace_dir
from ui.browser_binding import browser_cookie, set_browser_cookie
from ui.problems import show_problems
from workshop.isolation import (
    LOCAL_NAMESPACE,
    TOKEN_PARAMETER,
    browser_proof,
    is_session_token,
    resolve_session,
    session_workspace_dir,
    workshop_mode,
    workshop_secret,
)
from workshop.isolation import table_namespace as keyed_table_namespace
from workshop.sharing import SHARE_PARAMETER, ShareLinkError, decode_share

FIRST_EXAMPLE = "student_platform"
_SLUG_KEY, _DOCUMENT_KEY, _TOKEN_KEY = "model.slug", "model.document", "workshop.session_token"
_REFUSED_KEY = "workshop.refused_link"
MODEL_WIDGET_KEY = "sidebar.model"  # the sidebar's model switcher


def workspace() -> Workspace:
    """The workspace folder; in workshop mode, this browser session's own folder inside it."""
    root = default_workspace_dir()
    return Workspace(session_workspace_dir(root, session_namespace()) if workshop_mode() else root)


def current_slug() -> str:
    """The open model's slug: from the session, the URL, the newest draft, or a first example."""
    space = workspace()
    slug = st.session_state.get(_SLUG_KEY)
    if not (isinstance(slug, str) and space.exists(slug)):
        requested = st.query_params.get("model", "")
        slug = requested if space.exists(requested) else space.most_recent()
        if slug is None:
            slug = space.create(example_document(FIRST_EXAMPLE))
        _remember(slug, None)
    if st.query_params.get("model") != slug:
        st.query_params["model"] = slug
    return slug


def current_document() -> dict[str, Any]:
    slug = current_slug()
    cached = st.session_state.get(_DOCUMENT_KEY)
    if isinstance(cached, tuple) and cached[0] == slug:
        return cached[1]
    try:
        document = workspace().load(slug)
    except (ModelFileError, WorkspaceError):
        document = new_document("Recovered model", "recovered-model")
    _remember(slug, document)
    return document


def save_document(document: dict[str, Any]) -> None:
    """Autosave: write the draft (valid or not) and keep it as the session's model."""
    slug = current_slug()
    workspace().save(slug, document)
    _remember(slug, document)


def open_new_document(document: dict[str, Any]) -> str:
    """Save a document as a new draft and make it the open model."""
    slug = workspace().create(document)
    _remember(slug, document)
    st.query_params["model"] = slug
    return slug


def switch_to(slug: str) -> None:
    _remember(slug, None)
    st.query_params["model"] = slug


def session_namespace() -> str:
    """Whose work this is: 'local' for a single-user server, else this browser session's workshop token.

    Workshop mode (one server, many attendees) gives each browser its own token, bound to it by a cookie
    (`ui.browser_binding`) and mirrored in the URL (`?ws=`). A token in the URL is used only when this
    browser's cookie proves it; anything else gets a new session of its own and a plain message.
    """
    if not workshop_mode():
        return LOCAL_NAMESPACE
    token = st.session_state.get(_TOKEN_KEY)
    if not is_session_token(token):
        resolution = resolve_session(st.query_params.get(TOKEN_PARAMETER), browser_cookie(),
                                     workshop_secret(default_workspace_dir()))
        token = resolution.token
        st.session_state[_TOKEN_KEY] = token
        if resolution.refused:
            st.session_state[_REFUSED_KEY] = resolution.refused
    if st.query_params.get(TOKEN_PARAMETER) != token:
        st.query_params[TOKEN_PARAMETER] = token
    return token


def table_namespace() -> str:
    """What names this session's tables on the endpoint: 'local', or a keyed hash of the workshop token."""
    if not workshop_mode():
        return LOCAL_NAMESPACE
    return keyed_table_namespace(workshop_secret(default_workspace_dir()), session_namespace())


def bind_browser() -> None:
    """In workshop mode: keep this browser's cookie for its session, and say once why a link was not opened."""
    if not workshop_mode():
        return
    token = session_namespace()
    refused = st.session_state.pop(_REFUSED_KEY, None)
    if refused:
        st.warning(refused, icon="🔒")
    with st.sidebar:  # an empty element: at the sidebar's foot it takes no room in the page
        set_browser_cookie(browser_proof(workshop_secret(default_workspace_dir()), token))


def open_shared_link() -> None:
    """Open a `?share=` link's model as a new model of this session (others are untouched), then drop it."""
    token = st.query_params.get(SHARE_PARAMETER)
    if token is None:
        return
    del st.query_params[SHARE_PARAMETER]
    try:
        document = decode_share(token)
    except ShareLinkError as exc:
        st.error("The shared model could not be opened.", icon="🔗")
        show_problems(exc.problems)
        return
    open_new_document(document)
    st.toast("Opened the shared model as a new model of your own.", icon="🔗")


def current_problems() -> list[Problem]:
    return document_problems(current_document())


def _remember(slug: str, document: dict[str, Any] | None) -> None:
    st.session_state[_SLUG_KEY] = slug
    if document is None:
        st.session_state.pop(_DOCUMENT_KEY, None)
    else:
        st.session_state[_DOCUMENT_KEY] = (slug, document)


def current_model() -> Model | None:
    """The open model when it has no errors, else None (pages then point to the Model page)."""
    document = current_document()
    if errors_only(document_problems(document)):
        return None
    return Model.model_validate(document)


def require_model(what: str) -> Model:
    """The open model, or stop the page with its problems when it has errors (they are fixed elsewhere)."""
    model = current_model()
    if model is None:
        st.error(f"The model has errors, so {what} until they are fixed on the Model page.", icon="⛔")
        show_problems(current_problems())
        st.stop()
    return model
