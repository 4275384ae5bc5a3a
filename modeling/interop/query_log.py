"""Query logs with frequencies: PostgreSQL `pg_stat_statements` and MySQL
`performance_schema.events_statements_summary_by_digest`, exported as CSV.

- pg_stat_statements: `query`, `calls`, `total_exec_time` (PostgreSQL 13+) or `total_time` (older), and
  `rows` when present. It holds no time window: the statistics run from the last
  `pg_stat_statements_reset()`, which the user states.
- MySQL's digest summary: `DIGEST_TEXT`, `COUNT_STAR`, `SUM_TIMER_WAIT` (picoseconds), `SUM_ROWS_SENT` /
  `SUM_ROWS_AFFECTED`, and `FIRST_SEEN` / `LAST_SEEN`, from which the window is read.
Column names match case-insensitively; other columns are ignored.

>>> log = read_query_log(b"query,calls,total_exec_time\\nSELECT 1,10,2.5\\n")
>>> log.source_format, log.statements[0].calls, log.dialect.value
('pg_stat_statements', 10, 'postgres')
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from datetime import datetime

from modeling.errors import ModelFileError, Problem
from modeling.interop.sql_schema import SqlDialect

MAX_LOG_BYTES = 20 * 1024 * 1024
# A CSV field (one statement's text) is at most this long: Python's csv module refuses longer ones.
MAX_FIELD_BYTES = 1024 * 1024
PG_STAT_STATEMENTS = "pg_stat_statements"
MYSQL_DIGEST = "events_statements_summary_by_digest"
_PICOSECONDS_PER_MILLISECOND = 1e9


@dataclass(frozen=True)
class LoggedStatement:
    text: str
    calls: int
    total_time_ms: float | None = None
    rows: float | None = None  # rows returned or affected, over all calls
    line: int = 0  # CSV line of the statement


@dataclass(frozen=True)
class QueryLog:
    source_format: str
    dialect: SqlDialect
    statements: tuple[LoggedStatement, ...]
    window_hours: float | None = None  # known from the log itself (MySQL's FIRST_SEEN .. LAST_SEEN)


def read_query_log(data: bytes, source: str = "query log") -> QueryLog:
    """The statements of a pg_stat_statements or MySQL digest CSV export; ModelFileError for anything else."""
    if len(data) > MAX_LOG_BYTES:
        raise _error(source, f"the log is larger than {MAX_LOG_BYTES // 1024 // 1024} MB",
                     "export the top statements by calls")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _error(source, "the log is not UTF-8 text", "export the CSV as UTF-8") from None
    csv.field_size_limit(MAX_FIELD_BYTES)
    reader = csv.DictReader(io.StringIO(text))
    try:
        return _statements(reader, source)
    except csv.Error as exc:  # a field over MAX_FIELD_BYTES: the csv module raises before counting its line
        raise _error(f"{source} line {reader.line_num + 1}", f"the CSV cannot be read: {exc}",
                     f"keep each field under {MAX_FIELD_BYTES // 1024 // 1024} MB (a statement's text is far "
                     "shorter) and export the log as plain CSV") from None


def _statements(reader: csv.DictReader[str], source: str) -> QueryLog:
    fields = {f.strip().lower(): f for f in reader.fieldnames or [] if f}
    if "digest_text" in fields and "count_star" in fields:
        return _mysql(reader, fields, source)
    if "query" in fields and "calls" in fields:
        return _postgres(reader, fields, source)
    raise _error(source, "the CSV is neither a pg_stat_statements export (query, calls, total_exec_time) nor a "
                 "MySQL events_statements_summary_by_digest export (DIGEST_TEXT, COUNT_STAR)",
                 "export it with a header row naming those columns")


def _postgres(reader: csv.DictReader[str], fields: dict[str, str], source: str) -> QueryLog:
    time_field = fields.get("total_exec_time") or fields.get("total_time")
    statements = []
    for line, row in enumerate(reader, start=2):
        text = (row.get(fields["query"]) or "").strip()
        if not text:
            continue
        statements.append(LoggedStatement(
            text, _count(row.get(fields["calls"]), source, line, "calls"),
            _number(row.get(time_field), source, line) if time_field else None,
            _number(row.get(fields["rows"]), source, line) if "rows" in fields else None, line))
    return QueryLog(PG_STAT_STATEMENTS, SqlDialect.POSTGRES, tuple(statements))


def _mysql(reader: csv.DictReader[str], fields: dict[str, str], source: str) -> QueryLog:
    statements = []
    first_seen: list[datetime] = []
    last_seen: list[datetime] = []
    for line, row in enumerate(reader, start=2):
        text = (row.get(fields["digest_text"]) or "").strip()
        if not text or text.upper() == "NULL":
            continue
        wait = _number(row.get(fields["sum_timer_wait"]), source, line) if "sum_timer_wait" in fields else None
        sent = _number(row.get(fields["sum_rows_sent"]), source, line) if "sum_rows_sent" in fields else None
        affected = (_number(row.get(fields["sum_rows_affected"]), source, line)
                    if "sum_rows_affected" in fields else None)
        rows = sent if sent else affected if affected else sent if sent is not None else affected
        statements.append(LoggedStatement(
            text, _count(row.get(fields["count_star"]), source, line, "COUNT_STAR"),
            None if wait is None else wait / _PICOSECONDS_PER_MILLISECOND, rows, line))
        for name, seen in (("first_seen", first_seen), ("last_seen", last_seen)):
            moment = _moment(row.get(fields[name])) if name in fields else None
            if moment is not None:
                seen.append(moment)
    window = None
    if first_seen and last_seen and max(last_seen) > min(first_seen):
        window = (max(last_seen) - min(first_seen)).total_seconds() / 3600
    return QueryLog(MYSQL_DIGEST, SqlDialect.MYSQL, tuple(statements), window)


def _count(value: str | None, source: str, line: int, name: str) -> int:
    number = _number(value, source, line)
    if number is None or number < 0:
        raise _error(f"{source} line {line}", f"{name} is {value!r}, not a number of calls", "write a whole number")
    return int(number)


def _number(value: str | None, source: str, line: int) -> float | None:
    text = (value or "").strip().replace(",", "")
    if not text or text.upper() == "NULL":
        return None
    try:
        number = float(text)
    except ValueError:
        raise _error(f"{source} line {line}", f"{value!r} is not a number", "export the numbers as plain digits") \
            from None
    if not math.isfinite(number):  # `inf`, `nan`, or `1e400` (beyond a float): no count or time is that
        raise _error(f"{source} line {line}", f"{value!r} is not a finite number",
                     "export the numbers as plain digits")
    return number


def _moment(value: str | None) -> datetime | None:
    text = (value or "").strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None
    except ValueError:
        return None


def _error(where: str, message: str, suggestion: str) -> ModelFileError:
    return ModelFileError([Problem(where, message, suggestion)])
