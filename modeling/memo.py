"""Bounded memos keyed by content: the pages rerun on every click, the domain answers from here.

A key is built from content only (a model's canonical JSON, a design's repr, the choices), never from
object identity or a browser session, so two sessions with the same model share an answer and two
different models can never see each other's. Each memo is an LRU of at most `max_entries` answers, and a memo
of big answers also of at most `max_bytes` as its `weigh` estimates them (the newest answer is always kept: its
caller is using it), safe across the threads Streamlit runs sessions in. Answers must be immutable (frozen
types, tuples) or treated as read-only by every caller.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_MEMOS: list[ContentMemo[Any]] = []  # every memo, whatever it holds


class ContentMemo(Generic[T]):
    """`get(key, compute)`: the answer stored under `key`, else `compute()` stored (oldest dropped)."""

    def __init__(self, name: str, max_entries: int, max_bytes: int | None = None,
                 weigh: Callable[[T], int] | None = None) -> None:
        if (max_bytes is None) != (weigh is None):
            raise ValueError("a byte budget needs `weigh`, the bytes an answer holds, and `weigh` needs `max_bytes`")
        self.name, self.max_entries, self.max_bytes, self._weigh = name, max_entries, max_bytes, weigh
        self._answers: OrderedDict[Hashable, T] = OrderedDict()
        self._weights: dict[Hashable, int] = {}
        self._lock = threading.Lock()
        _MEMOS.append(self)

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        answer = compute()  # outside the lock: two sessions computing the same key get equal answers
        weight = self._weigh(answer) if self._weigh is not None else 0
        with self._lock:
            self._answers[key] = answer
            self._weights[key] = weight
            self._answers.move_to_end(key)
            while len(self._answers) > 1 and (len(self._answers) > self.max_entries or self._over_budget()):
                dropped, _ = self._answers.popitem(last=False)
                self._weights.pop(dropped, None)
        return answer

    def peek(self, key: Hashable) -> T | None:
        """The answer stored under `key`, or None: nothing is computed (a page shows what a click built)."""
        with self._lock:
            return self._answers.get(key)

    def _over_budget(self) -> bool:
        return self.max_bytes is not None and self.held_bytes > self.max_bytes

    @property
    def held_bytes(self) -> int:
        """The bytes the kept answers hold, as `weigh` estimates them (0 without a byte budget)."""
        return sum(self._weights.values())

    def __len__(self) -> int:
        return len(self._answers)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self._weights.clear()


def content_key(*parts: str) -> str:
    """A short stable key for long content (model JSON, reprs): SHA-256 of the parts, kept apart by NULs.

    >>> content_key("a", "b") == content_key("a", "b") != content_key("ab", "")
    True
    """
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def clear_domain_caches() -> None:
    """Forget every memo (benchmarks measure a cold first visit with it)."""
    for memo in _MEMOS:
        memo.clear()
