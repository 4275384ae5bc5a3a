"""Recovery paths moto cannot produce: UnprocessedItems and throttling (botocore's Stubber), a
connection dropped mid-load (a client wrapper that fails one call: a stand-in, since the real
server cannot be made to drop exactly one request), and an endpoint that is down (a real closed port)."""

from __future__ import annotations

import socket
from dataclasses import replace
from typing import Any

import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.stub import ANY, Stubber

from modeling.endpoint.adapter import Endpoint, EndpointKind, dynamodb_client
from modeling.endpoint.retry import backoff_seconds
from modeling.errors import EndpointError
from modeling.preview.loader import LoadInterrupted, batches_of, load_items
from modeling.preview.ownership import TableGuard
from modeling.preview.session import load_preview, preview_data
from modeling.preview.tables import create_preview_table


def _fresh_table_guard(setup, client) -> TableGuard:
    """A new, empty preview table of the setup's owner, and the guard a load into it uses."""
    return TableGuard(client, setup.owner, create_preview_table(client, setup.table, setup.model.table,
                                                                setup.design.key_design, setup.owner))


def test_unprocessed_items_are_sent_again_until_none_are_left(make_setup, client) -> None:
    setup = make_setup("iot_telemetry", 60)
    data = preview_data(setup)
    guard = _fresh_table_guard(setup, client)  # the guard reads the real table; the writes are stubbed
    batches = batches_of(data)
    stubbed = dynamodb_client(setup.endpoint)
    stubber = Stubber(stubbed)
    sleeps: list[float] = []
    for batch in batches:
        left_over = [{"PutRequest": {"Item": item}} for item in batch[:3]]
        stubber.add_response("batch_write_item", {"UnprocessedItems": {setup.table.name: left_over}},
                             {"RequestItems": {setup.table.name: ANY}})
        stubber.add_response("batch_write_item", {"UnprocessedItems": {}},
                             {"RequestItems": {setup.table.name: left_over}})
    stubber.add_response("scan", {"Count": len(data.items), "ScannedCount": len(data.items), "Items": []}, None)
    with stubber:
        report = load_items(stubbed, guard, data, workers=1, sleep=sleeps.append)
    stubber.assert_no_pending_responses()
    assert report.unprocessed_retries == len(batches) and report.requests == 2 * len(batches)
    assert report.complete and len(sleeps) == len(batches)


def test_backoff_grows_exponentially_with_full_jitter_and_a_cap() -> None:
    import random

    rng = random.Random(1)
    for attempt in range(12):
        ceiling = min(2.0, 0.05 * 2 ** attempt)
        samples = [backoff_seconds(attempt, rng) for _ in range(200)]
        assert all(0 <= s <= ceiling for s in samples)
        assert max(samples) > ceiling * 0.8  # full jitter spreads over the whole interval


def test_throttling_that_outlasts_the_retries_stops_with_a_resumable_state(make_setup, client) -> None:
    setup = make_setup("iot_telemetry", 100)
    data = preview_data(setup)
    guard = _fresh_table_guard(setup, client)
    batches = batches_of(data)
    stubbed = dynamodb_client(setup.endpoint)
    stubber = Stubber(stubbed)
    stubber.add_response("batch_write_item", {"UnprocessedItems": {}}, None)  # the first batch goes through
    stubber.add_client_error("batch_write_item", "ProvisionedThroughputExceededException",
                             "The level of configured provisioned throughput for the table was exceeded")
    with stubber, pytest.raises(LoadInterrupted) as stopped:
        load_items(stubbed, guard, data, workers=1, sleep=lambda s: None)
    state = stopped.value.state
    assert "ProvisionedThroughputExceededException" in str(stopped.value)
    assert "load again" in str(stopped.value)
    assert len(state.completed) == 1 and len(state.remaining) == len(batches) - 1
    # resuming with a working client sends only the remaining batches; the stubbed first batch was
    # never really written, so the count shows exactly those items missing
    report = load_items(client, guard, data, state=state)
    assert report.items_counted == len(data.items) - len(batches[0])
    assert not report.complete


class _DropsOneCall:
    """The real client, except that one BatchWriteItem call fails as if the connection dropped."""

    def __init__(self, client: Any, fail_on_call: int) -> None:
        self._client, self._fail_on, self._calls = client, fail_on_call, 0

    def batch_write_item(self, **kwargs: Any) -> Any:
        self._calls += 1
        if self._calls == self._fail_on:
            raise EndpointConnectionError(endpoint_url="http://127.0.0.1")
        return self._client.batch_write_item(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


def test_a_dropped_connection_mid_load_resumes_without_losing_or_duplicating(make_setup, client) -> None:
    setup = make_setup("chat_messages", 300)
    data = preview_data(setup)
    guard = _fresh_table_guard(setup, client)
    with pytest.raises(LoadInterrupted) as stopped:
        load_items(_DropsOneCall(client, 3), guard, data, workers=1)
    assert "did not answer" in str(stopped.value)
    # the load stops at the first failure (a stalled endpoint must not cost a deadline per batch): the
    # two batches before it are done, the dropped one and the later ones not yet started are left to send
    batches, state = batches_of(data), stopped.value.state
    assert state.remaining[0] == 2 and len(state.remaining) >= len(batches) - 4
    assert stopped.value.items_written == sum(len(batches[i]) for i in state.completed)
    report = load_items(client, guard, data, state=stopped.value.state)
    assert report.complete and report.items_counted == len(data.items)


def test_an_endpoint_that_is_down_gives_a_clear_error(make_setup) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens there
    down = Endpoint(EndpointKind.CUSTOM, f"http://127.0.0.1:{port}", "us-east-1")
    setup = replace(make_setup("iot_telemetry", 50), endpoint=down)
    with pytest.raises(EndpointError, match=r"did not answer|check that it is running"):
        load_preview(setup)
