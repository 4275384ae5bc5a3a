"""The priced migration plan: for every step of `modeling.migration.plan`, the one-time capacity, its price in the
model's Region (on-demand and provisioned), how long it takes at a chosen write rate, and the extra monthly cost
while it runs (dual writes, a second table); as Markdown for the review and as JSON.

Units follow dynamodb-rules: a Scan reads the items' sizes added and rounded up to 4 KB, eventually consistent
at half a unit (§1.1, §1.2 Scan); a write is its size rounded up to 1 KB (§1.2); an UpdateItem the larger of
before and after (§1.2); a TransactWriteItems write counts twice on the base table, its index writes once (§2);
each index entry a write puts or deletes is one more write sized on the entry (§4.1); the read-back of every
migrated item before each checkpoint is a strongly consistent BatchGetItem read, each item rounded up to 4 KB on
its own and a key already gone still one unit (§1.1, §1.2 BatchGetItem). A provisioned step is
priced as the unit-hours it keeps busy: units / 3,600 (§0.2). Prices come from the Region's sheet
(`costs.pricing`); a Region without one shows "not available", never $0 or another Region's price.

The prices, the NEW table's usage and the design a model opens on are the cost engine's, which `modeling` never
imports: they come in as `MigrationPricing`, built by `costs.migration_prices.migration_pricing` and passed in by
the application layer (`studio.migration`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from modeling.design.sizing import Sizes, design_sizes
from modeling.dynamodb_rules import (
    EVENTUAL_READ_FACTOR,
    HOURS_PER_MONTH,
    TRANSACTION_FACTOR,
    read_unit_blocks,
    write_unit_blocks,
)
from modeling.markdown import markdown_literal
from modeling.migration.evolution import Classification
from modeling.migration.plan import Action, Plan, PlanOptions, Step, plan_migration
from modeling.model import KeyDesign, Model

TRANSACTION_WRITE_FACTOR = TRANSACTION_FACTOR  # doubles the base table's write only (modeling.dynamodb_rules)
NOT_AVAILABLE = "not available"
SECONDS_PER_HOUR = 3600  # a step's duration in hours (the unit-hours a step is priced at are the cost engine's)


@dataclass(frozen=True)
class StepUnits:
    """One-time units of a step per item and in total."""

    items: int
    read_units: Decimal  # RRU (on-demand) = RCU-seconds (provisioned), eventually consistent Scan
    write_units: Decimal  # WRU = WCU-seconds, base table and indexes
    readback_units: Decimal = Decimal(0)  # RRU = RCU-seconds, strongly consistent: the read-back of each item


def scan_read_units(items: int, item_bytes: int) -> Decimal:
    """A full Scan: the items' bytes added, rounded up to 4 KB once, half a unit per block (§1.2 Scan, §1.1)."""
    if items <= 0:
        return Decimal(0)
    return read_unit_blocks(items * item_bytes) * EVENTUAL_READ_FACTOR


def readback_read_units(action: Action, old_bytes: int, new_bytes: int) -> int:
    """The run's read-back of one migrated item (modeling.migration.run): a moved item's OLD key, gone by then;
    an updated item as it now is; a copy's OLD item and its NEW copy. Strongly consistent, per item (§1.2)."""
    if action is Action.MOVE:
        return read_unit_blocks(0)
    if action is Action.UPDATE:
        return read_unit_blocks(new_bytes)
    return read_unit_blocks(old_bytes) + read_unit_blocks(new_bytes)


def update_write_units(old_bytes: int, new_bytes: int, entry_writes: tuple[int, ...]) -> int:
    """UpdateItem in place: the larger of before and after (§1.2), plus each index entry it puts or deletes."""
    return write_unit_blocks(max(old_bytes, new_bytes)) + sum(write_unit_blocks(b) for b in entry_writes)


def move_write_units(old_bytes: int, new_bytes: int, old_entries: tuple[int, ...], new_entries: tuple[int, ...]) -> int:
    """Put under the new key + delete the old, in one transaction: 2x on the table (§2), 1x per index entry."""
    table = TRANSACTION_WRITE_FACTOR * (write_unit_blocks(new_bytes) + write_unit_blocks(old_bytes))
    return table + sum(write_unit_blocks(b) for b in (*old_entries, *new_entries))


