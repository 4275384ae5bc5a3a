"""One session's preview: which model, design, table, sample size and seed; loading and cleanup."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from modeling.design import Design
from modeling.endpoint import Endpoint, EndpointKind, dynamodb_client
from modeling.model import Model
from modeling.preview.dataset import DEFAULT_PREVIEW_ITEMS, PreviewData, build_preview_data, preview_counts
from modeling.preview.loader import DEFAULT_WORKERS, LoadReport, LoadState, Progress, load_items
from modeling.preview.tables import (
    PreviewTable,
    create_preview_table,
    delete_preview_table,
    loaded_fingerprint,
    mark_loaded,
    preview_table,
)


@dataclass(frozen=True)
class PreviewSetup:
    model: Model
    design: Design
    endpoint: Endpoint
    table: PreviewTable
    total_items: int = DEFAULT_PREVIEW_ITEMS
    seed: int = 42

    @property
    def fingerprint(self) -> str:
        """Names the data exactly: the model, the design's keys, the sample size and the seed."""
        text = "\n".join((self.model.model_dump_json(), self.design.key_design.model_dump_json(),
                          str(self.total_items), str(self.seed)))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def preview_setup(model: Model, design: Design, endpoint: Endpoint, namespace: str, model_slug: str,
                  total_items: int = DEFAULT_PREVIEW_ITEMS, seed: int = 42) -> PreviewSetup:
    return PreviewSetup(model, design, endpoint, preview_table(namespace, model_slug), total_items, seed)


def preview_data(setup: PreviewSetup) -> PreviewData:
    return build_preview_data(setup.model, setup.design.key_design, preview_counts(setup.model, setup.total_items),
                              setup.seed)


def load_preview(setup: PreviewSetup, progress: Progress | None = None,
                 resume: LoadState | None = None) -> tuple[PreviewData, LoadReport]:
    """Create the table (unless resuming) and load the items; LoadInterrupted carries the resume state."""
    client = dynamodb_client(setup.endpoint)
    data = preview_data(setup)
    if resume is None or resume.table_name != setup.table.name:
        create_preview_table(client, setup.table, setup.model.table, setup.design.key_design)
        resume = None
    report = load_items(client, setup.table.name, data, state=resume, progress=progress,
                        workers=load_workers(setup.endpoint))
    if report.complete:
        mark_loaded(client, setup.table.name, setup.fingerprint)
    return data, report


def already_loaded(setup: PreviewSetup) -> PreviewData | None:
    """The data, when the table holds exactly this setup's data from an earlier session (or a refresh)."""
    if loaded_fingerprint(dynamodb_client(setup.endpoint), setup.table.name) != setup.fingerprint:
        return None
    return preview_data(setup)


def load_workers(endpoint: Endpoint) -> int:
    """Concurrent BatchWriteItem requests: one for the embedded server, which shares this process's GIL
    with its client threads (stack-notes §4.6: threads do not help moto); several for a real endpoint."""
    return 1 if endpoint.kind is EndpointKind.EMBEDDED else DEFAULT_WORKERS


def cleanup_preview(setup: PreviewSetup) -> bool:
    """Delete the preview table (only ever one the product created); False if there was none."""
    return delete_preview_table(dynamodb_client(setup.endpoint), setup.table)
