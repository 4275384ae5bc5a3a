"""Migrations: the priced plan from an OLD model to a NEW one, and its rehearsal on the endpoint."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from costs.migration_prices import migration_pricing
from costs.preview_units import CAPACITY_RULES
from costs.pricing import PriceSheet
from modeling.endpoint.adapter import Endpoint
from modeling.migration.plan import DEFAULT_GREY_PERIOD_DAYS, DEFAULT_WRITE_RATE_ITEMS_PER_SECOND, PlanOptions
from modeling.migration.pricing import PricedPlan, plan_json_text, plan_markdown, price_plan
from modeling.migration.rehearsal import DEFAULT_REHEARSAL_ITEMS, DUAL_WRITES, RehearsalReport, rehearse
from modeling.migration.script import migration_script
from modeling.model import KeyDesign, Model

__all__ = ["DEFAULT_GREY_PERIOD_DAYS", "DEFAULT_WRITE_RATE_ITEMS_PER_SECOND", "MigrationRequest", "PlanOptions",
           "PricedPlan", "RehearsalReport", "RehearsalRequest", "migration_script", "plan_json_text", "plan_markdown",
           "plan_migration", "rehearse_migration"]


@dataclass(frozen=True)
class MigrationRequest:
    """From `old` to `new`; a model's keys default to the design every page opens on."""

    old: Model
    new: Model
    old_keys: KeyDesign | None = None
    new_keys: KeyDesign | None = None
    options: PlanOptions | None = None
    sheet: PriceSheet | None = None  # None: the NEW model's Region's sheet


def plan_migration(request: MigrationRequest) -> PricedPlan:
    """The ordered plan with every step priced (`modeling.migration.pricing.price_plan`) at the cost engine's prices
    (`costs.migration_prices`)."""
    return price_plan(request.old, request.new, request.old_keys, request.new_keys, request.options,
                      pricing=migration_pricing(request.sheet))


@dataclass(frozen=True)
class RehearsalRequest:
    """The migration to rehearse, and where: tables named from `namespace` and `slug` on `endpoint`."""

    migration: MigrationRequest
    endpoint: Endpoint
    namespace: str
    slug: str
    checkpoint: Path | None = None
    fills: dict[str, Any] | None = None
    total_items: int = DEFAULT_REHEARSAL_ITEMS
    dual_writes: int = DUAL_WRITES
    workspace_root: Path | None = None
    keep_tables: bool = False


def rehearse_migration(request: RehearsalRequest) -> RehearsalReport:
    """Run the migration script on seeded data and verify the result (`modeling.migration.rehearsal.rehearse`), the
    oracle's run measured by the cost engine's units (`costs.preview_units`)."""
    migration = request.migration
    return rehearse(migration.old, migration.new, request.endpoint, request.namespace, request.slug,
                    request.checkpoint, migration.old_keys, migration.new_keys, request.fills, request.total_items,
                    request.dual_writes, request.workspace_root, request.keep_tables, rules=CAPACITY_RULES)
