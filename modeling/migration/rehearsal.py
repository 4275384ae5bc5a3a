"""Rehearsing a migration on the preview endpoint: load sample data with the OLD design, migrate it with the
script's own code (`modeling.migration.run`), then check that no item was lost or doubled (counted by key) and
that every access pattern of the NEW model passes the oracle on the migrated data.

The oracle's data is the OLD sample data transformed in plain Python (the NEW keys rendered from each item's
attributes and fills), never read back from the migrated table, so a lost or mis-keyed item shows. Only tables
this installation and session created are written to (modeling.preview.ownership): the OLD preview table
before any UpdateTable or item write, both tables after every page.

The oracle's run is the preview's (`modeling.preview.run`), which measures each request with the cost engine's
units: they come in as `CapacityRules` (`modeling.preview.measured`), passed in by `studio.migration`.
"""

from __future__ import annotations

import time
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from modeling.design.generator import explicit_design
from modeling.design.plans import Design
from modeling.endpoint.adapter import Endpoint, dynamodb_client
from modeling.errors import ModelingError
from modeling.migration.plan import (
    Action,
    MigrationSpec,
    Mode,
    entity_attributes,
    migration_spec,
    new_item,
    primary_key,
)
from modeling.migration.run import (
    Consistency,
    DualWriter,
    RunOptions,
    RunReport,
    apply_index_changes,
    check_consistency,
    key_text,
    keys_by_form,
    run_migration,
)
from modeling.model import KeyDesign, Model
from modeling.preview.dataset import PreviewData, StoredItem
from modeling.preview.measured import CapacityRules
from modeling.preview.ownership import owned_identity
from modeling.preview.run import PreviewRun, run_preview
from modeling.preview.session import PreviewSetup, load_preview, load_workers, preview_setup
from modeling.preview.tables import (
    PREVIEW_PROVISIONED_UNITS,
    create_preview_table,
    delete_preview_table,
    ensure_owned,
    preview_table,
)

DEFAULT_REHEARSAL_ITEMS = 300
DUAL_WRITES = 10  # spare items the rehearsal writes through the dual writer (half before, half after the backfill)


@dataclass(frozen=True)
class Rehearsal:
    """The prepared rehearsal: the OLD table loaded, the NEW table (or the same one) ready, the spec."""

    spec: MigrationSpec
    old_setup: PreviewSetup
    new_setup: PreviewSetup
    data: PreviewData  # what was loaded with the OLD design
    dual_written: tuple[StoredItem, ...] = ()

    @property
    def source_table(self) -> str:
        return self.old_setup.table.name

    @property
    def target_table(self) -> str:
        return self.new_setup.table.name

    def run_options(self, checkpoint: Path | None, segments: int = 4, items_per_second: float = 10_000.0,
                    page_items: int = 25) -> RunOptions:
        return RunOptions(self.source_table, self.target_table, segments, page_items, items_per_second, checkpoint,
                          load_workers(self.old_setup.endpoint))


@dataclass(frozen=True)
class RehearsalReport:
    mode: Mode
    items_before: int  # items on the OLD table after loading (and the dual writes)
    items_after: int  # items on the table the NEW design reads
    items_expected: int
    lost: int  # expected keys the table lacks
    duplicated: int  # keys found more than once, or not expected at all (an OLD copy left behind)
    patterns_passed: int
    patterns_total: int
    failed: tuple[str, ...]
    run: RunReport | None
    consistency: Consistency | None
    seconds: float

    @property
    def passed(self) -> bool:
        consistent = self.consistency is None or self.consistency.consistent
        return not self.lost and not self.duplicated and not self.failed and consistent


def _design(model: Model, key_design: KeyDesign) -> Design:
    design = explicit_design(model.model_copy(update={"key_design": key_design}))
    if design is None:  # pragma: no cover - a key design is always given
        raise ModelingError("no design")
    return design


