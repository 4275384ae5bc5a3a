"""`python -m modeling import-sql SCHEMA.sql [-o MODEL]` and `import-queries LOG.csv --schema SCHEMA.sql -o MODEL`.

The model goes to the file (or to stdout as YAML when `import-sql` has no `-o`); what was inferred, what
needs a decision and the statements no access pattern serves go to stderr. Bad SQL, a bad CSV or a window
that cannot be used is one message per problem with its line and column, exit 1; never a traceback.

The one-line design summary names the design every page proposes, which only `studio.design.propose`
knows (`modeling.design.proposal.propose` needs the cost engine's pricing, and `modeling` never imports
`costs`): `dds import` passes it in as `propose`; without it the summary points to `dds design`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modeling.design.plans import Design, Operation
from modeling.errors import ModelFileError, Problem
from modeling.interop.query_log import MAX_LOG_BYTES
from modeling.interop.relational_import import RelationalImport, import_relational
from modeling.interop.sql_schema import MAX_SCHEMA_BYTES, SqlDialect
from modeling.model import Model
from modeling.model_file import FileFormat, dump_model


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
    parser.add_argument("--strip-prefix", nargs="?", const="", default=None, metavar="PREFIX",
                        help="leave a table-name prefix out of entity names (`phpbb_users` -> User); without "
                             "PREFIX, the prefix every table name shares")


# The designs of a model, the default first (`studio.design.propose`, passed in by the caller).
Proposer = Callable[[Model], tuple[Design, ...]]


def run_sql_command(args: argparse.Namespace, propose: Proposer | None = None) -> int:
    queries = args.command == "import-queries"
    schema_path = args.schema if queries else args.file
    try:
        result = import_relational(
            _read(schema_path, MAX_SCHEMA_BYTES), str(schema_path),
            _read(args.file, MAX_LOG_BYTES) if queries else None, str(args.file),
            _read(args.row_counts, MAX_SCHEMA_BYTES) if args.row_counts else None, args.dialect,
            args.window_hours if queries else None, args.peak_to_average if queries else None,
            str(args.row_counts), args.strip_prefix)
    except ModelFileError as exc:
        for problem in exc.problems:  # the file's name when the problem is in one, else the command's
            print(f"{exc.source or 'python -m modeling ' + args.command}: {problem}", file=sys.stderr)
        return 1
    if not _write(dump_model(result.model, _format(args.output)), args.output):
        return 1
    _report(result, args.output, propose)
    return 0


def _read(path: Path, limit: int) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(limit + 1)  # one byte over the limit: the reader says it is too big
    except OSError as exc:
        raise ModelFileError([Problem("(file)", f"cannot read the file: {exc.strerror}",
                                      "check the path and permissions")], str(path)) from None


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


def _report(result: RelationalImport, output: Path | None, propose: Proposer | None) -> None:
    model = result.model
    target = f" -> {output}" if output else ""
    print(f"{result.dialect} schema: {len(model.entities)} entities, {len(model.relationships)} relationships"
          + ("" if result.window_hours is not None else target), file=sys.stderr)
    if result.window_hours is not None:
        patterns = {m.pattern for m in result.mapped}
        unmapped_share = sum(u.traffic_share for u in result.unmapped)
        print(f"{len(result.mapped)} statements mapped to {len(patterns)} access patterns, {len(result.unmapped)} "
              f"unmapped ({_percent(unmapped_share)} of the calls reading or writing data), {result.skipped} "
              f"skipped; traffic over {result.window_hours:g} hours, peak {result.peak_to_average:g} x "
              f"average{target}", file=sys.stderr)
    for mapped in result.mapped:
        print(f"mapped: {mapped.pattern} <- {_short(mapped.statement)} ({mapped.calls:,} calls)", file=sys.stderr)
    for unmapped in result.unmapped:
        print(f"unmapped ({unmapped.reason}): {_short(unmapped.statement)} ({unmapped.calls:,} calls, "
              f"{_percent(unmapped.traffic_share)} of the calls reading or writing data): {unmapped.detail}; "
              f"instead: {unmapped.alternative}", file=sys.stderr)
    for statement in result.schema_skipped:
        print(f"skipped: {statement}", file=sys.stderr)
    for note in result.inferred:
        print(f"inferred: {note}", file=sys.stderr)
    for note in result.decisions:
        print(f"decide: {note}", file=sys.stderr)
    if result.window_hours is None:
        print("next: add access patterns, or import them from a query log with import-queries", file=sys.stderr)
    elif model.access_patterns and propose is None:
        print("next: dds design MODEL for the proposed design and how it serves each pattern", file=sys.stderr)
    elif model.access_patterns and propose is not None:
        _design_summary(model, propose)


def _design_summary(model: Model, propose: Proposer) -> None:
    """How the proposed design serves the patterns: what `dds design` would say, in one line."""
    designs = propose(model)
    if not designs:
        return
    design = designs[0]
    scans = [p.pattern for p in design.plans if p.operation is Operation.SCAN]
    unnamed = [p.pattern for p in design.plans if p.unaddressed]  # DDS312: inputs short of the item's key
    served = len(design.plans) - len(scans) - len(unnamed)
    print(f"design '{design.name}': {served} of {len(design.plans)} patterns served by a key read"
          + (f"; only a Scan serves {', '.join(scans)}" if scans else "")
          + (f"; the inputs of {', '.join(unnamed)} cannot name the items they write" if unnamed else "")
          + " (dds design MODEL for the reasons)", file=sys.stderr)


def _percent(share: float) -> str:
    """0.1337 -> `13.4 %`; a share under 0.1 % is not shown as 0.0 %."""
    return f"{share:.1%}".replace("%", " %") if share == 0 or share >= 0.001 else "under 0.1 %"


def _short(statement: str) -> str:
    text = " ".join(statement.split())
    return text if len(text) <= 100 else text[:97] + "..."
