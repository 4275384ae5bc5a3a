"""Widgets of the Import & export page: infrastructure as code for the open model, and a live-table import."""

from __future__ import annotations

import streamlit as st

from studio.design import propose
from studio.errors import CostError, EndpointError, ModelingError, WorkspaceError
from studio.interop import (
    DEFAULT_SAMPLE_ITEMS,
    LABELS,
    MAX_SAMPLE_ITEMS,
    IacFormat,
    ImportRequest,
    InfrastructureExport,
    InfrastructureRequest,
    MonitoringOptions,
    export_infrastructure,
    import_live_table,
    list_table_names,
    parse_tags,
)
from studio.load_test import LoadTest, LoadTestFormat, export_load_test
from studio.model import BillingMode, Model
from studio.preview import configured_endpoint
from studio.workspace import workspace_table_name
from ui import missing_views, session
from ui.tabs import KEEP, kept_text
from ui.text import plain
from workshop.isolation import LIVE_IMPORT_ENV, live_import_allowed, visible_tables, workshop_mode

_LANGUAGES = {IacFormat.CLOUDFORMATION: "yaml", IacFormat.TERRAFORM: "hcl", IacFormat.CLI_JSON: "json"}
_MIME = {IacFormat.CLOUDFORMATION: "application/x-yaml", IacFormat.TERRAFORM: "text/plain",
         IacFormat.CLI_JSON: "application/json"}
_RESULT_KEY = "import.result"


@st.cache_data(show_spinner="Writing the code…", max_entries=32)
def cached_export(model_json: str, fmt: str, design: str | None, auto_scaling: bool, target: float,
                  tags: tuple[tuple[str, str], ...], monitoring: tuple[bool, bool, str] = (True, True, "")
                  ) -> InfrastructureExport:
    alarms, account_alarms, topic = monitoring
    return export_infrastructure(InfrastructureRequest(
        Model.model_validate_json(model_json), IacFormat(fmt), design, auto_scaling, target, tags=tags,
        monitoring=MonitoringOptions(alarms, account_alarms, alarms, topic)))


def iac_tab(model: Model) -> None:
    if not missing_views.has_design(model):  # an empty model: what to add, and the import tab still works
        return
    columns = st.columns([2, 2, 3])
    formats: list[IacFormat] = list(IacFormat)  # typed: in radio's context list() alone infers list[Never]
    fmt = columns[0].radio("Format", formats, format_func=LABELS.get, key=session.model_key("iac.format"),
                           persist_state=KEEP)  # kept while another tab is open (ui.tabs)
    designs = [d.name for d in propose(model)]
    design = columns[1].selectbox("Design", designs, key=session.model_key("iac.design"), persist_state=KEEP,
                                  help="The model's own key design if it has one, else the proposals")
    tags_text = columns[2].text_area("Tags (one KEY=VALUE per line)",
                                     key=kept_text(session.model_key("iac.tags")), persist_state=KEEP,
                                     height=90)
    provisioned = model.table.billing_mode is BillingMode.PROVISIONED
    auto_scaling, target = True, 0.7
    if provisioned:
        left, right = st.columns(2)
        auto_scaling = left.toggle("Auto scaling", value=True,
                                   key=session.model_key("iac.auto_scaling"), persist_state=KEEP,
                                   help="Target tracking on reads and writes of the table and every GSI")
        target = right.slider("Target utilisation", 0.2, 0.9, 0.7, 0.05,
                              key=session.model_key("iac.target"), persist_state=KEEP)
    alarm_columns = st.columns([1, 1, 2])
    alarms = alarm_columns[0].toggle("Alarms and dashboard", value=True,
                                     key=session.model_key("iac.alarms"), persist_state=KEEP,
                                     help="CloudWatch alarms with thresholds from the estimate, and a dashboard "
                                          "(CloudFormation and Terraform)")
    account_alarms = alarm_columns[1].toggle("Account-level alarms", value=True,
                                             key=session.model_key("iac.account_alarms"),
                                             persist_state=KEEP, disabled=not alarms,
                                             help="UserErrors and the account utilisation alarms: keep them in "
                                                  "one stack per account and Region")
    topic = alarm_columns[2].text_input("SNS topic ARN for the alarms (optional)",
                                        key=kept_text(session.model_key("iac.alarm_topic")),
                                        persist_state=KEEP, disabled=not alarms,
                                        placeholder="arn:aws:sns:us-east-1:123456789012:ops")
    try:
        result = cached_export(model.model_dump_json(), fmt.value, design, auto_scaling, target,
                               parse_tags(tags_text), (alarms, alarms and account_alarms, topic.strip()))
    except (ModelingError, CostError) as exc:
        st.error(f"The code could not be written: {plain(str(exc))}", icon="⛔")
        return
    _capacity_source(result, provisioned)
    for note in result.code.notes[1 if provisioned else 0:]:
        st.info(note, icon="ℹ️")  # built from validated names and Regions; backticks show commands
    st.download_button(f"Download {result.code.file_name}", result.code.text, file_name=result.code.file_name,
                       mime=_MIME[result.code.format], key="iac.download", icon="⬇️")
    st.code(result.code.text, language=_LANGUAGES[result.code.format], line_numbers=True)


@st.cache_data(show_spinner="Writing the load test…", max_entries=16)
def cached_load_test(model_json: str, fmt: str, design: str | None) -> LoadTest:
    return export_load_test(Model.model_validate_json(model_json), LoadTestFormat(fmt), design)


