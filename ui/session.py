"""The model a browser session is working on, autosaved to the workspace on every change.

The open model's slug is kept in the session and mirrored in the URL (`?model=<slug>`), so a browser
refresh (a new Streamlit session) reopens the same model, and a fresh session without one opens the
most recently edited draft. Every page calls these accessors: none relies on `app.py` having run.

One owner for per-model state (issue 26). The session opens one model at a time, as a `ModelScope`: its
slug and a generation that is new each time a model is opened (a switch, a new model, a lesson step, a
reload). Every widget key, form field, grid snapshot and cached draft that belongs to the open model is
named through `model_key`, which puts the scope in front of it, and opening another scope first ends the
old one (`_end_scope`): pending edits go to the model they were made on, or are kept as a copy with a
note, and every key of the old scope is dropped. So nothing typed for model A can be read while B is
open, and a save names the scope it was made in: `save_document` refuses one from another scope.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from studio.editing import new_document
from studio.errors import EndpointError, ModelFileError, Problem, WorkspaceConflictError, WorkspaceError, errors_only
from studio.examples import example_document
from studio.model import Model, document_problems
from studio.preview import configured_endpoint
from studio.workspace import (
    Workspace,
    WorkspaceStore,
    default_workspace_dir,
    document_bytes,
    open_table_workspace,
    three_way_merge,
    workspace_table_name,
)
from ui.browser_binding import browser_cookie, set_browser_cookie
from ui.problems import show_problems
from ui.text import plain
from workshop.expiry import session_ttl_seconds, sweep_now_and_then
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
_SCOPE_KEY, _DOCUMENT_KEY, _TOKEN_KEY = "model.scope", "model.document", "workshop.session_token"
_GENERATION_KEY = "model.generation"  # the last generation this session gave out (never reused)
_OWN_WRITES_KEY = "model.own_writes"  # digests of the documents this session wrote, per slug
_OWN_WRITES_KEPT = 16
SCOPE_PREFIX = "@"  # every per-model key starts with it: "@<slug>#<generation>.<name>"
_REFUSED_KEY = "workshop.refused_link"
_NOTICE_KEY = "session.notice"
MODEL_WIDGET_KEY = "sidebar.model"  # the sidebar's model switcher


def workspace() -> WorkspaceStore:
    """Where this session's models are: the workspace folder (in workshop mode, this browser session's own
    folder inside it), or with `DESIGN_STUDIO_WORKSPACE=dynamodb://TABLE` its namespace in that table.
    A workspace that cannot be opened stops the page with the reason (never a traceback)."""
    try:
        table = workspace_table_name()
        if table is not None:
            ttl = session_ttl_seconds() if workshop_mode() else None  # expiry by the table's TTL attribute
            return open_table_workspace(configured_endpoint(), table, session_namespace(), ttl)
    except (WorkspaceError, EndpointError) as exc:
        st.error(f"The workspace cannot be opened: {plain(str(exc))}", icon="💾")
        st.stop()
    root = default_workspace_dir()
    if not workshop_mode():
        return Workspace(root)
    token = session_namespace()
    sweep_now_and_then(root, keep=token)  # idle attendees' folders expire (DESIGN_STUDIO_SESSION_TTL_HOURS)
    return Workspace(session_workspace_dir(root, token))


@dataclass(frozen=True)
class ModelScope:
    """The open model of this session: its slug, and the generation it was opened in."""

    slug: str
    generation: int

    def key(self, name: str) -> str:
        """A session-state or widget key that belongs to this model, opened this time, only."""
        return f"{SCOPE_PREFIX}{self.slug}#{self.generation}.{name}"


def current_scope() -> ModelScope:
    """The open model: from the session, the URL, the newest draft, or a first example."""
    space = workspace()
    scope = st.session_state.get(_SCOPE_KEY)
    if not (isinstance(scope, ModelScope) and space.exists(scope.slug)):
        requested = st.query_params.get("model", "")
        slug = requested if space.exists(requested) else space.most_recent()
        if requested and slug != requested:
            notify(f"There is no model \"{requested[:64]}\" in this workspace (deleted, or a link from another "
                   "server or session), so the most recent model is open instead.")
        if slug is None:
            try:
                slug = space.create(example_document(FIRST_EXAMPLE))
            except WorkspaceError as exc:
                st.error(f"No model can be opened: {plain(str(exc))}", icon="💾")
                st.stop()
        scope = _remember(slug, None)
    if st.query_params.get("model") != scope.slug:
        st.query_params["model"] = scope.slug
    return scope


def has_open_model() -> bool:
    """Whether this session has opened a model yet (nothing is read, and no first model is created)."""
    return isinstance(st.session_state.get(_SCOPE_KEY), ModelScope)


def current_slug() -> str:
    return current_scope().slug


def model_key(name: str) -> str:
    """`name` as a key of the open model's state (widgets, forms, grids): see the module's docstring."""
    return current_scope().key(name)


@dataclass(frozen=True)
class OpenDraft:
    """The open model as this session holds it.

    `base` is the document as last read from or written to the workspace at `version`; `document` is
    what the user sees. They differ only while a save is pending: refused because the draft moved on
    (`conflict`), or failed (`save_error`). The user's document is then kept here, never dropped.
    """

    slug: str
    document: dict[str, Any]
    base: dict[str, Any]
    version: str
    generation: int = 0  # the scope's (ModelScope.generation) this draft was read or written in
    conflict: bool = False
    save_error: str = ""
    unreadable: str = ""

    @property
    def scope(self) -> ModelScope:
        """The opening of the model this draft was read or written in."""
        return ModelScope(self.slug, self.generation)

    @property
    def pending(self) -> bool:
        return self.conflict or bool(self.save_error) or bool(self.unreadable)


def open_draft() -> OpenDraft:
    """The open model, re-read when another tab or person saved it and nothing of ours is pending."""
    scope = current_scope()
    slug = scope.slug
    held = st.session_state.get(_DOCUMENT_KEY)
    if not (isinstance(held, OpenDraft) and held.scope == scope):
        held = None
    if held is not None and (held.pending or workspace().version(slug) == held.version):
        return held
    try:
        draft = workspace().read(slug)
    except (ModelFileError, WorkspaceError) as exc:
        # Never open an unreadable file as a blank model under its own name: the first edit would
        # overwrite it. The file stays as it is; an edit is saved as a new model (see save_document).
        blank = new_document("Recovered model", "recovered-model")
        held = OpenDraft(slug, blank, blank, "", scope.generation, unreadable=str(exc))
    else:
        if held is not None and held.version != draft.version and not _is_our_write(slug, draft.document):
            # (a table's listing index may lag our own save: only a read that differs says "changed")
            st.toast("This model was changed in another tab or by someone else: showing the latest.", icon="🔄")
        held = OpenDraft(slug, draft.document, draft.document, draft.version, scope.generation)
    st.session_state[_DOCUMENT_KEY] = held
    return held


def current_document() -> dict[str, Any]:
    return open_draft().document


def save_document(document: dict[str, Any], scope: ModelScope, based_on: OpenDraft | None = None) -> bool:
    """Autosave: write the draft (valid or not) of the model `scope` names, if nobody else saved it since
    it was read (or since `based_on`, the state a table was drawn from).

    Returns whether it was written. If not, the document is kept in the session as pending, and the
    page frame says why and offers the choices (callers rerun so the frame shows it). A save made for a
    scope that is no longer open (another model, or this one opened again since) is refused: it is kept
    as a copy with a note, never written into the open model.
    """
    if scope != current_scope():
        _keep_as_copy(scope.slug, document, "edits made before another model was opened")
        return False
    held = open_draft()
    base = based_on if based_on is not None and based_on.scope == held.scope else held
    if held.unreadable:
        slug = open_new_document(document)
        notify(f"Saved as a new model \"{slug}\"; the unreadable file \"{held.slug}.json\" is kept as it was.")
        return slug != held.slug
    space = workspace()
    # Streamlit may stop this run at any session-state access (a newer rerun is waiting), also between
    # the write and its record below: the note lets the next run know the write as ours (_is_our_write)
    _note_own_write(held.slug, document)
    try:
        version = space.save(held.slug, document, expected_version=base.version)
    except WorkspaceConflictError:
        rebased = _rebase_over_own_writes(held.slug, base, document)
        if rebased is None:
            st.session_state[_DOCUMENT_KEY] = replace(held, document=document, base=base.base,
                                                      version=base.version, conflict=True, save_error="")
            return False
        document, version = rebased
    except WorkspaceError as exc:
        st.session_state[_DOCUMENT_KEY] = replace(held, document=document, base=base.base, version=base.version,
                                                  save_error=str(exc))
        return False
    st.session_state[_DOCUMENT_KEY] = OpenDraft(held.slug, document, document, version, held.generation)
    return True


def _rebase_over_own_writes(slug: str, base: OpenDraft, document: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """A save refused because the model moved on since `base`: when only this session moved it (another
    grid or form of ours saved in between, or a save whose run was stopped before it was recorded), it is
    no conflict. The edit is merged over what we saved, and written; None when someone else saved, or
    the two edits touch the same value (then the user chooses)."""
    space = workspace()
    try:
        now = space.read(slug)
    except (ModelFileError, WorkspaceError):
        return None
    if not _is_our_write(slug, now.document):
        return None
    merged = three_way_merge(base.document, document, now.document)
    if not merged.clean:
        return None
    _note_own_write(slug, merged.document)
    try:
        return merged.document, space.save(slug, merged.document, expected_version=now.version)
    except WorkspaceError:
        return None


def _note_own_write(slug: str, document: dict[str, Any]) -> None:
    """Remember a document this session is writing (noted before the write, see save_document)."""
    held = st.session_state.get(_OWN_WRITES_KEY)
    writes = dict(held) if isinstance(held, dict) else {}
    writes[slug] = (*writes.get(slug, ()), _digest(document))[-_OWN_WRITES_KEPT:]
    st.session_state[_OWN_WRITES_KEY] = writes


def _is_our_write(slug: str, document: dict[str, Any]) -> bool:
    """Whether a draft read back is one this session wrote (perhaps in a run stopped before it recorded
    the save): not a change made elsewhere, so no "changed in another tab" and no conflict."""
    writes = st.session_state.get(_OWN_WRITES_KEY)
    return isinstance(writes, dict) and _digest(document) in writes.get(slug, ())


def _digest(document: dict[str, Any]) -> str:
    return hashlib.sha256(document_bytes(document)).hexdigest()


def resolve_by_saving(document: dict[str, Any], over_version: str) -> None:
    """Save `document` over the draft at `over_version` (the user chose it after seeing a conflict)."""
    held = open_draft()
    st.session_state[_DOCUMENT_KEY] = replace(held, version=over_version, conflict=False, save_error="")
    save_document(document, current_scope())


def reload_from_workspace() -> None:
    """Drop what this session holds of the open model and open it again, read afresh (the user chose
    theirs): a new scope, so no widget, form or grid keeps what was typed for the dropped draft."""
    st.session_state.pop(_DOCUMENT_KEY, None)
    _remember(current_slug(), None)


def discard_open_draft() -> None:
    """Forget the open model's pending edit (the user deleted the model)."""
    st.session_state.pop(_DOCUMENT_KEY, None)


