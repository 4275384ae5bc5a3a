"""Capacity per access pattern: item sizes per entity, units per request, units per second, per index.

From a model and one of its designs (`modeling.design.Design`): each entity's item size (from the
model's size hints, with seeded sample items for what the hints leave out, and the key attributes the
design adds), each index's entry size per projection, then each pattern's units per request by the
rules in `costs.units`, times its peak and average request rates. Reads are charged where they run
(the table or the GSI; an LSI uses the table's capacity), writes to the table plus the index writes
they cause (dynamodb-facts §4.1). The result feeds `costs.usage.TableUsage`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
from boto3.dynamodb.types import TypeSerializer

from costs.item_size import item_size_bytes, name_size_bytes, value_size_bytes
from costs.units import (
    batch_write_item_units,
    delete_item_units,
    get_item_units,
    gsi_query_units,
    index_write_units,
    lsi_query_units,
    put_item_units,
    query_units,
    transact_get_items_units,
    transact_write_items_units,
    update_item_units,
)
from costs.usage import ResourceUsage, TableUsage, index_storage_bytes, table_storage_bytes
from modeling.design import TABLE, Design, Operation, PatternPlan
from modeling.model import Consistency, Entity, KeyDesign, Model, ProjectionType, SecondaryIndex
from modeling.planner import membership_share
from modeling.sample_data import generate_items, item_keys

SAMPLE_ITEMS_PER_ENTITY = 200
SAMPLE_SEED = 42
_SERIALIZER = TypeSerializer()


@dataclass(frozen=True)
class EntitySize:
    """Item sizes of one entity in bytes, as DynamoDB counts them (dynamodb-facts §6)."""

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

    @property
    def units_per_request(self) -> Decimal:
        return self.read_units_per_request + self.write_units_per_request + sum(
            (u for _, u in self.index_write_units_per_request), Decimal(0))

    def charged(self, resource: str, table_name: str, lsis: Sequence[str]) -> tuple[Decimal, Decimal]:
        """(read, write) units per request charged to one resource (the table or a GSI)."""
        reads_here = self.index == resource or (resource == table_name and (self.index == TABLE or self.index in lsis))
        read = self.read_units_per_request if reads_here else Decimal(0)
        write = self.write_units_per_request if resource == table_name else Decimal(0)
        for index, units in self.index_write_units_per_request:
            if index == resource or (resource == table_name and index in lsis):
                write += units
        return read, write


@dataclass(frozen=True)
class UsageExtras:
    """What the model does not say but the bill counts: backups kept and billable stream reads.

    Stream reads by Lambda triggers and global-table replication are free (dynamodb-facts §9.2), so
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
        return next(s for s in self.entity_sizes if s.entity == entity)

    def entry_size(self, index: str, entity: str) -> int:
        sizes = dict(((i, e), b) for i, e, b in self.entry_sizes)
        return sizes.get((index, entity), self.entity_size(entity).average_bytes)


# --- sizes ----------------------------------------------------------------------------------------


def _serialized(item: dict[str, Any]) -> dict[str, Any]:
    return {name: _SERIALIZER.serialize(value) for name, value in item.items()}


def _sample_items(model: Model, design: KeyDesign, seed: int, per_entity: int) -> dict[str, list[dict[str, Any]]]:
    """Sample items with the design's key attributes, in DynamoDB JSON."""
    items = generate_items(model, per_entity, seed)
    return {entity: [_serialized({**item, **item_keys(design, entity, item)}) for item in entity_items]
            for entity, entity_items in items.items()}


