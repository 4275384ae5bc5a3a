"""The cost-review report: estimate, checks and hot partitions of one model, assembled for a reviewer."""

from __future__ import annotations

from collections.abc import Callable

from studio.reports.review_render import block_markdown, review_html, review_markdown
from studio.reports.review_report import Chart, ModelSource, ReviewReport, ReviewRequest, load_reviewed_model
from studio.reports.review_report import build_review_report as _build_review_report

__all__ = ["Chart", "ModelSource", "ReviewReport", "ReviewRequest", "block_markdown", "build_review_report",
           "load_reviewed_model", "review_html", "review_markdown"]


def build_review_report(request: ReviewRequest,
                        progress: Callable[[float, str], None] | None = None) -> ReviewReport:
    """The report (`studio.reports.review_report.build_review_report`); `progress(fraction done, what comes next)` is
    told before each engine runs."""
    return _build_review_report(request, progress)
