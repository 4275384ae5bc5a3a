"""The Hot partitions memos (populations, the sharding sweep) change nothing but the time: an answer built
from remembered parts equals the one built cold, whatever was asked before, and another model never gets
the first one's answer."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from costs.design_ranking import propose
from modeling.examples import load_example
from modeling.hot_partitions import BurstScenario, HotPartitionReport, HotPartitionRequest, analyse_hot_partitions
from modeling.memo import clear_domain_caches

FRAMES = ("keys", "key_profile", "partitions", "hourly", "timeline", "skew", "sharding", "alternatives")


def _same(left: HotPartitionReport, right: HotPartitionReport) -> None:
    for name in FRAMES:
        pd.testing.assert_frame_equal(getattr(left, name), getattr(right, name), check_exact=True)
    assert left.findings == right.findings


def _request(slug: str = "student_platform_mistakes", **changes: object) -> HotPartitionRequest:
    model = load_example(slug)
    return replace(HotPartitionRequest(model=model, design=propose(model)[0], max_key_values=10_000),
                   **changes)


def test_what_ifs_after_other_what_ifs_equal_a_cold_analysis() -> None:
    burst = BurstScenario(pattern=_request().model.access_patterns[0].name, requests=3700, duration_seconds=0.2,
                          resolution_seconds=0.1)
    asks = [_request(), _request(shard_count=4), _request(scenario=burst), _request(scenario=burst, shard_count=8),
            _request(shard_count=20, alternative_entity=_request().model.entities[0].name)]
    warm = []
    clear_domain_caches()
    for ask in asks:  # each reuses what the ones before it left
        warm.append(analyse_hot_partitions(ask))
    for ask, answer in zip(asks, warm, strict=True):
        clear_domain_caches()
        _same(analyse_hot_partitions(ask), answer)


def test_another_model_never_gets_the_first_models_answer() -> None:
    clear_domain_caches()
    first = analyse_hot_partitions(_request("student_platform_mistakes"))
    other = analyse_hot_partitions(_request("chat_messages"))
    assert not first.keys.equals(other.keys)
    clear_domain_caches()
    _same(analyse_hot_partitions(_request("chat_messages")), other)
