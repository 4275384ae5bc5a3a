"""DDS1xx rules, keys and partitions: low-cardinality, time-bucketed and hot partition keys, unpadded
numbers in string sort keys, natural or colliding table keys, and updates of table key attributes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from modeling.data.distributions import time_bucket_seconds
from modeling.design.checks.catalogue import ERROR, WARNING, Finding, finding, number, percent
from modeling.design.checks.context import (
    Context,
    Rule,
    changed_attributes,
    load_severity,
    owner_names,
    template_names,
    where,
)
from modeling.design.checks.estimates import (
    BUSY_PARTITION_SHARE,
    COUNTRY_PROVIDERS,
    HOT_PARTITION_SHARE,
    LOW_CARDINALITY_MAX_VALUES,
    Load,
    parse_template,
    value_spread,
)
from modeling.design.plans import TABLE
from modeling.limits import PARTITION_READ_UNITS, PARTITION_WRITE_UNITS
from modeling.model import (
    Attribute,
    AttributeType,
    BooleanGenerator,
    Entity,
    EntityKeys,
    EnumGenerator,
    FakerGenerator,
    FloatRangeGenerator,
    IntRangeGenerator,
    KeyAttributeType,
    SequenceGenerator,
    TimestampRangeGenerator,
)


def _few_values(ctx: Context, entity: Entity, name: str) -> bool:
    """Whether an attribute takes few distinct values: a small closed set, or a country."""
    attribute = entity.attribute(name)
    if attribute is not None and isinstance(attribute.generator, FakerGenerator):
        return attribute.generator.provider in COUNTRY_PROVIDERS  # few countries carry most traffic
    count, _, closed = value_spread(ctx, entity, name)
    return closed and count <= LOW_CARDINALITY_MAX_VALUES


def _describe_values(ctx: Context, entity: Entity, name: str) -> str:
    """`status: ACTIVE, INVITED, ...` or `plan: 3 values`, for messages."""
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, EnumGenerator):
        shown = ", ".join(generator.values[:6]) + (" ..." if len(generator.values) > 6 else "")
        return f"{name}: {shown}"
    if isinstance(generator, BooleanGenerator):
        return f"{name}: true or false"
    return f"{name}: {number(value_spread(ctx, entity, name)[0])} values"


def _low_cardinality_keys(ctx: Context) -> Iterator[Finding]:
    """DDS101: a partition key whose values come from a small closed set, or a busy constant key."""
    for key, owners in ctx.owners.items():
        owner, load = owners[0], ctx.loads.get(key, Load())
        names = parse_template(owner.template).attribute_names
        if not names and load.utilisation < BUSY_PARTITION_SHARE:
            continue  # a constant key with little traffic (a singleton item) is fine
        if not all(_few_values(ctx, owner.entity, n) for n in names):
            continue
        spreads = [value_spread(ctx, owner.entity, n) for n in names]
        values, top = math.prod(s[0] for s in spreads), math.prod(s[1] for s in spreads)
        what = (f"the constant {owner.template}" if not names else
                f"{owner.template} ({'; '.join(_describe_values(ctx, owner.entity, n) for n in names)})")
        yield finding("DDS101", owner.path, (
            f"The partition key of {owner_names(owners)} on {where(key[0])} is {what}: {number(values)} possible "
            f"value{'s' if values != 1 else ''}, the most common holding {percent(top)} of the items. At peak the "
            f"busiest value takes ≈ {number(load.read_units)} RCU/s and {number(load.write_units)} WCU/s, "
            f"{percent(load.utilisation)} of one partition (approximate)."),
            severity=load_severity(load.utilisation), index=owner.index)


_DURATIONS = {1.0: "second", 60.0: "minute", 3600.0: "hour", 86400.0: "day", 604800.0: "week",
              2_629_746.0: "month", 31_556_952.0: "year"}


def _time_bucketed_keys(ctx: Context) -> Iterator[Finding]:
    """DDS102: a partition key of time buckets (plus few other values) that new items are written to."""
    for key, owners in ctx.owners.items():
        owner, load = owners[0], ctx.loads.get(key, Load())
        names = parse_template(owner.template).attribute_names
        buckets = {n: s for n in names if (s := time_bucket_seconds(owner.entity, n)) is not None and s >= 1}
        others = [n for n in names if n not in buckets]
        if not buckets or load.write_units <= 0 or not all(_few_values(ctx, owner.entity, n) for n in others):
            continue
        share = load.write_units / PARTITION_WRITE_UNITS  # §7.1: 1,000 WCU per partition
        spans = ", ".join(f"{n} (one value per {_DURATIONS.get(s, f'{s:g} s')})" for n, s in buckets.items())
        yield finding("DDS102", owner.path, (
            f"{owner.template} on {where(key[0])} is bucketed by {spans}: everything {owner_names(owners)} writes "
            f"within a bucket goes to its newest value, ≈ {number(load.write_units)} WCU/s at peak, "
            f"{percent(share)} of one partition's {PARTITION_WRITE_UNITS:,} WCU (approximate)."),
            severity=ERROR if share >= HOT_PARTITION_SHARE else WARNING, index=owner.index)


def _top_parts(load: Load) -> str:
    """The three patterns that load a key value most, with their share of one partition."""
    merged: dict[str, float] = {}
    for pattern, read_units, write_units in load.parts:
        merged[pattern] = merged.get(pattern, 0.0) + read_units / PARTITION_READ_UNITS \
            + write_units / PARTITION_WRITE_UNITS
    ranked = sorted(merged.items(), key=lambda item: (-item[1], item[0]))[:3]
    return ", ".join(f"{pattern} {percent(share)}" for pattern, share in ranked)


def _hot_key_values(ctx: Context) -> Iterator[Finding]:
    """DDS103: the busiest value of a partition key needs more than one partition can serve (§7.1)."""
    for key, load in ctx.loads.items():
        if load.utilisation < HOT_PARTITION_SHARE:
            continue
        owners = ctx.owners.get(key, ())
        path = owners[0].path if owners else "key_design"
        yield finding("DDS103", path, (
            f"At peak the busiest {key[1]} value on {where(key[0])} takes ≈ {number(load.read_units)} RCU/s and "
            f"{number(load.write_units)} WCU/s: {percent(load.utilisation)} of one partition "
            f"({PARTITION_READ_UNITS:,} RCU and {PARTITION_WRITE_UNITS:,} WCU per second; approximate). "
            f"Largest shares: {_top_parts(load)}."),
            severity=ERROR if load.utilisation >= 1 else WARNING, index=owners[0].index if owners else None)


def _varying_digits(attribute: Attribute | None) -> bool:
    """Whether the attribute's numbers can have different digit counts (so string order breaks)."""
    if attribute is None:
        return False
    generator = attribute.generator
    if isinstance(generator, TimestampRangeGenerator):
        return False  # epoch values keep the same number of digits for centuries
    if isinstance(generator, SequenceGenerator):
        return attribute.type is AttributeType.N or generator.width == 0
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator):
        return generator.min < 0 or len(str(int(generator.min))) != len(str(int(generator.max)))
    return attribute.type is AttributeType.N


