"""The WHERE clause of one statement, read against the schema: inputs, filters, ranges, IN lists, joins.

Shared vocabulary of the query-log import (`modeling.interop.query_patterns`): why a statement has no access
pattern (`Unmappable`, with the DynamoDB alternative for each reason) and the statement's tables (`Tables`:
aliases, and which table an unqualified column belongs to). A condition is one of
- `col = $1` / `col = ?` (an input), `col = 'x'` (a filter), `a.col = b.col` (a join);
- `col IN ($1, $2)`, `col = ANY($1)` (an input and a batch of keys);
- `<`, `<=`, `>`, `>=`, BETWEEN, `LIKE 'x%'` (a range condition);
- `LIKE '%x%'`, MATCH, `@@` (full-text search), OR (one pattern per branch): unmappable;
- anything else (`IS NULL`, `<>`, functions): a decision, said in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from modeling.interop.sql_schema import Table
from modeling.model import RangeOperator

AGGREGATE = "aggregate across partitions"
REPORTING = "ad-hoc reporting"
FULL_TEXT = "full-text search"
EVERY_PARTITION = "reads every partition"
BULK_WRITE = "writes many rows at once"
UNKNOWN_TABLE = "table not in the schema"
UNPARSED = "not parsed"
NO_KEY = "table without a primary key"
UNKNOWN_COLUMN = "column not in the schema"
PROCEDURE = "stored procedure or function"
VIEW = "view"
ALTERNATIVES = {
    UNKNOWN_COLUMN: "check the column's name against the schema (or add the column to the schema)",
    NO_KEY: "give the entity identifiers (its primary key) on the Model page, then add the pattern",
    AGGREGATE: "a precomputed aggregate item (a counter or total updated in the same transaction as the writes, "
               "or by a Lambda on DynamoDB Streams)",
    REPORTING: "DynamoDB Streams to an analytics store, or an export to S3 queried with Athena",
    FULL_TEXT: "DynamoDB Streams to a search index (OpenSearch Service's zero-ETL integration)",
    EVERY_PARTITION: "an export to S3 (or Streams to an analytics store) for reports; for a short global list, "
                     "a precomputed list item",
    BULK_WRITE: "read the keys with a Query and write each item (BatchWriteItem), or a job over an export to S3",
    UNKNOWN_TABLE: "add the table's CREATE TABLE to the schema",
    UNPARSED: "check the statement; it is listed here rather than guessed at",
    PROCEDURE: "log the statements the procedure or function runs (each read or write becomes an access pattern; "
               "several writes that must succeed together, a TransactWriteItems), or move its logic into the "
               "application",
    VIEW: "query the view's tables with their own access patterns, or keep what the view joins together in one "
          "item (denormalised) so one key reads it",
}
_RANGES = {exp.GT: RangeOperator.GREATER_THAN, exp.GTE: RangeOperator.GREATER_THAN_OR_EQUAL,
           exp.LT: RangeOperator.LESS_THAN, exp.LTE: RangeOperator.LESS_THAN_OR_EQUAL}
_FLIPPED = {RangeOperator.GREATER_THAN: RangeOperator.LESS_THAN,
            RangeOperator.GREATER_THAN_OR_EQUAL: RangeOperator.LESS_THAN_OR_EQUAL,
            RangeOperator.LESS_THAN: RangeOperator.GREATER_THAN,
            RangeOperator.LESS_THAN_OR_EQUAL: RangeOperator.GREATER_THAN_OR_EQUAL}


@dataclass(frozen=True)
class Unmappable:
    reason: str
    detail: str

    @property
    def alternative(self) -> str:
        return ALTERNATIVES[self.reason]


class Tables:
    """The statement's tables: alias -> schema table, and which table an unqualified column belongs to."""

    def __init__(self, tables: dict[str, Table], order: list[str]) -> None:
        self.by_alias, self.order = tables, order

    def resolve(self, column: exp.Column) -> tuple[str, str] | None:
        qualifier = column.table
        candidates = [self.by_alias.get(qualifier.lower())] if qualifier else [self.by_alias[a] for a in self.order]
        for table in candidates:
            found = table.column(column.name) if table is not None else None
            if table is not None and found is not None:
                return table.name, found.name  # the attribute's name (a column renamed to be one)
        return None


def conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if isinstance(condition, exp.And):
        return [*conjuncts(condition.this), *conjuncts(condition.expression)]
    return [condition]


@dataclass
class Conditions:
    inputs: dict[str, list[str]] = field(default_factory=dict)
    filters: dict[str, list[tuple[str, str | int | float | bool]]] = field(default_factory=dict)
    ranges: dict[str, list[tuple[str, RangeOperator]]] = field(default_factory=dict)
    in_lists: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)  # columns no table of the statement has
    joins: list[tuple[tuple[str, str], tuple[str, str]]] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)

    def add(self, where: dict[str, list[Any]], column: tuple[str, str], value: Any) -> None:
        found = where.setdefault(column[0], [])
        if value not in found:
            found.append(value)


def _is_value(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Placeholder, exp.Parameter, exp.Literal, exp.Boolean, exp.Neg))


def _is_parameter(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Placeholder, exp.Parameter))


def _unwrapped(node: exp.Expression) -> exp.Expression:
    """`lower($1)` is the parameter it normalises: the application can normalise the value it sends."""
    while (isinstance(node, (exp.Cast, exp.TryCast, exp.Paren)) or (
            isinstance(node, exp.Func) and not isinstance(node, exp.AggFunc)
            and len([a for a in node.args.values() if a is not None]) == 1)) and node.this is not None:
        node = node.this  # `$1::bigint` is the parameter too
    return node


def _literal(node: exp.Expression) -> str | int | float | bool:
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Neg):
        value = _literal(node.this)
        return -value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(node.sql())
    if isinstance(node, exp.Literal) and not node.is_string:
        text = node.name
        return int(text) if text.lstrip("-").isdigit() else float(text)
    return node.name


def read_conditions(where: exp.Where | None, tables: Tables) -> Conditions | Unmappable:
    found = Conditions()
    if where is None:
        return found
    for predicate in conjuncts(where.this):
        problem = _condition(predicate, tables, found)
        if problem is not None:
            return problem
    if found.unknown:
        return Unmappable(UNKNOWN_COLUMN, f"no table of the statement has {', '.join(dict.fromkeys(found.unknown))}")
    return found


def _column_of(node: exp.Expression, tables: Tables, found: Conditions) -> tuple[str, str] | None:
    """The column a side of a comparison names; `lower(email)` names email, with a note."""
    if isinstance(node, exp.Column):
        column = tables.resolve(node)
        if column is None:
            found.unknown.append(node.sql())
        return column
    if isinstance(node, exp.Func) and isinstance(node.this, exp.Column):
        column = tables.resolve(node.this)
        if column is not None:
            found.decisions.append(f"{node.sql()} compares a computed value: store it as its own attribute "
                                   f"(e.g. the normalised {column[1]}) so a key can hold it")
        return column
    return None


