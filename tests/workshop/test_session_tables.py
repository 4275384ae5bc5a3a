"""Thirty attendees preview at once on one workshop-mode server: each gets its own table on the shared
endpoint, tagged with its own session, and never sees another's items; cleanup touches only its own.

AppTest sessions run in threads against the same in-process embedded moto server a real server uses.

AppTest is not made for threads: every run installs a mock Streamlit Runtime as the process-wide
instance and sets it back to None when it ends, so one attendee's run finishing pulls the Runtime from
under another attendee's script ("Runtime hasn't been created!" at the end of its run, then a KeyError
from AppTest; seen 1 in 3 runs beside a CPU hog), and a component registered on one run's Runtime is
looked up on another's. A real server has one Runtime for every session, so the test gives every
attendee the same one (`_one_runtime_for_every_session`). Every AppTest run
also compiles the page afresh, and CPython 3.11's parser is not safe to run in several threads at once
("SystemError: AST constructor recursion depth mismatch", seen 1 in 10 runs beside a CPU hog); a real
server compiles a page once into its one script cache, which the fixture shares the same way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from unittest.mock import MagicMock

import pytest
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.runtime import Runtime
from streamlit.runtime.caching.storage.dummy_cache_storage import MemoryCacheStorageManager
from streamlit.runtime.dataframe_source_manager import DataframeSourceManager
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import app_test as app_test_module
from streamlit.testing.v1.util import patch_config_options

from modeling.endpoint.adapter import configured_endpoint, dynamodb_client
from modeling.preview.loader import count_items
from modeling.preview.tables import CREATOR, CREATOR_TAG, SESSION_TAG, table_owner_tags
from modeling.workspace.folder import default_workspace_dir
from workshop.isolation import is_session_token, table_namespace, workshop_secret

# thirty attendees at once on two cores: run alone (serially, with the browser tests), not beside another
# xdist worker, which starved attendee 26 of its rerun in a CI run
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parents[2]
ATTENDEES = 30


def _attendee(number: int) -> dict:
    at = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=300).run()
    items = at.session_state["model.scope"].key("preview.items")
    at.number_input(key=items).set_value(100 + number).run()  # each attendee a different sample
    next(b for b in at.button if b.key == "preview.load").click().run()
    assert not at.exception, at.exception
    # a load that fails says why, in plain view, and can be retried; none should fail, however busy the server
    run_all = [b for b in at.button if b.key == "preview.run_all"]
    assert run_all, f"attendee {number}: no run button after loading; the page says {[e.value for e in at.error]}"
    run_all[0].click().run()
    assert not at.exception, at.exception
    table = next(c.value for c in at.caption if "Table `" in c.value).split("`")[1]
    loaded = int(next(m for m in at.metric if m.label == "Items in the table").value.replace(",", ""))
    passed = next(m for m in at.metric if m.label == "Patterns passed").value
    token = at.session_state["workshop.session_token"]
    return {"at": at, "table": table, "loaded": loaded, "passed": passed, "token": token}


@pytest.fixture
def _one_runtime_for_every_session(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every attendee's AppTest sees one shared mock Runtime (built as AppTest builds its own), whatever
    AppTest sets the process-wide instance to between runs, and every session shares one script cache."""
    shared = MagicMock(spec=Runtime)
    shared.media_file_mgr = MediaFileManager(MemoryMediaFileStorage("/mock/media"))
    shared.dataframe_source_mgr = DataframeSourceManager()
    shared.cache_storage_manager = MemoryCacheStorageManager()
    components = BidiComponentManager()  # the workshop's cookie component registers here, once for all
    components.discover_and_register_components(start_file_watching=False)
    shared.bidi_component_registry = components
    monkeypatch.setattr(Runtime, "instance", classmethod(lambda cls: shared))
    monkeypatch.setattr(Runtime, "exists", classmethod(lambda cls: True))
    script_cache = ScriptCache()  # thread-safe: compiles each page once, under its lock
    monkeypatch.setattr(app_test_module, "ScriptCache", lambda: script_cache)
    # AppTest also switches the process-wide option global.appTest on for each run and off at its end,
    # which drops another run's widget metadata (KeyError on a selectbox); keep it on for the whole test
    monkeypatch.setattr(app_test_module, "patch_config_options", lambda options: nullcontext())
    with patch_config_options({"global.appTest": True}):
        yield


@pytest.mark.usefixtures("_one_runtime_for_every_session")
def test_thirty_attendees_preview_in_their_own_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP", "1")
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=10) as pool:
        attendees = list(pool.map(_attendee, range(ATTENDEES)))
    seconds = time.monotonic() - started
    client = dynamodb_client(configured_endpoint({}))
    tables = [a["table"] for a in attendees]
    assert len(set(tables)) == ATTENDEES, "one table per attendee"
    sessions = set()
    for attendee in attendees:
        tags = table_owner_tags(client, attendee["table"])
        assert tags[CREATOR_TAG] == CREATOR
        # the table and its tags carry a keyed hash of the session token, never the token itself
        assert is_session_token(attendee["token"]) and attendee["token"] not in attendee["table"]
        assert tags[SESSION_TAG] == table_namespace(workshop_secret(default_workspace_dir()), attendee["token"])
        assert tags[SESSION_TAG] in attendee["table"] and attendee["token"] not in tags.values()
        sessions.add(tags[SESSION_TAG])
        assert count_items(client, attendee["table"]) == attendee["loaded"], "no one else's items in it"
        done, total = attendee["passed"].split(" of ")
        assert done == total
    assert len(sessions) == ATTENDEES

    first = attendees[0]["at"]
    next(b for b in first.button if b.key == "preview.cleanup").click().run()
    remaining = set(client.list_tables()["TableNames"])
    assert tables[0] not in remaining and set(tables[1:]) <= remaining
    print(f"\n{ATTENDEES} attendees loaded and ran their previews in {seconds:.1f} s")
