"""The preview: seeded sample data loaded into the endpoint, every access pattern run and its answer checked."""

from __future__ import annotations

from collections.abc import Callable

from costs.preview_units import CAPACITY_RULES
from modeling.endpoint.adapter import Endpoint, EndpointStatus, check_endpoint, configured_endpoint, dynamodb_client
from modeling.preview.code import python_code
from modeling.preview.dataset import DEFAULT_PREVIEW_ITEMS, MAX_PREVIEW_ITEMS, PreviewData
from modeling.preview.loader import LoadReport
from modeling.preview.requests import input_attributes, parse_input_value
from modeling.preview.run import PatternResult, PreviewReport, PreviewRun
from modeling.preview.run import run_preview as _run_preview
from modeling.preview.runner import PatternRun
from modeling.preview.session import (
    PreviewSetup,
    already_loaded,
    check_preview_table,
    cleanup_preview,
    load_preview,
    preview_setup,
)
from modeling.preview.tables import NAME_PREFIX
from modeling.preview.write_runner import WriteContext, concurrent_increments

__all__ = ["DEFAULT_PREVIEW_ITEMS", "MAX_PREVIEW_ITEMS", "NAME_PREFIX", "Endpoint", "EndpointStatus", "LoadReport",
           "PatternResult", "PatternRun", "PreviewData", "PreviewReport", "PreviewRun", "PreviewSetup", "WriteContext",
           "already_loaded", "check_endpoint", "check_preview_table", "cleanup_preview", "concurrent_increments",
           "configured_endpoint", "dynamodb_client", "input_attributes", "load_preview", "parse_input_value",
           "preview_setup", "python_code", "run_preview"]


def run_preview(request: PreviewRun, progress: Callable[[int, int], object] | None = None) -> PreviewReport:
    """Run the request's access patterns on its loaded data (`modeling.preview.run.run_preview`), each measured by
    the cost engine's units (`costs.preview_units`); `progress(done, total)` is told after each pattern."""
    return _run_preview(request, CAPACITY_RULES, progress)
