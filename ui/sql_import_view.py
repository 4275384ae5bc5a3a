"""The File tab's import from a relational database: a schema (.sql), optionally its query log and row counts.

Thin glue: the files go to `modeling.interop.relational_import.import_relational` as they are; the result (or the
problems, with line and column for bad SQL) is shown after the rerun that opens the new model.
"""

from __future__ import annotations

import streamlit as st

from modeling.errors import ModelFileError
from modeling.interop.relational_import import import_relational
from modeling.model_file import model_to_document, refuse_oversized
from ui import session
from ui.problems import show_problems
from ui.text import plain

_DIALECTS = {"Detect": None, "PostgreSQL": "postgres", "MySQL": "mysql"}


def sql_import() -> None:
    st.markdown("**Import a relational schema** (CREATE TABLE statements, PostgreSQL or MySQL), optionally with "
                "its query log (pg_stat_statements or MySQL's events_statements_summary_by_digest, as CSV)")
    _show_result()
    schema = st.file_uploader("Schema (.sql)", type=["sql", "ddl", "txt"], key="model.sql_upload")
    log = st.file_uploader("Query log (.csv, optional)", type=["csv"], key="model.sql_log_upload")
    rows = st.file_uploader("Row counts (.csv: table,rows; optional)", type=["csv"], key="model.sql_rows_upload")
    left, middle, right = st.columns(3)
    dialect = left.selectbox("Dialect", list(_DIALECTS), key="model.sql_dialect")
    window = middle.number_input("Hours the log covers (0: from the log, else 24)", min_value=0.0, value=0.0,
                                 step=1.0, key="model.sql_window_hours")
    ratio = right.number_input("Peak / average traffic", min_value=1.0, value=2.0, step=0.5,
                               key="model.sql_peak_ratio")
    if schema is None or not st.button("Import as a new model", key="model.sql_import"):
        return
    try:
        for upload in (schema, log, rows):
            if upload is not None:
                refuse_oversized(upload.size)
        result = import_relational(schema.getvalue(), schema.name, log.getvalue() if log else None,
                                   log.name if log else "query log", rows.getvalue() if rows else None,
                                   _DIALECTS[dialect], float(window) or None, float(ratio),
                                   rows.name if rows else "row counts")
    except ModelFileError as exc:
        st.error(f"{plain(schema.name)} could not be imported; the model you had open is unchanged.", icon="🗄")
        show_problems(exc.problems)
        return
    session.open_new_document(model_to_document(result.model))
    st.session_state["model.sql_result"] = (schema.name, result)
    st.rerun()


def _show_result() -> None:
    found = st.session_state.get("model.sql_result")
    if not found:
        return
    name, result = found
    model = result.model
    st.success(f"Imported {plain(name)} ({result.dialect}) as a new model: {len(model.entities)} entities, "
               f"{len(model.relationships)} relationships, {len(model.access_patterns)} access patterns.", icon="🗄")
    if result.mapped or result.unmapped:
        st.markdown(f"{len(result.mapped)} statements mapped, {len(result.unmapped)} not mapped, {result.skipped} "
                    "skipped (no table of the schema).")
    if result.unmapped:
        st.markdown("**Statements no access pattern serves**, and what to do instead:")
        st.dataframe([{"statement": u.statement, "calls": u.calls,
                       "share of data calls": f"{u.traffic_share:.1%}", "reason": u.reason, "why": u.detail,
                       "instead": u.alternative} for u in result.unmapped], hide_index=True)
    if result.decisions:
        st.markdown("**Needs a decision:**\n" + "\n".join(f"- {plain(d)}" for d in result.decisions))
    if result.inferred:
        with st.expander("What was inferred"):
            st.markdown("\n".join(f"- {plain(note)}" for note in result.inferred))
    if result.mapped:
        with st.expander("Which statement became which access pattern"):
            st.dataframe([{"pattern": m.pattern, "calls": m.calls, "statement": m.statement} for m in result.mapped],
                         hide_index=True)
