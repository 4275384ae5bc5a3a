"""What changes between two models (or two designs of one model), and what each change costs a live table.

`compare_models(old, new)` lists every change: entity, attribute, relationship, access pattern, key template,
index, projection, table setting. Everything is matched by name, never by position, and the changes come out
sorted by path, so reordering the lists of a model file yields no change and the same inputs give the same
bytes.

Each change is classified by what DynamoDB allows on a live table:
- `in_place`: UpdateTable or UpdateTimeToLive, or nothing at all (DynamoDB is schemaless: an attribute
  added needs no table change). A new GSI is built online, DynamoDB backfilling it from the items
  (AWS, GSI.OnlineOps.html, "Adding a global secondary index to an existing table").
- `backfill`: the items stay under their keys but existing items lack an attribute a new index or
  template reads, so every affected item is updated once (UpdateItem).
- `rewrite`: the item's table key changes; a key cannot be updated, so each affected item is deleted and
  put again under its new key (dynamodb-rules §1.2 PutItem/DeleteItem; AWS, WorkingWithItems.html: the
  key attributes of an item cannot be changed by UpdateItem).
- `new_table`: the table's key schema (attribute names or types) changes, or an LSI is added, changed or
  removed: DynamoDB sets both only at CreateTable (dynamodb-rules §4.2 does not say so; AWS,
  LSI.html and the CloudFormation LocalSecondaryIndex reference: "A local secondary index can only be
  created when its parent table is created"; API_UpdateTable has no KeySchema parameter).

>>> from modeling.examples import load_example
>>> old = load_example("chat_messages")
>>> compare_models(old, old)
()
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from modeling.design.keys import KeyTemplate
from modeling.model import (
    AccessPattern,
    Attribute,
    Entity,
    EntityKeys,
    KeyDesign,
    KeyTemplates,
    Model,
    Relationship,
    SecondaryIndex,
    TableSettings,
)


class Subject(StrEnum):
    """What changed."""

    ENTITY = "entity"
    ATTRIBUTE = "attribute"
    RELATIONSHIP = "relationship"
    ACCESS_PATTERN = "access_pattern"
    KEY_TEMPLATE = "key_template"
    INDEX = "index"
    PROJECTION = "projection"
    TABLE_SETTING = "table_setting"
    TABLE_KEY = "table_key"


class ChangeKind(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    MODIFIED = "modified"


class Classification(StrEnum):
    """What a live table needs for the change, from the least to the most work (ordered by `rank`)."""

    IN_PLACE = "in_place"
    BACKFILL = "backfill"
    REWRITE = "rewrite"
    NEW_TABLE = "new_table"

    @property
    def rank(self) -> int:
        return list(Classification).index(self)

    @property
    def label(self) -> str:
        return {Classification.IN_PLACE: "in place", Classification.BACKFILL: "needs a backfill",
                Classification.REWRITE: "every affected item rewritten",
                Classification.NEW_TABLE: "needs a new table"}[self]


# Where the rules come from (cited in the plan next to each change).
SOURCE_GSI_ONLINE = ("AWS GSI.OnlineOps.html (adding a GSI to an existing table: built online, "
                     "DynamoDB backfills it); "
                     "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html (index writes)")
SOURCE_LSI_AT_CREATION = ("AWS LSI.html / CloudFormation LocalSecondaryIndex: an LSI can only be created with its "
                          "table; https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html")
SOURCE_KEY_SCHEMA = "AWS API_UpdateTable: no KeySchema parameter, the table key is fixed at CreateTable"
SOURCE_ITEM_KEY = ("AWS WorkingWithItems.html: UpdateItem cannot change key attributes, so a new key is a "
                   "delete and a put; "
                   "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html "
                   "(PutItem, DeleteItem), "
                   "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html "
                   "(transactions)")
SOURCE_SCHEMALESS = ("https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html "
                     "(items carry their own attributes; no table change for a new attribute)")
SOURCE_UPDATE_TABLE = "AWS API_UpdateTable / API_UpdateTimeToLive / API_UpdateContinuousBackups"
SOURCE_BACKFILL = ("https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
                   "bp-indexes-general-sparse-indexes.html (an item lacking the index keys is absent from the "
                   "index: sparse)")
SOURCE_MODEL_ONLY = "the model only (no data on the table changes)"


@dataclass(frozen=True)
class Change:
    """One difference between the OLD and the NEW model, with what it needs on a live table."""

    subject: Subject
    kind: ChangeKind
    path: str  # e.g. `entities[Student].attributes[schoolYear]`, `key_design.global_secondary_indexes[GSI2]`
    before: str  # "" when added
    after: str  # "" when removed
    classification: Classification
    reason: str
    source: str
    entity: str = ""  # the entity whose items it touches, "" for none or the whole table
    index: str = ""  # the index it concerns, "" for none

    @property
    def sort_key(self) -> tuple[str, str, str]:
        return (self.path, self.kind.value, self.subject.value)

    def as_dict(self) -> dict[str, str]:
        return {"subject": self.subject.value, "kind": self.kind.value, "path": self.path, "before": self.before,
                "after": self.after, "classification": self.classification.value, "reason": self.reason,
                "source": self.source, "entity": self.entity, "index": self.index}


def effective_key_design(model: Model) -> KeyDesign:
    """The model's own key design (with keys for entities it leaves out), else the first rule-based design:
    the fallback of modeling-level callers. Callers above `modeling` pass the keys of the design the pages
    show (`costs.design_ranking.propose`'s first) instead, as `modeling.migration.pricing.price_plan` does (its
    `MigrationPricing.default_keys`)."""
    from modeling.design.generator import rule_based_designs  # imported here: the generator imports much of modeling
    return rule_based_designs(model)[0].key_design


def compare_models(old: Model, new: Model, old_keys: KeyDesign | None = None,
                   new_keys: KeyDesign | None = None) -> tuple[Change, ...]:
    """Every change from `old` to `new`, sorted by path; `*_keys` default to each model's effective design.

    Two designs of one model: pass the same model twice with two key designs.
    """
    old_design = old_keys if old_keys is not None else effective_key_design(old)
    new_design = new_keys if new_keys is not None else effective_key_design(new)
    changes: list[Change] = []
    changes += _table_settings(old.table, new.table)
    changes += _entities(old, new)
    changes += _named(Subject.RELATIONSHIP, "relationships", old.relationships, new.relationships, _relationship)
    changes += _named(Subject.ACCESS_PATTERN, "access_patterns", old.access_patterns, new.access_patterns,
                      _pattern)
    if old.traffic_profile != new.traffic_profile:
        changes.append(Change(Subject.TABLE_SETTING, ChangeKind.MODIFIED, "traffic_profile",
                              _text(old.traffic_profile), _text(new.traffic_profile), Classification.IN_PLACE,
                              "the daily traffic shape changes the estimate, not the table", SOURCE_MODEL_ONLY))
    changes += _key_design(old, new, old_design, new_design)
    return tuple(sorted(changes, key=lambda c: c.sort_key))


def overall(changes: Sequence[Change]) -> Classification:
    """The most work any change needs (in place when nothing changes)."""
    return max((c.classification for c in changes), key=lambda c: c.rank, default=Classification.IN_PLACE)


# --- rendering values ------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A value as short, stable text for `before`/`after` (pydantic models as sorted JSON)."""
    if value is None:
        return "none"
    if hasattr(value, "model_dump"):
        import json
        return json.dumps(value.model_dump(mode="json", exclude_defaults=True), sort_keys=True,
                          separators=(",", ":"))
    if isinstance(value, tuple | list):
        return ", ".join(sorted(str(v) for v in value)) or "none"
    return str(value)


