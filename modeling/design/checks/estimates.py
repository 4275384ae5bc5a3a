"""Numbers behind the checks: product thresholds, worst-case sizes for limits, units and peak loads.

AWS's rules and limits live in `modeling.dynamodb_rules`; item and entry sizes in `modeling.design.sizing` and
units per request in `modeling.design.plan_units`, the same estimator the cost engine prices, so a check and
the bill cannot disagree on a request's units. What stays here is the checks' own: worst-case key and
item sizes from `max_size_bytes` (for the 400 KB and key-length limits), the share of traffic on a key's
busiest value (from the key attributes' sample-data generators) and the resulting peak load per
partition-key template, a labelled APPROXIMATION. Product thresholds are our own choices.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from modeling import dynamodb_rules as rules
from modeling.data.distributions import Weighted, time_bucket_seconds, top_share
from modeling.design import plan_units
from modeling.design.keys import MAX_NUMBER_TEXT_BYTES, KeyTemplate
from modeling.design.planner import AccessPath
from modeling.design.plans import TABLE, Operation, PatternPlan
from modeling.dynamodb_rules import (
    READ_UNIT_BYTES,
    TRANSACTION_FACTOR,
    WRITE_UNIT_BYTES,
    attribute_value_bytes,
)
from modeling.limits import (
    PARTITION_READ_UNITS,
    PARTITION_WRITE_UNITS,
)
from modeling.model import (
    AccessPattern,
    Attribute,
    AttributeType,
    BooleanGenerator,
    ConstantGenerator,
    Entity,
    EnumGenerator,
    FakerGenerator,
    FakerProvider,
    FloatRangeGenerator,
    IntRangeGenerator,
    PatternKind,
    ProjectionType,
    ReferenceGenerator,
)

if TYPE_CHECKING:
    from modeling.design.checks.context import Context


# --- AWS numbers (modeling.dynamodb_rules, each citing dynamodb-rules) -----------------------------------

READ_BLOCK_BYTES = READ_UNIT_BYTES  # §1.1
WRITE_BLOCK_BYTES = WRITE_UNIT_BYTES  # §1.1

# --- product thresholds (our choices, not AWS limits) ----------------------------------------------

# A key whose values come from a closed set of at most this many values is "low-cardinality".
LOW_CARDINALITY_MAX_VALUES = 100
# ISO 3166-1 assigns 249 country codes; real traffic gathers on a few of them.
COUNTRY_CODES = 249
# Share of one partition's capacity (dynamodb-rules §7.1) at which a key value counts as busy, and as
# hot: 50 % leaves the 2x headroom on-demand absorbs instantly (dynamodb-rules §7.2).
BUSY_PARTITION_SHARE = 0.1
HOT_PARTITION_SHARE = 0.5
# Updates per second at peak from which rewriting index entries is worth a warning rather than a note.
FREQUENT_UPDATES_PER_SECOND = 1.0
_DEFAULT_OTHER_BYTES = rules.DEFAULT_OTHER_VALUE_BYTES


# --- peak load record and key templates --------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """Estimated peak units per second on the busiest value of one partition-key template (approximate)."""

    read_units: float = 0.0
    write_units: float = 0.0
    parts: tuple[tuple[str, float, float], ...] = ()  # (pattern, read units, write units)

    @property
    def utilisation(self) -> float:
        """Share of one partition's capacity the busiest value needs (1.0 = exactly one partition)."""
        # dynamodb-rules §7.1: 3,000 RCU and 1,000 WCU per partition, or a linear mix of the two
        return self.read_units / PARTITION_READ_UNITS + self.write_units / PARTITION_WRITE_UNITS

    def plus(self, pattern: str, read_units: float, write_units: float) -> Load:
        """This load plus one pattern's contribution."""
        return Load(self.read_units + read_units, self.write_units + write_units,
                    (*self.parts, (pattern, read_units, write_units)))


@cache
def parse_template(source: str) -> KeyTemplate:
    """Parsed key template; templates repeat across patterns, so parse each once."""
    return KeyTemplate.parse(source)


# --- sizes (approximate; dynamodb-rules §6) ---------------------------------------------------------


def value_bytes(attribute: Attribute, largest: bool = False) -> int:
    """Value size of an attribute from its hints (the largest: `max_size_bytes` first), for the limit checks."""
    return attribute_value_bytes(attribute, largest)