def open_new_document(document: dict[str, Any]) -> str:
    """Save a document as a new draft and make it the open model (the open one stays, if it cannot)."""
    space = workspace()
    try:
        slug = space.create(document)
    except WorkspaceError as exc:
        notify(f"The model was not opened: {exc}")
        return current_slug()
    _remember(slug, space.version(slug), document)
    st.query_params["model"] = slug
    return slug


def place_model(slug: str, document: dict[str, Any], untouched: Callable[[dict[str, Any]], bool]) -> str:
    """Put `document` into the draft `slug` (created if absent) and open it; return the slug opened.

    A lesson reuses one model instead of adding one per step. What the user typed into it is never
    lost: when the draft holds anything `untouched` does not recognise, it is first kept as a copy
    (and the next run says so). A draft that cannot be read, or that changes while this runs, is left
    as it is and the document opens as a new model instead.
    """
    space = workspace()
    version = space.version(slug)
    if version is not None:
        try:
            current = space.read(slug)
        except (ModelFileError, WorkspaceError):
            return open_new_document(document)
        if not untouched(current.document):
            try:
                kept = save_as_copy(current.document, "my edits", slug)
            except WorkspaceError as exc:
                notify(f"Your edits in \"{slug}\" could not be kept as a copy ({exc}), so they were left "
                       "in place and the step opened as a new model.")
                return open_new_document(document)
            notify(f"Your edits to this model are kept as \"{kept}\" (sidebar).")
    try:
        new_version = space.save(slug, document, expected_version=version or "")
    except WorkspaceError:  # a conflict included: someone saved it meanwhile, so leave theirs alone
        return open_new_document(document)
    _remember(slug, new_version, document)
    st.query_params["model"] = slug
    return slug


