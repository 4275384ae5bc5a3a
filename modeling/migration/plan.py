"""What a migration from OLD to NEW does to the stored items: the mode, one action per entity, the item transform,
and the ordered steps of the plan (the figures of each step are priced in `modeling.migration.pricing`).

The mode follows the change that needs the most work (`modeling.migration.evolution.overall`):
- backfill: every item of the affected entities is updated once in place (UpdateItem SET/REMOVE of the index
  key attributes and of the attributes given a value), a conditional write so a rerun changes nothing more;
- rewrite: the items of an entity whose table key changes are each put under the new key and deleted under the
  old one in one TransactWriteItems (dynamodb-rules §2), so an interruption never leaves an item twice or lost;
- new table: every item is copied into a new table under the NEW design, with a conditional put that never
  overwrites what dual writes already put there, in three phases (shadow table and backfill; dual writes with
  consistency checks over a grey period; cut-over with the old table read-only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from modeling.data.sample_data import item_keys
from modeling.design.keys import KeyTemplate, KeyTemplateError, render_key
from modeling.errors import ModelingError
from modeling.interop.iac_request import key_attributes
from modeling.migration.evolution import Change, Classification, compare_models, effective_key_design, overall
from modeling.model import KeyDesign, Model

DEFAULT_GREY_PERIOD_DAYS = 7
DEFAULT_WRITE_RATE_ITEMS_PER_SECOND = 500


class MigrationError(ModelingError):
    """A migration that cannot be planned or run as asked (e.g. a fill value for an unknown attribute)."""


class Mode(StrEnum):
    NONE = "none"  # nothing stored changes (model-only and in-place table changes)
    BACKFILL = "backfill"
    REWRITE = "rewrite"
    NEW_TABLE = "new_table"


class Action(StrEnum):
    """What the migration does to each item of one entity."""

    SKIP = "skip"
    UPDATE = "update"  # UpdateItem in place (backfill)
    MOVE = "move"  # put under the new key and delete the old, in one transaction (rewrite)
    COPY = "copy"  # conditional put into the new table


@dataclass(frozen=True)
class MigrationSpec:
    """Everything a migration run needs: both models and designs, what to do per entity, values to fill."""

    old: Model
    new: Model
    old_keys: KeyDesign
    new_keys: KeyDesign
    mode: Mode
    actions: tuple[tuple[str, Action], ...]  # (entity, action), sorted by entity
    fills: tuple[tuple[str, str, Any], ...] = ()  # (entity, attribute, value) given to items that lack it

    def action(self, entity: str) -> Action:
        return dict(self.actions).get(entity, Action.SKIP)

    def fill_values(self, entity: str) -> dict[str, Any]:
        return {attribute: value for name, attribute, value in self.fills if name == entity}


@dataclass(frozen=True)
class Step:
    """One step of the plan, before prices: what it does, to how many items, how to check and undo it."""

    number: int
    title: str
    phase: str  # "" or the phase of a new-table migration
    what: str
    entities: tuple[str, ...] = ()
    items_touched: int = 0
    action: Action = Action.SKIP
    checks: tuple[str, ...] = ()
    risk: str = ""
    rollback: str = ""
    dual_writes: bool = False  # the application writes both forms while it runs (a new table: both tables)
    second_table: bool = False  # a second table is stored while it runs


@dataclass(frozen=True)
class Plan:
    spec: MigrationSpec
    changes: tuple[Change, ...]
    steps: tuple[Step, ...]
    needs_values: tuple[str, ...] = ()  # `Entity.attribute` the new keys read that old items lack, no fill given
    grey_period_days: int = DEFAULT_GREY_PERIOD_DAYS


def migration_spec(old: Model, new: Model, old_keys: KeyDesign | None = None, new_keys: KeyDesign | None = None,
                   fills: Mapping[str, Any] | None = None) -> tuple[MigrationSpec, tuple[Change, ...]]:
    """The spec and the changes from OLD to NEW; `fills` maps `Entity.attribute` to a value for old items."""
    old_design = old_keys if old_keys is not None else effective_key_design(old)
    new_design = new_keys if new_keys is not None else effective_key_design(new)
    changes = compare_models(old, new, old_design, new_design)
    level = overall(changes)
    stored = sorted(k.entity for k in old_design.entities
                    if old.entity(k.entity) is not None and new.entity(k.entity) is not None
                    and any(n.entity == k.entity for n in new_design.entities))
    actions: dict[str, Action] = {}
    if level is Classification.NEW_TABLE:
        actions = {name: Action.COPY for name in stored}
    else:
        for change in changes:
            if change.entity in stored and change.classification is Classification.REWRITE:
                actions[change.entity] = Action.MOVE
            elif change.entity in stored and change.classification is Classification.BACKFILL:
                actions.setdefault(change.entity, Action.UPDATE)
    mode = {Classification.NEW_TABLE: Mode.NEW_TABLE, Classification.REWRITE: Mode.REWRITE,
            Classification.BACKFILL: Mode.BACKFILL}.get(level, Mode.NONE)
    spec = MigrationSpec(old, new, old_design, new_design, mode, tuple(sorted(actions.items())),
                         _fills(new, fills or {}))
    return spec, changes


def _fills(new: Model, fills: Mapping[str, Any]) -> tuple[tuple[str, str, Any], ...]:
    result = []
    for path, value in sorted(fills.items()):
        entity_name, _, attribute_name = path.partition(".")
        entity = new.entity(entity_name)
        attribute = entity.attribute(attribute_name) if entity else None
        if attribute is None:
            raise MigrationError(f"--fill {path}: the NEW model has no attribute {attribute_name!r} on "
                                 f"{entity_name!r}; write Entity.attribute=value")
        result.append((entity_name, attribute_name, _typed_fill(attribute.type.value, value, path)))
    return tuple(result)


def _typed_fill(attribute_type: str, value: Any, path: str) -> Any:
    if attribute_type != "N":
        return value
    try:
        return Decimal(str(value))
    except ArithmeticError:
        raise MigrationError(f"--fill {path}={value}: the attribute is a Number; give a number") from None


# --- items --------------------------------------------------------------------------------------------------


def derived_key_names(key_design: KeyDesign, model: Model) -> set[str]:
    """Key attributes the design adds to items (GSI1PK ...), not the entities' own attributes."""
    own = {a.name for e in model.entities for a in e.attributes}
    return {a.name for a in key_attributes(key_design)} - own


