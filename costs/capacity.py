"""Capacity per access pattern: item sizes per entity, units per request, units per second, per index.

From a model and one of its designs (`modeling.design.plans.Design`): each entity's item size (from the
model's size hints, with seeded sample items for what the hints leave out, and the key attributes the
design adds), each index's entry size per projection, then each pattern's units per request by the
rules in `costs.units`, times its peak and average request rates. Reads are charged where they run
(the table or the GSI; an LSI uses the table's capacity), writes to the table plus the index writes
they cause (dynamodb-rules §4.1). The result feeds `costs.usage.TableUsage`. Sizes and units come from
`modeling.design.sizing` and `modeling.design.plan_units`, the one estimator the checks and hot partitions also use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from costs.errors import UsageError
from costs.traffic_curves import MINUTES_PER_DAY, billing_hourly_rates, needs_minutes, pattern_minute_rates
from costs.usage import MAX_UNITS_PER_SECOND, ResourceUsage, TableUsage, index_storage_bytes, table_storage_bytes
from modeling.design.keys import KeyTemplate
from modeling.design.plan_units import (
    fetch_units_per_request,
    index_write_units_per_request,
    read_units_per_request,
    write_units_per_request,
)
from modeling.design.planner import membership_share
from modeling.design.plans import TABLE, Design, IndexChange, Operation, PatternPlan
from modeling.design.sizing import (
    SAMPLE_ITEMS_PER_ENTITY,
    SAMPLE_SEED,
    EntitySize,
    Sizes,
    SizingMemo,
    design_sizes,
    sample_counts,
)
from modeling.dynamodb_rules import index_write_units, write_units
from modeling.limits import MAX_SAMPLE_ITEMS_PER_MODEL
from modeling.memo import ContentMemo, content_key
from modeling.model import (
    AccessPattern,
    KeyDesign,
    Model,
    PatternKind,
    ProjectionType,
    SecondaryIndex,
    TrafficProfile,
    TransactAction,
)
from modeling.traffic import HOURS_PER_DAY
from modeling.write_semantics import ARCHIVE, ITEM

__all__ = ["SAMPLE_ITEMS_PER_ENTITY", "SAMPLE_SEED", "CapacityProfile", "EntitySize", "PatternCapacity",
           "UsageExtras", "capacity_profile", "table_usage", "usage_assumptions"]


@dataclass(frozen=True)
class PatternCapacity:
    """Units one access pattern consumes, per request and per second, and where they are charged."""

    pattern: str
    operation: Operation
    index: str
    read_units_per_request: Decimal
    write_units_per_request: Decimal  # on the base table
    index_write_units_per_request: tuple[tuple[str, Decimal], ...]  # (index, units) per request
    peak_requests_per_second: float
    average_requests_per_second: float
    items_read_per_request: float
    items_returned_per_request: float
    # the GetItem/BatchGetItem of the base items after a GSI query whose projection lacks what the pattern uses
    # (`PatternPlan.fetch`): read units on the table, per request
    fetch_read_units_per_request: Decimal = Decimal(0)

    @property
    def units_per_request(self) -> Decimal:
        return self.read_units_per_request + self.fetch_read_units_per_request + self.write_units_per_request + sum(
            (u for _, u in self.index_write_units_per_request), Decimal(0))

    def charged(self, resource: str, table_name: str, lsis: Sequence[str]) -> tuple[Decimal, Decimal]:
        """(read, write) units per request charged to one resource (the table or a GSI)."""
        reads_here = self.index == resource or (resource == table_name and (self.index == TABLE or self.index in lsis))
        read = self.read_units_per_request if reads_here else Decimal(0)
        if resource == table_name:
            read += self.fetch_read_units_per_request
        write = self.write_units_per_request if resource == table_name else Decimal(0)
        for index, units in self.index_write_units_per_request:
            if index == resource or (resource == table_name and index in lsis):
                write += units
        return read, write


@dataclass(frozen=True)
class UsageExtras:
    """What the model does not say but the bill counts: backups kept and billable stream reads.

    Stream reads by Lambda triggers and global-table replication are free (dynamodb-rules §9.2), so
    count only other consumers' GetRecords calls.
    """

    on_demand_backup_gb: Decimal = Decimal(0)
    stream_read_requests_per_month: int = 0


@dataclass(frozen=True)
class CapacityProfile:
    design: str
    entity_sizes: tuple[EntitySize, ...]
    entry_sizes: tuple[tuple[str, str, int], ...]  # (index, entity, average entry bytes)
    patterns: tuple[PatternCapacity, ...]

    def entity_size(self, entity: str) -> EntitySize:
        found = self._entity_sizes.get(entity)
        if found is None:
            raise StopIteration(entity)  # as the scan it replaces did
        return found

    def entry_size(self, index: str, entity: str) -> int:
        return self._entry_sizes.get((index, entity), self.entity_size(entity).average_bytes)

    # Lookups built once (a scan per call made the reports quadratic in the entities): the first size of a
    # repeated entity wins, as the scan did; the last entry of a repeated (index, entity), as the dict did.
    @cached_property
    def _entity_sizes(self) -> dict[str, EntitySize]:
        found: dict[str, EntitySize] = {}
        for size in self.entity_sizes:
            found.setdefault(size.entity, size)
        return found

    @cached_property
    def _entry_sizes(self) -> dict[tuple[str, str], int]:
        return {(i, e): b for i, e, b in self.entry_sizes}


# --- sizes and units: one estimator, in modeling (modeling.design.sizing, modeling.design.plan_units) -----------------

# Profiles sized on the model's own seeded samples (no `items` given), by the model's and design's content:
# the ranking, the estimate, the pages and the exports ask for the same ones (the ranking sizes them first).
_PROFILES: ContentMemo[CapacityProfile] = ContentMemo("capacity profiles", 64)


def capacity_profile(model: Model, design: Design, seed: int = SAMPLE_SEED,
                     sample_items_per_entity: int = SAMPLE_ITEMS_PER_ENTITY,
                     items: dict[str, list[dict[str, Any]]] | None = None,
                     sizing_memo: SizingMemo | None = None) -> CapacityProfile:
    """Item sizes and every access pattern's units, for one design of the model.

    `items`: sample items already generated for the model (`generate_items`), so a search pricing many
    designs of one model draws them once; they do not depend on the design. `sizing_memo`: kept with those
    items, so an entity keyed the same way in many designs is measured once (`modeling.sizing.SizingMemo`).
    """
    if items is None:
        key = content_key(model.model_dump_json(), repr(design), str(seed), str(sample_items_per_entity))
        return _PROFILES.get(key, lambda: _profile(model, design, seed, sample_items_per_entity, None))
    return _profile(model, design, seed, sample_items_per_entity, items, sizing_memo)


def _profile(model: Model, design: Design, seed: int, sample_items_per_entity: int,
             items: dict[str, list[dict[str, Any]]] | None, sizing_memo: SizingMemo | None = None) -> CapacityProfile:
    sizes = design_sizes(model, design.key_design, seed, sample_items_per_entity, items, sizing_memo)
    patterns = {p.name: p for p in model.access_patterns}
    capacities = []
    for plan in design.plans:
        pattern = patterns[plan.pattern]
        is_write = plan.operation.is_write
        capacities.append(PatternCapacity(
            pattern=plan.pattern, operation=plan.operation, index=plan.read_index,
            read_units_per_request=read_units_per_request(model, design.key_design, plan, sizes),
            write_units_per_request=write_units_per_request(plan, sizes) if is_write else Decimal(0),
            index_write_units_per_request=_index_writes(model, design, plan, sizes) if is_write else (),
            peak_requests_per_second=pattern.traffic.peak_requests_per_second,
            average_requests_per_second=pattern.traffic.average_requests_per_second,
            items_read_per_request=plan.items_read_per_request,
            items_returned_per_request=plan.items_returned_per_request,
            fetch_read_units_per_request=fetch_units_per_request(plan, sizes)))
    return CapacityProfile(design.name, sizes.entities, sizes.entries, tuple(capacities))


def _index_writes(model: Model, design: Design, plan: PatternPlan, sizes: Sizes) -> tuple[tuple[str, Decimal], ...]:
    """Index write units per request of a write: its members' (a write with semantics), an update's, else the
    plan's. An empty answer is a correct zero (nothing indexed changes), never replaced by an estimate."""
    if plan.write is not None:
        return _member_index_writes(model, design, plan, sizes)
    found = _update_index_writes(model, design, plan, sizes)
    return index_write_units_per_request(plan, sizes) if found is None else found


