"""One SQL statement -> a proposed access pattern, or the reason it has none and the DynamoDB alternative.

The statement is parsed with sqlglot and read against the schema:
- SELECT: the tables (a join of a parent and child on the same key columns is an item-collection read;
  other joins read the table that has the inputs and say what to denormalise), the WHERE equalities on
  placeholders (`$1`, `?`) are the inputs, equalities on literals are filters, `<`, `>`, BETWEEN and
  `LIKE 'x%'` the range condition, ORDER BY the sort order, LIMIT the page size; `IN ($1, $2)` on the
  primary key a batch read;
- INSERT: a write (several VALUES rows: a batch write); UPDATE: an update of the SET columns; DELETE.
Unmappable: aggregates without a key, reads of every partition (no equality), full-text search
(`LIKE '%x%'`, `@@`), OR, subqueries, UNION and window functions, writes of many rows at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from modeling.model import Entity, Model, PatternKind, RangeOperator, SortOrder
from modeling.sql_schema import Table

AGGREGATE = "aggregate across partitions"
REPORTING = "ad-hoc reporting"
FULL_TEXT = "full-text search"
EVERY_PARTITION = "reads every partition"
BULK_WRITE = "writes many rows at once"
UNKNOWN_TABLE = "table not in the schema"
UNPARSED = "not parsed"
NO_KEY = "table without a primary key"
UNKNOWN_COLUMN = "column not in the schema"
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


@dataclass
class Proposal:
    """An access pattern proposed from one statement (a document fragment, named later)."""

    verb: str
    kind: PatternKind
    tables: list[str]  # the pattern's tables, in the order of its entities
    inputs: list[str] = field(default_factory=list)
    filters: list[tuple[str, str | int | float | bool]] = field(default_factory=list)
    range_attribute: str | None = None
    range_operator: RangeOperator | None = None
    sort_order: SortOrder = SortOrder.ASCENDING
    page_size: int | None = None
    batch_items: int | None = None  # IN ($1, $2, ...) or VALUES (...), (...)
    changed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # inferred
    decisions: list[str] = field(default_factory=list)

    def shape(self) -> tuple[object, ...]:
        """What makes two statements the same pattern (they are merged, their calls added)."""
        return (self.verb, self.kind, tuple(self.tables), tuple(self.inputs), tuple(self.filters),
                self.range_attribute, self.range_operator, self.sort_order, self.page_size, tuple(self.changed))


class _Tables:
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


def propose(statement: exp.Expression, schema_tables: dict[str, Table], model: Model,
            entity_of: dict[str, str]) -> Proposal | Unmappable:
    proposal = _propose(statement, schema_tables, model, entity_of)
    if isinstance(proposal, Proposal):
        for table in proposal.tables:
            entity = model.entity(entity_of[table])
            if entity is not None and not entity.identity:
                return Unmappable(NO_KEY, f"{table} has no primary key, so its items have no DynamoDB key")
    return proposal


def _propose(statement: exp.Expression, schema_tables: dict[str, Table], model: Model,
             entity_of: dict[str, str]) -> Proposal | Unmappable:
    if isinstance(statement, exp.Select):
        return _select(statement, schema_tables, model, entity_of)
    if isinstance(statement, exp.Insert):
        return _insert(statement, schema_tables, model, entity_of)
    if isinstance(statement, (exp.Update, exp.Delete)):
        return _change(statement, schema_tables)
    return Unmappable(REPORTING, "UNION, INTERSECT and other set operations combine several reads")


def _table_of(node: exp.Expression | None, schema_tables: dict[str, Table]) -> Table | Unmappable:
    if not isinstance(node, exp.Table):
        return Unmappable(REPORTING, "it reads from a subquery or a function, not a table")
    table = schema_tables.get(node.name.lower())
    return table if table is not None else Unmappable(UNKNOWN_TABLE, f"the schema has no table {node.name}")


def _tables(select: exp.Select, schema_tables: dict[str, Table]) -> _Tables | Unmappable:
    sources = [select.args["from_"].this] if select.args.get("from_") else []
    sources += [j.this for j in select.args.get("joins") or []]
    found: dict[str, Table] = {}
    order = []
    for source in sources:
        table = _table_of(source, schema_tables)
        if isinstance(table, Unmappable):
            return table
        alias = (source.alias or source.name).lower()
        found[alias] = table
        order.append(alias)
    return _Tables(found, order)


def _select(select: exp.Select, schema_tables: dict[str, Table], model: Model,
            entity_of: dict[str, str]) -> Proposal | Unmappable:
    if any(isinstance(n, (exp.Subquery, exp.Union)) for n in select.walk() if n is not select) or \
            any(isinstance(n, exp.Select) for n in select.walk() if n is not select):
        return Unmappable(REPORTING, "it has a subquery")
    if select.find(exp.Window):
        return Unmappable(REPORTING, "it uses a window function (OVER ...)")
    tables = _tables(select, schema_tables)
    if isinstance(tables, Unmappable):
        return tables
    joined = _join_pairs(select, tables)
    if isinstance(joined, Unmappable):
        return joined
    conditions = _conditions(select.args.get("where"), tables)
    if isinstance(conditions, Unmappable):
        return conditions
    joined += conditions.joins
    inputs = _propagate(conditions.inputs, joined)
    aggregate = bool(select.args.get("group") or select.args.get("having") or select.args.get("distinct")
                     or any(e.find(exp.AggFunc) for e in select.expressions))
    names = [tables.by_alias[a].name for a in tables.order]
    # the rows a join returns are the child's (orders of a customer): on a tie, the table that references another
    def child_of_another(name: str) -> bool:
        return any(k.parent_table.lower() in {n.lower() for n in names if n != name}
                   for k in schema_tables[name.lower()].foreign_keys)
    driving = max(names, key=lambda n: (len(inputs.get(n, [])) + len(conditions.filters.get(n, [])),
                                        child_of_another(n), -names.index(n)))
    table = schema_tables[driving.lower()]
    own_inputs = inputs.get(driving, [])
    filters = conditions.filters.get(driving, [])
    ranged = conditions.ranges.get(driving, [])
    if not own_inputs and not filters:
        reason = AGGREGATE if aggregate else EVERY_PARTITION
        what = "an aggregate with no equality condition on a key" if aggregate else \
            "no equality condition: every partition is read"
        return Unmappable(reason, what)
    proposal = Proposal("list", PatternKind.READ_MANY, [driving], list(own_inputs), list(filters))
    proposal.decisions += conditions.decisions
    collection = _collection(names, joined, own_inputs, model, entity_of)
    if collection:
        proposal.tables = collection
        proposal.verb = "list"
        proposal.notes.append(f"the join of {' and '.join(collection)} on {', '.join(own_inputs)} reads one item "
                              "collection: an item-collection candidate")
    else:
        for other in names:
            if other != driving:
                proposal.decisions.append(f"it also joins {other}: denormalise the columns it reads from "
                                          f"{entity_of[other]} into {entity_of[driving]}, or read them with "
                                          f"{entity_of[other]}'s own pattern")
    if ranged:
        (attribute, operator), *rest = ranged
        proposal.range_attribute, proposal.range_operator = attribute, operator
        for attribute, _ in rest:
            proposal.decisions.append(f"a second range condition on {attribute} cannot be part of the key: "
                                      "it becomes a filter")
    _order(select, tables, proposal, driving)
    _limit(select, proposal)
    entity = model.entity(entity_of[driving])
    batch = conditions.in_lists.get(driving)
    if batch is not None and entity is not None and not collection:
        column, count = batch
        if (column,) == tuple(entity.identifiers):
            proposal.verb, proposal.kind, proposal.batch_items = "get", PatternKind.BATCH_READ, count
            proposal.range_attribute = proposal.range_operator = None
    if proposal.kind is PatternKind.READ_MANY and not collection and entity is not None and proposal.range_attribute \
            is None and _identifies(entity, table, own_inputs):
        proposal.verb, proposal.kind = "get", PatternKind.READ_ONE
        proposal.page_size = None
    if aggregate:
        proposal.verb = "count" if select.find(exp.Count) else "aggregate"
        proposal.kind = PatternKind.READ_MANY if proposal.kind is PatternKind.READ_ONE else proposal.kind
        proposal.decisions.append("DynamoDB has no COUNT, SUM or GROUP BY: the Query reads the items and the "
                                  "application aggregates them, or keep " + ALTERNATIVES[AGGREGATE])
    return proposal


def _identifies(entity: Entity, table: Table, inputs: list[str]) -> bool:
    """Whether equality on these columns names at most one row: the primary key or a unique set."""
    keys = [tuple(entity.identifiers), *table.unique_sets]
    return any(key and set(key) <= set(inputs) for key in keys)


def _collection(names: list[str], joins: list[tuple[tuple[str, str], tuple[str, str]]], inputs: list[str],
                model: Model, entity_of: dict[str, str]) -> list[str]:
    """[parent, child] when two tables join on the parent's key under the same column names, and the
    inputs are that key: one Query of the parent's item collection reads both."""
    if len(names) != 2 or not inputs:
        return []
    for relationship in model.relationships:
        tables = {entity_of[n]: n for n in names}
        if {relationship.parent, relationship.child} != set(tables) or relationship.parent == relationship.child:
            continue
        parent = model.entity(relationship.parent)
        keys = tuple(relationship.child_attributes)
        if parent is None or keys != tuple(parent.identifiers) or set(inputs) != set(keys):
            continue
        pairs = {(a[1], b[1]) for a, b in joins}
        if all((k, k) in pairs for k in keys):
            return [tables[relationship.parent], tables[relationship.child]]
    return []