def _entity_size(entity: Entity, samples: list[dict[str, Any]]) -> EntitySize:
    sizes = [item_size_bytes(item) for item in samples] or [0]
    hinted, largest = 0.0, 0.0
    attribute_names = {a.name for a in entity.attributes}
    for attribute in entity.attributes:
        values = [value_size_bytes(item[attribute.name]) for item in samples if attribute.name in item]
        sample_average = float(np.mean(values)) if values else 0.0
        name_bytes = name_size_bytes(attribute.name)
        presence = len(values) / len(samples) if samples else 1.0
        hinted += presence * (name_bytes + (attribute.avg_size_bytes if attribute.avg_size_bytes is not None
                                            else sample_average))
        largest += name_bytes + (attribute.max_size_bytes if attribute.max_size_bytes is not None
                                 else max(values, default=0))
    key_bytes = float(np.mean([sum(name_size_bytes(k) + value_size_bytes(v) for k, v in item.items()
                                   if k not in attribute_names) for item in samples])) if samples else 0.0
    return EntitySize(entity.name, math.ceil(hinted + key_bytes), math.ceil(float(np.mean(sizes))),
                      math.ceil(float(np.percentile(sizes, 95))), math.ceil(largest + key_bytes))


def _projected(item: dict[str, Any], design: KeyDesign, index: SecondaryIndex) -> dict[str, Any]:
    """The index entry of an item: keys only, keys plus INCLUDE attributes, or the whole item."""
    if index.projection.type is ProjectionType.ALL:
        return item
    keys = {design.partition_key.name, index.partition_key.name}
    keys |= {k.name for k in (design.sort_key, index.sort_key) if k is not None}
    keys |= set(index.projection.non_key_attributes)
    return {name: value for name, value in item.items() if name in keys}


def _entry_sizes(design: KeyDesign, samples: dict[str, list[dict[str, Any]]]) -> list[tuple[str, str, int]]:
    rows = []
    for index in (*design.global_secondary_indexes, *design.local_secondary_indexes):
        for keys in design.entities:
            members = [i for i in samples.get(keys.entity, []) if index.partition_key.name in i
                       or (index in design.local_secondary_indexes and index.sort_key and index.sort_key.name in i)]
            if index.name in keys.indexes and members:
                sizes = [item_size_bytes(_projected(i, design, index)) for i in members]
                rows.append((index.name, keys.entity, math.ceil(float(np.mean(sizes)))))
    return rows


# --- units per request ----------------------------------------------------------------------------


def _mean_size(profile_sizes: dict[str, int], entities: Sequence[str]) -> int:
    known = [profile_sizes[e] for e in entities if e in profile_sizes]
    return math.ceil(sum(known) / len(known)) if known else 0


def _read_units(model: Model, design: Design, plan: PatternPlan, sizes: dict[str, int],
                entries: dict[tuple[str, str], int]) -> Decimal:
    consistency = Consistency.STRONG if plan.consistent_read else Consistency.EVENTUAL
    size = _mean_size(sizes, plan.entities)
    items = max(plan.items_read_per_request, 0.0)
    count = max(1, math.ceil(items))
    if plan.operation is Operation.GET_ITEM:
        return get_item_units(size, consistency).read_units
    if plan.operation is Operation.BATCH_GET_ITEM:
        return get_item_units(size, consistency).read_units * count  # each item rounded on its own (§1.2)
    if plan.operation is Operation.TRANSACT_GET_ITEMS:
        return transact_get_items_units([size]).read_units * count
    if plan.operation is Operation.SCAN:
        table_bytes = sum(e.item_count * sizes.get(e.name, 0) for e in model.entities)
        return query_units([table_bytes], consistency).read_units  # Scan adds every item evaluated (§1.2)
    entry = _mean_size({e: entries.get((plan.index, e), sizes.get(e, 0)) for e in plan.entities}, plan.entities)
    total = round(items * entry)  # Query adds the sizes read and rounds once (§1.2), so the total is what counts
    if plan.index == TABLE:
        return query_units([total], consistency).read_units
    if any(i.name == plan.index for i in design.key_design.global_secondary_indexes):
        return gsi_query_units([total]).read_units
    fetched = [size] * count if _lsi_fetches(model, design, plan) else []
    return lsi_query_units([total], fetched, consistency).read_units


def _lsi_fetches(model: Model, design: Design, plan: PatternPlan) -> bool:
    """An LSI read fetches the whole base item when the pattern needs unprojected attributes (§4.2)."""
    index = next(i for i in design.key_design.local_secondary_indexes if i.name == plan.index)
    pattern = next(p for p in model.access_patterns if p.name == plan.pattern)
    if index.projection.type is ProjectionType.ALL:
        return False
    return not pattern.returns or not set(pattern.returns) <= set(index.projection.non_key_attributes)


