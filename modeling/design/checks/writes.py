"""DDS3xx rules, writes and indexes: updates of index key attributes, counter updates, and item
collections under a parent's partition key (which also reports DDS403, a collection over 10 GB).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from modeling.design.checks.catalogue import INFO, WARNING, Finding, data_size, finding, number, percent
from modeling.design.checks.context import Context, Rule, changed_attributes, template_names
from modeling.design.checks.estimates import (
    FREQUENT_UPDATES_PER_SECOND,
    WRITE_BLOCK_BYTES,
    entry_bytes,
    lsi_entry_bytes,
    parse_template,
)
from modeling.dynamodb_rules import MAX_ITEM_COLLECTION_BYTES
from modeling.model import (
    AccessPattern,
    Attribute,
    AttributeType,
    ComparisonOperator,
    ConditionKind,
    Entity,
    RelationshipKind,
    WriteCondition,
)


def _index_key_updates(ctx: Context) -> Iterator[Finding]:
    """DDS301: an update changes an index key attribute: a delete plus a put in the index (§4.1)."""
    for pattern in ctx.model.access_patterns:
        rate = pattern.traffic.peak_requests_per_second
        for entity, changed in changed_attributes(ctx, pattern):
            keys = ctx.keys.get(entity.name)
            for index, templates in (keys.indexes.items() if keys else ()):
                hit = sorted(changed & template_names(templates.partition_key, templates.sort_key))
                path = ctx.paths.get(index)
                if not hit or path is None:
                    continue
                units = 2 * math.ceil(entry_bytes(ctx, entity, path) / WRITE_BLOCK_BYTES)  # §4.1: delete + put
                yield finding("DDS301", f"access_patterns[{pattern.name}]", (
                    f"{pattern.name} changes {', '.join(hit)}, part of {index}'s key for {entity.name} "
                    f"({templates.partition_key} / {templates.sort_key or '(none)'}): every change deletes the old "
                    f"entry and puts a new one, ≈ {number(units)} index WCU per update, {number(units * rate)} WCU/s "
                    f"at {number(rate)} updates/s peak."),
                    severity=WARNING if rate >= FREQUENT_UPDATES_PER_SECOND else INFO,
                    pattern=pattern.name, index=index)


_COUNTER_NAME = re.compile(r"(count|total|xp|points|score|stock|quantity|qty|version|balance|views|likes|votes)$",
                           re.IGNORECASE)
_COUNTER_WORDS = re.compile(r"increment|counter|atomic", re.IGNORECASE)


def is_counter(attribute: Attribute | None) -> bool:
    """A Number named like a counter (viewCount, stock, xp) or described as incremented."""
    return (attribute is not None and attribute.type is AttributeType.N
            and bool(_COUNTER_NAME.search(attribute.name) or _COUNTER_WORDS.search(attribute.description)))


def _retry_fails(condition: WriteCondition | None, changed: set[str]) -> bool:
    """A retry of a write that went through fails its condition: an optimistic lock (the version it checks,
    the same write increments) or an equality on an attribute the write changes. Such an increment is
    idempotent on retry; `>=` on a balance is not (a retry still passes while enough is left)."""
    if condition is None:
        return False
    if condition.kind is ConditionKind.VERSION_MATCHES:
        return True
    return condition.operator is ComparisonOperator.EQUALS and condition.attribute in changed


def _unguarded_changes(ctx: Context, pattern: AccessPattern) -> list[tuple[Entity, set[str]]]:
    """(entity, changed attributes) per written item whose condition does not make a retry fail."""
    if pattern.members:
        found = []
        for member in pattern.members:
            entity = ctx.entity(member.entity)
            changed = {u.attribute for u in member.updates}
            if member.condition is not None and member.condition.kind is ConditionKind.VERSION_MATCHES:
                changed.add(member.condition.attribute or "")
            if entity is not None and changed and not _retry_fails(member.condition, changed):
                found.append((entity, changed))
        return found
    return [(entity, changed) for entity, changed in changed_attributes(ctx, pattern)
            if not _retry_fails(pattern.condition, changed)]


def _counter_updates(ctx: Context) -> Iterator[Finding]:
    """DDS302: an update of a counter-like Number: atomic in place, but a retry counts twice (unless its
    condition makes the retry fail: optimistic locking)."""
    for pattern in ctx.model.access_patterns:
        counters = sorted({name for entity, changed in _unguarded_changes(ctx, pattern) for name in changed
                           if is_counter(entity.attribute(name))})
        if counters:
            yield finding("DDS302", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} changes the counter(s) {', '.join(counters)}: SET {counters[0]} = {counters[0]} + :v "
                "(or ADD) is atomic without reading the item first, but a retried request adds again."),
                pattern=pattern.name)


def _item_collections(ctx: Context) -> Iterator[Finding]:
    """DDS303 and DDS403: children stored under their parent's partition key, and how big that gets."""
    lsis = [i.name for i in ctx.design.key_design.local_secondary_indexes]
    for relationship in ctx.model.relationships:
        child, parent = ctx.entity(relationship.child), ctx.entity(relationship.parent)
        keys = ctx.keys.get(relationship.child)
        if relationship.kind is RelationshipKind.MANY_TO_MANY or child is None or parent is None or keys is None:
            continue
        names = set(parse_template(keys.table.partition_key).attribute_names)
        if not names or not names <= set(relationship.child_attributes):
            continue
        item = ctx.item_bytes[child.name] + lsi_entry_bytes(ctx, child)
        path = f"key_design.entities[{child.name}].table.partition_key"
        collection = f"{child.name} items share their {parent.name}'s partition key ({keys.table.partition_key})"
        cardinality = relationship.cardinality
        # children per parent after a year, from the two entities' monthly growth
        yearly = ((1 + child.monthly_growth_percent / 100) / (1 + parent.monthly_growth_percent / 100)) ** 12
        if cardinality.max is not None and lsis and cardinality.max * item > MAX_ITEM_COLLECTION_BYTES:
            yield finding("DDS403", path, (
                f"{collection} and the table has {', '.join(lsis)}: the largest collection holds up to "
                f"{number(cardinality.max)} x ≈ {data_size(item)} ≈ {data_size(cardinality.max * item)}, over the "
                f"{data_size(MAX_ITEM_COLLECTION_BYTES)} limit."), index=lsis[0])
        elif cardinality.max is None or yearly > 1:
            cap = (f"{relationship.name} gives no maximum" if cardinality.max is None else
                   f"the largest holds ≈ {data_size(cardinality.max * item)} today")
            growth = (f"; {child.name} grows {child.monthly_growth_percent:g} % a month and {parent.name} "
                      f"{parent.monthly_growth_percent:g} %, so collections grow ≈ {percent(yearly - 1)} a year"
                      if yearly > 1 else "")
            limit = (f"; with {', '.join(lsis)} each must stay under {data_size(MAX_ITEM_COLLECTION_BYTES)}"
                     if lsis else "")
            yield finding("DDS303", path, (
                f"{collection}: ≈ {number(cardinality.mean)} x ≈ {data_size(item)} ≈ "
                f"{data_size(cardinality.mean * item)} on average; {cap}{growth}{limit}."),
                severity=WARNING if lsis else INFO, index=lsis[0] if lsis else None)


RULES: tuple[Rule, ...] = (_index_key_updates, _counter_updates, _item_collections)
