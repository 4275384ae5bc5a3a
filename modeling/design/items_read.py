"""Items read per request, from the data's shape: mean, 99th percentile and pages, with a derivation.

What a Query reads is what its key condition matches (dynamodb-rules §1.2: filters and projections do
not reduce it), cut short by `Limit` pages and the 1 MB page (§8, applied before the filter). How many
items share one partition-key value follows from the model:

- a key built from the entity's identifiers (or a unique attribute) holds one item;
- a key built from a parent's identifiers holds the parent's collection: children choose their parent
  by the relationship's distribution (rank 1 the hottest, as the sample-data generator does), no parent
  holding more than the relationship's `max` (the overflow goes to the others, in proportion);
- a closed set of values (enum, boolean, constant, integer range) splits by the values' shares;
- a free-form value that no relationship or reference groups holds one item, except for the reading
  pattern's own entities when it expects more: then how many share a value is unknown, and the pattern's
  `expected_items` is assumed (said so in the derivation);
- other entities keyed the same way on the same access path are read too unless the sort key condition
  leaves them out.

Assumptions, stated in every derivation that uses them: requests spread evenly over the key values
that exist (each Org is asked about as often as any other); counts around their expected value vary as
a Poisson count does; a range condition on the sort key keeps the share of the collection the request
returns (`expected_items`), except an open-ended range with a `Limit`, which keeps everything and lets the
Limit stop it; the application stops paging once it has the items it returns; a filter value that
no generator describes keeps a guessed 10 %.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

import numpy as np

from modeling.data.distributions import value_shares, weighted_quantile
from modeling.design.collection_sizes import Rows, parent_rows, spread_counts
from modeling.design.keys import KeyTemplate
from modeling.dynamodb_rules import PAGE_BYTES, items_per_page
from modeling.model import (
    AccessPattern,
    BooleanGenerator,
    ConstantGenerator,
    Entity,
    EnumGenerator,
    FloatRangeGenerator,
    IntRangeGenerator,
    KeyTemplates,
    Model,
    RangeOperator,
    ReferenceGenerator,
    Relationship,
    ZipfDistribution,
    child_relationships,
)
from modeling.number_text import number

GUESSED_FILTER_SHARE = 0.1  # a filter on a value no generator describes: a guess, said so in the derivation
_MAX_VALUES = 100_000  # a closed set larger than this splits a collection as evenly as it matters
_SPLIT_ROWS = 64  # inputs with more values than this narrow the rows by their mean share
_OPEN_ENDED = frozenset({RangeOperator.LESS_THAN, RangeOperator.LESS_THAN_OR_EQUAL, RangeOperator.GREATER_THAN,
                         RangeOperator.GREATER_THAN_OR_EQUAL})


class SortUse(StrEnum):
    """How a Query's key condition uses the sort key."""

    NONE = "none"  # partition key only: the whole collection
    PREFIX = "prefix"  # begins_with a constant (and known leading attributes)
    RANGE = "range"  # a range on the next sort-key attribute
    EXACT = "exact"  # every sort-key attribute known: one item
    SPAN = "span"  # several entities' sort keys, between the lowest and highest of them (no other entity between)


@dataclass(frozen=True)
class ItemsRead:
    """Items a request reads: mean and 99th percentile over requests, pages per request, and why."""

    mean: float
    p99: float
    pages_per_request: float
    derivation: str
    filter_keeps_share: float = 1.0  # share of the items read that the FilterExpression keeps
    entity_shares: tuple[tuple[str, float], ...] = ()  # share of the items read of each entity


def _count(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:,.2g}"


# --- one entity's items per key value ------------------------------------------------------------------------


