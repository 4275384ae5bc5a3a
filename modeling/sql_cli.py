"""`python -m modeling import-sql SCHEMA.sql [-o MODEL]` and `import-queries LOG.csv --schema SCHEMA.sql -o MODEL`.

The model goes to the file (or to stdout as YAML when `import-sql` has no `-o`); what was inferred, what
needs a decision and the statements no access pattern serves go to stderr. Bad SQL, a bad CSV or a window
that cannot be used is one message per problem with its line and column, exit 1; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from modeling.errors import ModelFileError
from modeling.model_file import FileFormat, dump_model
from modeling.query_import import QueryImport, import_queries
from modeling.query_log import read_query_log
from modeling.sql_import import SqlImport, import_sql, read_row_counts
from modeling.sql_schema import MAX_SCHEMA_BYTES, SqlDialect


def add_sql_commands(commands: Any) -> None:
    schema = commands.add_parser("import-sql", help="make a model from CREATE TABLE statements (PostgreSQL, MySQL)")
    schema.add_argument("file", type=Path, metavar="SCHEMA.sql")
    _schema_options(schema)
    schema.add_argument("-o", "--output", type=Path, help="the model file to write (.yaml or .json; default: "
                                                          "YAML on stdout)")
    queries = commands.add_parser("import-queries", help="a schema's model with the access patterns of a query "
                                                         "log (pg_stat_statements or MySQL digest CSV)")
    queries.add_argument("file", type=Path, metavar="LOG.csv")
    queries.add_argument("--schema", type=Path, required=True, metavar="SCHEMA.sql")
    _schema_options(queries)
    queries.add_argument("--window-hours", type=float, metavar="H",
                         help="hours the log covers (default: FIRST_SEEN..LAST_SEEN of a MySQL export, else 24)")
    queries.add_argument("--peak-to-average", type=float, metavar="R", help="peak / average traffic (default 2)")
    queries.add_argument("-o", "--output", type=Path, required=True, help="the model file to write (.yaml or .json)")


def _schema_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dialect", choices=[d.value for d in SqlDialect],
                        help="the SQL dialect (default: whichever of the two reads more tables)")
    parser.add_argument("--row-counts", type=Path, metavar="CSV",
                        help="table row counts: `table,rows` (or pg_stat_user_tables / information_schema.tables)")


def run_sql_command(args: argparse.Namespace) -> int:
    try:
        schema = _schema(args)
        if args.command == "import-sql":
            return _write_schema(schema, args.output)
        log = read_query_log(_read(args.file, 20 * MAX_SCHEMA_BYTES), str(args.file))
        result = import_queries(schema, log, args.window_hours, args.peak_to_average)
    except ModelFileError as exc:
        for problem in exc.problems:
            print(f"{exc.source or args.file}: {problem}", file=sys.stderr)
        return 1
    return _write_queries(result, args.output)


def _schema(args: argparse.Namespace) -> SqlImport:
    path = args.schema if args.command == "import-queries" else args.file
    counts = read_row_counts(_read(args.row_counts, MAX_SCHEMA_BYTES), str(args.row_counts)) \
        if args.row_counts else None
    text = _read(path, MAX_SCHEMA_BYTES).decode("utf-8", errors="replace")
    return import_sql(text, args.dialect, str(path), counts)


def _read(path: Path, limit: int) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(limit + 1)
    except OSError as exc:
        raise ModelFileError([], f"{path}: cannot read the file: {exc.strerror}") from None


def _write(model_text: str, output: Path | None) -> bool:
    if output is None:
        sys.stdout.write(model_text)
        return True
    try:
        output.write_text(model_text, encoding="utf-8")
    except OSError as exc:
        print(f"{output}: cannot write: {exc.strerror}", file=sys.stderr)
        return False
    return True


def _format(output: Path | None) -> FileFormat:
    return (FileFormat.from_filename(output.name) if output else None) or FileFormat.YAML


def _write_schema(result: SqlImport, output: Path | None) -> int:
    if not _write(dump_model(result.model, _format(output)), output):
        return 1
    model = result.model
    print(f"{result.schema.dialect.value} schema: {len(model.entities)} entities, {len(model.relationships)} "
          f"relationships" + (f" -> {output}" if output else ""), file=sys.stderr)
    _notes(result.inferred, result.decisions)
    print("next: add access patterns, or import them from a query log with import-queries", file=sys.stderr)
    return 0


def _write_queries(result: QueryImport, output: Path) -> int:
    if not _write(dump_model(result.model, _format(output)), output):
        return 1
    patterns = {m.pattern for m in result.mapped}
    print(f"{len(result.mapped)} statements mapped to {len(patterns)} access patterns, {len(result.unmapped)} "
          f"unmapped, {len(result.skipped)} skipped; traffic over {result.window_hours:g} hours, peak "
          f"{result.peak_to_average:g} x average -> {output}", file=sys.stderr)
    for mapped in result.mapped:
        print(f"mapped: {mapped.pattern} <- {_short(mapped.statement)} ({mapped.calls:,} calls)", file=sys.stderr)
    for unmapped in result.unmapped:
        print(f"unmapped ({unmapped.reason}): {_short(unmapped.statement)} ({unmapped.calls:,} calls): "
              f"{unmapped.detail}; instead: {unmapped.alternative}", file=sys.stderr)
    _notes(result.inferred, result.decisions)
    return 0


def _notes(inferred: tuple[str, ...], decisions: tuple[str, ...]) -> None:
    for note in inferred:
        print(f"inferred: {note}", file=sys.stderr)
    for note in decisions:
        print(f"decide: {note}", file=sys.stderr)


def _short(statement: str) -> str:
    text = " ".join(statement.split())
    return text if len(text) <= 100 else text[:97] + "..."
