"""One session's preview: which model, design, table, sample size and seed; loading and cleanup."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from modeling.design.plans import Design
from modeling.endpoint.adapter import Endpoint, EndpointKind, dynamodb_client, shared_dynamodb_client
from modeling.errors import ModelingError
from modeling.model import Model
from modeling.preview.dataset import DEFAULT_PREVIEW_ITEMS, PreviewData, build_preview_data, preview_counts
from modeling.preview.loader import DEFAULT_WORKERS, LoadInterrupted, LoadReport, LoadState, Progress, load_items
from modeling.preview.ownership import Owner, TableGuard, TableReplacedError, owned_identity
from modeling.preview.tables import (
    PreviewTable,
    create_preview_table,
    delete_preview_table,
    loaded_fingerprint,
    mark_loaded,
    preview_table,
)
from modeling.preview.through_reads import with_uniqueness_items
from modeling.workspace.folder import default_workspace_dir, instance_id

# A load that finds its table replaced starts over; a table replaced again and again (another tab
# reloading it in a loop) stops the load with a message instead of running forever.
MAX_RESTARTS = 3


@dataclass(frozen=True)
class PreviewSetup:
    model: Model
    design: Design
    endpoint: Endpoint
    table: PreviewTable
    owner: Owner  # who may write to the table: this installation, this session
    total_items: int = DEFAULT_PREVIEW_ITEMS
    seed: int = 42

    @property
    def fingerprint(self) -> str:
        """Names the data exactly: the model, the design's keys, the sample size and the seed."""
        text = "\n".join((self.model.model_dump_json(), self.design.key_design.model_dump_json(),
                          str(self.total_items), str(self.seed)))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def preview_setup(model: Model, design: Design, endpoint: Endpoint, namespace: str, model_slug: str,
                  total_items: int = DEFAULT_PREVIEW_ITEMS, seed: int = 42,
                  workspace_root: Path | None = None) -> PreviewSetup:
    """The setup of one session's preview, owned by this installation (the workspace's instance id)."""
    instance = instance_id(workspace_root if workspace_root is not None else default_workspace_dir())
    return PreviewSetup(model, design, endpoint, preview_table(namespace, model_slug), Owner(instance, namespace),
                        total_items, seed)


def preview_data(setup: PreviewSetup) -> PreviewData:
    data = build_preview_data(setup.model, setup.design.key_design, preview_counts(setup.model, setup.total_items),
                              setup.seed)
    return with_uniqueness_items(setup.model, setup.design.key_design, data)


def load_preview(setup: PreviewSetup, progress: Progress | None = None,
                 resume: LoadState | None = None) -> tuple[PreviewData, LoadReport]:
    """Create the table (or resume into it) and load the items; LoadInterrupted carries the resume state.

    Resuming writes only into the very table the interrupted load began with (same owner, same
    creation): a table someone else made meanwhile raises ForeignTableError before anything is written,
    and one the product replaced meanwhile is loaded from the start.
    """
    client = dynamodb_client(setup.endpoint)
    data = preview_data(setup)
    state = resume if resume is not None and resume.table_name == setup.table.name else None
    requests_before = attempts_before = 0
    if state is not None and owned_identity(client, setup.table.name, setup.owner) != state.table:
        # gone or replaced since: start over in a fresh table, never "resume" into another one
        requests_before, attempts_before, state = state.requests, state.attempts, None
    for attempt in range(MAX_RESTARTS + 1):
        identity = state.table if state is not None else create_preview_table(
            client, setup.table, setup.model.table, setup.design.key_design, setup.owner)
        guard = TableGuard(client, setup.owner, identity)
        try:
            report = load_items(client, guard, data, state=state, progress=progress,
                                workers=load_workers(setup.endpoint))
        except TableReplacedError as exc:
            if attempt == MAX_RESTARTS:
                raise LoadInterrupted(f"{exc}, {MAX_RESTARTS + 1} times in a row; close the other tabs "
                                      "previewing this model, then load again",
                                      LoadState(identity, 0), 0) from None
            requests_before += exc.requests
            attempts_before += 1 + (state.attempts if state is not None else 0)
            state = None
            continue
        break
    if report.complete:
        mark_loaded(client, guard.identity, setup.owner, setup.fingerprint)
    return data, replace(report, requests=report.requests + requests_before, attempts=report.attempts + attempts_before)


class PreviewTableChanged(ModelingError):
    """The preview table is gone since the sample data was loaded."""


def check_preview_table(setup: PreviewSetup, client: object | None = None) -> None:
    """Before running patterns (and before each write pattern): the table exists and this owner made it.

    Raises ForeignTableError for someone else's table, PreviewTableChanged when it is gone.
    """
    client = client if client is not None else dynamodb_client(setup.endpoint)
    if owned_identity(client, setup.table.name, setup.owner) is None:
        raise PreviewTableChanged(f"the table {setup.table.name} no longer exists (cleaned up, or the endpoint "
                                  "restarted); load the sample data again")


def already_loaded(setup: PreviewSetup) -> PreviewData | None:
    """The data, when the table holds exactly this setup's data from an earlier session (or a refresh)."""
    probe = shared_dynamodb_client(setup.endpoint, timeouts=setup.endpoint.probe_timeouts)  # every rerun
    if loaded_fingerprint(probe, setup.table.name, setup.owner) != setup.fingerprint:
        return None
    return preview_data(setup)


def load_workers(endpoint: Endpoint) -> int:
    """Concurrent BatchWriteItem requests: one for the embedded server, which shares this process's GIL
    with its client threads (docs/stack-notes.md §3: threads do not help moto); several for a real endpoint."""
    return 1 if endpoint.kind is EndpointKind.EMBEDDED else DEFAULT_WORKERS


def cleanup_preview(setup: PreviewSetup) -> bool:
    """Delete the preview table (only ever one the product created); False if there was none."""
    return delete_preview_table(dynamodb_client(setup.endpoint), setup.table, setup.owner)
