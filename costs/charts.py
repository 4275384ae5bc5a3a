"""Figures for the Capacity & cost page and the report: pure builders from tidy rows to plotly figures.

Nothing in the domain imports this module; pages and the command line call it (the report's charts are drawn
with these builders by `studio.reports.charts`). Every figure names its axes with units, and money is in USD per
month.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from modeling.chart_lines import limit_line, with_lines

_COMPONENT_ORDER = ("reads", "writes", "reserved reads", "reserved writes", "storage", "point-in-time recovery")


def cost_by_component(rows: list[dict[str, Any]]) -> go.Figure:
    """Stacked bars: each option's monthly cost split into reads, writes, storage, backups...

    Category labels stay short (the option over its table class); an option whose bar leaves out unpriced
    lines is marked `*`, and what it excludes is in its hover text and the subtitle, not in the axis label.
    """
    options = list(dict.fromkeys(r["option"] for r in rows))
    excludes = {r["option"]: r.get("excludes", "") for r in rows}
    ticks = {o: o.replace(" (", "<br>(", 1) + ("*" if excludes[o] else "") for o in options}
    components = sorted({r["component"] for r in rows},
                        key=lambda c: (_COMPONENT_ORDER.index(c) if c in _COMPONENT_ORDER else 99, c))
    figure = go.Figure()
    for component in components:
        totals = [sum(r["monthly USD"] for r in rows if r["option"] == o and r["component"] == component)
                  for o in options]
        notes = [f"<br>excludes {excludes[o]}: no price" if excludes[o] else "" for o in options]
        figure.add_bar(name=component, x=[ticks[o] for o in options], y=totals, customdata=notes,
                       hovertemplate="%{x}<br>" + component + ": $%{y:,.2f}%{customdata}<extra></extra>")
    left_out = sorted({e for e in excludes.values() if e})
    subtitle = f"<br><sup>* excludes {'; '.join(left_out)}: no price in this Region</sup>" if left_out else ""
    figure.update_layout(barmode="stack", title="Monthly cost by option and component" + subtitle,
                         yaxis_title="USD per month", xaxis_title="Capacity option (table class)", legend_title="")
    return figure


def cost_by_pattern(rows: list[dict[str, Any]]) -> go.Figure:
    """Horizontal bars: on-demand monthly cost of each access pattern, largest first."""
    priced = sorted((r for r in rows if r.get("on-demand USD/month") is not None),
                    key=lambda r: float(r["on-demand USD/month"]))
    figure = go.Figure(go.Bar(x=[float(r["on-demand USD/month"]) for r in priced],
                              y=[r["access pattern"] for r in priced], orientation="h",
                              hovertemplate="%{y}: $%{x:,.2f} a month<extra></extra>"))
    unpriced = len(rows) - len(priced)
    title = "On-demand cost per access pattern" + (
        f" ({unpriced} of {len(rows)} not drawn: no on-demand price in this Region)" if unpriced else "")
    figure.update_layout(title=title, xaxis_title="USD per month",
                         yaxis_title="", height=max(320, 28 * len(priced) + 120))
    return figure


def units_by_resource(rows: list[dict[str, Any]]) -> go.Figure:
    """Grouped bars: average read and write units per second of the table and each index."""
    names = [r["resource"] for r in rows]
    figure = go.Figure([
        go.Bar(name="reads", x=names, y=[r["average read units/s"] for r in rows]),
        go.Bar(name="writes", x=names, y=[r["average write units/s"] for r in rows]),
    ])
    figure.update_layout(barmode="group", title="Average capacity units per second, table and indexes",
                         yaxis_title="units per second (RCU/WCU or RRU/WRU)", xaxis_title="")
    return figure


def autoscaling_curve(rows: list[dict[str, Any]], title: str) -> go.Figure:
    """Units consumed and capacity provisioned over a day, minute by minute."""
    # arrays, not lists: plotly checks a list's 1,440 values one by one (~20 ms a chart), an array at once
    hours = np.array([r["hour"] for r in rows], dtype=float)
    return go.Figure([
        go.Scatter(name="consumed", x=hours, y=np.array([r["consumed units/s"] for r in rows], dtype=float),
                   mode="lines"),
        go.Scatter(name="provisioned (auto scaling)", x=hours,
                   y=np.array([r["capacity units"] for r in rows], dtype=float), mode="lines", line={"shape": "hv"}),
    ], {"title": title, "xaxis": {"title": "hour of the day (UTC)"}, "yaxis": {"title": "capacity units per second"}})


def break_even(rows: list[dict[str, Any]], break_even_percent: float | None) -> go.Figure:
    """On-demand vs provisioned throughput cost as the provisioned utilisation varies."""
    x = [r["utilisation %"] for r in rows]
    lines = {name: [r[f"{name} USD/month"] for r in rows] for name in ("on-demand", "provisioned")}
    # a line without a price is left out and named in the title, never drawn at $0
    missing = [name for name, y in lines.items() if any(v is None for v in y)]
    title = "Throughput cost: on-demand vs provisioned"
    if missing:
        title += f" ({' and '.join(missing)} not drawn: no price in this Region)"
    layout = {"title": title, "yaxis": {"title": "USD per month"},
              "xaxis": {"title": "average utilisation of provisioned capacity (%)"}}
    if break_even_percent is not None:  # one go.Figure call: add_vline re-validates the layout (~10 ms)
        layout = with_lines(layout, limit_line("x", break_even_percent, f"break-even {break_even_percent:.1f} %",
                                               colour=None, width=None))
    return go.Figure([go.Scatter(name=name, x=x, y=y, mode="lines") for name, y in lines.items()
                      if name not in missing], layout)