def copy_write_units(new_bytes: int, new_entries: tuple[int, ...]) -> int:
    """A conditional put into the new table (§1.2), plus one write per index entry it creates (§4.1)."""
    return write_unit_blocks(new_bytes) + sum(write_unit_blocks(b) for b in new_entries)


# --- what pricing takes from the cost engine --------------------------------------------------------------------


class PriceLine(Protocol):
    """One priced quantity (`costs.pricing.CostLineItem`): `quantity` `unit`s cost `monthly_cost_usd` (None: the
    price is not available)."""

    @property
    def name(self) -> str: ...

    @property
    def unit(self) -> str: ...

    @property
    def quantity(self) -> Decimal: ...

    @property
    def monthly_cost_usd(self) -> Decimal | None: ...


@dataclass(frozen=True)
class StepPrices:
    """A step's priced lines: one-time, on-demand and provisioned, and the extra monthly cost while it runs."""

    on_demand: tuple[PriceLine, ...] = ()
    provisioned: tuple[PriceLine, ...] = ()
    extra_monthly_on_demand: tuple[PriceLine, ...] = ()
    extra_monthly_provisioned: tuple[PriceLine, ...] = ()


@dataclass(frozen=True)
class PlanPrices:
    """One plan's prices in one Region: the sheet's Region, its note (empty for a shipped sheet), and each step's
    lines from its units (the NEW table's dual writes and storage included)."""

    region: str
    note: str
    step: Callable[[Step, StepUnits], StepPrices]


@dataclass(frozen=True)
class MigrationPricing:
    """What pricing a migration plan takes from the cost engine (`costs.migration_prices.migration_pricing`).

    `default_keys`: the design every page opens on (the ranking's first: the model's own, else the proposal), None
    when there is none; `plan_prices`: the plan's prices in the NEW model's Region (or the sheet the pricing was
    built with); `round_to_cent`: money to the cent, as the cost engine rounds it."""

    default_keys: Callable[[Model], KeyDesign | None]
    plan_prices: Callable[[Plan], PlanPrices]
    round_to_cent: Callable[[Decimal], Decimal]


# --- the priced plan ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PricedStep:
    step: Step
    units: StepUnits
    duration_hours: Decimal
    lines_on_demand: tuple[PriceLine, ...]
    lines_provisioned: tuple[PriceLine, ...]
    extra_monthly_on_demand: tuple[PriceLine, ...]
    extra_monthly_provisioned: tuple[PriceLine, ...]

    @property
    def one_time_on_demand_usd(self) -> Decimal | None:
        return _total(self.lines_on_demand)

    @property
    def one_time_provisioned_usd(self) -> Decimal | None:
        return _total(self.lines_provisioned)

    @property
    def extra_monthly_on_demand_usd(self) -> Decimal | None:
        return _total(self.extra_monthly_on_demand)

    @property
    def extra_monthly_provisioned_usd(self) -> Decimal | None:
        return _total(self.extra_monthly_provisioned)


def _total(lines: tuple[PriceLine, ...]) -> Decimal | None:
    """The sum of the lines, None (not available) when any price is missing."""
    if any(line.monthly_cost_usd is None for line in lines):
        return None
    return sum((line.monthly_cost_usd for line in lines if line.monthly_cost_usd is not None), Decimal(0))


