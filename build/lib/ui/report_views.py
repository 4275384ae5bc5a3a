"""Widgets of the Report page: the estimate's inputs, the cached report, the downloads and the preview.

The inputs default to the Capacity & cost page's choices when that page set them in this session, and
negotiated prices and backup/stream inputs are shared with it, so both pages price the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import streamlit as st

from costs import charts
from costs.capacity import UsageExtras
from costs.estimate import EstimateRequest
from costs.pricing import PriceItem, available_regions
from costs.review_render import block_markdown, review_html, review_markdown
from costs.review_report import Chart, ModelSource, ReviewReport, ReviewRequest, build_review_report
from modeling.generator import propose_designs
from modeling.model import Model, TableClass
from modeling.model_file import FileFormat, dump_document
from ui import cost_views


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
    regions = list(available_regions())
    region_default = st.session_state.get("cost.region", model.table.region)
    designs = [d.name for d in propose_designs(model)]
    design_default = st.session_state.get("cost.design", designs[0])
    columns = st.columns([2, 3, 2, 1])
    region = columns[0].selectbox("Region", regions, key="report.region",
                                  index=regions.index(region_default) if region_default in regions else 0)
    design = columns[1].selectbox("Design", designs, key="report.design",
                                  index=designs.index(design_default) if design_default in designs else 0)
    target = columns[2].slider("Auto scaling target utilisation", 0.2, 0.9,
                               float(st.session_state.get("cost.target", 0.7)), 0.05, key="report.target")
    free_tier = columns[3].toggle("Free tier", bool(st.session_state.get("cost.free_tier", False)),
                                  key="report.free_tier", help="Per account and Region: off by default")
    return ReportSettings(region, design, target, free_tier, cost_views.price_overrides(),
                          cost_views.usage_extras())


@st.cache_data(show_spinner="Building the cost-review report…", max_entries=8, ttl=600)
def cached_report(model_json: str, file: ModelFile, chosen: ReportSettings) -> ReviewReport:
    """The report, stamped with the time it was built (cached ten minutes at most, so the stamp stays true)."""
    overrides = tuple((PriceItem(i), TableClass(c) if c else None, Decimal(v)) for i, c, v in chosen.overrides)
    request = EstimateRequest(Model.model_validate_json(model_json), chosen.design, chosen.region,
                              chosen.target_utilization, chosen.free_tier, overrides, extras=chosen.extras)
    source = ModelSource.of_bytes(file.name, file.text.encode("utf-8"))
    return build_review_report(ReviewRequest(request, source, datetime.now(UTC)))


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
