"""Model page: entities, attributes, relationships and access patterns, autosaved as you edit.

Each grid tab is a fragment (ui.model_editor): a commit in a grid reruns only that tab, so the browser
redraws nothing else while the user types on into the next cell (issue 14, item 2). Switching tabs
reruns the whole page, so the tab the user opens (the YAML box, another grid's choices) is drawn from
the model as it is now.
"""

import streamlit as st

from ui import model_editor, session
from ui.file_tab import file_tab
from ui.frame import page_frame
from ui.text import plain

page_frame("Model")
model_editor.apply_all_pending()
document = session.current_document()
problems = session.current_problems()

st.title(f"Model · {plain(document.get('name', 'untitled'))}")
model_editor.status_line(problems)

tabs = st.tabs(["Table & traffic", "Entities & attributes", "Relationships", "Access patterns", "File"],
               key="model.tab", on_change="rerun")
with tabs[0]:
    model_editor.table_tab(document, problems)
with tabs[1]:
    model_editor.entities_tab()
with tabs[2]:
    model_editor.relationships_tab()
with tabs[3]:
    model_editor.patterns_tab()
with tabs[4]:
    file_tab(document, session.current_slug())