def _member_index_writes(model: Model, design: Design, plan: PatternPlan,
                         sizes: Sizes) -> tuple[tuple[str, Decimal], ...]:
    """Index writes of a write's members, each on its own entity's indexes (dynamodb-rules §4.1): a put enters
    them, a delete leaves them, an update writes them by what it changes (`_writes_per_item`). Uniqueness,
    aggregate and edge-copy items carry only their own keys: they are in no index. An archived copy is a put of
    the archive entity. Index writes are 1x inside a transaction (§2)."""
    assert plan.write is not None
    indexes = {i.name: i for i in (*design.key_design.global_secondary_indexes,
                                   *design.key_design.local_secondary_indexes)}
    per_index: dict[str, Decimal] = {}
    for member in plan.write.members:
        entity = model.entity(member.entity)
        keys = next((k for k in design.key_design.entities if k.entity == member.entity), None)
        if member.item not in (ITEM, ARCHIVE) or entity is None or keys is None:
            continue
        changed = {u.attribute for u in member.updates} | {attribute for _, attribute, _ in member.ops}
        for name, templates in keys.indexes.items():
            if name not in indexes:
                continue
            share = membership_share(entity, templates.only_when)
            writes = share if member.action is not TransactAction.UPDATE else _writes_per_item(
                changed, templates, indexes[name], share)
            change = IndexChange.LEAVES if member.action is TransactAction.DELETE else IndexChange.ENTERS
            units = index_write_units(change, sizes.entry_bytes(name, member.entity)) * Decimal(repr(writes))
            per_index[name] = per_index.get(name, Decimal(0)) + units * Decimal(repr(member.items_per_request))
    return tuple((name, units.quantize(Decimal("0.000001"))) for name, units in sorted(per_index.items()) if units)


