"""Shared fixtures: dummy AWS settings, a workspace per test, golden-file updates, browser launch."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Before anything creates a boto3 client: never reach real AWS or the instance metadata service.
os.environ.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                   "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
                   "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"})
for variable in ("AWS_ENDPOINT_URL_DYNAMODB", "DESIGN_STUDIO_ENDPOINT", "AWS_PROFILE"):
    os.environ.pop(variable, None)

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files under tests/golden")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


# The whole test run is one installation of the product against one embedded endpoint, as a user's app is:
# every test's workspace carries the same instance id, so a preview table one test made is this
# installation's in the next (tests that need a colleague's installation give another workspace).
TEST_INSTANCE_ID = secrets.token_hex(16)


@pytest.fixture(autouse=True)
def workspace_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty workspace folder (holding only the run's instance id), beside tmp_path."""
    folder = tmp_path_factory.mktemp("workspace")
    (folder / ".instance-id").write_text(TEST_INSTANCE_ID + "\n", encoding="ascii")
    monkeypatch.setenv("DESIGN_STUDIO_WORKSPACE", str(folder))
    return folder


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Drive Debian's Chromium (never `playwright install`); see shared stack-notes §8.2."""
    return {**browser_type_launch_args, "headless": True, "args": CHROMIUM_ARGS,
            "executable_path": os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")}
