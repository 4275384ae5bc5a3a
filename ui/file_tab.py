"""The Model page's File tab: examples, upload, download, NoSQL Workbench import and export, the SQL schema and
query log import, the raw YAML editor and deletion."""

from __future__ import annotations

import difflib
import hashlib
from functools import partial
from typing import Any

import streamlit as st

from studio.errors import ModelFileError
from studio.examples import example_document, list_examples
from studio.interop import (
    DEFAULT_ITEMS_PER_ENTITY,
    MAX_ITEMS_PER_ENTITY,
    import_workbench_file,
    read_workbench,
    remembered_workbench_download,
    workbench_download,
)
from studio.model import MAX_FILE_BYTES, FileFormat, dump_document, model_to_document, parse_document, refuse_oversized
from ui import session
from ui.problems import show_problems
from ui.sql_import_view import sql_import
from ui.text import plain


def file_tab(document: dict[str, Any], slug: str) -> None:
    _examples()
    st.divider()
    _upload()
    st.divider()
    _download(document, slug)
    st.divider()
    _workbench_import()
    st.divider()
    _workbench_download(slug)
    st.divider()
    sql_import()
    st.divider()
    _raw_editor(document, slug)
    st.divider()
    _delete(slug)


def _examples() -> None:
    st.markdown("**Built-in examples**")
    examples = {e.slug: e for e in list_examples()}
    choice = st.selectbox("Example", list(examples), format_func=lambda s: examples[s].name,
                          key="model.example_choice")
    st.caption(examples[choice].description)
    if st.button("Open this example as a new model", key="model.open_example"):
        session.open_new_document(example_document(choice))
        st.rerun()


def _upload() -> None:
    st.markdown(f"**Open a model file** (JSON or YAML, up to {MAX_FILE_BYTES // 1024 // 1024} MB)")
    upload = st.file_uploader("Model file", type=["json", "yaml", "yml"], key="model.upload",
                              label_visibility="collapsed")
    if upload is None or st.session_state.get("model.upload_done") == upload.file_id:
        _show_upload_result()
        return
    try:
        refuse_oversized(upload.size)  # before reading it (server.maxUploadSize stops bigger ones sooner)
        document = parse_document(upload.getvalue(), upload.name)
    except ModelFileError as exc:
        st.session_state["model.upload_result"] = (upload.name, exc.problems)
    else:
        session.open_new_document(document)
        st.session_state["model.upload_result"] = (upload.name, [])
    st.session_state["model.upload_done"] = upload.file_id
    st.rerun()


def _show_upload_result() -> None:
    result = st.session_state.get("model.upload_result")
    if not result:
        return
    name, problems = result
    if problems:
        st.error(f"{plain(name)} could not be opened; the model you had open is unchanged.", icon="📄")
        show_problems(problems)
    else:
        st.success(f"Opened {plain(name)} as a new model.", icon="📄")


def _download(document: dict[str, Any], slug: str) -> None:
    st.markdown("**Save a copy**")
    left, right = st.columns(2)
    # built on the click (a callable), not on every rerun of the Model page: most runs are edits, not downloads
    left.download_button("Download YAML", partial(dump_document, document, FileFormat.YAML), f"{slug}.yaml",
                         mime="application/yaml", key="model.download_yaml")
    right.download_button("Download JSON", partial(dump_document, document, FileFormat.JSON), f"{slug}.json",
                          mime="application/json", key="model.download_json")


def _workbench_import() -> None:
    st.markdown("**Import a NoSQL Workbench file** (versions 1.0, 2.0 and 3.0; JSON up to "
                f"{MAX_FILE_BYTES // 1024 // 1024} MB)")
    upload = st.file_uploader("NoSQL Workbench file", type=["json"], key="model.nwb_upload",
                              label_visibility="collapsed")
    _show_workbench_result()
    if upload is None:
        return
    try:
        refuse_oversized(upload.size)
        workbench = read_workbench(upload.getvalue(), upload.name)
    except ModelFileError as exc:
        st.error(f"{plain(upload.name)} is not a NoSQL Workbench file this importer can read.", icon="📄")
        show_problems(exc.problems)
        return
    tables = [t.name for t in workbench.tables]
    table = tables[0]
    if len(tables) > 1:
        table = st.selectbox(f"The file has {len(tables)} tables; a model holds one. Table to import", tables,
                             key="model.nwb_table")
    if st.button("Import as a new model", key="model.nwb_import"):
        try:
            result = import_workbench_file(workbench, table)
        except ModelFileError as exc:
            st.error(f"Table {plain(table)} could not be imported.", icon="📄")
            show_problems(exc.problems)
            return
        session.open_new_document(model_to_document(result.model))
        st.session_state["model.nwb_result"] = (upload.name, result.table, result.inferred)
        st.rerun()


