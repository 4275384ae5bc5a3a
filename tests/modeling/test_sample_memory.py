"""Memory one model can cost (issue 30, item 2): a 512-character share link of ten 409,000-byte text attributes
drew 200 copies of each text (0.78 GB a model) and kept them cached. Each test here fails without its fix."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

import pytest

from modeling.data.sample_data import generate_items, key_renderer
from modeling.design.sizing import sample_counts
from modeling.examples import example_document, list_examples
from modeling.limits import MAX_SAMPLE_BYTES_PER_MODEL
from modeling.memo import ContentMemo
from modeling.model import Model
from modeling.model_file import document_problems, errors_only
from workshop.sharing import ShareLinkError, decode_share, encode_share

TEXT_BYTES = 409_000
TRAFFIC = {"peak_requests_per_second": 10, "average_requests_per_second": 1}


def hostile_document(entities: int = 10, texts: int = 1, unique: bool = False) -> dict[str, Any]:
    """The reported link: entities with an id and `texts` filler texts of 409,000 bytes each."""
    return {"format": "dynamodb-design-studio/model", "version": 1, "name": "Hostile",
            "table": {"name": "hostile", "region": "eu-west-1"},
            "entities": [{"name": f"E{n}", "item_count": 1000, "identifiers": ["id"], "attributes": [
                {"name": "id", "generator": {"kind": "uuid"}},
                *({"name": f"blob{t}", "unique": unique, "generator": {"kind": "text", "length_bytes": TEXT_BYTES - t}}
                  for t in range(texts))]} for n in range(entities)]}


def _held_bytes(build: Any) -> tuple[Any, int]:
    """What `build()` returns and the bytes it still holds once built (tracemalloc, after a collection)."""
    gc.collect()
    tracemalloc.start()
    try:
        built = build()
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return built, held


def test_a_long_filler_text_is_held_once_per_attribute_not_once_per_item() -> None:
    model = Model.model_validate(hostile_document(entities=2))
    items, held = _held_bytes(lambda: generate_items(model, 200))
    bodies = [item["blob0"] for entity in items.values() for item in entity]
    assert [len(b.encode("utf-8")) for b in bodies] == [TEXT_BYTES] * 400  # sizes stay exact
    # 2 attributes x 409,000 B of text once, plus 400 small items (~100 KB); 400 copies were 164 MB
    assert held < 4 * 1024**2


def test_a_unique_long_text_still_differs_between_items() -> None:
    # a unique attribute (or an identifier) needs its own value in every item, as before: results do not change
    model = Model.model_validate(hostile_document(entities=1, unique=True))
    bodies = [item["blob0"] for item in generate_items(model, 12)["E0"]]
    assert len(set(bodies)) == 12 and {len(b) for b in bodies} == {TEXT_BYTES}


def test_items_sharing_a_long_text_share_its_rendered_key() -> None:
    document = hostile_document(entities=1)
    document["key_design"] = {"sort_key": None, "entities": [{"entity": "E0", "table": {"partition_key": "B#{blob0}"}}]}
    model = Model.model_validate(document)
    assert model.key_design is not None
    render = key_renderer(model.key_design, "E0")
    keys = [render(item)["PK"] for item in generate_items(model, 50)["E0"]]
    assert len(keys[0]) == 2 + TEXT_BYTES and all(k is keys[0] for k in keys)  # one string, not 50 copies


def test_the_cost_engine_draws_fewer_items_when_every_item_holds_a_big_text() -> None:
    # per item: 200 B of dict + 2 values x 100 B + 409,000 B of its own unique text = 409,400 B (sample_data);
    # 10 entities: 4,094,000 B a row; 64 MiB = 67,108,864 B // 4,094,000 = 16 items per entity (not 200)
    model = Model.model_validate(hostile_document(unique=True))
    assert sample_counts(model) == {f"E{n}": 16 for n in range(10)}


@pytest.mark.parametrize("slug", [e.slug for e in list_examples()])
def test_the_examples_still_draw_their_full_sample(slug: str) -> None:
    assert set(sample_counts(Model.model_validate(example_document(slug))).values()) == {200}


def test_a_link_whose_sample_would_not_fit_even_at_ten_items_is_refused_saying_what_and_how() -> None:
    # 10 entities x 17 shared texts of ~409,000 B = ~66 MB of text once, over 64 MiB whatever the item count
    document = hostile_document(texts=17)
    token = encode_share(document)
    assert token is not None and len(token) < 2_000
    with pytest.raises(ShareLinkError) as caught:
        decode_share(token)
    problem = next(p for p in caught.value.problems if "sample data" in p.message)
    assert problem.path == "entities[E0].attributes[blob0].generator.length_bytes"  # the biggest text
    assert f"{MAX_SAMPLE_BYTES_PER_MODEL / 1024**2:,.1f} MB" in problem.message
    assert "length_bytes" in problem.suggestion and "avg_size_bytes" in problem.suggestion
    assert not errors_only(document_problems(hostile_document(texts=16)))  # ~63 MB: opens


def test_a_memo_with_a_byte_budget_drops_the_oldest_answers_and_keeps_the_newest() -> None:
    memo: ContentMemo[str] = ContentMemo("test texts", max_entries=10, max_bytes=10, weigh=len)
    for key in ("a", "b", "c"):
        memo.get(key, lambda key=key: key * 4)  # 4 bytes each: three are 12 > 10
    assert len(memo) == 2 and memo.held_bytes == 8
    assert memo.get("a", lambda: "recomputed") == "recomputed"  # "a" was dropped, the oldest
    memo.get("big", lambda: "x" * 50)  # over the budget alone: kept (its caller uses it), every other dropped
    assert len(memo) == 1 and memo.held_bytes == 50
    memo.clear()
    assert len(memo) == 0 and memo.held_bytes == 0
