"""The Preview page's widgets: loading with progress, the pass/fail summary, and one pattern's detail."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from studio.errors import EndpointError, LoadInterrupted, ModelingError, RequestBuildError
from studio.preview import (
    LoadReport,
    PatternResult,
    PatternRun,
    PreviewData,
    PreviewReport,
    PreviewRun,
    PreviewSetup,
    already_loaded,
    cleanup_preview,
    input_attributes,
    load_preview,
    parse_input_value,
    python_code,
    run_preview,
)
from ui import session
from ui.sidebar import endpoint_changed
from ui.text import plain

_STATE = "preview.state"


def _state(setup: PreviewSetup) -> dict[str, Any]:
    """What this session knows about its preview table; reset when the setup changes."""
    key = (setup.table.name, setup.design.name, setup.total_items, setup.seed, setup.model.model_dump_json())
    state = st.session_state.get(_STATE)
    if not isinstance(state, dict) or state.get("key") != key:
        resume = state.get("resume") if isinstance(state, dict) else None
        state = {"key": key, "resume": resume}
        st.session_state[_STATE] = state
    return state


def load_controls(setup: PreviewSetup) -> None:
    state = _state(setup)
    columns = st.columns(3)
    resume = state.get("resume")
    label = "Resume loading" if resume is not None else "Load sample data"
    if state.get("interrupted"):  # kept over the rerun that turned the button into "Resume loading"
        st.error(f"{plain(state.pop('interrupted'))} (press Resume loading).", icon="⚠️")
    if state.pop("loading", False):  # the last load never finished: Cancel (or leaving the page) stopped it
        st.info("Loading was cancelled; what was written stays in the table until you load again, which "
                "starts from a fresh table.", icon="⏹️")
    if columns[0].button(label, type="primary", key="preview.load"):
        _load(setup, state, resume)
    if columns[1].button("Clean up (delete the preview table)", key="preview.cleanup"):
        endpoint_changed()
        try:
            deleted = cleanup_preview(setup)
        except ModelingError as exc:  # the endpoint, or a table this installation did not create
            st.error(plain(exc), icon="⛔")
        else:
            state.pop("report", None)
            state["data"] = None
            name = plain(setup.table.name)
            st.success(f"Deleted {name}." if deleted else f"There was no table {name}.")
    loaded: LoadReport | None = state.get("load_report")
    if loaded is not None:
        load_figures(loaded, columns[2])


def load_figures(loaded: LoadReport, column: Any) -> None:
    """What the table really holds after the load (counted, not assumed), and any shortfall, in plain view."""
    column.metric("Items in the table", f"{loaded.items_counted:,}",
                  delta=None if loaded.complete else f"{-loaded.shortfall:,} vs {loaded.items_expected:,} generated",
                  help="Counted with a Scan after the load")
    attempts = f" over {loaded.attempts} attempts" if loaded.attempts > 1 else ""
    st.caption(f"Counted {loaded.items_counted:,} of {loaded.items_expected:,} generated items after "
               f"{loaded.requests:,} BatchWriteItem requests{attempts} (every retry counted); "
               f"{loaded.items_per_second:,.0f} items/s in the last attempt.")
    if loaded.shortfall > 0:
        st.warning(f"The table holds {loaded.items_counted:,} items: {loaded.shortfall:,} fewer than the "
                   f"{loaded.items_expected:,} generated. Press Load sample data to load them again into a fresh "
                   "table.", icon="⚠️")
    elif loaded.shortfall < 0:
        st.warning(f"The table holds {loaded.items_counted:,} items: {-loaded.shortfall:,} more than the "
                   f"{loaded.items_expected:,} generated (something else wrote to it). Press Load sample data to "
                   "start again from a fresh table.", icon="⚠️")


def _load(setup: PreviewSetup, state: dict[str, Any], resume: Any) -> None:
    bar = st.progress(0.0, text="Creating the table…")
    # Pressing Cancel reruns the page, which stops this script at its next progress update; the load
    # sends nothing more (modeling.preview.loader cancels its pending batches). The button is taken away
    # when the load ends, however it ends (it stayed on the page after a finished load: issue 26.5).
    cancel = st.empty()
    cancel.button("Cancel loading", key="preview.cancel")
    state["loading"] = True
    endpoint_changed()  # the table count in the sidebar is read again on the next run
    try:
        _run_load(setup, state, resume, bar)
    finally:
        cancel.empty()


def _run_load(setup: PreviewSetup, state: dict[str, Any], resume: Any, bar: Any) -> None:

    def progress(done: int, total: int, seconds: float) -> None:
        rate = done / seconds if seconds > 0 else 0.0
        bar.progress(done / max(total, 1), text=f"{done:,} of {total:,} items · {rate:,.0f} items/s")

    try:
        data, report = load_preview(setup, progress, resume)
    except LoadInterrupted as exc:
        state.update(resume=exc.state, interrupted=str(exc))
        state.pop("loading", None)
        st.rerun()  # so that the button says what it now does: Resume loading
    except ModelingError as exc:  # the endpoint, or a table this installation did not create
        state.pop("loading", None)  # a resume state is kept: Resume checks the table again before writing
        bar.empty()
        st.error(f"The preview could not be loaded: {plain(exc)}", icon="⛔")
        return
    state.pop("loading", None)
    bar.empty()
    state.update(data=data, load_report=report, resume=None)
    state.pop("report", None)
    if data.dropped_duplicates:
        st.info(f"{data.dropped_duplicates} generated item(s) had the primary key of an earlier item and were "
                "left out, as DynamoDB would keep only one of them.")


def loaded_data(setup: PreviewSetup) -> PreviewData | None:
    """This session's loaded data, or the same data a table from an earlier session holds in full."""
    state = _state(setup)
    if "data" not in state and not state.get("looked_for_table"):
        state["looked_for_table"] = True
        try:
            state["data"] = already_loaded(setup)
        except EndpointError:
            state["data"] = None  # the sidebar says the endpoint does not answer
        if state["data"] is not None:
            st.info(f"{plain(setup.table.name)} already holds this sample data (loaded earlier); run the patterns, or "
                    "load again to start from a fresh table.", icon="♻️")
    return state.get("data")