def _join_pairs(select: exp.Select, tables: _Tables) -> list[tuple[tuple[str, str], tuple[str, str]]] | Unmappable:
    pairs = []
    for join in select.args.get("joins") or []:
        for name in join.args.get("using") or []:
            owners = [tables.by_alias[a].name for a in tables.order if tables.by_alias[a].column(name.name)]
            pairs += [((owners[0], name.name), (o, name.name)) for o in owners[1:]]
        on = join.args.get("on")
        if on is None:
            if not join.args.get("using"):
                return Unmappable(REPORTING, "a join without a condition (a cross join)")
            continue
        for predicate in _conjuncts(on):
            if isinstance(predicate, exp.EQ) and isinstance(predicate.this, exp.Column) and \
                    isinstance(predicate.expression, exp.Column):
                left, right = tables.resolve(predicate.this), tables.resolve(predicate.expression)
                if left and right:
                    pairs.append((left, right))
                    continue
            return Unmappable(REPORTING, f"the join condition {predicate.sql()} is not an equality of key columns")
    return pairs


def _conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if isinstance(condition, exp.And):
        return [*_conjuncts(condition.this), *_conjuncts(condition.expression)]
    return [condition]


@dataclass
class _Conditions:
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


def _conditions(where: exp.Where | None, tables: _Tables) -> _Conditions | Unmappable:
    found = _Conditions()
    if where is None:
        return found
    for predicate in _conjuncts(where.this):
        problem = _condition(predicate, tables, found)
        if problem is not None:
            return problem
    if found.unknown:
        return Unmappable(UNKNOWN_COLUMN, f"no table of the statement has {', '.join(dict.fromkeys(found.unknown))}")
    return found