def prepare_rehearsal(old: Model, new: Model, endpoint: Endpoint, namespace: str, slug: str,
                      old_keys: KeyDesign | None = None, new_keys: KeyDesign | None = None,
                      fills: dict[str, Any] | None = None, total_items: int = DEFAULT_REHEARSAL_ITEMS,
                      seed: int = 42, workspace_root: Path | None = None) -> Rehearsal:
    """Load the OLD sample data and make the NEW side ready (UpdateTable, or a new table of this owner)."""
    spec, _ = migration_spec(old, new, old_keys, new_keys, fills)
    old_model = spec.old.model_copy(update={"key_design": spec.old_keys})
    new_model = spec.new.model_copy(update={"key_design": spec.new_keys})
    old_setup = preview_setup(old_model, _design(old_model, spec.old_keys), endpoint, namespace, f"{slug}-old",
                              total_items, seed, workspace_root)
    client = dynamodb_client(endpoint)
    table = preview_table(namespace, f"{slug}-new") if spec.mode is Mode.NEW_TABLE else old_setup.table
    # both names before anything is created: a foreign NEW table refused after the load left the OLD one behind
    for name in dict.fromkeys((old_setup.table.name, table.name)):
        ensure_owned(client, name, old_setup.owner)  # ForeignTableError for a table someone else made
    data, report = load_preview(old_setup)
    try:
        if not report.complete:
            raise ModelingError(f"the OLD sample data did not load in full ({report.items_counted} of "
                                f"{report.items_expected}); rehearse again")
        if spec.mode is Mode.NEW_TABLE:
            create_preview_table(client, table, new_model.table, spec.new_keys, old_setup.owner)
        else:
            _guard(client, old_setup, (old_setup.table.name,))()
            apply_index_changes(client, table.name, spec, new_model.table.billing_mode.value,
                                PREVIEW_PROVISIONED_UNITS)
    except Exception:
        with suppress(ModelingError):  # the first error is the one to report
            delete_preview_table(client, old_setup.table, old_setup.owner)  # no Rehearsal holds it to clean up
        raise
    new_setup = replace(old_setup, model=new_model, design=_design(new_model, spec.new_keys), table=table)
    return Rehearsal(spec, old_setup, new_setup, data)


def _guard(client: Any, setup: PreviewSetup, tables: tuple[str, ...]) -> Any:
    def check() -> None:
        for name in dict.fromkeys(tables):
            if owned_identity(client, name, setup.owner) is None:
                raise ModelingError(f"the table {name} is gone; rehearse again")
    return check


def migrate(rehearsal: Rehearsal, client: Any, checkpoint: Path | None, segments: int = 4,
            items_per_second: float = 10_000.0) -> RunReport:
    """The script's run, guarded: both tables must stay this owner's own (ForeignTableError otherwise)."""
    guard = _guard(dynamodb_client(rehearsal.old_setup.endpoint), rehearsal.old_setup,
                   (rehearsal.source_table, rehearsal.target_table))
    return run_migration(client, rehearsal.spec, rehearsal.run_options(checkpoint, segments, items_per_second),
                         before_write=guard)


def dual_write(rehearsal: Rehearsal, client: Any, count: int) -> Rehearsal:
    """The application's writes during the migration: `count` new items through the dual writer, drained."""
    spec = rehearsal.spec
    used = {id(item) for item in rehearsal.dual_written}
    moving = {name for name, action in spec.actions if action is not Action.SKIP}
    spares = [s for s in rehearsal.data.spares if s.entity in moving and id(s) not in used][:count]
    writer = DualWriter(client, spec, rehearsal.source_table, rehearsal.target_table)
    for spare in spares:
        writer.put(spare.entity, spare.attributes)
    writer.drain()
    return replace(rehearsal, dual_written=(*rehearsal.dual_written, *spares))


def expected_data(rehearsal: Rehearsal) -> PreviewData:
    """The OLD data (and the dual writes) as the NEW design stores it, worked out without the endpoint."""
    spec = rehearsal.spec
    written = {id(s) for s in rehearsal.dual_written}

    def transformed(item: StoredItem) -> StoredItem | None:
        if spec.new.entity(item.entity) is None:
            return None
        if spec.mode is Mode.NEW_TABLE and spec.action(item.entity) is Action.SKIP:
            return None  # not copied to the new table
        full = new_item(spec, item.entity, item.full_item)
        own = entity_attributes(spec, item.entity, item.full_item)
        return StoredItem(item.entity, own, {k: v for k, v in full.items() if k not in own})

    loaded = [t for i in (*rehearsal.data.items, *rehearsal.dual_written) if (t := transformed(i)) is not None]
    spares = [t for i in rehearsal.data.spares if id(i) not in written and (t := transformed(i)) is not None]
    return replace(rehearsal.data, model_name=spec.new.name, items=tuple(loaded), spares=tuple(spares))


