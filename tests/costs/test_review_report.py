"""The cost-review report for one example, section by section, against the engines' own outputs.

Every number is compared with what `estimate_model`, `check_design` and `analyse_hot_partitions` return
for the same model, read back from the rendered HTML and Markdown (money parsed back to an exact Decimal),
so a renderer that drops, reorders or rounds a figure fails here.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest

from costs.errors import UnknownDesignError
from costs.estimate import EstimateRequest, ModelEstimate
from costs.usage import label
from modeling.design.checks import check_design
from modeling.design.design_report import entity_chart, pattern_chart
from modeling.examples import example_document
from modeling.hot_partitions import HotPartitionRequest, analyse_hot_partitions
from modeling.model import Model
from studio.estimate import estimate_model
from studio.reports.review_render import review_html, review_markdown
from studio.reports.review_report import (
    ReviewReport,
    ReviewRequest,
    build_review_report,
    load_reviewed_model,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "modeling" / "examples" / "student_platform.yaml"
WHEN = datetime(2026, 11, 30, 9, 15, tzinfo=UTC)
HOT_KEYS = 20_000  # enough for the findings; the report and the oracle use the same setting


class _Tables(HTMLParser):
    """Each `<h3>` title followed by a table: title -> rows of cell texts (header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._title, self._in_h3, self._row, self._cell = "", False, None, None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "h3":
            self._in_h3, self._title = True, ""
        elif tag == "table" and self._title:
            self.tables[self._title] = []
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "h3":
            self._in_h3 = False
        elif tag == "table":
            self._title = ""  # a table belongs to the title just before it
        elif tag in ("td", "th") and self._row is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr" and self._title in self.tables:
            self.tables[self._title].append(self._row)

    def handle_data(self, data: str) -> None:
        if self._in_h3:
            self._title += data
        elif self._cell is not None:
            self._cell += data


def html_tables(text: str) -> dict[str, list[dict[str, str]]]:
    parser = _Tables()
    parser.feed(text)
    return {t: [dict(zip(rows[0], r, strict=True)) for r in rows[1:]] for t, rows in parser.tables.items()}


def markdown_tables(text: str) -> dict[str, list[dict[str, str]]]:
    """`**Title**` then a pipe table: title -> rows (escaped characters unescaped)."""
    tables = {}
    for title, body in re.findall(r"^\*\*(.+?)\*\*\n\n((?:\|.*\|\n)+)", text, re.M):
        lines = [[re.sub(r"\\(.)", r"\1", c.strip()) for c in re.split(r"(?<!\\)\|", line)[1:-1]]
                 for line in body.splitlines()]
        tables[re.sub(r"\\(.)", r"\1", title)] = [dict(zip(lines[0], r, strict=True)) for r in lines[2:]]
    return tables


def money(text: str) -> Decimal | None:
    return None if text == "n/a" else Decimal(text.replace(",", ""))


@pytest.fixture(scope="module")
def built() -> tuple[Model, ReviewReport, ModelEstimate, str, str]:
    model, source = load_reviewed_model(EXAMPLE)
    report = build_review_report(ReviewRequest(EstimateRequest(model), source, WHEN, hot_key_values=HOT_KEYS))
    return model, report, estimate_model(EstimateRequest(model)), review_html(report), review_markdown(report)


def test_header_names_the_exact_model_file_by_its_hash(built) -> None:
    _, report, _, html_text, md = built
    digest = hashlib.sha256(EXAMPLE.read_bytes()).hexdigest()
    assert report.source.sha256 == digest
    for text in (html_text, md):
        assert "Student platform" in text and digest in text and "2026-11-30 09:15 UTC" in text
    assert f'<meta name="model-sha256" content="{digest}">' in html_text


def test_every_section_is_present_in_both_formats_in_order(built) -> None:
    _, report, _, html_text, md = built
    titles = ["Summary", "Purpose and assumptions", "Key design and why", "Design checks", "Hot partitions",
              "Capacity per access pattern", "Monthly cost of each option", "Design comparison", "Price sources",
              "Sign-off"]
    assert [s.title for s in report.sections] == titles
    assert re.findall(r'<section id="[a-z-]+">\n<h2>([^<]+)</h2>', html_text) == titles
    assert re.findall(r"^## (.+)$", md, re.M) == ["Contents", *titles]


def test_summary_states_the_engines_recommendation(built) -> None:
    _, _, expected, html_text, md = built
    best = expected.cost.recommendation
    assert best is not None
    assert f"<dt>Monthly cost (USD)</dt><dd>{best.monthly_cost_usd:,f}</dd>" in html_text
    assert f"- **Monthly cost (USD)**: {best.monthly_cost_usd:,f}" in md
    assert best.reason.replace("$", "\\$") in md and best.reason in html_text


def test_purpose_lists_traffic_and_the_estimates_assumptions(built) -> None:
    model, _, expected, html_text, _ = built
    rows = html_tables(html_text)["Access patterns and traffic"]
    assert [(r["access pattern"], float(r["peak requests/s"].replace(",", ""))) for r in rows] == [
        (p.name, p.traffic.peak_requests_per_second) for p in model.access_patterns]
    assert model.description[:60] in html_text
    bullets = re.findall(r"<li>(.*?)</li>", html_text.split('id="purpose"')[1].split("</section>")[0])
    assert len(bullets) == len(expected.cost.assumptions) and len(bullets) > 3


def test_key_design_has_the_entity_and_access_pattern_charts(built) -> None:
    _, _, expected, html_text, md = built
    tables = html_tables(html_text)
    assert [r["entity"] + r["index"] + r["partition_key"] for r in tables["Entity chart"]] == [
        r["entity"] + r["index"] + r["partition_key"] for r in entity_chart(expected.design)]
    assert [(r["pattern"], r["operation"], r["index"]) for r in markdown_tables(md)["Access-pattern chart"]] == [
        (r["pattern"], r["operation"], r["index"]) for r in pattern_chart(expected.design)]


def test_checks_and_hot_partition_findings_match_their_engines(built) -> None:
    model, _, expected, html_text, _ = built
    findings = check_design(model, expected.design)
    assert [(r["check"], r["where"]) for r in html_tables(html_text)["Design-check findings"]] == [
        (f.check_id, f.path) for f in findings]
    hot = analyse_hot_partitions(HotPartitionRequest(model=model, design=expected.design, max_key_values=HOT_KEYS))
    assert [r["index"] for r in html_tables(html_text)["Skew per index"]] == list(hot.skew["index"])
    assert hot.findings == () and "no key value or partition goes over" in html_text


def test_hot_partition_findings_of_a_hot_design_are_listed() -> None:
    model, source = load_reviewed_model(EXAMPLE.with_name("student_platform_mistakes.yaml"))
    report = build_review_report(ReviewRequest(EstimateRequest(model), source, WHEN, hot_key_values=HOT_KEYS))
    hot = analyse_hot_partitions(HotPartitionRequest(model=model, design=report.estimate.design,
                                                     max_key_values=HOT_KEYS))
    rows = markdown_tables(review_markdown(report))["Hot-partition findings"]
    assert [(r["severity"], r["index"], r["key value"]) for r in rows] == [
        (f.severity.value, f.index, f.key_value) for f in hot.findings]
    assert any(r["severity"] == "error" for r in rows)


def test_capacity_per_access_pattern_equals_the_estimate(built) -> None:
    _, _, expected, html_text, md = built
    for tables in (html_tables(html_text), markdown_tables(md)):
        rows = tables["Capacity and on-demand cost per access pattern"]
        assert [(r["access pattern"], money(r["on-demand USD/month"])) for r in rows] == [
            (r["access pattern"], r["on-demand USD/month"]) for r in expected.pattern_rows]
        assert [float(r["read units per request"]) for r in rows] == [
            r["read units per request"] for r in expected.pattern_rows]


def test_monthly_cost_of_every_option_equals_the_estimate(built) -> None:
    _, _, expected, html_text, md = built
    best = expected.cost.recommendation
    for tables in (html_tables(html_text), markdown_tables(md)):
        rows = tables["Options (USD per month; a month is 730 hours)"]
        assert [(r["option"], r["table class"], money(r["monthly USD"])) for r in rows] == [
            (label(o.option), label(o.table_class), o.monthly_total_usd) for o in expected.cost.options]
        assert [r["option"] for r in rows if r["recommended"] == "yes"] == [label(best.option)]
        lines = tables["Line items (each rounded to the cent; totals are their sums)"]
        assert sum(money(r["monthly USD"]) or 0 for r in lines) == sum(
            o.priced_subtotal_usd for o in expected.cost.options)


def test_design_comparison_equals_the_estimate(built) -> None:
    _, _, expected, html_text, _ = built
    assert len(expected.comparison) > 1  # the example has two candidates
    rows = html_tables(html_text)["Candidates priced with the same assumptions"]
    assert [(r["design"], money(r["cheapest USD/month"])) for r in rows] == [
        (r["design"], r["cheapest USD/month"]) for r in expected.comparison]


def test_price_sources_show_dates_confidence_and_assumptions(built) -> None:
    _, _, expected, html_text, _ = built
    sheet = expected.price_sheet
    rows = html_tables(html_text)["Every price, with its source and confidence"]
    assert len(rows) == len(sheet.prices)
    assert sum(r["assumption"] == "yes" for r in rows) == sum(p.is_assumption for p in sheet.prices) > 0
    assert {r["confidence"] for r in rows} == {p.confidence.value for p in sheet.prices}
    assert "UNCONFIRMED" in {r["confidence"] for r in rows}
    facts = {r["field"]: r["value"] for r in html_tables(html_text)["Price sheet"]}
    assert facts["Effective"] == sheet.effective_date.isoformat()
    assert facts["Retrieved"] == sheet.retrieved_date.isoformat()


def test_sign_off_block_refers_to_the_hash_and_has_decision_lines(built) -> None:
    _, report, _, html_text, md = built
    sign_off = html_text.split('id="sign-off"')[1]
    assert report.source.sha256 in sign_off and "Reviewer" in sign_off and sign_off.count('class="box"') == 3
    assert md.count("- [ ] ") == 3 and "**Reviewer \\(name and role\\)**" not in md


def hostile_model() -> Model:
    document = example_document("student_platform")
    document["name"] = '<script>alert("x")</script> & co'
    document["description"] = "![pixel](http://evil.example/p.png) [click](http://evil.example) <img src=x>"
    document["entities"][0]["description"] = "</td></table><iframe src=http://evil.example>"
    return Model.model_validate(document)


def test_hostile_user_text_is_escaped_in_html_and_markdown() -> None:
    model = hostile_model()
    source = load_reviewed_model(EXAMPLE)[1]
    report = build_review_report(ReviewRequest(EstimateRequest(model), source, WHEN, hot_key_values=1_000))
    html_text, md = review_html(report), review_markdown(report)
    assert "<script>alert" not in html_text and "<img" not in html_text and "<iframe" not in html_text
    assert "<title>Cost review: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</title>" in html_text
    assert "&lt;/td&gt;&lt;/table&gt;&lt;iframe" in html_text
    assert "![pixel](" not in md and "[click](" not in md
    assert not re.search(r"(?<!\\)<(script|img|/td)", md)
    # a word joiner (U+2060) inside `://` keeps GFM from finding the URL after parsing (modeling.markdown)
    assert "\\<script\\>" in md and "\\[click\\](http:\u2060//evil.example)" in md
    assert "http://evil" not in md  # a bare URL would become a link (GFM autolink) in any Markdown viewer


class _Urls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.references: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.add(tag)
        self.references += [v or "" for k, v in attrs if k in ("src", "href", "action", "srcset", "poster", "data")]


def test_html_references_nothing_outside_the_file(built) -> None:
    from studio import charts  # the edges draw the charts; this test plays the edge

    _, report, _, _, _ = built
    text = review_html(report, charts.review_chart_html(report))
    parser = _Urls()
    parser.feed(text)
    assert parser.references and all(r.startswith(("#", "data:")) for r in parser.references), parser.references
    assert not parser.tags & {"link", "img", "iframe", "object", "embed"}
    style = text.split("<style>")[1].split("</style>")[0]
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    assert text.count("<script>") == 1 + len(report.charts)  # plotly.js once, then one call per chart
    assert text.count('class="plotly-graph-div"') == len(report.charts) == 5


def test_an_unknown_design_is_an_error_not_a_silent_fallback() -> None:
    model, source = load_reviewed_model(EXAMPLE)
    with pytest.raises(UnknownDesignError, match="Proposed"):
        build_review_report(ReviewRequest(EstimateRequest(model, "No such design"), source, WHEN, 1_000))

