"""Composite sort keys shared by several patterns: one GSI instead of one per pattern (issue 28.3).

A read pattern that the table keys do not serve usually gets a GSI of its own. When its entity already has
entries in a GSI partitioned on some of the pattern's equality inputs (the copies of an author, for
`list_copies_by_author` or a collection read of the author's works), the same index can serve it too: the
entity's sort key in that index becomes a composite that starts with the pattern's further equality inputs,
then its range attribute, then what the sort key held before (`BOOK#{loanEndDate}#{isbn}#{bookId}`). The
pattern then Queries the existing index with `begins_with` on the fixed parts and a range (`BETWEEN`, `<`,
`>`) on the next one, as ElectroDB's collections do (https://electrodb.dev/en/modeling/collections/), and the
table saves the GSI: its index writes and its storage.

This module says which indexes a pattern could share and what the entity's new sort key is; the generator
(`modeling.design.generator`) tries them in the design's index order and keeps one only when the pattern is
then served without an index of its own and no pattern that read the index before plans worse. Whether the
shared index is cheaper than separate ones (fewer indexes, longer keys) is the search's question: a layout
asks for this move with `LayoutChoice.composite_sort_keys`, and `modeling.design.search` prices the layouts
with and without it. Number parts stay zero-padded and timestamps ISO-8601, so string order is still the
attribute's order (the generator renders every part with its sortable reference).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from modeling.design.design_space import equal_inputs
from modeling.design.keys import KEY_SEPARATOR, KeyTemplate
from modeling.model import AccessPattern, Consistency, EntityKeys, KeyDesign, KeyTemplates


def shareable(pattern: AccessPattern) -> bool:
    """A pattern that may share an index: an eventually consistent read of one entity with equality inputs and
    no sparse condition (a sparse index holds only the items in one state; it is never widened for another)."""
    return (pattern.kind.is_read and len(pattern.entities) == 1 and not pattern.filters
            and pattern.consistency is Consistency.EVENTUAL and bool(equal_inputs(pattern)))


def shared_sort_parts(partition: tuple[str, ...], sort: tuple[str, ...],
                      pattern: AccessPattern) -> tuple[str, ...] | None:
    """The attributes of the entity's new sort key in an index partitioned on `partition` and sorted on `sort`,
    or None when the pattern cannot use that partition (it must give every partition attribute).

    The pattern's further equality inputs come first (in its input order: the order of a key's parts is
    meaningful), then its range attribute, then the old sort key's parts, so one Query fixes the first ones with
    `begins_with` and ranges over the next.

    >>> from modeling.model import AccessPattern
    >>> p = AccessPattern.model_validate({"name": "p", "kind": "read_many", "entities": ["Book"],
    ...     "inputs": ["authorId"], "range_condition": {"attribute": "loanEndDate", "operator": "less_than"},
    ...     "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}})
    >>> shared_sort_parts(("authorId",), ("isbn", "bookId"), p)
    ('loanEndDate', 'isbn', 'bookId')
    >>> shared_sort_parts(("memberId",), ("isbn",), p) is None
    True
    """
    equal = equal_inputs(pattern)
    if not partition or not set(partition) <= set(equal):
        return None
    lead = [a for a in equal if a not in partition]
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    if range_attribute and range_attribute not in lead and range_attribute not in partition:
        lead.append(range_attribute)
    return (*lead, *(a for a in sort if a not in lead))


def shared_index_candidates(key_design: KeyDesign, entity: str, pattern: AccessPattern,
                            attributes: frozenset[str], render: Callable[[str], str]
                            ) -> Iterator[tuple[str, KeyDesign]]:
    """(index name, the key design with the entity re-sorted in it) for every GSI, in the design's order, whose
    entries of `entity` the pattern could read through a composite sort key.

    Only a GSI keyed on its own key attributes (`GSI1SK`, not an entity attribute such as `loanEndDate`) can
    take a composite for one entity without changing the others; a sparse entry (`only_when`) is never widened.
    `render` gives an attribute's sortable reference (`{isbn:13}`)."""
    keys = next((k for k in key_design.entities if k.entity == entity), None)
    if keys is None:
        return
    for index in key_design.global_secondary_indexes:
        templates = keys.indexes.get(index.name)
        if (templates is None or templates.only_when or index.sort_key is None
                or index.sort_key.name in attributes or templates.sort_key is None):
            continue
        sort = KeyTemplate.parse(templates.sort_key)
        parts = shared_sort_parts(KeyTemplate.parse(templates.partition_key).attribute_names,
                                  sort.attribute_names, pattern)
        if parts is None or not set(parts) <= attributes:
            continue
        source = _composite(sort.constant_prefix, parts, render)
        if source == templates.sort_key:
            continue  # the entity is sorted this way already: the index serves the pattern or never will
        shared = KeyTemplates(partition_key=templates.partition_key, sort_key=source)
        entities = tuple(k if k is not keys else EntityKeys(entity=k.entity, table=k.table,
                                                           indexes={**k.indexes, index.name: shared},
                                                           auxiliary=k.auxiliary)
                         for k in key_design.entities)
        yield index.name, key_design.model_copy(update={"entities": entities})


def _composite(prefix: str, parts: tuple[str, ...], render: Callable[[str], str]) -> str:
    """`LABEL#{a}#{b}`: the old constant prefix (an entity's label keeps entities apart in an overloaded index),
    then every part rendered sortable."""
    label = prefix.rstrip(KEY_SEPARATOR)
    return KEY_SEPARATOR.join([*([label] if label else []), *(render(a) for a in parts)])