def verify(rehearsal: Rehearsal, run: RunReport | None = None, seconds: float = 0.0,
           consistency: Consistency | None = None, *, rules: CapacityRules) -> RehearsalReport:
    """Count by key (none lost, none doubled), then run every NEW access pattern against the oracle (each request
    measured by `rules`)."""
    client = dynamodb_client(rehearsal.old_setup.endpoint)
    spec = rehearsal.spec
    data = expected_data(rehearsal)
    expected = Counter(key_text(primary_key(spec.new_keys, i.full_item)) for i in data.items)
    found = Counter(keys_by_form(client, spec, rehearsal.target_table, spec.new_keys, spec.new))
    lost = sum((expected - found).values())
    duplicated = sum((found - expected).values())
    before = len(keys_by_form(client, spec, rehearsal.source_table, spec.old_keys, spec.old))
    report = run_preview(PreviewRun(rehearsal.new_setup, data), rules)
    return RehearsalReport(spec.mode, before, sum(found.values()), sum(expected.values()), lost, duplicated,
                           report.passed, len(report.results), report.failed, run, consistency, seconds)


def cleanup(rehearsal: Rehearsal) -> None:
    """Delete the rehearsal's tables (only ever this owner's own)."""
    client = dynamodb_client(rehearsal.old_setup.endpoint)
    tables = {setup.table.name: setup for setup in (rehearsal.old_setup, rehearsal.new_setup)}
    for _, setup in sorted(tables.items()):
        delete_preview_table(client, setup.table, setup.owner)


def rehearse(old: Model, new: Model, endpoint: Endpoint, namespace: str, slug: str, checkpoint: Path | None = None,
             old_keys: KeyDesign | None = None, new_keys: KeyDesign | None = None,
             fills: dict[str, Any] | None = None, total_items: int = DEFAULT_REHEARSAL_ITEMS,
             dual_writes: int = DUAL_WRITES, workspace_root: Path | None = None,
             keep_tables: bool = False, *, rules: CapacityRules) -> RehearsalReport:
    """The whole rehearsal. A new table also rehearses phase 2: dual writes before and after the backfill,
    drained through the retrying queue, then the consistency check of both tables (the oracle's run measured by
    `rules`). The tables are deleted afterwards unless `keep_tables`."""
    rehearsal = prepare_rehearsal(old, new, endpoint, namespace, slug, old_keys, new_keys, fills, total_items,
                                  workspace_root=workspace_root)
    try:
        return _rehearse(rehearsal, endpoint, checkpoint, dual_writes, rules)
    finally:
        if not keep_tables:
            cleanup(rehearsal)


def _rehearse(rehearsal: Rehearsal, endpoint: Endpoint, checkpoint: Path | None, dual_writes: int,
              rules: CapacityRules) -> RehearsalReport:
    client = dynamodb_client(endpoint)
    started = time.perf_counter()
    if rehearsal.spec.mode is Mode.NEW_TABLE:
        rehearsal = dual_write(rehearsal, client, dual_writes // 2)
    run = migrate(rehearsal, client, checkpoint)
    consistency = None
    if rehearsal.spec.mode is Mode.NEW_TABLE:
        rehearsal = dual_write(rehearsal, client, dual_writes - dual_writes // 2)
        consistency = check_consistency(client, rehearsal.spec, rehearsal.source_table, rehearsal.target_table)
    seconds = time.perf_counter() - started
    return verify(rehearsal, run, seconds, consistency, rules=rules)


def report_lines(report: RehearsalReport) -> list[str]:
    """The rehearsal's results in a few lines (the CLI and the docs)."""
    lines = [f"rehearsal ({report.mode.value}): {'passed' if report.passed else 'FAILED'}",
             f"items before {report.items_before:,}, after {report.items_after:,} (expected "
             f"{report.items_expected:,}): {report.lost} lost, {report.duplicated} doubled",
             f"access patterns of NEW passing the oracle: {report.patterns_passed} of {report.patterns_total}"
             + (f" (failed: {', '.join(report.failed)})" if report.failed else "")]
    if report.run is not None:
        lines.append(f"migration: {report.run.written:,} items written, {report.run.already_done:,} already done, "
                     f"{report.run.skipped:,} left as they are, {report.seconds:.1f} s")
    if report.consistency is not None:
        c = report.consistency
        lines.append(f"consistency of both tables: {len(c.missing)} missing, {len(c.extra)} extra, "
                     f"{len(c.different)} different")
    return lines