def _value_shares(entity: Entity, name: str) -> tuple[tuple[str, ...], np.ndarray] | None:
    """Labels and shares of a closed set of values, from the attribute's generator (None: not closed)."""
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, ConstantGenerator):
        return (str(generator.value),), np.ones(1)
    if isinstance(generator, BooleanGenerator):
        return ("True", "False"), np.array([generator.true_share, 1 - generator.true_share])
    if isinstance(generator, EnumGenerator):
        if generator.weights is not None:
            weights = np.asarray(generator.weights, dtype=float)
        else:
            weights = value_shares(len(generator.values), generator.distribution)
        return generator.values, weights / weights.sum()
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator) and attribute is not None \
            and not attribute.unique:
        scale = 10 ** generator.decimals if isinstance(generator, FloatRangeGenerator) else 1
        count = int(min((generator.max - generator.min) * scale + 1, max(entity.item_count, 1), _MAX_VALUES))
        small = isinstance(generator, IntRangeGenerator) and count <= _SPLIT_ROWS
        labels = tuple(str(generator.min + i) for i in range(count)) if small else ()
        return labels, value_shares(count, generator.distribution)
    return None


def value_share(entity: Entity, name: str, value: str) -> float:
    """Share of an entity's items whose attribute equals `value` (a guess when no generator describes it)."""
    shares = _value_shares(entity, name)
    if shares is None:
        return GUESSED_FILTER_SHARE
    labels, weights = shares
    return float(weights[labels.index(value)]) if value in labels else 1 / len(weights)


def _identifies(entity: Entity, names: set[str]) -> bool:
    unique = {a.name for a in entity.attributes if a.unique}
    return (bool(entity.identifiers) and set(entity.identifiers) <= names) or bool(unique & names)


def _collection(model: Model, entity: Entity, names: set[str]) -> tuple[Rows, set[str], str]:
    """Items of `entity` per value of the key attributes `names`, before closed-set splits."""
    if _identifies(entity, names):
        return Rows(np.ones(1), np.ones(1), exact=True), set(), f"one {entity.name} per key"
    relationship = _relationship(model, entity, names)
    # a relationship to an entity the model lacks is refused by validation: read as no relationship here
    parent = model.entity(relationship.parent) if relationship is not None else None
    if relationship is not None and parent is not None:
        cardinality = relationship.cardinality
        rows = parent_rows(parent.item_count, float(entity.item_count), cardinality.distribution, cardinality.max)
        shape = cardinality.distribution.kind + (f" {cardinality.distribution.exponent:g}"
                                                 if isinstance(cardinality.distribution, ZipfDistribution) else "")
        cap = f", max {cardinality.max:,}" if cardinality.max is not None else ""
        return rows, names - set(relationship.child_attributes), (
            f"collection of {parent.name}: mean {_count(rows.mean)} {entity.name} ({relationship.name}, {shape}{cap})")
    references = []  # (items per parent, attribute, parent, generator): the smallest collection is the one named
    for name in sorted(names):
        attribute = entity.attribute(name)
        generator = attribute.generator if attribute is not None else None
        parent = model.entity(generator.entity) if isinstance(generator, ReferenceGenerator) else None
        if parent is not None and isinstance(generator, ReferenceGenerator):
            references.append((float(entity.item_count) / max(parent.item_count, 1), name, parent, generator))
    if references:
        _, name, parent, generator = min(references, key=lambda r: (r[0], r[1]))
        rows = parent_rows(parent.item_count, float(entity.item_count), generator.distribution, None)
        return rows, names - {name}, (f"{name} refers to {parent.name}: mean {_count(rows.mean)} "
                                      f"{entity.name} per {parent.name}")
    return Rows(np.array([float(entity.item_count)]), np.ones(1)), set(names), f"{entity.item_count:,} {entity.name}"