def run_controls(setup: PreviewSetup, data: PreviewData) -> PreviewReport | None:
    state = _state(setup)
    if st.button("Run every access pattern", type="primary", key="preview.run_all"):
        bar = st.progress(0.0, text="Running…")
        try:
            state["report"] = run_preview(PreviewRun(setup, data), lambda done, total: bar.progress(
                done / total, text=f"{done} of {total} patterns"))
        except ModelingError as exc:  # the table is gone, or is not this installation's any more
            st.error(f"The patterns were not run: {plain(exc)}", icon="⛔")
        bar.empty()
    return state.get("report")


def summary(report: PreviewReport) -> None:
    columns = st.columns(3)
    columns[0].metric("Patterns passed", f"{report.passed} of {len(report.results)}")
    columns[1].metric("Failed", len(report.failed))
    if report.failed:
        columns[2].error("Failed: " + plain(", ".join(report.failed)), icon="❌")
    else:
        columns[2].success("Every access pattern returned what the data says it should.", icon="✅")
    st.dataframe(pd.DataFrame(report.summary_rows()), hide_index=True, width="stretch")
    st.caption("Measured units follow DynamoDB's rules applied to the items each request really read and wrote "
               "(RCU/WCU when provisioned, RRU/WRU on demand); estimated units come from the model's sizes and "
               "expected item counts.")


def pattern_detail(setup: PreviewSetup, data: PreviewData, report: PreviewReport) -> None:
    names = [r.run.pattern for r in report.results]
    name = st.selectbox("Access pattern", names, key=session.model_key("preview.detail"))
    result = next(r for r in report.results if r.run.pattern == name)
    run = result.run
    (st.success if run.passed else st.error)(f"{plain(name)}: {plain(run.verdict)}", icon="✅" if run.passed else "❌")
    _custom_inputs(setup, data, report, result)
    _custom_result(setup, name)
    columns = st.columns(4)
    columns[0].metric("Items returned", run.returned_count, help="Count")
    columns[1].metric("Items read", run.scanned_count if not run.operation.is_write else 0, help="ScannedCount")
    columns[2].metric("Pages", run.pages)
    columns[3].metric("Latency", f"{run.latency_ms:.0f} ms", help="Against the configured endpoint, not DynamoDB")
    _capacity(result)
    tabs = st.tabs(["boto3 (Python)", "AWS CLI", "JavaScript SDK v3", "Items returned"])
    tabs[0].code(result.python or "# not executed", language="python")
    tabs[1].code(result.cli or "# not executed", language="bash")
    tabs[2].code(result.javascript or "// not executed", language="javascript")
    _outcomes(run)
    with tabs[3]:
        if run.returned:
            st.dataframe(pd.DataFrame([{k: str(v) for k, v in item.items()} for item in run.returned]),
                         hide_index=True)
        if run.comparison and (run.comparison.missing or run.comparison.unexpected):
            st.markdown("**Expected but not returned**")
            st.json(list(run.comparison.missing))
            st.markdown("**Returned but not expected**")
            st.json(list(run.comparison.unexpected))


