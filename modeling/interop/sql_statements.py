"""A SQL file's statements, each parsed on its own by sqlglot, and the plain-words reason for every statement
the model does not use (issue 31, item 1).

The file is cut first (`modeling.interop.sql_split`), so a stored procedure, a function sqlglot cannot read
or a psql command is one skipped statement, listed with its line and why, never a refused file. Only a
`CREATE TABLE` that cannot be read refuses the file (`SqlSchemaError`, in plain words with what to do):
dropping it would silently lose an entity.

>>> read, skipped = read_statements("\\\\c shop\\nCREATE TABLE t (id int);\\nCREATE INDEX i ON t (id);", "postgres")
>>> [type(r.expression).__name__ for r in read], [(s.line, s.summary) for s in skipped]
(['Create', 'Create'], [(1, '\\\\c shop')])
"""

from __future__ import annotations

import bisect
import itertools
import logging
import re
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, SqlglotError, TokenError

from modeling.errors import ModelFileError, Problem
from modeling.interop.sql_split import PieceKind, SqlPiece, split_sql

_LEADING_COMMENTS = re.compile(r"(\s+|--[^\n]*|#[^\n]*|/\*.*?\*/)*", re.S)
_VERSIONED = re.compile(r"/\*!\d*\s*(.*?)\*/", re.S)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_TABLE_HEAD = re.compile(r"create\s+(or\s+replace\s+)?((global|local)\s+)?(unlogged\s+)?table\b", re.I)
_TEMPORARY_HEAD = re.compile(r"create\s+((global|local)\s+)?temp(orary)?\s+table\b", re.I)
_CREATE_KINDS = ("MATERIALIZED VIEW", "FUNCTION", "PROCEDURE", "TRIGGER", "EVENT", "VIEW", "INDEX", "SEQUENCE",
                 "SCHEMA", "DATABASE", "EXTENSION", "TYPE", "DOMAIN", "AGGREGATE", "OPERATOR", "CAST", "RULE",
                 "POLICY", "ROLE", "TABLE", "PUBLICATION", "COLLATION", "TEXT SEARCH")
_REASONS = {
    "FUNCTION": "a stored function: code that runs in the database, not data the model holds",
    "PROCEDURE": "a stored procedure: code that runs in the database, not data the model holds",
    "TRIGGER": "a trigger: in DynamoDB, a Lambda function on the table's stream does this work",
    "EVENT": "a scheduled event: code that runs in the database, not data the model holds",
    "VIEW": "a view: a saved query, not stored data (what it reads belongs in access patterns)",
    "MATERIALIZED VIEW": "a materialized view: a saved query's result (a precomputed item in DynamoDB)",
    "INDEX": "an index: the key design chooses DynamoDB's indexes from the access patterns",
    "SEQUENCE": "a sequence: DynamoDB has none (the application generates ids)",
    "SCHEMA": "creates a schema (a namespace), not a table", "DATABASE": "creates a database, not a table",
    "EXTENSION": "a PostgreSQL extension", "TYPE": "a type that is not an enum",
    "TABLE": "a temporary table: it lasts one session",
    "SET": "a session setting", "RESET": "a session setting", "USE": "chooses the database",
    "SELECT": "a query run while the file loads (pg_dump's set_config, say), not a table",
    "INSERT": "writes rows: data, not schema", "COPY": "writes rows: data, not schema",
    "REPLACE": "writes rows: data, not schema", "UPDATE": "writes rows: data, not schema",
    "DELETE": "deletes rows: data, not schema", "TRUNCATE": "deletes rows: data, not schema",
    "DROP": "drops an object (dumps drop before they create)", "LOCK": "locks tables while data loads",
    "UNLOCK": "unlocks tables after data loads", "COMMENT": "a comment on an object",
    "GRANT": "permissions", "REVOKE": "permissions", "BEGIN": "a transaction boundary",
    "START": "a transaction boundary", "COMMIT": "a transaction boundary", "ROLLBACK": "a transaction boundary",
    "ALTER": "changes an object in a way the model does not use (ownership, defaults, indexes, sequences)",
    "ANALYZE": "maintenance", "VACUUM": "maintenance", "CALL": "runs a procedure",
}