def entity_of(spec: MigrationSpec, item: Mapping[str, Any], keys: KeyDesign | None = None,
              model: Model | None = None) -> str | None:
    """Which entity a stored item (plain Python values) is: the one whose table templates render its keys."""
    design = keys if keys is not None else spec.old_keys
    source = model if model is not None else spec.old
    names = [design.partition_key.name] + ([design.sort_key.name] if design.sort_key else [])
    for entity_keys in sorted(design.entities, key=lambda k: k.entity):
        if source.entity(entity_keys.entity) is None:
            continue
        templates = [entity_keys.table.partition_key] + ([entity_keys.table.sort_key or ""] if design.sort_key else [])
        try:
            rendered = [render_key(KeyTemplate.parse(t), item) for t in templates]
        except KeyTemplateError:
            continue
        if all(str(item.get(n)) == r for n, r in zip(names, rendered, strict=True)):
            return entity_keys.entity
    return None


def entity_attributes(spec: MigrationSpec, entity: str, item: Mapping[str, Any]) -> dict[str, Any]:
    """The item's own attributes (old derived keys dropped) plus the fills it lacks."""
    derived = derived_key_names(spec.old_keys, spec.old)
    values = {name: value for name, value in item.items() if name not in derived}
    for name, value in spec.fill_values(entity).items():
        values.setdefault(name, value)
    return values