def _by_name(values: Iterable[Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for value in values:
        found.setdefault(value.name, value)
    return found


def _named(subject: Subject, field: str, old: Iterable[Any], new: Iterable[Any], modified: Any) -> list[Change]:
    """Added, removed and modified values of a list matched by name; `modified(old, new)` explains a change."""
    before, after = _by_name(old), _by_name(new)
    changes = []
    for name in sorted(set(before) | set(after)):
        path = f"{field}[{name}]"
        if name not in before:
            changes.append(Change(subject, ChangeKind.ADDED, path, "", _summary(after[name]),
                                  Classification.IN_PLACE, _added_reason(subject), SOURCE_MODEL_ONLY))
        elif name not in after:
            changes.append(Change(subject, ChangeKind.REMOVED, path, _summary(before[name]), "",
                                  Classification.IN_PLACE, _removed_reason(subject), SOURCE_MODEL_ONLY))
        elif before[name] != after[name]:
            changes.append(modified(path, before[name], after[name]))
    return changes


def _summary(value: Any) -> str:
    if isinstance(value, AccessPattern):
        return f"{value.kind.value} on {', '.join(value.entities)} by {', '.join(value.inputs) or 'nothing'}"
    if isinstance(value, Relationship):
        return f"{value.kind.value} {value.parent} -> {value.child}"
    return _text(value)


def _added_reason(subject: Subject) -> str:
    if subject is Subject.ACCESS_PATTERN:
        return "a new request of the application; the keys or indexes it needs are listed as their own changes"
    return "the model describes it; nothing on the table changes"


def _removed_reason(subject: Subject) -> str:
    if subject is Subject.ACCESS_PATTERN:
        return "the application stops sending it; an index only it used can be dropped (listed separately)"
    return "the model no longer describes it; nothing on the table changes"


def _changed_fields(old: Any, new: Any, skip: tuple[str, ...] = ()) -> list[str]:
    return sorted(f for f in type(old).model_fields if f not in skip and getattr(old, f) != getattr(new, f))


def _relationship(path: str, old: Relationship, new: Relationship) -> Change:
    fields = _changed_fields(old, new)
    return Change(Subject.RELATIONSHIP, ChangeKind.MODIFIED, path, _fields_text(old, fields),
                  _fields_text(new, fields), Classification.IN_PLACE,
                  f"{', '.join(fields)} changed; the sizes and estimates move, the stored items do not",
                  SOURCE_MODEL_ONLY)


def _fields_text(value: Any, fields: list[str]) -> str:
    return "; ".join(f"{f}={_text(getattr(value, f))}" for f in fields)


def _pattern(path: str, old: AccessPattern, new: AccessPattern) -> Change:
    fields = _changed_fields(old, new)
    return Change(Subject.ACCESS_PATTERN, ChangeKind.MODIFIED, path, _fields_text(old, fields),
                  _fields_text(new, fields), Classification.IN_PLACE,
                  f"the request changes ({', '.join(fields)}); the keys or indexes it needs are listed separately",
                  SOURCE_MODEL_ONLY)


# --- table settings --------------------------------------------------------------------------------------

# field -> (classification, why); the table's name and Region make another table
_SETTING_RULES: dict[str, tuple[Classification, str, str]] = {
    "name": (Classification.NEW_TABLE, "a table cannot be renamed: the items move to a table of the new name",
             SOURCE_KEY_SCHEMA),
    "region": (Classification.NEW_TABLE, "a table lives in one Region: the items move to a table in the new "
                                         "Region (or add it as a global-table replica first)", SOURCE_KEY_SCHEMA),
    "billing_mode": (Classification.IN_PLACE, "UpdateTable BillingMode (AWS allows a switch of capacity mode "
                                              "at most once per 24 hours per table)", SOURCE_UPDATE_TABLE),
    "table_class": (Classification.IN_PLACE, "UpdateTable TableClass", SOURCE_UPDATE_TABLE),
    "point_in_time_recovery": (Classification.IN_PLACE, "UpdateContinuousBackups", SOURCE_UPDATE_TABLE),
    "stream_view_type": (Classification.IN_PLACE, "UpdateTable StreamSpecification (a stream's view type cannot "
                                                  "change while enabled: disable, then enable)", SOURCE_UPDATE_TABLE),
    "ttl_attribute": (Classification.IN_PLACE, "UpdateTimeToLive (items without the attribute never expire, so "
                                               "existing items need it backfilled to expire)", SOURCE_UPDATE_TABLE),
    "replica_regions": (Classification.IN_PLACE, "UpdateTable ReplicaUpdates (global tables)",
                        SOURCE_UPDATE_TABLE),
    "deletion_protection": (Classification.IN_PLACE, "UpdateTable DeletionProtectionEnabled", SOURCE_UPDATE_TABLE),
}


def _table_settings(old: TableSettings, new: TableSettings) -> list[Change]:
    changes = []
    for field in _changed_fields(old, new):
        classification, reason, source = _SETTING_RULES[field]
        changes.append(Change(Subject.TABLE_SETTING, ChangeKind.MODIFIED, f"table.{field}",
                              _text(getattr(old, field)), _text(getattr(new, field)), classification, reason, source))
    return changes


# --- entities and attributes -----------------------------------------------------------------------------


def _entities(old: Model, new: Model) -> list[Change]:
    before, after = _by_name(old.entities), _by_name(new.entities)
    changes: list[Change] = []
    for name in sorted(set(before) | set(after)):
        path = f"entities[{name}]"
        if name not in before:
            changes.append(Change(Subject.ENTITY, ChangeKind.ADDED, path, "", f"{after[name].item_count:,} items",
                                  Classification.IN_PLACE, "new items are written by the application; no existing "
                                  "item changes", SOURCE_SCHEMALESS, entity=name))
        elif name not in after:
            changes.append(Change(Subject.ENTITY, ChangeKind.REMOVED, path, f"{before[name].item_count:,} items", "",
                                  Classification.IN_PLACE, "its items stay on the table until deleted (a cleanup "
                                  "Scan and DeleteItem, or a TTL); nothing forces it", SOURCE_SCHEMALESS,
                                  entity=name))
        else:
            changes += _entity(path, before[name], after[name])
    return changes


def _entity(path: str, old: Entity, new: Entity) -> list[Change]:
    changes = []
    fields = _changed_fields(old, new, skip=("attributes",))
    if fields:
        identity = "identifiers" in fields
        changes.append(Change(Subject.ENTITY, ChangeKind.MODIFIED, path, _fields_text(old, fields),
                              _fields_text(new, fields), Classification.IN_PLACE,
                              "what identifies an item changes: check the key templates (listed separately)"
                              if identity else "counts and growth change the estimate and the plan's item counts",
                              SOURCE_MODEL_ONLY, entity=old.name))
    before, after = _by_name(old.attributes), _by_name(new.attributes)
    for name in sorted(set(before) | set(after)):
        attribute_path = f"{path}.attributes[{name}]"
        if name not in before:
            attribute: Attribute = after[name]
            why = ("a required attribute: existing items lack it until the application or a backfill writes it"
                   if attribute.required else "an optional attribute: existing items simply lack it")
            changes.append(Change(Subject.ATTRIBUTE, ChangeKind.ADDED, attribute_path, "",
                                  f"{attribute.type.value}{'' if attribute.required else ' (optional)'}",
                                  Classification.IN_PLACE, why, SOURCE_SCHEMALESS, entity=old.name))
        elif name not in after:
            changes.append(Change(Subject.ATTRIBUTE, ChangeKind.REMOVED, attribute_path, before[name].type.value, "",
                                  Classification.IN_PLACE, "existing items keep the value until rewritten; the "
                                  "application stops writing it", SOURCE_SCHEMALESS, entity=old.name))
        elif before[name] != after[name]:
            changed = _changed_fields(before[name], after[name])
            typed = "type" in changed
            changes.append(Change(
                Subject.ATTRIBUTE, ChangeKind.MODIFIED, attribute_path, _fields_text(before[name], changed),
                _fields_text(after[name], changed),
                Classification.BACKFILL if typed else Classification.IN_PLACE,
                "existing items hold the old type: each is updated once to the new type" if typed
                else "sizes or generation change; stored values stay valid", SOURCE_SCHEMALESS, entity=old.name))
    return changes


# --- key design: table keys, indexes, templates ----------------------------------------------------------


def _key_design(old: Model, new: Model, old_keys: KeyDesign, new_keys: KeyDesign) -> list[Change]:
    changes: list[Change] = []
    for role in ("partition_key", "sort_key"):
        before, after = getattr(old_keys, role), getattr(new_keys, role)
        if before != after:
            kind = ChangeKind.ADDED if before is None else ChangeKind.REMOVED if after is None else ChangeKind.MODIFIED
            changes.append(Change(Subject.TABLE_KEY, kind, f"key_design.{role}", _key_text(before), _key_text(after),
                                  Classification.NEW_TABLE, "the table's key schema is fixed at CreateTable: every "
                                  "item moves to a new table", SOURCE_KEY_SCHEMA))
    changes += _indexes(old_keys, new_keys, new)
    changes += _templates(old, new, old_keys, new_keys)
    return changes


def _key_text(value: Any) -> str:
    return "none" if value is None else f"{value.name} ({value.type.value})"


def _index_text(index: SecondaryIndex) -> str:
    sort = f", sort {_key_text(index.sort_key)}" if index.sort_key else ""
    included = f" ({', '.join(index.projection.non_key_attributes)})" if index.projection.non_key_attributes else ""
    return f"partition {_key_text(index.partition_key)}{sort}; projection {index.projection.type.value}{included}"


def _indexes(old_keys: KeyDesign, new_keys: KeyDesign, new: Model) -> list[Change]:
    changes: list[Change] = []
    for field, is_local in (("global_secondary_indexes", False), ("local_secondary_indexes", True)):
        before, after = _by_name(getattr(old_keys, field)), _by_name(getattr(new_keys, field))
        for name in sorted(set(before) | set(after)):
            path = f"key_design.{field}[{name}]"
            if is_local and before.get(name) != after.get(name):
                kind = (ChangeKind.ADDED if name not in before else ChangeKind.REMOVED if name not in after
                        else ChangeKind.MODIFIED)
                changes.append(Change(Subject.INDEX, kind, path, _index_text(before[name]) if name in before else "",
                                      _index_text(after[name]) if name in after else "", Classification.NEW_TABLE,
                                      "an LSI is created, changed or dropped only with its table: every item moves "
                                      "to a new table", SOURCE_LSI_AT_CREATION, index=name))
            elif name not in before:
                changes.append(Change(Subject.INDEX, ChangeKind.ADDED, path, "", _index_text(after[name]),
                                      Classification.IN_PLACE, "UpdateTable creates the GSI online; DynamoDB "
                                      "backfills it from the items that have its key attributes",
                                      SOURCE_GSI_ONLINE, index=name))
            elif name not in after:
                changes.append(Change(Subject.INDEX, ChangeKind.REMOVED, path, _index_text(before[name]), "",
                                      Classification.IN_PLACE, "UpdateTable deletes the GSI; reads through it must "
                                      "stop first", SOURCE_GSI_ONLINE, index=name))
            elif before[name] != after[name]:
                old_index, new_index = before[name], after[name]
                if (old_index.partition_key, old_index.sort_key) == (new_index.partition_key, new_index.sort_key):
                    changes.append(Change(Subject.PROJECTION, ChangeKind.MODIFIED, path + ".projection",
                                          _index_text(old_index), _index_text(new_index),
                                          Classification.IN_PLACE, "a GSI's projection cannot be updated: create "
                                          "the GSI again under a new name, move the reads, drop the old one "
                                          "(DynamoDB backfills it online)", SOURCE_GSI_ONLINE, index=name))
                else:
                    changes.append(Change(Subject.INDEX, ChangeKind.MODIFIED, path, _index_text(old_index),
                                          _index_text(new_index), Classification.IN_PLACE, "a GSI's key schema "
                                          "cannot be updated: drop it and create it again (online); the items' "
                                          "index key attributes are listed as template changes",
                                          SOURCE_GSI_ONLINE, index=name))
    return changes


def _templates(old: Model, new: Model, old_keys: KeyDesign, new_keys: KeyDesign) -> list[Change]:
    """Per entity: its table templates (a new key = a rewrite) and each index's templates (a backfill)."""
    before = {k.entity: k for k in old_keys.entities}
    after = {k.entity: k for k in new_keys.entities}
    table_key_changed = (old_keys.partition_key, old_keys.sort_key) != (new_keys.partition_key, new_keys.sort_key)
    changes: list[Change] = []
    for entity in sorted(set(before) | set(after)):
        old_entry, new_entry = before.get(entity), after.get(entity)
        path = f"key_design.entities[{entity}]"
        existing = old.entity(entity) is not None and new.entity(entity) is not None and old_entry is not None
        changes += _table_templates(path, entity, old_entry, new_entry, existing, table_key_changed)
        old_indexes = old_entry.indexes if old_entry else {}
        new_indexes = new_entry.indexes if new_entry else {}
        for index in sorted(set(old_indexes) | set(new_indexes)):
            changes += _index_templates(f"{path}.indexes[{index}]", entity, index, old_indexes.get(index),
                                        new_indexes.get(index), new_keys, existing and not table_key_changed)
    return changes


def _templates_text(templates: KeyTemplates | None) -> str:
    if templates is None:
        return ""
    text = templates.partition_key + (f" / {templates.sort_key}" if templates.sort_key is not None else "")
    if templates.only_when:
        text += " only when " + ", ".join(f"{c.attribute}={c.equals}" for c in templates.only_when)
    return text


def _table_templates(path: str, entity: str, old: EntityKeys | None, new: EntityKeys | None, existing: bool,
                     table_key_changed: bool) -> list[Change]:
    old_table, new_table = (old.table if old else None), (new.table if new else None)
    if old_table == new_table:
        return []
    kind = ChangeKind.ADDED if old_table is None else ChangeKind.REMOVED if new_table is None else ChangeKind.MODIFIED
    if not existing or kind is not ChangeKind.MODIFIED:
        classification, reason = Classification.IN_PLACE, "no stored item has keys under this entity's templates yet" \
            if kind is ChangeKind.ADDED else "the entity's items are no longer described; they stay until deleted"
    elif table_key_changed:
        classification, reason = Classification.NEW_TABLE, "its items are written to the new table under these keys"
    else:
        classification, reason = Classification.REWRITE, ("the item's table key changes: each item is deleted and "
                                                          "put again under the new key, in one transaction")
    return [Change(Subject.KEY_TEMPLATE, kind, f"{path}.table", _templates_text(old_table),
                   _templates_text(new_table), classification, reason,
                   SOURCE_ITEM_KEY if classification is not Classification.IN_PLACE else SOURCE_MODEL_ONLY,
                   entity=entity)]


def _index_templates(path: str, entity: str, index: str, old: KeyTemplates | None, new: KeyTemplates | None,
                     new_keys: KeyDesign, existing: bool) -> list[Change]:
    if old == new:
        return []
    kind = ChangeKind.ADDED if old is None else ChangeKind.REMOVED if new is None else ChangeKind.MODIFIED
    if not existing:
        classification, reason, source = (Classification.IN_PLACE, "no existing item is affected (a new entity, "
                                          "or its items move to a new table with these keys)", SOURCE_MODEL_ONLY)
    elif new is not None and items_carry_keys(new_keys, index, new):
        classification, reason, source = (Classification.IN_PLACE, "the index keys are the items' own attributes: "
                                          "DynamoDB's online backfill finds them", SOURCE_GSI_ONLINE)
    elif kind is ChangeKind.REMOVED:
        classification, reason, source = (Classification.BACKFILL, "existing items still carry the index key "
                                          "attributes: remove them so the items leave the index", SOURCE_BACKFILL)
    else:
        reads = ", ".join(sorted(template_attributes(new))) if new else ""
        classification, reason, source = (Classification.BACKFILL, "existing items lack the index key attributes "
                                          f"(rendered from {reads}): each item is updated once to get them",
                                          SOURCE_BACKFILL)
    return [Change(Subject.KEY_TEMPLATE, kind, path, _templates_text(old), _templates_text(new), classification,
                   reason, source, entity=entity, index=index)]


def template_attributes(templates: KeyTemplates) -> set[str]:
    """The item attributes a pair of templates reads."""
    names = set(KeyTemplate.parse(templates.partition_key).attribute_names)
    if templates.sort_key:
        names |= set(KeyTemplate.parse(templates.sort_key).attribute_names)
    return names


def items_carry_keys(key_design: KeyDesign, index: str, templates: KeyTemplates) -> bool:
    """Whether an index's key attributes are plain item attributes (template `{x}` for key attribute `x`)."""
    found = next((i for i in (*key_design.global_secondary_indexes, *key_design.local_secondary_indexes)
                  if i.name == index), None)
    if found is None or templates.only_when:
        return False
    pairs: list[tuple[str, str | None]] = [(found.partition_key.name, templates.partition_key)]
    if found.sort_key is not None:
        pairs.append((found.sort_key.name, templates.sort_key))
    return all(template == "{" + name + "}" for name, template in pairs)


def changes_json(changes: Sequence[Change]) -> list[dict[str, str]]:
    return [c.as_dict() for c in changes]


def by_classification(changes: Sequence[Change]) -> Mapping[Classification, tuple[Change, ...]]:
    return {c: tuple(x for x in changes if x.classification is c) for c in Classification}
