"""Key templates: one grammar, clear errors, and rendered keys that sort like their values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeling.design.keys import KeyTemplate, KeyTemplateError, render_key, render_value


def test_template_parses_into_constants_and_references() -> None:
    template = KeyTemplate.parse("TENANT#{tenantId}#STUDENT#{studentId}")
    assert template.attribute_names == ("tenantId", "studentId")
    assert template.constant_prefix == "TENANT#"
    assert render_key(template, {"tenantId": "t1", "studentId": "s9"}) == "TENANT#t1#STUDENT#s9"


@pytest.mark.parametrize("source, fragment", [
    ("ORDER#{orderId", "never closed"), ("ORDER#}x", "has no `{`"), ("A#{}", "not an attribute reference"),
    ("A#{a b}", "not an attribute reference"), ("A#{x:abc}", "not an attribute reference")],
    ids=["unclosed", "stray-close", "empty", "space", "bad-width"])
def test_malformed_templates_are_refused_with_the_position(source: str, fragment: str) -> None:
    with pytest.raises(KeyTemplateError, match=fragment):
        KeyTemplate.parse(source)


def test_rendering_names_the_missing_attribute() -> None:
    with pytest.raises(KeyTemplateError, match="`orderId`"):
        render_key(KeyTemplate.parse("ORDER#{orderId}"), {"customerId": "c1"})


def test_widths_zero_pad_and_refuse_what_cannot_keep_order() -> None:
    assert render_key(KeyTemplate.parse("XP#{xp:6}"), {"xp": 42}) == "XP#000042"
    assert render_key(KeyTemplate.parse("P#{price:5.2}"), {"price": Decimal("3.5")}) == "P#00003.50"
    with pytest.raises(KeyTemplateError, match="negative"):
        render_value(-1, 4)
    with pytest.raises(KeyTemplateError, match="more than the template's width"):
        render_value(123456, 4)


def test_timestamps_render_as_iso_8601_utc() -> None:
    moment = datetime(2024, 5, 1, 12, 0, tzinfo=timezone(timedelta(hours=2)))
    assert render_value(moment) == "2024-05-01T10:00:00Z"


@given(st.lists(st.integers(min_value=0, max_value=10**9 - 1), min_size=2, max_size=40))
def test_padded_integers_sort_as_strings_like_numbers(values: list[int]) -> None:
    template = KeyTemplate.parse("XP#{xp:9}")
    rendered = sorted(values, key=lambda v: render_key(template, {"xp": v}))
    assert rendered == sorted(values)


@given(st.lists(st.decimals(min_value=0, max_value=99999, places=2, allow_nan=False), min_size=2, max_size=40))
def test_padded_decimals_sort_as_strings_like_numbers(values: list[Decimal]) -> None:
    template = KeyTemplate.parse("P#{price:5.2}")
    assert sorted(values, key=lambda v: render_key(template, {"price": v})) == sorted(values)


@given(st.lists(st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2999, 1, 1),
                             timezones=st.just(UTC)), min_size=2, max_size=40))
def test_timestamps_sort_as_strings_like_moments(values: list[datetime]) -> None:
    values = [v.replace(microsecond=0) for v in values]
    assert sorted(values, key=render_value) == sorted(values)


def test_unpadded_numbers_do_not_sort_which_is_why_widths_exist() -> None:
    plain = sorted([9, 10], key=lambda v: render_key(KeyTemplate.parse("XP#{xp}"), {"xp": v}))
    assert plain == [10, 9]
