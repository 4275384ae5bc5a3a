"""Loading the preview items with BatchWriteItem: 25 items per request, a few requests at a time.

Throttling and transient errors are retried by botocore's standard retry mode (the client's
configuration, modeling.endpoint); items DynamoDB returns as UnprocessedItems are re-sent with
exponential backoff and full jitter (dynamodb-facts §8, BatchWriteItem). A load that cannot finish
(the endpoint goes away, throttling outlasts the retries) raises `LoadInterrupted` carrying a
`LoadState`: loading again with that state sends only the batches that did not complete. Puts of
the same items are idempotent, so a batch sent twice does no harm. A final count proves nothing was
lost.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.errors import EndpointError, ModelingError
from modeling.preview.dataset import PreviewData, to_dynamodb_json

# dynamodb-facts §8 (request limits): BatchWriteItem takes at most 25 put or delete requests.
BATCH_WRITE_MAX_ITEMS = 25
DEFAULT_WORKERS = 4
MAX_UNPROCESSED_ATTEMPTS = 8
BACKOFF_BASE_SECONDS = 0.05
BACKOFF_CAP_SECONDS = 2.0

Progress = Callable[[int, int, float], None]  # (items written, items in total, seconds so far)


@dataclass(frozen=True)
class LoadState:
    """Which batches of a load have completed (resume with it after an interruption)."""

    table_name: str
    batch_count: int
    completed: frozenset[int] = field(default_factory=frozenset)

    @property
    def remaining(self) -> list[int]:
        return [i for i in range(self.batch_count) if i not in self.completed]


@dataclass(frozen=True)
class LoadReport:
    table_name: str
    items_written: int
    items_expected: int
    items_counted: int
    seconds: float
    requests: int
    unprocessed_retries: int

    @property
    def items_per_second(self) -> float:
        return self.items_written / self.seconds if self.seconds > 0 else 0.0

    @property
    def complete(self) -> bool:
        return self.items_counted == self.items_expected


class LoadInterrupted(ModelingError):
    """A load stopped part-way; `state` says which batches completed, so loading again resumes."""

    def __init__(self, message: str, state: LoadState, items_written: int) -> None:
        super().__init__(message)
        self.state = state
        self.items_written = items_written


def batches_of(data: PreviewData) -> list[list[dict[str, Any]]]:
    items = [to_dynamodb_json(item.full_item) for item in data.items]
    return [items[i:i + BATCH_WRITE_MAX_ITEMS] for i in range(0, len(items), BATCH_WRITE_MAX_ITEMS)]


def load_items(client: Any, table_name: str, data: PreviewData, *, state: LoadState | None = None,
               progress: Progress | None = None, workers: int = DEFAULT_WORKERS,
               sleep: Callable[[float], None] = time.sleep) -> LoadReport:
    """Write the items (only the batches `state` has not completed) and count the table afterwards."""
    batches = batches_of(data)
    state = state if state is not None and state.batch_count == len(batches) else LoadState(table_name, len(batches))
    total = len(data.items)
    lock = threading.Lock()
    completed = set(state.completed)
    written = sum(len(batches[i]) for i in completed)
    counters = {"requests": 0, "retries": 0}
    started = time.perf_counter()
    failures: list[str] = []

    def write(index: int) -> int:
        requests, retries = _write_batch(client, table_name, batches[index], sleep)
        with lock:
            counters["requests"] += requests
            counters["retries"] += retries
        return index

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = [pool.submit(write, i) for i in state.remaining]
        for future in as_completed(futures):
            try:
                index = future.result()
            except _BatchFailed as exc:
                failures.append(str(exc))
                continue
            completed.add(index)
            written += len(batches[index])
            if progress is not None:
                progress(written, total, time.perf_counter() - started)
    new_state = LoadState(table_name, len(batches), frozenset(completed))
    if failures:
        raise LoadInterrupted(f"the load stopped after {written:,} of {total:,} items: {failures[0]}. "
                              "Nothing is lost: load again to send the remaining "
                              f"{len(new_state.remaining)} batches", new_state, written)
    seconds = time.perf_counter() - started
    try:
        counted = count_items(client, table_name)
    except EndpointError as exc:
        raise LoadInterrupted(f"all {written:,} items were written but {exc}", new_state, written) from None
    return LoadReport(table_name, written, total, counted, seconds, counters["requests"], counters["retries"])


class _BatchFailed(Exception):
    pass


def _write_batch(client: Any, table_name: str, items: Sequence[dict[str, Any]],
                 sleep: Callable[[float], None]) -> tuple[int, int]:
    """Send one batch until nothing is unprocessed; returns (requests sent, unprocessed retries)."""
    pending = [{"PutRequest": {"Item": item}} for item in items]
    for attempt in range(MAX_UNPROCESSED_ATTEMPTS):
        try:
            response = client.batch_write_item(RequestItems={table_name: pending})
        except ClientError as exc:
            error = exc.response.get("Error", {})
            raise _BatchFailed(f"{error.get('Code', 'error')}: {error.get('Message', '')}") from None
        except BotoCoreError as exc:
            raise _BatchFailed(f"the endpoint did not answer ({str(exc)[:160]})") from None
        pending = response.get("UnprocessedItems", {}).get(table_name, [])
        if not pending:
            return attempt + 1, attempt
        sleep(backoff_seconds(attempt))
    raise _BatchFailed(f"{len(pending)} items were still unprocessed after {MAX_UNPROCESSED_ATTEMPTS} attempts "
                       "(the table is throttled; wait, or give it more capacity)")


def backoff_seconds(attempt: int, rng: random.Random | None = None) -> float:
    """Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^attempt)]."""
    ceiling = min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** attempt)
    return (rng or random).uniform(0, ceiling)


def count_items(client: Any, table_name: str) -> int:
    """Items in the table, by a paginated Scan with Select=COUNT (the preview table is small)."""
    total = 0
    try:
        for page in client.get_paginator("scan").paginate(TableName=table_name, Select="COUNT"):
            total += page["Count"]
    except (ClientError, BotoCoreError) as exc:
        raise EndpointError(f"they could not be counted ({str(exc)[:160]}); load again once the endpoint "
                            "answers (nothing is re-sent, the table is only counted)") from None
    return total
