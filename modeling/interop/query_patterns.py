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

from sqlglot import exp

from modeling.interop.query_conditions import (
    AGGREGATE,
    ALTERNATIVES,
    BULK_WRITE,
    EVERY_PARTITION,
    FULL_TEXT,
    NO_KEY,
    PROCEDURE,
    REPORTING,
    UNKNOWN_COLUMN,
    UNKNOWN_TABLE,
    UNPARSED,
    VIEW,
    Tables,
    Unmappable,
    conjuncts,
    read_conditions,
)
from modeling.interop.sql_schema import Table
from modeling.model import Entity, Model, PatternKind, RangeOperator, SortOrder

__all__ = ["AGGREGATE", "ALTERNATIVES", "BULK_WRITE", "EVERY_PARTITION", "FULL_TEXT", "NO_KEY", "PROCEDURE",
           "REPORTING", "UNKNOWN_COLUMN", "UNKNOWN_TABLE", "UNPARSED", "VIEW", "Proposal", "Unmappable", "propose"]


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


def _tables(select: exp.Select, schema_tables: dict[str, Table]) -> Tables | Unmappable:
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
    return Tables(found, order)


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
    conditions = read_conditions(select.args.get("where"), tables)
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
    _offset(select, proposal)
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


def _join_pairs(select: exp.Select, tables: Tables) -> list[tuple[tuple[str, str], tuple[str, str]]] | Unmappable:
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
        for predicate in conjuncts(on):
            if isinstance(predicate, exp.EQ) and isinstance(predicate.this, exp.Column) and \
                    isinstance(predicate.expression, exp.Column):
                left, right = tables.resolve(predicate.this), tables.resolve(predicate.expression)
                if left and right:
                    pairs.append((left, right))
                    continue
            return Unmappable(REPORTING, f"the join condition {predicate.sql()} is not an equality of key columns")
    return pairs


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


def _order(select: exp.Select, tables: Tables, proposal: Proposal, driving: str) -> None:
    order = select.args.get("order")
    if order is None or not order.expressions:
        return
    first, *rest = order.expressions
    column = tables.resolve(first.this) if isinstance(first.this, exp.Column) else None
    proposal.sort_order = SortOrder.DESCENDING if first.args.get("desc") else SortOrder.ASCENDING
    if rest:
        later = ", ".join(o.this.sql() for o in rest)
        proposal.decisions.append(f"ORDER BY {first.this.sql()}, {later}: a sort key orders by one attribute; "
                                  f"{later} only breaks ties if the sort key holds both (a composite sort key such "
                                  f"as {first.this.name}#{rest[0].this.name}), else sort in the application")
    if column is not None and column[0] != driving:
        proposal.decisions.append(f"ORDER BY {first.this.sql()} orders by a column of {column[0]}, but the items read "
                                  f"are {driving}'s: copy {column[1]} into them (denormalise) to sort by it, or "
                                  "sort in the application")
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


def _offset(select: exp.Select, proposal: Proposal) -> None:
    """OFFSET has no DynamoDB counterpart: a Query pages on from the last key it read."""
    if select.args.get("offset") is not None and proposal.kind is PatternKind.READ_MANY:
        proposal.decisions.append("OFFSET is dropped: DynamoDB pages from the last key read (ExclusiveStartKey), so "
                                  "the next page starts from a cursor, and jumping to page N reads the N - 1 pages "
                                  "before it")


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
    tables = Tables({(statement.this.alias or table.name).lower(): table}, [(statement.this.alias or table.name)
                                                                           .lower()])
    conditions = read_conditions(statement.args.get("where"), tables)
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