def _column_of(node: exp.Expression, tables: _Tables, found: _Conditions) -> tuple[str, str] | None:
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


def _condition(predicate: exp.Expression, tables: _Tables, found: _Conditions) -> Unmappable | None:
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
        for column in predicate.find_all(exp.Column):
            _column_of(column, tables, found)  # a column the schema lacks makes the statement unmapped
        found.decisions.append(_null_note(predicate))
        return None
    found.decisions.append(f"the condition {predicate.sql()[:80]} is not part of the pattern: a filter in the "
                           "application or a FilterExpression")
    return None


def _range(predicate: exp.Expression, tables: _Tables, found: _Conditions) -> Unmappable | None:
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


def _like(predicate: exp.Expression, tables: _Tables, found: _Conditions) -> Unmappable | None:
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


def _propagate(inputs: dict[str, list[str]], joins: list[tuple[tuple[str, str], tuple[str, str]]]) \
        -> dict[str, list[str]]:
    """An input on one side of a join equality is known on the other side too."""
    known = {t: list(c) for t, c in inputs.items()}
    changed = True
    while changed:
        changed = False
        for a, b in joins:
            for x, y in ((a, b), (b, a)):
                if x[1] in known.get(x[0], []) and y[1] not in known.setdefault(y[0], []):
                    known[y[0]].append(y[1])
                    changed = True
    return known


def _order(select: exp.Select, tables: _Tables, proposal: Proposal, driving: str) -> None:
    order = select.args.get("order")
    if order is None or not order.expressions:
        return
    first = order.expressions[0]
    column = tables.resolve(first.this) if isinstance(first.this, exp.Column) else None
    proposal.sort_order = SortOrder.DESCENDING if first.args.get("desc") else SortOrder.ASCENDING
    if column is None or column[0] != driving or column[1] in proposal.inputs:
        return
    if proposal.range_attribute is None:
        proposal.range_attribute = column[1]
        proposal.range_operator = (RangeOperator.LESS_THAN if proposal.sort_order is SortOrder.DESCENDING
                                   else RangeOperator.GREATER_THAN)
        proposal.notes.append(f"ORDER BY {column[1]} made {column[1]} the range condition ({proposal.range_operator} "
                              "a cursor, for the next page) so the sort key orders by it")
    elif proposal.range_attribute != column[1]:
        proposal.decisions.append(f"it ranges over {proposal.range_attribute} but orders by {column[1]}: a sort key "
                                  "serves one of them; the range condition was kept")