def template_bytes(entity: Entity, source: str, largest: bool = False) -> int:
    """Rendered key length: constants plus attribute values (numbers as text: ~2 digits per byte, §6)."""
    total = 0
    for segment in parse_template(source).segments:
        attribute = entity.attribute(segment.text) if segment.is_attribute else None
        if not segment.is_attribute:
            total += len(segment.text.encode())
        elif segment.width is not None:
            total += segment.width + (segment.decimals + 1 if segment.decimals else 0)
        elif attribute is None:
            total += _DEFAULT_OTHER_BYTES
        elif attribute.type is AttributeType.N:
            total += min(MAX_NUMBER_TEXT_BYTES, 2 * value_bytes(attribute, largest))
        else:
            total += value_bytes(attribute, largest)
    return total


def _key_attributes(ctx: Context, entity: Entity, index: str | None = None) -> list[tuple[str, str]]:
    """(key attribute name, template) pairs the entity's items carry: the table's, or one index's."""
    keys = ctx.keys.get(entity.name)
    if keys is None:
        return []
    key_design = ctx.design.key_design
    if index is None:
        pairs = [(key_design.partition_key.name, keys.table.partition_key)]
        if key_design.sort_key is not None and keys.table.sort_key:
            pairs.append((key_design.sort_key.name, keys.table.sort_key))
        return pairs
    definition, templates = ctx.indexes.get(index), keys.indexes.get(index)
    if definition is None or templates is None:
        return []
    pairs = [(definition.partition_key.name, templates.partition_key)] if ctx.paths[index].is_global else []
    if definition.sort_key is not None and templates.sort_key:
        pairs.append((definition.sort_key.name, templates.sort_key))
    return pairs


def largest_item_bytes(ctx: Context, entity: Entity) -> float:
    """Worst-case item: every attribute at `max_size_bytes`, plus the largest rendering of every key (§6)."""
    size = sum(len(a.name.encode()) + value_bytes(a, largest=True) for a in entity.attributes)
    keys = ctx.keys.get(entity.name)
    for index in (None, *(keys.indexes if keys else ())):
        size += sum(len(name.encode()) + template_bytes(entity, template, largest=True)
                    for name, template in _key_attributes(ctx, entity, index))
    return float(size)


def entry_bytes(ctx: Context, entity: Entity, path: AccessPath) -> float:
    """Average size of the entity's entry on a path: the item, or keys plus projected attributes (§4.1)."""
    return float(ctx.sizes.entry_bytes(path.name, entity.name))


def lsi_entry_bytes(ctx: Context, entity: Entity, largest: bool = False) -> float:
    """Bytes the entity's LSI entries add to its item collection (§4.2: they count towards 10 GB and 400 KB)."""
    keys = ctx.keys.get(entity.name)
    total = 0.0
    for index in ctx.design.key_design.local_secondary_indexes:
        if keys is not None and index.name in keys.indexes:
            path = ctx.paths[index.name]
            total += (largest_item_bytes(ctx, entity) if largest and path.projection is ProjectionType.ALL
                      else entry_bytes(ctx, entity, path))
    return total


# --- units per request: modeling.design.plan_units, the estimator the cost engine prices --------------------


def read_units_per_request(ctx: Context, plan: PatternPlan) -> float:
    """Read units one request of a read plan consumes (dynamodb-rules §1.1, §1.2, §2, §4)."""
    if not plan.entities or all(ctx.entity(n) is None for n in plan.entities):
        return 0.0
    return float(plan_units.read_units_per_request(ctx.model, ctx.design.key_design, plan, ctx.sizes))


def _write_units_per_item(ctx: Context, entity: Entity, pattern: AccessPattern) -> float:
    """Table write units per written item: ceil(size / 1 KB), doubled in a transaction (§1.2, §2)."""
    factor = TRANSACTION_FACTOR if pattern.kind is PatternKind.TRANSACT_WRITE else 1
    return float(rules.write_unit_blocks(ctx.item_bytes.get(entity.name, 0.0)) * factor)


# --- key value distributions ------------------------------------------------------------------------


def value_spread(ctx: Context, entity: Entity, name: str) -> tuple[float, float, bool]:
    """(distinct values, share of the most common value, whether the values form a closed set)."""
    attribute = entity.attribute(name)
    items = float(max(entity.item_count, 1))
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, ConstantGenerator):
        return 1.0, 1.0, True
    if isinstance(generator, EnumGenerator):
        count = float(len(generator.values))
        if generator.weights is not None:
            return count, Weighted(generator.weights).top_share, True
        return count, top_share(generator.distribution, count), True
    if isinstance(generator, BooleanGenerator):
        return 2.0, max(generator.true_share, 1 - generator.true_share), True
    if isinstance(generator, ReferenceGenerator):
        parent = ctx.entity(generator.entity)
        count = float(max(parent.item_count, 1)) if parent is not None else items
        return count, top_share(generator.distribution, count), True
    if isinstance(generator, FakerGenerator) and generator.provider in COUNTRY_PROVIDERS:
        return float(COUNTRY_CODES), 1.0 / COUNTRY_CODES, True
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator) and attribute is not None \
            and not attribute.unique:
        scale = 10 ** generator.decimals if isinstance(generator, FloatRangeGenerator) else 1
        count = min(float((generator.max - generator.min) * scale + 1), items)
        return count, top_share(generator.distribution, count), True
    return items, 1.0 / items, False


