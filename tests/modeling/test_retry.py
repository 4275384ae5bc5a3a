"""The one retry helper: re-sends what is left with backoff, never gives up silently."""

from __future__ import annotations

import random

import pytest

from modeling.endpoint.retry import RetriesExhausted, send_until_done


def test_it_re_sends_only_what_is_left_and_sleeps_between_attempts() -> None:
    sent: list[list[int]] = []
    sleeps: list[float] = []

    def send(pending: list[int]) -> list[int]:
        sent.append(pending)
        return pending[1:]  # the endpoint processes one item per request

    calls = send_until_done(send, [1, 2, 3], what="test", sleep=sleeps.append, rng=random.Random(0))
    assert calls == 3 and sent == [[1, 2, 3], [2, 3], [3]]
    # no sleep before the first attempt; then full jitter under 50 ms, then under 100 ms (base 50 ms doubling)
    assert len(sleeps) == 2 and 0 <= sleeps[0] <= 0.05 and 0 <= sleeps[1] <= 0.1


def test_it_raises_with_what_is_left_when_the_attempts_run_out() -> None:
    sleeps: list[float] = []
    with pytest.raises(RetriesExhausted, match="still unprocessed after 4 attempts") as stopped:
        send_until_done(lambda pending: pending, ["a", "b"], what="writing 2 items", sleep=sleeps.append,
                        attempts=4)
    assert stopped.value.left == ["a", "b"] and stopped.value.attempts == 4
    assert len(sleeps) == 3
    assert "writing 2 items" in str(stopped.value)


def test_an_error_from_the_request_is_not_swallowed() -> None:
    def send(pending: list[int]) -> list[int]:
        raise ConnectionError("down")

    with pytest.raises(ConnectionError):
        send_until_done(send, [1], what="test", sleep=lambda s: None)


def test_an_empty_answer_or_none_means_done() -> None:
    assert send_until_done(lambda pending: None, {"t": [1]}, what="test", sleep=lambda s: None) == 1
    assert send_until_done(lambda pending: {}, {"t": [1]}, what="test", sleep=lambda s: None) == 1
