"""Views a schema defines, and a logged statement read through them to the table underneath.

The schema import (`modeling.interop.sql_schema`) keeps tables only and counts the views it leaves out; the
query-log import needs them, so that a query on a view is not reported as a query on a missing table:

- a simple view (one table, no join, aggregate, DISTINCT, LIMIT or subquery; each column a plain column,
  renamed or not) is read through: the query reads the base table, under the view's own WHERE conditions
  (`CREATE VIEW active_customer AS SELECT ... FROM customer WHERE active = 1` makes `active = 1` a filter);
- any other view is unmapped, with what makes it more than a table (it joins two tables, it aggregates).

>>> views = read_views("CREATE VIEW v AS SELECT id, email AS mail FROM users WHERE active = 1", "postgres")
>>> views["v"].base_table, views["v"].columns, views["v"].not_simple
('users', {'id': 'id', 'mail': 'email'}, None)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from modeling.interop.query_conditions import VIEW, Unmappable
from modeling.interop.sql_split import PieceKind, split_sql
from modeling.interop.sql_statements import statement_kind


@dataclass(frozen=True)
class View:
    """One `CREATE VIEW`: the table it reads and its columns, or why it is more than a table."""

    name: str
    base_table: str | None  # the one table a simple view reads
    columns: dict[str, str] | None  # view column (lower case) -> base column; None: `SELECT *`
    where: exp.Expression | None  # the view's own condition
    not_simple: str | None  # why the view cannot be read through (None: it can)


def read_views(text: str, dialect: str) -> dict[str, View]:
    """The schema file's views by lower-case name (`dialect`: sqlglot's, `postgres` or `mysql`); a view sqlglot
    cannot read is left out (a query on it is then a query on a table the schema lacks, and says so)."""
    quiet = logging.getLogger("sqlglot")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # its "falling back to a Command" warnings: such a view is simply not read
    views = {}
    try:
        # the file cut into statements as the schema import cuts it (DELIMITER blocks, dollar quotes), each
        # view parsed on its own: the rest of a dump (routines, data) is the schema import's business
        for piece in split_sql(text, str(dialect)):
            if piece.kind is not PieceKind.STATEMENT or statement_kind(piece.text) != "CREATE VIEW":
                continue
            try:
                statement = sqlglot.parse_one(piece.text, read=str(dialect))
            except (SqlglotError, RecursionError, ValueError):
                continue
            if isinstance(statement, exp.Create) and isinstance(statement.this, exp.Table) and \
                    isinstance(statement.expression, exp.Query):
                view = _view(statement.this.name, statement.expression)
                views[view.name.lower()] = view
    finally:
        quiet.setLevel(level)
    return views


def _view(name: str, query: exp.Query) -> View:
    if not isinstance(query, exp.Select):
        return View(name, None, None, None, "it combines several queries (UNION or another set operation)")
    sources = [query.args["from_"].this] if query.args.get("from_") else []
    sources += [j.this for j in query.args.get("joins") or []]
    tables = [s.name for s in sources if isinstance(s, exp.Table)]
    problem = _complexity(query, sources, tables)
    if problem is not None:
        return View(name, None, None, None, problem)
    columns: dict[str, str] | None = {}
    for selected in query.expressions:
        inner = selected.this if isinstance(selected, exp.Alias) else selected
        if isinstance(inner, exp.Star) or (isinstance(inner, exp.Column) and isinstance(inner.this, exp.Star)):
            columns = None
            break
        if not isinstance(inner, exp.Column):
            return View(name, None, None, None, f"its column {selected.alias_or_name} is computed ({inner.sql()[:60]})")
        assert columns is not None
        columns[selected.alias_or_name.lower()] = inner.name
    where = query.args.get("where")
    return View(name, tables[0], columns, where.this if isinstance(where, exp.Where) else None, None)


def _complexity(query: exp.Select, sources: list[exp.Expression], tables: list[str]) -> str | None:
    if len(sources) != 1 or len(tables) != 1:
        return f"it joins {' and '.join(tables) or 'several sources'}" if len(tables) > 1 else \
            "it reads a subquery or a function, not a table"
    if query.args.get("group") or query.args.get("having") or any(e.find(exp.AggFunc) for e in query.expressions):
        return "it aggregates (GROUP BY, COUNT, SUM ...)"
    if query.args.get("distinct") or query.args.get("limit") or query.find(exp.Window):
        return "it uses DISTINCT, LIMIT or a window function"
    if any(isinstance(n, (exp.Subquery, exp.Select)) for n in query.walk() if n is not query):
        return "it has a subquery"
    return None


def through_views(statement: exp.Expression, views: dict[str, View]) -> tuple[exp.Expression, list[str]] | Unmappable:
    """The statement reading each simple view's table instead, and a note per view; Unmappable for another view."""
    used = [t for t in statement.find_all(exp.Table) if t.name.lower() in views]
    if not used:
        return statement, []
    if not isinstance(statement, exp.Select):
        return Unmappable(VIEW, f"it writes through the view {used[0].name}: write its table instead")
    statement = statement.copy()
    alone = len(list(statement.find_all(exp.Table))) == 1  # an unqualified column can only be the view's
    notes = []
    for table in [t for t in statement.find_all(exp.Table) if t.name.lower() in views]:
        view = views[table.name.lower()]
        if view.not_simple is not None or view.base_table is None:
            return Unmappable(VIEW, f"{table.name} is a view, not a table, and {view.not_simple}")
        alias = table.alias or table.name
        _rename_columns(statement, alias, view, alone)
        table.replace(exp.to_table(view.base_table).as_(alias))
        condition = _qualified(view.where, alias) if view.where is not None else None
        if condition is not None:
            statement.where(condition, append=True, copy=False)
        shown = f" (WHERE {view.where.sql()[:80]})" if view.where is not None else ""
        notes.append(f"{table.name} is a view of {view.base_table}{shown}: the pattern reads {view.base_table}")
    return statement, notes


def _rename_columns(statement: exp.Expression, alias: str, view: View, only_source: bool) -> None:
    if view.columns is None:
        return
    for column in statement.find_all(exp.Column):
        mine = column.table.lower() == alias.lower() or (not column.table and only_source)
        base = view.columns.get(column.name.lower()) if mine else None
        if base is not None and base != column.name:
            column.set("this", exp.to_identifier(base))


def _qualified(condition: exp.Expression, alias: str) -> exp.Expression:
    copy = condition.copy()
    for column in copy.find_all(exp.Column):
        column.set("table", exp.to_identifier(alias))
    return copy