def _padded_reference(entity: Entity, attribute: Attribute) -> str:
    """`{xp:7}` / `{price:4.2}`: a width that fits the largest value the model allows."""
    generator = attribute.generator
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator):
        width = len(str(int(max(abs(generator.min), abs(generator.max)))))
        decimals = f".{generator.decimals}" if isinstance(generator, FloatRangeGenerator) else ""
        return f"{{{attribute.name}:{width}{decimals}}}"
    if isinstance(generator, SequenceGenerator):
        return f"{{{attribute.name}:{len(str(abs(generator.largest_value(entity.item_count))))}}}"
    # dynamodb-rules §6: about 2 digits per byte of a stored Number; 10 digits when nothing is known
    digits = 2 * (attribute.max_size_bytes - 1) if attribute.max_size_bytes else 10
    return f"{{{attribute.name}:{max(1, min(digits, 38))}}}"


def _sort_templates(ctx: Context, keys: EntityKeys) -> Iterator[tuple[str, str, str, str | None]]:
    """(access path, sort template, readable path, index) for the table and each index of an entity."""
    base = f"key_design.entities[{keys.entity}]"
    key_design = ctx.design.key_design
    if keys.table.sort_key and key_design.sort_key is not None and key_design.sort_key.type is KeyAttributeType.S:
        yield TABLE, keys.table.sort_key, f"{base}.table.sort_key", None
    for name, templates in keys.indexes.items():
        index = ctx.indexes.get(name)
        sort_key = index.sort_key if index is not None else None
        if templates.sort_key and sort_key is not None and sort_key.type is KeyAttributeType.S:
            yield name, templates.sort_key, f"{base}.indexes[{name}].sort_key", name


