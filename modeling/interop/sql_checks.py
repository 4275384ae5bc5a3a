"""What a CHECK constraint says about its column: enum values (`IN (...)`, pg_dump's `= ANY (ARRAY[...])`) and
numeric bounds (`BETWEEN`, `>`, `>=`, `<`, `<=`).

>>> import sqlglot
>>> column = checked(Column("credits", "INT"), sqlglot.parse_one("credits BETWEEN 1 AND 10 AND credits <> 7"))
>>> column.minimum, column.maximum
(1.0, 10.0)
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp

from modeling.interop.sql_tables import INTEGER_TYPES, Column


def conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    """The terms of `a AND b AND ...`, left to right. A loop, not recursion: a CHECK of 60,000 chained ANDs
    (a left-deep tree as deep) raised RecursionError (issue 30.6)."""
    found, pending = [], [condition]
    while pending:
        term = pending.pop()
        while isinstance(term, exp.Paren):
            term = term.this
        if isinstance(term, exp.And):
            pending += [term.expression, term.this]  # the left one is taken next
        else:
            found.append(term)
    return found


def checked(column: Column, condition: exp.Expression) -> Column:
    """Enum values and numeric bounds a CHECK constraint states about its column."""
    for predicate in conjuncts(condition):
        if isinstance(predicate, exp.In) and isinstance(predicate.this, exp.Column):
            values = tuple(e.name for e in predicate.expressions if isinstance(e, exp.Literal))
            if values:
                column = replace(column, enum_values=values)
        elif isinstance(predicate, exp.EQ) and isinstance(predicate.expression, exp.Any):
            # pg_dump writes `IN (...)` as `= ANY (ARRAY['a'::text, ...])`
            values = tuple(literal.name for literal in predicate.expression.find_all(exp.Literal) if literal.is_string)
            if values:
                column = replace(column, enum_values=values)
        elif isinstance(predicate, exp.Between) and isinstance(predicate.this, exp.Column):
            low, high = _number(predicate.args.get("low")), _number(predicate.args.get("high"))
            column = replace(column, minimum=low if low is not None else column.minimum,
                             maximum=high if high is not None else column.maximum)
        elif isinstance(predicate, (exp.GT, exp.GTE)) and isinstance(predicate.this, exp.Column):
            bound = _number(predicate.expression)
            if bound is not None:
                step = 1 if isinstance(predicate, exp.GT) and column.sql_type in INTEGER_TYPES else 0
                column = replace(column, minimum=bound + step)
        elif isinstance(predicate, (exp.LT, exp.LTE)) and isinstance(predicate.this, exp.Column):
            bound = _number(predicate.expression)
            if bound is not None:
                step = 1 if isinstance(predicate, exp.LT) and column.sql_type in INTEGER_TYPES else 0
                column = replace(column, maximum=bound - step)
    return column


def _number(node: exp.Expression | None) -> float | None:
    negative = isinstance(node, exp.Neg)
    literal = node.this if negative and node is not None else node
    if isinstance(literal, exp.Literal) and not literal.is_string:
        try:
            value = float(literal.name)
        except ValueError:
            return None
        return -value if negative else value
    return None
