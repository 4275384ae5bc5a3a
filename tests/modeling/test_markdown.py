"""The one rule for user text in Markdown (issue 15, finding 4): shown literally, nothing live."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeling.markdown import markdown_literal
from tests.markdown_checks import PAYLOADS, WORD_JOINER, live_markdown, unescape


@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=PAYLOADS.keys())
def test_payloads_show_literally(payload: str) -> None:
    escaped = markdown_literal(payload)
    assert unescape(escaped) == payload
    assert live_markdown(escaped) == []


@pytest.mark.parametrize(("text", "escaped"), [
    ("CRM (single table)", "CRM (single table)"),  # ordinary punctuation stays readable
    ("at 09:15, v1.2", "at 09:15, v1.2"),
    ("see http://x.example", "see http:\u2060//x.example"),  # found after parsing: broken by a word joiner
    ("- not a list", "\\- not a list"),
    ("1. not a list", "1\\. not a list"),
    ("# not a heading", "\\# not a heading"),
    ("two\nlines", "two lines"),
])
def test_block_markers_are_escaped_and_the_rest_kept(text: str, escaped: str) -> None:
    assert markdown_literal(text) == escaped


@given(st.text(st.characters(exclude_characters=WORD_JOINER), max_size=200))  # joiners are what we add
def test_any_text_round_trips_and_nothing_is_live(text: str) -> None:
    escaped = markdown_literal(text)
    assert unescape(escaped) == " ".join(text.splitlines())
    assert live_markdown(escaped) == []
