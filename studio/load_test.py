"""A load test (Locust or k6) for one of a model's designs, following the access patterns' traffic mix."""

from __future__ import annotations

from dataclasses import dataclass

from costs.load_test import export_load_test
from modeling.model import Model
from modeling.preview.dataset import DEFAULT_PREVIEW_ITEMS
from modeling.preview.loadtest import LoadTest, LoadTestFormat

__all__ = ["LoadTest", "LoadTestFormat", "LoadTestRequest", "load_test"]


@dataclass(frozen=True)
class LoadTestRequest:
    """The design by name (None: the model's own, else the first proposal), and the seeded data's size."""

    model: Model
    format: LoadTestFormat
    design_name: str | None = None
    total_items: int = DEFAULT_PREVIEW_ITEMS
    seed: int = 42


def load_test(request: LoadTestRequest) -> LoadTest:
    """The script (`costs.load_test.export_load_test`); a model that cannot give one raises UsageError."""
    return export_load_test(request.model, request.format, request.design_name, request.total_items, request.seed)
