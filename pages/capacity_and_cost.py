"""Capacity & cost page: capacity per access pattern and the monthly cost of every option, with sources."""

import streamlit as st

from studio.errors import CostError
from studio.model import TableClass
from ui import cost_views, missing_views, session
from ui.frame import page_frame
from ui.tabs import lazy_tabs
from ui.text import plain

page_frame("Capacity & cost")
document = session.current_document()
st.title(f"Capacity & cost · {plain(document.get('name', 'untitled'))}")
model = session.require_model("it cannot be priced")
missing_views.require_design(model)

region, design, target, free_tier = cost_views.choice_widgets(model)
st.caption("A month is 730 hours (AWS Pricing Calculator convention). Money in USD; line items are rounded "
           "to the cent and totals are their sums.")
overrides = cost_views.price_overrides()
extras = cost_views.usage_extras()
try:
    result = cost_views.estimate(model, design, region, target, free_tier, overrides, extras)
except CostError as exc:
    st.error(f"The estimate could not be made: {plain(exc)}", icon="⛔")
    st.stop()

cost_views.region_notice(result)
cost_views.price_source(result)
cost_views.quota_findings(result)
cost_views.recommendation(result, model.table.table_class)
tabs = lazy_tabs(["Options", "Access patterns", "Table & indexes", "Auto scaling", "Break-even", "Designs",
                  "Assumptions & prices", "Quick calculator"], key="cost.tab")  # a tab's body runs only when it is open
with tabs[0]:
    if tabs[0].open:
        cost_views.options_tab(result)
with tabs[1]:
    if tabs[1].open:
        cost_views.patterns_tab(result)
with tabs[2]:
    if tabs[2].open:
        cost_views.resources_tab(result)
with tabs[3]:
    if tabs[3].open:
        cost_views.autoscaling_tab(result, target)
with tabs[4]:
    if tabs[4].open:
        cost_views.break_even_tab(result, TableClass(model.table.table_class))
with tabs[5]:
    if tabs[5].open:
        cost_views.designs_tab(result)
with tabs[6]:
    if tabs[6].open:
        cost_views.assumptions_tab(result)
with tabs[7]:  # runs even when hidden: a form's typing lives in the browser until it is submitted (ui.tabs)
    cost_views.quick_calculator()