def link_params(**choices: str) -> dict[str, str]:
    """Query parameters for an internal link: the open model, the workshop session, and `choices`."""
    params = {"model": current_slug(), **choices}
    token = st.query_params.get(TOKEN_PARAMETER)
    if workshop_mode() and token:
        params[TOKEN_PARAMETER] = token
    return params


def notify(message: str) -> None:
    """A message for the next run of any page (a button usually reruns straight after acting)."""
    st.session_state[_NOTICE_KEY] = message


def take_notice() -> str | None:
    notice: str | None = st.session_state.pop(_NOTICE_KEY, None)  # set_notice stores text
    return notice


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
                                     workshop_secret(default_workspace_dir()), _session_has_work)
        token = resolution.token
        st.session_state[_TOKEN_KEY] = token
        if resolution.refused:
            st.session_state[_REFUSED_KEY] = resolution.refused
    if st.query_params.get(TOKEN_PARAMETER) != token:
        st.query_params[TOKEN_PARAMETER] = token
    return token


def _session_has_work(token: str) -> bool:
    """Whether a workshop session with this token saved anything here (asked only for a link not this browser's)."""
    try:
        table = workspace_table_name()
        if table is not None:
            return bool(open_table_workspace(configured_endpoint(), table, token).drafts())
        return session_workspace_dir(default_workspace_dir(), token).is_dir()
    except (WorkspaceError, EndpointError, OSError):
        return False  # no evidence it exists: the message says so rather than blame another browser


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


