"""Loading the preview items with BatchWriteItem: 25 items per request, a few requests at a time.

Throttling and transient errors are retried by botocore's standard retry mode (the client's
configuration, modeling.endpoint.adapter); items DynamoDB returns as UnprocessedItems are re-sent by the one
retry helper (modeling.endpoint.retry, dynamodb-rules §8, BatchWriteItem). A load that cannot finish (the
endpoint goes away, throttling outlasts the retries) raises `LoadInterrupted` carrying a `LoadState`:
loading again with that state sends only the batches that did not complete, into the very table the
load began with (a `TableGuard` checks it before the first write, before every re-send after a
failure, every few batches, and before the count). Puts of the same items are idempotent, so a batch
sent twice does no harm. A final count proves nothing was lost.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from modeling.endpoint.retry import RetriesExhausted, send_until_done
from modeling.errors import EndpointError, ModelingError
from modeling.limits import MAX_BATCH_WRITE_ITEMS  # a BatchWriteItem takes at most 25 puts or deletes
from modeling.preview.dataset import PreviewData, to_dynamodb_json
from modeling.preview.ownership import TableGuard, TableIdentity, TableReplacedError

DEFAULT_WORKERS = 4
# How often, in completed batches, a load checks that its table is still the one it began with.
GUARD_EVERY_BATCHES = 20
COUNT_PAGE_ITEMS = 1000
# After a batch fails for good, how long the batches still in flight may take to finish (they usually end
# together with it: the same stall or the same outage) before the load reports where it stopped.
IN_FLIGHT_GRACE_SECONDS = 3.0

Progress = Callable[[int, int, float], None]  # (items written, items in total, seconds so far)


@dataclass(frozen=True)
class LoadState:
    """Which batches of a load have completed, into which table (resume with it after an interruption).

    `requests` and `unprocessed_retries` add up every attempt so far, so a resumed load reports them all.
    """

    table: TableIdentity
    batch_count: int
    completed: frozenset[int] = field(default_factory=frozenset)
    requests: int = 0
    unprocessed_retries: int = 0
    attempts: int = 0  # loads that have written into this table for this state so far

    @property
    def table_name(self) -> str:
        return self.table.name

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
    requests: int  # every BatchWriteItem HTTP request of every attempt, botocore's own retries included
    unprocessed_retries: int
    attempts: int = 1  # 1 for a load that ran through; more after resumes or a restart

    @property
    def items_per_second(self) -> float:
        return self.items_written / self.seconds if self.seconds > 0 else 0.0

    @property
    def complete(self) -> bool:
        return self.items_counted == self.items_expected

    @property
    def shortfall(self) -> int:
        """Items the count did not find (negative: more items than expected)."""
        return self.items_expected - self.items_counted


class LoadInterrupted(ModelingError):
    """A load stopped part-way; `state` says which batches completed, so loading again resumes."""

    def __init__(self, message: str, state: LoadState, items_written: int) -> None:
        super().__init__(message)
        self.state = state
        self.items_written = items_written


def batches_of(data: PreviewData) -> list[list[dict[str, Any]]]:
    items = [to_dynamodb_json(item.full_item) for item in data.items]
    items += [to_dynamodb_json(item) for item in data.auxiliary]
    return [items[i:i + MAX_BATCH_WRITE_ITEMS] for i in range(0, len(items), MAX_BATCH_WRITE_ITEMS)]


def load_items(client: Any, guard: TableGuard, data: PreviewData, *, state: LoadState | None = None,
               progress: Progress | None = None, workers: int = DEFAULT_WORKERS,
               sleep: Callable[[float], None] = time.sleep) -> LoadReport:
    """Write the items (only the batches `state` has not completed) and count the table afterwards.

    Raises TableReplacedError (start over) or ForeignTableError (stop) when the guard's table is not
    the one to write to any more; nothing is written after that is noticed.
    """
    batches = batches_of(data)
    table_name = guard.identity.name
    if state is None or state.batch_count != len(batches) or state.table != guard.identity:
        state = LoadState(guard.identity, len(batches))
    attempts = state.attempts + 1
    guard.check()
    total = len(data.items) + len(data.auxiliary)
    lock = threading.Lock()
    completed = set(state.completed)
    written = sum(len(batches[i]) for i in completed)
    counters = {"requests": state.requests, "retries": state.unprocessed_retries}
    started = time.perf_counter()
    failures: list[str] = []

    def count(requests: int, retries: int) -> None:
        with lock:
            counters["requests"] += requests
            counters["retries"] += retries

    def write(index: int) -> int:
        _write_batch(client, guard, batches[index], sleep, count)
        return index

    def current_state() -> LoadState:
        return LoadState(guard.identity, len(batches), frozenset(completed), counters["requests"],
                         counters["retries"], attempts)

    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    futures = [pool.submit(write, i) for i in state.remaining]
    try:
        for done, future in enumerate(as_completed(futures), start=1):
            try:
                index = future.result()
            except _BatchFailed as exc:
                # stop at once: an endpoint that stalls would otherwise cost a deadline per batch; batches
                # still in flight end on their own and are simply sent again on resume (puts are idempotent)
                failures.append(str(exc))
                break
            completed.add(index)
            written += len(batches[index])
            if done % GUARD_EVERY_BATCHES == 0:
                guard.check()
            if progress is not None:
                progress(written, total, time.perf_counter() - started)
    except BaseException as exc:  # the guard refused, or the page was left (Cancel): send nothing more
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(exc, TableReplacedError):
            exc.requests = counters["requests"]
        if isinstance(exc, EndpointError):  # the guard's own check got no answer: resumable like a batch
            interrupted = LoadInterrupted(f"the load stopped after {written:,} of {total:,} items: {exc}",
                                          current_state(), written)
            raise interrupted from None
        raise
    if failures:  # batches in flight usually fail or finish together with the first; count what they did
        for future in futures:
            future.cancel()
        wait(futures, timeout=IN_FLIGHT_GRACE_SECONDS)
        for future in futures:
            if future.done() and not future.cancelled() and future.exception() is None:
                completed.add(future.result())
        written = sum(len(batches[i]) for i in completed)
    pool.shutdown(wait=False, cancel_futures=True)
    new_state = current_state()
    if any(_TABLE_GONE in failure for failure in failures):
        _check_replaced(guard, counters["requests"])  # deleted (and perhaps created again): start over
    if failures:  # resuming checks the table again before it writes anything
        raise LoadInterrupted(f"the load stopped after {written:,} of {total:,} items: {failures[0]}. "
                              "Nothing is lost: load again to send the remaining "
                              f"{len(new_state.remaining)} batches", new_state, written)
    _check_replaced(guard, counters["requests"])  # a table replaced mid-load without a failure, before counting
    seconds = time.perf_counter() - started
    try:
        counted = count_items(client, table_name)
    except EndpointError as exc:
        raise LoadInterrupted(f"all {written:,} items were written but {exc}", new_state, written) from None
    return LoadReport(table_name, written, total, counted, seconds, counters["requests"], counters["retries"],
                      attempts)


class _BatchFailed(Exception):
    pass


_TABLE_GONE = "ResourceNotFoundException"


def _check_replaced(guard: TableGuard, requests: int) -> None:
    try:
        guard.check()
    except TableReplacedError as exc:
        exc.requests = requests
        raise


def _write_batch(client: Any, guard: TableGuard, items: Sequence[dict[str, Any]],
                 sleep: Callable[[float], None], count: Callable[[int, int], None]) -> None:
    """Send one batch until nothing is unprocessed, re-checking the table before every re-send."""
    table_name = guard.identity.name
    sends = [0]

    def send(pending: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if sends[0]:
            guard.check()  # a re-send: the table must still be the one the load began with
        sends[0] += 1
        try:
            response = client.batch_write_item(RequestItems={table_name: pending})
        except ClientError as exc:
            count(1 + _retry_attempts(exc.response), 0)
            error = exc.response.get("Error", {})
            raise _BatchFailed(f"{error.get('Code', 'error')}: {error.get('Message', '')}") from None
        except BotoCoreError as exc:
            count(1, 0)
            raise _BatchFailed(f"the endpoint did not answer ({str(exc)[:160]})") from None
        left: list[dict[str, Any]] = response.get("UnprocessedItems", {}).get(table_name, [])
        count(1 + _retry_attempts(response), 1 if left else 0)
        return left

    try:
        send_until_done(send, [{"PutRequest": {"Item": item}} for item in items],
                        what=f"writing {len(items)} items", sleep=sleep)
    except RetriesExhausted as exc:
        raise _BatchFailed(str(exc)) from None


def _retry_attempts(response: dict[str, Any]) -> int:
    """The retries botocore made on its own before this answer (throttling, 5xx, dropped connections)."""
    return int(response.get("ResponseMetadata", {}).get("RetryAttempts", 0) or 0)


def count_items(client: Any, table_name: str) -> int:
    """Items in the table, by a paginated Scan with Select=COUNT (the preview table is small)."""
    total = 0
    # pages of at most COUNT_PAGE_ITEMS: each page answers well within the call deadline, even from moto
    arguments: dict[str, Any] = {"TableName": table_name, "Select": "COUNT", "Limit": COUNT_PAGE_ITEMS}
    try:
        while True:
            page = client.scan(**arguments)
            total += int(page["Count"])
            if not page.get("LastEvaluatedKey"):
                return total
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    except (ClientError, BotoCoreError) as exc:
        raise EndpointError(f"they could not be counted ({str(exc)[:160]}); load again once the endpoint "
                            "answers (nothing is re-sent, the table is only counted)") from None
    except (KeyError, TypeError, ValueError):
        raise EndpointError("they could not be counted: the endpoint's answer to Scan has no Count; it does "
                            "not behave like DynamoDB") from None
