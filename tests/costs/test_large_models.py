"""Heavy but valid models price in seconds with the right figures (issue 15, findings 2 and 13): a 400 KB
text attribute (a 415-character link took 414 s and 0.8 GB), and many entities (1,500 took 468 s)."""

from __future__ import annotations

import time
import tracemalloc
from decimal import Decimal

from costs.capacity import SAMPLE_ITEMS_PER_ENTITY, sample_counts
from costs.estimate import EstimateRequest
from modeling.data.sample_data import generate_items
from modeling.limits import MAX_SAMPLE_ITEMS_PER_MODEL
from modeling.model import Model
from studio.estimate import estimate_model
from workshop.sharing import decode_share, encode_share

TRAFFIC = {"peak_requests_per_second": 10, "average_requests_per_second": 1}


def _big_text_document() -> dict:
    return {"format": "dynamodb-design-studio/model", "version": 1, "name": "Big text", "table": {"name": "big-text"},
            "entities": [{"name": "Doc", "item_count": 1_000_000, "identifiers": ["id"], "attributes": [
                {"name": "id", "generator": {"kind": "sequence", "prefix": "d", "width": 9}},
                {"name": "body", "generator": {"kind": "text", "length_bytes": 409_600}}]}],
            "access_patterns": [{"name": "get_doc_by_id", "kind": "read_one", "entities": ["Doc"], "inputs": ["id"],
                                 "traffic": TRAFFIC}],
            "key_design": {"sort_key": None,
                           "entities": [{"entity": "Doc", "table": {"partition_key": "DOC#{id}"}}]}}


def test_long_filler_text_has_exactly_the_asked_length() -> None:
    model = Model.model_validate(_big_text_document())
    bodies = [item["body"] for item in generate_items(model, 5)["Doc"]]
    assert [len(b.encode("utf-8")) for b in bodies] == [409_600] * 5


def test_a_short_link_with_400_kb_texts_prices_quickly_and_right() -> None:
    token = encode_share(_big_text_document())
    assert token is not None and len(token) < 500
    model = Model.model_validate(decode_share(token))
    tracemalloc.start()
    started = time.perf_counter()
    result = estimate_model(EstimateRequest(model=model))
    seconds = time.perf_counter() - started
    _, peak_bytes = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # item: id 2+10 ("d000000001"), body 4+409,600, PK 2+14 ("DOC#d000000001") = 409,632 B (dynamodb-rules §6)
    assert result.profile.entity_size("Doc").average_bytes == 409_632
    # GetItem: ceil(409,632 / 4,096) = 101 blocks of 4 KB, eventually consistent: 50.5 RCU (§1.1)
    capacity = next(c for c in result.profile.patterns if c.pattern == "get_doc_by_id")
    assert capacity.read_units_per_request == Decimal("50.5")
    assert peak_bytes < 300 * 1024**2  # 200 samples of 400 KB: ~80 MB, generated once for every design
    assert seconds < 120  # it took 414 s; the bench scripts hold the real targets, this only catches a relapse


def _many_entities(count: int) -> Model:
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Many", "table": {"name": "many"},
        "entities": [{"name": f"E{n}", "item_count": 1000, "identifiers": ["id"],
                      "attributes": [{"name": "id", "generator": {"kind": "uuid"}}]} for n in range(count)]})


def test_sample_items_stay_within_the_model_budget_and_the_estimate_says_so() -> None:
    small, large = _many_entities(3), _many_entities(1_500)
    assert set(sample_counts(small).values()) == {SAMPLE_ITEMS_PER_ENTITY}
    counts = sample_counts(large)
    assert sum(counts.values()) <= MAX_SAMPLE_ITEMS_PER_MODEL and min(counts.values()) >= 10
    result = estimate_model(EstimateRequest(model=large, compare_designs=False))
    notes = [a for a in result.usage.assumptions if "sample items per entity" in a]
    assert len(notes) == 1 and "1,500 entities" in notes[0]
    # a uuid is 36 characters: id 2+36, PK and SK of the proposed design on top: at least 38 B per item
    assert all(s.average_bytes >= 38 for s in result.profile.entity_sizes)
