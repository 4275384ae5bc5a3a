"""Layout page: candidate key designs, the table as sample items, charts, overrides and checks."""

import streamlit as st

from studio.design import adopt_design
from studio.errors import problems_under
from ui import layout_views, missing_views, session
from ui.frame import page_frame
from ui.problems import show_problems
from ui.text import plain

page_frame("Layout")
document = session.current_document()
st.title(f"Layout · {plain(document.get('name', 'untitled'))}")
model = session.current_model()
if model is None:
    problems = session.current_problems()
    st.error("The model has errors, so its designs cannot be shown until they are fixed (key design "
             "errors here, the others on the Model page).", icon="⛔")
    show_problems(problems)
    if "key_design" in document:
        layout_views.overrides(document, True)
    st.stop()
missing_views.require_design(model)

model_json = model.model_dump_json()  # once: a 500-entity model takes ~30 ms to dump
left, middle, right = st.columns([3, 2, 2])
design_name = left.radio("Design", layout_views.design_names(model_json), horizontal=True,
                         key=session.model_key("layout.design"))
index = middle.selectbox("View through", layout_views.view_paths(model_json, design_name),
                         key=session.model_key("layout.index"),
                         help="See the same items through an index")
items = right.slider("Items per entity", 1, 12, 4, key=session.model_key("layout.items"))
result = layout_views.cached_layout(model_json, design_name, index, items, 42)

st.markdown("**Candidates side by side**")
st.dataframe(list(result.comparison), hide_index=True, width="stretch", key="layout.comparison")
if result.search_note:
    st.caption(result.search_note)
st.markdown(f"**{plain(result.design.name)}** — {plain(result.design.summary)}")
if result.design.name != "Your design" and st.button("Use this design as mine (then override anything)",
                                                     key="layout.adopt"):
    session.save_document(adopt_design(document, result.design), session.current_scope())
    st.rerun()

errors = sum(f.severity == "error" for f in result.findings)
tabs = st.tabs(["Table", "Entity chart", "Access-pattern chart", f"Checks ({errors} errors)", "Overrides"])
with tabs[0]:
    layout_views.table_view(result, layout_views.entity_colours(model))
with tabs[1]:
    layout_views.entity_chart(result)
with tabs[2]:
    layout_views.pattern_chart(result)
with tabs[3]:
    layout_views.checks(result)
with tabs[4]:
    layout_views.overrides(document, "key_design" in document)
    show_problems(problems_under(session.current_problems(), "key_design"),
                  empty_note="No problems in the key design.")
