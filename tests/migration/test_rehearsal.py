"""Migrations rehearsed on a real moto server over HTTP: sample data loaded with the OLD design, migrated by the
script's own code, then counted by key and checked by every NEW access pattern against the oracle."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from costs.preview_units import CAPACITY_RULES
from modeling.endpoint.adapter import dynamodb_client
from modeling.migration.plan import Mode
from modeling.migration.rehearsal import dual_write, migrate, prepare_rehearsal, rehearse, verify
from modeling.migration.run import CheckpointMismatch, MigrationInterrupted, check_consistency
from modeling.preview.ownership import ForeignTableError
from modeling.preview.tables import preview_table, table_owner_tags
from tests.evolution_models import (
    library,
    with_branch_partition_key,
    with_loan_sort_key_by_due_date,
    with_loans_by_book,
)
from tests.fault_proxy import FaultPlan

ITEMS = 120  # preview_counts: sqrt-weighted shares of 10,000 Members and 50,000 Loans
_names = itertools.count()


def _namespace() -> str:
    return f"mig{next(_names)}"


def _loans(rehearsal) -> int:
    return rehearsal.data.counts["Loan"]


def test_a_new_gsi_is_backfilled_and_every_new_pattern_passes(endpoint, tmp_path: Path) -> None:
    report = rehearse(library(), library(with_loans_by_book()), endpoint, _namespace(), "library",
                      tmp_path / "checkpoint.json", total_items=ITEMS, rules=CAPACITY_RULES)
    assert report.mode is Mode.BACKFILL
    assert report.items_before == report.items_after == report.items_expected > 0
    assert (report.lost, report.duplicated) == (0, 0)
    # list_loans_by_book reads the new GSI: it passes only if every old Loan got its GSI1PK/GSI1SK
    assert report.failed == () and report.patterns_passed == report.patterns_total == 4
    assert report.run is not None and report.run.written == report.run.scanned - report.run.skipped
    assert json.loads((tmp_path / "checkpoint.json").read_text())["segments"]["3"]["done"] is True


def test_a_sort_key_template_change_moves_every_loan_once_and_a_rerun_changes_nothing(endpoint, tmp_path) -> None:
    rehearsal = prepare_rehearsal(library(), library(with_loan_sort_key_by_due_date()), endpoint, _namespace(),
                                  "library", total_items=ITEMS)
    client = dynamodb_client(endpoint)
    first = migrate(rehearsal, client, None)
    assert rehearsal.spec.mode is Mode.REWRITE and first.written == _loans(rehearsal)
    again = migrate(rehearsal, client, None)  # a second run by mistake: every Loan is found moved already
    assert again.written == 0 and again.already_done == _loans(rehearsal)
    report = verify(rehearsal, first, rules=CAPACITY_RULES)
    assert (report.lost, report.duplicated) == (0, 0) and report.items_after == report.items_before
    assert report.failed == ()


def test_a_new_partition_key_copies_into_a_new_table_with_dual_writes_and_a_consistency_check(endpoint) -> None:
    report = rehearse(library(), library(with_branch_partition_key()), endpoint, _namespace(), "library",
                      total_items=ITEMS, dual_writes=6, rules=CAPACITY_RULES)
    assert report.mode is Mode.NEW_TABLE
    # the 6 dual-written Loans are on both tables: the OLD table counts them and the NEW one holds them too
    assert report.items_after == report.items_before == report.items_expected
    assert (report.lost, report.duplicated) == (0, 0)
    assert report.consistency is not None and report.consistency.consistent
    # the 3 dual writes made before the backfill were already on the NEW table: the conditional put kept them
    assert report.run is not None and report.run.already_done == 3
    assert report.failed == () and report.patterns_passed == 4  # list_members_by_branch reads the new GSI


def test_the_consistency_check_and_the_count_find_an_item_the_new_table_lacks(endpoint) -> None:
    rehearsal = prepare_rehearsal(library(), library(with_branch_partition_key()), endpoint, _namespace(),
                                  "library", total_items=ITEMS)
    client = dynamodb_client(endpoint)
    migrate(rehearsal, client, None)
    rehearsal = dual_write(rehearsal, client, 2)
    victim = client.scan(TableName=rehearsal.target_table, Limit=1)["Items"][0]
    client.delete_item(TableName=rehearsal.target_table, Key={"pk": victim["pk"], "SK": victim["SK"]})
    consistency = check_consistency(client, rehearsal.spec, rehearsal.source_table, rehearsal.target_table)
    assert len(consistency.missing) == 1 and not consistency.extra and not consistency.consistent
    assert verify(rehearsal, rules=CAPACITY_RULES).lost == 1


def test_an_interrupted_migration_resumes_from_its_checkpoint_with_exact_counts(endpoint, proxied, fault_proxy,
                                                                                tmp_path: Path) -> None:
    rehearsal = prepare_rehearsal(library(), library(with_branch_partition_key()), endpoint, _namespace(),
                                  "library", total_items=ITEMS)
    total = len(rehearsal.data.items)
    checkpoint = tmp_path / "checkpoint.json"
    # after 40 copies, every PutItem's connection is reset before it reaches the server: nothing more is written
    fault_proxy.use(FaultPlan(reset_before=1.0, targets=("PutItem",), pass_first=40))
    with pytest.raises(MigrationInterrupted) as stopped:
        migrate(rehearsal, dynamodb_client(proxied), checkpoint)
    interrupted = stopped.value.report
    assert not interrupted.complete and interrupted.written == 40
    saved = json.loads(checkpoint.read_text())
    assert not all(segment["done"] for segment in saved["segments"].values())
    resumed = migrate(rehearsal, dynamodb_client(endpoint), checkpoint)
    assert resumed.complete
    # every item is copied exactly once over both runs; the resumed run re-reads the page that was cut short,
    # and its conditional puts find those copies there already
    assert interrupted.written + resumed.written == total
    report = verify(rehearsal, resumed, rules=CAPACITY_RULES)
    assert (report.lost, report.duplicated, report.items_after) == (0, 0, total)
    assert report.failed == ()


def test_a_checkpoint_of_another_migration_is_refused(endpoint, tmp_path: Path) -> None:
    rehearsal = prepare_rehearsal(library(), library(with_loans_by_book()), endpoint, _namespace(), "library",
                                  total_items=40)
    checkpoint = tmp_path / "checkpoint.json"
    migrate(rehearsal, dynamodb_client(endpoint), checkpoint)
    other = prepare_rehearsal(library(), library(with_loan_sort_key_by_due_date()), endpoint, _namespace(),
                              "library", total_items=40)
    with pytest.raises(CheckpointMismatch):
        migrate(other, dynamodb_client(endpoint), checkpoint)


def test_a_table_the_product_did_not_create_is_never_written(endpoint) -> None:
    rehearsal = prepare_rehearsal(library(), library(with_branch_partition_key()), endpoint, _namespace(),
                                  "library", total_items=40)
    client = dynamodb_client(endpoint)
    client.delete_table(TableName=rehearsal.target_table)
    client.get_waiter("table_not_exists").wait(TableName=rehearsal.target_table)
    client.create_table(TableName=rehearsal.target_table, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "SK", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "SK", "KeyType": "RANGE"}])
    with pytest.raises(ForeignTableError):
        migrate(rehearsal, client, None)
    assert client.scan(TableName=rehearsal.target_table, Select="COUNT")["Count"] == 0
    client.delete_table(TableName=rehearsal.target_table)  # the test's own table


def test_the_generated_script_runs_the_backfill_and_refuses_an_unconfirmed_table(endpoint, tmp_path: Path,
                                                                                monkeypatch) -> None:
    import runpy
    import sys

    from modeling.migration.script import migration_script

    rehearsal = prepare_rehearsal(library(), library(with_loans_by_book()), endpoint, _namespace(), "library",
                                  total_items=60)
    script = tmp_path / "migrate_library.py"
    script.write_text(migration_script(rehearsal.spec), encoding="utf-8")
    base = [str(script), "--source", rehearsal.source_table, "--endpoint-url", endpoint.url, "--region",
            "us-east-1", "--workers", "1", "--checkpoint", str(tmp_path / "checkpoint.json")]

    def run(*extra: str) -> int:
        monkeypatch.setattr(sys, "argv", [*base, *extra])
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as exc:
            return int(exc.code or 0)
        return 0

    assert run() == 1  # no --confirm: nothing written
    assert verify(rehearsal, rules=CAPACITY_RULES).failed == ("list_loans_by_book",)
    assert run("--confirm", rehearsal.source_table) == 0
    report = verify(rehearsal, rules=CAPACITY_RULES)
    assert report.failed == () and (report.lost, report.duplicated) == (0, 0)


def test_an_item_whose_new_key_needs_a_value_stops_the_run_until_one_is_given(endpoint) -> None:
    import copy

    from tests.evolution_models import library_document

    document = copy.deepcopy(library_document())
    document["entities"][1]["attributes"].append({"name": "shelf", "type": "S", "avg_size_bytes": 4,
                                                  "generator": {"kind": "enum", "values": ["A1", "B2"]}})
    document["key_design"]["entities"][1]["table"]["sort_key"] = "LOAN#{shelf}#{loanId}"
    rehearsal = prepare_rehearsal(library(), library(document), endpoint, _namespace(), "library", total_items=40)
    assert rehearsal.spec.mode is Mode.REWRITE
    client = dynamodb_client(endpoint)
    with pytest.raises(MigrationInterrupted) as stopped:
        migrate(rehearsal, client, None)
    assert "--fill" in str(stopped.value) and stopped.value.report.written == 0
    from modeling.preview.loader import count_items
    assert count_items(client, rehearsal.source_table) == len(rehearsal.data.items)  # nothing lost meanwhile
    filled = prepare_rehearsal(library(), library(document), endpoint, _namespace(), "library", total_items=40,
                               fills={"Loan.shelf": "A1"})
    assert migrate(filled, client, None).written == _loans(filled)
    report = verify(filled, rules=CAPACITY_RULES)
    assert (report.lost, report.duplicated, report.failed) == (0, 0, ())


def test_a_foreign_new_table_refuses_the_rehearsal_before_the_old_table_is_made(endpoint) -> None:
    """A NEW table name someone else holds left the OLD rehearsal table behind (issue 30, item 7)."""
    namespace = _namespace()
    old_name, new_name = (preview_table(namespace, f"library-{side}").name for side in ("old", "new"))
    client = dynamodb_client(endpoint)
    client.create_table(TableName=new_name, BillingMode="PAY_PER_REQUEST",  # untagged: not this product's
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    try:
        with pytest.raises(ForeignTableError):
            rehearse(library(), library(with_branch_partition_key()), endpoint, namespace, "library",
                     total_items=40, rules=CAPACITY_RULES)
        assert table_owner_tags(client, old_name) is None  # no such table: nothing was created
        assert client.scan(TableName=new_name, Select="COUNT")["Count"] == 0  # the foreign table is untouched
    finally:
        client.delete_table(TableName=new_name)  # the test's own table


def test_a_new_table_refused_after_the_load_still_removes_the_old_table(endpoint, monkeypatch) -> None:
    """The NEW name taken between the check and CreateTable (a race no real server can be timed to show, hence
    the stand-in): the OLD table, which no Rehearsal holds for cleanup, is deleted before the error goes up."""
    import modeling.migration.rehearsal as rehearsal_module

    def taken(*_args, **_kwargs):
        raise ForeignTableError("taken meanwhile")

    monkeypatch.setattr(rehearsal_module, "create_preview_table", taken)
    namespace = _namespace()
    with pytest.raises(ForeignTableError):
        prepare_rehearsal(library(), library(with_branch_partition_key()), endpoint, namespace, "library",
                          total_items=40)
    assert table_owner_tags(dynamodb_client(endpoint), preview_table(namespace, "library-old").name) is None
