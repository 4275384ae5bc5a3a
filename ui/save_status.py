"""What every page shows when the open model's last edit is not saved: why, and what the user can do.

Nothing is dropped here: the user's document stays in the session until they choose. A conflict (the
model was saved elsewhere since this tab read it) offers a merge of the edits that do not overlap,
keeping theirs as a copy, saving theirs and ours side by side, or reloading theirs.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from studio.errors import WorkspaceError
from studio.workspace import MergeConflict, Side, changed_paths, resolve_conflicts, three_way_merge
from ui import session
from ui.text import plain


def render_save_status() -> None:
    notice = session.take_notice()
    if notice:
        st.error(plain(notice), icon="💾")
    held = session.open_draft()
    if held.unreadable:
        st.error(f"The model file `{held.slug}.json` could not be read, so a blank model is shown: "
                 f"{plain(held.unreadable)}. The file is kept as it is; an edit here is saved as a "
                 "new model. Fix the file, or open another model in the sidebar.", icon="💾")
    elif held.save_error:
        st.error(f"Your last edit is not saved: {plain(held.save_error)}. It is kept in this tab; "
                 "it is lost if you close the tab.", icon="💾")
        if st.button("Try saving again", key="save_status.retry"):
            session.save_document(held.document, session.current_scope())
            st.rerun()
    elif held.conflict:
        _conflict(held)


def _conflict(held: session.OpenDraft) -> None:
    try:
        theirs = session.workspace().read(held.slug)
    except WorkspaceError as exc:
        st.error(f"Your last edit is not saved and the saved model cannot be read: {plain(str(exc))}",
                 icon="💾")
        return
    merged = three_way_merge(held.base, held.document, theirs.document)
    theirs_changed = changed_paths(held.base, theirs.document)
    mine_changed = changed_paths(held.base, held.document)
    with st.container(border=True, key="save_status.conflict"):
        st.warning("This model was saved in another tab or by someone else after you opened it, so your last "
                   "edit is not saved yet. Nothing is lost: choose what to keep.", icon="🔀")
        # the paths hold entity and attribute names: plain text, never a link or an image (issue 30.3)
        st.caption("They changed: " + (", ".join(plain(p) for p in theirs_changed)
                                       or "nothing that differs from yours"))
        st.caption("You changed: " + (", ".join(plain(p) for p in mine_changed) or "nothing"))
        choices = _conflict_choices(merged.conflicts)
        merge, mine, copy_mine, reload = st.columns(4)
        if merge.button("Merge both", key="save_status.merge",
                        help="Keep their changes and yours; where both changed the same value, what you chose above."):
            session.resolve_by_saving(resolve_conflicts(merged, choices), theirs.version)
            st.rerun()
        if mine.button("Keep mine, theirs as a copy", key="save_status.keep_mine"):
            _save_copy(theirs.document, "their version")
            session.resolve_by_saving(held.document, theirs.version)
            st.rerun()
        if copy_mine.button("Keep theirs, mine as a copy", key="save_status.copy_mine"):
            _save_copy(held.document, "my version")
            session.reload_from_workspace()
            st.rerun()
        if reload.button("Discard mine, show theirs", key="save_status.reload"):
            session.reload_from_workspace()
            st.rerun()


def _conflict_choices(conflicts: tuple[MergeConflict, ...]) -> dict[str, Side]:
    """Where both sides changed the same value differently, ask which to keep (theirs unless the user says)."""
    if not conflicts:
        return {}
    st.caption("Both changed these, differently: choose which to keep. Everything else of both is kept.")
    choices: dict[str, Side] = {}
    for number, conflict in enumerate(conflicts):
        labels: dict[Side, str] = {"theirs": plain(f"theirs: {_shown(conflict.theirs, conflict.theirs_deleted)}"),
                                   "mine": plain(f"mine: {_shown(conflict.mine, conflict.mine_deleted)}")}
        chosen = st.radio(plain(conflict.path), list(labels), format_func=labels.__getitem__,
                          horizontal=True, key=session.model_key(f"conflict.{number}.{conflict.path}"))
        choices[conflict.path] = "mine" if chosen == "mine" else "theirs"
    return choices


def _shown(value: object, deleted: bool) -> str:
    if deleted:
        return "(deleted)"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "…"


def _save_copy(document: dict[str, Any], label: str) -> None:
    """Save a copy as a new draft without opening it (the open model stays the open model)."""
    try:
        session.save_as_copy(document, label)
    except WorkspaceError as exc:
        session.notify(f"The copy was not saved: {exc}")