def _update_index_writes(model: Model, design: Design, plan: PatternPlan,
                         sizes: Sizes) -> tuple[tuple[str, Decimal], ...] | None:
    """Index writes of updates (UpdateItem, and the updated items of a TransactWriteItems), per entity.

    dynamodb-rules §4.1: a write reaches an index only for an item that has the index keys before or
    after it. With s = the entity's share of items in a sparse index (`only_when`), an update that
    writes a gating attribute rewrites the entry of an item that stays in, or deletes it when the item
    leaves: one write for the s in the index (two when another index key attribute changes), nothing
    for the items outside (`_writes_per_item`). An update of an index key
    is a delete and a put (2s); of a projected attribute one write (s). Inside a transaction the same
    rules apply per item (index writes at 1x, §2); items of a transaction whose entity has no changed
    attribute in its keys are new items entering the index (s). None: not an update, use the plan's.
    """
    if plan.operation not in (Operation.UPDATE_ITEM, Operation.TRANSACT_WRITE_ITEMS):
        return None
    pattern = next(p for p in model.access_patterns if p.name == plan.pattern)
    changed = set(pattern.changed_attributes)
    if plan.operation is Operation.TRANSACT_WRITE_ITEMS and not changed:
        return None
    indexes = {i.name: i for i in (*design.key_design.global_secondary_indexes,
                                   *design.key_design.local_secondary_indexes)}
    per_index: dict[str, Decimal] = {}
    for entity_name in plan.entities:
        entity = model.entity(entity_name)
        keys = next((k for k in design.key_design.entities if k.entity == entity_name), None)
        if entity is None or keys is None:
            continue
        # in a transaction, an entity without any changed attribute is a new item (a put), not an update
        is_new = pattern.kind is PatternKind.TRANSACT_WRITE and not changed & {a.name for a in entity.attributes}
        for name, templates in keys.indexes.items():
            if name not in indexes:
                continue
            share = membership_share(entity, templates.only_when)
            writes = share if is_new else _writes_per_item(changed, templates, indexes[name], share)
            units = index_write_units(IndexChange.ENTERS, sizes.entry_bytes(name, entity_name)) * Decimal(repr(writes))
            per_index[name] = per_index.get(name, Decimal(0)) + units
    items = Decimal(repr(plan.items_written_per_request)) / max(len(plan.entities), 1)
    return tuple((name, (units * items).quantize(Decimal("0.000001"))) for name, units in sorted(per_index.items())
                 if units)