def _remember(slug: str, version: str | None, document: dict[str, Any] | None = None) -> ModelScope:
    """Open `slug` in a new scope, after ending the one open before (see _end_scope)."""
    old = st.session_state.get(_SCOPE_KEY)
    if isinstance(old, ModelScope):
        _end_scope(old)
    generation = int(st.session_state.get(_GENERATION_KEY) or 0) + 1
    st.session_state[_GENERATION_KEY] = generation
    scope = ModelScope(slug, generation)
    st.session_state[_SCOPE_KEY] = scope
    if document is None or version is None:
        st.session_state.pop(_DOCUMENT_KEY, None)
    else:
        st.session_state[_DOCUMENT_KEY] = OpenDraft(slug, document, document, version, generation)
    return scope


def _end_scope(scope: ModelScope) -> None:
    """End the state of a model that is no longer open. An edit of it not yet saved (a failed save, or
    one held by a conflict) goes to that model if it can, else into a copy, with a note: it is never
    carried into the next model, and never dropped silently. Then every key of the scope goes."""
    held = st.session_state.pop(_DOCUMENT_KEY, None)
    if (isinstance(held, OpenDraft) and held.scope == scope and held.pending and not held.unreadable
            and held.document != held.base):
        _save_pending(held)
    for key in [k for k in st.session_state if str(k).startswith(SCOPE_PREFIX)]:
        del st.session_state[key]


def _save_pending(held: OpenDraft) -> None:
    space = workspace()
    if not held.conflict and space.exists(held.slug):
        try:
            space.save(held.slug, held.document, expected_version=held.version)
        except WorkspaceError:
            pass
        else:
            notify(f"Your last edit to \"{held.slug}\" was saved before the other model was opened.")
            return
    _keep_as_copy(held.slug, held.document, "my unsaved edits")


def save_as_copy(document: dict[str, Any], label: str, unnamed: str = "Model") -> str:
    """Save `document` as a new model named "<its name, or `unnamed`> (<label>)", without opening it; its
    slug. Raises WorkspaceError when the workspace refuses it (callers say so in their own words)."""
    return workspace().create({**document, "name": f"{document.get('name') or unnamed} ({label})"})


def _keep_as_copy(slug: str, document: dict[str, Any], label: str) -> None:
    try:
        copy = save_as_copy(document, label, slug)
    except WorkspaceError as exc:
        notify(f"An edit to \"{slug}\" could not be saved, nor kept as a copy ({exc}); it was dropped.")
        return
    notify(f"An edit to \"{slug}\" could not be saved there, so it is kept as a new model \"{copy}\" (sidebar).")


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
