"""A relational schema as a Design Studio model: tables -> entities, keys -> identifiers, foreign keys ->
relationships, column types and names -> attribute types and sample-data generators.

Column names are kept exactly as the SQL spells them (`customer_id` stays `customer_id`); a table becomes
an entity named in the model's style (`order_items` -> `OrderItem`), and the import says so. What maps to
what (docs/sql-import.md):
- types: integers, decimals and MySQL's YEAR -> N, booleans (and MySQL's TINYINT(1), UNSIGNED or not) -> BOOL,
  binary -> B, JSON -> M, arrays -> L, MySQL's SET -> SS, everything else (text, dates, times, UUIDs, enums)
  -> S; a PostgreSQL domain is its base type;
- `PRIMARY KEY` -> identifiers; `UNIQUE` on one column -> `unique`; NOT NULL -> `required`;
- a foreign key -> a relationship, one-to-one when its columns are unique in the child, else one-to-many;
  a join table (two foreign keys that together are its primary key, or without one a UNIQUE constraint)
  also gives a many-to-many between the two tables it joins;
- a prefix every table name shares (`phpbb_`) is offered, and stripped from entity names when asked;
  foreign keys the column names suggest but no constraint declares are decisions, never relationships;
- generators: references for foreign keys, sequences for auto-increment keys, UUIDs, enums from `ENUM`
  and `CHECK ... IN`, ranges from `CHECK ... BETWEEN`, Faker providers from column names, timestamps;
- item counts from `-- rows: N` comments or a CSV of row counts; relationship cardinalities from them.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from typing import Any

from modeling.errors import ModelFileError, Problem
from modeling.interop.sql_hints import GuessedReference, common_prefix, guessed_references, strip_prefix
from modeling.interop.sql_schema import ForeignKey, SqlDialect, SqlSchema, Table, read_sql_schema
from modeling.interop.sql_types import column_generator, dynamodb_type
from modeling.limits import MAX_ATTRIBUTE_BYTES, MAX_ITEM_COUNT
from modeling.model import Model
from modeling.model_file import model_from_document

DEFAULT_ITEM_COUNT = 1_000
@dataclass(frozen=True)
class SqlImport:
    """A model made from a schema, and what the user should know about it."""

    model: Model
    schema: SqlSchema
    inferred: tuple[str, ...]  # one sentence per inference, shown to the user
    decisions: tuple[str, ...]  # what the import could not decide: the user should
    entity_names: tuple[tuple[str, str], ...] = ()  # (table, entity)
    guesses: tuple[GuessedReference, ...] = ()  # foreign keys the column names suggest, not declared
    stripped_prefix: str = ""  # the table-name prefix left out of entity names

    def entity_of(self, table: str) -> str | None:
        return next((e for t, e in self.entity_names if t.lower() == table.lower()), None)


def import_sql(text: str, dialect: SqlDialect | str | None = None, source: str = "schema.sql",
               row_counts: dict[str, int] | None = None, name: str | None = None,
               table_prefix: str | None = None) -> SqlImport:
    """Read a schema file's text and make a model; raises SqlSchemaError (line, column) or ModelFileError.

    `table_prefix`: None keeps table names whole (a prefix they all share is offered in the notes), "" strips
    that shared prefix (`phpbb_users` -> `User`), any other text strips itself from the names that start with it."""
    schema = read_sql_schema(text, dialect, source)
    return import_schema(schema, source, row_counts or {}, name, table_prefix)


def import_schema(schema: SqlSchema, source: str = "schema.sql", row_counts: dict[str, int] | None = None,
                  name: str | None = None, table_prefix: str | None = None) -> SqlImport:
    schema, renamed = attribute_names(schema)
    shared = common_prefix([t.name for t in schema.tables])
    prefix = shared if table_prefix == "" else (table_prefix or "")
    builder = _Builder(schema, {k.lower(): v for k, v in (row_counts or {}).items()}, prefix)
    if shared and table_prefix is None:
        builder.decisions.append(f"Every table name starts with `{shared}`: import with --strip-prefix (or the "
                                 f"prefix option) to name the entities without it ({schema.tables[0].name} -> "
                                 f"{entity_name(strip_prefix(schema.tables[0].name, shared))}).")
    elif prefix:
        count = sum(1 for t in schema.tables if strip_prefix(t.name, prefix) != t.name)
        builder.inferred.append(f"The prefix `{prefix}` was stripped from {count} table name"
                                f"{'s' if count != 1 else ''} to name the entities.")
    if renamed:
        builder.inferred.append("Column names an attribute cannot have (letters, digits, _ . - only, starting with "
                                "a letter or _) were changed: " + ", ".join(renamed) + ".")
    document = builder.document(name or f"Imported from {source.rsplit('/', 1)[-1]}", _table_name(source))
    try:
        model = model_from_document(document, source)
    except ModelFileError as exc:  # a name the model format cannot hold, say: a problem, not a traceback
        raise ModelFileError([Problem(p.path, p.message, "rename it in the SQL, or edit the model after import")
                              for p in exc.problems], source) from None
    return SqlImport(model, schema, tuple(builder.inferred), tuple(builder.decisions),
                     tuple(builder.names.items()), tuple(builder.guesses), prefix)


def read_row_counts(data: bytes, source: str = "row counts") -> dict[str, int]:
    """Table -> rows from a CSV: `table,rows`, or the exports of pg_stat_user_tables (`relname,n_live_tup`)
    or information_schema.tables (`TABLE_NAME,TABLE_ROWS`)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ModelFileError([Problem(source, "the row counts are not UTF-8 text", "save the CSV as UTF-8")]) from None
    reader = csv.DictReader(io.StringIO(text))
    fields = {f.strip().lower(): f for f in reader.fieldnames or []}
    table_field = next((fields[f] for f in ("table", "table_name", "relname", "name") if f in fields), None)
    rows_field = next((fields[f] for f in ("rows", "row_count", "table_rows", "n_live_tup", "reltuples", "count")
                       if f in fields), None)
    if table_field is None or rows_field is None:
        raise ModelFileError([Problem(source, "the CSV needs a table column and a rows column",
                                      "write a header `table,rows` (or export pg_stat_user_tables / "
                                      "information_schema.tables)")])
    counts: dict[str, int] = {}
    for number, row in enumerate(reader, start=2):
        table, rows = (row.get(table_field) or "").strip(), (row.get(rows_field) or "").strip()
        try:
            counts[table.split(".")[-1]] = max(0, int(float(rows.replace(",", "").replace("_", ""))))
        except ValueError:
            raise ModelFileError([Problem(f"{source} line {number}", f"{rows!r} is not a number of rows",
                                          "write a whole number")]) from None
    return counts