def _writes_per_item(changed: set[str], templates: Any, index: SecondaryIndex, share: float) -> float:
    key_attributes = set(KeyTemplate.parse(templates.partition_key).attribute_names)
    if templates.sort_key:
        key_attributes |= set(KeyTemplate.parse(templates.sort_key).attribute_names)
    gates = {c.attribute for c in templates.only_when}
    # a gating attribute in the key (`STATUS#{status}` only when status = OFFLINE) keeps its value while the
    # item stays in the index: not a key change then
    key_change = bool((changed & key_attributes) - gates)
    if changed & gates:  # dynamodb-rules §4.1: the item in the index (share s) is rewritten once, or deleted once
        # when the update moves it out; outside, it costs nothing. The model does not say how often the value
        # really flips, so an update is not read as drawing a new value independent of the old one (that charged
        # 2s(1 - s) + s^2, 0.0591 for the IoT heartbeat's s = 0.03): the items in the index are the ones it
        # touches, s per update; a change of another index key attribute is a delete and a put (2s)
        return share * (2 if key_change else 1)
    if key_change:
        return 2 * share
    projected = index.projection.type is ProjectionType.ALL or changed & set(index.projection.non_key_attributes)
    return share if projected and changed else 0.0


# --- usage for the cost engine --------------------------------------------------------------------


def table_usage(model: Model, design: Design, profile: CapacityProfile, free_tier: bool = False,
                extras: UsageExtras | None = None) -> TableUsage:
    """The model's consumption and storage in the shape `costs.monthly.estimate_monthly_cost` prices."""
    extras = extras or UsageExtras()
    table = model.table.name
    key_design = design.key_design
    lsis = [i.name for i in key_design.local_secondary_indexes]
    gsis = [i.name for i in key_design.global_secondary_indexes]
    resources = [_resource(model, profile, table, table, lsis, False, _table_storage(model, profile))]
    resources += [_resource(model, profile, g, table, lsis, True, _index_storage(model, key_design, profile, g))
                  for g in gsis]
    resources += [ResourceUsage.flat(name, storage_bytes=_index_storage(model, key_design, profile, name))
                  for name in lsis]  # LSI units are charged to the table; their storage counts for PITR
    settings = model.table
    return TableUsage(
        table=resources[0], indexes=tuple(resources[1:]), item_count=sum(e.item_count for e in model.entities),
        monthly_growth_percent=_growth(model), table_class=settings.table_class,
        point_in_time_recovery=settings.point_in_time_recovery, replica_regions=settings.replica_regions,
        free_tier=free_tier, on_demand_backup_gb=extras.on_demand_backup_gb,
        stream_read_requests_per_month=extras.stream_read_requests_per_month,
        assumptions=usage_assumptions(model, design),
        ttl_delete_units_per_second=ttl_delete_units_per_second(model, design, profile))


