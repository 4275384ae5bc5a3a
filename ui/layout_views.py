"""Widgets of the Layout page: the sample table through an access path, the charts, the overrides."""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from studio import editing
from studio.design import (
    ENTITY_CHART_COLUMNS,
    ENTITY_COLUMN,
    PATTERN_CHART_COLUMNS,
    FindingSeverity,
    LayoutRequest,
    LayoutResult,
    access_path_names,
    analyse_layout,
    finding_rows,
    markdown_table,
    propose,
    rank_designs,
    ranking_rows,
)
from studio.interop import csv_text
from studio.model import Model, ProjectionType
from ui import model_editor, session
from ui.text import plain

# Colour-blind-safe pastel backgrounds (Okabe-Ito hues, lightened), one per entity in model order.
_ENTITY_COLOURS = ("#fde2b5", "#cfe8f7", "#c9eedd", "#f9f3b6", "#cbdcf0", "#f8d6c4", "#ecd5e6", "#e3e3e3")


@st.cache_data(show_spinner="Building the layout…", max_entries=64)
def cached_layout(model_json: str, design_name: str | None, index: str, items: int, seed: int) -> LayoutResult:
    model = Model.model_validate_json(model_json)
    ranking = rank_designs(model)  # the search's winner first, runners-up with why they lost
    return analyse_layout(LayoutRequest(model, ranking.designs, design_name, index, items, seed,
                                        tuple(ranking_rows(ranking)), ranking.search_note))


@st.cache_data(show_spinner=False, max_entries=16)
def design_names(model_json: str) -> list[str]:
    """The candidates in the pickers' order (`cached_layout`'s designs), from the search alone: nothing is
    priced or laid out to list them."""
    return [d.name for d in propose(Model.model_validate_json(model_json))]


@st.cache_data(show_spinner=False, max_entries=64)
def view_paths(model_json: str, design_name: str | None) -> list[str]:
    """The table and the indexes of the design `cached_layout` shows for `design_name` (the first if none)."""
    designs = propose(Model.model_validate_json(model_json))
    design = next((d for d in designs if d.name == design_name), designs[0])
    return access_path_names(design.key_design)


def entity_colours(model: Model) -> dict[str, str]:
    return {e.name: _ENTITY_COLOURS[i % len(_ENTITY_COLOURS)] for i, e in enumerate(model.entities)}


