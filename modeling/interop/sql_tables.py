"""The frozen facts a SQL schema gives a model: tables, their columns, keys and foreign keys
(`modeling.interop.sql_schema` reads them).

>>> Table("t", (Column("Full Name", "TEXT"),)).column("full name").sql_type
'TEXT'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from modeling.interop.sql_statements import SkippedStatement

INTEGER_TYPES = frozenset({"TINYINT", "UTINYINT", "SMALLINT", "USMALLINT", "MEDIUMINT", "UMEDIUMINT", "INT",
                           "UINT", "BIGINT", "UBIGINT", "SERIAL", "BIGSERIAL", "SMALLSERIAL", "INT128", "INT256",
                           "YEAR"})


class SqlDialect(StrEnum):
    """sqlglot's dialect names."""

    POSTGRES = "postgres"
    MYSQL = "mysql"


@dataclass(frozen=True)
class Column:
    name: str
    sql_type: str  # sqlglot's type name, upper case: BIGINT, VARCHAR, TIMESTAMPTZ, ENUM ...
    type_parameters: tuple[int, ...] = ()  # VARCHAR(254) -> (254,), NUMERIC(10, 2) -> (10, 2)
    not_null: bool = False
    auto_increment: bool = False  # SERIAL, IDENTITY, AUTO_INCREMENT: the database assigns it
    enum_values: tuple[str, ...] = ()
    minimum: float | None = None  # from CHECK constraints
    maximum: float | None = None
    element_type: str = ""  # ARRAY element type
    sql_name: str = ""  # the name in the SQL when `name` had to be changed to be an attribute name
    computed: bool = False  # GENERATED ALWAYS AS (expression): the database computes it from other columns


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    parent_table: str
    parent_columns: tuple[str, ...]  # empty: the parent's primary key


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    unique_sets: tuple[tuple[str, ...], ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()
    row_count: int | None = None
    line: int = 0

    def column(self, name: str) -> Column | None:
        """The column named so, by its attribute name or by its name in the SQL."""
        return next((c for c in self.columns if c.name == name), None) or next(
            (c for c in self.columns if c.sql_name == name), None) or next(  # SQL folds unquoted names
            (c for c in self.columns if name.lower() in (c.name.lower(), c.sql_name.lower())), None)


@dataclass(frozen=True)
class SqlSchema:
    dialect: SqlDialect
    tables: tuple[Table, ...]
    ignored: tuple[str, ...] = ()  # one sentence per statement kind the import does not use
    skipped: tuple[SkippedStatement, ...] = ()  # every statement not used, with its line and why
    partitions: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (partitioned table, its partitions)

    def table(self, name: str) -> Table | None:
        return next((t for t in self.tables if t.name.lower() == name.lower()), None)
