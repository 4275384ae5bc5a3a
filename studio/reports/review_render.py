"""The cost-review report as Markdown and as one self-contained, printable HTML file.

Both formats render the same `ReviewReport` block by block, and every cell goes through `cell_text`,
so the two carry the same numbers. All text from the model (names, descriptions) is untrusted: the HTML
escapes it with `html.escape`, the Markdown backslash-escapes the characters that would make links,
images, HTML or emphasis, so the Markdown is also safe to show with `st.markdown`. The HTML makes no
request of any kind: no external scripts, styles, fonts or images, and a Content-Security-Policy that
forbids them; charts come in as ready HTML fragments (`ChartHtml`, built by `studio.charts`) with
plotly.js inlined once. Links to documentation and price sources are shown as text, not links.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Any

from costs.cost_text import trimmed
from modeling.markdown import markdown_literal
from studio.reports.review_report import (
    Block,
    Bullets,
    Chart,
    Facts,
    Paragraph,
    ReviewChart,
    ReviewReport,
    SignOff,
    Table,
)

CHART_NOTE = "chart in the HTML version of this report"
# Nothing may be fetched: inline scripts and styles only (plotly.js builds its styles at run time).
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                           "img-src data:; font-src data:; connect-src 'none'; form-action 'none'")


@dataclass(frozen=True)
class ChartHtml:
    """Charts drawn by the caller: plotly.js (inlined once) and one `<div>` fragment per chart."""

    library_js: str = ""
    fragments: Mapping[ReviewChart, str] = field(default_factory=dict)


def cell_text(value: Any) -> str:
    """One way to write a value in every format: money as exact Decimals, `n/a` for missing values.

    Never an exponent or a derived price's 28 digits (issue 28.6: `4.76e-05`, `1.216666666666666666666666667`).

    >>> cell_text(Decimal("1234.50")), cell_text(0.0072338), cell_text(6001200.0), cell_text(None)
    ('1,234.50', '0.00723', '6,001,200', 'n/a')
    >>> cell_text(4.7619e-05), cell_text(Decimal("43.80") / 36)
    ('0.0000476', '1.2166667')
    """
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, Decimal):
        return f"{trimmed(value):,f}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value.is_integer():
            return f"{value:,.0f}"
        return f"{value:,.2f}" if abs(value) >= 1 else f"{Decimal(f'{value:.3g}'):f}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


# --- Markdown ---------------------------------------------------------------------------------------


def markdown_text(value: Any) -> str:
    """A value as Markdown text that renders literally (no links, images, HTML or emphasis)."""
    return markdown_literal(cell_text(value).replace("\r", " "))


def review_markdown(report: ReviewReport) -> str:
    parts = [f"# {markdown_text(report.title)}\n\n", block_markdown(report.header), "\n## Contents\n\n",
             *(f"{n}. {markdown_text(s.title)}\n" for n, s in enumerate(report.sections, 1))]
    for section in report.sections:
        parts.append(f"\n## {markdown_text(section.title)}\n")
        parts += ["\n" + block_markdown(block) for block in section.blocks]
    return "".join(parts)


def block_markdown(block: Block) -> str:
    """One block as Markdown (the Report page shows the preview block by block)."""
    if isinstance(block, Paragraph):
        lead = f"**{markdown_text(block.lead)}** " if block.lead else ""
        return f"{lead}{markdown_text(block.text)}\n"
    if isinstance(block, Bullets):
        return "".join(f"- {markdown_text(item)}\n" for item in block.items)
    if isinstance(block, Facts):
        return "".join(f"- **{markdown_text(k)}**: {markdown_text(v)}\n" for k, v in block.pairs)
    if isinstance(block, Table):
        return _table_markdown(block)
    if isinstance(block, Chart):
        return f"*{markdown_text(block.title)}: {CHART_NOTE}.*\n"
    return _sign_off_markdown(block)


def _table_markdown(table: Table) -> str:
    title = f"**{markdown_text(table.title)}**\n\n"
    if not table.rows:
        return f"{title}{markdown_text(table.empty_note)}\n"
    header = "| " + " | ".join(markdown_text(c) for c in table.columns) + " |\n"
    rule = "|" + "".join("---:|" if _numeric(table, i) else "---|" for i in range(len(table.columns))) + "\n"
    rows = "".join("| " + " | ".join(markdown_text(v) for v in row) + " |\n" for row in table.rows)
    return title + header + rule + rows


def _sign_off_markdown(block: SignOff) -> str:
    fields = "".join(f"- **{markdown_text(f)}**: ______________________________\n" for f in block.fields)
    decisions = "".join(f"- [ ] {markdown_text(d)}\n" for d in block.decisions)
    notes = "".join("> ____________________________________________________________\n" for _ in range(3))
    return f"{fields}\n**Decision** (tick one)\n\n{decisions}\n**Conditions or reasons**\n\n{notes}"


def _numeric(table: Table, column: int) -> bool:
    values = [row[column] for row in table.rows if row[column] is not None]
    return bool(values) and all(isinstance(v, int | float | Decimal) and not isinstance(v, bool) for v in values)


# --- HTML -------------------------------------------------------------------------------------------


def review_html(report: ReviewReport, charts: ChartHtml | None = None) -> str:
    """One self-contained HTML file: inline CSS (with a print stylesheet), plotly.js once, no requests."""
    charts = charts or ChartHtml()
    if "</script" in charts.library_js.lower():
        raise ValueError("the chart library would end its <script> element early")
    script = f"<script>{charts.library_js}</script>\n" if charts.library_js and charts.fragments else ""
    toc = "".join(f'<li><a href="#{s.anchor}">{_e(s.title)}</a></li>' for s in report.sections)
    body = "".join(f'<section id="{s.anchor}">\n<h2>{_e(s.title)}</h2>\n'
                   + "".join(block_html(b, charts) for b in s.blocks) + "</section>\n" for s in report.sections)
    return (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="DynamoDB Design Studio">\n'
            f'<meta name="model-sha256" content="{_e(report.source.sha256)}">\n'
            f"<title>{_e(report.title)}</title>\n<style>{_CSS}</style>\n{script}</head>\n<body>\n"
            f"<header>\n<h1>{_e(report.title)}</h1>\n{block_html(report.header, charts)}</header>\n"
            f'<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>{toc}</ol></nav>\n'
            f"<main>\n{body}</main>\n<footer>Generated by DynamoDB Design Studio on "
            f"{_e(report.generated_at.strftime('%Y-%m-%d %H:%M UTC'))} for {_e(report.source.file_name)} "
            f"(SHA-256 {_e(report.source.sha256)}).</footer>\n</body>\n</html>\n")


def block_html(block: Block, charts: ChartHtml) -> str:
    if isinstance(block, Paragraph):
        lead = f"<strong>{_e(block.lead)}</strong> " if block.lead else ""
        return f"<p>{lead}{_e(block.text)}</p>\n"
    if isinstance(block, Bullets):
        return "<ul>" + "".join(f"<li>{_e(i)}</li>" for i in block.items) + "</ul>\n"
    if isinstance(block, Facts):
        return '<dl class="facts">' + "".join(f"<dt>{_e(k)}</dt><dd>{_e(cell_text(v))}</dd>"
                                              for k, v in block.pairs) + "</dl>\n"
    if isinstance(block, Table):
        return _table_html(block)
    if isinstance(block, Chart):
        fragment = charts.fragments.get(block.chart)
        inner = fragment if fragment else f'<p class="missing">{_e(block.title)}: chart not drawn.</p>'
        return (f'<figure class="chart" id="chart-{block.chart.value}">{inner}'
                f"<figcaption>{_e(block.title)}</figcaption></figure>\n")
    return _sign_off_html(block)


def _table_html(table: Table) -> str:
    caption = f"<h3>{_e(table.title)}</h3>\n"
    if not table.rows:
        return f'{caption}<p class="empty">{_e(table.empty_note)}</p>\n'
    numeric = [_numeric(table, i) for i in range(len(table.columns))]
    head = "".join(f'<th{" class=num" if n else ""}>{_e(c)}</th>' for c, n in zip(table.columns, numeric,
                                                                                      strict=True))
    rows = "".join("<tr>" + "".join(f"<td{_cell_class(v, n)}>{_e(cell_text(v))}</td>"
                                    for v, n in zip(row, numeric, strict=True)) + "</tr>\n" for row in table.rows)
    wide = " wide" if len(table.columns) > 7 else ""
    return f'{caption}<table class="data{wide}"><thead><tr>{head}</tr></thead><tbody>\n{rows}</tbody></table>\n'


def _cell_class(value: Any, numeric: bool) -> str:
    if numeric:
        return " class=num"
    return " class=url" if isinstance(value, str) and value.startswith(("http://", "https://")) else ""


def _sign_off_html(block: SignOff) -> str:
    fields = "".join(f"<tr><th>{_e(f)}</th><td></td></tr>" for f in block.fields)
    decisions = "".join(f'<li><span class="box"></span>{_e(d)}</li>' for d in block.decisions)
    return (f'<div class="signoff"><table class="signoff-fields">{fields}</table>'
            f'<h3>Decision (tick one)</h3><ul class="decisions">{decisions}</ul>'
            '<h3>Conditions or reasons</h3><div class="lines"><div></div><div></div><div></div></div></div>\n')


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


_CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: #1b1f24; margin: 0 auto; max-width: 1100px; padding: 24px; line-height: 1.45; font-size: 15px; }
h1 { font-size: 1.7em; margin: 0 0 .4em; } h2 { border-bottom: 2px solid #d0d7de; padding-bottom: .2em; }
h3 { font-size: 1.02em; margin: 1.2em 0 .4em; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1.2em; margin: .6em 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table.data { border-collapse: collapse; width: 100%; font-size: .86em; margin: .3em 0 1em; }
table.data th, table.data td { border: 1px solid #d0d7de; padding: 3px 6px; vertical-align: top;
                               text-align: left; overflow-wrap: break-word; }
table.data th { background: #f3f5f7; } table.data .num { text-align: right; white-space: nowrap; }
table.data.wide { font-size: .78em; } table.data td.url { overflow-wrap: anywhere; min-width: 12em; }
figure.chart { margin: 1em 0; } figure.chart figcaption { font-size: .85em; color: #57606a; }
nav.toc ol { columns: 2; } .empty, .missing { color: #57606a; font-style: italic; }
.signoff-fields { border-collapse: collapse; width: 100%; }
.signoff-fields th { text-align: left; width: 14em; padding: 1.1em .6em .2em 0; vertical-align: bottom; }
.signoff-fields td { border-bottom: 1px solid #1b1f24; }
ul.decisions { list-style: none; padding: 0; } ul.decisions li { margin: .5em 0; }
.box { display: inline-block; width: .9em; height: .9em; border: 1.5px solid #1b1f24; margin-right: .6em;
       vertical-align: -2px; }
.lines div { border-bottom: 1px solid #1b1f24; height: 2em; }
footer { margin-top: 2em; font-size: .8em; color: #57606a; overflow-wrap: anywhere; }
@page { size: A4; margin: 14mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav.toc { display: none; }
  section { break-before: page; }
  section#summary { break-before: auto; }
  h2, h3 { break-after: avoid; }
  table.data { font-size: 7.5pt; } table.data.wide { font-size: 6.5pt; }
  thead { display: table-header-group; } tr, figure.chart, .signoff, dl.facts { break-inside: avoid; }
}
"""
