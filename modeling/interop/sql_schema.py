"""`CREATE TABLE` statements (PostgreSQL or MySQL) read with a real SQL parser into frozen table facts.

The file is cut into statements first and each is parsed on its own (`modeling.interop.sql_statements`), so
a statement the model does not need (a stored procedure, a psql command) is listed as skipped with its line
and a plain reason, never a refused file; only a `CREATE TABLE` that cannot be read refuses it. Partitions
fold into their partitioned table (`modeling.interop.sql_partitions`).

This module keeps what a DynamoDB model needs from each table: its columns
(SQL type, NOT NULL, enum values from `ENUM(...)` or `CHECK (col IN (...))`, bounds from `CHECK (col
BETWEEN a AND b)`, auto-increment), its primary key, unique column sets and foreign keys, whether they
are declared inline, as table constraints, with `ALTER TABLE ... ADD CONSTRAINT` (as pg_dump writes them)
or with `CREATE UNIQUE INDEX`, and a row count from a `-- rows: N` comment on the line before the
`CREATE TABLE` or after its `;`; `DEFAULT nextval(...)` (pg_dump's SERIAL) is auto-increment, a PostgreSQL
domain is its base type and checks. Everything else in the file (views, functions, grants, `SET`) is listed
with its line and why it is not used, never silently dropped.

>>> schema = read_sql_schema("CREATE TABLE t (id INT PRIMARY KEY, e TEXT UNIQUE); -- rows: 12", "postgres")
>>> schema.tables[0].primary_key, schema.tables[0].row_count, schema.tables[0].unique_sets
(('id',), 12, (('e',),))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from modeling.interop.sql_checks import checked, conjuncts
from modeling.interop.sql_partitions import attached_partition, merge_partitions, partition_parent
from modeling.interop.sql_statements import (
    ReadStatement,
    SkippedStatement,
    SqlSchemaError,
    read_statements,
    statement_kind,
    statement_reason,
    summary,
)
from modeling.interop.sql_tables import INTEGER_TYPES, Column, ForeignKey, SqlDialect, SqlSchema, Table

__all__ = ["INTEGER_TYPES", "Column", "ForeignKey", "SkippedStatement", "SqlDialect", "SqlSchema", "SqlSchemaError",
           "Table", "read_sql_schema"]

MAX_SCHEMA_BYTES = 5 * 1024 * 1024
_ROWS_COMMENT = re.compile(r"^\s*rows\s*[:=]\s*([0-9][0-9_,]*)\s*$", re.I)


@dataclass
class _Draft:
    """A table being read: mutable only in this module, frozen by `freeze`."""

    name: str
    line: int
    columns: dict[str, Column] = field(default_factory=dict)
    primary_key: tuple[str, ...] = ()
    unique_sets: list[tuple[str, ...]] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    row_count: int | None = None
    namespace: str = ""  # `public` of `CREATE TABLE public.film`

    def freeze(self) -> Table:
        columns = tuple(replace(c, not_null=True) if c.name in self.primary_key else c for c in self.columns.values())
        return Table(self.name, columns, self.primary_key, tuple(dict.fromkeys(self.unique_sets)),
                     tuple(dict.fromkeys(self.foreign_keys)), self.row_count, self.line)


def read_sql_schema(text: str, dialect: SqlDialect | str | None = None, source: str = "") -> SqlSchema:
    """The tables of a SQL file; raises SqlSchemaError for SQL sqlglot cannot parse or a file with no table.

    Without a dialect, the file is read as PostgreSQL and as MySQL and the reading that finds more tables
    wins (on a tie, the one with fewer skipped statements, then PostgreSQL); when neither reads, the error of
    the reading that got further is raised.
    """
    if dialect is not None:
        return _read(text, SqlDialect(dialect), source)
    readings: list[SqlSchema] = []
    errors: list[SqlSchemaError] = []
    for candidate in (SqlDialect.POSTGRES, SqlDialect.MYSQL):
        try:
            readings.append(_read(text, candidate, source))
        except SqlSchemaError as exc:
            errors.append(exc)
    if not readings:
        raise max(errors, key=lambda e: (e.line, e.column))
    # on a tie, the reading that cuts the file into fewer unused statements: read the wrong way, a DELIMITER
    # block or a $$ body falls apart at each `;` inside it
    return max(readings, key=lambda r: (len(r.tables), -len(r.skipped), r.dialect is SqlDialect.POSTGRES))


def _read(text: str, dialect: SqlDialect, source: str) -> SqlSchema:
    if len(text.encode("utf-8")) > MAX_SCHEMA_BYTES:
        raise SqlSchemaError(f"the file is larger than {MAX_SCHEMA_BYTES // 1024 // 1024} MB", source=source,
                             suggestion="keep the CREATE TABLE statements only")
    statements, skipped = read_statements(text, dialect.value, source)
    enum_types = _enum_types([s.expression for s in statements])
    domains = {name: column for s in statements if (found := _domain(s.expression, dialect)) is not None
               for name, column in [found]}
    drafts: dict[str, _Draft] = {}
    partitions: dict[str, str] = {}  # partition -> partitioned table
    for item in statements:
        statement = item.expression
        if isinstance(statement, exp.Create) and str(statement.args.get("kind", "")).upper() == "TABLE" and \
                statement.find(exp.TemporaryProperty) is None:
            parent, constraints = partition_parent(statement)
            if parent:
                name = _name(statement.this if isinstance(statement.this, exp.Table) else statement.this.this)
                partitions[name.lower()] = parent
                _partition_draft(name, item.line, constraints, drafts.get(parent.lower()), drafts)
                continue
            draft = _create_table(statement, enum_types, domains, drafts, item, source)
            comment = item.trailing.strip()
            if draft.row_count is None and comment.startswith("--"):
                draft.row_count = _row_count([comment[2:]])
        elif (isinstance(statement, exp.Alter) and _alter_table(statement, drafts)) or (
                isinstance(statement, exp.Create) and _unique_index(statement, drafts)) or (
                _enum_type(statement) is not None) or _domain(statement, dialect) is not None or (
                _identity_column(statement, drafts)):
            pass
        elif (attached := attached_partition(statement)) is not None:
            partitions[attached[1].lower()] = attached[0]
        else:
            skipped.append(SkippedStatement(item.line, summary(item.text), _reason(item), statement_kind(item.text)))
    _local_references(drafts, dialect)
    tables, merged = merge_partitions([d.freeze() for d in drafts.values()], partitions)
    if not tables:
        raise SqlSchemaError("the file has no CREATE TABLE statement", source=source,
                             suggestion="import the file that creates the tables (pg_dump --schema-only, "
                                        "mysqldump --no-data)")
    skipped.sort(key=lambda s: s.line)
    return SqlSchema(dialect, tables, _notes(skipped), tuple(skipped), merged)


def _partition_draft(name: str, line: int, constraints: list[exp.Expression], parent: _Draft | None,
                     drafts: dict[str, _Draft]) -> None:
    """A `PARTITION OF parent (CONSTRAINT ...)`: the parent's columns with the partition's own keys, folded into
    the parent with the other partitions (`merge_partitions`)."""
    if parent is None or name.lower() in drafts:
        return
    draft = _Draft(name, line, dict(parent.columns))
    for element in constraints:
        if not isinstance(element, exp.ColumnDef):  # `col WITH OPTIONS NOT NULL`: the parent's column already
            _table_constraint(element, draft)
    drafts[name.lower()] = draft


def _identity_column(statement: exp.Expression, drafts: dict[str, _Draft]) -> bool:
    """pg_dump's `ALTER TABLE t ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (...)`, which sqlglot keeps
    as text: the column is assigned by the database."""
    if not (isinstance(statement, exp.Command) and str(statement.this).upper() == "ALTER"):
        return False
    match = _IDENTITY.match(str(statement.expression))
    draft = drafts.get(match.group("table").split(".")[-1].strip('"').lower()) if match is not None else None
    column = draft.columns.get(_column_key(draft, match.group("column").strip('"'))) if draft and match else None
    if draft is None or column is None:
        return False
    draft.columns[column.name] = replace(column, auto_increment=True)
    return True


_IDENTITY = re.compile(r"\s*table\s+(only\s+)?(?P<table>\S+)\s+alter\s+(column\s+)?(?P<column>\S+)\s+add\s+"
                       r"generated\s+(always|by\s+default)\s+as\s+identity\b", re.I)


def _reason(item: ReadStatement) -> str:
    return statement_reason(item.text)


def _notes(skipped: list[SkippedStatement]) -> tuple[str, ...]:
    kinds: dict[str, int] = {}
    for statement in skipped:
        kinds[statement.kind] = kinds.get(statement.kind, 0) + 1
    return tuple(f"{count} {kind} statement{'s' if count != 1 else ''} not used (only tables, keys, unique and "
                 "foreign-key constraints make a model)" for kind, count in sorted(kinds.items()))


def _domain(statement: exp.Expression, dialect: SqlDialect) -> tuple[str, Column] | None:
    """`CREATE DOMAIN year AS integer CHECK (VALUE >= 1901 ...)` (PostgreSQL): its name and what a column of it is.

    sqlglot keeps the statement as text; its definition after AS is read as the one column of a table."""
    if not (isinstance(statement, exp.Command) and str(statement.this).upper() == "CREATE"):
        return None
    match = re.match(r"\s*domain\s+(\S+)\s+as\s+(.+)$", str(statement.expression), re.I | re.S)
    if match is None:
        return None
    try:
        found = sqlglot.parse_one(f'CREATE TABLE _domain ("value" {match.group(2)})', read=dialect.value)
    except (SqlglotError, RecursionError):
        return None
    if not isinstance(found, exp.Create) or not isinstance(found.this, exp.Schema) or not found.this.expressions:
        return None
    draft = _Draft("_domain", 0)
    definition = found.this.expressions[0]
    if not isinstance(definition, exp.ColumnDef):
        return None
    _column(definition, draft, {}, {})
    return match.group(1).split(".")[-1].strip('"').lower(), draft.columns["value"]


def _enum_type(statement: exp.Expression) -> tuple[str, tuple[str, ...]] | None:
    """`CREATE TYPE mood AS ENUM ('sad', 'ok')` (PostgreSQL): the type's name and values."""
    if not (isinstance(statement, exp.Create) and str(statement.args.get("kind") or "").upper() == "TYPE"):
        return None
    definition = statement.args.get("expression")
    if not (isinstance(definition, exp.DataType) and definition.this.name == "ENUM"):
        return None
    values = tuple(e.name for e in definition.expressions if isinstance(e, exp.Literal))
    return _name(statement.this).lower(), values


