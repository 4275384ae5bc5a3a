"""Each GSI's projection chosen by cost: ALL, INCLUDE of what the patterns reading it use, or KEYS_ONLY.

A projection trades three costs (dynamodb-rules §4.1): what the index stores (the projected bytes of each entry
plus 100 bytes of overhead), what every write copies into it (each index write sized on the entry, rounded up to
1 KB; an update that changes no projected attribute and no key writes nothing to it) and what its readers pay
(a query adds the entries' projected bytes and rounds them up to 4 KB once). A reader that uses an attribute
the index does not project fetches the base items after the query (GetItem or BatchGetItem, each item rounded
up to 4 KB on its own, charged to the table: `modeling.design.index_fetch`), so KEYS_ONLY and a narrow INCLUDE
are always servable, and the price says when they pay: a write-heavy index of wide items is cheaper narrow,
a read-heavy one that returns whole items keeps ALL.

`cheapest_projections(model, design, price)` tries, GSI by GSI in the design's (canonical) order, every option
of `projection_options` against the current one and keeps the cheapest under the search's objective
(`price`: the recommended option's monthly total, then on-demand's); a tie keeps the current projection, so the
answer is deterministic and, the model being canonical, independent of the file's order. LSIs keep theirs: an
LSI fetches for itself (§4.2) and lives on the table's capacity.

`keys_only_bound(model, design)` is the design the search's lower bound prices for a partial layout: every GSI
KEYS_ONLY and no fetch, which no projection of the same layout undercuts (the smallest entries, no write for a
change of a non-key attribute, nothing fetched), so the bound stays admissible with projections chosen by cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from modeling.design.index_fetch import attributes_used, entry_attributes
from modeling.design.planner import plan_patterns
from modeling.design.plans import Design, IndexChoice
from modeling.limits import MAX_PROJECTED_NON_KEY_ATTRIBUTES
from modeling.model import KeyDesign, Model, Projection, ProjectionType, SecondaryIndex

Price = Callable[[Design], tuple[Decimal, Decimal]]  # (objective, on-demand) per month


def _key_names(design: KeyDesign, index: SecondaryIndex) -> frozenset[str]:
    """Attribute names every entry of the index holds: the table's keys and the index's own (§4.1)."""
    return frozenset(k.name for k in (design.partition_key, design.sort_key, index.partition_key, index.sort_key)
                     if k is not None)


def projection_options(model: Model, design: Design, index: SecondaryIndex) -> tuple[Projection, ...]:
    """ALL; INCLUDE of every attribute its readers use and filter on; INCLUDE of what the readers that list
    `returns` use (the others fetch); KEYS_ONLY, or INCLUDE of the filtered attributes alone (every reader
    fetches). Duplicates and INCLUDE lists over the table's quota left out (§8)."""
    readers = [p for p in design.plans if p.index == index.name and not p.operation.is_write]
    keys = _key_names(design.key_design, index)
    filtered = frozenset().union(*(p.filter_attributes for p in readers)) - keys
    patterns = [model.access_pattern(p.pattern) for p in readers]
    everything = frozenset().union(*(attributes_used(model, p) for p in patterns if p is not None))
    listed = frozenset().union(*(frozenset(p.returns) for p in patterns if p is not None))
    room = MAX_PROJECTED_NON_KEY_ATTRIBUTES - sum(
        len(i.projection.non_key_attributes) for i in (*design.key_design.global_secondary_indexes,
                                                       *design.key_design.local_secondary_indexes)
        if i.name != index.name)
    options = [Projection()]
    for attributes in (everything | filtered, listed | filtered, filtered):
        wanted = tuple(sorted(attributes - keys))
        option = (Projection(type=ProjectionType.INCLUDE, non_key_attributes=wanted) if wanted
                  else Projection(type=ProjectionType.KEYS_ONLY))
        if option not in options and len(wanted) <= room:
            options.append(option)
    return tuple(options)


def with_projection(model: Model, design: Design, index: str, projection: Projection) -> Design:
    """The design with one GSI's projection replaced and every pattern planned again."""
    gsis = tuple(i.model_copy(update={"projection": projection}) if i.name == index else i
                 for i in design.key_design.global_secondary_indexes)
    key_design = design.key_design.model_copy(update={"global_secondary_indexes": gsis})
    return replace(design, key_design=key_design, plans=plan_patterns(model, key_design))


def _filters_held(design: Design) -> bool:
    """Every read on a narrower GSI finds the attributes its filter compares in the entries."""
    gsis = {i.name: i for i in design.key_design.global_secondary_indexes}
    for plan in design.plans:
        index = gsis.get(plan.index)
        if index is None or plan.operation.is_write or not plan.filter_expression:
            continue
        held = entry_attributes(index.projection.type, index.projection.non_key_attributes,
                                tuple(_key_names(design.key_design, index)))
        if held is not None and not set(plan.filter_attributes) <= held:
            return False
    return True


def cheapest_projections(model: Model, design: Design, price: Price) -> Design:
    """The design with each GSI's projection the cheapest of its options under `price` (see the module
    docstring); the design itself when no option is cheaper."""
    current, cost = design, price(design)
    for index in design.key_design.global_secondary_indexes:
        priced = 1
        for option in projection_options(model, current, _index(current, index.name)):
            if option == _index(current, index.name).projection:
                continue
            candidate = with_projection(model, current, index.name, option)
            if not _filters_held(candidate) or _scans(candidate) > _scans(current):
                continue
            priced += 1
            candidate_cost = price(candidate)
            if candidate_cost < cost:  # (objective, on-demand): a tie keeps the current projection
                current, cost = candidate, candidate_cost
        current = _with_reason(current, index.name, priced)
    return current


def _index(design: Design, name: str) -> SecondaryIndex:
    return next(i for i in design.key_design.global_secondary_indexes if i.name == name)


def _scans(design: Design) -> int:
    return len(design.scan_patterns)


def _with_reason(design: Design, index: str, priced: int) -> Design:
    """The index's reason with one sentence on its projection, when more than one was priced."""
    if priced < 2:
        return design
    projection = _index(design, index).projection
    what = (f"INCLUDE ({', '.join(projection.non_key_attributes)})" if projection.type is ProjectionType.INCLUDE
            else projection.type.value)
    fetching = sorted(p.pattern for p in design.plans if p.index == index and p.fetch is not None)
    sentence = (f"Projection {what}: the cheapest of {priced} projections priced"
                + (f"; {', '.join(fetching)} {'fetches' if len(fetching) == 1 else 'fetch'} the base items after "
                   "the query." if fetching else "."))
    reasons = tuple(replace(c, reason=f"{c.reason} {sentence}".strip()) if c.index == index else c
                    for c in design.index_reasons)
    if not any(c.index == index for c in design.index_reasons):
        reasons += (IndexChoice(index, sentence, ()),)
    return replace(design, index_reasons=reasons)


def keys_only_bound(model: Model, design: Design) -> Design:
    """The design a partial layout's lower bound prices: every GSI KEYS_ONLY, and no fetch (see the module
    docstring). Not a design to offer: its readers would lack attributes."""
    if not design.key_design.global_secondary_indexes:
        return design
    gsis = tuple(i.model_copy(update={"projection": Projection(type=ProjectionType.KEYS_ONLY)})
                 for i in design.key_design.global_secondary_indexes)
    key_design = design.key_design.model_copy(update={"global_secondary_indexes": gsis})
    plans = tuple(replace(p, fetch=None) for p in plan_patterns(model, key_design))
    return replace(design, key_design=key_design, plans=plans)
