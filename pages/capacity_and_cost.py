"""Capacity & cost page: capacity per access pattern and the monthly cost of every option, with sources."""

import streamlit as st

from costs.errors import CostError
from costs.pricing import available_regions
from modeling.model import TableClass
from ui import cost_views, session
from ui.frame import page_frame
from ui.text import plain

page_frame("Capacity & cost")
document = session.current_document()
st.title(f"Capacity & cost · {plain(document.get('name', 'untitled'))}")
model = session.require_model("it cannot be priced")

regions = list(available_regions())
columns = st.columns([2, 3, 2, 1])
region = columns[0].selectbox("Region", regions, key="cost.region", index=regions.index(model.table.region)
                              if model.table.region in regions else 0)
designs = cost_views.cached_estimate(model.model_dump_json(), None, region, 0.7, False, ()).designs
design = columns[1].selectbox("Design", [d.name for d in designs], key="cost.design")
target = columns[2].slider("Auto scaling target utilisation", 0.2, 0.9, 0.7, 0.05, key="cost.target")
free_tier = columns[3].toggle("Free tier", key="cost.free_tier", help="Per account and Region: off by default")
st.caption("A month is 730 hours (AWS Pricing Calculator convention). Money in USD; line items are rounded "
           "to the cent and totals are their sums.")
overrides = cost_views.price_overrides()
extras = cost_views.usage_extras()
try:
    result = cost_views.cached_estimate(model.model_dump_json(), design, region, target, free_tier, overrides,
                                        extras)
except CostError as exc:
    st.error(f"The estimate could not be made: {plain(exc)}", icon="⛔")
    st.stop()

cost_views.recommendation(result, model.table.table_class)
tabs = st.tabs(["Options", "Access patterns", "Table & indexes", "Auto scaling", "Break-even", "Designs",
                "Assumptions & prices", "Quick calculator"])
with tabs[0]:
    cost_views.options_tab(result)
with tabs[1]:
    cost_views.patterns_tab(result)
with tabs[2]:
    cost_views.resources_tab(result)
with tabs[3]:
    cost_views.autoscaling_tab(result, target)
with tabs[4]:
    cost_views.break_even_tab(result, TableClass(model.table.table_class))
with tabs[5]:
    cost_views.designs_tab(result)
with tabs[6]:
    cost_views.assumptions_tab(result)
with tabs[7]:
    cost_views.quick_calculator()
