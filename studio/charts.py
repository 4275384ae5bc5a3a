"""The figures the ui draws (plotly), from the domain's charts builders: cost and capacity (`costs.charts`),
hot partitions (`modeling.charts`); and the cost-review report's figures, drawn with those builders from the rows
the report carries and handed to `studio.reports.review_render` as HTML fragments (`review_chart_html`). Kept in
its own module so that no other studio module loads plotly."""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.offline

from costs.charts import (
    autoscaling_curve,
    break_even,
    cost_by_component,
    cost_by_pattern,
    units_by_resource,
)
from modeling.charts import (
    MAX_HEATMAP_PARTITIONS,
    key_traffic_histogram,
    partition_heatmap,
    skew_comparison,
    top_keys_bar,
)
from studio.reports.review_render import ChartHtml
from studio.reports.review_report import Chart, ReviewChart, ReviewReport

__all__ = ["MAX_HEATMAP_PARTITIONS", "autoscaling_curve", "break_even", "cost_by_component", "cost_by_pattern",
           "key_traffic_histogram", "partition_heatmap", "review_chart_html", "review_figure", "skew_comparison",
           "top_keys_bar", "units_by_resource"]


# --- the cost-review report -------------------------------------------------------------------------

REPORT_WIDTH_PX, REPORT_HEIGHT_PX = 680, 380  # fits an A4 page with 14 mm margins, so it prints as drawn


def review_figure(chart: Chart) -> go.Figure:
    """The figure of one report chart, from the rows the report carries."""
    rows = list(chart.rows)
    builders = {
        ReviewChart.COST_BY_OPTION: lambda: cost_by_component(rows),
        ReviewChart.COST_BY_PATTERN: lambda: cost_by_pattern(rows),
        ReviewChart.UNITS_BY_RESOURCE: lambda: units_by_resource(rows),
        ReviewChart.AUTOSCALING_DAY: lambda: autoscaling_curve(rows, chart.title),
        ReviewChart.BREAK_EVEN: lambda: break_even(rows, chart.marker),
    }
    return builders[chart.chart]()


def review_chart_html(report: ReviewReport) -> ChartHtml:
    """Every chart of the report as a static-size `<div>` fragment, and plotly.js to inline once."""
    fragments = {}
    for chart in report.charts:
        figure = review_figure(chart)
        figure.update_layout(width=REPORT_WIDTH_PX, height=max(REPORT_HEIGHT_PX, figure.layout.height or 0),
                             margin={"l": 60, "r": 20, "t": 50, "b": 60})
        fragments[chart.chart] = figure.to_html(
            full_html=False, include_plotlyjs=False, include_mathjax=False, div_id=f"plot-{chart.chart.value}",
            config={"displayModeBar": False, "displaylogo": False, "responsive": False})
    return ChartHtml(plotly.offline.get_plotlyjs(), fragments)
