"""Issue 14.2: a run cut short right after a save must not turn the next edit into a false conflict.

When keys arrive faster than a run finishes, Streamlit stops the running script at its next yield point
(every `st.session_state` access and every element sent: `SafeSessionState` calls the runner's
`_maybe_handle_execution_control_request` before each access) and starts the next run with the grid's
newer, cumulative edits. A clean-clone CI run typing at 0 ms a key hit this: the run that saved an edit
was stopped before it recorded the save, so the next run's save named the version before it, was
refused as if another tab had saved, and the page showed the conflict choices for the user's own edit.

Here the real Model page runs in AppTest on a real workspace folder; the only stand-in is the stop
itself: at the k-th session-state access after the workspace's save, the run raises Streamlit's own
`StopException`, as the runner does when a rerun request is waiting. Every k up to the end of the run
is tried.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from streamlit.runtime.state import safe_session_state
from streamlit.testing.v1 import AppTest

from modeling.workspace.folder import Workspace
from tests.pages.model_page import model_page, saved, set_entities_grid_edits


class _StopAfterSave:
    """Counts session-state accesses once the workspace has saved, and stops the run at the k-th."""

    def __init__(self) -> None:
        self.stop_at: int | None = None
        self.accesses_since_save: int | None = None
        self.stopped = False

    def saved(self) -> None:
        if self.stop_at is not None and not self.stopped:
            self.accesses_since_save = 0

    def yield_point(self) -> None:
        if self.accesses_since_save is None:
            return
        self.accesses_since_save += 1
        if self.accesses_since_save == self.stop_at:
            self.accesses_since_save, self.stopped = None, True
            raise StopException()


@pytest.fixture
def stopper(monkeypatch: pytest.MonkeyPatch) -> _StopAfterSave:
    stop = _StopAfterSave()
    original_init = safe_session_state.SafeSessionState.__init__
    original_save = Workspace.save

    def init(self: Any, state: Any, yield_callback: Callable[[], None]) -> None:
        runner = getattr(yield_callback, "__self__", None)

        def yield_then_maybe_stop() -> None:
            yield_callback()
            if getattr(runner, "_execing", False):  # as the runner: a stop only while the script runs
                stop.yield_point()
        original_init(self, state, yield_then_maybe_stop)

    def save(self: Workspace, *args: Any, **kwargs: Any) -> str:
        version = original_save(self, *args, **kwargs)
        stop.saved()
        return version

    monkeypatch.setattr(safe_session_state.SafeSessionState, "__init__", init)
    monkeypatch.setattr(Workspace, "save", save)
    return stop


def _type_item_counts(at: AppTest, *counts: str) -> None:
    """The entities grid's cumulative edits after typing `counts` into the first rows' item counts."""
    set_entities_grid_edits(at, {"edited_rows": {row: {"item_count": count} for row, count in enumerate(counts)}})


def _conflict_or_false_toast(at: AppTest) -> list[str]:
    return ([w.value for w in at.warning if "saved in another tab" in w.value]
            + [t.value for t in at.toast if "changed in another tab" in t.value])


def _accesses_in_a_save_run(workspace_dir: Path, stopper: _StopAfterSave) -> int:
    """How many session-state accesses a run makes after its save, counted on an uninterrupted run."""
    at = model_page()
    stopper.stop_at = 10**9
    _type_item_counts(at, "1500")
    count = stopper.accesses_since_save or 0
    stopper.stop_at, stopper.accesses_since_save = None, None
    assert count > 0 and "1500" in str(saved(workspace_dir)["entities"][0])
    return count


def test_a_run_stopped_after_its_save_leaves_the_next_edit_saved_without_a_conflict(
        workspace_dir: Path, stopper: _StopAfterSave) -> None:
    accesses = _accesses_in_a_save_run(workspace_dir, stopper)
    for stop_at in range(1, accesses + 1):
        for draft in Workspace(workspace_dir).drafts():
            (workspace_dir / f"{draft.slug}.json").unlink()
        at = model_page()
        stopper.stop_at, stopper.stopped = stop_at, False
        _type_item_counts(at, "1500")
        assert stopper.stopped, stop_at
        stopper.stop_at = None
        _type_item_counts(at, "1500", "2500")  # the next key's run: the grid's edits so far, cumulative

        assert not at.exception, (stop_at, at.exception)
        assert not _conflict_or_false_toast(at), (stop_at, _conflict_or_false_toast(at))
        entities = saved(workspace_dir)["entities"]
        assert (entities[0]["item_count"], entities[1]["item_count"]) == (1500, 2500), stop_at
