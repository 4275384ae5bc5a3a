"""Start page: what the product is for, the open model at a glance, and the built-in examples."""

import streamlit as st

from modeling.examples import example_document, list_examples
from modeling.summary import document_summary
from ui import session
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
columns = st.columns(5)
columns[0].metric("Entities", summary.entity_count)
columns[1].metric("Access patterns", summary.access_pattern_count)
columns[2].metric("Peak requests/s (sum)", f"{summary.peak_requests_per_second:,.0f}")
columns[3].metric("Errors", summary.error_count)
columns[4].metric("Warnings", summary.warning_count)
st.caption("Edit it on the Model page (sidebar), or open an example below as a new model.")

st.subheader("Built-in examples")
for example in list_examples():
    with st.container(border=True):
        st.markdown(f"**{example.name}**")
        st.caption(example.description)
        if st.button("Open as a new model", key=f"start.open.{example.slug}"):
            session.open_new_document(example_document(example.slug))
            st.switch_page("pages/model.py")