class SqlSchemaError(ModelFileError):
    """SQL the import cannot read, with where (line, column), what is wrong and what to do, in plain words."""

    def __init__(self, message: str, line: int = 0, column: int = 0, source: str = "",
                 suggestion: str = "fix the SQL there, or remove the statement") -> None:
        self.line, self.column = line, column
        where = (f"line {line}, column {column}" if column else f"line {line}") if line else "(file)"
        super().__init__([Problem(where, message, suggestion)], source)


@dataclass(frozen=True)
class ReadStatement:
    expression: exp.Expression
    line: int  # where its first word is
    text: str
    trailing: str  # the rest of the line after its `;` (a `-- rows: N` comment)


@dataclass(frozen=True)
class SkippedStatement:
    line: int
    summary: str  # its first words: `CREATE FUNCTION public.last_day(timestamp with time zone)`
    reason: str  # why the model does not need it, in plain words
    kind: str  # what it is (`CREATE FUNCTION`, `psql command`, `SET`): `statement_kind`, or the piece's kind

    def __str__(self) -> str:
        return f"line {self.line}: {self.summary}: {self.reason}"


def read_statements(text: str, dialect: str, source: str = "") -> tuple[list[ReadStatement], list[SkippedStatement]]:
    """The statements sqlglot reads, and the ones skipped; raises SqlSchemaError for an unreadable CREATE TABLE."""
    lines = _LineIndex(text)
    read: list[ReadStatement] = []
    skipped: list[SkippedStatement] = []
    for piece in split_sql(text, dialect):
        versioned = _VERSIONED.search(piece.text) if piece.kind is PieceKind.BLANK and piece.delimiter else None
        if versioned is not None:  # mysqldump's `/*!40101 SET ... */;`: MySQL runs it, so it is listed
            inner = versioned.group(1)
            skipped.append(SkippedStatement(lines.line(piece.offset + versioned.start()), summary(inner),
                                            "a MySQL versioned comment: " + statement_reason(inner),
                                            statement_kind(inner)))
        if piece.kind in (PieceKind.BLANK, PieceKind.DELIMITER):
            continue  # a DELIMITER line is used: it says where the next statements end
        start = piece.offset + _code_start(piece.text)
        line = lines.line(start)
        if piece.kind is not PieceKind.STATEMENT:
            skipped.append(SkippedStatement(line, summary(piece.text), _command_reason(piece.kind),
                                            _command_kind(piece.kind)))
            continue
        if piece.unclosed:
            raise SqlSchemaError(f"{piece.unclosed} opened here is never closed, so the rest of the file cannot be "
                                 "read", *lines.position(start), source, "close it (or remove the statement)")
        expression = _parse(piece, dialect, lines, source) if _may_be_used(piece.text) else None
        if expression is None:
            skipped.append(SkippedStatement(line, summary(piece.text), statement_reason(piece.text),
                                            statement_kind(piece.text)))
        else:
            read.append(ReadStatement(expression, line, piece.text, piece.trailing))
    return read, skipped


def summary(text: str) -> str:
    """The statement's first line, without the comments before it, at most 80 characters."""
    first = text[_code_start(text):].strip().split("\n", 1)[0].strip()
    return first if len(first) <= 80 else first[:77] + "..."


def statement_reason(text: str) -> str:
    """Why the model does not need a statement, from its first words."""
    words = [w.upper() for w in _WORD.findall(text[_code_start(text):][:300])]
    if not words:
        return "not SQL the model uses"
    if words[0] == "CREATE":
        kind = _create_kind(words)
        if kind == "INDEX" and "UNIQUE" in words[1:words.index("INDEX")]:
            return ("a unique index on an expression or on some rows (WHERE), not on plain columns: no unique set "
                    "was read from it; if the rule matters, a uniqueness item keeps it in DynamoDB")
        if (kind and kind != "TABLE") or _TEMPORARY_HEAD.match(text[_code_start(text):]):
            return _REASONS.get(kind, f"a {kind.lower()}: not a table, key or constraint")
    if words[0] == "ALTER" and "OWNER" in words and "TO" in words:
        return "sets who owns an object"
    return _REASONS.get(words[0], f"{words[0]}: not a table, key or constraint")


