"""Changes page: what changes from the open model (OLD, as it is live) to a NEW one, and the migration plan."""

import streamlit as st

from studio.errors import CostError, ModelingError
from ui import changes_views, missing_views, session
from ui.frame import page_frame
from ui.text import plain

page_frame("Changes")
document = session.current_document()
st.title(f"Changes · {plain(document.get('name', 'untitled'))}")
model = session.require_model("the changes cannot be listed")
missing_views.require_design(model)
st.caption("Every change from the open model to a NEW one, what DynamoDB allows on a live table for each (in "
           "place, a backfill, every item rewritten, a new table), and the ordered, priced plan with its checks "
           "and rollbacks. The migration script it downloads is the code the preview rehearses "
           "(docs/migrations.md).")

choice = changes_views.choose(model, session.current_slug())
if choice.new is None:
    st.stop()
chosen = changes_views.options(model, choice.new)
try:
    priced = changes_views.plan(model, choice, chosen)
except (CostError, ModelingError) as exc:
    st.error(f"The plan could not be made: {plain(exc)}", icon="⛔")
    st.stop()
changes_views.render(priced)
changes_views.downloads(priced)