def _relationship(model: Model, entity: Entity, names: set[str]) -> Relationship | None:
    """The relationship whose parent's collection the key attributes `names` name, when one does.

    When the key names two parents at once (a loan keyed by its book and its member), its items are in both
    collections, so there are at most as many as in the smaller: the relationship with the fewest children per
    parent is taken, then the one with the lower max. Only then the names break a tie (issue 28.5: the first
    name won before, whatever the counts said)."""
    found = [r for r in child_relationships(model, entity.name) if r.child_attributes
             and set(r.child_attributes) <= names and model.entity(r.parent) is not None]

    def per_parent(relationship: Relationship) -> float:
        parent = model.entity(relationship.parent)
        return float(entity.item_count) / max(parent.item_count if parent is not None else 1, 1)

    return min(found, key=lambda r: (-len(r.child_attributes), per_parent(r), r.cardinality.max or math.inf,
                                     r.parent, r.child_attributes, r.name)) if found else None


def _split(rows: Rows, entity: Entity, name: str, fixed: Mapping[str, str], words: list[str],
           in_collection: bool, free_form_items: float) -> Rows:
    """Narrow the rows by one more key attribute: a fixed value keeps its share, an input picks one value.

    Inside a parent's collection, an attribute that is not a closed set (the parent's own parent, such as
    a tenant id) is taken to follow from the parent and does not narrow it.
    """
    shares = _value_shares(entity, name)
    if shares is None and in_collection:
        words.append(f"{name} follows from the parent")
        return rows
    if shares is None and free_form_items > 1:
        # Nothing in the model says how many items share one value: the pattern's own expected_items is the
        # only figure there is (a Query without a filter reads what it returns), so it is used and said.
        words.append(f"{name} has free-form values and no relationship says how many {entity.name} share one: "
                     f"unknown, assumed the pattern's expected_items ({_count(free_form_items)})")
        return replace(rows, lam=np.minimum(rows.lam, free_form_items), exact=False)
    if shares is None:  # free-form values inside a key: about one item per value
        words.append(f"{name} has free-form values (no relationship groups them): about one item per value")
        return replace(rows, lam=np.minimum(rows.lam, 1.0), exact=True)
    labels, weights = shares
    if name in fixed:
        share = float(weights[labels.index(fixed[name])]) if fixed[name] in labels else 1 / len(weights)
        words.append(f"{name} = {fixed[name]} keeps {share:.2%}")
        return replace(rows, lam=rows.lam * share, exact=False)
    words.append(f"{name} splits it {len(weights):,} ways (requests even over its values)")
    if len(weights) > _SPLIT_ROWS:
        return replace(rows, lam=rows.lam / len(weights), exact=False)
    even = np.full(len(weights), 1 / len(weights))
    return replace(rows, lam=np.kron(rows.lam, weights), prob=np.kron(rows.prob, even), exact=False)


def entity_rows(model: Model, entity: Entity, key_names: set[str], fixed: Mapping[str, str],
                membership: float, free_form_items: float = 1.0) -> tuple[Rows, str]:
    """Items of one entity matched by equality on `key_names` (values in `fixed` are constants).

    `free_form_items` is how many items one free-form key value is taken to hold when nothing in the model
    groups them (the reading pattern's expected_items for its own entities, else one).
    """
    rows, rest, text = _collection(model, entity, key_names)
    words = [text]
    in_collection = len(rows.lam) > 1 or rest != set(key_names)
    for name in sorted(rest):
        rows = _split(rows, entity, name, fixed, words, in_collection, free_form_items)
    if membership < 1:
        rows = replace(rows, lam=rows.lam * membership)
        words.append(f"sparse index keeps {membership:.2%}")
    return rows, "; ".join(words)


# --- a whole request -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyRead:
    """What the planner decided about one read: which templates its key condition uses and how."""

    templates: Mapping[str, KeyTemplates]  # every entity on the access path
    entity: str  # the pattern's entity whose templates the condition was built from
    sort_use: SortUse
    known_sort_attributes: tuple[str, ...]
    filtered: tuple[str, ...]  # inputs and filters that became a FilterExpression
    membership: Mapping[str, float]  # share of each entity's items on the path (sparse index)


