"""Shared fixtures: dummy AWS settings, a workspace per test, golden-file updates, browser launch; test tiers.

Tiers (CONTRIBUTING.md "Test tiers"): `e2e` drives a real browser; `slow` starts processes, runs pages under
AppTest or took over about a second when measured. Both are marked here at collection, from where a test lives and
what it uses, so a new page, browser or subprocess test lands in the right tier without anyone marking it;
`SLOW_TESTS` lists the other measured ones. `pytest -m "not slow and not e2e"` is the developer's loop.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import os
import re
import secrets
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

# Before anything creates a boto3 client: never reach real AWS or the instance metadata service.
os.environ.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                   "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
                   "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"})
for variable in ("AWS_ENDPOINT_URL_DYNAMODB", "DESIGN_STUDIO_ENDPOINT", "AWS_PROFILE"):
    os.environ.pop(variable, None)

# No per-example deadline: a loaded machine turns it into a flaky failure, and timing is bench/'s job.
settings.register_profile("design-studio", deadline=None)
settings.load_profile("design-studio")


def _scan_installed_components_once() -> None:
    """Every new AppTest's first run has Streamlit scan every installed distribution's metadata for custom
    components (streamlit 1.67, `components.v2.manifest_scanner`): about 0.08 s each, over a thousand AppTests a
    run. What is installed does not change while the tests run, so one scan a process serves them all; the app
    itself (one scan at server start) is untouched."""
    from streamlit.components.v2 import manifest_scanner

    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)


_scan_installed_components_once()

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
    """Drive Debian's Chromium (never `playwright install`); see docs/stack-notes.md §5."""
    return {**browser_type_launch_args, "headless": True, "args": CHROMIUM_ARGS,
            "executable_path": os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")}


# --- tiers ----------------------------------------------------------------------------------------

TESTS_DIR = Path(__file__).resolve().parent
E2E_FOLDERS = {"e2e"}  # a real browser against a real server
SLOW_FOLDERS = {"pages"}  # Streamlit's AppTest runs whole pages
# Fixtures that start servers or browsers (pytest-playwright's `page` launches Chromium), and the fault
# proxy (tests/fault_proxy.py): its faults cost read timeouts and backoff, seconds of waiting per test.
SLOW_FIXTURES = {"server", "server_factory", "page", "browser", "context", "fault_proxy", "proxied"}
# A test body or module that starts a process or a page run is slow wherever it lives.
SLOW_SOURCE = re.compile(r"\bsubprocess\b|\bPopen\b|sys\.executable|\bAppTest\b")
# Tests measured over about a second on a 2-core machine (node ids without parameters; a whole module
# when every test in it is slow). Re-measure with `pytest -m "not slow and not e2e" --durations=30`:
# the summary's "not marked slow" section lists the candidates.
SLOW_TESTS = frozenset(line.split("#")[0].strip() for line in
                       (TESTS_DIR / "slow_tests.txt").read_text(encoding="utf-8").splitlines()) - {""}
SLOW_SECONDS = 1.0


def _tier_folder(item: pytest.Item) -> str:
    """The folder under tests/ ("" for tests/*.py and for doctests in the packages)."""
    return _folder_of(str(item.path))


@functools.cache  # once per file, not once per test (1,765 items)
def _folder_of(path_text: str) -> str:
    path = Path(path_text).resolve()
    if not path.is_relative_to(TESTS_DIR):
        return ""
    relative = path.relative_to(TESTS_DIR)
    return relative.parts[0] if len(relative.parts) > 1 else ""


def _module_runs_pages(item: pytest.Item) -> bool:
    """A module that imports AppTest runs pages in its helpers, not only in its test bodies."""
    module = getattr(item, "module", None)
    return module is not None and "AppTest" in vars(module)


def _body_is_slow(item: pytest.Item) -> bool:
    function = getattr(item, "function", None)
    return function is not None and _source_is_slow(function)


@functools.cache  # once per function, not once per parameter
def _source_is_slow(function: object) -> bool:
    try:
        return bool(SLOW_SOURCE.search(inspect.getsource(function)))  # type: ignore[arg-type]
    except (OSError, TypeError):
        return False


def _listed_slow(item: pytest.Item) -> bool:
    module_id, _, name = item.nodeid.partition("::")
    return module_id in SLOW_TESTS or f"{module_id}::{name.split('[')[0]}" in SLOW_TESTS


def is_slow(item: pytest.Item) -> bool:
    """A test that starts a process, a page run or a browser, or was measured over about a second."""
    return (_tier_folder(item) in SLOW_FOLDERS or _module_runs_pages(item) or _body_is_slow(item)
            or bool(SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))) or _listed_slow(item))