def new_item(spec: MigrationSpec, entity: str, item: Mapping[str, Any]) -> dict[str, Any]:
    """The item as the NEW design stores it: its own attributes and fills, plus every NEW key it has."""
    attributes = entity_attributes(spec, entity, item)
    keys = item_keys(spec.new_keys, entity, attributes)
    numeric = {a.name for a in key_attributes(spec.new_keys) if a.type.value == "N"}
    return {**attributes, **{n: Decimal(v) if n in numeric else v for n, v in keys.items()}}


def primary_key(key_design: KeyDesign, item: Mapping[str, Any]) -> dict[str, Any]:
    names = [key_design.partition_key.name] + ([key_design.sort_key.name] if key_design.sort_key else [])
    return {name: item[name] for name in names}


def needs_values(spec: MigrationSpec) -> tuple[str, ...]:
    """`Entity.attribute` pairs the NEW keys of migrated entities read that the OLD entity lacks, with no fill."""
    missing = []
    for entity, action in spec.actions:
        old_entity, entity_keys = spec.old.entity(entity), next(
            (k for k in spec.new_keys.entities if k.entity == entity), None)
        if action is Action.SKIP or old_entity is None or entity_keys is None:
            continue
        read: set[str] = set()
        for templates in (entity_keys.table, *entity_keys.indexes.values()):
            read |= set(KeyTemplate.parse(templates.partition_key).attribute_names)
            if templates.sort_key:
                read |= set(KeyTemplate.parse(templates.sort_key).attribute_names)
        filled = set(spec.fill_values(entity))
        missing += [f"{entity}.{name}" for name in sorted(read)
                    if old_entity.attribute(name) is None and name not in filled]
    return tuple(missing)


# --- the plan's steps ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanOptions:
    write_rate_items_per_second: float = DEFAULT_WRITE_RATE_ITEMS_PER_SECOND
    grey_period_days: int = DEFAULT_GREY_PERIOD_DAYS
    fills: Mapping[str, Any] = field(default_factory=dict)


def plan_steps(spec: MigrationSpec, changes: tuple[Change, ...], grey_period_days: int) -> tuple[Step, ...]:
    """The ordered steps for the spec's mode, with the items each one touches (the models' current counts)."""
    in_place = [c for c in changes if c.classification is Classification.IN_PLACE
                and c.subject.value in ("index", "projection", "table_setting")]
    steps: list[Step] = []
    moved = [name for name, action in spec.actions if action is not Action.SKIP]
    items = sum(_count(spec.old, name) for name in moved)
    if spec.mode is Mode.NEW_TABLE:
        steps += _new_table_steps(spec, moved, items, grey_period_days)
        return _numbered(steps)
    for change in in_place:
        if change.kind.value != "removed":  # an index removed is dropped at the end, once no read uses it
            steps.append(Step(0, f"Apply {change.path}", "", f"{change.reason} ({change.before or 'none'} -> "
                              f"{change.after or 'none'})", checks=("DescribeTable shows the change ACTIVE",),
                              risk="low: the table stays online", rollback="apply the previous setting again"))
    if spec.mode is Mode.NONE:
        return _numbered(steps)
    steps.insert(0, Step(0, "Deploy writers of the NEW form", "", "the application writes every new or updated "
                         "item with the NEW keys and attributes, and reads both forms, before old items move",
                         entities=tuple(moved),
                         checks=("new items written since the deploy have the NEW keys",),
                         risk="application change: reads must accept both forms until the backfill ends",
                         rollback="deploy the previous version: old-form items are still readable"))
    verb = "Backfill" if spec.mode is Mode.BACKFILL else "Rewrite"
    how = ("UpdateItem SET of the NEW index keys and filled attributes, conditional on the item existing "
           "(a rerun writes the same values)" if spec.mode is Mode.BACKFILL else
           "TransactWriteItems: put under the NEW key (only if absent) and delete the OLD key (only if present), "
           "so no item is ever lost or doubled")
    steps.append(Step(0, f"{verb} existing items", "", f"parallel Scan segments, {how}; rate-limited, "
                      "resumable from its checkpoint", entities=tuple(moved), items_touched=items,
                      action=Action.UPDATE if spec.mode is Mode.BACKFILL else Action.MOVE,
                      checks=("items counted by key before = after (none lost, none doubled)",
                              "every access pattern of the NEW model passes on a rehearsal"),
                      risk="extra write load: throttling if the rate exceeds the table's capacity",
                      rollback="the OLD keys stay readable until the last step; rerun the script with the models "
                               "swapped to move items back" if spec.mode is Mode.REWRITE else
                               "REMOVE the new attributes (a backfill with the models swapped)"))
    steps.append(Step(0, "Switch reads and clean up", "", "the NEW access patterns read through the NEW keys; "
                      "drop indexes the NEW design no longer has", checks=("every NEW access pattern answers "
                      "like the oracle",), risk="low", rollback="switch reads back"))
    return _numbered(steps)


