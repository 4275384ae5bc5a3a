"""What the import can only guess from names: a prefix every table name shares (`phpbb_`), and foreign keys a
schema does not declare (`tickets.queue_id` -> `queues`) (issue 31, item 5).

Guesses are offered, never made facts: the prefix is stripped only when asked (`--strip-prefix`), and a guessed
reference is a decision in the import's notes, not a relationship.

>>> common_prefix(["phpbb_users", "phpbb_posts", "phpbb_topics"])
'phpbb_'
>>> [(g.table, g.column, g.parent) for g in guessed_references([
...     Table("queues", (Column("id", "INT"),), ("id",)),
...     Table("tickets", (Column("id", "INT"), Column("queue_id", "INT")), ("id",))])]
[('tickets', 'queue_id', 'queues')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from modeling.interop.sql_schema import Column, Table  # noqa: F401  (the doctest's tables)

_REFERENCE_NAME = re.compile(r"^(?P<stem>.+?)(_id|Id|ID)$")


@dataclass(frozen=True)
class GuessedReference:
    table: str
    column: str
    parent: str
    parent_column: str

    def sentence(self, entity: str, parent_entity: str) -> str:
        return (f"{self.table}.{self.column} looks like a reference to {self.parent} (a guess from its name: no "
                f"FOREIGN KEY declares it): if it is, add `FOREIGN KEY ({self.column}) REFERENCES {self.parent} "
                f"({self.parent_column})` and import again, or add a relationship {parent_entity} -> {entity} "
                "in the model.")


def common_prefix(names: list[str]) -> str:
    """The longest start every table name shares, up to and including a `_` (`phpbb_`), or ""; never a whole name."""
    if len(names) < 2:
        return ""
    lowered = [n.lower() for n in names]
    length = next((i for i, chars in enumerate(zip(*lowered, strict=False)) if len(set(chars)) > 1),
                  min(len(n) for n in lowered))
    cut = lowered[0][:length].rfind("_") + 1
    prefix = names[0][:cut]
    return prefix if cut > 1 and all(len(n) > cut for n in names) else ""


def strip_prefix(name: str, prefix: str) -> str:
    return name[len(prefix):] if prefix and name.lower().startswith(prefix.lower()) and len(name) > len(prefix) \
        else name


def guessed_references(tables: list[Table] | tuple[Table, ...], prefix: str = "") -> list[GuessedReference]:
    """Columns named `<table>_id` (or `<Table>Id`) that no foreign key covers, and the one table they name.

    A table matches when its name, without the prefix and in the singular, is the column's stem
    (`queue_id` -> `queues`, `queue`); it must have a one-column primary key, and not be the column's own table."""
    from modeling.interop.sql_import import entity_name  # the one naming rule; sql_import imports this module

    by_entity: dict[str, list[Table]] = {}
    for table in tables:
        by_entity.setdefault(entity_name(strip_prefix(table.name, prefix)).lower(), []).append(table)
    found = []
    for table in tables:
        declared = {c for key in table.foreign_keys for c in key.columns}
        for column in table.columns:
            match = _REFERENCE_NAME.match(column.name)
            if match is None or column.name in declared or table.primary_key == (column.name,):
                continue
            candidates = [t for t in by_entity.get(entity_name(match.group("stem")).lower(), [])
                          if t is not table and len(t.primary_key) == 1]
            if len(candidates) == 1:
                parent = candidates[0]
                found.append(GuessedReference(table.name, column.name, parent.name, parent.primary_key[0]))
    return found
