"""Widgets of the Start page: the open model at a glance (model and design findings), and a new model."""

from __future__ import annotations

import streamlit as st

from studio.design import DesignFindingsSummary, design_findings_summary, nothing_to_design, propose
from studio.editing import starter_document
from studio.model import DocumentSummary, Model
from ui import missing_views, session


@st.cache_data(show_spinner=False, max_entries=16)
def _design_findings(model_json: str) -> DesignFindingsSummary:
    model = Model.model_validate_json(model_json)
    return design_findings_summary(model, propose(model)[0])  # the design the Layout page opens on


def summary_metrics(summary: DocumentSummary, model: Model | None) -> None:
    columns = st.columns(6)
    columns[0].metric("Entities", summary.entity_count)
    columns[1].metric("Access patterns", summary.access_pattern_count)
    columns[2].metric("Peak requests/s (sum)", f"{summary.peak_requests_per_second:,.0f}")
    columns[3].metric("Model errors", summary.error_count, help="Problems in the model file (Model page)")
    columns[4].metric("Model warnings", summary.warning_count)
    if model is None:
        columns[5].metric("Design errors · warnings", "—",
                          help="Fix the model's errors first; then the design is checked")
        return
    if nothing_to_design(model):
        columns[5].metric("Design errors · warnings", "—", help="Add an entity first; then the design is checked")
        missing_views.what_to_add(model)
        return
    design = _design_findings(model.model_dump_json())
    columns[5].metric("Design errors · warnings", f"{design.error_count} · {design.warning_count}",
                      help=f"The design checks of {design.design_name}, as the Layout page shows them")
    missing_views.what_to_add(model)


def new_model_form() -> None:
    """Start a model from the first entity and the pattern that reads it; every field has a default."""
    with st.expander("Start a new model"), st.form("start.new_model"):
        name = st.text_input("Model name", "My application", key="start.new.name")
        left, right = st.columns(2)
        entity = left.text_input("First entity (a kind of item)", "Customer", key="start.new.entity")
        identifier = right.text_input("Its identifier attribute", "customerId", key="start.new.identifier")
        items = left.number_input("Expected items", min_value=0, value=100_000, step=1000, key="start.new.items")
        peak = right.number_input("Reads by id at peak (requests/s)", min_value=0.0, value=50.0,
                                  key="start.new.peak")
        if st.form_submit_button("Create and open on the Model page"):
            session.open_new_document(starter_document(name.strip() or "My application",
                                                       entity.strip() or "Customer",
                                                       identifier.strip() or "customerId", int(items), float(peak)))
            st.switch_page("pages/model.py")
