"""A Design Studio model -> a NoSQL Workbench 3.0 file with seeded sample data.

One table; one facet per entity, whose key aliases are the entity's key templates
(`CUSTOMER#{customerId}`: NoSQL Workbench shows them as column titles, and the importer reads them
back as templates); the items of every facet are the model's sample data with the keys rendered through
the design the caller passes: `studio.design.propose`'s first, what every page shows (the model's
own key design, else the proposal); without one, the model's own, else the rule-based generator's. What the
format has no place for (LSIs, access patterns, traffic, streams, table class, sparse-index conditions) is
listed in the export's notes; the time-to-live attribute is written as the table's `TimeToLiveAttribute`.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from modeling.data.sample_data import generate_items, key_renderer
from modeling.design.generator import explicit_design, generate_design
from modeling.design.plans import Design
from modeling.interop.nosql_workbench.document import (
    Facet,
    Index,
    KeyAttr,
    Table,
    WorkbenchFile,
    typed_from_plain,
    workbench_date,
    workbench_document,
)
from modeling.model import (
    FakerGenerator,
    FakerProvider,
    KeyDesign,
    Model,
    TimestampFormat,
    TimestampRangeGenerator,
)

DEFAULT_ITEMS_PER_ENTITY = 5
MAX_ITEMS_PER_ENTITY = 1000  # a Workbench model is for looking at data, not for load tests


@dataclass(frozen=True)
class WorkbenchExport:
    document: dict[str, Any]  # the 3.0 file as JSON-ready data
    notes: tuple[str, ...]  # what the format could not hold, and sample items left out
    items_written: Mapping[str, int] = field(default_factory=dict)  # entity -> sample items in its facet

    @property
    def item_count(self) -> int:
        return sum(self.items_written.values())


def export_workbench(model: Model, seed: int = 42, items_per_entity: int = DEFAULT_ITEMS_PER_ENTITY,
                     now: datetime | None = None, design: Design | None = None) -> WorkbenchExport:
    """The model as a NoSQL Workbench 3.0 document, with `items_per_entity` seeded sample items each, keyed by
    `design` (the pages and `dds export` pass `propose`'s first)."""
    items_per_entity = max(0, min(items_per_entity, MAX_ITEMS_PER_ENTITY))
    design = design or explicit_design(model) or generate_design(model)
    key_design = design.key_design
    notes = [] if model.key_design else [f"The model has no key design of its own; the proposal "
                                         f"'{design.name}' was used."]
    date = workbench_date(now or datetime.now(UTC))
    table, table_notes = _table(model, key_design, generate_items(model, items_per_entity, seed, key_design))
    workbench = WorkbenchFile(name=model.name, version="3.0", tables=(table,), metadata={
        "Author": "", "DateCreated": date, "DateLastModified": date, "Description": model.description})
    notes += table_notes + _losses(model, key_design)
    written = {f.name: len(f.items) for f in table.facets}
    return WorkbenchExport(workbench_document(workbench), tuple(notes), written)


def _table(model: Model, design: KeyDesign, items: dict[str, list[dict[str, Any]]]) -> tuple[Table, list[str]]:
    types = _attribute_types(model)
    notes: list[str] = []
    table_key = [k.name for k in (design.partition_key, design.sort_key) if k]
    seen_keys: set[tuple[Any, ...]] = set()  # primary keys across the table: two entities may render the same
    index_keys = [k for i in design.global_secondary_indexes for k in (i.partition_key, i.sort_key) if k]
    table_keys = {design.partition_key.name, *(k.name for k in (design.sort_key,) if k)}
    non_key: dict[str, str] = {}
    for name, kind in [*types.items(), *((k.name, k.type.value) for k in index_keys)]:
        if name not in table_keys:
            non_key.setdefault(name, kind)
    facets = []
    for entity in model.entities:
        keys = next((k for k in design.entities if k.entity == entity.name), None)
        if keys is None:
            continue
        gsi_attributes = [k.name for i in design.global_secondary_indexes if i.name in keys.indexes
                          for k in (i.partition_key, i.sort_key) if k]
        rows, repeated = [], 0
        keys_of = key_renderer(design, entity.name)  # the design looked up once per entity, not per item
        for item in items.get(entity.name, []):
            row = _typed_item({**item, **keys_of(item)}, types, design)
            primary_key = tuple(json.dumps(row.get(k), sort_keys=True) for k in table_key)
            if primary_key in seen_keys:  # DynamoDB would keep one item per key: the file holds it once
                repeated += 1
                continue
            seen_keys.add(primary_key)
            rows.append(row)
        if repeated:
            notes.append(f"{entity.name}: {repeated} of {len(rows) + repeated} sample items had the primary key of "
                         f"an item written before (its key templates leave few distinct keys), so {len(rows)} "
                         "are written.")
        facets.append(Facet(name=entity.name, partition_key_alias=keys.table.partition_key,
                            sort_key_alias=keys.table.sort_key if design.sort_key else None,
                            non_key_attributes=tuple(dict.fromkeys([*(a.name for a in entity.attributes
                                                                      if a.name not in table_keys),
                                                                    *gsi_attributes])),
                            items=tuple(rows)))
    non_key = _declared_as_written(non_key, facets, notes)
    return Table(
        name=model.table.name, partition_key=KeyAttr(design.partition_key.name, design.partition_key.type.value),
        sort_key=KeyAttr(design.sort_key.name, design.sort_key.type.value) if design.sort_key else None,
        non_key_attributes=tuple(KeyAttr(n, k) for n, k in non_key.items()),
        indexes=tuple(Index(i.name, KeyAttr(i.partition_key.name, i.partition_key.type.value),
                            KeyAttr(i.sort_key.name, i.sort_key.type.value) if i.sort_key else None,
                            i.projection.type.value, tuple(i.projection.non_key_attributes))
                      for i in design.global_secondary_indexes),
        facets=tuple(facets), billing_mode=model.table.billing_mode.value,
        sample_data_formats=_sample_data_formats(model) or None, ttl_attribute=model.table.ttl_attribute), notes


def _declared_as_written(declared: dict[str, str], facets: list[Facet], notes: list[str]) -> dict[str, str]:
    """The declared types, each changed to the one type the items were written with when they disagree (a
    Number attribute whose generator makes text such as `ff00aa` is written S, so it is declared S)."""
    written: dict[str, set[str]] = {}
    for facet in facets:
        for item in facet.items:
            for name, value in item.items():
                written.setdefault(name, set()).update(value)
    result = dict(declared)
    for name, kind in declared.items():
        kinds = written.get(name, set())
        if not kinds or kinds == {kind}:
            continue
        result[name] = next(iter(kinds)) if len(kinds) == 1 else "S"
        if len(kinds) > 1:  # numbers and text mixed: all written as text, so that every item agrees
            for item in (i for f in facets for i in f.items if name in i):
                (value_kind, payload), = item[name].items()
                if value_kind in ("N", "S"):
                    item[name] = {"S": payload}
        notes.append(f"`{name}` is {kind} in the model, but its generator makes {' and '.join(sorted(kinds))} "
                     f"values, so the file declares it {result[name]} and writes every value so.")
    return result


def _sample_data_formats(model: Model) -> dict[str, list[str]]:
    """NoSQL Workbench's own sample-data formats for the generators that have one (as NWB 3.8+ writes them)."""
    formats: dict[str, list[str]] = {}
    for entity in model.entities:
        for attribute in entity.attributes:
            generator = attribute.generator
            if isinstance(generator, FakerGenerator) and generator.provider is FakerProvider.EMAIL:
                formats.setdefault(attribute.name, ["identifiers", "Email"])
            elif isinstance(generator, TimestampRangeGenerator) and generator.format is TimestampFormat.ISO_8601:
                formats.setdefault(attribute.name, ["date", "ISO 8601 date and time"])
    return formats


def _attribute_types(model: Model) -> dict[str, str]:
    types: dict[str, str] = {}
    for entity in model.entities:
        for attribute in entity.attributes:
            types.setdefault(attribute.name, attribute.type.value)
    return types


def _typed_item(item: dict[str, Any], types: dict[str, str], design: KeyDesign) -> dict[str, Any]:
    key_types = {k.name: k.type.value for k in (design.partition_key, design.sort_key,
                                                 *(x for i in design.global_secondary_indexes
                                                   for x in (i.partition_key, i.sort_key))) if k}
    return {name: _typed(value, key_types.get(name) or types.get(name)) for name, value in item.items()
            if not name.startswith("_")}


def _typed(value: Any, kind: str | None) -> Any:
    """DynamoDB JSON for a sample value in the attribute's declared type, so items agree with NonKeyAttributes.

    An attribute without a generator gets placeholder text (`value-3`) from the sample data; for maps,
    lists and sets it is wrapped in the declared type.
    """
    is_number = isinstance(value, Decimal | int | float) and not isinstance(value, bool)
    if kind == "S" and is_number:
        return {"S": str(value)}
    if kind == "N" and isinstance(value, str):
        try:
            return {"N": str(Decimal(value))}
        except ArithmeticError:
            return {"S": value}
    if kind == "M" and not isinstance(value, dict):
        return {"M": {"value": typed_from_plain(value)}}
    if kind == "L" and not isinstance(value, list | tuple):
        return {"L": [typed_from_plain(value)]}
    if kind in ("SS", "BS") and not isinstance(value, list | tuple | set):
        return {kind: [str(value)]}
    if kind == "NS" and is_number:
        return {"NS": [str(value)]}
    if kind == "NULL":
        return {"NULL": True}
    if kind == "B" and isinstance(value, str):
        return {"B": base64.b64encode(value.encode()).decode()}
    return typed_from_plain(value)


def _losses(model: Model, design: KeyDesign) -> list[str]:
    losses = []
    if design.local_secondary_indexes:
        losses.append("NoSQL Workbench models have no LSIs: "
                      + ", ".join(i.name for i in design.local_secondary_indexes) + " are left out.")
    if model.access_patterns:
        losses.append(f"The {len(model.access_patterns)} access patterns and their traffic are not in the file "
                      "(NoSQL Workbench's JSON has no place for them).")
    settings = model.table
    dropped = [name for name, present in (
        ("streams", settings.stream_view_type),
        ("table class", settings.table_class.value != "STANDARD"), ("point-in-time recovery",
                                                                    settings.point_in_time_recovery),
        ("replicas", settings.replica_regions), ("deletion protection", settings.deletion_protection)) if present]
    if dropped:
        losses.append("Not in the NoSQL Workbench format: " + ", ".join(dropped) + ".")
    if any(t.only_when for k in design.entities for t in k.indexes.values()):
        losses.append("Sparse-index conditions (only_when) are not in the file; the sample items simply have "
                      "or lack the index keys.")
    auxiliary = sorted({name for k in design.entities for name in k.auxiliary})
    if auxiliary:
        losses.append("Auxiliary items (" + ", ".join(auxiliary) + ": uniqueness, aggregate and edge-copy items) "
                      "are not facets in the file: NoSQL Workbench has no place for items a write keeps in step.")
    if any(p.condition or p.updates or p.soft_delete or p.members for p in model.access_patterns):
        losses.append("Write conditions, update actions, soft deletes and transaction members go with the access "
                      "patterns: not in the file.")
    if model.table.billing_mode.value == "PROVISIONED":
        losses.append("Provisioned capacity is written as NoSQL Workbench's defaults (5 RCU / 5 WCU, auto "
                      "scaling 1-10 at 70%); a model has no capacity figures of its own.")
    return losses
