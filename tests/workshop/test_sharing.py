"""Share links: the round trip, the length limit, and zip-bomb-safe, validated decoding."""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest

from modeling.examples import example_document, list_examples
from workshop.sharing import MAX_MODEL_BYTES, MAX_SHARE_CHARS, ShareLinkError, decode_share, encode_share


def _pack(data: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(data, 9)).decode("ascii").rstrip("=")


@pytest.mark.parametrize("slug", [e.slug for e in list_examples()])
def test_every_example_fits_in_a_link_and_comes_back_equal(slug: str) -> None:
    document = example_document(slug)
    token = encode_share(document)
    assert token is not None and len(token) <= MAX_SHARE_CHARS
    assert decode_share(token) == document


def test_a_model_too_big_for_a_link_gets_none_so_it_is_shared_as_a_file() -> None:
    document = example_document("crm_single_table")
    document["description"] = base64.b64encode(random.Random(1).randbytes(9000)).decode()  # incompressible
    assert encode_share(document) is None


def test_a_link_over_the_limit_is_refused_before_decoding() -> None:
    with pytest.raises(ShareLinkError, match="characters long"):
        decode_share("A" * (MAX_SHARE_CHARS + 1))


def test_a_zip_bomb_stops_at_the_model_size_limit() -> None:
    bomb = _pack(b" " * (MAX_MODEL_BYTES * 4))  # 4 MB of spaces packs into about 4 KB
    assert len(bomb) <= MAX_SHARE_CHARS
    with pytest.raises(ShareLinkError, match="more than"):
        decode_share(bomb)


@pytest.mark.parametrize("token", ["not base64!", "AAAA", _pack(b'{"a": 1}')[:-6]], ids=["characters", "not-zlib",
                                                                                        "cut-short"])
def test_damaged_links_say_so(token: str) -> None:
    with pytest.raises(ShareLinkError):
        decode_share(token)


def test_a_valid_link_to_an_invalid_model_reports_the_model_problem() -> None:
    document = example_document("student_platform")
    document["entities"][0]["attributes"][0]["type"] = "STRING"
    with pytest.raises(ShareLinkError) as caught:
        decode_share(_pack(json.dumps(document).encode()))
    assert any("type" in p.path for p in caught.value.problems)


def test_yaml_tags_in_a_link_are_refused_by_the_safe_loader() -> None:
    with pytest.raises(ShareLinkError):
        decode_share(_pack(b"format: !!python/object/apply:os.system ['true']\n"))
