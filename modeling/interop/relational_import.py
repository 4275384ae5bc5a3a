"""One call for a page: schema bytes (and optionally a query log and row counts) -> a model and the notes.

The File tab uploads up to three files; this reads them with the one reader of each (`modeling.interop.sql_schema`,
`modeling.interop.sql_import.read_row_counts`, `modeling.interop.query_log`) and raises ModelFileError (a SqlSchemaError
carries line and column) for anything it cannot read.
"""

from __future__ import annotations

from dataclasses import dataclass

from modeling.errors import ModelFileError, Problem
from modeling.interop.query_import import MappedStatement, UnmappedStatement, import_queries
from modeling.interop.query_log import read_query_log
from modeling.interop.query_views import read_views
from modeling.interop.sql_hints import common_prefix
from modeling.interop.sql_import import import_sql, read_row_counts
from modeling.interop.sql_schema import MAX_SCHEMA_BYTES, SkippedStatement
from modeling.model import Model


@dataclass(frozen=True)
class RelationalImport:
    model: Model
    dialect: str
    inferred: tuple[str, ...]
    decisions: tuple[str, ...]
    mapped: tuple[MappedStatement, ...] = ()
    unmapped: tuple[UnmappedStatement, ...] = ()
    skipped: int = 0
    window_hours: float | None = None  # None: no query log
    peak_to_average: float | None = None
    schema_skipped: tuple[SkippedStatement, ...] = ()  # the schema's statements the model does not use, and why
    common_table_prefix: str = ""  # what every table name starts with (`phpbb_`), offered to strip, or ""
    stripped_prefix: str = ""  # the prefix left out of entity names (`table_prefix`), or ""


def import_relational(schema: bytes, schema_name: str = "schema.sql", query_log: bytes | None = None,
                      log_name: str = "query log", row_counts: bytes | None = None, dialect: str | None = None,
                      window_hours: float | None = None, peak_to_average: float | None = None,
                      row_counts_name: str = "row counts", table_prefix: str | None = None) -> RelationalImport:
    if len(schema) > MAX_SCHEMA_BYTES:
        raise ModelFileError([Problem(schema_name, f"the schema is larger than {MAX_SCHEMA_BYTES // 1024 // 1024} MB",
                                      "keep the CREATE TABLE statements only")])
    try:
        text = schema.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ModelFileError([Problem(schema_name, "the schema is not UTF-8 text", "save it as UTF-8")]) from None
    counts = read_row_counts(row_counts, row_counts_name) if row_counts else None
    imported = import_sql(text, dialect, schema_name, counts, table_prefix=table_prefix)
    shared = common_prefix([t.name for t in imported.schema.tables])
    if query_log is None:
        return RelationalImport(imported.model, imported.schema.dialect.value, imported.inferred, imported.decisions,
                                schema_skipped=imported.schema.skipped, common_table_prefix=shared,
                                stripped_prefix=imported.stripped_prefix)
    views = read_views(text, imported.schema.dialect.value)  # a query on a view reads its table
    result = import_queries(imported, read_query_log(query_log, log_name), window_hours, peak_to_average, views)
    return RelationalImport(result.model, imported.schema.dialect.value, result.inferred, result.decisions,
                            result.mapped, result.unmapped, len(result.skipped), result.window_hours,
                            result.peak_to_average, imported.schema.skipped, shared, imported.stripped_prefix)