@dataclass(frozen=True)
class PricedPlan:
    plan: Plan
    region: str
    sheet_note: str
    write_rate_items_per_second: float
    steps: tuple[PricedStep, ...]
    round_to_cent: Callable[[Decimal], Decimal]  # the cost engine's rounding of money (MigrationPricing)

    def one_time_usd(self, provisioned: bool) -> Decimal | None:
        values = [s.one_time_provisioned_usd if provisioned else s.one_time_on_demand_usd for s in self.steps]
        return None if any(v is None for v in values) else sum((v for v in values if v is not None), Decimal(0))

    def extra_monthly_usd(self, provisioned: bool) -> Decimal | None:
        """The extra monthly cost while the migration runs: the largest of its steps' (they overlap, not add)."""
        values = [s.extra_monthly_provisioned_usd if provisioned else s.extra_monthly_on_demand_usd
                  for s in self.steps if s.extra_monthly_on_demand]
        return None if any(v is None for v in values) else max((v for v in values if v is not None),
                                                                default=Decimal(0))

    def grey_period_usd(self, provisioned: bool) -> Decimal | None:
        """The extra monthly cost over the grey period (days x 24 h of a 730-hour month, §0.2)."""
        monthly = self.extra_monthly_usd(provisioned)
        if monthly is None or self.plan.spec.mode.value != "new_table":
            return None if monthly is None else Decimal(0)
        return self.round_to_cent(monthly * Decimal(self.plan.grey_period_days * 24) / HOURS_PER_MONTH)

    @property
    def duration_hours(self) -> Decimal:
        return sum((s.duration_hours for s in self.steps), Decimal(0))


def price_plan(old: Model, new: Model, old_keys: KeyDesign | None = None, new_keys: KeyDesign | None = None,
               options: PlanOptions | None = None, *, pricing: MigrationPricing) -> PricedPlan:
    """The plan with every step priced by `pricing` in the NEW model's Region (where the migrated table lives).

    A model's keys default to the design every page opens on (`pricing.default_keys`: its own, else the
    proposal)."""
    options = options or PlanOptions()
    plan = plan_migration(old, new, _default_keys(old, old_keys, pricing), _default_keys(new, new_keys, pricing),
                          options)
    spec = plan.spec
    old_sizes, new_sizes = design_sizes(old, spec.old_keys), design_sizes(new, spec.new_keys)
    prices = pricing.plan_prices(plan)
    steps = tuple(_price_step(plan, step, old_sizes, new_sizes, prices, options.write_rate_items_per_second)
                  for step in plan.steps)
    return PricedPlan(plan, prices.region, prices.note, options.write_rate_items_per_second, steps,
                      pricing.round_to_cent)


def _default_keys(model: Model, keys: KeyDesign | None, pricing: MigrationPricing) -> KeyDesign | None:
    if keys is not None:
        return keys
    return pricing.default_keys(model)  # None, no design at all: the planner says what is missing


def _price_step(plan: Plan, step: Step, old_sizes: Sizes, new_sizes: Sizes, prices: PlanPrices,
                rate: float) -> PricedStep:
    units = step_units(plan, step, old_sizes, new_sizes)
    duration = Decimal(units.items) / Decimal(repr(rate)) / SECONDS_PER_HOUR if units.items else Decimal(0)
    lines = prices.step(step, units)
    return PricedStep(step, units, duration, lines.on_demand, lines.provisioned, lines.extra_monthly_on_demand,
                      lines.extra_monthly_provisioned)


def step_units(plan: Plan, step: Step, old_sizes: Sizes, new_sizes: Sizes) -> StepUnits:
    """The one-time units of a step that touches items (0 for the others): Scan reads, every write, the
    read-back."""
    if step.action is Action.SKIP or not step.items_touched:
        return StepUnits(0, Decimal(0), Decimal(0))
    spec = plan.spec
    writes, items, readback = 0, 0, 0
    # the Scan reads the whole table, the items of every entity, whichever of them it changes (§1.2 Scan)
    stored = [(e.item_count, old_sizes.item_bytes(e.name)) for e in spec.old.entities
              if any(k.entity == e.name for k in spec.old_keys.entities)]
    reads = scan_read_units(1, sum(count * size for count, size in stored)) if stored else Decimal(0)
    for entity in step.entities:
        found = spec.old.entity(entity)
        count = found.item_count if found else 0
        old_bytes, new_bytes = old_sizes.item_bytes(entity), new_sizes.item_bytes(entity)
        old_entries = _entries(spec.old_keys, entity, old_sizes)
        new_entries = _entries(spec.new_keys, entity, new_sizes)
        action = spec.action(entity)
        if action is Action.UPDATE:
            per_item = update_write_units(old_bytes, new_bytes, _backfilled_entries(plan, entity, old_sizes,
                                                                                     new_sizes))
        elif action is Action.MOVE:
            per_item = move_write_units(old_bytes, new_bytes, tuple(old_entries.values()),
                                        tuple(new_entries.values()))
        else:
            per_item = copy_write_units(new_bytes, tuple(new_entries.values()))
        writes += count * per_item
        readback += count * readback_read_units(action, old_bytes, new_bytes)
        items += count
    return StepUnits(items, reads, Decimal(writes), Decimal(readback))


