"""A field left by a click on another page: the field's rerun and the page change's rerun, merged by the server
before the first has started (a loaded machine), still carry what was typed (ui/rerun_coalescing.py).

Driven through Streamlit's own request queue (`ScriptRequests`), with the requests the browser sends: the
field's blur sends every widget of the Model page; the page change sends only the sidebar's widgets
(Streamlit's frontend, `onPageChange`: `getActiveWidgetStates` of the elements that stay). CI lost a typed
description this way (tests/e2e/test_unsaved_edit_browser.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.runtime.scriptrunner_utils import script_requests
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequests, ScriptRequestType

from ui import rerun_coalescing

DESCRIPTION_ID = "$$ID-description-widget"
SIDEBAR_ID = "$$ID-sidebar-model-select"
BUTTON_ID = "$$ID-save-button"


def _states(*states: WidgetState) -> WidgetStates:
    result = WidgetStates()
    result.widgets.extend(states)
    return result


def _text(widget_id: str, value: str) -> WidgetState:
    return WidgetState(id=widget_id, string_value=value)


def _trigger(widget_id: str) -> WidgetState:
    return WidgetState(id=widget_id, trigger_value=True)


def _merged(*requests: RerunData) -> dict[str, WidgetState]:
    """The rerun the script runner starts after these requests arrived before it was ready."""
    queue = ScriptRequests()
    for request in requests:
        assert queue.request_rerun(request)
    ready = queue.on_scriptrunner_ready()
    assert ready.type == ScriptRequestType.RERUN and ready.rerun_data is not None
    states = list(ready.rerun_data.widget_states.widgets) if ready.rerun_data.widget_states is not None else []
    assert len({state.id for state in states}) == len(states), "a widget sent twice in one rerun"
    return {state.id: state for state in states}


@pytest.fixture
def installed() -> Iterator[None]:
    rerun_coalescing.install()
    yield


def test_the_typed_value_survives_a_page_change_merged_with_it(installed: None) -> None:
    field_left = RerunData(widget_states=_states(_text(DESCRIPTION_ID, "Clicked away"), _text(SIDEBAR_ID, "chat")),
                           page_script_hash="model")
    page_change = RerunData(widget_states=_states(_text(SIDEBAR_ID, "chat")), page_script_hash="layout")
    merged = _merged(field_left, page_change)
    assert merged[DESCRIPTION_ID].string_value == "Clicked away"
    assert merged[SIDEBAR_ID].string_value == "chat"


def test_streamlits_own_merge_drops_it(installed: None) -> None:
    """Why the module exists: without it, the value is gone (a Streamlit that fixes this can drop the module)."""
    original = getattr(script_requests, rerun_coalescing.ORIGINAL_ATTRIBUTE)
    merged = original(_states(_text(DESCRIPTION_ID, "Clicked away"), _text(SIDEBAR_ID, "chat")),
                      _states(_text(SIDEBAR_ID, "chat")))
    assert merged is not None and DESCRIPTION_ID not in {state.id for state in merged.widgets}


def test_a_widget_both_requests_name_takes_the_newer_value(installed: None) -> None:
    merged = _merged(RerunData(widget_states=_states(_text(DESCRIPTION_ID, "Clicked"), _text(SIDEBAR_ID, "chat"))),
                     RerunData(widget_states=_states(_text(DESCRIPTION_ID, "Clicked away"))))
    assert merged[DESCRIPTION_ID].string_value == "Clicked away"
    assert merged[SIDEBAR_ID].string_value == "chat"  # the older request's only widget is kept too


def test_a_button_pressed_in_the_older_request_still_fires_once(installed: None) -> None:
    merged = _merged(RerunData(widget_states=_states(_trigger(BUTTON_ID))),
                     RerunData(widget_states=_states(_text(SIDEBAR_ID, "chat"))))
    assert merged[BUTTON_ID].trigger_value is True


def test_install_twice_wraps_once(installed: None) -> None:
    wrapped = script_requests._coalesce_widget_states
    rerun_coalescing.install()
    assert script_requests._coalesce_widget_states is wrapped
