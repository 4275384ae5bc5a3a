"""Item and index-entry sizes of a model's entities under one key design: the one sizing every estimate uses.

Each attribute counts its name plus its value (dynamodb-rules §6): the model's `avg_size_bytes` hint when
given (a user's stated expectation), else the mean size of seeded sample values from its generator, both
weighted by how often the attribute is present. The key attributes a design adds are measured on the
sample items rendered with the design's templates. An index entry is the whole item for an ALL projection
(§4.1: every attribute is projected), else the table and index keys plus the INCLUDE attributes. The
checks, the hot-partition analysis and the cost engine all read these sizes, so a 4 KB boundary cannot
fall on different sides in two places.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
from boto3.dynamodb.types import TypeSerializer

from modeling.data.sample_data import (
    generate_items,
    key_renderer,
    key_renderer_inputs,
    sample_footprint_bytes,
    sample_item_bytes,
)
from modeling.data.sample_states import generation_view
from modeling.item_size import name_size_bytes, value_size_bytes
from modeling.limits import (
    MAX_CACHED_SAMPLE_BYTES,
    MAX_SAMPLE_BYTES_PER_MODEL,
    MAX_SAMPLE_ITEMS_PER_MODEL,
    MIN_SAMPLE_ITEMS_PER_ENTITY,
)
from modeling.memo import ContentMemo
from modeling.model import Entity, KeyDesign, Model, ProjectionType, SecondaryIndex

SAMPLE_ITEMS_PER_ENTITY = 200
SAMPLE_SEED = 42
_SERIALIZER = TypeSerializer()


@dataclass(frozen=True)
class EntitySize:
    """Item sizes of one entity in bytes, as DynamoDB counts them (dynamodb-rules §6)."""

    entity: str
    hint_average_bytes: int  # size hints, sample values where an attribute has none, plus key attributes
    sample_average_bytes: int
    sample_p95_bytes: int
    maximum_bytes: int  # every attribute at its max_size_bytes hint (sample maximum where none)

    @property
    def average_bytes(self) -> int:
        """The size used for capacity: the model's hints (a user's stated expectation) first."""
        return self.hint_average_bytes


@dataclass(frozen=True)
class Sizes:
    """Every entity's item size and every (index, entity) entry size under one design."""

    entities: tuple[EntitySize, ...]
    entries: tuple[tuple[str, str, int], ...]  # (index, entity, average entry bytes)

    def item_bytes(self, entity: str) -> int:
        return self._item_bytes.get(entity, 0)

    def entry_bytes(self, index: str, entity: str) -> int:
        """Average entry of `entity` on `index`; the whole item on the table (or when not on the index)."""
        found = self._entry_bytes.get((index, entity))
        return self.item_bytes(entity) if found is None else found

    @cached_property
    def average_bytes_by_entity(self) -> dict[str, int]:
        """Entity -> average item bytes (the last of a repeated name, as a dict display keeps)."""
        return {s.entity: s.average_bytes for s in self.entities}

    # Lookups by name, built once: every plan asks for several, and scanning the tuples made the checks and the
    # cost engine quadratic in the entities. The first of a repeated name wins, as a scan would.
    @cached_property
    def _item_bytes(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for size in self.entities:
            found.setdefault(size.entity, size.average_bytes)
        return found

    @cached_property
    def _entry_bytes(self) -> dict[tuple[str, str], int]:
        found: dict[tuple[str, str], int] = {}
        for index, entity, size_bytes in self.entries:
            found.setdefault((index, entity), size_bytes)
        return found


@dataclass(frozen=True)
class _Drawn:
    """A model's drawn sample items and the memory they hold (`sample_footprint_bytes`)."""

    items: dict[str, list[dict[str, Any]]]
    footprint_bytes: int


# Draws by content: every design and page rerun of a model sizes the same items. At most 16 draws and
# MAX_CACHED_SAMPLE_BYTES: a few big models evict each other instead of pinning memory (issue 30).
_DRAWS: ContentMemo[_Drawn] = ContentMemo("sample items", 16, max_bytes=MAX_CACHED_SAMPLE_BYTES,
                                          weigh=lambda drawn: drawn.footprint_bytes)


def _cached_items(content: str, per_entity: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    return _DRAWS.get((content, per_entity, seed), lambda: _draw(Model.model_validate_json(content), per_entity,
                                                                  seed)).items


def _draw(model: Model, per_entity: int, seed: int) -> _Drawn:
    counts = {e.name: per_entity for e in model.entities}
    return _Drawn(generate_items(model, per_entity, seed), sample_footprint_bytes(model, counts))


def sample_counts(model: Model, per_entity: int = SAMPLE_ITEMS_PER_ENTITY) -> dict[str, int]:
    """Sample items per entity: `per_entity` each, fewer when a model-wide budget would be exceeded: a model of
    1,500 entities must not draw 300,000 items to size them (MAX_SAMPLE_ITEMS_PER_MODEL), nor one of big
    values hold gigabytes (MAX_SAMPLE_BYTES_PER_MODEL); never fewer than MIN_SAMPLE_ITEMS_PER_ENTITY."""
    budget = MAX_SAMPLE_ITEMS_PER_MODEL // max(1, len(model.entities))
    each = min(per_entity, max(MIN_SAMPLE_ITEMS_PER_ENTITY, min(budget, _items_within_bytes(model))))
    return {e.name: each for e in model.entities}


def _items_within_bytes(model: Model) -> int:
    """Items per entity whose draw stays within MAX_SAMPLE_BYTES_PER_MODEL (shared texts counted once)."""
    shared = sample_footprint_bytes(model, {})
    per_item = sum(sample_item_bytes(e) for e in model.entities)
    return max(0, MAX_SAMPLE_BYTES_PER_MODEL - shared) // max(1, per_item)


def sample_items(model: Model, design: KeyDesign, seed: int = SAMPLE_SEED,
                 per_entity: int = SAMPLE_ITEMS_PER_ENTITY,
                 items: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Seeded sample items with the design's key attributes, in DynamoDB JSON (values drawn once per model,
    or `items` already drawn for it)."""
    if items is None:
        items = _drawn_items(model, seed, per_entity)
    return {entity: [_serialized({**item, **keys(item)}) for item in entity_items]
            for entity, entity_items in items.items() for keys in (key_renderer(design, entity),)}


def _drawn_items(model: Model, seed: int, per_entity: int) -> dict[str, list[dict[str, Any]]]:
    """The model's seeded sample items without keys (drawn once per model content, seed and size)."""
    return _cached_items(*_drawn_items_key(model, seed, per_entity))


def _drawn_items_key(model: Model, seed: int, per_entity: int) -> tuple[str, int, int]:
    """What the drawn items depend on: the entities, the table's TTL, what the patterns write and name and the
    table keys (`generation_view`: not the traffic or the indexes), the size, the seed."""
    content = generation_view(model).model_dump_json()
    return content, min(sample_counts(model, per_entity).values(), default=per_entity), seed


@lru_cache(maxsize=2)
def _items_sizing_memo(content: str, per_entity: int, seed: int) -> SizingMemo:
    """One SizingMemo per drawn items (`_cached_items`' key): the ranking sizes several designs of one model,
    most entities keyed alike in them, and each such entity is then measured once. Kept for the last two
    models only: it holds every sample item rendered and measured (up to MAX_SAMPLE_ITEMS_PER_MODEL items a
    keying), and the sizes themselves are remembered apart (`_remembered_sizes`)."""
    return SizingMemo()


def _serialized(item: dict[str, Any]) -> dict[str, Any]:
    return {name: _SERIALIZER.serialize(value) for name, value in item.items()}


def _measured(samples: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Bytes of every value of every sample item, by attribute name (each value measured once)."""
    return [{name: value_size_bytes(value) for name, value in item.items()} for item in samples]


def _attribute_bytes(entity: Entity, samples: list[dict[str, Any]],
                     measured: list[dict[str, int]] | None = None) -> dict[str, float]:
    """Average bytes (name + value) each attribute adds, hints first, weighted by presence."""
    measured = _measured(samples) if measured is None else measured
    result = {}
    for attribute in entity.attributes:
        values = [item[attribute.name] for item in measured if attribute.name in item]
        presence = len(values) / len(measured) if measured else 1.0
        value = attribute.avg_size_bytes if attribute.avg_size_bytes is not None else (
            float(np.mean(values)) if values else 0.0)
        result[attribute.name] = presence * (name_size_bytes(attribute.name) + value)
    return result


def attribute_bytes_floor(entity: Entity, samples: list[dict[str, Any]]) -> float:
    """The entity's average item bytes without the key attributes a design adds: `entity_size`'s capacity size
    (`hint_average_bytes`) is this plus the design's key bytes in every layout, so no layout's items are smaller
    (the key-design search's lower bounds)."""
    return sum(_attribute_bytes(entity, [_serialized(item) for item in samples]).values())


def _key_bytes(entity: Entity, samples: list[dict[str, Any]], names: set[str] | None = None,
               measured: list[dict[str, int]] | None = None) -> float:
    """Average bytes of the key attributes the design adds (optionally only `names`)."""
    own = {a.name for a in entity.attributes}
    if not samples:
        return 0.0
    measured = _measured(samples) if measured is None else measured
    return float(np.mean([sum(name_size_bytes(k) + size for k, size in item.items()
                              if k not in own and (names is None or k in names)) for item in measured]))


def entity_size(entity: Entity, samples: list[dict[str, Any]],
                measured: list[dict[str, int]] | None = None) -> EntitySize:
    measured = _measured(samples) if measured is None else measured
    sizes = [sum(name_size_bytes(name) + size for name, size in item.items()) for item in measured] or [0]
    largest = 0.0
    for attribute in entity.attributes:
        values = [item[attribute.name] for item in measured if attribute.name in item]
        largest += name_size_bytes(attribute.name) + (attribute.max_size_bytes if attribute.max_size_bytes is not None
                                                      else max(values, default=0))
    hinted = sum(_attribute_bytes(entity, samples, measured).values())
    keys = _key_bytes(entity, samples, measured=measured)
    return EntitySize(entity.name, math.ceil(hinted + keys), math.ceil(float(np.mean(sizes))),
                      math.ceil(float(np.percentile(sizes, 95))), math.ceil(largest + keys))


def _entry_size(entity: Entity, samples: list[dict[str, Any]], design: KeyDesign, index: SecondaryIndex,
                item_bytes: int, measured: list[dict[str, int]] | None = None) -> int:
    """An index entry: the whole item (ALL), else the table and index keys plus INCLUDE attributes (§4.1).

    `measured`: `_measured(samples)` when the caller has it (each value is then measured once)."""
    if index.projection.type is ProjectionType.ALL:
        return item_bytes
    measured = _measured(samples) if measured is None else measured
    keys = {design.partition_key.name, index.partition_key.name}
    keys |= {k.name for k in (design.sort_key, index.sort_key) if k is not None}
    local = index in design.local_secondary_indexes
    held = [n for n, i in enumerate(samples) if index.partition_key.name in i  # a sparse index holds only its
            or (local and index.sort_key is not None and index.sort_key.name in i)]  # members
    members, member_sizes = ([samples[n] for n in held], [measured[n] for n in held]) if held else (samples, measured)
    attributes = _attribute_bytes(entity, members, member_sizes)
    own = sum(attributes.get(n, 0.0) for n in keys | set(index.projection.non_key_attributes))
    return math.ceil(own + _key_bytes(entity, members, keys, member_sizes))


def design_sizes(model: Model, design: KeyDesign, seed: int = SAMPLE_SEED,
                 per_entity: int = SAMPLE_ITEMS_PER_ENTITY,
                 items: dict[str, list[dict[str, Any]]] | None = None,
                 memo: SizingMemo | None = None) -> Sizes:
    """Item sizes of every entity and entry sizes on every index it is in, for one design.

    Without `items`, the answer depends only on the model, the design, the seed and the sample size, and
    is remembered for them (the checks and every page rerun size the same design again: about 0.1-0.4 s
    each for the examples, most of it measuring two million sample values).

    `memo`: kept by a caller that sizes many designs of one model on the same `items` (the key-design
    search): an entity whose keys render the same in two designs is measured once."""
    if items is None:
        return _remembered_sizes(_SizingInput(model, design, seed, per_entity))
    return _memo_sizes(model, design, items, SizingMemo() if memo is None else memo)


class SizingMemo:
    """Entity and entry sizes measured for one model's sample items, by the inputs of the entity's key rendering
    (`key_renderer_inputs`): valid only for the items it was first used with."""

    def __init__(self) -> None:
        self.entities: dict[tuple[object, ...], tuple[Entity, list[dict[str, Any]], EntitySize,
                                                      list[dict[str, int]]]] = {}
        self.entries: dict[tuple[object, ...], int] = {}
        # entity -> (its items, their values' bytes): the same in every design
        self.bases: dict[str, tuple[list[dict[str, Any]], list[dict[str, int]]]] = {}


def _rendered(entity: str, entity_items: list[dict[str, Any]], render: Any,
              memo: SizingMemo) -> tuple[list[dict[str, Any]], list[dict[str, int]]]:
    """The items with the design's keys, and every value's bytes as DynamoDB counts them: the attributes'
    values are measured once per items (`memo.bases`), only the rendered keys once per design. The bytes equal
    `_measured(_serialized({**item, **render(item)}))`: values are measured one by one, and a rendered key
    overrides an attribute of the same name in place, as the merge does. The items keep their Python values:
    the sizing only asks which attributes an item has (a sparse index's members), never their DynamoDB JSON."""
    base = memo.bases.get(entity)
    if base is None or base[0] is not entity_items:
        base = memo.bases[entity] = (entity_items, [_value_sizes(item) for item in entity_items])
    _, measured = base
    keys = [render(item) for item in entity_items]
    return ([{**item, **rendered} for item, rendered in zip(entity_items, keys, strict=True)],
            [{**sizes, **_value_sizes(rendered)} for sizes, rendered in zip(measured, keys, strict=True)])


def _value_sizes(item: dict[str, Any]) -> dict[str, int]:
    """`_measured([_serialized(item)])[0]` without building the DynamoDB JSON (two thirds of sizing's time)."""
    return {name: _value_bytes(value) for name, value in item.items()}


def _value_bytes(value: Any) -> int:
    """`value_size_bytes(TypeSerializer().serialize(value))`: a string's UTF-8 length, a Boolean's byte and a
    Number's size (remembered by its text: the samples repeat numbers) directly; anything else through both."""
    kind = type(value)
    if kind is str:
        return len(value.encode("utf-8"))
    if kind is bool:
        return 1
    if kind is Decimal:
        return _number_bytes(str(value))
    return value_size_bytes(_SERIALIZER.serialize(value))


@lru_cache(maxsize=4096)
def _number_bytes(text: str) -> int:
    """A Decimal's size, by its text (which gives back the same Decimal, so the same serialized Number)."""
    return value_size_bytes(_SERIALIZER.serialize(Decimal(text)))


def _memo_sizes(model: Model, design: KeyDesign, items: dict[str, list[dict[str, Any]]],
                memo: SizingMemo) -> Sizes:
    """Sizes of every entity and index entry of `design` on `items`, each looked up in `memo` first."""
    samples: dict[str, list[dict[str, Any]]] = {}
    measured: dict[str, list[dict[str, int]]] = {}
    sized: dict[str, EntitySize] = {}
    inputs: dict[str, tuple[object, ...]] = {}
    for entity in model.entities:
        inputs[entity.name] = key = (entity.name, key_renderer_inputs(design, entity.name))
        found = memo.entities.get(key)
        if found is None or found[0] is not entity:
            rendered, sizes = _rendered(entity.name, items[entity.name], key_renderer(design, entity.name), memo)
            found = memo.entities[key] = (entity, rendered, entity_size(entity, rendered, sizes), sizes)
        samples[entity.name], sized[entity.name], measured[entity.name] = found[1], found[2], found[3]
    entities = tuple(sized[e.name] for e in model.entities)
    average = {s.entity: s.average_bytes for s in entities}
    entries = []
    for index in (*design.global_secondary_indexes, *design.local_secondary_indexes):
        local = index in design.local_secondary_indexes
        for keys in design.entities:
            holder = model.entity(keys.entity)
            if holder is None or index.name not in keys.indexes or not samples.get(keys.entity):
                continue
            entry_key = (inputs[keys.entity], index, local, average[keys.entity])
            size = memo.entries.get(entry_key)
            if size is None:
                size = memo.entries[entry_key] = _entry_size(holder, samples[keys.entity], design, index,
                                                             average[keys.entity], measured[keys.entity])
            entries.append((index.name, keys.entity, size))
    return Sizes(entities, tuple(entries))


class _SizingInput:
    """A model and design, equal and hashed by their JSON, carrying the objects themselves for the work."""

    def __init__(self, model: Model, design: KeyDesign, seed: int, per_entity: int) -> None:
        self.model, self.design, self.seed, self.per_entity = model, design, seed, per_entity
        self.key = (model.model_dump_json(), design.model_dump_json(), seed, per_entity)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SizingInput) and other.key == self.key


@lru_cache(maxsize=64)
def _remembered_sizes(given: _SizingInput) -> Sizes:
    key = _drawn_items_key(given.model, given.seed, given.per_entity)
    return _memo_sizes(given.model, given.design, _cached_items(*key), _items_sizing_memo(*key))


def mean_bytes(sizes: Mapping[str, float], weights: Sequence[tuple[str, float]]) -> int:
    """Average size over entities, weighted by how many of each a request reads (equal weights if none)."""
    known = [(sizes[e], w) for e, w in weights if e in sizes]
    total = sum(w for _, w in known)
    if not known:
        return 0
    if total <= 0:
        return math.ceil(sum(s for s, _ in known) / len(known))
    return math.ceil(sum(s * w for s, w in known) / total)
