"""Widgets of the Report page: the estimate's inputs, building the report, the downloads and the preview.

Building the report is an explicit action (a button): it takes seconds, so a settings change never
rebuilds it on its own. A built report is kept for the exact inputs it was built from (the model's
content, the file, every setting), and shown only while the inputs are those: after an edit or a
settings change the page says the report is out of date instead of showing old numbers.

The inputs default to the Capacity & cost page's choices when that page set them in this session, and
negotiated prices and backup/stream inputs are shared with it, so both pages price the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import streamlit as st

from studio import charts
from studio.errors import CostError, ModelingError
from studio.estimate import EstimateRequest, PriceItem, UsageExtras
from studio.model import FileFormat, Model, TableClass, content_key, dump_document
from studio.report import (
    Chart,
    ModelSource,
    ReviewReport,
    ReviewRequest,
    block_markdown,
    build_review_report,
    review_html,
    review_markdown,
)
from ui import cost_views
from ui.text import plain


@dataclass(frozen=True)
class ReportSettings:
    region: str
    design: str
    target_utilization: float
    free_tier: bool
    overrides: tuple[tuple[str, str, str], ...]
    extras: UsageExtras


@dataclass(frozen=True)
class ModelFile:
    """The model exactly as the Model page downloads it (YAML): the bytes the report's hash refers to."""

    name: str
    text: str


def model_file(document: dict[str, Any], slug: str) -> ModelFile:
    return ModelFile(f"{slug}.yaml", dump_document(document, FileFormat.YAML))


def settings(model: Model) -> ReportSettings:
    """The report's settings: the same choices as the Capacity & cost page (ui.choices), kept per model."""
    region, design, target, free_tier = cost_views.choice_widgets(model, "report")
    return ReportSettings(region, design, target, free_tier, cost_views.price_overrides(), cost_views.usage_extras())


_BUILT_KEY = "report.built"  # this session's built reports, by report_key
_BUILT_KEEP = 4  # the last few settings a reviewer flips between


def report_key(model_json: str, file: ModelFile, chosen: ReportSettings) -> str:
    """Everything the report's bytes depend on but the time it is built: the model, the file it names and
    every setting (repr of frozen dataclasses, so a new setting field is in the key without a change here)."""
    return content_key(model_json, file.name, file.text, repr(chosen))


def built_report(key: str) -> ReviewReport | None:
    """The report this session built for exactly these inputs, if it did (never one for other inputs)."""
    held = st.session_state.get(_BUILT_KEY)
    return held.get(key) if isinstance(held, dict) else None


def build_report(key: str, model_json: str, file: ModelFile, chosen: ReportSettings) -> ReviewReport:
    """Build the report (seconds: the estimate of every design, the checks, a hot-partition simulation)
    with a progress bar, stamped with the time it was built, and keep it for these inputs."""
    bar = st.progress(0.0, text="Building the cost-review report…")
    overrides = tuple((PriceItem(i), TableClass(c) if c else None, Decimal(v)) for i, c, v in chosen.overrides)
    request = EstimateRequest(Model.model_validate_json(model_json), chosen.design, chosen.region,
                              chosen.target_utilization, chosen.free_tier, overrides, extras=chosen.extras)
    source = ModelSource.of_bytes(file.name, file.text.encode("utf-8"))

    def progress(done: float, step: str) -> None:
        bar.progress(done, text=f"{step}…")
    try:
        report = build_review_report(ReviewRequest(request, source, datetime.now(UTC)), progress)
    finally:
        bar.empty()
    held = st.session_state.get(_BUILT_KEY)
    kept = {k: v for k, v in held.items() if k != key} if isinstance(held, dict) else {}
    st.session_state[_BUILT_KEY] = dict([*list(kept.items())[-(_BUILT_KEEP - 1):], (key, report)])
    return report


def report_on_request(model_json: str, file: ModelFile, chosen: ReportSettings) -> ReviewReport | None:
    """The report for these inputs: the one built for them, else built when the button is pressed (None
    until then, with the reason shown when the inputs moved on from a report built before)."""
    key = report_key(model_json, file, chosen)
    report = built_report(key)
    if report is not None:
        return report
    stale = bool(st.session_state.get(_BUILT_KEY))
    if stale:
        st.info("The model or the settings changed since the report was built: build it again to see the report "
                "for these.", icon="🔄")
    if not st.button("Build the report again" if stale else "Build the report", key="report.build", type="primary",
                     icon="📄", help="Takes a few seconds: every design is priced and checked, and its partitions "
                                     "simulated"):
        return None
    try:
        return build_report(key, model_json, file, chosen)
    except (CostError, ModelingError) as exc:
        st.error(f"The report could not be made: {plain(exc)}", icon="⛔")
        return None


def downloads(report: ReviewReport, file: ModelFile) -> None:
    stem = file.name.removesuffix(".yaml")
    left, middle, right = st.columns(3)
    left.download_button("Download the report (HTML)", lambda: review_html(report, charts.review_chart_html(report)),
                         f"cost-review-{stem}.html", "text/html", key="report.download_html", on_click="ignore",
                         type="primary", help="One self-contained file: charts included, no external requests, "
                                              "printable")
    middle.download_button("Download the report (Markdown)", review_markdown(report), f"cost-review-{stem}.md",
                           "text/markdown", key="report.download_md", on_click="ignore")
    right.download_button("Download the model file it refers to (YAML)", file.text, file.name, "application/yaml",
                          key="report.download_model", on_click="ignore",
                          help=f"SHA-256 {report.source.sha256}")


def preview(report: ReviewReport) -> None:
    """The report as it reads, section by section; charts drawn with the same builders as the HTML file."""
    with st.container(border=True):
        st.markdown(block_markdown(report.header))
        for section in report.sections:
            st.subheader(section.title, anchor=section.anchor)
            for block in section.blocks:
                if isinstance(block, Chart):
                    st.plotly_chart(charts.review_figure(block), key=f"report.chart.{block.chart.value}")
                else:
                    st.markdown(block_markdown(block))
