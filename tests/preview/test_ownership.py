"""The product writes only into tables this installation and session created, on every write path, over a
real moto server over HTTP: loading, resuming, re-sending, the write patterns and cleanup. A table replaced
during a load is loaded again from the start, never "resumed" into."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from modeling.endpoint.adapter import Endpoint, Timeouts
from modeling.preview.loader import LoadInterrupted, count_items
from modeling.preview.ownership import CREATOR, CREATOR_TAG, INSTANCE_TAG, LOAD_TAG, ForeignTableError
from modeling.preview.session import PreviewSetup, cleanup_preview, load_preview, preview_setup
from modeling.preview.tables import create_preview_table, table_owner_tags
from modeling.workspace.folder import instance_id
from studio.preview import PreviewRun, run_preview
from tests.fault_proxy import FaultPlan, FaultProxy


def _interrupted_load(setup: PreviewSetup, proxy: FaultProxy, proxied: Endpoint) -> LoadInterrupted:
    """Load through the proxy until a BatchWriteItem fails for good: the first batches pass, then every one is
    answered 500. (A 30 % share of 500s relied on one batch meeting two in a row, which the retry of a failed
    batch made depend on the table's name: with the namespace `test2` all ten 500s were retried away.)"""
    proxy.use(FaultPlan(seed=3, error500=1.0, targets=("BatchWriteItem",), pass_first=5))
    once = replace(proxied, timeouts=Timeouts(connect_seconds=1, read_seconds=2, attempts=1))
    with pytest.raises(LoadInterrupted) as stopped:
        load_preview(replace(setup, endpoint=once))
    proxy.use(FaultPlan())
    assert stopped.value.state.completed and stopped.value.state.remaining
    return stopped.value


def _untagged_table(client: Any, name: str) -> None:
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}])


def test_resume_refuses_a_table_someone_else_created_after_the_endpoint_lost_ours(
        make_setup, fault_proxy: FaultProxy, proxied: Endpoint, client) -> None:
    setup = make_setup("student_platform", 1000)
    stopped = _interrupted_load(setup, fault_proxy, proxied)
    # the endpoint restarts empty (our table is gone) and someone else creates one with the same name, untagged
    client.delete_table(TableName=setup.table.name)
    _untagged_table(client, setup.table.name)
    client.put_item(TableName=setup.table.name, Item={"PK": {"S": "theirs"}})
    writes_before = fault_proxy.requests["BatchWriteItem"]
    with pytest.raises(ForeignTableError, match="not created by DynamoDB Design Studio") as refused:
        load_preview(replace(setup, endpoint=proxied), resume=stopped.state)
    assert "will not write to it or delete it" in str(refused.value)
    assert fault_proxy.requests["BatchWriteItem"] == writes_before, "not one write was sent"
    assert count_items(client, setup.table.name) == 1  # their one item, nothing of ours
    client.delete_table(TableName=setup.table.name)


def test_a_table_of_another_installation_is_never_loaded_cleaned_or_written(make_setup, client,
                                                                             tmp_path: Path) -> None:
    ours = make_setup("ecommerce_orders", 300)
    colleague = preview_setup(ours.model, ours.design, ours.endpoint, ours.table.namespace, ours.table.model_slug,
                              300, workspace_root=tmp_path / "colleague")
    assert colleague.table.name == ours.table.name and colleague.owner.instance != ours.owner.instance
    data, _ = load_preview(colleague)
    tags_before = table_owner_tags(client, ours.table.name)
    assert tags_before[INSTANCE_TAG] == colleague.owner.instance and tags_before[CREATOR_TAG] == CREATOR
    for attempt in (lambda: load_preview(ours), lambda: cleanup_preview(ours),
                    lambda: run_preview(PreviewRun(ours, data)),
                    lambda: create_preview_table(client, ours.table, ours.model.table, ours.design.key_design,
                                                 ours.owner)):
        with pytest.raises(ForeignTableError, match="another installation of DynamoDB Design Studio"):
            attempt()
    # never deleted and created again (same load id), never written (same items)
    assert table_owner_tags(client, ours.table.name)[LOAD_TAG] == tags_before[LOAD_TAG]
    assert count_items(client, ours.table.name) == len(data.items)
    assert cleanup_preview(colleague) is True


def test_a_table_of_another_session_of_this_installation_is_refused(make_setup, client) -> None:
    setup = make_setup("iot_telemetry", 100)
    load_preview(setup)
    stranger = replace(setup, owner=replace(setup.owner, session="someone-else"))
    with pytest.raises(ForeignTableError, match="another session"):
        load_preview(stranger)
    with pytest.raises(ForeignTableError, match="another session"):
        cleanup_preview(stranger)
    assert cleanup_preview(setup) is True


def test_a_table_replaced_by_the_product_mid_load_is_loaded_again_from_the_start(make_setup, client) -> None:
    setup = make_setup("student_platform", 1000)
    replaced: list[str] = []

    def another_tab_reloads(done: int, total: int, seconds: float) -> None:
        if not replaced and done >= 100:  # a few batches in, the product (another tab) recreates the table
            replaced.append(create_preview_table(client, setup.table, setup.model.table, setup.design.key_design,
                                                 setup.owner).load_id)

    data, report = load_preview(setup, progress=another_tab_reloads)
    assert replaced, "the table was replaced during the load"
    assert report.attempts == 2 and report.complete
    assert report.items_counted == len(data.items) == count_items(client, setup.table.name)
    # a third table: the restart made its own fresh table rather than finishing in the other tab's
    assert table_owner_tags(client, setup.table.name)[LOAD_TAG] != replaced[0]
    batches = -(-len(data.items) // 25)  # 999 items: 40 requests for the load that finished
    assert report.requests > batches, "the abandoned attempt's requests are counted too"


def test_resuming_after_the_product_replaced_the_table_starts_over(make_setup, fault_proxy, proxied,
                                                                   client) -> None:
    setup = make_setup("chat_messages", 800)
    stopped = _interrupted_load(setup, fault_proxy, proxied)
    create_preview_table(client, setup.table, setup.model.table, setup.design.key_design, setup.owner)
    data, report = load_preview(setup, resume=stopped.state)
    assert report.complete and report.items_counted == len(data.items) == count_items(client, setup.table.name)
    assert report.attempts == 2
    assert report.requests > stopped.state.requests, "the report counts the interrupted attempt's requests too"


def test_resume_after_an_interruption_writes_into_the_same_table_and_counts_every_request(
        make_setup, fault_proxy, proxied, client) -> None:
    setup = make_setup("chat_messages", 800)
    stopped = _interrupted_load(setup, fault_proxy, proxied)
    load_id = table_owner_tags(client, setup.table.name)[LOAD_TAG]
    data, report = load_preview(setup, resume=stopped.state)
    assert table_owner_tags(client, setup.table.name)[LOAD_TAG] == load_id, "resumed, not recreated"
    assert report.complete and report.items_counted == len(data.items)
    remaining_batches = len(stopped.state.remaining)
    assert report.requests >= stopped.state.requests + remaining_batches and report.attempts == 2


def test_the_instance_id_is_random_kept_in_the_workspace_and_stable(tmp_path: Path) -> None:
    first = instance_id(tmp_path / "a")
    assert first == instance_id(tmp_path / "a") == (tmp_path / "a" / ".instance-id").read_text().strip()
    assert len(first) == 32 and first != instance_id(tmp_path / "b")
