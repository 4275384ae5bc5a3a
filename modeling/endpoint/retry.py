"""The one retry helper: re-send what the endpoint left unprocessed, with backoff, until nothing is left.

DynamoDB's batch operations may answer "done" for part of a request and hand the rest back
(UnprocessedItems for BatchWriteItem, UnprocessedKeys for BatchGetItem); the caller must send the rest
again with exponential backoff (dynamodb-rules §8, BatchWriteItem/BatchGetItem). Throttling and
transient HTTP errors are retried by botocore's standard retry mode (modeling.endpoint.adapter), not here.

The sleep is injectable (tests pass a list's `append`), and running out of attempts raises
`RetriesExhausted` with what is still left: a retry loop never gives up silently.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from modeling.errors import ModelingError

# Full jitter over an exponentially growing window, capped (AWS Architecture Blog, "Exponential Backoff
# And Jitter"; the SDKs' own retry strategy uses the same shape).
MAX_ATTEMPTS = 8
BACKOFF_BASE_SECONDS = 0.05
BACKOFF_CAP_SECONDS = 2.0

Pending = TypeVar("Pending")


class RetriesExhausted(ModelingError, Generic[Pending]):
    """The endpoint still left part of the request unprocessed after every attempt."""

    def __init__(self, message: str, left: Pending, attempts: int) -> None:
        super().__init__(message)
        self.left = left
        self.attempts = attempts


def backoff_seconds(attempt: int, rng: random.Random | None = None) -> float:
    """Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^attempt)]."""
    ceiling = min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** attempt)
    return (rng or random).uniform(0, ceiling)


def send_until_done(send: Callable[[Pending], Pending | None], pending: Pending, *, what: str,
                    sleep: Callable[[float], None] = time.sleep, attempts: int = MAX_ATTEMPTS,
                    rng: random.Random | None = None) -> int:
    """Call `send(pending)`, which returns what is left (empty or None when done), until nothing is left.

    Returns how many times `send` was called. Raises RetriesExhausted after `attempts` calls that
    each left something, or re-raises whatever `send` raises (an endpoint error is not retried here).
    """
    left = pending
    for attempt in range(attempts):
        if attempt:
            sleep(backoff_seconds(attempt - 1, rng))
        unprocessed = send(left)
        if not unprocessed:
            return attempt + 1
        left = unprocessed
    raise RetriesExhausted(f"{what}: part of the request was still unprocessed after {attempts} attempts "
                           "(the table is throttled; wait, or give it more capacity, then try again)",
                           left, attempts)