def statement_kind(text: str) -> str:
    """`CREATE FUNCTION`, `SET`, `psql command` ...: what a skipped statement is, for the counted notes."""
    head = text[_code_start(text):]
    if head.startswith("\\"):
        return "psql command"
    words: list[str] = [w.upper() for w in _WORD.findall(head[:300])]  # no groups: findall gives the matches
    if not words:
        return "empty"
    if words[0] == "CREATE":
        return f"CREATE {_create_kind(words)}".strip()
    return words[0]


def _create_kind(words: list[str]) -> str:
    """The kind of object a CREATE makes: the first kind word after CREATE and its modifiers (OR REPLACE,
    UNIQUE, DEFINER=...), so a column named `type` in a table never makes it a CREATE TYPE."""
    for index, word in enumerate(words[1:9], start=1):
        pair = " ".join(words[index:index + 2])
        if pair in _CREATE_KINDS:
            return pair
        if word in _CREATE_KINDS:
            return word
    return ""


def is_create_table(text: str) -> bool:
    """`CREATE [UNLOGGED] TABLE` (not a temporary one), whatever comments come before it."""
    return _TABLE_HEAD.match(text[_code_start(text):]) is not None


def _may_be_used(text: str) -> bool:
    """Only tables, indexes, types, domains and ALTER TABLE can say something the model uses: the rest (rows of
    data, routines, settings) is skipped unparsed, which keeps a dump with its data quick to read."""
    words = [w.upper() for w in _WORD.findall(text[_code_start(text):][:200])[:2]]
    return statement_kind(text) in _USED_KINDS or words == ["ALTER", "TABLE"]


_USED_KINDS = frozenset({"CREATE TABLE", "CREATE INDEX", "CREATE TYPE", "CREATE DOMAIN"})


def _command_reason(kind: PieceKind) -> str:
    return {PieceKind.PSQL_COMMAND: "a psql command (connect, settings), read by psql, not SQL",
            PieceKind.COPY_DATA: "rows of data for the COPY before it, not schema"}.get(kind, "not SQL")


def _command_kind(kind: PieceKind) -> str:
    return {PieceKind.PSQL_COMMAND: "psql command", PieceKind.COPY_DATA: "COPY data"}.get(kind, "not SQL")


def _code_start(text: str) -> int:
    match = _LEADING_COMMENTS.match(text)
    return match.end() if match is not None else 0


def _parse(piece: SqlPiece, dialect: str, lines: _LineIndex, source: str) -> exp.Expression | None:
    """The one statement of the piece, or None when sqlglot cannot read it and it is not a table."""
    table = is_create_table(piece.text)
    try:
        found = _sqlglot_parse(piece.text, dialect)
    except (ParseError, TokenError, SqlglotError, RecursionError) as exc:
        if not table:
            return None
        repaired = _repaired(piece.text, dialect)
        if repaired is not None:
            return repaired
        raise _table_error(exc, piece, dialect, lines, source) from None
    if len(found) == 1 and not (table and isinstance(found[0], exp.Command)):
        return found[0]
    if not table:
        return None  # a routine body of several statements, or a statement sqlglot only keeps as text
    raise SqlSchemaError(f"this CREATE TABLE is not {dialect} SQL the import can read", *lines.position(
        piece.offset + _code_start(piece.text)), source, _TABLE_SUGGESTION)


# both places a user chooses the dialect: the File tab's Dialect choice, and dds import sql's --dialect
_TABLE_SUGGESTION = ("check the dialect (choose MySQL or PostgreSQL as the Dialect, or --dialect mysql|postgres on "
                     "the command line), or rewrite or remove the clause "
                     "there; the model needs every table, so the file is not imported without it")


