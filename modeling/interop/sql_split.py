"""A SQL file cut into its statements before anything parses them, so one statement the importer does not
need (a stored procedure, a psql command) cannot make the whole file unreadable (issue 31, item 1).

The cut respects what a client (psql, the mysql client, mysqldump's output) respects: quoted strings
(`'...'` with `''`, MySQL's backslash escapes, PostgreSQL's `E'...'`), quoted identifiers (`"..."`,
`` `...` ``), comments (`--`, `/* ... */`, MySQL's `#`), PostgreSQL's dollar quotes (`$$ ... $$`,
`$body$ ... $body$`), the mysql client's `DELIMITER //` lines, psql's backslash commands (`\\c dbname`,
one line each) and the data lines of `COPY ... FROM stdin;` up to `\\.`.

Nothing is lost: the pieces, put back together (`piece.raw`), are the file.

>>> pieces = split_sql("DELIMITER //\\nCREATE PROCEDURE p() BEGIN SELECT 1; END//\\nDELIMITER ;\\nSELECT 2;", "mysql")
>>> [p.text.strip() for p in pieces if p.kind is PieceKind.STATEMENT]
['CREATE PROCEDURE p() BEGIN SELECT 1; END', 'SELECT 2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

_DOLLAR_TAG = re.compile(r"\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$")
_DELIMITER_LINE = re.compile(r"delimiter[ \t]+(\S+)[^\n]*", re.I)
_COPY_FROM_STDIN = re.compile(r"^\s*copy\b.*\bfrom\s+stdin\b", re.I | re.S)
_TRAILING_COMMENT = re.compile(r"[ \t]*(--[^\n]*)?\n?")


class PieceKind(StrEnum):
    STATEMENT = "statement"  # SQL, ended by the delimiter in force (or the end of the file)
    PSQL_COMMAND = "psql command"  # `\c dbname`: one line, read by psql, not by the server
    DELIMITER = "delimiter"  # `DELIMITER //`: the mysql client's own command
    COPY_DATA = "copy data"  # the rows after `COPY ... FROM stdin;`, up to `\.`
    BLANK = "blank"  # only whitespace and comments


@dataclass(frozen=True)
class SqlPiece:
    kind: PieceKind
    text: str  # the statement without its delimiter; the comments and blank lines before it included
    offset: int  # where `text` starts in the file
    delimiter: str = ""  # the delimiter that ended it (";", "//"); "" at the end of the file or for a command
    trailing: str = ""  # after the delimiter, the rest of its line when that is blanks and a `--` comment
    unclosed: str = ""  # "a quoted string" ... when the file ends inside one

    @property
    def raw(self) -> str:
        return self.text + self.delimiter + self.trailing


def split_sql(text: str, dialect: str = "postgres") -> list[SqlPiece]:
    """The file's pieces in order; `"".join(p.raw for p in pieces) == text` always."""
    return _Splitter(text, dialect == "mysql").run()


