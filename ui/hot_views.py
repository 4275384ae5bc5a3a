"""Widgets of the Hot partitions page: inputs for the scenario and what-ifs, the report's charts and tables."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from studio import charts
from studio.design import SEVERITY_RANK, Design, FindingSeverity, check_design, propose
from studio.hot_partitions import (
    PAGE_KEY_VALUES,
    BurstScenario,
    HotPartitionReport,
    HotPartitionRequest,
    analyse_hot_partitions,
    display_frame,
)
from studio.model import Model
from ui import session
from ui.text import plain

SCALES = {"10 thousand": 10_000, "100 thousand": 100_000, "1 million": 1_000_000, "10 million": 10_000_000}
DEFAULT_SCALE_INDEX = list(SCALES.values()).index(PAGE_KEY_VALUES)  # the report's scale too
_ICONS = {FindingSeverity.ERROR: "⛔", FindingSeverity.WARNING: "⚠️", FindingSeverity.INFO: "ℹ️"}


@st.cache_data(show_spinner=False, max_entries=16)
def design_names(model_json: str) -> list[str]:
    return [d.name for d in propose(Model.model_validate_json(model_json))]


@st.cache_data(show_spinner=False, max_entries=16)
def design_indexes(model_json: str, design_name: str) -> list[str]:
    design = _design(Model.model_validate_json(model_json), design_name)
    return ["table", *(i.name for i in design.key_design.global_secondary_indexes)]


_PARTITION_CHECKS = ("DDS101", "DDS102", "DDS103")


@st.cache_data(show_spinner=False, max_entries=16)
def worst_index(model_json: str, design_name: str) -> str | None:
    """The table or index of the most severe partition-key finding of the design, if any."""
    model = Model.model_validate_json(model_json)
    findings = [f for f in check_design(model, _design(model, design_name)) if f.check_id in _PARTITION_CHECKS]
    findings.sort(key=lambda f: (SEVERITY_RANK[f.severity], f.check_id, f.index or "table"))
    return (findings[0].index or "table") if findings else None


def choose_index(indexes: list[str], worst: str | None) -> None:
    """Open on the index a link asked for (`?index=`), else on the one with the worst finding; the
    user's own later choice is kept. The link's parameter is used once, then dropped from the URL."""
    requested, key = st.query_params.get("index"), session.model_key("hot.index")
    if requested is not None:
        del st.query_params["index"]
        if requested in indexes:
            st.session_state[key] = requested
            return
    if st.session_state.get(key) not in indexes and worst in indexes:
        st.session_state[key] = worst


def _design(model: Model, name: str) -> Design:
    designs = propose(model)
    return next((d for d in designs if d.name == name), designs[0])


@st.cache_data(show_spinner="Simulating key populations and traffic…", max_entries=16)
def cached_report(model_json: str, design_name: str, index: str, key_values: int, seed: int,
                  scenario: BurstScenario | None, shards: int, entity: str | None,
                  partition_count: int | None) -> HotPartitionReport:
    model = Model.model_validate_json(model_json)
    return analyse_hot_partitions(HotPartitionRequest(
        model=model, design=_design(model, design_name), index=index, max_key_values=key_values, seed=seed,
        scenario=scenario, shard_count=shards, alternative_entity=entity, partition_count=partition_count))


def scenario_inputs(model: Model) -> BurstScenario | None:
    """A burst on one pattern: how many requests, over how long, on the busiest key or spread out."""
    with st.expander("Burst scenario (e.g. 3,700 sign-ups in 200 ms on one key value)"):
        patterns = ["(none)", *(p.name for p in model.access_patterns)]
        columns = st.columns(5)
        pattern = columns[0].selectbox("Pattern", patterns, key=session.model_key("hot.burst_pattern"))
        requests = columns[1].number_input("Requests in the burst", 1, 10_000_000, 3700,
                                           key=session.model_key("hot.burst_requests"))
        duration = columns[2].number_input("Duration (s)", 0.1, 3600.0, 0.2, 0.1,
                                           key=session.model_key("hot.burst_duration"))
        resolution = columns[3].selectbox("Resolution", [0.1, 1.0], key=session.model_key("hot.burst_resolution"),
                                          format_func=lambda s: "100 ms" if s < 1 else "1 s")
        on_one_key = columns[4].toggle("All on one key value", True, key=session.model_key("hot.burst_one_key"))
    if pattern == "(none)":
        return None
    return BurstScenario(pattern=pattern, requests=float(requests), duration_seconds=float(duration),
                         resolution_seconds=float(resolution), key_rank=1 if on_one_key else None,
                         window_seconds=max(10.0, float(duration) * 5))


def findings(report: HotPartitionReport) -> None:
    if not report.findings:
        st.success("No partition-key value or partition goes over DynamoDB's limits at peak.", icon="✅")
    for finding in report.findings:
        text = (f"**{plain(finding.index)} · {plain(finding.key_value)}** — {plain(finding.message)}"
                f"  \n→ {plain(finding.fix)}")
        if finding.pattern:
            text += f"  \n(access pattern: {plain(finding.pattern)})"
        {FindingSeverity.ERROR: st.error, FindingSeverity.WARNING: st.warning}.get(finding.severity, st.info)(
            text, icon=_ICONS[finding.severity])


def distribution(report: HotPartitionReport, index: str) -> None:
    _table(display_frame(report.skew), "hot.skew")
    st.plotly_chart(charts.key_traffic_histogram(report.key_profile, index), key="hot.histogram")
    left, right = st.columns([3, 2])
    left.plotly_chart(charts.top_keys_bar(report.keys, index), key="hot.top_keys_chart")
    top = report.keys[report.keys["index"] == index].nsmallest(20, "key_rank")
    right.dataframe(display_frame(top, drop=("index",)), hide_index=True, width="stretch", key="hot.top_keys")


NO_BURST_NOTE = ("Partitions over time shows a burst: extra requests of one pattern for a while, second by "
                 "second (or every 100 ms). Without one, every second at peak carries the same load, so the "
                 "chart would be flat: choose a pattern under \"Burst scenario\" above to see it. The daily "
                 "profile below shows how the peak load moves over the day.")


def timeline(report: HotPartitionReport, scenario: BurstScenario | None) -> None:
    """The burst's partition-by-time heatmap; without a burst, why there is none, and the daily profile."""
    if scenario is None or report.timeline.empty:
        st.info(NO_BURST_NOTE, icon="ℹ️")
    else:
        st.plotly_chart(charts.partition_heatmap(report.timeline), key="hot.heatmap")
        over = report.timeline[report.timeline["excess_utilisation"] > 0]
        if not over.empty:
            st.error(f"Over the limit on {over['partition'].nunique()} partition(s) for "
                     f"{over['time_seconds'].nunique()} time step(s).", icon="🔥")
    st.markdown("**Daily profile** (peak load scaled by the model's traffic profile, per hour UTC)")
    _table(display_frame(pd.DataFrame(report.hourly)), "hot.hourly")


def what_ifs(report: HotPartitionReport) -> None:
    st.markdown("**Write sharding** — N suffixes spread the hot key; each read of it becomes N queries.")
    st.plotly_chart(charts.skew_comparison(report.sharding, "shard_count", "Write sharding what-if"),
                    key="hot.sharding_chart")
    _table(display_frame(report.sharding), "hot.sharding")
    if not report.alternatives.empty:
        st.markdown("**Alternative partition keys**")
        st.plotly_chart(charts.skew_comparison(report.alternatives, "partition_key", "Alternative partition keys"),
                        key="hot.alternatives_chart")
        _table(display_frame(report.alternatives), "hot.alternatives")


def _table(frame: pd.DataFrame, key: str) -> None:
    """A frame with its number columns shown with thousands separators ("205,000", as every other page writes
    them; a stranger saw "205000" here)."""
    numbers = {column: st.column_config.NumberColumn(column, format="localized") for column in frame.columns
               if pd.api.types.is_numeric_dtype(frame[column]) and not pd.api.types.is_bool_dtype(frame[column])}
    st.dataframe(frame, hide_index=True, width="stretch", key=key, column_config=numbers)
