"""PostgreSQL partitions folded into their partitioned table: one entity, with its partitions' keys and
foreign keys (issue 31, item 2).

A partition is declared `CREATE TABLE p PARTITION OF parent FOR VALUES ...`, or created as a table of its own
and attached with `ALTER TABLE parent ATTACH PARTITION p FOR VALUES ...` (pg_dump's form, whose keys and
foreign keys are often declared on each partition). Either way it is storage, not a kind of item.

>>> from modeling.interop.sql_tables import Column, ForeignKey
>>> columns = (Column("id", "INT"), Column("customer_id", "INT"))
>>> a = Table("payment", columns)
>>> b = Table("payment_2022", columns, ("id",), foreign_keys=(ForeignKey(("customer_id",), "customer", ()),))
>>> tables, merged = merge_partitions([a, b], {"payment_2022": "payment"})
>>> [t.name for t in tables], tables[0].primary_key, tables[0].foreign_keys[0].parent_table, merged
(['payment'], ('id',), 'customer', (('payment', ('payment_2022',)),))
"""

from __future__ import annotations

import re
from dataclasses import replace

from sqlglot import exp

from modeling.interop.sql_tables import Table

_ATTACH = re.compile(r"\s*table\s+(only\s+)?(?P<parent>[^\s]+)\s+attach\s+partition\s+(?P<child>[^\s]+)", re.I)


def partition_parent(statement: exp.Create) -> tuple[str, list[exp.Expression]]:
    """The partitioned table a `CREATE TABLE ... PARTITION OF parent [(constraints)]` belongs to, or "", and
    the constraints the partition declares."""
    found = statement.find(exp.PartitionedOfProperty)
    target = found.this if found is not None else None
    if isinstance(target, exp.Schema) and isinstance(target.this, exp.Table):
        return _bare(target.this.sql()), list(target.expressions)
    return (_bare(target.sql()), []) if isinstance(target, exp.Table) else ("", [])


def attached_partition(statement: exp.Expression) -> tuple[str, str] | None:
    """(partitioned table, partition) of `ALTER TABLE [ONLY] parent ATTACH PARTITION child ...`, which sqlglot
    keeps as text."""
    if not (isinstance(statement, exp.Command) and str(statement.this).upper() == "ALTER"):
        return None
    match = _ATTACH.match(str(statement.expression))
    return (_bare(match.group("parent")), _bare(match.group("child"))) if match is not None else None


def merge_partitions(tables: list[Table], partitions: dict[str, str]) -> tuple[tuple[Table, ...],
                                                                             tuple[tuple[str, tuple[str, ...]], ...]]:
    """The tables with every partition folded into its partitioned table (a partition of a partition into the
    root), foreign keys to a partition pointed at the root; and (root, its partitions) for the notes."""
    by_name = {t.name.lower(): t for t in tables}
    roots = {child: root for child in partitions if (root := _root(child, partitions)).lower() in by_name}
    members: dict[str, list[Table]] = {}
    for child, root in roots.items():
        if child in by_name:
            members.setdefault(root.lower(), []).append(by_name[child])
    merged_names: dict[str, list[str]] = {}
    for child, root in sorted(roots.items()):
        merged_names.setdefault(by_name[root.lower()].name, []).append(by_name[child].name if child in by_name
                                                                        else child)
    result = []
    for table in tables:
        if table.name.lower() in roots:
            continue
        table = _with_partitions(table, members.get(table.name.lower(), []))
        keys = tuple(replace(k, parent_table=by_name[roots[k.parent_table.lower()].lower()].name)
                     if k.parent_table.lower() in roots else k for k in table.foreign_keys)
        result.append(replace(table, foreign_keys=tuple(dict.fromkeys(keys))))
    return tuple(result), tuple((root, tuple(children)) for root, children in sorted(merged_names.items()))


def _with_partitions(table: Table, partitions: list[Table]) -> Table:
    """The partitioned table with what its partitions declare about the same columns."""
    names = {c.name.lower() for c in table.columns}

    def fits(columns: tuple[str, ...]) -> bool:
        return bool(columns) and all(c.lower() in names for c in columns)

    primary_key = table.primary_key or next((p.primary_key for p in partitions if fits(p.primary_key)), ())
    unique = list(table.unique_sets) + [u for p in partitions for u in p.unique_sets if fits(u)]
    keys = list(table.foreign_keys) + [k for p in partitions for k in p.foreign_keys if fits(k.columns)]
    return replace(table, primary_key=primary_key, unique_sets=tuple(dict.fromkeys(unique)),
                   foreign_keys=tuple(dict.fromkeys(keys)))


def _root(child: str, partitions: dict[str, str]) -> str:
    seen = {child}
    parent = partitions[child]
    while parent.lower() in partitions and parent.lower() not in seen:
        seen.add(parent.lower())
        parent = partitions[parent.lower()]
    return parent


def _bare(name: str) -> str:
    """`public.payment` / `"public"."payment"` -> `payment`: tables are matched by name, as elsewhere."""
    return name.split(".")[-1].strip('"`')