def ttl_delete_units_per_second(model: Model, design: Design,
                                profile: CapacityProfile) -> tuple[tuple[str, float], ...]:
    """Write units/s of a global table's TTL deletes, on the table and on each GSI, on average.

    dynamodb-rules §5 (TTL): DynamoDB deletes an expired item without consuming write units in the Region
    that deletes it, but every replica receives the delete as a replicated write. In a steady state each item
    given an expiry is deleted once, so items expire at the rate they are given one: the puts of an entity that
    holds the table's TTL attribute, and the soft deletes that set it. A delete costs the item's size in write
    units (ceil(bytes / 1 KB), §1.2) on the table and leaves each GSI the item is in (§4.1). Empty for a table
    with no TTL attribute or no replica.
    """
    ttl = model.table.ttl_attribute
    if ttl is None or not model.table.replica_regions:
        return ()
    patterns = {p.name: p for p in model.access_patterns}
    expiring: dict[str, float] = {}  # entity -> items given an expiry per second
    for plan in design.plans:
        pattern = patterns[plan.pattern]
        for name, items in _items_given_an_expiry(model, pattern, plan, ttl):
            expiring[name] = expiring.get(name, 0.0) + pattern.traffic.average_requests_per_second * items
    sizes = Sizes(profile.entity_sizes, profile.entry_sizes)
    gsis = {i.name for i in design.key_design.global_secondary_indexes}
    units: dict[str, Decimal] = {}
    for entity_name, per_second in sorted(expiring.items()):
        rate = Decimal(repr(per_second))
        units[model.table.name] = (units.get(model.table.name, Decimal(0))
                                   + write_units(Operation.DELETE_ITEM, 1, sizes.item_bytes(entity_name)) * rate)
        entity = model.entity(entity_name)
        keys = next((k for k in design.key_design.entities if k.entity == entity_name), None)
        if entity is None or keys is None:
            continue
        for index, templates in keys.indexes.items():
            if index in gsis:
                share = Decimal(repr(membership_share(entity, templates.only_when)))
                left = index_write_units(IndexChange.LEAVES, sizes.entry_bytes(index, entity_name)) * share * rate
                units[index] = units.get(index, Decimal(0)) + left
    return tuple((name, float(value)) for name, value in units.items() if value)


def _items_given_an_expiry(model: Model, pattern: AccessPattern, plan: PatternPlan,
                           ttl: str) -> list[tuple[str, float]]:
    """(entity, items per request) that one request gives an expiry: puts of an entity whose items all hold the
    TTL attribute (a required attribute) or that set it, and a soft delete's items when it sets the TTL attribute.
    An update that only moves an expiry (a session kept alive) adds no delete; neither does a put of an entity
    whose TTL attribute is optional and not set (it gets one later, from the soft delete that counts it)."""
    def holds_ttl(entity_name: str) -> bool:
        entity = model.entity(entity_name)
        return entity is not None and any(a.name == ttl and a.required for a in entity.attributes)

    if plan.write is not None:
        soft = pattern.soft_delete is not None and pattern.soft_delete.expires_after_days is not None
        return [(m.entity, m.items_per_request) for m in plan.write.members if m.item in (ITEM, ARCHIVE) and (
            (m.action is TransactAction.PUT and (holds_ttl(m.entity) or any(u.attribute == ttl for u in m.updates)))
            or (soft and m.action is TransactAction.UPDATE and any(u.attribute == ttl for u in m.updates)))]
    if pattern.kind in (PatternKind.WRITE, PatternKind.BATCH_WRITE):
        share = plan.items_written_per_request / max(len(plan.entities), 1)
        return [(name, share) for name in plan.entities if holds_ttl(name)]
    return []


def _resource(model: Model, profile: CapacityProfile, name: str, table: str, lsis: list[str], is_gsi: bool,
              storage_bytes: int) -> ResourceUsage:
    """Units/s of one resource: each pattern's curve (stated average and peak, `costs.traffic_curves`)
    times its units per request, summed; hourly means for the bill, minutes for sizing when needed."""
    read_minutes, write_minutes = np.zeros(MINUTES_PER_DAY), np.zeros(MINUTES_PER_DAY)
    read_hours, write_hours = np.zeros(HOURS_PER_DAY), np.zeros(HOURS_PER_DAY)
    curves = []
    for capacity in profile.patterns:
        read, write = capacity.charged(name, table, lsis)
        if not read and not write:
            continue
        minutes, hours = _pattern_curves(capacity.average_requests_per_second, capacity.peak_requests_per_second,
                                         model.traffic_profile)
        curves.append(minutes)
        read_minutes += float(read) * minutes
        write_minutes += float(write) * minutes
        read_hours += float(read) * hours
        write_hours += float(write) * hours
    for label, hourly, charged in (("read", read_hours, 0), ("write", write_hours, 1)):
        if hourly.max() > MAX_UNITS_PER_SECOND:
            raise _too_much_traffic(profile, name, table, lsis, label, charged)
    by_minute = needs_minutes(curves)
    return ResourceUsage(name, tuple(read_hours.tolist()), tuple(write_hours.tolist()), is_gsi, storage_bytes,
                         tuple(read_minutes.tolist()) if by_minute else (),
                         tuple(write_minutes.tolist()) if by_minute else ())


