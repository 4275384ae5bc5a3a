"""Two reruns the server merges keep every value the browser sent, not only the newer request's widgets.

A field typed into and left by a click on a page in the sidebar sends two reruns: the field's value (its blur),
then the page change, which carries only the widgets that stay on screen (the sidebar's). When the second
arrives before the server has started the first, as on a loaded machine, Streamlit (1.67, pinned) merges them
and keeps the newer request's widgets plus the older one's triggers: the typed value was dropped before any
code of ours could see it, so apply_pending_edits had nothing to save (CI, 2026-12-03). Unmerged, the first
request's run starts and its values reach the session state, where the next run finds them. Keeping the older
request's values for widgets the newer one does not mention gives the merged run the same state; a widget the
newer one names still takes the newer value, and a widget the run does not draw is dropped at its end as
before. tests/pages/test_rerun_coalescing.py drives Streamlit's own request queue, so a Streamlit that renames
the function fails there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner_utils import script_requests

Coalesce = Callable[[WidgetStates | None, WidgetStates | None], WidgetStates | None]

ORIGINAL_ATTRIBUTE: Final = "_dds_original_coalesce"


def keeping_older_values(coalesce: Coalesce) -> Coalesce:
    """Streamlit's merge, then every widget of the older request that the merge left out."""

    def merged(old_states: WidgetStates | None, new_states: WidgetStates | None) -> WidgetStates | None:
        result = coalesce(old_states, new_states)
        if result is None or old_states is None:
            return result
        present = {state.id for state in result.widgets}
        result.widgets.extend(state for state in old_states.widgets if state.id not in present)
        return result

    return merged


def install() -> None:
    """Idempotent: the server imports this once per page module load."""
    if hasattr(script_requests, ORIGINAL_ATTRIBUTE):
        return
    original = script_requests._coalesce_widget_states
    setattr(script_requests, ORIGINAL_ATTRIBUTE, original)
    script_requests._coalesce_widget_states = keeping_older_values(original)  # type: ignore[assignment]
