"""One hostile share link must not take the server from everyone else (issue 15, finding 2).

A real Streamlit server; browser context B opens a share link whose model asks for 10^15 items on the Hot
partitions page (before the fix it allocated 6.3 GB in 60 s, until an allocation failed). Meanwhile context A,
another session on the same server, reruns its Capacity & cost page: its rerun time while B's simulation runs
is compared with its own baseline measured in the same test (a ratio, so a slow machine moves both), and B's
page ends with its figures and the note that partitions were sampled.
"""

from __future__ import annotations

import statistics
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import Server, assert_no_exception, wait_until_idle
from workshop.sharing import encode_share

pytestmark = pytest.mark.e2e

# A rerun may take this many times its baseline while the hostile simulation runs on the same 2 cores: the
# server shares the CPU (about 2x on a busy 2-core machine), but must not stall (the report saw 3.4 s -> 9.3 s
# for the lighter 1,500-entity link and no answer at all for this one).
MAX_SLOWDOWN = 4.0


def _hostile_document() -> dict:
    return {
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Hostile", "table": {"name": "hostile"},
        "entities": [{"name": "Event", "item_count": 10**15, "identifiers": ["eventId"],
                      "attributes": [{"name": "eventId", "unique": True, "generator": {"kind": "uuid"}},
                                     {"name": "status", "generator": {"kind": "enum", "values": ["A", "B"]}}]}],
        "access_patterns": [
            {"name": "get_event", "kind": "read_one", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": {"peak_requests_per_second": 10, "average_requests_per_second": 5}},
            {"name": "list_events_by_status", "kind": "read_many", "entities": ["Event"], "inputs": ["status"],
             "traffic": {"peak_requests_per_second": 10, "average_requests_per_second": 5}}]}


def _rerun_seconds(page: Page) -> float:
    """Reload the page (a new script run of that session's model) and time it until the run has finished."""
    started = time.monotonic()
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Capacity & cost", timeout=120_000)
    expect(page.get_by_text("Recommended", exact=False).first).to_be_visible(timeout=120_000)
    wait_until_idle(page)
    return time.monotonic() - started


def test_a_hostile_share_link_leaves_other_sessions_responsive(browser: Browser, server: Server) -> None:
    victim_context, hostile_context = browser.new_context(), browser.new_context()
    try:
        victim = victim_context.new_page()
        victim.goto(f"{server.url}/capacity_and_cost")
        expect(victim.get_by_role("heading", level=1)).to_contain_text("Capacity & cost", timeout=120_000)
        wait_until_idle(victim)
        baseline = statistics.median(_rerun_seconds(victim) for _ in range(3))

        hostile = hostile_context.new_page()
        token = encode_share(_hostile_document())
        assert token is not None and len(token) < 1_000  # a short link
        hostile.goto(f"{server.url}/hot_partitions?share={token}", wait_until="commit")
        expect(hostile.get_by_role("heading", level=1)).to_contain_text("Hot partitions", timeout=60_000)
        during = [_rerun_seconds(victim) for _ in range(3)]

        expect(hostile.get_by_text("uniform sample", exact=False).first).to_be_visible(timeout=300_000)
        assert_no_exception(hostile)
        assert_no_exception(victim)
    finally:
        victim_context.close()
        hostile_context.close()
    print(f"victim rerun: baseline {baseline:.2f} s, while the hostile link runs {[round(d, 2) for d in during]} s")
    assert statistics.median(during) <= MAX_SLOWDOWN * baseline, (baseline, during)