def estimate_query(model: Model, pattern: AccessPattern, read: KeyRead,
                   entry_bytes: Mapping[str, float]) -> ItemsRead:
    """Items one Query of `pattern` reads on the access path described by `read`."""
    fixed = {f.attribute: str(f.equals) for f in pattern.filters}
    own = read.templates[read.entity]
    partition = set(KeyTemplate.parse(own.partition_key).attribute_names)
    total: Rows | None = None
    words = []
    means: list[tuple[str, float]] = []
    for name in _readers(read, own, pattern.entities):
        entity = model.entity(name)
        if entity is None:
            continue
        names = partition | set(read.known_sort_attributes)
        if read.sort_use is SortUse.EXACT:
            names |= set(entity.identifiers)
        free_form_items = pattern.expected_items if name in pattern.entities else 1.0
        rows, text = entity_rows(model, entity, names, fixed, read.membership.get(name, 1.0), free_form_items)
        total = rows if total is None else _add(total, rows)
        words.append(text)
        means.append((name, rows.mean))
    if total is None:
        return ItemsRead(0.0, 0.0, 1.0, "no entity matches the key")
    result = _finish(model, pattern, read, total, words, entry_bytes)
    whole = sum(m for _, m in means) or 1.0
    return replace(result, entity_shares=tuple((n, m / whole) for n, m in means))


def _readers(read: KeyRead, own: KeyTemplates, wanted: tuple[str, ...] = ()) -> list[str]:
    """Entities whose items the key condition matches: same partition template, and a sort key that fits
    (a span holds only the pattern's own entities, `wanted`)."""
    prefix = KeyTemplate.parse(own.sort_key).constant_prefix if own.sort_key else ""
    result = []
    for entity, templates in read.templates.items():
        if templates.partition_key != own.partition_key:
            continue
        other = KeyTemplate.parse(templates.sort_key).constant_prefix if templates.sort_key else ""
        if read.sort_use is SortUse.SPAN:
            if entity in wanted:
                result.append(entity)
        elif entity == read.entity or read.sort_use is SortUse.NONE or (prefix and other.startswith(prefix)):
            result.append(entity)
    return result


def _add(first: Rows, second: Rows) -> Rows:
    """Items of two entities in the same collections: the hottest parent is the hottest in both (rank 1).

    No key value holds more than the two maxima together (a game's item and its at most 50 players: 51)."""
    exact = first.exact and second.exact
    first_max, second_max = _most(first), _most(second)
    maximum = None if first_max is None or second_max is None else first_max + second_max
    if len(first.lam) == len(second.lam):
        return Rows(first.lam + second.lam, first.prob, exact, maximum)
    if len(second.lam) == 1:
        return Rows(first.lam + second.lam[0], first.prob, exact, maximum)
    if len(first.lam) == 1:
        return Rows(second.lam + first.lam[0], second.prob, exact, maximum)
    return Rows(first.lam + second.mean, first.prob, maximum=maximum)  # different groupings: add the other's mean


def _most(rows: Rows) -> float | None:
    """The most items one key value holds: the relationship's max, or the count itself when it is exact (one item
    per key: a game's own item); None when nothing bounds it."""
    if rows.maximum is not None:
        return rows.maximum
    return float(rows.lam.max(initial=0.0)) if rows.exact else None


def _filter_share(model: Model, pattern: AccessPattern, read: KeyRead,
                  words: list[str]) -> float | None:
    """Share of the items read that the filter keeps; None when it keeps one item per request."""
    fixed = {f.attribute: str(f.equals) for f in pattern.filters}
    share = 1.0
    for name in read.filtered:
        owners = [e for e in (model.entity(n) for n in pattern.entities) if e is not None and e.attribute(name)]
        entity = owners[0] if owners else model.entity(read.entity)
        if entity is not None and _identifies(entity, {name}):
            words.append(f"filter {name} keeps 1")
            return None
        shares = _value_shares(entity, name) if entity is not None else None
        if shares is not None:
            labels, weights = shares
            part = (float(weights[labels.index(fixed[name])]) if name in fixed and fixed[name] in labels
                    else 1 / len(weights))
            words.append(f"filter {name} keeps {part:.2%}")
        elif entity is not None and (parent := _parent_by(model, entity, name)) is not None:
            part = 1 / max(parent.item_count, 1)
            words.append(f"filter {name} keeps one {parent.name}'s share ({part:.2g})")
        else:
            part = GUESSED_FILTER_SHARE
            words.append(f"filter {name} keeps {part:.0%} (a guess: no generator describes it)")
        share *= part
    return share