def _show_workbench_result() -> None:
    result = st.session_state.get("model.nwb_result")
    if not result:
        return
    name, table, inferred = result
    st.success(f"Imported table {plain(table)} of {plain(name)} as a new model. "
               "What was inferred:", icon="📄")
    st.markdown("\n".join(f"- {plain(note)}" for note in inferred))


def _workbench_download(slug: str) -> None:
    st.markdown("**Download as NoSQL Workbench 3.0** (one facet per entity, seeded sample data)")
    model = session.current_model()
    if model is None:
        st.caption("Fix the model's errors first; the file is built from a valid model.")
        return
    left, right = st.columns(2)
    seed = left.number_input("Seed", min_value=0, max_value=2**31 - 1, value=42, step=1,
                             key=session.model_key("nwb_seed"))
    items = right.number_input("Sample items per entity", min_value=0, max_value=MAX_ITEMS_PER_ENTITY,
                               value=DEFAULT_ITEMS_PER_ENTITY, step=1, key=session.model_key("nwb_items"))
    seed_value, item_count = int(seed), int(items)

    def built() -> str:  # on the click, in its own thread: the design search never runs on an edit's rerun
        download = workbench_download(model, seed_value, item_count)
        return download.text or f"The file could not be built: {download.error}\n"

    st.download_button("Download NoSQL Workbench JSON", built, f"{slug}.nosql-workbench.json",
                       mime="application/json", key="model.nwb_download")
    remembered = remembered_workbench_download(model, seed_value, item_count)
    if remembered is None:
        st.caption("Built when you click: keyed by the design the Layout page shows first, as `dds export "
                   "--format workbench` does. What the format cannot hold is listed here once it is built.")
    elif remembered.error:
        st.error(f"The file cannot be built: {plain(remembered.error)}", icon="📄")
    elif remembered.notes:
        st.caption(" ".join(plain(n) for n in remembered.notes))


def _raw_editor(document: dict[str, Any], slug: str) -> None:
    """The model as YAML. The box follows the model until the user types in it; typed text is never
    replaced behind their back, and text older than the model is applied only when they say so."""
    st.markdown("**Edit as YAML**")
    key, shown_key, reset_key = (session.model_key(name) for name in ("raw", "raw_shown", "raw_reset"))
    current = dump_document(document, FileFormat.YAML)
    if st.session_state.pop(reset_key, False):
        st.session_state.pop(key, None)
    shown, typed = st.session_state.get(shown_key), st.session_state.get(key)
    given_key = session.model_key("raw_given")
    given = st.session_state.get(given_key, ())
    # nothing of the user's in the box: show the model as it is now. A text the box was given earlier
    # counts as the model's, not as typed: a run interrupted by the next edit's rerun (fast typing in a
    # grid) can leave the browser holding an older text of ours than the last one shown. Except when the
    # user presses Apply with it: then it is theirs (typing an earlier value back was silently ignored)
    applying = bool(st.session_state.get(_APPLY_KEY))
    if typed is None or typed == shown or (_digest(typed) in given and not applying):
        st.session_state[key] = st.session_state[shown_key] = shown = typed = current
        st.session_state[given_key] = (*given, _digest(current))[-_TEXTS_REMEMBERED:]
    stale = shown != current
    if stale:
        st.warning("The model changed after you started editing this YAML (an edit elsewhere on this page, "
                   "or in another tab). Applying your text would undo that change; your text is kept below.",
                   icon="⚠️")
        with st.expander("What changed in the model since your text was taken"):
            st.code(_text_diff(shown or "", current), language="diff")
    st.text_area("Model file", key=key, height=360)
    left, right = st.columns(2)
    label = "Apply my YAML (replaces the newer model)" if stale else "Apply YAML"
    if left.button(label, key=_APPLY_KEY):
        _apply_raw(typed or "", current, reset_key)
    if typed != current and right.button("Discard my YAML and show the model", key="model.raw_discard"):
        st.session_state[reset_key] = True
        st.rerun()


_TEXTS_REMEMBERED = 32
_APPLY_KEY = "model.raw_apply"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _apply_raw(text: str, current: str, reset_key: str) -> None:
    if text == current:
        st.info("Nothing to apply: the text is the model as it is.", icon="📝")
        return
    try:
        document = parse_document(text.encode("utf-8"), "model.yaml")
    except ModelFileError as exc:
        st.error("The YAML was not applied; your text is kept above so you can fix it.", icon="📝")
        show_problems(exc.problems)
        return
    session.save_document(document, session.current_scope())
    st.session_state[reset_key] = True
    st.rerun()


def _text_diff(before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), "your text", "the model now",
                                 lineterm="", n=1)
    return "\n".join(lines) or "(no difference)"


def _delete(slug: str) -> None:
    st.caption("To delete this model, use 🗑 next to the model picker in the sidebar.")
