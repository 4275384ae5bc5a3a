"""Report page: the cost-review report of the open model, previewed, and downloaded as HTML or Markdown."""

import streamlit as st

from ui import missing_views, report_views, session
from ui.frame import page_frame
from ui.text import plain

page_frame("Cost-review report")
document = session.current_document()
st.title(f"Cost-review report · {plain(document.get('name', 'untitled'))}")
model = session.require_model("the report cannot be made")
missing_views.require_design(model)
st.caption("One document a reviewer can sign off without opening the app: the design and why, checks, hot "
           "partitions, capacity, the cost of every option, price sources, and a sign-off block naming the "
           "exact model file by its SHA-256. Negotiated prices and backup inputs are shared with Capacity & cost.")

chosen = report_views.settings(model)
model_file = report_views.model_file(document, session.current_slug())
report = report_views.report_on_request(model.model_dump_json(), model_file, chosen)
if report is None:
    st.stop()
if report.estimate.region_message:
    st.warning(report.estimate.region_message, icon="⚠️")
report_views.downloads(report, model_file)
report_views.preview(report)