class _Splitter:
    def __init__(self, text: str, mysql: bool) -> None:
        self.text, self.mysql = text, mysql
        self.pieces: list[SqlPiece] = []
        self.delimiter = ";"

    def run(self) -> list[SqlPiece]:
        start = position = 0
        text = self.text
        code_seen = False  # a character that is not whitespace or comment in the current piece
        while position < len(text):
            if not code_seen and self._at_line_start(start, position):
                command = self._client_command(position)
                if command is not None:
                    kind, end = command
                    self._add(kind, start, end, "")
                    start = position = end
                    continue
            if text.startswith(self.delimiter, position):
                position = self._end_statement(start, position, code_seen)
                start, code_seen = position, False
                continue
            skipped = self._skip_quoted_or_comment(position)
            if skipped is None:
                code_seen = code_seen or not text[position].isspace()
                position += 1
                continue
            end, what, is_comment = skipped
            code_seen = code_seen or not is_comment
            if what:  # the file ends inside a quote
                self._add(PieceKind.STATEMENT, start, len(text), "", unclosed=what)
                return self.pieces
            position = end
        if start < len(text):
            self._add(PieceKind.STATEMENT if code_seen else PieceKind.BLANK, start, len(text), "")
        return self.pieces

    def _at_line_start(self, start: int, position: int) -> bool:
        """Only blanks between the start of the line and here, and nothing but comments before it in the piece."""
        line_start = self.text.rfind("\n", 0, position) + 1
        return not self.text[max(line_start, start):position].strip()

    def _client_command(self, position: int) -> tuple[PieceKind, int] | None:
        text = self.text
        if text[position].isspace():
            return None
        end = text.find("\n", position)
        end = len(text) if end < 0 else end + 1
        if text[position] == "\\":
            return PieceKind.PSQL_COMMAND, end
        match = _DELIMITER_LINE.match(text, position) if self.mysql else None
        if match is not None:
            self.delimiter = match.group(1)
            return PieceKind.DELIMITER, end
        return None

    def _end_statement(self, start: int, position: int, code_seen: bool) -> int:
        after = position + len(self.delimiter)
        trailing = _TRAILING_COMMENT.match(self.text, after)
        complete = trailing is not None and (trailing.group(0).endswith("\n") or trailing.end() == len(self.text))
        end = trailing.end() if trailing is not None and complete else after
        kind = PieceKind.STATEMENT if code_seen else PieceKind.BLANK
        self._add(kind, start, position, self.text[after:end], delimiter=self.delimiter)
        if kind is PieceKind.STATEMENT and _COPY_FROM_STDIN.match(self.text[start:position]):
            return self._copy_data(end)
        return end

    def _copy_data(self, start: int) -> int:
        """The rows of `COPY ... FROM stdin;`: every line up to and including the one that is `\\.`."""
        match = re.compile(r"^\\\.[ \t\r]*(\n|$)", re.M).search(self.text, start)
        end = match.end() if match is not None else len(self.text)
        self._add(PieceKind.COPY_DATA, start, end, "", unclosed="" if match else "the rows of a COPY")
        return end

    def _skip_quoted_or_comment(self, position: int) -> tuple[int, str, bool] | None:
        """(the end of the quote or comment starting here, what is unclosed or "", whether it is a comment)."""
        text, char = self.text, self.text[position]
        if text.startswith("--", position) or (self.mysql and char == "#"):
            end = text.find("\n", position)
            return (len(text) if end < 0 else end), "", True
        if text.startswith("/*", position):
            end = text.find("*/", position + 2)
            return (end + 2, "", True) if end >= 0 else (len(text), "a /* comment", True)
        if char in "'\"`":
            # MySQL's strings ('...' and "...") take backslash escapes; PostgreSQL's only as E'...'
            escapes = (self.mysql and char != "`") or (char == "'" and position > 0 and text[position - 1] in "eE"
                                                       and not _identifier_char(text, position - 2))
            return self._close_quote(position, char, escapes)
        if char == "$" and not self.mysql and not _identifier_char(text, position - 1):
            tag = _DOLLAR_TAG.match(text, position)
            if tag is not None:
                end = text.find(tag.group(0), tag.end())
                return (end + len(tag.group(0)), "", False) if end >= 0 else (len(text), "a $$ quote", False)
        return None

    def _close_quote(self, position: int, quote: str, escapes: bool) -> tuple[int, str, bool]:
        text, index = self.text, position + 1
        while index < len(text):
            if escapes and text[index] == "\\":
                index += 2
                continue
            if text[index] == quote:
                return index + 1, "", False  # a doubled quote closes and opens again: the same result
            index += 1
        what = {"'": "a quoted string", '"': 'a "quoted" name', "`": "a `quoted` name"}[quote]
        return len(text), what, False

    def _add(self, kind: PieceKind, start: int, end: int, trailing: str, delimiter: str = "",
             unclosed: str = "") -> None:
        self.pieces.append(SqlPiece(kind, self.text[start:end], start, delimiter, trailing, unclosed))


def _identifier_char(text: str, index: int) -> bool:
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] in "_$")
