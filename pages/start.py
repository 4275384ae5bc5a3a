"""Start page: what the product is for, the open model at a glance, and the built-in examples."""

import streamlit as st

from studio.examples import example_document, list_examples
from studio.model import document_summary
from ui import session, start_views
from ui.frame import page_frame
from ui.text import plain

page_frame("Start")
st.title("DynamoDB Design Studio")
st.markdown(
    "Design DynamoDB tables from their access patterns: list entities and how the application reads "
    "and writes them, get a key design, run it on sample data, and see hot partitions and monthly cost "
    "before launch.")

summary = document_summary(session.current_document(), session.current_problems())
st.subheader(f"Open model: {plain(summary.name)}")
start_views.summary_metrics(summary, session.current_model())
st.caption("Edit it on the Model page (sidebar), start a new model below, or open an example as a new model.")
start_views.new_model_form()

st.subheader("Built-in examples")
for example in list_examples():
    with st.container(border=True):
        st.markdown(f"**{example.name}**")
        st.caption(example.description)
        if st.button("Open as a new model", key=f"start.open.{example.slug}"):
            session.open_new_document(example_document(example.slug))
            st.switch_page("pages/model.py")