def _limit(select: exp.Select, proposal: Proposal) -> None:
    limit = select.args.get("limit")
    value = limit.expression if isinstance(limit, exp.Limit) else None
    if isinstance(value, exp.Literal) and value.name.isdigit():
        proposal.page_size = max(1, min(int(value.name), 10_000))
    elif value is not None:
        proposal.decisions.append("LIMIT is a parameter: set page_size to the usual page")


def _insert(insert: exp.Insert, schema_tables: dict[str, Table], model: Model,
            entity_of: dict[str, str]) -> Proposal | Unmappable:
    target = insert.this.this if isinstance(insert.this, exp.Schema) else insert.this
    table = _table_of(target, schema_tables)
    if isinstance(table, Unmappable):
        return table
    values = insert.args.get("expression")
    if not isinstance(values, exp.Values):
        return Unmappable(BULK_WRITE, "INSERT ... SELECT copies rows")
    named = [table.column(c.name) for c in insert.this.expressions] if isinstance(insert.this, exp.Schema) else \
        list(table.columns)
    columns = [c.name for c in named if c is not None]
    rows = len(values.expressions)
    entity = model.entity(entity_of[table.name])
    identifiers = list(entity.identifiers) if entity is not None else list(table.primary_key)
    proposal = Proposal("create", PatternKind.BATCH_WRITE if rows > 1 else PatternKind.WRITE, [table.name],
                        identifiers or [c for c in columns if table.column(c)][:1])
    proposal.batch_items = rows if rows > 1 else None
    assigned = [c for c in table.primary_key if c not in columns and (col := table.column(c)) and col.auto_increment]
    if assigned:
        proposal.decisions.append(f"the database assigns {', '.join(assigned)} (auto-increment); DynamoDB has none: "
                                  "generate it in the application (a UUID or ULID)")
    if insert.args.get("conflict"):
        proposal.notes.append("an upsert (ON CONFLICT / ON DUPLICATE KEY): PutItem replaces the item; a condition "
                              "expression keeps an existing one")
    return proposal


def _change(statement: exp.Update | exp.Delete, schema_tables: dict[str, Table]) -> Proposal | Unmappable:
    table = _table_of(statement.this, schema_tables)
    if isinstance(table, Unmappable):
        return table
    if statement.args.get("from_") or statement.args.get("using") or statement.args.get("joins"):
        return Unmappable(BULK_WRITE, "it changes rows chosen through a join")
    tables = _Tables({(statement.this.alias or table.name).lower(): table}, [(statement.this.alias or table.name)
                                                                           .lower()])
    conditions = _conditions(statement.args.get("where"), tables)
    if isinstance(conditions, Unmappable):
        return conditions
    inputs = conditions.inputs.get(table.name, [])
    by_key = bool(table.primary_key) and set(table.primary_key) <= set(inputs)
    if not inputs or (conditions.ranges.get(table.name) and not by_key):
        what = "no equality condition" if not inputs else "a range condition"
        return Unmappable(BULK_WRITE, f"it changes every row matching {what}")
    is_update = isinstance(statement, exp.Update)
    proposal = Proposal("update" if is_update else "delete", PatternKind.UPDATE if is_update else PatternKind.DELETE,
                        [table.name], list(inputs))
    proposal.decisions += conditions.decisions
    for name, _ in conditions.ranges.get(table.name, []):
        proposal.decisions.append(f"the range on {name} is a condition on the item (e.g. enough stock): a "
                                  "ConditionExpression")
    for name, value in conditions.filters.get(table.name, []):
        proposal.decisions.append(f"{name} = {value!r} is a condition on the row: a ConditionExpression")
    if is_update:
        for assignment in statement.expressions:
            changed = table.column(assignment.this.name) if isinstance(assignment, exp.EQ) and \
                isinstance(assignment.this, exp.Column) else None
            if changed is not None:
                proposal.changed.append(changed.name)
        locks = [c for c in proposal.inputs if c.lower() == "version" and set(table.primary_key) <= set(inputs)]
        if locks:
            proposal.inputs.remove(locks[0])
            proposal.notes.append(f"{locks[0]} in the WHERE clause is optimistic locking: a ConditionExpression "
                                  f"on {locks[0]}, not part of the key")
    if table.primary_key and not set(table.primary_key) <= set(inputs):
        proposal.decisions.append(f"it changes every row with these {', '.join(inputs)}, not one by its key "
                                  f"({', '.join(table.primary_key)}): DynamoDB writes one item per request, so read "
                                  "the keys first")
    return proposal
