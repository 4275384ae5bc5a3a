"""Import & export page: the design as CloudFormation, Terraform or create-table JSON (with alarms and a
dashboard); a load test from the access patterns; a live table as a model."""

import streamlit as st

from ui import import_export_views, session
from ui.frame import page_frame
from ui.problems import show_problems
from ui.tabs import lazy_tabs
from ui.text import plain

page_frame("Import & export")
document = session.current_document()
st.title(f"Import & export · {plain(document.get('name', 'untitled'))}")
model = session.current_model()
code_tab, load_tab, import_tab = lazy_tabs(["Infrastructure as code", "Load test", "Import a live table"],
                                           key="ie.tab")  # the code and the load test run only when open
with code_tab:
    if code_tab.open:
        if model is None:
            st.error("The model has errors, so it cannot be exported until they are fixed on the Model page.",
                     icon="⛔")
            show_problems(session.current_problems())
        else:
            import_export_views.iac_tab(model)
with load_tab:
    if load_tab.open and model is not None:
        import_export_views.load_test_tab(model)
with import_tab:  # runs even when hidden: a form's typing lives in the browser until it is submitted (ui.tabs)
    import_export_views.import_tab()
