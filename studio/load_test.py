"""A load test (Locust or k6) for one of a model's designs, following the access patterns' traffic mix.

The design is chosen as for the IaC export (the model's own, else the first proposal, or one by name), so
the load test exercises the same table the exported code creates; the script itself is written by
`modeling.preview.loadtest_scripts`.
"""

from __future__ import annotations

from dataclasses import dataclass

from costs.design_ranking import chosen_design, proposal_refusal, propose
from costs.errors import UsageError
from modeling.errors import ModelingError
from modeling.model import Model
from modeling.preview.dataset import DEFAULT_PREVIEW_ITEMS
from modeling.preview.loadtest import LoadTest, LoadTestFormat
from modeling.preview.loadtest_scripts import write_load_test

__all__ = ["LoadTest", "LoadTestFormat", "LoadTestRequest", "export_load_test", "load_test"]


@dataclass(frozen=True)
class LoadTestRequest:
    """The design by name (None: the model's own, else the first proposal), and the seeded data's size."""

    model: Model
    format: LoadTestFormat
    design_name: str | None = None
    total_items: int = DEFAULT_PREVIEW_ITEMS
    seed: int = 42


def load_test(request: LoadTestRequest) -> LoadTest:
    """The script (`export_load_test`); a model that cannot give one raises UsageError."""
    return export_load_test(request.model, request.format, request.design_name, request.total_items, request.seed)


def export_load_test(model: Model, fmt: LoadTestFormat, design_name: str | None = None,
                     total_items: int = DEFAULT_PREVIEW_ITEMS, seed: int = 42) -> LoadTest:
    """The Locust file or k6 script; a model that cannot give one raises UsageError saying why."""
    design = chosen_design(propose(model), design_name or None, proposal_refusal(model))
    try:
        return write_load_test(model, design, fmt, total_items, seed)
    except ModelingError as exc:
        raise UsageError("no load test can be written for this model", "model", model.name, str(exc)) from None