def _sqlglot_parse(text: str, dialect: str) -> list[exp.Expression]:
    quiet = logging.getLogger("sqlglot")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # its "falling back to a Command" warnings: such statements are listed here
    try:
        return [s for s in sqlglot.parse(text, read=dialect) if isinstance(s, exp.Expression)]
    finally:
        quiet.setLevel(level)


def _repaired(text: str, dialect: str) -> exp.Expression | None:
    """A CREATE TABLE sqlglot cannot read, read again without what does not change the model: PostgreSQL 18's
    `GENERATED ALWAYS AS (...) VIRTUAL` (read as STORED) and a trailing `PARTITION BY ...` clause (MySQL's
    `VALUES LESS THAN MAXVALUE`: partitions are storage, the table is one entity either way)."""
    try:
        tokens = Dialect.get_or_raise(dialect).tokenize(text)
    except (TokenError, SqlglotError, ValueError):
        return None
    edits = [(t.start, t.end + 1, "STORED") for before, t in itertools.pairwise(tokens)
             if t.text.upper() == "VIRTUAL" and before.text == ")" and dialect != "mysql"]
    depth, closed = 0, False
    for token, after in itertools.pairwise([*tokens, tokens[-1]] if tokens else []):
        depth += {"(": 1, ")": -1}.get(token.text, 0)
        closed = closed or (depth == 0 and token.text == ")")
        words = " ".join(f"{token.text} {after.text}".upper().split()).split(" ")[:2]
        if closed and depth == 0 and words == ["PARTITION", "BY"]:  # sqlglot's token may be `PARTITION BY`
            edits.append((token.start, len(text), ""))
            break
    if not edits:
        return None
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    try:
        found = _sqlglot_parse(text, dialect)
    except (SqlglotError, RecursionError):
        return None
    return found[0] if len(found) == 1 and not isinstance(found[0], exp.Command) else None


def _table_error(exc: Exception, piece: SqlPiece, dialect: str, lines: _LineIndex, source: str) -> SqlSchemaError:
    first = (exc.errors[0] if isinstance(exc, ParseError) and exc.errors else {})
    near = " ".join(str(first.get("highlight") or "").split())
    relative_line, column = int(first.get("line") or 0), int(first.get("col") or 0)
    if isinstance(exc, TokenError) or not relative_line:
        line, column = lines.position(piece.offset + _code_start(piece.text))
    else:
        base_line, base_column = lines.position(piece.offset)
        line = base_line + relative_line - 1
        column = column + base_column - 1 if relative_line == 1 else column
    name = _table_name(piece.text)
    what = _plain(str(first.get("description") or ""), near)
    table = f"the table {name}" if name else "this CREATE TABLE"
    return SqlSchemaError(f"{table} cannot be read as {dialect} SQL: {what}", line, column, source, _TABLE_SUGGESTION)


def _plain(description: str, near: str) -> str:
    """sqlglot's error description in plain words."""
    at = f" at `{near}`" if near else ""
    if description.startswith("Expecting )"):
        return f"a closing parenthesis was expected{at}"
    if description.startswith("Expecting ("):
        return f"an opening parenthesis was expected{at}"
    if description.startswith("Required keyword"):
        return f"something is missing{at}"
    if near:
        return f"the text at `{near}` was not expected there"
    return "its definition could not be understood"


def _table_name(text: str) -> str:
    head = text[_code_start(text):]
    match = _TABLE_HEAD.match(head)
    rest = head[match.end():] if match is not None else head
    name = re.match(r"\s*(if\s+not\s+exists\s+)?([^\s(]+)", rest, re.I)
    return name.group(2) if name is not None else ""


class _LineIndex:
    """Line and column of an offset in the file, without counting newlines again for every statement."""

    def __init__(self, text: str) -> None:
        self.newlines = [i for i, char in enumerate(text) if char == "\n"]

    def line(self, offset: int) -> int:
        return bisect.bisect_left(self.newlines, offset) + 1

    def position(self, offset: int) -> tuple[int, int]:
        line = self.line(offset)
        line_start = self.newlines[line - 2] + 1 if line > 1 else 0
        return line, offset - line_start + 1