def _entries(key_design: KeyDesign, entity: str, sizes: Sizes) -> dict[str, int]:
    """Index -> entry bytes of the indexes the entity's items are in (every item assumed in: not sparse)."""
    found = next((k for k in key_design.entities if k.entity == entity), None)
    return {index: sizes.entry_bytes(index, entity) for index in sorted(found.indexes)} if found else {}


def _backfilled_entries(plan: Plan, entity: str, old_sizes: Sizes, new_sizes: Sizes) -> tuple[int, ...]:
    """Index entries a backfill writes: 1 put per index entered, 1 delete per index left, 2 for a key change."""
    writes: list[int] = []
    for change in plan.changes:
        if change.entity != entity or not change.index or change.classification is not Classification.BACKFILL:
            continue
        if change.kind.value in ("added", "modified"):
            writes.append(new_sizes.entry_bytes(change.index, entity))
        if change.kind.value in ("removed", "modified"):
            writes.append(old_sizes.entry_bytes(change.index, entity))
    return tuple(writes)


# --- output --------------------------------------------------------------------------------------------------


def _usd(value: Decimal | None, priced: PricedPlan) -> str:
    return NOT_AVAILABLE if value is None else f"${priced.round_to_cent(value):,.2f}"


def _hours(value: Decimal) -> str:
    if not value:
        return "-"
    minutes = math.ceil(value * 60)
    return f"{minutes} min" if minutes < 120 else f"{value:.1f} h"


def plan_json(priced: PricedPlan) -> dict[str, Any]:
    plan = priced.plan
    return {
        "mode": plan.spec.mode.value, "region": priced.region,
        "write_rate_items_per_second": priced.write_rate_items_per_second,
        "grey_period_days": plan.grey_period_days, "needs_values": list(plan.needs_values),
        "price_note": priced.sheet_note,
        "totals": {"one_time_usd": {"on_demand": _json_usd(priced.one_time_usd(False), priced),
                                    "provisioned": _json_usd(priced.one_time_usd(True), priced)},
                   "extra_monthly_usd": {"on_demand": _json_usd(priced.extra_monthly_usd(False), priced),
                                         "provisioned": _json_usd(priced.extra_monthly_usd(True), priced)},
                   "grey_period_usd": {"on_demand": _json_usd(priced.grey_period_usd(False), priced),
                                       "provisioned": _json_usd(priced.grey_period_usd(True), priced)},
                   "duration_hours": str(priced.duration_hours.quantize(Decimal("0.001")))},
        "changes": [c.as_dict() for c in plan.changes],
        "steps": [{
            "number": s.step.number, "title": s.step.title, "phase": s.step.phase, "what": s.step.what,
            "entities": list(s.step.entities), "items_touched": s.units.items or s.step.items_touched,
            "read_units": str(s.units.read_units), "readback_read_units": str(s.units.readback_units),
            "write_units": str(s.units.write_units),
            "one_time_usd": {"on_demand": _json_usd(s.one_time_on_demand_usd, priced),
                             "provisioned": _json_usd(s.one_time_provisioned_usd, priced)},
            "duration_hours": str(s.duration_hours.quantize(Decimal("0.001"))),
            "extra_monthly_usd": {"on_demand": _json_usd(s.extra_monthly_on_demand_usd, priced),
                                  "provisioned": _json_usd(s.extra_monthly_provisioned_usd, priced)},
            "checks": list(s.step.checks), "risk": s.step.risk, "rollback": s.step.rollback,
        } for s in priced.steps],
    }