def _outcomes(run: PatternRun) -> None:
    """A conditional write's cases, the success path and each rejected path, each with the request it sent."""
    if not run.cases:
        return
    st.markdown("**Outcomes** (a write passes only when its success path and its rejected paths both pass)")
    for case in run.cases:
        with st.expander(f"{'✅' if case.passed else '❌'} {plain(case.case)}: {plain(case.expected)}"):
            st.text(case.detail)
            if case.request is not None:
                st.code(python_code(case.request), language="python")


def _capacity(result: PatternResult) -> None:
    capacity = result.capacity
    rows = [{"figure": "measured from the data", "read units": float(capacity.measured.read_units),
             "write units": float(capacity.measured.write_units), "items read": capacity.items_read_measured},
            {"figure": "estimated from the model", "read units": float(capacity.estimated.read_units),
             "write units": float(capacity.estimated.write_units), "items read": capacity.items_read_estimated}]
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.caption(f"Difference: {plain(capacity.explanation)}. "
               + (f"The endpoint reported {capacity.reported_units} units, as computed by "
                  f"{plain(capacity.reported_by)}."
                  if capacity.reported_units is not None else "The endpoint reported no consumed capacity."))


def _custom_inputs(setup: PreviewSetup, data: PreviewData, report: PreviewReport, result: PatternResult) -> None:
    pattern = setup.model.access_pattern(result.run.pattern)
    if pattern is None or not pattern.kind.is_read:
        return
    attributes = input_attributes(pattern)
    if not attributes or not result.run.request or len(result.run.request.inputs) != 1:
        return
    used = result.run.request.inputs[0]
    with st.form(session.model_key(f"preview.inputs.{pattern.name}")):
        st.caption("Run this pattern alone with your own values (the ones used are filled in).")
        typed = {a: st.text_input(plain(a), value=_shown(used.get(a)),
                                  key=session.model_key(f"preview.input.{pattern.name}.{a}"))
                 for a in attributes}
        submitted = st.form_submit_button("Run with these values")
    if not submitted:
        return
    try:
        values = {a: _parsed(setup, pattern, a, text) for a, text in typed.items()}
    except RequestBuildError as exc:
        st.error(f"{plain(exc)}. Fix the value and run again.", icon="⛔")
        return
    try:
        single = run_preview(PreviewRun(setup, data, (pattern.name,), {pattern.name: [values]}))
    except ModelingError as exc:  # the table is gone, or is not this installation's any more
        st.error(f"The pattern was not run: {plain(exc)}", icon="⛔")
        return
    # kept apart from the report: a run with the user's own values never changes the pattern's verdict
    _state(setup).setdefault("custom", {})[pattern.name] = (values, single.results[0])
    st.rerun()


def _custom_result(setup: PreviewSetup, pattern_name: str) -> None:
    """The user's own run of one pattern, labelled as such, under the pattern's verdict."""
    held = _state(setup).get("custom", {}).get(pattern_name)
    if held is None:
        return
    values, result = held
    shown = ", ".join(f"{name} = {_shown(value)}" for name, value in values.items())
    with st.container(border=True):
        st.markdown("**Your run with your own values** (it does not change the verdict above)")
        st.text(f"Values: {shown}")
        st.text(f"{'As the data says' if result.run.passed else 'Not as the data says'}: {result.run.verdict}")
        if result.run.returned:
            st.dataframe(pd.DataFrame([{k: str(v) for k, v in item.items()} for item in result.run.returned]),
                         hide_index=True, key=session.model_key(f"preview.custom_items.{pattern_name}"))


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return " .. ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _parsed(setup: PreviewSetup, pattern: Any, attribute: str, text: str) -> Any:
    if " .. " in text:  # a BETWEEN range: low .. high
        low, high = text.split(" .. ", 1)
        return (parse_input_value(setup.model, pattern, attribute, low),
                parse_input_value(setup.model, pattern, attribute, high))
    return parse_input_value(setup.model, pattern, attribute, text)