def _enum_types(statements: list[exp.Expression]) -> dict[str, tuple[str, ...]]:
    """Every enum type of the file, wherever it is declared (pg_dump writes them first, people not always)."""
    return dict(found for s in statements if (found := _enum_type(s)) is not None)


def _row_count(comments: list[str]) -> int | None:
    for comment in comments:
        match = _ROWS_COMMENT.match(comment)
        if match:
            return int(match.group(1).replace(",", "").replace("_", ""))
    return None


def _name(node: exp.Expression | None) -> str:
    return node.name if node is not None else ""


def _create_table(statement: exp.Create, enum_types: dict[str, tuple[str, ...]], domains: dict[str, Column],
                  drafts: dict[str, _Draft], item: ReadStatement, source: str) -> _Draft:
    schema = statement.this
    like = statement.find(exp.LikeProperty)
    if like is not None:  # CREATE TABLE b LIKE a / (LIKE a INCLUDING ALL): a's columns and keys, not its foreign keys
        return _copy(statement, like, drafts, item.line, source)
    if not isinstance(schema, exp.Schema):  # CREATE TABLE ... AS SELECT: no columns to read
        table = schema if isinstance(schema, exp.Table) else schema.find(exp.Table)
        raise SqlSchemaError(f"CREATE TABLE {_name(table)} AS SELECT has no column definitions; write the columns "
                             "out", item.line, 0, source, "write the columns out, or remove the statement")
    name = _name(schema.this)
    if name.lower() in drafts:
        raise SqlSchemaError(f"the table {name} is created twice", item.line, 0, source)
    draft = _Draft(name, item.line, row_count=_row_count(statement.comments or []),
                   namespace=schema.this.db if isinstance(schema.this, exp.Table) else "")
    for element in schema.expressions:
        if isinstance(element, exp.ColumnDef):
            _column(element, draft, enum_types, domains)
        else:
            _table_constraint(element, draft)
    drafts[name.lower()] = draft
    return draft


