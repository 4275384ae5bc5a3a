"""Seeded sample items: the same model and seed always give the same items.

Values follow each attribute's generator spec (Faker for realistic text, numpy for numbers, dates and
skewed choices), children reference parents that exist, and keys are rendered through a design's
templates. Items hold Python values (`Decimal` for numbers, as boto3 expects); `item_keys` adds the
table's and indexes' key attributes.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import numpy as np
from faker import Faker

from modeling.keys import KeyTemplate, KeyTemplateError, render_key
from modeling.model import (
    AttributeType,
    BooleanGenerator,
    ConstantGenerator,
    Distribution,
    Entity,
    EnumGenerator,
    FakerGenerator,
    FakerProvider,
    FloatRangeGenerator,
    HotValueDistribution,
    IntRangeGenerator,
    KeyDesign,
    Model,
    ReferenceGenerator,
    SequenceGenerator,
    TextGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    UuidGenerator,
    ZipfDistribution,
    parents_first,
)

Item = dict[str, Any]
ENTITY_ATTRIBUTE = "_entity"  # not stored: tells which entity an item belongs to in mixed tables


def _seed_for(seed: int, *parts: str) -> int:
    """A stable per-entity/attribute seed (Python's hash() is salted per process, so not used)."""
    digest = hashlib.sha256("/".join((str(seed), *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def pick_indices(rng: np.random.Generator, value_count: int, size: int, distribution: Distribution) -> np.ndarray:
    """Indices into `value_count` values, skewed as the distribution says (index 0 is the hottest)."""
    if value_count <= 0:
        return np.zeros(size, dtype=np.int64)
    if isinstance(distribution, ZipfDistribution):
        weights = 1.0 / np.arange(1, value_count + 1) ** distribution.exponent
        return rng.choice(value_count, size=size, p=weights / weights.sum())
    if isinstance(distribution, HotValueDistribution):
        hot = rng.random(size) < distribution.share
        return np.where(hot, 0, rng.integers(0, value_count, size=size))
    return rng.integers(0, value_count, size=size)


def generate_items(model: Model, items_per_entity: int | dict[str, int], seed: int = 42) -> dict[str, list[Item]]:
    """Items for every entity; parents are generated before the children that reference them."""
    counts = items_per_entity if isinstance(items_per_entity, dict) else {}
    generated: dict[str, list[Item]] = {}
    for entity in _reference_order(model):
        count = counts.get(entity.name, items_per_entity if isinstance(items_per_entity, int) else 0)
        generated[entity.name] = _entity_items(model, entity, count, seed, generated)
    return {e.name: generated[e.name] for e in model.entities}


def _reference_order(model: Model) -> list[Entity]:
    """Referenced entities first, so references pick from items that exist."""
    return parents_first(model.entities, lambda e: [a.generator.entity for a in e.attributes
                                                    if isinstance(a.generator, ReferenceGenerator)])


def _entity_items(model: Model, entity: Entity, count: int, seed: int,
                  generated: dict[str, list[Item]]) -> list[Item]:
    columns: dict[str, list[Any]] = {}
    for attribute in entity.attributes:
        rng = np.random.default_rng(_seed_for(seed, entity.name, attribute.name))
        faker = Faker()
        faker.seed_instance(_seed_for(seed, entity.name, attribute.name, "faker"))
        values = _column(attribute.generator, attribute.type, count, rng, faker, generated)
        if attribute.unique:
            values = _made_unique(values)
        columns[attribute.name] = values
    return [{name: values[i] for name, values in columns.items() if values[i] is not None} for i in range(count)]


def _column(spec: Any, attribute_type: AttributeType, count: int, rng: np.random.Generator, faker: Faker,
            generated: dict[str, list[Item]]) -> list[Any]:
    if spec is None:
        return [_default_value(attribute_type, i) for i in range(count)]
    if isinstance(spec, ReferenceGenerator):
        parents = [item.get(spec.attribute) for item in generated.get(spec.entity, [])]
        if not parents:
            return [None] * count
        return [parents[i] for i in pick_indices(rng, len(parents), count, spec.distribution)]
    return _GENERATORS[type(spec)](spec, count, rng, faker)


def _default_value(attribute_type: AttributeType, index: int) -> Any:
    return {AttributeType.N: Decimal(index), AttributeType.BOOL: index % 2 == 0}.get(attribute_type, f"value-{index}")


def _uuids(spec: UuidGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    return [spec.prefix + str(uuid.UUID(bytes=rng.bytes(16), version=4)) for _ in range(count)]


def _sequence(spec: SequenceGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    numbers = range(spec.start, spec.start + count)
    if spec.prefix or spec.width:
        return [f"{spec.prefix}{n:0{spec.width}d}" for n in numbers]
    return [Decimal(n) for n in numbers]


def _faker_values(spec: FakerGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    if spec.provider is FakerProvider.PRODUCT_NAME:  # not a Faker provider: colour + word, e.g. "Teal Lamp"
        return [f"{faker.color_name()} {faker.word().title()}" for _ in range(count)]
    method = getattr(faker, spec.provider.value)  # a fixed enum of provider names, never user text
    return [method() for _ in range(count)]


def _enum(spec: EnumGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    if spec.weights is not None:
        weights = np.asarray(spec.weights, dtype=float)
        indices = rng.choice(len(spec.values), size=count, p=weights / weights.sum())
    else:
        indices = pick_indices(rng, len(spec.values), count, spec.distribution)
    return [spec.values[i] for i in indices]


def _int_range(spec: IntRangeGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    span = spec.max - spec.min + 1
    if isinstance(spec.distribution, ZipfDistribution | HotValueDistribution) and span <= 1_000_000:
        offsets = pick_indices(rng, span, count, spec.distribution)
    else:
        offsets = rng.integers(0, span, size=count)
    return [Decimal(int(spec.min + o)) for o in offsets]


def _float_range(spec: FloatRangeGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    values = rng.uniform(spec.min, spec.max, size=count)
    return [Decimal(f"{v:.{spec.decimals}f}") for v in values]


def _timestamps(spec: TimestampRangeGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    start, end = _parse_moment(spec.start), _parse_moment(spec.end)
    fractions = rng.random(count) ** (1.0 - spec.recent_bias * 0.9)  # bias towards the end of the range
    moments = [start + timedelta(seconds=float(f) * (end - start).total_seconds()) for f in fractions]
    return [_format_moment(m.replace(microsecond=0), spec.format) for m in moments]


def _parse_moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _format_moment(moment: datetime, fmt: TimestampFormat) -> Any:
    if fmt is TimestampFormat.EPOCH_SECONDS:
        return Decimal(int(moment.timestamp()))
    if fmt is TimestampFormat.EPOCH_MILLISECONDS:
        return Decimal(int(moment.timestamp() * 1000))
    if fmt is TimestampFormat.DATE:
        return moment.date().isoformat()
    return moment.isoformat().replace("+00:00", "Z")


def _text(spec: TextGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    return [faker.text(max_nb_chars=max(spec.length_bytes, 5))[: spec.length_bytes] for _ in range(count)]


def _booleans(spec: BooleanGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    return [bool(v) for v in rng.random(count) < spec.true_share]


def _constant(spec: ConstantGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    value = Decimal(str(spec.value)) if isinstance(spec.value, int | float) and not isinstance(spec.value, bool) \
        else spec.value
    return [value] * count


_GENERATORS = {
    UuidGenerator: _uuids, SequenceGenerator: _sequence, FakerGenerator: _faker_values, EnumGenerator: _enum,
    IntRangeGenerator: _int_range, FloatRangeGenerator: _float_range, TimestampRangeGenerator: _timestamps,
    TextGenerator: _text, BooleanGenerator: _booleans, ConstantGenerator: _constant,
}


def _made_unique(values: list[Any]) -> list[Any]:
    """Repeat values get a numeric suffix (before the @ of an email), keeping the rest unchanged."""
    seen: set[Any] = set()
    result = []
    for index, value in enumerate(values):
        if value in seen and isinstance(value, str):
            local, at, domain = value.partition("@")
            value = f"{local}{index}{at}{domain}" if at else f"{value}-{index}"
        seen.add(value)
        result.append(value)
    return result


def item_keys(design: KeyDesign, entity: str, item: Item) -> dict[str, str]:
    """Key attributes of an item on the table and every index whose keys it has (sparse indexes skip it)."""
    keys = next((k for k in design.entities if k.entity == entity), None)
    if keys is None:
        return {}
    result = {design.partition_key.name: render_key(KeyTemplate.parse(keys.table.partition_key), item)}
    if design.sort_key is not None and keys.table.sort_key is not None:
        result[design.sort_key.name] = render_key(KeyTemplate.parse(keys.table.sort_key), item)
    indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
    local = {i.name for i in design.local_secondary_indexes}
    for name, templates in keys.indexes.items():
        index = indexes.get(name)
        if index is None or any(str(item.get(c.attribute)) != str(c.equals) for c in templates.only_when):
            continue
        try:
            if name not in local:  # an LSI shares the table's partition key
                result[index.partition_key.name] = render_key(KeyTemplate.parse(templates.partition_key), item)
            if index.sort_key is not None and templates.sort_key is not None:
                result[index.sort_key.name] = render_key(KeyTemplate.parse(templates.sort_key), item)
        except KeyTemplateError:
            result.pop(index.partition_key.name, None)  # an item without the attribute is absent (sparse)
    return result