def cell_text(value: Any) -> str:
    """A sample value as the tables show it: blank where the item has no such attribute, a whole number without
    decimals, a fraction with the digits it has, a list or set as JSON. pandas' Styler showed "None" and
    "2.000000" (a column with a gap became floats, printed to six places; a stranger's session)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, list | tuple | dict):
        return json.dumps(value, default=str, ensure_ascii=False)
    return str(value)


def sample_table(rows: tuple[dict[str, Any], ...], columns: tuple[str, ...], colours: dict[str, str]) -> Styler:
    """The sample items as a table of text (`cell_text`), each row in its entity's colour; the columns no item
    has are left out. The cells are the text itself, not numbers formatted for display: Streamlit's grid draws
    an empty cell of a Styler as "None" whatever its display text (a stranger's browser)."""
    frame = pd.DataFrame(list(rows), columns=list(columns), dtype=object).dropna(axis="columns", how="all")
    shown = frame.map(cell_text)
    return shown.style.apply(
        lambda row: [f"background-color: {colours.get(row[ENTITY_COLUMN], '')}"] * len(row), axis=1)


def table_view(result: LayoutResult, colours: dict[str, str]) -> None:
    view = result.view
    st.dataframe(sample_table(view.rows, view.columns, colours), hide_index=True, width="stretch",
                 key="layout.table")
    st.caption(f"{len(view.rows)} sample items through {plain(view.index)}, sorted by {plain(view.partition_key)}"
               + (f" then {plain(view.sort_key)}" if view.sort_key else "") + "; colours show the entity.")
    if view.absent:
        st.markdown(f"**Not in {plain(view.index)}** ({len(view.absent)} items: a sparse index leaves out items "
                    "without its keys, and they cost nothing in it)")
        absent = pd.DataFrame(list(view.absent), dtype=object).map(cell_text)
        st.dataframe(absent, hide_index=True, width="stretch", key="layout.absent")


def chart_with_downloads(name: str, rows: tuple[dict[str, Any], ...], columns: tuple[str, ...]) -> None:
    frame = pd.DataFrame(list(rows), columns=list(columns))
    st.dataframe(frame, hide_index=True, width="stretch", key=f"layout.{name}")
    left, right = st.columns(2)
    left.download_button("Download CSV", csv_text(rows, columns), f"{name}.csv", mime="text/csv",
                         key=f"layout.{name}.csv")
    right.download_button("Download Markdown", markdown_table(list(rows), columns), f"{name}.md",
                          mime="text/markdown", key=f"layout.{name}.md")


def entity_chart(result: LayoutResult) -> None:
    chart_with_downloads("entity-chart", result.entity_chart, ENTITY_CHART_COLUMNS)
    for choice in result.design.index_reasons:
        st.markdown(f"- **{plain(choice.index)}**: {plain(choice.reason)}")


def pattern_chart(result: LayoutResult) -> None:
    chart_with_downloads("access-pattern-chart", result.pattern_chart, PATTERN_CHART_COLUMNS)


def overrides(document: dict[str, Any], has_own_design: bool) -> None:
    """Edit the model's own key design: templates per entity and index, and the index definitions."""
    if not has_own_design:
        st.info("The model has no key design of its own: the candidates above are proposals. "
                "Adopt one to override any template, index or projection.")
        return
    st.markdown("**Key templates** — `{attribute}` references, `{number:10}` pads to 10 digits; "
                "`only_when` makes a sparse index, e.g. `status=OPEN`.")
    model_editor.table_editor("layout.templates", editing.key_template_rows, editing.TEMPLATE_COLUMNS, {
        "entity": st.column_config.SelectboxColumn("Entity", options=editing.entity_names(document)),
        "index": st.column_config.TextColumn("Table or index", help="`table`, or an index name such as GSI1"),
        "partition_key": st.column_config.TextColumn("Partition key template"),
        "sort_key": st.column_config.TextColumn("Sort key template"),
        "only_when": st.column_config.TextColumn("Only when (sparse)"),
    })
    st.markdown("**Indexes**")
    model_editor.table_editor("layout.indexes", editing.index_definition_rows, editing.INDEX_COLUMNS, {
        "name": st.column_config.TextColumn("Index"),
        "kind": st.column_config.SelectboxColumn("Kind", options=["GSI", "LSI"],
                                             default=editing.INDEX_KIND_DEFAULT),
        "partition_key": st.column_config.TextColumn("Partition key attribute"),
        "sort_key": st.column_config.TextColumn("Sort key attribute"),
        "projection": st.column_config.SelectboxColumn("Projection", options=[p.value for p in ProjectionType]),
        "non_key_attributes": st.column_config.MultiselectColumn(
            "Projected attributes (INCLUDE)", options=editing.attribute_names(document)),
    })


def checks(result: LayoutResult) -> None:
    """Findings with a severity filter; the selected one shows the chart rows it concerns."""
    severities = [s.value for s in FindingSeverity]
    shown = st.multiselect("Severity", severities, default=["error", "warning"],
                           key=session.model_key("layout.severities"))
    findings = [f for f in result.findings if f.severity.value in shown]
    counts = {s: sum(f.severity.value == s for f in result.findings) for s in severities}
    st.caption(" · ".join(f"{counts[s]} {s}" for s in severities) + " — load figures are approximate; "
               "the Capacity & cost page has the exact units.")
    if not findings:
        st.success("No findings at the selected severities.", icon="✅")
        return
    by_label = {f"{_ICONS[f.severity]} {f.check_id} · {plain(f.title)} · {plain(f.path)}": f for f in findings}
    chosen = st.radio("Findings (select one to see what it concerns)", list(by_label),
                      key=session.model_key("layout.finding"))
    finding = by_label[chosen]
    with st.container(border=True):
        st.markdown(f"**{finding.check_id} · {plain(finding.title)}**")
        st.text(finding.message)
        st.markdown(f"**Why it matters.** {plain(finding.explanation)}")
        st.markdown(f"**Fix.** {plain(finding.fix)}")
        st.markdown(f"[AWS documentation]({finding.doc_url})")
        # a button, not a Markdown link: the link keeps the open model, the session and the index
        if finding.check_id in _PARTITION_CHECKS and st.button(
                "See the key values and partitions on the Hot partitions page", key="layout.to_hot"):
            st.switch_page("pages/hot_partitions.py", query_params=session.link_params(index=finding.index or "table"))
    entity_rows, pattern_rows = finding_rows(result, finding)
    if entity_rows:
        st.dataframe(entity_rows, hide_index=True, width="stretch", key="layout.finding_entities")
    if pattern_rows:
        st.dataframe(pattern_rows, hide_index=True, width="stretch", key="layout.finding_patterns")


_PARTITION_CHECKS = {"DDS101", "DDS102", "DDS103"}  # partition-key checks the Hot partitions page shows in detail
_ICONS = {FindingSeverity.ERROR: "⛔", FindingSeverity.WARNING: "⚠️", FindingSeverity.INFO: "ℹ️"}
