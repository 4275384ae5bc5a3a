"""Issue 15, finding 6: a long load offers Cancel, and Cancel stops it: a message at once, nothing more sent.

A real browser, a real Streamlit server and a real moto server, with the fault proxy in front of moto
holding every BatchWriteItem answer for a while (each batch is written, then answered late but within
the client's read timeout), so that the load of the default 1,000 items takes far longer than the test
waits before pressing Cancel.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, assert_no_exception, eventually, open_page, wait_until_idle
from tests.fault_proxy import FaultPlan, FaultProxy

pytestmark = pytest.mark.e2e

# 40 batches of 25 items, four at a time against a non-embedded endpoint: about 10 batches in a row, so
# 1.5 s a batch makes the whole load last about 15 s, and Cancel after the first batches leaves most unsent.
SLOW_BATCH_SECONDS = 1.5


@pytest.fixture
def slow_endpoint() -> Iterator[FaultProxy]:
    from moto.server import ThreadedMotoServer  # imported here: moto is slow to import

    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    host, port = moto.get_host_and_port()
    proxy = FaultProxy(f"http://{host}:{port}", FaultPlan(late=1.0, late_seconds=SLOW_BATCH_SECONDS,
                                                          targets=("BatchWriteItem",))).start()
    yield proxy
    proxy.stop()
    moto.stop()


def test_cancel_stops_a_slow_load_with_a_message_and_sends_nothing_more(
        page: Page, server_factory: Callable[[], Server], slow_endpoint: FaultProxy,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_ENDPOINT", slow_endpoint.url)
    server = server_factory()
    open_page(page, f"{server.url}/preview", "Preview · Student platform")
    wait_until_idle(page)
    page.get_by_role("button", name="Load sample data").click()
    cancel = page.get_by_role("button", name="Cancel loading")
    expect(cancel).to_be_visible(timeout=30_000)
    assert eventually(lambda: slow_endpoint.requests["BatchWriteItem"] > 0, 30), "the load never started"
    cancel.click()
    pressed = time.monotonic()

    expect(page.get_by_text("Loading was cancelled")).to_be_visible(timeout=15_000)
    assert time.monotonic() - pressed < 15  # the bound for a clear message
    # the batches in flight when Cancel was pressed may still arrive; after them, nothing more is sent
    time.sleep(SLOW_BATCH_SECONDS + 1)
    sent = slow_endpoint.requests["BatchWriteItem"]
    time.sleep(2 * SLOW_BATCH_SECONDS)
    assert slow_endpoint.requests["BatchWriteItem"] == sent, "the load went on after Cancel"
    assert sent < 40, f"all {sent} batches were sent: Cancel did not stop the load"
    expect(page.get_by_role("button", name="Load sample data")).to_be_visible()
    assert_no_exception(page)
