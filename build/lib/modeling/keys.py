"""Key templates: `CUSTOMER#{customerId}` is the constant `CUSTOMER#` then the attribute `customerId`.

One grammar for every key: constant text and `{attribute}` references, in order. A reference may carry
a width, `{xp:10}`, to zero-pad a number (`{price:8.2}` also fixes two decimals), so that sorting the
rendered strings sorts the numbers. Templates are parsed once into segments; rendering is pure.

>>> render_key(KeyTemplate.parse("ORDER#{orderDate}#{seq:4}"), {"orderDate": "2024-05-01", "seq": 7})
'ORDER#2024-05-01#0007'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from modeling.errors import ModelingError

# dynamodb-facts §6 (Limits and overheads) https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
MAX_PARTITION_KEY_BYTES = 2048
MAX_SORT_KEY_BYTES = 1024
MAX_NUMBER_TEXT_BYTES = 40  # 38 significant digits, a sign and a decimal point

_REFERENCE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)(:(?P<width>\d{1,2})(\.(?P<decimals>\d))?)?$")


class KeyTemplateError(ModelingError):
    """A key template that cannot be parsed or rendered."""


@dataclass(frozen=True)
class Segment:
    text: str  # constant text, or the attribute name of a reference
    is_attribute: bool
    width: int | None = None  # zero-padding width of a number reference
    decimals: int | None = None


@dataclass(frozen=True)
class KeyTemplate:
    source: str
    segments: tuple[Segment, ...]

    @classmethod
    def parse(cls, source: str) -> KeyTemplate:
        """Parse `PREFIX#{attr}#...`; raise KeyTemplateError naming the position of a bad brace.

        >>> KeyTemplate.parse("ORDER#{orderId}").attribute_names
        ('orderId',)
        """
        segments: list[Segment] = []
        position = 0
        while position < len(source):
            opening, closing = source.find("{", position), source.find("}", position)
            if closing != -1 and (opening == -1 or closing < opening):
                raise KeyTemplateError(f"`}}` at position {closing + 1} of {source!r} has no `{{`")
            if opening == -1:
                segments.append(Segment(source[position:], False))
                break
            if opening > position:
                segments.append(Segment(source[position:opening], False))
            end = source.find("}", opening)
            if end == -1:
                raise KeyTemplateError(f"`{{` at position {opening + 1} of {source!r} is never closed")
            segments.append(_reference(source, source[opening + 1:end].strip()))
            position = end + 1
        return cls(source, tuple(segments))

    @property
    def attribute_names(self) -> tuple[str, ...]:
        return tuple(s.text for s in self.segments if s.is_attribute)

    @property
    def constant_prefix(self) -> str:
        """The constant text before the first reference (what `begins_with` can match)."""
        prefix = ""
        for segment in self.segments:
            if segment.is_attribute:
                break
            prefix += segment.text
        return prefix


def _reference(source: str, inner: str) -> Segment:
    match = _REFERENCE.match(inner)
    if not match:
        raise KeyTemplateError(f"`{{{inner}}}` in {source!r} is not an attribute reference; "
                               "write {attribute} or {attribute:width}")
    width, decimals = match["width"], match["decimals"]
    return Segment(match["name"], True, int(width) if width else None, int(decimals) if decimals else None)


def render_key(template: KeyTemplate, values: Mapping[str, Any]) -> str:
    """The key value for an item's attribute values; KeyTemplateError names a missing attribute."""
    return render_segments(template.segments, values, template.source)


def render_segments(segments: tuple[Segment, ...], values: Mapping[str, Any], source: str = "") -> str:
    parts = []
    for segment in segments:
        if not segment.is_attribute:
            parts.append(segment.text)
            continue
        if segment.text not in values or values[segment.text] is None:
            raise KeyTemplateError(f"the item has no `{segment.text}`, which the key {source!r} needs")
        parts.append(render_value(values[segment.text], segment.width, segment.decimals))
    return "".join(parts)


def render_value(value: Any, width: int | None = None, decimals: int | None = None) -> str:
    """One attribute value as key text that sorts like the value.

    Numbers with a width are zero-padded (negative numbers cannot keep their order that way and are
    refused); datetimes become ISO-8601 in UTC; booleans `true`/`false`.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        moment = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int | float | Decimal) and width is not None:
        return _padded_number(Decimal(str(value)), width, decimals)
    return str(value)


def _padded_number(number: Decimal, width: int, decimals: int | None) -> str:
    if number < 0:
        raise KeyTemplateError(f"{number} is negative: zero padding cannot keep negative numbers in order; "
                               "offset the values or use a Number sort key")
    text = f"{number:.{decimals}f}" if decimals is not None else str(int(number))
    integer_digits = len(text.split(".")[0])
    if integer_digits > width:
        raise KeyTemplateError(f"{number} has {integer_digits} digits, more than the template's width {width}")
    return text.rjust(width + (len(text) - integer_digits), "0")
