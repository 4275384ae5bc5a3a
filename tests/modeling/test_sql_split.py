"""The SQL statement splitter (issue 31, item 1): the pieces always put the file back together, and every
statement of a file made of statements comes back whole, whatever quotes, comments or dollar quotes hold a `;`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modeling.interop.sql_split import PieceKind, split_sql

DIALECTS = ("postgres", "mysql")


def _statements(text: str, dialect: str) -> list[str]:
    return [p.text.strip() for p in split_sql(text, dialect) if p.kind is PieceKind.STATEMENT]


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab;'\"`$\\-/*#\n E.()")), max_size=80),
       dialect=st.sampled_from(DIALECTS))
def test_any_text_is_cut_into_pieces_that_put_it_back_together(text: str, dialect: str) -> None:
    assert "".join(p.raw for p in split_sql(text, dialect)) == text


# Fragments that may hold a `;` the splitter must not cut at (or, for `plain`, nothing special).
_PLAIN = st.sampled_from(["CREATE", "TABLE", "t", "(id int)", "SELECT", "1", "x", "=", ",", "f(a, b)"])
_SHARED = st.sampled_from(["'a;b'", "'it''s; here'", '"odd;name"', "/* c; d */", "-- note; here\n", "'--;'"])
_POSTGRES = st.sampled_from(["$$ BEGIN RETURN 1; END; $$", "$body$ x; 'y' $body$", "E'a\\';b'", "$1"])
_MYSQL = st.sampled_from(["`odd;name`", "'it\\'s; here'", "# note; here\n", "\"a\\\";b\""])


def _statement(dialect: str) -> st.SearchStrategy[str]:
    special = st.one_of(_SHARED, _POSTGRES if dialect == "postgres" else _MYSQL)
    return st.builds(lambda first, rest: " ".join([first, *rest]), _PLAIN,
                     st.lists(st.one_of(_PLAIN, special), max_size=6))


@settings(max_examples=100, deadline=None)
@given(data=st.data(), dialect=st.sampled_from(DIALECTS))
def test_statements_joined_by_semicolons_split_back_into_the_same_statements(data: st.DataObject,
                                                                             dialect: str) -> None:
    statements = data.draw(st.lists(_statement(dialect), min_size=1, max_size=6))
    text = ";\n".join(statements) + ";\n"
    assert _statements(text, dialect) == [s.strip() for s in statements]


@settings(max_examples=100, deadline=None)
@given(bodies=st.lists(_statement("mysql"), min_size=1, max_size=4))
def test_a_mysql_delimiter_block_keeps_each_routine_whole(bodies: list[str]) -> None:
    text = "CREATE TABLE a (id int);\nDELIMITER //\n" + "//\n".join(bodies) + "//\nDELIMITER ;\nSELECT 2;\n"
    assert _statements(text, "mysql") == ["CREATE TABLE a (id int)", *[b.strip() for b in bodies], "SELECT 2"]


_PSQL = st.sampled_from(["\\c shop", "\\connect other", "\\set ON_ERROR_STOP on", "\\restrict abc;"])
_COPY = st.lists(st.sampled_from(["1\tx; y", "2\t'z", "3\t$$", "4\t-- no"]), max_size=3)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_psql_file_of_statements_commands_and_copy_rows_comes_back_piece_by_piece(data: st.DataObject) -> None:
    items = data.draw(st.lists(st.one_of(st.tuples(st.just(PieceKind.STATEMENT), _statement("postgres")),
                                         st.tuples(st.just(PieceKind.PSQL_COMMAND), _PSQL),
                                         st.tuples(st.just(PieceKind.COPY_DATA), _COPY)), min_size=1, max_size=6))
    text, expected = "", []
    for kind, item in items:
        if kind is PieceKind.COPY_DATA:
            rows = "".join(f"{row}\n" for row in item) + "\\.\n"
            text += "COPY t (a, b) FROM stdin;\n" + rows
            expected += [(PieceKind.STATEMENT, "COPY t (a, b) FROM stdin"), (PieceKind.COPY_DATA, rows.strip())]
        elif kind is PieceKind.PSQL_COMMAND:
            text += f"{item}\n"
            expected.append((kind, item))
        else:
            text += f"{item};\n"
            expected.append((kind, item.strip()))
    pieces = split_sql(text, "postgres")
    assert "".join(p.raw for p in pieces) == text
    assert [(p.kind, p.text.strip()) for p in pieces if p.kind is not PieceKind.BLANK] == expected


def test_mysqldump_routines_between_delimiter_lines_are_one_statement_each() -> None:
    text = ("DELIMITER ;;\n"
            "CREATE DEFINER=`root`@`localhost` PROCEDURE `p`(IN x INT)\nBEGIN\n  SELECT x / 2;\n  SELECT 1;\nEND ;;\n"
            "DELIMITER ;\nCREATE TABLE t (id int);\n")
    pieces = split_sql(text, "mysql")
    assert [p.kind for p in pieces] == [PieceKind.DELIMITER, PieceKind.STATEMENT, PieceKind.DELIMITER,
                                        PieceKind.STATEMENT]
    assert pieces[1].text.endswith("END ") and pieces[1].delimiter == ";;" and "SELECT 1;" in pieces[1].text


def test_a_psql_meta_command_is_its_own_line_and_not_sql() -> None:
    text = "DROP DATABASE x;\n\\c chinook;\nCREATE TABLE t (id int);\n"
    pieces = split_sql(text, "postgres")
    assert [(p.kind, p.text.strip()) for p in pieces] == [
        (PieceKind.STATEMENT, "DROP DATABASE x"), (PieceKind.PSQL_COMMAND, "\\c chinook;"),
        (PieceKind.STATEMENT, "CREATE TABLE t (id int)")]


def test_copy_rows_up_to_the_backslash_dot_line_are_data_not_statements() -> None:
    text = "COPY t (a, b) FROM stdin;\n1\tx; y\n2\t'z\n\\.\nCREATE TABLE u (id int);\n"
    pieces = split_sql(text, "postgres")
    assert [p.kind for p in pieces] == [PieceKind.STATEMENT, PieceKind.COPY_DATA, PieceKind.STATEMENT]
    assert pieces[1].text == "1\tx; y\n2\t'z\n\\.\n"  # the lone quote in the rows opens nothing


def test_dollar_quotes_with_a_tag_hold_other_dollar_quotes_and_semicolons() -> None:
    text = "CREATE FUNCTION f() RETURNS int AS $fn$ SELECT $$;$$; $fn$ LANGUAGE sql;\nSELECT $1;"
    assert _statements(text, "postgres") == ["CREATE FUNCTION f() RETURNS int AS $fn$ SELECT $$;$$; $fn$ "
                                             "LANGUAGE sql", "SELECT $1"]


def test_a_rows_comment_after_the_semicolon_stays_with_its_statement() -> None:
    pieces = split_sql("CREATE TABLE t (id int); -- rows: 12\nCREATE TABLE u (id int);", "postgres")
    assert pieces[0].trailing == " -- rows: 12\n" and pieces[1].text == "CREATE TABLE u (id int)"


@pytest.mark.parametrize(("text", "what"), [("SELECT 'abc;", "a quoted string"), ("SELECT $$ x;", "a $$ quote"),
                                            ('SELECT "abc', 'a "quoted" name'), ("/* never closed", "a /* comment")])
def test_an_unclosed_quote_is_named_and_keeps_the_rest_of_the_file(text: str, what: str) -> None:
    pieces = split_sql("SELECT 1;\n" + text, "postgres")
    assert pieces[-1].unclosed == what and pieces[-1].text == text
