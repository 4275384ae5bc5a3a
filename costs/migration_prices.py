"""The prices of a migration plan (`modeling.migration.pricing`, which never imports `costs`): each step's one-time
capacity at the Region's prices, on-demand and provisioned, and the extra monthly cost while it runs (dual writes,
a second table), with the design a model opens on.

`migration_pricing` builds the plan's `MigrationPricing`; the application layer (`studio.migration`) passes it in.
A provisioned step is priced as the unit-hours it keeps busy: units / 3,600 (§0.2). Prices come from the Region's
sheet (`costs.pricing`); a Region without one shows "not available", never $0 or another Region's price.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Any

from costs.capacity import capacity_profile, table_usage
from costs.design_ranking import propose
from costs.pricing import (
    HOURS_PER_MONTH,
    SECONDS_PER_HOUR,
    CostLineItem,
    PriceItem,
    PriceSheet,
    line_item,
    price_sheet_for,
    round_to_cent,
)
from costs.usage import BYTES_PER_GB
from modeling.design.generator import explicit_design
from modeling.migration.plan import Plan, Step
from modeling.migration.pricing import MigrationPricing, PlanPrices, StepPrices, StepUnits
from modeling.model import KeyDesign, Model, TableClass


def migration_pricing(sheet: PriceSheet | None = None) -> MigrationPricing:
    """The cost engine's pricing of a migration, at `sheet`'s prices (None: the NEW model's Region's sheet)."""
    return MigrationPricing(default_keys, partial(plan_prices, sheet), round_to_cent)


def default_keys(model: Model) -> KeyDesign | None:
    """The design every page opens on (`propose`'s first: its own, else the proposal); None when there is none."""
    designs = propose(model)
    return designs[0].key_design if designs else None


def plan_prices(sheet: PriceSheet | None, plan: Plan) -> PlanPrices:
    """The plan's prices in the NEW model's Region (where the migrated table lives), unless `sheet` is given."""
    spec = plan.spec
    sheet = sheet or price_sheet_for(spec.new.table.region)
    dual_write_units = _dual_write_units_per_second(spec.new, spec.new_keys)
    second_table_bytes = _storage_bytes(spec.new, spec.new_keys)
    note = "" if sheet.is_shipped else sheet.notes
    return PlanPrices(sheet.region, note, partial(_price_step, sheet, spec.new.table.table_class, dual_write_units,
                                                  second_table_bytes))


def _price_step(sheet: PriceSheet, table_class: TableClass, dual_write_units: Decimal, second_table_bytes: int,
                step: Step, units: StepUnits) -> StepPrices:
    on_demand: list[CostLineItem] = []
    provisioned: list[CostLineItem] = []
    if units.read_units:
        on_demand.append(line_item("Scan reads (RRU)", sheet.price(PriceItem.ON_DEMAND_READ_REQUEST_UNITS,
                                                                    table_class), units.read_units))
        provisioned.append(line_item("Scan reads (RCU-hours)", sheet.price(
            PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, table_class), units.read_units / SECONDS_PER_HOUR))
    if units.readback_units:
        on_demand.append(line_item("Read-back reads (RRU)", sheet.price(PriceItem.ON_DEMAND_READ_REQUEST_UNITS,
                                                                         table_class), units.readback_units))
        provisioned.append(line_item("Read-back reads (RCU-hours)", sheet.price(
            PriceItem.PROVISIONED_READ_CAPACITY_UNIT_HOURS, table_class), units.readback_units / SECONDS_PER_HOUR))
    if units.write_units:
        on_demand.append(line_item("Writes (WRU)", sheet.price(PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, table_class),
                                   units.write_units))
        provisioned.append(line_item("Writes (WCU-hours)", sheet.price(
            PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, table_class), units.write_units / SECONDS_PER_HOUR))
    extra_od: list[CostLineItem] = []
    extra_prov: list[CostLineItem] = []
    if step.second_table:
        storage = line_item("Second table storage (GB-month)", sheet.price(PriceItem.STORAGE_GB_MONTH, table_class),
                            Decimal(second_table_bytes) / BYTES_PER_GB)
        extra_od.append(storage)
        extra_prov.append(storage)
    if step.dual_writes and dual_write_units:
        monthly_units = dual_write_units * HOURS_PER_MONTH * SECONDS_PER_HOUR
        extra_od.append(line_item("Dual writes (WRU per month)", sheet.price(
            PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS, table_class), monthly_units))
        extra_prov.append(line_item("Dual writes (WCU-hours per month, at the average rate)", sheet.price(
            PriceItem.PROVISIONED_WRITE_CAPACITY_UNIT_HOURS, table_class), dual_write_units * HOURS_PER_MONTH))
    return StepPrices(tuple(on_demand), tuple(provisioned), tuple(extra_od), tuple(extra_prov))


def _design(model: Model, key_design: KeyDesign) -> Any:
    design = explicit_design(model.model_copy(update={"key_design": key_design}))
    if design is None:  # pragma: no cover - a key design is given
        raise ValueError("no design")
    return design


def _dual_write_units_per_second(model: Model, key_design: KeyDesign) -> Decimal:
    """The NEW table's average write units per second (table and GSIs): what dual writes add."""
    design = _design(model, key_design)
    usage = table_usage(model, design, capacity_profile(model, design))
    total = sum(sum(r.write_units_per_second) / len(r.write_units_per_second)
                for r in (usage.table, *usage.indexes) if r.write_units_per_second)
    return Decimal(repr(round(total, 6)))


def _storage_bytes(model: Model, key_design: KeyDesign) -> int:
    design = _design(model, key_design)
    usage = table_usage(model, design, capacity_profile(model, design))
    return usage.table.storage_bytes + sum(r.storage_bytes for r in usage.indexes)