def _condition(predicate: exp.Expression, tables: Tables, found: Conditions) -> Unmappable | None:
    if isinstance(predicate, exp.Or):
        return Unmappable(REPORTING, f"OR of conditions ({predicate.sql()[:80]}): one access pattern per branch")
    if isinstance(predicate, (exp.Like, exp.ILike)):
        return _like(predicate, tables, found)
    if predicate.find(exp.Match) or any(isinstance(n, exp.DPipe) for n in predicate.walk()) or \
            "@@" in predicate.sql(dialect="postgres"):
        return Unmappable(FULL_TEXT, "a text-search condition")
    if isinstance(predicate, exp.EQ) and isinstance(predicate.expression, exp.Any) and \
            _is_parameter(_unwrapped(predicate.expression.this.unnest())):
        column = _column_of(predicate.this, tables, found)  # `id = ANY($1)`: PostgreSQL's array of keys
        if column is not None:
            found.add(found.inputs, column, column[1])
            found.in_lists[column[0]] = (column[1], None)
            return None
    if isinstance(predicate, exp.EQ):
        left, right = predicate.this, _unwrapped(predicate.expression)
        if _is_parameter(_unwrapped(left)):
            left, right = right, _unwrapped(left)
        if _is_value(left) and not _is_value(right):
            left, right = right, left
        if isinstance(left, exp.Column) and isinstance(right, exp.Column):
            a, b = tables.resolve(left), tables.resolve(right)
            if a and b:
                found.joins.append((a, b))
                return None
        column = _column_of(left, tables, found)
        if column is not None and _is_value(right):
            if _is_parameter(right):
                found.add(found.inputs, column, column[1])
            else:
                found.add(found.filters, column, (column[1], _literal(right)))
            return None
    elif isinstance(predicate, exp.In) and not predicate.args.get("query"):
        column = _column_of(predicate.this, tables, found)
        values = predicate.expressions
        if column is not None and values and all(_is_value(v) for v in values):
            if all(_is_parameter(v) for v in values):
                found.add(found.inputs, column, column[1])
                found.in_lists[column[0]] = (column[1], len(values))
            elif len(values) == 1:
                found.add(found.filters, column, (column[1], _literal(values[0])))
            else:
                found.decisions.append(f"{predicate.sql()} keeps several values: one request per value, or a "
                                       "filter")
            return None
    elif isinstance(predicate, (*_RANGES, exp.Between)):
        return _range(predicate, tables, found)
    elif isinstance(predicate, (exp.Is, exp.Not)):
        for named in predicate.find_all(exp.Column):
            _column_of(named, tables, found)  # a column the schema lacks makes the statement unmapped
        found.decisions.append(_null_note(predicate))
        return None
    found.decisions.append(f"the condition {predicate.sql()[:80]} is not part of the pattern: a filter in the "
                           "application or a FilterExpression")
    return None


def _range(predicate: exp.Expression, tables: Tables, found: Conditions) -> Unmappable | None:
    if isinstance(predicate, exp.Between):
        column = _column_of(predicate.this, tables, found)
        if column is not None:
            found.add(found.ranges, column, (column[1], RangeOperator.BETWEEN))
        return None
    operator = next(o for kind, o in _RANGES.items() if isinstance(predicate, kind))
    left, right = predicate.this, predicate.expression
    if not isinstance(left, (exp.Column, exp.Func)):
        left, right, operator = right, left, _FLIPPED[operator]
    column = _column_of(left, tables, found)
    if column is not None:
        found.add(found.ranges, column, (column[1], operator))
    return None


def _like(predicate: exp.Expression, tables: Tables, found: Conditions) -> Unmappable | None:
    column = _column_of(predicate.this, tables, found)
    pattern = predicate.expression
    while isinstance(pattern, exp.DPipe):  # '%' || $1 || '%': what the pattern starts with decides
        pattern = pattern.this
    text = pattern.name if isinstance(pattern, exp.Literal) and pattern.is_string else None
    if text is not None and text.startswith("%"):
        return Unmappable(FULL_TEXT, f"{predicate.sql()[:80]} searches inside the text")
    if column is None:
        return Unmappable(FULL_TEXT, f"{predicate.sql()[:80]} matches text")
    found.add(found.ranges, column, (column[1], RangeOperator.BEGINS_WITH))
    if text is None:
        found.decisions.append(f"{predicate.sql()[:80]} takes its pattern as a parameter: a prefix (begins_with) "
                               "was assumed; a pattern starting with % needs a search index")
    if isinstance(predicate, exp.ILike):
        found.decisions.append(f"{predicate.sql()[:80]} ignores case: store a lower-cased copy to key on")
    return None


def _null_note(predicate: exp.Expression) -> str:
    text = predicate.sql()[:80]
    inner = predicate.this if isinstance(predicate, exp.Not) else predicate
    if isinstance(predicate, exp.Is) and isinstance(predicate.expression, exp.Null):
        return (f"{text}: soft-deleted or unset rows are left out; in DynamoDB a sparse index keeps only the items "
                "that have the attribute, so key the index on a marker the live items carry, or filter")
    if isinstance(inner, exp.Is):
        return f"{text} is not part of the pattern: a filter (attribute_exists) in the request"
    return f"{text} is not part of the pattern: a FilterExpression in the request"
