"""Endpoints that hang or are not DynamoDB end in a clear message within 15 s, on the sidebar's status, the
Preview (opening it and loading) and `python -m modeling import-table`. Tiny local servers misbehave for
real (tests/misbehaving_servers.py); the paused endpoint is the fault proxy stalling mid-load."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from modeling.__main__ import main as modeling_main
from modeling.endpoint.adapter import DEFAULT_TIMEOUTS, Endpoint, EndpointKind, EndpointStatus, check_endpoint
from modeling.errors import EndpointError
from modeling.preview.loader import LoadInterrupted
from modeling.preview.session import already_loaded, load_preview
from tests.fault_proxy import FaultPlan, FaultProxy
from tests.misbehaving_servers import misbehaving

TARGET_SECONDS = 15  # the target for a clear message
# The bound is measured in wall-clock seconds, so these run alone (with the browser tests, .ci/run), never
# beside other xdist workers: under a load average of 20 they took 15.2-17.8 s, the product's own 10 s
# deadline plus a starved process.
pytestmark = pytest.mark.serial


def _custom(url: str) -> Endpoint:
    return Endpoint(EndpointKind.CUSTOM, url, "us-east-1")


def _timed(action: Callable[[], object]) -> tuple[float, object]:
    """Run `action`; its seconds and what it returned or raised (raised errors are returned, not thrown)."""
    started = time.monotonic()
    try:
        outcome = action()
    except Exception as exc:  # the caller asserts which error it is
        outcome = exc
    return time.monotonic() - started, outcome


@pytest.mark.parametrize("kind", ["silent", "trickle"])
def test_an_endpoint_that_hangs_gets_a_clear_message_in_time_everywhere(kind: str, make_setup, capsys,
                                                                         tmp_path: Path) -> None:
    # The four places ask the hanging endpoint at the same time, each timed on its own: they only wait on
    # sockets, and one after another they spent about 4 x 8 s of a CI run just waiting. Each still has
    # its own bound, and the endpoint serves every connection in its own thread, as a hung one would.
    with misbehaving(kind) as url:
        setup = replace(make_setup("iot_telemetry", 50), endpoint=_custom(url))
        with ThreadPoolExecutor(max_workers=3) as pool:
            sidebar = pool.submit(_timed, lambda: check_endpoint(_custom(url)))
            opening = pool.submit(_timed, lambda: already_loaded(setup))  # opening the Preview: loaded yet?
            loading = pool.submit(_timed, lambda: load_preview(setup))  # Load sample data
            cli_seconds, code = _timed(lambda: modeling_main(  # the CLI, here: it writes to captured stderr
                ["import-table", "--table", "orders", "--endpoint", url, "-o", str(tmp_path / "m.yaml")]))
            results = {"sidebar": sidebar.result(), "opening": opening.result(), "loading": loading.result(),
                       "cli": (cli_seconds, code)}
        for place, (seconds, _) in results.items():
            assert seconds < TARGET_SECONDS, (place, seconds)
        status = results["sidebar"][1]
        assert isinstance(status, EndpointStatus), status
        assert not status.reachable and "no complete answer to ListTables" in status.message
        assert isinstance(results["opening"][1], EndpointError), results["opening"]
        loaded = results["loading"][1]
        assert isinstance(loaded, EndpointError) and re.search(r"did not answer|no complete answer", str(loaded)), \
            loaded
        error = capsys.readouterr().err
        assert code == 1 and "import-table: error:" in error and "Traceback" not in error
        assert "no complete answer" in error or "timeout" in error.lower()


def test_an_endpoint_answering_html_is_not_a_dynamodb_endpoint(make_setup, capsys, tmp_path: Path) -> None:
    with misbehaving("html") as url:
        status = check_endpoint(_custom(url))
        assert not status.reachable, "never a green status for a web page"
        assert "not a DynamoDB endpoint" in status.message and "text/html" in status.message
        setup = replace(make_setup("iot_telemetry", 50), endpoint=_custom(url))
        with pytest.raises(EndpointError, match="not a DynamoDB endpoint"):
            load_preview(setup)
        code = modeling_main(["import-table", "--table", "orders", "--endpoint", url, "-o", str(tmp_path / "m.yaml")])
        error = capsys.readouterr().err
        assert code == 1 and "not a DynamoDB endpoint" in error and "KeyError" not in error


def test_an_endpoint_paused_mid_load_stops_the_load_in_time_and_it_resumes(make_setup, endpoint, client) -> None:
    proxy = FaultProxy(endpoint.url).start()
    try:
        paused_at: list[float] = []

        def pause_after_some_batches(done: int, total: int, seconds: float) -> None:
            if not paused_at and done >= 200:
                proxy.use(FaultPlan(stall=1.0))  # from now on, nothing answers
                paused_at.append(time.monotonic())

        setup = replace(make_setup("chat_messages", 1000),
                        endpoint=Endpoint(EndpointKind.CUSTOM, proxy.url, "us-east-1", timeouts=DEFAULT_TIMEOUTS))
        with pytest.raises(LoadInterrupted, match=r"no complete answer|did not answer") as stopped:
            load_preview(setup, progress=pause_after_some_batches)
        assert paused_at and time.monotonic() - paused_at[0] < TARGET_SECONDS
        proxy.use(FaultPlan())  # the endpoint is back: resume sends only the rest
        data, report = load_preview(setup, resume=stopped.value.state)
        assert report.complete and report.items_counted == len(data.items)
    finally:
        proxy.stop()