def _write_units(plan: PatternPlan, size: int) -> Decimal:
    count = max(1, math.ceil(plan.items_written_per_request))
    if plan.operation is Operation.PUT_ITEM:
        return put_item_units(size).write_units
    if plan.operation is Operation.UPDATE_ITEM:
        return update_item_units(size, size).write_units  # the larger of before and after (§1.2)
    if plan.operation is Operation.DELETE_ITEM:
        return delete_item_units(size).write_units
    if plan.operation is Operation.BATCH_WRITE_ITEM:
        return batch_write_item_units([size]).write_units * count  # each item rounded on its own
    return transact_write_items_units([size]).write_units * count


def _index_writes(plan: PatternPlan, entries: dict[tuple[str, str], int],
                  sizes: dict[str, int]) -> tuple[tuple[str, Decimal], ...]:
    result = []
    for write in plan.index_writes:
        entry = _mean_size({e: entries.get((write.index, e), sizes.get(e, 0)) for e in plan.entities}, plan.entities)
        per_item = index_write_units(write.kind, entry) * Decimal(repr(write.share_of_items))
        units = per_item * Decimal(repr(plan.items_written_per_request))
        result.append((write.index, units.quantize(Decimal("0.000001"))))
    return tuple(result)


def capacity_profile(model: Model, design: Design, seed: int = SAMPLE_SEED,
                     sample_items_per_entity: int = SAMPLE_ITEMS_PER_ENTITY) -> CapacityProfile:
    """Item sizes and every access pattern's units, for one design of the model."""
    samples = _sample_items(model, design.key_design, seed, sample_items_per_entity)
    entity_sizes = tuple(_entity_size(e, samples[e.name]) for e in model.entities)
    sizes = {s.entity: s.average_bytes for s in entity_sizes}
    entry_rows = _entry_sizes(design.key_design, samples)
    entries = {(index, entity): size for index, entity, size in entry_rows}
    patterns = {p.name: p for p in model.access_patterns}
    capacities = []
    for plan in design.plans:
        pattern = patterns[plan.pattern]
        is_write = plan.operation.is_write
        capacities.append(PatternCapacity(
            pattern=plan.pattern, operation=plan.operation, index=plan.index,
            read_units_per_request=Decimal(0) if is_write else _read_units(model, design, plan, sizes, entries),
            write_units_per_request=_write_units(plan, _mean_size(sizes, plan.entities)) if is_write else Decimal(0),
            index_write_units_per_request=_index_writes(plan, entries, sizes) if is_write else (),
            peak_requests_per_second=pattern.traffic.peak_requests_per_second,
            average_requests_per_second=pattern.traffic.average_requests_per_second,
            items_read_per_request=plan.items_read_per_request,
            items_returned_per_request=plan.items_returned_per_request))
    return CapacityProfile(design.name, entity_sizes, tuple(entry_rows), tuple(capacities))


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
        assumptions=usage_assumptions(model, design))


def _resource(model: Model, profile: CapacityProfile, name: str, table: str, lsis: list[str], is_gsi: bool,
              storage_bytes: int) -> ResourceUsage:
    reads = writes = Decimal(0)
    for capacity in profile.patterns:
        read, write = capacity.charged(name, table, lsis)
        rate = Decimal(repr(capacity.average_requests_per_second))
        reads, writes = reads + read * rate, writes + write * rate
    return ResourceUsage.from_profile(name, float(reads), float(writes), model.traffic_profile, is_gsi, storage_bytes)


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
        f"'{design.name}'; monthly consumption uses each pattern's average requests per second, spread over "
        f"the day by the '{model.traffic_profile.shape}' traffic profile.",
        "Item sizes come from the model's size hints, with seeded sample values for attributes without a hint "
        "and the key attributes the design adds (dynamodb-facts §6).",
        "A Query's items are added before rounding to 4 KB; pages of 1 MB are not split out (at most one "
        "extra 4 KB block per page).",
    )