def _copy(statement: exp.Create, like: exp.LikeProperty, drafts: dict[str, _Draft], line: int, source: str) -> _Draft:
    target = statement.this.this if isinstance(statement.this, exp.Schema) else statement.this
    name, original = _name(target), drafts.get(_name(like.this).lower())
    if original is None:
        raise SqlSchemaError(f"CREATE TABLE {name} LIKE {_name(like.this)}: the file creates no table "
                             f"{_name(like.this)} before it", line, 0, source)
    if name.lower() in drafts:
        raise SqlSchemaError(f"the table {name} is created twice", line, 0, source)
    draft = _Draft(name, line, dict(original.columns), original.primary_key,
                   list(original.unique_sets), row_count=_row_count(statement.comments or []))
    drafts[name.lower()] = draft
    return draft


def _column(definition: exp.ColumnDef, draft: _Draft, enum_types: dict[str, tuple[str, ...]],
            domains: dict[str, Column]) -> None:
    kind = definition.args.get("kind")
    column = _typed_column(definition.name, kind, enum_types, domains)
    for constraint in definition.args.get("constraints") or []:
        constraint_kind = constraint.args.get("kind")
        if isinstance(constraint_kind, exp.NotNullColumnConstraint) and not constraint_kind.args.get("allow_null"):
            column = replace(column, not_null=True)
        elif isinstance(constraint_kind, exp.PrimaryKeyColumnConstraint):
            draft.primary_key = (column.name,)
        elif isinstance(constraint_kind, exp.UniqueColumnConstraint):
            draft.unique_sets.append((column.name,))
        elif isinstance(constraint_kind, exp.ComputedColumnConstraint) or (
                isinstance(constraint_kind, exp.GeneratedAsIdentityColumnConstraint)
                and constraint_kind.args.get("expression") is not None):
            column = replace(column, computed=True)  # GENERATED ALWAYS AS (expression): computed, not assigned
        elif isinstance(constraint_kind, (exp.AutoIncrementColumnConstraint, exp.GeneratedAsIdentityColumnConstraint)):
            column = replace(column, auto_increment=True)
        elif isinstance(constraint_kind, exp.DefaultColumnConstraint) and _is_nextval(constraint_kind.this):
            column = replace(column, auto_increment=True)  # pg_dump's SERIAL: DEFAULT nextval('t_id_seq')
        elif isinstance(constraint_kind, exp.Reference):
            draft.foreign_keys.append(_reference((column.name,), constraint_kind))
        elif isinstance(constraint_kind, exp.CheckColumnConstraint):
            column = checked(column, constraint_kind.this)
    draft.columns[column.name] = column


