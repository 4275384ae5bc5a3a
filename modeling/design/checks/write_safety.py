"""DDS308-DDS312, writes that stay correct: lost updates, uniqueness a GSI cannot give, hot counter items,
TTL values DynamoDB ignores (issue 16) and writes whose inputs cannot name their item (issue 27).

Loads use the checks' approximation (modeling.design.checks.estimates): write units ceil(size / 1 KB), x2 in a
transaction (dynamodb-rules §1.2, §2), against one partition's 1,000 WCU per second (§7.1).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from modeling.design.checks.catalogue import WARNING, Finding, finding, number
from modeling.design.checks.context import Context, Rule, existing_entities
from modeling.design.checks.estimates import WRITE_BLOCK_BYTES, hot_share, parse_template, read_units_per_request
from modeling.design.planner import locating_words
from modeling.design.plans import TABLE
from modeling.limits import PARTITION_WRITE_UNITS
from modeling.model import (
    AccessPattern,
    Attribute,
    AttributeType,
    AttributeUpdate,
    AuxiliaryKind,
    Entity,
    PatternKind,
    TimestampFormat,
    TimestampRangeGenerator,
    TransactAction,
    UpdateAction,
)
from modeling.write_semantics import ITEM, auxiliary_items

_RUNNING_TOTAL = re.compile(r"(count|total|balance|credit|coins|currency|points|xp|score|stock|quantity|qty|"
                            r"inventory|views|likes|votes|amount)$", re.IGNORECASE)
EVENTUAL_GET_UNITS = 0.5  # §1.1: an eventually consistent read of an item up to 4 KB


def _running_total(attribute: Attribute | None) -> bool:
    return attribute is not None and attribute.type is AttributeType.N and bool(_RUNNING_TOTAL.search(attribute.name))


def _lost_updates(ctx: Context) -> Iterator[Finding]:
    """DDS308: a counter or balance SET from a value the application read, with nothing to detect a race."""
    for pattern in ctx.model.access_patterns:
        if pattern.kind is PatternKind.UPDATE and pattern.condition is None:
            entity = ctx.entity(pattern.entities[0])
            yield from _unguarded(pattern, entity, list(pattern.updates), f"access_patterns[{pattern.name}]")
        for i, member in enumerate(pattern.members):
            if member.condition is None:
                yield from _unguarded(pattern, ctx.entity(member.entity), list(member.updates),
                                      f"access_patterns[{pattern.name}].members[{i}]")


def _unguarded(pattern: AccessPattern, entity: Entity | None, updates: list[AttributeUpdate],
               path: str) -> Iterator[Finding]:
    if entity is None:
        return
    totals = [u.attribute for u in updates
              if u.action is UpdateAction.SET and _running_total(entity.attribute(u.attribute))]
    if totals:
        name = totals[0]
        yield finding("DDS308", path, (
            f"{pattern.name} SETs {', '.join(totals)} of {entity.name} to a value the application computed from a "
            f"read, with no condition: two requests that read {name} = 10 at once both write 11, and one "
            "increment is lost without an error."), pattern=pattern.name)


def _uniqueness_by_gsi(ctx: Context) -> Iterator[Finding]:
    """DDS309: a read of one item by a GSI key that nothing keeps unique, or writes that skip the uniqueness item."""
    for pattern, plan in ctx.plans():
        if pattern.kind is not PatternKind.READ_ONE or plan.index == TABLE or plan.index not in ctx.indexes:
            continue
        if ctx.design.key_design.local_secondary_indexes and plan.index in {
                i.name for i in ctx.design.key_design.local_secondary_indexes}:
            continue
        for entity in existing_entities(ctx, pattern.entities[:1]):
            keys = ctx.keys.get(entity.name)
            templates = keys.indexes.get(plan.index) if keys else None
            if templates is None:
                continue
            names = [n for n in (*parse_template(templates.partition_key).attribute_names,
                                 *(parse_template(templates.sort_key).attribute_names if templates.sort_key else ()))
                     if n not in entity.identity and n in pattern.inputs]
            enforced = {a for aux in auxiliary_items(ctx.model, entity) if aux.kind is AuxiliaryKind.UNIQUENESS
                        for a in aux.attributes}
            loose = [n for n in names if n not in enforced]
            if loose:
                yield finding("DDS309", f"access_patterns[{pattern.name}]", (
                    f"{pattern.name} reads one {entity.name} by {', '.join(loose)} through {plan.index}, but a GSI "
                    f"does not keep its keys unique: two {entity.name} items can hold the same {loose[0]}, and the "
                    "Query then returns both."), pattern=pattern.name, index=plan.index)
    for pattern in ctx.model.access_patterns:
        if pattern.kind is not PatternKind.BATCH_WRITE:
            continue
        for entity in existing_entities(ctx, pattern.entities):
            unique = [a for aux in auxiliary_items(ctx.model, entity) if aux.kind is AuxiliaryKind.UNIQUENESS
                      for a in aux.attributes]
            if unique:
                yield finding("DDS309", f"access_patterns[{pattern.name}]", (
                    f"{pattern.name} writes {entity.name} items with BatchWriteItem, which takes no conditions, so "
                    f"it cannot claim the uniqueness items of {', '.join(unique)}: those items are then unique only "
                    "if nothing else checks."), severity=WARNING, pattern=pattern.name,
                    fix="Write these items with TransactWriteItems (the item and its uniqueness items, each with "
                        "attribute_not_exists): up to 100 actions per transaction (AWS: "
                        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html).")


def _hot_counters(ctx: Context) -> Iterator[Finding]:
    """DDS310: one counter item (an ADD target) past one partition's 1,000 WCU per second."""
    for pattern, plan in ctx.plans():
        if plan.write is None:
            continue
        rate = pattern.traffic.peak_requests_per_second
        factor = 2 if plan.write.transactional else 1  # §2
        for member in plan.write.members:
            if member.action is not TransactAction.UPDATE or "ADD " not in member.update_expression:
                continue
            entity = ctx.entity(member.entity)
            if entity is None:
                continue
            size = member.item_bytes if member.item_bytes is not None else ctx.item_bytes.get(entity.name, 0.0)
            units = math.ceil(max(size, 1) / WRITE_BLOCK_BYTES) * factor
            share = hot_share(ctx, entity, member.partition_key, pattern)
            load = rate * share * units
            if load <= PARTITION_WRITE_UNITS:
                continue
            shards = math.ceil(load / (PARTITION_WRITE_UNITS * 0.8))  # 80 % of the limit per shard, for bursts
            what = "its own item" if member.item == ITEM else f"the {member.item} item"
            yield finding("DDS310", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} ADDs to {what} ({member.partition_key}): ≈ {number(rate * share)} writes/s reach "
                f"the busiest one at {number(rate)} requests/s peak, ≈ {number(load)} WCU/s, above one partition's "
                f"{number(PARTITION_WRITE_UNITS)} WCU/s."), pattern=pattern.name,
                fix=(f"Shard the counter: {shards} items ({member.partition_key}#0 … #{shards - 1}), each write "
                     f"ADDs to one chosen at random (≈ {number(load / shards)} WCU/s each). Reading the count then "
                     f"takes {shards} GetItems (one BatchGetItem): {number(shards * EVENTUAL_GET_UNITS)} RCU per "
                     f"eventually consistent read instead of {EVENTUAL_GET_UNITS:g}, summed by the application."))