def _json_usd(value: Decimal | None, priced: PricedPlan) -> str:
    return NOT_AVAILABLE if value is None else str(priced.round_to_cent(value))


def plan_json_text(priced: PricedPlan) -> str:
    return json.dumps(plan_json(priced), indent=2, sort_keys=True) + "\n"


def plan_markdown(priced: PricedPlan) -> str:
    plan = priced.plan
    spec = plan.spec
    lines = [f"# Migration plan: {spec.old.name} -> {spec.new.name}", "",
             f"Mode: **{spec.mode.value.replace('_', ' ')}**. Prices: {priced.region}. Write rate: "
             f"{priced.write_rate_items_per_second:,g} items/s.", ""]
    if priced.sheet_note:
        lines += [f"> {priced.sheet_note}", ""]
    lines += ["| Total | On-demand | Provisioned |", "|---|---|---|",
              f"| One-time capacity | {_usd(priced.one_time_usd(False), priced)} | "
              f"{_usd(priced.one_time_usd(True), priced)} |",
              f"| Extra per month while it runs | {_usd(priced.extra_monthly_usd(False), priced)} | "
              f"{_usd(priced.extra_monthly_usd(True), priced)} |"]
    if spec.mode.value == "new_table":
        lines.append(f"| Extra over the {plan.grey_period_days}-day grey period | "
                     f"{_usd(priced.grey_period_usd(False), priced)} | {_usd(priced.grey_period_usd(True), priced)} |")
    lines += [f"| Item-moving time at {priced.write_rate_items_per_second:,g} items/s | "
              f"{_hours(priced.duration_hours)} | |", ""]
    if plan.needs_values:
        lines += ["> Old items lack attributes the NEW keys read: " + ", ".join(plan.needs_values)
                  + ". Give each a value (`--fill Entity.attribute=value`) or those items stay out of the new "
                  "keys.", ""]
    lines += ["## Changes", "", "| Change | Path | Before | After | Needs | Why | Source |",
              "|---|---|---|---|---|---|---|"]
    for c in plan.changes:
        lines.append("| " + " | ".join(markdown_literal(x) for x in (
            f"{c.subject.value} {c.kind.value}", c.path, c.before, c.after, c.classification.label, c.reason,
            c.source)) + " |")
    if not plan.changes:
        lines.append("| none | | | | | | |")
    lines += ["", "## Steps", "", "| # | Phase | Step | Items | One-time on-demand | One-time provisioned | Duration "
              "| Extra monthly (on-demand / provisioned) |", "|---|---|---|---|---|---|---|---|"]
    for s in priced.steps:
        lines.append("| " + " | ".join(markdown_literal(x) for x in (
            str(s.step.number), s.step.phase or "-", s.step.title, f"{s.units.items:,}" if s.units.items else "-",
            _usd(s.one_time_on_demand_usd, priced) if s.lines_on_demand else "-",
            _usd(s.one_time_provisioned_usd, priced) if s.lines_provisioned else "-", _hours(s.duration_hours),
            f"{_usd(s.extra_monthly_on_demand_usd, priced)} / {_usd(s.extra_monthly_provisioned_usd, priced)}"
            if s.extra_monthly_on_demand else "-")) + " |")
    for s in priced.steps:
        lines += ["", f"### {s.step.number}. {s.step.title}", "", s.step.what, ""]
        if s.units.items:
            lines.append(f"- Units: {s.units.read_units:,} read (Scan), {s.units.readback_units:,} read "
                         f"(read-back, strongly consistent), {s.units.write_units:,} write ({s.units.items:,} items)")
        for line in (*s.lines_on_demand, *s.lines_provisioned, *s.extra_monthly_on_demand):
            lines.append(f"- {line.name}: {line.quantity:,} x {line.unit} = {_usd(line.monthly_cost_usd, priced)}")
        lines += [f"- Check: {check}" for check in s.step.checks]
        lines += [f"- Risk: {s.step.risk}", f"- Roll back: {s.step.rollback}"]
    return "\n".join(lines) + "\n"