def _typed_column(name: str, kind: exp.Expression | None, enum_types: dict[str, tuple[str, ...]],
                  domains: dict[str, Column]) -> Column:
    """The column its type makes: an enum type's values, a domain's base type and checks, a SERIAL's sequence."""
    sql_type = kind.this.name if isinstance(kind, exp.DataType) else "TEXT"
    if isinstance(kind, exp.DataType) and sql_type == "USERDEFINED":
        type_name = kind.args.get("kind")
        named = (type_name.name if isinstance(type_name, (exp.Identifier, exp.Dot)) else "").lower()
        if named in enum_types:
            return Column(name, "ENUM", enum_values=enum_types[named])
        if named in domains:
            return replace(domains[named], name=name)
        if named == "year":  # MySQL's YEAR when sqlglot reads it as a named type
            sql_type = "YEAR"
    enum_values: tuple[str, ...] = ()
    if isinstance(kind, exp.DataType) and sql_type in ("ENUM", "SET"):
        enum_values = tuple(e.name for e in kind.expressions if isinstance(e, exp.Literal))
    element = ""
    if isinstance(kind, exp.DataType) and sql_type == "ARRAY" and kind.expressions:
        element = kind.expressions[0].this.name if isinstance(kind.expressions[0], exp.DataType) else ""
    return Column(name, sql_type, _type_parameters(kind), enum_values=enum_values, element_type=element,
                  auto_increment=sql_type in ("SERIAL", "BIGSERIAL", "SMALLSERIAL"))


def _is_nextval(default: exp.Expression | None) -> bool:
    if isinstance(default, exp.Dot):  # pg_catalog.nextval(...)
        default = default.expression
    return isinstance(default, exp.Anonymous) and default.name.lower() == "nextval"


def _type_parameters(kind: exp.Expression | None) -> tuple[int, ...]:
    if not isinstance(kind, exp.DataType):
        return ()
    values = []
    for parameter in kind.expressions:
        literal = parameter.this if isinstance(parameter, exp.DataTypeParam) else None
        if isinstance(literal, exp.Literal) and not literal.is_string and literal.name.isdigit():
            values.append(int(literal.name))
    return tuple(values)