def _too_much_traffic(profile: CapacityProfile, resource: str, table: str, lsis: list[str], label: str,
                      charged: int) -> UsageError:
    """The error for a resource's units/s past the engine's range, naming the access pattern the user wrote
    that charges it most (not the derived `<table>.read_units_per_second` they never saw)."""
    def units(capacity: PatternCapacity) -> float:
        return float(capacity.charged(resource, table, lsis)[charged]) * capacity.peak_requests_per_second

    top = max(profile.patterns, key=units)
    return UsageError(f"the access patterns need more than 10^12 {label} units per second on {resource}",
                      f"access_patterns[{top.pattern}].traffic.peak_requests_per_second",
                      top.peak_requests_per_second,
                      f"{top.pattern} alone needs about {units(top):.3g} {label} units per second at its peak "
                      f"({float(top.charged(resource, table, lsis)[charged]):.3g} per request): lower its requests "
                      "per second, or " + ("its expected_items" if label == "read" else "the items it writes"))


@lru_cache(maxsize=4096)  # every resource of every design priced asks again for the same patterns' days
def _pattern_curves(average: float, peak: float, profile: TrafficProfile) -> tuple[np.ndarray, np.ndarray]:
    """One pattern's requests per minute and billed hourly rates (read-only: shared by every caller)."""
    minutes = pattern_minute_rates(average, peak, profile)
    hours = np.asarray(billing_hourly_rates(minutes, average))
    minutes.setflags(write=False)
    hours.setflags(write=False)
    return minutes, hours


def _table_storage(model: Model, profile: CapacityProfile) -> int:
    return sum(table_storage_bytes(e.item_count, profile.entity_size(e.name).average_bytes,
                                   bool(model.table.replica_regions)) for e in model.entities)


def _index_storage(model: Model, design: KeyDesign, profile: CapacityProfile, index: str) -> int:
    total = 0
    for keys in design.entities:
        entity = model.entity(keys.entity)
        if entity is None or index not in keys.indexes:
            continue
        entries = round(entity.item_count * membership_share(entity, keys.indexes[index].only_when))
        total += index_storage_bytes(entries, profile.entry_size(index, entity.name))
    return total


def _growth(model: Model) -> float:
    """Item-weighted monthly growth of the table's entities."""
    total = sum(e.item_count for e in model.entities)
    if total == 0:
        return 0.0
    return sum(e.item_count * e.monthly_growth_percent for e in model.entities) / total


def usage_assumptions(model: Model, design: Design) -> tuple[str, ...]:
    return (
        f"Capacity from the {len(model.access_patterns)} access patterns of '{model.name}' under the design "
        f"'{design.name}'. Each pattern's day honours both its stated average and its stated peak requests "
        f"per second, shaped by the '{model.traffic_profile.shape}' traffic profile: a peak at or below the "
        "profile's busiest hour flattens the profile around the average; a higher peak (up to 24 x the average) "
        "fills the whole busiest hour and the other hours are scaled down to keep the average; a peak above "
        "24 x the average lasts as many minutes of the busiest hour as half the day's requests allow. All "
        "patterns peak together in the profile's busiest hour (conservative). Consumption is billed on the "
        "averages; fixed capacity is sized on the busiest minute and auto scaling sees every minute.",
        "Item sizes come from the model's size hints, with seeded sample values for attributes without a hint "
        "and the key attributes the design adds (AWS: "
        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).",
        "A Query's items are added before rounding to 4 KB; pages of 1 MB are not split out (at most one "
        "extra 4 KB block per page).",
        *_sampling_assumption(model),
    )


def _sampling_assumption(model: Model) -> tuple[str, ...]:
    each = min(sample_counts(model).values(), default=SAMPLE_ITEMS_PER_ENTITY)
    if each >= SAMPLE_ITEMS_PER_ENTITY:
        return ()
    return (f"With {len(model.entities):,} entities, sizes without a hint are averaged over {each} sample items "
            f"per entity instead of {SAMPLE_ITEMS_PER_ENTITY} (at most {MAX_SAMPLE_ITEMS_PER_MODEL:,} sample items "
            "per model); add avg_size_bytes hints where the size matters.",)