def _new_table_steps(spec: MigrationSpec, moved: list[str], items: int, grey_days: int) -> list[Step]:
    return [
        Step(0, "Create the shadow table", "1. shadow table and backfill", "CreateTable with the NEW key schema, "
             "LSIs and GSIs (the only moment an LSI can be added)", checks=("DescribeTable: ACTIVE, key schema "
             "and indexes as designed",), second_table=True, risk="none for the live table",
             rollback="delete the shadow table"),
        Step(0, "Start dual writes", "1. shadow table and backfill", "every application write goes to the OLD "
             "table, then through a retrying queue to the NEW one (a write that fails is retried, never dropped); "
             "started before the backfill so that it misses no write",
             entities=tuple(moved), dual_writes=True, second_table=True,
             checks=("the queue drains to zero", "no write in the dead-letter list"),
             risk="application change; a bug writes wrong items to the shadow table only",
             rollback="stop the dual writes; the OLD table is still the source of truth"),
        Step(0, "Backfill the shadow table", "1. shadow table and backfill", "parallel Scan segments of the OLD "
             "table; each item put under the NEW keys only if absent (never over a newer dual write); "
             "rate-limited, resumable from its checkpoint", entities=tuple(moved), items_touched=items,
             action=Action.COPY, dual_writes=True, second_table=True,
             checks=("items counted by key: OLD = NEW, none lost, none doubled",),
             risk="extra read load on the OLD table", rollback="delete the shadow table and start again"),
        Step(0, "Consistency checks over the grey period", "2. dual writes and grey period",
             f"for {grey_days} days, compare both tables item by item (transformed OLD = NEW) and the NEW "
             "access patterns against the oracle", entities=tuple(moved), dual_writes=True, second_table=True,
             checks=("0 missing, 0 extra, 0 different items", "every NEW access pattern passes"),
             risk="differences found late cost another backfill of the items concerned",
             rollback="fix and re-run the backfill for the differing keys"),
        Step(0, "Cut over", "3. cut-over", "reads and writes move to the NEW table; the OLD table becomes "
             "read-only (writes stopped, deletion protection on) and is kept until the retention ends",
             second_table=True, checks=("error and throttle rates of the NEW table at their baseline",),
             risk="the moment of switching: keep it small (a flag)", rollback="switch the flag back while the OLD "
             "table still receives the dual writes"),
    ]


def _numbered(steps: list[Step]) -> tuple[Step, ...]:
    from dataclasses import replace
    return tuple(replace(step, number=i) for i, step in enumerate(steps, start=1))


def _count(model: Model, entity: str) -> int:
    found = model.entity(entity)
    return found.item_count if found else 0


def plan_migration(old: Model, new: Model, old_keys: KeyDesign | None = None, new_keys: KeyDesign | None = None,
                   options: PlanOptions | None = None) -> Plan:
    options = options or PlanOptions()
    spec, changes = migration_spec(old, new, old_keys, new_keys, options.fills)
    return Plan(spec, changes, plan_steps(spec, changes, options.grey_period_days), needs_values(spec),
                options.grey_period_days)