def _ttl_values(ctx: Context) -> Iterator[Finding]:
    """DDS311: the TTL attribute holds values DynamoDB's TTL ignores (not a Number of epoch seconds)."""
    name = ctx.model.table.ttl_attribute
    if name is None:
        return
    for entity in ctx.model.entities:
        attribute = entity.attribute(name)
        if attribute is None:
            continue
        path = f"entities[{entity.name}].attributes[{name}]"
        generator = attribute.generator
        if attribute.type is not AttributeType.N:
            what = f"a {attribute.type.value}"
        elif isinstance(generator, TimestampRangeGenerator) and generator.format is not TimestampFormat.EPOCH_SECONDS:
            what = ("epoch milliseconds (a thousand times too far in the future)"
                    if generator.format is TimestampFormat.EPOCH_MILLISECONDS
                    else f"{generator.format.value} timestamps")
        else:
            continue
        yield finding("DDS311", path, (
            f"The table's TTL attribute {name} holds {what} in {entity.name} items: TTL only reads a top-level "
            "Number of epoch seconds, so these items never expire."))


_VERBS = {TransactAction.PUT: "puts", TransactAction.UPDATE: "updates", TransactAction.DELETE: "deletes",
          TransactAction.CONDITION_CHECK: "checks"}


def _unaddressed_writes(ctx: Context) -> Iterator[Finding]:
    """DDS312: a write whose inputs cannot build a written item's full primary key (the planner's `unaddressed`,
    decided by the same `missing_key_attributes` as a read's Scan, DDS201)."""
    for pattern, plan in ctx.plans():
        rate = pattern.traffic.peak_requests_per_second
        for item, read in zip(plan.unaddressed, plan.locate, strict=True):
            path = f"access_patterns[{pattern.name}]" + (f".members[{item.member}]" if item.member is not None
                                                         else "")
            missing = ", ".join(item.missing)
            cost = ""
            if read is not None:
                units = read_units_per_request(ctx, read)
                cost = (f": ≈ {number(units)} RCU per request, {number(units * rate)} RCU/s at {number(rate)} "
                        "requests/s peak (approximate), priced with the write")
            yield finding("DDS312", path, (
                f"{pattern.name} {_VERBS[item.action]} {item.entity} items keyed {item.partition_key} / "
                f"{item.sort_key or '(no sort key)'}, but its inputs ({', '.join(pattern.inputs) or 'none'}) do "
                f"not give {missing}, so the request cannot name the item: {locating_words(item, read)}{cost}."),
                pattern=pattern.name, index=None if read is None or read.index == TABLE else read.index,
                fix=f"Add {missing} to {pattern.name}'s inputs, or key {item.entity} by what the inputs give "
                    f"({', '.join(item.supplied) or 'nothing yet'}).")


RULES: tuple[Rule, ...] = (_lost_updates, _uniqueness_by_gsi, _hot_counters, _ttl_values, _unaddressed_writes)