_LOAD_TEST_LABELS = {LoadTestFormat.LOCUST: "Locust (Python)", LoadTestFormat.K6: "k6 (JavaScript)"}


def load_test_tab(model: Model) -> None:
    if not missing_views.has_design(model):
        return
    st.markdown("A load test whose mix follows the access patterns' traffic, sending the Preview page's "
                "requests over its seeded sample data. It writes to the table: point it at a test table.")
    left, right = st.columns(2)
    tools: list[LoadTestFormat] = list(LoadTestFormat)  # typed: in radio's context list() alone infers list[Never]
    fmt = left.radio("Tool", tools, format_func=_LOAD_TEST_LABELS.get,
                     key=session.model_key("loadtest.format"),
                     persist_state=KEEP)
    design = right.selectbox("Design", [d.name for d in propose(model)],
                             key=session.model_key("loadtest.design"),
                             persist_state=KEEP)
    try:
        result = cached_load_test(model.model_dump_json(), fmt.value, design)
    except (ModelingError, CostError) as exc:
        st.error(f"The load test could not be written: {plain(str(exc))}", icon="⛔")
        return
    st.dataframe([{"access pattern": p.pattern, "operation": str(p.operation), "share": f"{p.share:.2%}",
                   "weight": p.weight} for p in result.patterns], hide_index=True, key="loadtest.mix")
    for pattern, reason in result.skipped:
        st.warning(f"{pattern} is left out of the load test: {plain(reason)}", icon="⚠️")
    st.download_button(f"Download {result.file_name}", result.text, file_name=result.file_name,
                       mime="text/x-python" if fmt is LoadTestFormat.LOCUST else "text/javascript",
                       key="loadtest.download", icon="⬇️")
    st.code(result.text, language="python" if fmt is LoadTestFormat.LOCUST else "javascript", line_numbers=True)


def _capacity_source(result: InfrastructureExport, provisioned: bool) -> None:
    if not provisioned:
        st.caption("The table is on-demand (PAY_PER_REQUEST): no capacities to set. Change the billing mode "
                   "on the Model page to export provisioned capacity.")
        return
    st.info(result.code.notes[0], icon="📐")
    st.dataframe(result.capacity_rows(), hide_index=True, key="iac.capacities")


def import_tab() -> None:
    st.markdown("Describe a table on the configured endpoint, read a bounded sample of its items, and open "
                "a model with its entities and key design filled in. Read-only: nothing is written to the table.")
    if not live_import_allowed():
        st.info("In a workshop, importing a live table is off: the endpoint holds every attendee's tables. "
                f"The instructor can turn it on by starting the server with {LIVE_IMPORT_ENV}=1 (other "
                "attendees' preview tables stay hidden even then).", icon="🔒")
        return
    try:
        endpoint = configured_endpoint()
        tables = _own_tables(list_table_names(endpoint))
    except EndpointError as exc:
        st.error(f"The endpoint's tables cannot be listed: {plain(str(exc))}", icon="🔌")
        tables = []
    else:
        if not tables:
            st.caption(f"{plain(endpoint.describe())} has no tables yet; type a table name, or point "
                       "DESIGN_STUDIO_ENDPOINT at the endpoint that holds it.")
    with st.form("import.form", border=False):
        if tables:
            table = st.selectbox(f"Table on {plain(endpoint.describe())}", tables, key="import.table")
        else:
            table = st.text_input("Table name", key="import.table_name")
        sample = st.number_input("Items to read at most", 1, MAX_SAMPLE_ITEMS, DEFAULT_SAMPLE_ITEMS, step=100,
                                 key="import.sample_items",
                                 help="A Scan with this Limit; a Scan is billed on the items it reads")
        submitted = st.form_submit_button("Import as a new model", icon="📥")
    if submitted:
        _run_import(table or "", int(sample))
    _show_result()


def _own_tables(names: list[str]) -> list[str]:
    """In a workshop, every table but the other attendees' preview tables; elsewhere all of them. Never the
    workspace table: it holds every session's drafts, not a design to import."""
    workspace = _workspace_table()
    names = [n for n in names if n != workspace]
    return visible_tables(names, session.table_namespace()) if workshop_mode() else names


def _workspace_table() -> str | None:
    try:
        return workspace_table_name()
    except WorkspaceError:
        return None  # not a table name, so no listed table is it (the workspace itself says what is wrong)


def _run_import(table: str, sample: int) -> None:
    if table and table == _workspace_table():
        st.error("That table is the studio's workspace (it holds the saved models), so it cannot be imported.",
                 icon="🔒")
        return
    if not _own_tables([table]):
        st.error("That table is another workshop attendee's preview table, so it cannot be imported here.",
                 icon="🔒")
        return
    try:
        result = import_live_table(configured_endpoint(), ImportRequest(table, sample))
    except EndpointError as exc:
        st.error(f"The table could not be imported: {plain(str(exc))}", icon="⛔")
        return
    slug = session.open_new_document(result.document)
    st.session_state[_RESULT_KEY] = (slug, result.document["name"], result.inferred)
    st.rerun()


def _show_result() -> None:
    stored = st.session_state.get(_RESULT_KEY)
    if not stored:
        return
    slug, name, inferred = stored
    st.success(f"Opened **{plain(name)}** as a new model ({plain(slug)}). Add its access patterns and their "
               "traffic on the Model page; the key design is already filled in.", icon="✅")
    st.page_link("pages/model.py", label="Go to the Model page", icon="✏️")
    st.markdown("**What was inferred** (check it against what you know of the table)")
    for line in inferred:
        st.text(f"• {line}")