def _unpadded_numbers(ctx: Context) -> Iterator[Finding]:
    """DDS104: a number inside a string sort key without a `{attr:width}` (10 sorts before 9)."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None:
            continue
        for path_name, source, path, index in _sort_templates(ctx, keys):
            for segment in parse_template(source).segments:
                attribute = entity.attribute(segment.text) if segment.is_attribute else None
                if attribute is not None and segment.width is None and _varying_digits(attribute):
                    ranged = sorted({p.name for p, plan in ctx.plans() if plan.index == path_name
                                     and entity.name in plan.entities and p.range_condition is not None
                                     and p.range_condition.attribute == attribute.name})
                    yield _unpadded_finding(entity, attribute, source, path, index, ranged)


def _unpadded_finding(entity: Entity, attribute: Attribute, source: str, path: str, index: str | None,
                      ranged: list[str]) -> Finding:
    """DDS104's finding: an error when a pattern selects a range of that number, else a warning."""
    padded = re.sub(r"\{\s*" + re.escape(attribute.name) + r"\s*\}", _padded_reference(entity, attribute), source)
    one = len(ranged) == 1
    uses = (f"; {', '.join(ranged)} {'selects' if one else 'select'} a range of it, so "
            f"{'its' if one else 'their'} results are wrong") if ranged else ""
    offset = ", after offsetting negative values" if _can_be_negative(attribute) else ""
    return finding("DDS104", path, (
        f"{entity.name}'s sort key {source} writes the number {attribute.name} without zero padding, so it sorts "
        f"as text (10 before 9){uses}."), severity=ERROR if ranged else WARNING,
        fix=f"Write the sort key as {padded}{offset}.", pattern=ranged[0] if ranged else None, index=index)


def _can_be_negative(attribute: Attribute) -> bool:
    """Whether zero padding alone cannot keep the values in order (negative numbers need an offset)."""
    generator = attribute.generator
    return isinstance(generator, IntRangeGenerator | FloatRangeGenerator) and generator.min < 0


def _parent_attributes(ctx: Context, entity: Entity) -> set[str]:
    """Attributes of the entity that hold a parent's identifiers (relationship child_attributes)."""
    return {a for r in ctx.model.relationships if r.child == entity.name for a in r.child_attributes}


def _natural_table_keys(ctx: Context) -> Iterator[Finding]:
    """DDS105: a table partition key from attributes that are neither identifiers nor parent references."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None or not entity.identifiers:
            continue
        allowed = set(entity.identifiers) | _parent_attributes(ctx, entity)
        natural = [n for n in parse_template(keys.table.partition_key).attribute_names if n not in allowed]
        if not natural:
            continue
        detours = [f"{p.name} (via {plan.index})" for p, plan in ctx.plans() if p.entities == (entity.name,)
                   and p.kind.is_read and set(entity.identifiers) <= set(p.inputs) and plan.index != TABLE]
        detour = f" Lookups by its identifiers go through an index: {', '.join(detours)}." if detours else ""
        yield finding("DDS105", f"key_design.entities[{entity.name}].table.partition_key", (
            f"{entity.name}'s table partition key {keys.table.partition_key} is built from {', '.join(natural)}, "
            f"not from its identifiers ({', '.join(entity.identifiers)}) or a parent reference.{detour}"))


def _colliding_table_keys(ctx: Context) -> Iterator[Finding]:
    """DDS106: the table key templates leave out an identifier, so two items can share one key."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None or not entity.identifiers:
            continue
        names = {n for t in (keys.table.partition_key, keys.table.sort_key) if t
                 for n in parse_template(t).attribute_names}
        unique = any(a is not None and a.unique for a in (entity.attribute(n) for n in names))
        missing = [n for n in entity.identifiers if n not in names]
        if missing and not unique:
            yield finding("DDS106", f"key_design.entities[{entity.name}].table", (
                f"{entity.name}'s table key {keys.table.partition_key} / {keys.table.sort_key or '(none)'} leaves out "
                f"{', '.join(missing)}: two of its {number(entity.item_count)} items that differ only there get the "
                "same key, and the second write overwrites the first."))


def _table_key_updates(ctx: Context) -> Iterator[Finding]:
    """DDS107: an update changes an attribute that the table's primary key is built from."""
    for pattern in ctx.model.access_patterns:
        for entity, changed in changed_attributes(ctx, pattern):
            keys = ctx.keys.get(entity.name)
            if keys is None:
                continue
            hit = sorted(changed & template_names(keys.table.partition_key, keys.table.sort_key))
            if hit:
                yield finding("DDS107", f"access_patterns[{pattern.name}]", (
                    f"{pattern.name} changes {', '.join(hit)}, part of {entity.name}'s table key "
                    f"{keys.table.partition_key} / {keys.table.sort_key or '(none)'}: at "
                    f"{number(pattern.traffic.peak_requests_per_second)} requests/s peak each one becomes a read, "
                    "a delete and a put."), pattern=pattern.name)


RULES: tuple[Rule, ...] = (
    _low_cardinality_keys, _time_bucketed_keys, _hot_key_values, _unpadded_numbers, _natural_table_keys,
    _colliding_table_keys, _table_key_updates,
)