def _reference(columns: tuple[str, ...], reference: exp.Reference) -> ForeignKey:
    target = reference.this
    if isinstance(target, exp.Schema):
        return ForeignKey(columns, _qualified(target.this), tuple(_name(e) for e in target.expressions))
    return ForeignKey(columns, _qualified(target), ())


def _qualified(table: exp.Expression | None) -> str:
    """`auth.users` keeps its schema until `_local_references` knows whether the file creates that schema."""
    namespace = table.db if isinstance(table, exp.Table) else ""
    return f"{namespace}.{_name(table)}" if namespace else _name(table)


def _local_references(drafts: dict[str, _Draft], dialect: SqlDialect) -> None:
    """A reference names its table without the schema when the file creates tables there (`public.customer`,
    MySQL's database name); `auth.users` (Supabase's, say) stays qualified: a table the file does not create."""
    local = {d.namespace.lower() for d in drafts.values()} | {"", "public"}
    for draft in drafts.values():
        for index, key in enumerate(draft.foreign_keys):
            namespace, _, bare = key.parent_table.rpartition(".")
            if namespace and (dialect is SqlDialect.MYSQL or namespace.lower() in local):
                draft.foreign_keys[index] = replace(key, parent_table=bare)


def _table_constraint(element: exp.Expression, draft: _Draft) -> None:
    parts = element.expressions if isinstance(element, exp.Constraint) else [element]
    for part in parts:
        if isinstance(part, exp.PrimaryKey):
            draft.primary_key = tuple(_name(e) for e in part.expressions)
        elif isinstance(part, exp.UniqueColumnConstraint):
            target = part.this
            names = tuple(_name(e) for e in target.expressions) if isinstance(target, exp.Schema) else ()
            if names:
                draft.unique_sets.append(names)
        elif isinstance(part, exp.ForeignKey):
            reference = part.args.get("reference")
            if isinstance(reference, exp.Reference):
                draft.foreign_keys.append(_reference(tuple(_name(e) for e in part.expressions), reference))
        elif isinstance(part, exp.CheckColumnConstraint):
            _table_check(part.this, draft)


def _table_check(condition: exp.Expression, draft: _Draft) -> None:
    """A table-level CHECK about one column (`CHECK (status IN (...))`) narrows that column."""
    for predicate in conjuncts(condition):
        columns = {c.name for c in predicate.find_all(exp.Column)}
        if len(columns) == 1 and (name := columns.pop()) in draft.columns:
            draft.columns[name] = checked(draft.columns[name], predicate)


def _alter_table(statement: exp.Alter, drafts: dict[str, _Draft]) -> bool:
    """`ALTER TABLE t ADD CONSTRAINT ...` (pg_dump's way of declaring keys) and `ALTER COLUMN id SET DEFAULT
    nextval(...)` (pg_dump's SERIAL); False for other ALTERs."""
    draft = drafts.get(_name(statement.this).lower())
    actions = statement.args.get("actions") or []
    if draft is None or not actions or not all(_is_used_action(a, draft) for a in actions):
        return False
    for action in actions:
        if isinstance(action, exp.AlterColumn):
            column = draft.columns[_column_key(draft, action.name)]
            draft.columns[column.name] = replace(column, auto_increment=True)
            continue
        for constraint in action.expressions:
            _table_constraint(constraint, draft)
    return True


def _is_used_action(action: exp.Expression, draft: _Draft) -> bool:
    if isinstance(action, exp.AddConstraint):
        return True
    return (isinstance(action, exp.AlterColumn) and _is_nextval(action.args.get("default"))
            and _column_key(draft, action.name) in draft.columns)


def _column_key(draft: _Draft, name: str) -> str:
    return next((key for key in draft.columns if key.lower() == name.lower()), name)


def _unique_index(statement: exp.Create, drafts: dict[str, _Draft]) -> bool:
    """`CREATE UNIQUE INDEX ... ON t (a, b)` adds a unique set; other indexes are the database's business."""
    index = statement.this
    if not (isinstance(index, exp.Index) and statement.args.get("unique")):
        return False
    draft = drafts.get(_name(index.args.get("table")).lower())
    params = index.args.get("params")
    columns = [c.this for c in (params.args.get("columns") or [])] if params is not None else []
    names = tuple(c.name for c in columns if isinstance(c, exp.Column))
    if draft is None or params is None or not names or len(names) != len(columns) or params.args.get("where"):
        return False  # a partial index (WHERE) is unique among some rows only: listed as skipped, not a unique set
    draft.unique_sets.append(names)
    return True