# --- names -----------------------------------------------------------------------------------------

_VALID_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


def attribute_names(schema: SqlSchema) -> tuple[SqlSchema, list[str]]:
    """The schema with every column named as an attribute can be (`Full Name` -> `Full_Name`); the renames said."""
    renames: dict[tuple[str, str], str] = {}
    said = []
    for table in schema.tables:
        taken = {c.name for c in table.columns if _VALID_NAME.match(c.name)}
        for column in table.columns:
            if _VALID_NAME.match(column.name):
                continue
            base = re.sub(r"[^A-Za-z0-9_.\-]", "_", column.name)
            base = base if re.match(r"^[A-Za-z_]", base) else f"_{base}"
            name, number = base, 2
            while name in taken:
                name, number = f"{base}_{number}", number + 1
            taken.add(name)
            renames[(table.name.lower(), column.name)] = name
            said.append(f"{table.name}.{column.name} -> {name}")
    if not renames:
        return schema, []

    def new(table: str, column: str) -> str:
        return renames.get((table.lower(), column), column)

    tables = []
    for table in schema.tables:
        columns = tuple(replace(c, name=new(table.name, c.name), sql_name=c.name) if (table.name.lower(), c.name)
                        in renames else c for c in table.columns)
        keys = tuple(ForeignKey(tuple(new(table.name, c) for c in k.columns), k.parent_table,
                                tuple(new(k.parent_table, c) for c in k.parent_columns)) for k in table.foreign_keys)
        tables.append(replace(table, columns=columns, primary_key=tuple(new(table.name, c) for c in table.primary_key),
                              unique_sets=tuple(tuple(new(table.name, c) for c in u) for u in table.unique_sets),
                              foreign_keys=keys))
    return replace(schema, tables=tuple(tables)), said



