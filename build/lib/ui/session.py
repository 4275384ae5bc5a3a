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
from ui.problems import show_problems
from workshop.isolation import (
    LOCAL_NAMESPACE,
    TOKEN_PARAMETER,
    is_session_token,
    new_session_token,
    session_workspace_dir,
    workshop_mode,
)
from workshop.sharing import SHARE_PARAMETER, ShareLinkError, decode_share

FIRST_EXAMPLE = "student_platform"
_SLUG_KEY, _DOCUMENT_KEY, _TOKEN_KEY = "model.slug", "model.document", "workshop.session_token"
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
    """A short name for whose tables these are on the endpoint: 'local' for a single-user server.

    Workshop mode (one server, many attendees) gives each browser session its own namespace: a random
    token kept in the session and mirrored in the URL (`?ws=`), so a refresh keeps it.
    """
    if not workshop_mode():
        return LOCAL_NAMESPACE
    token = st.session_state.get(_TOKEN_KEY)
    if not is_session_token(token):
        requested = st.query_params.get(TOKEN_PARAMETER, "")
        token = requested if is_session_token(requested) else new_session_token()
        st.session_state[_TOKEN_KEY] = token
    if st.query_params.get(TOKEN_PARAMETER) != token:
        st.query_params[TOKEN_PARAMETER] = token
    return token


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
