"""Plotly figure builders for the Hot partitions page: pure functions from report frames to `go.Figure`.

Nothing in `modeling` imports this module (the layering test checks it); pages call the builders and
`st.plotly_chart(fig, key=...)`. Every figure shows APPROXIMATE loads against DynamoDB's per-partition
limits of 3,000 RCU and 1,000 WCU per second (dynamodb-rules §7.1).

Each figure is built in one `go.Figure(data, layout)` call: plotly's `add_hline`/`add_vline` and
`update_layout` re-validate the whole layout each time (about 25 ms a chart), and the pages draw every
chart again on each rerun.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from modeling.chart_lines import limit_line, with_lines
from modeling.limits import PARTITION_READ_UNITS, PARTITION_WRITE_UNITS

MAX_HEATMAP_PARTITIONS = 50  # the busiest partitions shown; the rest are below them


def key_traffic_histogram(data: pd.DataFrame, index: str,
                          title: str = "Traffic per key value (approximate)") -> go.Figure:
    """Per-key read and write units by key rank (KEY_PROFILE_COLUMNS), log scales, with the two limit lines."""
    rows = data[data["index"] == index].sort_values("key_rank")
    layout = {"title": f"{title}: {index}", "barmode": "group",
              "xaxis": {"title": "Key value rank", "type": "log"},
              "yaxis": {"title": "Units per second (peak)", "type": "log"}}
    return go.Figure([
        go.Bar(x=rows["key_rank"], y=rows["read_units_per_second"], name="RCU/s"),
        go.Bar(x=rows["key_rank"], y=rows["write_units_per_second"], name="WCU/s")],
        with_lines(layout, limit_line("y", PARTITION_READ_UNITS, "3,000 RCU per partition", "royalblue"),
                   limit_line("y", PARTITION_WRITE_UNITS, "1,000 WCU per partition", "firebrick")))


def partition_heatmap(data: pd.DataFrame,
                      title: str = "Partition load over time (share of one partition)") -> go.Figure:
    """Partition-by-time heatmap of utilisation (TIMELINE_COLUMNS); 100% is one partition's capacity."""
    busiest = data.groupby("partition")["utilisation"].max().nlargest(MAX_HEATMAP_PARTITIONS).index
    grid = data[data["partition"].isin(busiest)].pivot_table(
        index="partition", columns="time_seconds", values="utilisation", aggfunc="sum")
    return go.Figure(go.Heatmap(z=grid.to_numpy(), x=grid.columns, y=[f"P{p}" for p in grid.index],
                                colorscale="YlOrRd", zmin=0, zmax=max(1.0, float(grid.to_numpy().max())),
                                colorbar_title="Share"),
                     {"title": title, "xaxis": {"title": "Time (s)"}, "yaxis": {"title": "Partition"}})


def top_keys_bar(data: pd.DataFrame, index: str, top: int = 10,
                 title: str = "Top key values (Contributor Insights style)") -> go.Figure:
    """Horizontal bars of the busiest key values' share of one partition (KEY_COLUMNS), limit line at 100%."""
    rows = data[data["index"] == index].nsmallest(top, "key_rank").iloc[::-1]
    layout = {"title": f"{title}: {index}",
              "xaxis": {"title": "Share of one partition (peak)", "tickformat": ".0%"},
              "yaxis": {"title": "Key value"}}
    return go.Figure(go.Bar(x=rows["utilisation"], y=rows["key_value"], orientation="h",
                            customdata=rows[["top_pattern"]], hovertemplate="%{y}: %{x:.0%} (%{customdata[0]})"),
                     with_lines(layout, limit_line("x", 1.0, "one partition", "firebrick")))


def skew_comparison(data: pd.DataFrame, x: str, title: str = "What-if comparison") -> go.Figure:
    """Busiest key value and top-1 traffic share per variant (SHARDING_COLUMNS or ALTERNATIVE_COLUMNS)."""
    labels = data[x].astype(str)
    layout = {"title": title, "xaxis": {"title": x.replace("_", " ").capitalize()},
              "yaxis": {"title": "Share", "tickformat": ".0%"}}
    return go.Figure([
        go.Bar(x=labels, y=data["busiest_key_utilisation"], name="Busiest key (share of one partition)"),
        go.Scatter(x=labels, y=data["top1_traffic_share"], name="Top-1 key share of traffic", mode="lines+markers")],
        with_lines(layout, limit_line("y", 1.0, "one partition", "firebrick")))
