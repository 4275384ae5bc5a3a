"""Rows per call in a query log as the shape of the data: children per parent, and the item counts to match.

A pattern's `expected_items` says what one request returns; the design's planner, though, reads a collection
as the children of one parent, from the item counts (`modeling.design.items_read`). Without row counts both
tables assume DEFAULT_ITEM_COUNT items, so every collection holds one item and a read of 30 rows was priced
as a read of one (issue 31.3). The log's rows per call of a read by a foreign key say how many children a
parent has; the relationship's cardinality and the assumed counts follow, and the notes say so.
"""

from __future__ import annotations

from dataclasses import dataclass

from modeling.interop.query_patterns import Proposal
from modeling.interop.sql_import import DEFAULT_ITEM_COUNT, SqlImport
from modeling.limits import MAX_CARDINALITY, MAX_ITEM_COUNT
from modeling.model import Model, PatternKind, Relationship


@dataclass(frozen=True)
class LoggedRead:
    """One proposed pattern with what the log says of it."""

    name: str
    proposal: Proposal
    rows: float | None  # rows over all its calls, when the log has them
    calls: int


def read_relationship(proposal: Proposal, schema: SqlImport) -> Relationship | None:
    """The relationship whose foreign key the read's inputs are (the children of one parent)."""
    if proposal.kind is not PatternKind.READ_MANY:
        return None
    child = schema.entity_of(proposal.tables[-1])
    return next((r for r in schema.model.relationships
                 if r.child == child and set(r.child_attributes) == set(proposal.inputs)), None)


def log_cardinalities(reads: list[LoggedRead], schema: SqlImport, inferred: list[str]) -> dict[str, float]:
    """Children per parent from the log's rows per call, for relationships no row count sized.

    Without it the relationship keeps the default of one child per parent, and the planner (which reads the
    collection the relationship describes) prices a read of 30 rows as a read of one. A read cut short by its
    LIMIT says only that there are at least that many: it is not used. The busiest read of a relationship wins.
    """
    found: dict[str, float] = {}
    for read in reads:
        relationship = read_relationship(read.proposal, schema)
        if relationship is None or "cardinality" in relationship.model_fields_set or relationship.name in found \
                or read.rows is None or not read.calls:
            continue
        per_call = read.rows / read.calls - (1.0 if len(read.proposal.tables) > 1 else 0.0)
        page = read.proposal.page_size
        if per_call <= 0 or (page is not None and per_call >= page):
            continue
        found[relationship.name] = min(MAX_CARDINALITY, float(f"{per_call:.3g}"))
        inferred.append(f"{relationship.name}: a {relationship.parent} has about {found[relationship.name]:g} "
                        f"{relationship.child} items, from {read.name}'s rows per call in the log (no row counts were "
                        "given; --row-counts gives them from the tables).")
    return found


def log_counts(model: Model, cardinalities: dict[str, float], inferred: list[str]) -> dict[str, int]:
    """Item counts that make each relationship's children per parent what the log says.

    The planner reads a collection as children / parents (the counts, `modeling.design.items_read`), so the
    cardinality alone would change nothing. An assumed count (DEFAULT_ITEM_COUNT: the schema gave none) gives
    way: the child's, from its parent (so a chain store -> customer -> rental is worked out from the top down,
    and a whole number of children per parent stays exact), else the parent's, from its children."""
    counts = {e.name: e.item_count for e in model.entities}
    assumed = {name for name, count in counts.items() if count == DEFAULT_ITEM_COUNT}
    ruled: dict[str, str] = {}  # entity -> the relationship that sets its count (the busiest read's first)
    relationships = [r for r in model.relationships if r.name in cardinalities and r.parent != r.child]
    for relationship in relationships:
        changes = relationship.child if relationship.child in assumed else \
            relationship.parent if relationship.parent in assumed else None
        if changes is not None:
            ruled.setdefault(changes, relationship.name)
    for _ in range(len(relationships) + 1):  # a count set from another set count follows it
        for relationship in relationships:
            per_parent = cardinalities[relationship.name]
            if ruled.get(relationship.child) == relationship.name:
                counts[relationship.child] = min(MAX_ITEM_COUNT, max(1, round(counts[relationship.parent] *
                                                                              per_parent)))
            elif ruled.get(relationship.parent) == relationship.name:
                counts[relationship.parent] = max(1, round(counts[relationship.child] / per_parent))
    before = {e.name: e.item_count for e in model.entities}
    changed = {name: count for name, count in counts.items() if count != before[name]}
    for name in sorted(changed):
        inferred.append(f"{name}: {changed[name]:,} items (assumed) so that {ruled[name]} has the children per "
                        "parent the log shows.")
    return changed
