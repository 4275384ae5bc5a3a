"""Model page: entities, attributes, relationships and access patterns, autosaved as you edit."""

import streamlit as st

from studio.errors import Severity
from ui import missing_views, model_editor, session
from ui.file_tab import file_tab
from ui.frame import page_frame
from ui.text import plain

page_frame("Model")
document = session.current_document()
problems = session.current_problems()

st.title(f"Model · {plain(document.get('name', 'untitled'))}")
errors = [p for p in problems if p.severity is Severity.ERROR]
warnings = [p for p in problems if p.severity is Severity.WARNING]
# One slot, however many notes it holds: the tabs below keep their place on the page, so the open tab stays
# open when an edit adds or clears a note (it jumped back to the first tab: issue 26, a stranger's session)
with st.container(key="model.status"):
    if errors:
        st.error(f"{len(errors)} error(s), {len(warnings)} warning(s): see the tabs below. "
                 "Your edits are saved as you make them, errors included.", icon="⛔")
    elif warnings:
        st.warning(f"Valid, with {len(warnings)} warning(s).", icon="⚠️")
    else:
        st.success("The model is valid.", icon="✅")
    missing_views.what_to_add_on_the_model_page(document, problems)

tabs = st.tabs(["Table & traffic", "Entities & attributes", "Relationships", "Access patterns", "File"],
               key="model.tabs")
with tabs[0]:
    model_editor.table_tab(document, problems)
with tabs[1]:
    model_editor.entities_tab(document, problems)
with tabs[2]:
    model_editor.relationships_tab(document, problems)
with tabs[3]:
    model_editor.patterns_tab(document, problems)
with tabs[4]:
    file_tab(document, session.current_slug())
