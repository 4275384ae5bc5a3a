"""Preview page: sample data loaded into the endpoint, every access pattern executed and checked."""

import streamlit as st

from studio.design import propose
from studio.errors import EndpointError
from studio.preview import DEFAULT_PREVIEW_ITEMS, MAX_PREVIEW_ITEMS, configured_endpoint, preview_setup
from ui import missing_views, preview_views, session
from ui.frame import page_frame
from ui.text import plain

page_frame("Preview")
document = session.current_document()
st.title(f"Preview · {plain(document.get('name', 'untitled'))}")
model = session.require_model("it cannot be previewed")
missing_views.require_design(model)
st.caption("Seeded sample data is loaded into the DynamoDB endpoint and every access pattern runs as a real "
           "boto3 call, its answer checked against the data. Keep the sample small: the embedded moto server "
           "reads the whole table for every Query, so a few thousand items is the useful limit.")

designs = {d.name: d for d in propose(model)}
columns = st.columns([3, 2, 1])
design = designs[columns[0].selectbox("Design", list(designs), key=session.model_key("preview.design"))]
total_items = columns[1].number_input("Sample items", 50, MAX_PREVIEW_ITEMS, DEFAULT_PREVIEW_ITEMS, 50,
                                      key=session.model_key("preview.items"))
seed = columns[2].number_input("Seed", 0, 2**31 - 1, 42, key=session.model_key("preview.seed"))
try:
    endpoint = configured_endpoint()
except EndpointError as exc:
    st.error(f"The endpoint is not usable: {plain(exc)}", icon="🔌")
    st.stop()
setup = preview_setup(model, design, endpoint, session.table_namespace(), session.current_slug(),
                      int(total_items), int(seed))
# a table name holds only [A-Za-z0-9_.-] (modeling.preview.tables), so a code span shows it as it is
st.caption(f"Table `{setup.table.name}` on {plain(endpoint.describe())}; it is tagged as created by the product, "
           "which deletes or reloads only tables it created.")

preview_views.load_controls(setup)
data = preview_views.loaded_data(setup)
if data is None:
    st.info("Load the sample data to run the access patterns.", icon="▶️")
    st.stop()
report = preview_views.run_controls(setup, data)
if report is not None:
    preview_views.summary(report)
    preview_views.pattern_detail(setup, data, report)
