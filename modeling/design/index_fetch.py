"""What a read needs from a GSI entry, and the follow-up read when the entry does not hold it.

A GSI stores the table's keys, its own keys and the attributes it projects (dynamodb-rules §4.1): ALL copies
every attribute, INCLUDE the listed ones, KEYS_ONLY none. A GSI query cannot fetch the others, so a pattern
that uses an attribute the index does not project reads the index for the table keys and then fetches the base
items: GetItem for one, BatchGetItem for several, each item rounded up to 4 KB on its own and charged to the
table (§1.2). An attribute inside a key template (`CUSTOMER#{level}`) is not in the entry under its own name:
only a key attribute that is the attribute itself (an index keyed on `customerId`) is.

The planner asks `fetch_operation` for every read on a GSI; the priced projection choice
(`modeling.design.projections`) asks `attributes_used` what an INCLUDE must list.
"""

from __future__ import annotations

from modeling.dynamodb_rules import Operation
from modeling.model import AccessPattern, Model, PatternKind, ProjectionType


def attributes_used(model: Model, pattern: AccessPattern) -> frozenset[str]:
    """The attributes a read uses from each item: its `returns`, or every attribute of its entities (an empty
    `returns` means the whole item, as the model's field says)."""
    if pattern.returns:
        return frozenset(pattern.returns)
    return frozenset(a.name for name in pattern.entities if (e := model.entity(name)) is not None
                     for a in e.attributes)


def entry_attributes(projection: ProjectionType, non_key_attributes: tuple[str, ...],
                     key_names: tuple[str | None, ...]) -> frozenset[str] | None:
    """The attribute names an index entry holds (None: every attribute, an ALL projection)."""
    if projection is ProjectionType.ALL:
        return None
    return frozenset(n for n in (*key_names, *non_key_attributes) if n)


def fetch_operation(model: Model, pattern: AccessPattern, held: frozenset[str] | None) -> Operation | None:
    """The read that fetches the base items after a GSI query whose entries hold `held` (None: ALL), or None
    when the entries hold every attribute the pattern uses."""
    if held is None or attributes_used(model, pattern) <= held:
        return None
    return Operation.GET_ITEM if pattern.kind is PatternKind.READ_ONE else Operation.BATCH_GET_ITEM


def fetch_reason(index: str, projection: ProjectionType, operation: Operation) -> str:
    """The sentence a plan adds when it fetches (shown with the plan)."""
    return (f" {index} projects {projection.value}, which lacks attributes the pattern uses, and a GSI query "
            f"cannot fetch them: the application takes the table keys from the entries and {operation} reads the "
            "items from the table (eventually consistent, each item rounded up to 4 KB, charged to the table).")