COUNTRY_PROVIDERS = frozenset({FakerProvider.COUNTRY, FakerProvider.COUNTRY_CODE})


def _hot_share(ctx: Context, entity: Entity, template: str, pattern: AccessPattern, writes: bool) -> float:
    """Share of a pattern's requests that reach the busiest value of a partition-key template.

    Attributes fixed by the pattern's filters always hit one value; for writes, a time attribute sends
    everything written within one second to the same value (the newest), finer timestamps spread.
    """
    fixed = {f.attribute for f in pattern.filters}
    share = 1.0
    for name in parse_template(template).attribute_names:
        if name in fixed:
            continue
        bucket = time_bucket_seconds(entity, name) if writes else None
        share *= min(1.0, bucket) if bucket is not None else value_spread(ctx, entity, name)[1]
    return share


def hot_share(ctx: Context, entity: Entity, template: str, pattern: AccessPattern) -> float:
    """Share of a write pattern's requests that reach the busiest value of `template` (see `_hot_share`)."""
    return _hot_share(ctx, entity, template, pattern, writes=True)


# --- peak load per partition-key template ------------------------------------------------------------


def peak_loads(ctx: Context) -> dict[tuple[str, str], Load]:
    """Peak load on the busiest value of every partition-key template any pattern reads or writes."""
    loads: dict[tuple[str, str], Load] = {}
    for pattern, plan in ctx.plans():
        rate = pattern.traffic.peak_requests_per_second
        for key, read_units, write_units in _pattern_traffic(ctx, pattern, plan):
            loads[key] = loads.get(key, Load()).plus(pattern.name, read_units * rate, write_units * rate)
    return loads


def _physical(path: AccessPath) -> str:
    """The partitions a path uses: a GSI its own, the table and its LSIs the table's."""
    return path.name if path.is_global else TABLE  # an LSI shares the table's partitions (§4.2)


def _pattern_traffic(ctx: Context, pattern: AccessPattern,
                     plan: PatternPlan) -> Iterator[tuple[tuple[str, str], float, float]]:
    """((partition, template), read units, write units) per request on the busiest key value."""
    if plan.operation is Operation.SCAN:
        return  # a Scan spreads over every partition (DDS201 reports it)
    entities = [e for e in (ctx.entity(n) for n in plan.entities) if e is not None]
    if not plan.operation.is_write:
        path = ctx.paths.get(plan.index)
        if path is not None and entities and entities[0].name in path.templates:
            template = path.templates[entities[0].name].partition_key
            share = _hot_share(ctx, entities[0], template, pattern, writes=False)
            yield (_physical(path), template), read_units_per_request(ctx, plan) * share, 0.0
        return
    items_per_entity = plan.items_written_per_request / max(len(entities), 1)
    for entity in entities:
        keys = ctx.keys.get(entity.name)
        if keys is not None:
            share = _hot_share(ctx, entity, keys.table.partition_key, pattern, writes=True)
            units = items_per_entity * _write_units_per_item(ctx, entity, pattern)
            yield (TABLE, keys.table.partition_key), 0.0, units * share
    yield from _index_traffic(ctx, pattern, plan, entities)


def _index_traffic(ctx: Context, pattern: AccessPattern, plan: PatternPlan,
                   entities: list[Entity]) -> Iterator[tuple[tuple[str, str], float, float]]:
    """Index writes, shared evenly by the pattern's entities that are in the index (§4.1, 1 KB blocks)."""
    for write in plan.index_writes:
        path = ctx.paths.get(write.index)
        if path is None:
            continue
        members = [e for e in entities if e.name in path.templates]
        for entity in members:
            writes = write.writes_per_item * plan.items_written_per_request / len(members)
            template = path.templates[entity.name].partition_key
            units = writes * math.ceil(entry_bytes(ctx, entity, path) / WRITE_BLOCK_BYTES)
            yield (_physical(path), template), 0.0, units * _hot_share(ctx, entity, template, pattern, writes=True)
