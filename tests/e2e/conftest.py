"""Browser-test fixtures: a fresh Streamlit server per test (a real server process, forked from a warm parent
that has imported the libraries: tests/e2e/server_zygote.py; embedded moto endpoint)."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import FrameLocator, Locator, Page, expect

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ForkedProcess:
    """A server forked by the zygote (tests/e2e/server_zygote.py): what the tests use of `subprocess.Popen`
    (pid, terminate, kill, wait). The zygote ignores SIGCHLD, so the kernel reaps it when it ends."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def running(self) -> bool:
        try:
            state = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return state != "Z"

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):  # it has ended already
            os.kill(self.pid, number)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.running():
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0.0)
            time.sleep(0.05)
        return 0


@dataclass
class Server:
    url: str
    process: subprocess.Popen | ForkedProcess
    log_path: Path

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class _Zygote:
    """One warm parent per test process, started on first use (tests/e2e/server_zygote.py)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def fork(self, args: list[str], env: dict[str, str], log_path: Path) -> ForkedProcess:
        with self._lock:
            process = self._process
            if process is None or process.poll() is not None:
                process = self._process = subprocess.Popen(
                    [sys.executable, "-m", "tests.e2e.server_zygote"], cwd=ROOT, stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=None, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
                atexit.register(self.close)
                assert process.stdout is not None and process.stdout.readline().strip() == "ready"
            assert process.stdin is not None and process.stdout is not None
            request = {"args": args, "env": env, "cwd": str(ROOT), "log": str(log_path)}
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            return ForkedProcess(int(process.stdout.readline()))

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=10)


_ZYGOTE = _Zygote()
# DDS_E2E_FORK=0 starts every server as its own `python -m streamlit run` (what the zygote's children are too)
FORK_SERVERS = os.environ.get("DDS_E2E_FORK", "1") != "0" and hasattr(os, "fork")


def start_server(workspace: Path, log_path: Path, extra_env: dict[str, str] | None = None) -> Server:
    """A Streamlit server on a free port; `extra_env` overrides settings (e.g. a table workspace)."""
    port = _free_port()
    env = {**os.environ, "DESIGN_STUDIO_WORKSPACE": str(workspace), **(extra_env or {})}
    args = ["run", "app.py", "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port),
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    process: subprocess.Popen | ForkedProcess
    if FORK_SERVERS:
        process = _ZYGOTE.fork(args, env, log_path)
    else:
        with log_path.open("w") as log:
            process = subprocess.Popen([sys.executable, "-m", "streamlit", *args], cwd=ROOT, env=env,
                                       stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                if response.read() == b"ok":
                    return Server(url, process, log_path)
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"streamlit did not start; see {log_path}")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1200}, "accept_downloads": True}


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[[], Server]]:
    """Start fresh servers sharing this test's workspace folder; all are stopped afterwards."""
    servers: list[Server] = []
    workspace = tmp_path / "browser-workspace"

    def start() -> Server:
        server = start_server(workspace, tmp_path / f"streamlit-{len(servers)}.log")
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(server_factory: Callable[[], Server]) -> Server:
    return server_factory()


@pytest.fixture
def external_requests(page: Page) -> list[str]:
    """Block and record every request that leaves the machine; tests assert the list stays empty."""
    attempted: list[str] = []

    def handle(route) -> None:
        if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            attempted.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    return attempted


def wait_until_idle(page: Page) -> None:
    """Wait for the script run to finish (the status widget appears only after ~0.8 s, then detaches)."""
    page.wait_for_timeout(300)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=30_000)


def assert_no_exception(page: Page) -> None:
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


def eventually(condition: Callable[[], bool], timeout_seconds: float = 20.0) -> bool:
    """Poll until `condition()` holds (True) or the timeout passes (False)."""
    deadline = time.monotonic() + timeout_seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def open_page(page: Page, url: str, heading: str) -> None:
    """Go to a page and wait for its title (the first script run has finished drawing it)."""
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading, timeout=30_000)


GRID_FRAME = 'iframe[title="ui.grid.editable_grid"]'


def grid(page: Page, index: int = 0) -> FrameLocator:
    """The page's index-th editable grid (ui/grid.py), once drawn: its cells are inputs labelled
    "<column label>, row <n>" (n from 1)."""
    frame = page.frame_locator(GRID_FRAME).nth(index)
    expect(frame.locator("tbody tr").first).to_be_visible(timeout=60_000)
    return frame


def cell(frame: FrameLocator, column_label: str, row: int) -> Locator:
    return frame.get_by_label(f"{column_label}, row {row}", exact=True)


def type_into_cell(page: Page, frame: FrameLocator, column_label: str, row: int, text: str,
                   delay_ms: float = 20) -> None:
    """Select a cell, open it (Enter), replace its text and commit (Enter), as a keyboard user would."""
    cell(frame, column_label, row).click()
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=delay_ms)
    page.keyboard.press("Enter")