def entity_name(table: str) -> str:
    """`order_items` -> `OrderItem`, `people` stays `People` apart from the capital: a simple singular."""
    words = [w for w in re.split(r"[_\-\s.]+", table) if w]
    if not words:
        return table
    words[-1] = singular(words[-1])
    return "".join(w[:1].upper() + w[1:] for w in words)


def singular(word: str) -> str:
    lower = word.lower()
    if lower.endswith("ies") and len(word) > 4:
        return word[:-3] + ("Y" if word[-1].isupper() else "y")
    if lower.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is", "news")) and len(word) > 3:
        return word[:-1]
    return word


def snake(name: str) -> str:
    """`OrderItem` -> `order_item`, `customerId` -> `customer_id` (pattern names are lower snake case)."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "item"


def _table_name(source: str) -> str:
    stem = re.sub(r"\.(sql|ddl|txt)$", "", source.rsplit("/", 1)[-1], flags=re.I)
    name = re.sub(r"[^A-Za-z0-9_.\-]+", "-", stem).strip("-.")
    return name if len(name) >= 3 else "imported-schema"


# --- the model --------------------------------------------------------------------------------------


class _Builder:
    def __init__(self, schema: SqlSchema, row_counts: dict[str, int], prefix: str = "") -> None:
        self.schema = schema
        self.row_counts = row_counts
        self.prefix = prefix
        self.inferred: list[str] = list(schema.ignored) + _schema_notes(schema)
        self.decisions: list[str] = []
        self.names = self._entity_names()
        # `ost_ticket.queue_id` names `ost_queue` whether or not the prefix is stripped from entity names
        self.guesses = guessed_references(schema.tables, prefix or common_prefix([t.name for t in schema.tables]))

    def _entity_names(self) -> dict[str, str]:
        wanted = {t.name: entity_name(strip_prefix(t.name, self.prefix)) for t in self.schema.tables}
        taken = [n.lower() for n in wanted.values()]
        # two tables that would get one name keep their own names (order of the file decides nothing)
        return {t: (n if taken.count(n.lower()) == 1 else re.sub(r"[^A-Za-z0-9_.\-]", "_", t))
                for t, n in wanted.items()}

    def document(self, name: str, table_name: str) -> dict[str, Any]:
        renamed = [f"{t} -> {e}" for t, e in self.names.items() if t != e]
        if renamed:
            self.inferred.append("Tables become entities named in the singular: " + ", ".join(renamed)
                                 + ". Column names stay the attribute names.")
        entities = [self._entity(t) for t in self.schema.tables]
        relationships = self._relationships()
        self.decisions += [g.sentence(self.names[g.table], self.names[g.parent]) for g in self.guesses]
        return {"format": "dynamodb-design-studio/model", "version": 1, "name": name[:200],
                "description": f"Imported from a {self.schema.dialect.value} schema of {len(entities)} tables.",
                "table": {"name": table_name}, "entities": entities, "relationships": relationships}

    def given_row_count(self, table: Table) -> int | None:
        return table.row_count if table.row_count is not None else self.row_counts.get(table.name.lower())

    def item_count(self, table: Table) -> int | None:
        count = self.given_row_count(table)
        return None if count is None else min(count, MAX_ITEM_COUNT)

    def _entity(self, table: Table) -> dict[str, Any]:
        count = self.item_count(table)
        given = self.given_row_count(table)
        if given is not None and given > MAX_ITEM_COUNT:
            self.decisions.append(f"{table.name}: its row count {given:,} is above the {MAX_ITEM_COUNT:,} items an "
                                  f"entity can hold here, so {self.names[table.name]} has {MAX_ITEM_COUNT:,} items; "
                                  "check the count (sizes, costs and hot partitions depend on it).")
        if count is None:
            self.decisions.append(f"{table.name}: no row count was given, so {self.names[table.name]} assumes "
                                  f"{DEFAULT_ITEM_COUNT:,} items; add `-- rows: N` before its CREATE TABLE or a "
                                  "row-counts CSV (sizes, costs and hot partitions depend on it).")
            count = DEFAULT_ITEM_COUNT
        identifiers = list(table.primary_key)
        if not identifiers:
            candidates = [u for u in table.unique_sets if all(_not_null(table, c) for c in u)]
            if len(candidates) == 1:
                identifiers = list(candidates[0])
                self.inferred.append(f"{table.name} has no primary key; its unique NOT NULL columns "
                                     f"({', '.join(identifiers)}) identify its items.")
            else:
                self.decisions.append(f"{table.name} has no primary key: give {self.names[table.name]} "
                                      "identifiers before an access pattern uses it.")
        single_unique = {u[0] for u in table.unique_sets if len(u) == 1}
        if len(table.primary_key) == 1:
            single_unique.add(table.primary_key[0])
        for unique in table.unique_sets:
            if len(unique) > 1 and set(unique) != set(identifiers):  # its own key needs no uniqueness item
                self.decisions.append(f"{table.name}: UNIQUE ({', '.join(unique)}) spans several columns; DynamoDB "
                                      "enforces uniqueness only on a primary key: a conditional put of a "
                                      "uniqueness item in the same transaction keeps it.")
        attributes = [self._attribute(table, c.name, c.name in single_unique) for c in table.columns]
        description = f"From table {table.name}."
        return {"name": self.names[table.name], "description": description, "item_count": count,
                "identifiers": identifiers, "attributes": attributes}

    def _attribute(self, table: Table, name: str, unique: bool) -> dict[str, Any]:
        column = table.column(name)
        assert column is not None  # names come from the table's own columns
        attribute: dict[str, Any] = {"name": column.name, "required": column.not_null,
                                     "type": dynamodb_type(column.sql_type, column.type_parameters)}
        if unique:
            attribute["unique"] = True
        if column.sql_type in ("VARCHAR", "CHAR", "NVARCHAR", "NCHAR") and column.type_parameters:
            # n characters, at most 4 UTF-8 bytes each (dynamodb-rules §6 counts UTF-8 bytes)
            attribute["max_size_bytes"] = min(MAX_ATTRIBUTE_BYTES, 4 * column.type_parameters[0])
        if column.sql_type == "ARRAY":
            self.inferred.append(f"{table.name}.{column.name} is an array: a list (L); use a set (SS/NS) "
                                 "if order and duplicates do not matter.")
        generator = self._generator(table, column.name)
        if generator is not None:
            attribute["generator"] = generator
        return attribute

    def _generator(self, table: Table, name: str) -> dict[str, Any] | None:
        column = table.column(name)
        assert column is not None
        reference = self._reference(table, name)
        if reference is not None:
            return reference
        return column_generator(table, column)

    def _reference(self, table: Table, name: str) -> dict[str, Any] | None:
        for key in table.foreign_keys:
            if name in key.columns:
                parent = self.schema.table(key.parent_table)
                if parent is None:
                    return None
                columns = self._parent_columns(key, parent)
                position = key.columns.index(name)
                if position < len(columns):
                    return {"kind": "reference", "entity": self.names[parent.name], "attribute": columns[position]}
        return None

    @staticmethod
    def _parent_columns(key: ForeignKey, parent: Table) -> tuple[str, ...]:
        return key.parent_columns or parent.primary_key

    def _relationships(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        pairs: dict[tuple[str, str], int] = {}
        keys: list[tuple[Table, ForeignKey, Table]] = []
        for table in self.schema.tables:
            for key in dict.fromkeys(self._resolved(table, k) for k in table.foreign_keys):
                parent = self.schema.table(key.parent_table)
                if parent is None:
                    self.decisions.append(f"{table.name}.{', '.join(key.columns)} references {key.parent_table}, "
                                          "which the schema does not create: no relationship was made.")
                    continue
                keys.append((table, key, parent))
                pairs[(parent.name, table.name)] = pairs.get((parent.name, table.name), 0) + 1
        for table, key, parent in keys:
            one_to_one = set(key.columns) == set(table.primary_key) or any(
                set(u) == set(key.columns) for u in table.unique_sets)
            name = f"{snake(self.names[parent.name])}_{snake(strip_prefix(table.name, self.prefix))}"
            if pairs[(parent.name, table.name)] > 1:
                name += "_by_" + "_".join(snake(c) for c in key.columns)
            relationship: dict[str, Any] = {"name": name, "kind": "one_to_one" if one_to_one else "one_to_many",
                                            "parent": self.names[parent.name], "child": self.names[table.name],
                                            "child_attributes": list(key.columns)}
            mean = self._mean(table, parent, one_to_one)
            if mean is not None:
                relationship["cardinality"] = {"mean": mean}
            found.append(relationship)
            parent_columns = self._parent_columns(key, parent)
            if tuple(parent_columns) != tuple(parent.primary_key):
                self.decisions.append(f"{table.name}.{', '.join(key.columns)} references {parent.name}."
                                      f"{', '.join(parent_columns)}, not its primary key: the item collection "
                                      "the design search may put it in needs the parent's key.")
        found += self._many_to_many(keys)
        return found

    def _resolved(self, table: Table, key: ForeignKey) -> ForeignKey:
        parent = self.schema.table(key.parent_table)
        columns = self._parent_columns(key, parent) if parent is not None else key.parent_columns
        return ForeignKey(key.columns, parent.name if parent is not None else key.parent_table, tuple(columns))

    def _mean(self, child: Table, parent: Table, one_to_one: bool) -> float | None:
        if one_to_one:
            return 1.0
        children, parents = self.item_count(child), self.item_count(parent)
        if children is None or not parents:
            return None
        return float(f"{children / parents:.3g}")

    def _many_to_many(self, keys: list[tuple[Table, ForeignKey, Table]]) -> list[dict[str, Any]]:
        """A table whose primary key (or, without one, a UNIQUE set) is exactly two foreign keys joins its two
        parents many-to-many."""
        found = []
        by_table: dict[str, list[tuple[ForeignKey, Table]]] = {}
        for table, key, parent in keys:
            by_table.setdefault(table.name, []).append((key, parent))
        for table in self.schema.tables:
            joined = by_table.get(table.name, [])
            columns = sorted(c for key, _ in joined for c in key.columns)
            candidates = [table.primary_key] if table.primary_key else list(table.unique_sets)
            if len(joined) != 2 or not any(sorted(k) == columns for k in candidates):
                continue
            (_, first), (_, second) = sorted(joined, key=lambda pair: pair[0].columns)
            via = snake(strip_prefix(table.name, self.prefix))
            name = f"{snake(self.names[first.name])}_{snake(self.names[second.name])}_via_{via}"
            relationship: dict[str, Any] = {"name": name, "kind": "many_to_many", "parent": self.names[first.name],
                                            "child": self.names[second.name]}
            links, parents = self.item_count(table), self.item_count(first)
            if links is not None and parents:
                relationship["cardinality"] = {"mean": float(f"{links / parents:.3g}")}
            found.append(relationship)
            declared = "primary key" if table.primary_key else "UNIQUE constraint"
            self.inferred.append(f"{table.name} is a join table (its {declared} is its two foreign keys): "
                                 f"{self.names[first.name]} and {self.names[second.name]} are many-to-many through "
                                 f"{self.names[table.name]}, kept as an entity for its own columns.")
        return found


def _not_null(table: Table, name: str) -> bool:
    column = table.column(name)
    return column is not None and column.not_null


def _schema_notes(schema: SqlSchema) -> list[str]:
    """What the reading folded or typed that the user should know: partitions, computed columns, SETs."""
    notes = []
    for parent, partitions in schema.partitions:
        shown = ", ".join(partitions[:3]) + (f" and {len(partitions) - 3} more" if len(partitions) > 3 else "")
        notes.append(f"{parent} is partitioned: its {len(partitions)} partition{'s' if len(partitions) != 1 else ''}"
                     f" ({shown}) are one entity with it; their keys and foreign keys are {parent}'s.")
    for table in schema.tables:
        for column in table.columns:
            if column.computed:
                notes.append(f"{table.name}.{column.name} is computed by the database (GENERATED ALWAYS AS): "
                             "the application computes it when it writes the item.")
            if column.sql_type == "SET":
                notes.append(f"{table.name}.{column.name} is a MySQL SET: a string set (SS) of "
                             f"{', '.join(column.enum_values)}.")
    return notes