def _count_stats(rows: Rows, one_item: bool, limit: float | None, page: int) -> tuple[float, float, float, bool]:
    """Mean, pages and p99 of the items read, and whether the Limit stops some requests early."""
    lam = np.ascontiguousarray(rows.lam, dtype=float)
    prob = np.ascontiguousarray(rows.prob, dtype=float)
    return _cached_count_stats(lam.tobytes(), prob.tobytes(), bool(rows.exact), one_item, limit, page, rows.maximum)


@lru_cache(maxsize=4096)  # the design search plans the same collection for thousands of layouts
def _cached_count_stats(lam: bytes, prob: bytes, exact: bool, one_item: bool, limit: float | None,
                        page: int, maximum: float | None = None) -> tuple[float, float, float, bool]:
    values, probs = spread_counts(Rows(np.frombuffer(lam), np.frombuffer(prob), exact))
    if one_item:
        values = np.minimum(values, 1.0)
    # no key value holds more than the relationship's max (a 50-player game never has 68 players): the
    # percentile and the pages stop there; the mean stays the one the model's counts give
    bounded = values if maximum is None else np.minimum(values, maximum)
    stopped = False
    if limit is not None:
        stopped = float(np.dot(probs, bounded > limit)) > 0
        values, bounded = np.minimum(values, limit), np.minimum(bounded, limit)
    mean = float(np.dot(values, probs))
    pages = float(np.dot(np.maximum(1, np.ceil(bounded / page)), probs))
    return mean, pages, weighted_quantile(bounded, probs, 0.99), stopped


def _finish(model: Model, pattern: AccessPattern, read: KeyRead, rows: Rows, words: list[str],
            entry_bytes: Mapping[str, float]) -> ItemsRead:
    entry = float(np.mean([entry_bytes.get(read.entity, 1.0)]))
    page = items_per_page(entry, pattern.page_size)
    share = _filter_share(model, pattern, read, words)
    needed = None if share is None else pattern.expected_items / max(share, 1e-12)
    if read.sort_use is SortUse.RANGE and pattern.range_condition is not None:
        open_ended = pattern.range_condition.operator in _OPEN_ENDED and pattern.page_size is not None
        if not open_ended and needed is not None and rows.mean > 0:
            kept = min(1.0, needed / rows.mean)
            rows = replace(rows, lam=rows.lam * kept)
            words.append(f"range on {pattern.range_condition.attribute} assumed to keep {kept:.2%} "
                         f"(expected_items {_count(pattern.expected_items)})")
    pages_needed = None if needed is None else max(1, math.ceil(needed / page))
    mean, pages, p99, stopped = _count_stats(rows, read.sort_use is SortUse.EXACT,
                                             None if pages_needed is None else pages_needed * page, page)
    if stopped:
        words.append(f"stops after {pages_needed:,} page(s) of {page:,} (to return "
                     f"{_count(pattern.expected_items)})")
    words.append(f"mean {_count(mean)}, p99 {_count(p99)} items read per request, {number(pages)} page(s) "
                 f"of up to {page:,} ({_count(PAGE_BYTES / 1024)} KB page, Limit {pattern.page_size or 'none'})")
    kept = (1.0 / max(mean, 1.0)) if share is None else share
    return ItemsRead(mean, p99, pages, "; ".join(words), kept)


def _parent_by(model: Model, entity: Entity, name: str) -> Entity | None:
    """The parent entity a relationship keyed on `name` points to, if the model has both."""
    relationship = _relationship(model, entity, {name})
    return model.entity(relationship.parent) if relationship is not None else None
