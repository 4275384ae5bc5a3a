"""Seeded sample items: the same model and seed always give the same items.

Values follow each attribute's generator spec (Faker for realistic text, numpy for numbers, dates and
skewed choices); an attribute without one gets a generator chosen by its name and type
(`modeling.data.default_values`). Which optional attributes an item carries follows the model's states, soft
deletes and TTL (`modeling.data.sample_states`). Children reference parents that exist, and keys are rendered
through a design's templates. Items hold Python values (`Decimal` for numbers, as boto3 expects); `item_keys` adds the
table's and indexes' key attributes.
"""

from __future__ import annotations

import hashlib
import itertools
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import numpy as np
from faker import Faker
from faker.providers import BaseProvider

from modeling.data.default_values import REFERENCE_DATE, FakerMethod, default_generator, timestamps
from modeling.data.distributions import TimestampRange, enum_values, format_moment, parse_moment, pick_indices
from modeling.data.sample_states import OPTIONAL_ABSENT_SHARE, EntityRules, entity_rules, relationship_references
from modeling.key_templates import KeyTemplate, KeyTemplateError, render_key
from modeling.limits import MAX_FAKER_TEXT_CHARS
from modeling.model import (
    Attribute,
    AttributeType,
    BooleanGenerator,
    ConstantGenerator,
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
from modeling.sample_footprint import (  # the memory a draw holds, estimated in the core (modeling.validation uses it)
    attribute_text_bytes as attribute_text_bytes,
)
from modeling.sample_footprint import (
    must_differ,
)
from modeling.sample_footprint import (
    sample_footprint_bytes as sample_footprint_bytes,
)
from modeling.sample_footprint import (
    sample_item_bytes as sample_item_bytes,
)

Item = dict[str, Any]
SET_TYPES = frozenset({AttributeType.SS})  # sample values are Python sets of text (NS and BS keep their scalars)
ENTITY_ATTRIBUTE = "_entity"  # not stored: tells which entity an item belongs to in mixed tables


def _seed_for(seed: int, *parts: str) -> int:
    """A stable per-entity/attribute seed (Python's hash() is salted per process, so not used)."""
    digest = hashlib.sha256("/".join((str(seed), *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def generate_items(model: Model, items_per_entity: int | dict[str, int], seed: int = 42,
                   key_design: KeyDesign | None = None) -> dict[str, list[Item]]:
    """Items for every entity; parents are generated before the children that reference them.

    `key_design`: the design the items will be stored under when it is not the model's own (the Preview's):
    the attributes its table keys are built from are on every item."""
    counts = items_per_entity if isinstance(items_per_entity, dict) else {}
    generated: dict[str, list[Item]] = {}
    faker = _with_cumulative_weights(Faker())  # one instance re-seeded per attribute: building one costs ~8 ms
    for entity in _reference_order(model):
        count = counts.get(entity.name, items_per_entity if isinstance(items_per_entity, int) else 0)
        rules = entity_rules(model, entity, key_design)
        generated[entity.name] = _entity_items(model, entity, count, seed, generated, faker, rules)
    return {e.name: generated[e.name] for e in model.entities}


def _with_cumulative_weights(faker: Faker) -> Faker:
    """`faker` with each provider's weighted draws from precomputed cumulative weights: the same values.

    Faker draws from a weighted table (1,000 last names, their frequencies) with `random.choices(keys,
    weights=...)`, which copies the weights and sums them again on every draw: half the time of 200 names.
    `random.choices(keys, cum_weights=list(accumulate(weights)))` is what that call computes, so passing the
    sums made once draws the same values from the same random numbers (tests/modeling/test_sample_values.py
    compares every provider with a plain Faker). Only this instance changes, never Faker's classes."""
    for provider in faker.providers:
        provider.random_elements = _CumulativeDraw(provider)
    return faker


class _CumulativeDraw:
    """`BaseProvider.random_elements` of one provider; a weighted draw of a given length uses cached sums."""

    def __init__(self, provider: BaseProvider) -> None:
        self.provider = provider

    def __call__(self, elements: Any = ("a", "b", "c"), length: int | None = None, unique: bool = False,
                 use_weighting: bool | None = None) -> Sequence[Any]:
        provider = self.provider
        weighted = use_weighting if use_weighting is not None else provider.__use_weighting__
        if unique or not weighted or length is None or type(elements) is not OrderedDict:
            return BaseProvider.random_elements(provider, elements, length, unique, use_weighting)
        keys, cumulative = _cumulative_weights(elements)
        drawn: list[Any] = provider.generator.random.choices(keys, cum_weights=cumulative, k=length)
        return drawn


def _cumulative_weights(elements: OrderedDict[Any, float]) -> tuple[tuple[Any, ...], list[float]]:
    """The keys and running sums of a Faker weight table, kept on the table (Faker keeps its keys there too:
    its tables are module constants, never changed)."""
    cached = getattr(elements, "_dds_cumulative", None)
    if cached is None or len(cached[0]) != len(elements):
        cached = (tuple(elements.keys()), list(itertools.accumulate(elements.values())))
        elements._dds_cumulative = cached  # type: ignore[attr-defined]
    return cached


def _reference_order(model: Model) -> list[Entity]:
    """Referenced entities first, so references pick from items that exist (a relationship's parent too, for the
    child attributes that hold its identifiers: `sample_states.relationship_references`)."""
    return parents_first(model.entities, lambda e: [a.generator.entity for a in e.attributes
                                                    if isinstance(a.generator, ReferenceGenerator)]
                         + [parent for _, parent, _ in relationship_references(model, e)])


def _entity_items(model: Model, entity: Entity, count: int, seed: int,
                  generated: dict[str, list[Item]], faker: Faker, rules: EntityRules) -> list[Item]:
    columns: dict[str, list[Any]] = {}
    for attribute in entity.attributes:
        rng = np.random.default_rng(_seed_for(seed, entity.name, attribute.name))
        faker.seed_instance(_seed_for(seed, entity.name, attribute.name, "faker"))
        if isinstance(attribute.generator, TextGenerator):
            values = _text(attribute.generator, count, faker, shared=not must_differ(entity, attribute))
        else:
            values = _column(_spec_of(attribute, rules), attribute.type, count, rng, faker, generated)
        if attribute.unique:
            values = _made_unique(values)
        columns[attribute.name] = values
    _identities_made_distinct(entity, columns, count)
    for attribute in entity.attributes:
        if attribute.type in SET_TYPES:  # after the identities: a set is not hashable
            rng = np.random.default_rng(_seed_for(seed, entity.name, attribute.name, "set"))
            columns[attribute.name] = _as_sets(attribute, columns[attribute.name], rng)
    _present_as_the_model_says(entity, rules, columns, count, seed)
    _ttl_after_deletion(entity, rules, columns, count, seed)
    return [{name: values[i] for name, values in columns.items() if values[i] is not None} for i in range(count)]


def _as_sets(attribute: Attribute, values: list[Any], rng: np.random.Generator) -> list[Any]:
    """A string set's values as Python sets of text, which boto3 sends as an SS (a plain string in an SS attribute
    was the bug of issue 31, item 5). An enum generator's values are the set's possible members (a
    MySQL `SET('a','b')`): each item gets 1 to all of them. Any other value is the set's one member. Never an
    empty set: DynamoDB refuses one (dynamodb-rules §6)."""
    members = attribute.generator.values if isinstance(attribute.generator, EnumGenerator) else ()
    if members:
        distinct = list(dict.fromkeys(members))
        sizes = rng.integers(1, len(distinct), size=len(values), endpoint=True)
        return [None if value is None else {str(distinct[i]) for i in rng.choice(len(distinct), size=int(size),
                                                                                replace=False)}
                for value, size in zip(values, sizes, strict=True)]
    return [None if value is None else {str(value)} for value in values]


def _spec_of(attribute: Attribute, rules: EntityRules) -> Any:
    """The model's generator; else the states the model gives the attribute, a future moment for the TTL
    attribute (an expiry in the past would have DynamoDB delete the item), or one chosen by name and type."""
    if attribute.generator is not None:
        return attribute.generator
    reference = next((r for r in rules.references if r[0] == attribute.name), None)
    if reference is not None:
        return ReferenceGenerator(kind="reference", entity=reference[1], attribute=reference[2])
    states = next((c for c in rules.constants if c[0] == attribute.name), None)
    if states is not None:
        return EnumGenerator(kind="enum", values=states[1], weights=states[2] or None)
    if attribute.name == rules.ttl_attribute and attribute.type is AttributeType.N:
        return timestamps("future", AttributeType.N)
    return default_generator(attribute.name, attribute.type)


def _present_as_the_model_says(entity: Entity, rules: EntityRules, columns: dict[str, list[Any]], count: int,
                               seed: int) -> None:
    """Optional attributes removed from the items that should lack them (`sample_states`): a closing attribute
    by its item's state, any other from OPTIONAL_ABSENT_SHARE of the items (a draw of its own per attribute)."""
    states = {rule.attribute: rule for rule in rules.states}
    for name in sorted(rules.removable, key=lambda n: (n in states, n)):  # a state's own presence first
        values = columns.get(name)
        if values is None:
            continue
        draws = np.random.default_rng(_seed_for(seed, entity.name, name, "presence")).random(count)
        rule = states.get(name)
        status = columns.get(rule.status) if rule is not None else None
        for i in range(count):
            carried = rule.carried(status[i] if status is not None else None) if rule is not None else None
            if carried is False or (carried is None and draws[i] < OPTIONAL_ABSENT_SHARE):
                values[i] = None


def _ttl_after_deletion(entity: Entity, rules: EntityRules, columns: dict[str, list[Any]], count: int,
                        seed: int) -> None:
    """A soft-deleted item's TTL is its deletion time plus the soft delete's days, and in the future: both drawn
    here when neither has a generator of the model's (the deletion then lies within those days before
    REFERENCE_DATE); the TTL alone when only the deletion time is the model's and its expiry is still to come."""
    soft = rules.soft_ttl
    ttl, deleted = (entity.attribute(soft.ttl_attribute), entity.attribute(soft.deleted_at)) if soft else (None, None)
    if soft is None or ttl is None or deleted is None or ttl.generator is not None or ttl.type is not AttributeType.N:
        return
    expiries, moments = columns[ttl.name], columns[deleted.name]
    draws = np.random.default_rng(_seed_for(seed, entity.name, ttl.name, "expiry")).random(count)
    span = timedelta(days=soft.days)
    for i in range(count):
        if expiries[i] is None:
            continue
        expiry = REFERENCE_DATE + timedelta(seconds=1 + int(float(draws[i]) * (span.total_seconds() - 1)))
        if moments[i] is not None and deleted.generator is None:
            moments[i] = format_moment(expiry - span, _moment_format(deleted.type, moments[i]))
        elif moments[i] is not None:
            stated = _moment_of(moments[i])
            expiry = stated + span if stated is not None and stated + span > REFERENCE_DATE else expiry
        expiries[i] = Decimal(int(expiry.timestamp()))


def _moment_format(attribute_type: AttributeType, value: Any) -> TimestampFormat:
    if attribute_type is AttributeType.N:
        return TimestampFormat.EPOCH_SECONDS
    return TimestampFormat.DATE if isinstance(value, str) and len(value) == 10 else TimestampFormat.ISO_8601


def _moment_of(value: Any) -> datetime | None:
    """A drawn moment back as a datetime: ISO-8601 text or epoch seconds; None for anything else."""
    if isinstance(value, Decimal):
        return datetime.fromtimestamp(int(value), UTC)
    try:
        return parse_moment(str(value))
    except ValueError:
        return None


def _identities_made_distinct(entity: Entity, columns: dict[str, list[Any]], count: int) -> None:
    """Items of one entity have distinct identities (the identifiers say what makes an item unique): a repeated
    combination (each part may repeat: `status` and `date`) gets its last identifier changed, as `_made_unique`
    changes a value."""
    names = [n for n in entity.identifiers if n in columns]
    if not names:
        return
    last = columns[names[-1]]
    seen: set[tuple[Any, ...]] = set()
    for index in range(count):
        identity, original, step = tuple(columns[n][index] for n in names), last[index], 0
        while identity in seen and step <= count:
            step += 1
            last[index] = _distinct_value(original, index, step)
            identity = (*identity[:-1], last[index])
        seen.add(identity)





def _column(spec: Any, attribute_type: AttributeType, count: int, rng: np.random.Generator, faker: Faker,
            generated: dict[str, list[Item]]) -> list[Any]:
    if spec is None:
        return [_default_value(attribute_type, i) for i in range(count)]
    if isinstance(spec, ReferenceGenerator):
        parents = [item.get(spec.attribute) for item in generated.get(spec.entity, [])]
        if not parents:
            return [None] * count
        return [parents[i] for i in pick_indices(rng, len(parents), count, spec.distribution)]
    if isinstance(spec, FakerMethod):
        return _faker_method(spec, count, faker)
    return _GENERATORS[type(spec)](spec, count, rng, faker)


def _faker_method(spec: FakerMethod, count: int, faker: Faker) -> list[Any]:
    """An ISBN-13 (with its check digit), a short title or a currency code (`default_values.FakerMethod`)."""
    if spec.method == "title":
        return [faker.sentence(nb_words=4).rstrip(".") for _ in range(count)]
    method = getattr(faker, spec.method)  # a fixed Literal of method names, never user text
    return [method() for _ in range(count)]


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
    return [spec.values[i] for i in enum_values(spec).draw(rng, count)]


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
    return [format_moment(m, spec.format) for m in TimestampRange.of(spec).moments(rng, count)]


def _text(spec: TextGenerator, count: int, faker: Faker, shared: bool) -> list[Any]:
    """Filler text. Long filler is one string every item shares when `shared` (issue 30: 200 copies of 409 KB per
    attribute pinned 0.78 GB a model); it is exactly `length_bytes` ASCII bytes, so sizes do not change."""
    if spec.length_bytes <= MAX_FAKER_TEXT_CHARS:
        return [faker.text(max_nb_chars=max(spec.length_bytes, 5))[: spec.length_bytes] for _ in range(count)]
    if shared:
        return [_long_text(faker, spec.length_bytes)] * count if count else []
    return [_long_text(faker, spec.length_bytes) for _ in range(count)]


def _long_text(faker: Faker, length: int) -> str:
    """Filler of exactly `length` characters: a Faker paragraph repeated (building 400 KB of prose took ~1 s)."""
    paragraph = faker.text(max_nb_chars=MAX_FAKER_TEXT_CHARS) + " "
    return (paragraph * (length // len(paragraph) + 1))[:length]


def _booleans(spec: BooleanGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    return [bool(v) for v in rng.random(count) < spec.true_share]


def _constant(spec: ConstantGenerator, count: int, rng: np.random.Generator, faker: Faker) -> list[Any]:
    value = Decimal(str(spec.value)) if isinstance(spec.value, int | float) and not isinstance(spec.value, bool) \
        else spec.value
    return [value] * count


_GENERATORS: dict[type, Callable[[Any, int, np.random.Generator, Faker], list[Any]]] = {
    UuidGenerator: _uuids, SequenceGenerator: _sequence, FakerGenerator: _faker_values, EnumGenerator: _enum,
    IntRangeGenerator: _int_range, FloatRangeGenerator: _float_range, TimestampRangeGenerator: _timestamps,
    BooleanGenerator: _booleans, ConstantGenerator: _constant,
}


def _made_unique(values: list[Any]) -> list[Any]:
    """Repeat values get a numeric suffix (before the @ of an email), numbers and moments the next free value."""
    seen: set[Any] = set()
    result = []
    for index, value in enumerate(values):
        step = 0
        while value in seen and step <= len(values):
            step += 1
            value = _distinct_value(values[index], index, step)
        seen.add(value)
        result.append(value)
    return result


def _distinct_value(value: Any, index: int, step: int) -> Any:
    """Another value like `value`: text with the item's index as a suffix, a number or a moment moved by `step`."""
    if isinstance(value, str):
        local, at, domain = value.partition("@")
        suffix = f"{index}" if step == 1 else f"{index}-{step}"
        return f"{local}{suffix}{at}{domain}" if at else f"{value}-{suffix}"
    if isinstance(value, bool) or value is None:
        return value  # two values at most: nothing to move to
    if isinstance(value, Decimal | int | float):
        return value + step
    if isinstance(value, datetime):
        return value + timedelta(seconds=step)
    return value


def item_keys(design: KeyDesign, entity: str, item: Item) -> dict[str, str]:
    """Key attributes of an item on the table and every index whose keys it has (sparse indexes skip it)."""
    return key_renderer(design, entity)(item)


def key_renderer_inputs(design: KeyDesign, entity: str) -> tuple[object, ...]:
    """Everything `key_renderer(design, entity)` reads, as plain values: two designs that give equal inputs
    render every item of the entity the same (`KeyTemplates.memo_key`: True is not 1)."""
    keys = next((k for k in design.entities if k.entity == entity), None)
    if keys is None:
        return ()
    indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
    local = {i.name for i in design.local_secondary_indexes}
    sort = design.sort_key.name if design.sort_key is not None else None
    parts = []
    for name, templates in keys.indexes.items():
        index = indexes.get(name)
        if index is not None:
            parts.append((name in local, index.partition_key.name, index.sort_key.name if index.sort_key else None,
                          templates.memo_key()))
    return (design.partition_key.name, sort, keys.table.partition_key,
            keys.table.sort_key if sort is not None else None, tuple(parts))


def key_renderer(design: KeyDesign, entity: str) -> Callable[[Item], dict[str, str]]:
    """`item_keys` for one entity, with the design looked up once (not once per item of every entity)."""
    keys = next((k for k in design.entities if k.entity == entity), None)
    if keys is None:
        return lambda item: {}
    indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
    local = {i.name for i in design.local_secondary_indexes}
    table_sort = keys.table.sort_key if design.sort_key is not None else None
    long_keys: dict[str, str] = {}  # items sharing a long text render one key string, not a copy each (issue 30)

    def render(item: Item) -> dict[str, str]:
        result = keys_of(item)
        for name, value in result.items():
            if len(value) > MAX_FAKER_TEXT_CHARS:
                result[name] = long_keys.setdefault(value, value)
        return result

    def keys_of(item: Item) -> dict[str, str]:
        result = {design.partition_key.name: render_key(KeyTemplate.parse(keys.table.partition_key), item)}
        if design.sort_key is not None and table_sort is not None:
            result[design.sort_key.name] = render_key(KeyTemplate.parse(table_sort), item)
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

    return render