# A module whose every test is slow, known from its path or text before it is imported.
_PAGE_RUNNER = re.compile(r"^from streamlit\.testing\.v1 import .*\bAppTest\b", re.MULTILINE)
_MARK_NAME = re.compile(r"[A-Za-z_][\w.+-]*")


def _whole_module_marks(path: Path) -> set[str] | None:
    """The tier marks every test of the module gets (None when they are known only from each test)."""
    if path.suffix != ".py" or not path.name.startswith("test_") or not path.is_relative_to(TESTS_DIR):
        return None
    folder = _folder_of(str(path))
    if folder in E2E_FOLDERS:
        return {"e2e", "slow"}
    module_id = path.relative_to(ROOT).as_posix()
    if folder in SLOW_FOLDERS or module_id in SLOW_TESTS or _PAGE_RUNNER.search(path.read_text(encoding="utf-8")):
        return {"slow"}
    return None


def _deselects_all(markexpr: str, marks: set[str]) -> bool:
    """True when `-m markexpr` deselects a test carrying `marks`, whatever other marks it carries."""
    expression = Expression.compile(markexpr)
    others = sorted(set(_MARK_NAME.findall(markexpr)) - {"and", "or", "not"} - marks)
    if len(others) > 6:
        return False
    return not any(expression.evaluate(_has_marks(marks | set(chosen)))
                   for count in range(len(others) + 1) for chosen in itertools.combinations(others, count))


def _has_marks(marks: set[str]):  # an ExpressionMatcher: is a mark of this name present?
    return lambda name, /, **kwargs: name in marks


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Do not even import a module whose every test `-m` would deselect (the fast tier spares each xdist
    worker the import of streamlit's AppTest and of every page test module). Returns None otherwise, so
    pytest's own rules still apply."""
    markexpr = config.option.markexpr
    if not markexpr:
        return None
    marks = _whole_module_marks(collection_path)
    return True if marks is not None and _deselects_all(markexpr, marks) else None


# Soak variants (`@pytest.mark.soak`) repeat a test CI runs at a smaller size that meets every path, for
# volume only; they run when DDS_SOAK=1 is set (CONTRIBUTING.md "Soak tests") and are skipped otherwise.
SOAK = os.environ.get("DDS_SOAK") == "1"


# Tests that search the expert models' designs (the GitHub model alone takes 16 s of CPU): one xdist worker runs
# them all (`.ci/run`'s --dist loadgroup), so each search is made once and remembered in that process for the
# others (55 searches, none repeated), instead of again on every worker that draws one of them.
EXPERT_SEARCH_TESTS = ("tests/test_one_design.py", "tests/test_expert_models.py",
                       "tests/modeling/test_exact_results.py",
                       "tests/costs/test_design_search.py::test_the_search_never_keeps_a_layout_that_returns_wrong")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(EXPERT_SEARCH_TESTS):
            item.add_marker(pytest.mark.xdist_group("expert_searches"))
        if _tier_folder(item) in E2E_FOLDERS:
            item.add_marker(pytest.mark.e2e)
        if item.get_closest_marker("soak"):
            item.add_marker(pytest.mark.slow)
            if not SOAK:
                item.add_marker(pytest.mark.skip(reason="soak variant: set DDS_SOAK=1 to run it"))
        if item.get_closest_marker("e2e") or is_slow(item):
            item.add_marker(pytest.mark.slow)


_unmarked_durations: list[tuple[float, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > SLOW_SECONDS and "slow" not in report.keywords:
        _unmarked_durations.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Name the fast-tier tests that took over a second, so the developer's loop stays fast."""
    if _unmarked_durations:
        terminalreporter.section("tests not marked slow that took over 1 s (add them to tests/slow_tests.txt)")
        for seconds, nodeid in sorted(_unmarked_durations, reverse=True)[:30]:
            terminalreporter.write_line(f"{seconds:6.2f}s {nodeid}")
