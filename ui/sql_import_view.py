"""The File tab's import from a relational database: a schema (.sql), optionally its query log and row counts.

Thin glue: the files go to `modeling.interop.relational_import.import_relational` as they are; the result (or the
problems, with line and column for bad SQL) is shown after the rerun that opens the new model.

What an import shows (its notes, the statements it skipped, the offer to strip a table prefix) belongs to the
model it opened (`ui.session.model_key`): opening another model ends it. The tab's inputs (files, dialect, hours,
ratio) are not a model's: they stay as the user left them for the next import. Stripping the prefix imports the
same files again with `table_prefix` and puts the result into the model the import opened (`session.place_model`:
edits made to it since are first kept as a copy), so nothing the user has changes until they tick the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from studio.errors import ModelFileError
from studio.interop import RelationalImport, import_relational
from studio.model import model_to_document, refuse_oversized
from ui import session
from ui.problems import show_problems
from ui.text import plain

_DIALECTS = {"Detect": None, "PostgreSQL": "postgres", "MySQL": "mysql"}
_RESULT = "sql_import.result"  # an _Imported, in the scope of the model the import opened
_STRIP = "sql_import.strip_prefix"  # the checkbox offering to strip the common table prefix


@dataclass(frozen=True)
class _Request:
    """The files and choices of one import, kept so that the same import can run again with a table prefix."""

    schema: bytes
    schema_name: str
    log: bytes | None
    log_name: str
    rows: bytes | None
    rows_name: str
    dialect: str | None
    window_hours: float | None
    peak_to_average: float

    def run(self, table_prefix: str | None = None) -> RelationalImport:
        return import_relational(self.schema, self.schema_name, self.log, self.log_name, self.rows, self.dialect,
                                 self.window_hours, self.peak_to_average, self.rows_name, table_prefix)


@dataclass(frozen=True)
class _Imported:
    request: _Request
    result: RelationalImport
    document: dict[str, Any]  # the model as the import made it: a draft still equal to it has no edits to keep


def sql_import() -> None:
    st.markdown("**Import a relational schema** (CREATE TABLE statements, PostgreSQL or MySQL), optionally with "
                "its query log (pg_stat_statements or MySQL's events_statements_summary_by_digest, as CSV)")
    last_import = st.empty()  # the last import's result: gone when a new import of the tab fails
    with last_import.container():
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
        request = _Request(schema.getvalue(), schema.name, log.getvalue() if log else None,
                           log.name if log else "query log", rows.getvalue() if rows else None,
                           rows.name if rows else "row counts", _DIALECTS[dialect], float(window) or None,
                           float(ratio))
        result = request.run()
    except ModelFileError as exc:
        # the earlier import's success, notes and offers are about other files: shown above this error they read
        # as this file's (the model it opened stays open, unchanged)
        last_import.empty()
        st.session_state.pop(session.model_key(_RESULT), None)
        st.error(f"{plain(schema.name)} could not be imported; the model you had open is unchanged.", icon="🗄")
        show_problems(exc.problems)
        return
    document = model_to_document(result.model)
    session.open_new_document(document)
    st.session_state[session.model_key(_RESULT)] = _Imported(request, result, document)
    st.rerun()


def _show_result() -> None:
    found = st.session_state.get(session.model_key(_RESULT))
    if not isinstance(found, _Imported):
        return
    result = found.result
    model = result.model
    st.success(f"Imported {plain(found.request.schema_name)} ({result.dialect}) as a new model: "
               f"{len(model.entities)} entities, {len(model.relationships)} relationships, "
               f"{len(model.access_patterns)} access patterns.", icon="🗄")
    if result.common_table_prefix:
        _offer_prefix(found)
    _show_skipped(result)
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


def _show_skipped(result: RelationalImport) -> None:
    """Every schema statement the model does not need, with its line and why (issue 31, item 1): as data."""
    skipped = result.schema_skipped
    if not skipped:
        return
    with st.expander(f"{len(skipped)} statement{'s' if len(skipped) != 1 else ''} skipped (not needed by the model)"):
        st.dataframe([{"line": s.line, "kind": s.kind, "statement": s.summary, "reason": s.reason} for s in skipped],
                     hide_index=True)


def _offer_prefix(found: _Imported) -> None:
    """The checkbox that names the entities without the prefix every table shares (issue 31, item 5); off at first."""
    prefix = found.result.common_table_prefix
    strip = st.checkbox(f"Strip the common table prefix “{plain(prefix)}” from entity names",
                        key=session.model_key(_STRIP),
                        help="Imports the same files again, naming the entities without the prefix (dds import sql "
                             "--strip-prefix); untick to keep the table names whole.")
    if strip == bool(found.result.stripped_prefix):
        return
    try:
        result = found.request.run("" if strip else None)
    except ModelFileError as exc:  # it was read a moment ago: only a change in the reader could refuse it now
        st.error("The schema could not be imported again; the model is unchanged.", icon="🗄")
        show_problems(exc.problems)
        return
    document = model_to_document(result.model)
    session.place_model(session.current_slug(), document, lambda held: held == found.document)
    st.session_state[session.model_key(_RESULT)] = _Imported(found.request, result, document)
    st.session_state[session.model_key(_STRIP)] = strip
    st.rerun()
