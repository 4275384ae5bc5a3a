"""The cost-review report in a real Chromium: the HTML file opened from disk, and the Report page by deep link."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from costs.estimate import EstimateRequest
from studio import charts
from studio.reports.review_render import review_html
from studio.reports.review_report import ReviewRequest, build_review_report, load_reviewed_model
from tests.e2e.conftest import Server, assert_no_exception, wait_until_idle

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def test_report_file_renders_its_charts_offline_and_prints_without_the_contents(page: Page, tmp_path: Path) -> None:
    model, source = load_reviewed_model(ROOT / "modeling" / "examples" / "student_platform.yaml")
    report = build_review_report(ReviewRequest(EstimateRequest(model), source, datetime.now(UTC), 10_000))
    target = tmp_path / "review.html"
    target.write_text(review_html(report, charts.review_chart_html(report)), encoding="utf-8")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

    def only_the_file(route: Route) -> None:  # anything else is recorded above and refused here
        route.continue_() if route.request.url == target.as_uri() else route.abort()

    page.route("**/*", only_the_file)
    page.goto(target.as_uri())
    expect(page.get_by_role("heading", level=1)).to_have_text("Cost review: Student platform")
    plots = page.locator(".js-plotly-plot")
    expect(plots).to_have_count(len(report.charts))
    for index in range(len(report.charts)):
        expect(plots.nth(index).locator("svg.main-svg").first).to_be_visible()
    expect(page.locator("#chart-cost-by-option .trace.bars").first).to_be_attached()  # bars were drawn
    expect(page.locator("#sign-off")).to_contain_text(source.sha256)
    page.emulate_media(media="print")
    expect(page.locator("nav.toc")).to_be_hidden()
    expect(page.locator("#sign-off .signoff")).to_be_visible()
    assert requested == [target.as_uri()]
    assert errors == []  # a Content-Security-Policy violation would be logged here


def test_report_page_by_deep_link_on_a_fresh_server_downloads_the_html(page: Page, server: Server, tmp_path: Path,
                                                                        external_requests: list[str]) -> None:
    page.goto(f"{server.url}/report")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cost-review report · Student platform",
                                                              timeout=30_000)
    wait_until_idle(page)
    page.get_by_role("button", name="Build the report").click()  # an explicit action (issue 14, speed)
    expect(page.get_by_role("heading", name="Sign-off")).to_be_visible(timeout=60_000)
    assert_no_exception(page)
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="Download the report (HTML)").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert saved.name == "cost-review-student-platform.html"
    assert text.startswith("<!doctype html>") and text.count('class="plotly-graph-div"') == 5
    assert external_requests == []
