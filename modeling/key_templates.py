"""Key templates: `CUSTOMER#{customerId}` is the constant `CUSTOMER#` then the attribute `customerId`.

One grammar for every key: constant text and `{attribute}` references, in order. A reference may carry
a width, `{xp:10}`, to zero-pad a number (`{price:8.2}` also fixes two decimals), so that sorting the
rendered strings sorts the numbers. Templates are parsed once into segments; rendering is pure.

>>> render_key(KeyTemplate.parse("ORDER#{orderDate}#{seq:4}"), {"orderDate": "2024-05-01", "seq": 7})
'ORDER#2024-05-01#0007'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from modeling.errors import ModelingError

MAX_NUMBER_TEXT_BYTES = 40  # 38 significant digits, a sign and a decimal point

# Attribute names as the model accepts them (modeling.model.AttributeName): DynamoDB takes any UTF-8 (dynamodb-rules
# §6: key and projected names up to 255 bytes), so `State#Date` is a name; inside braces `#` belongs to the name.
# Refused: `{ }` (they delimit references), `:` (it starts a reference's width), spaces and control characters
# (`{a b}` is a typo far more often than a name).
_NAME = r"[^{}:\s\x00-\x1f\x7f]+"
ATTRIBUTE_NAME_PATTERN = rf"^{_NAME}$"
_REFERENCE = re.compile(rf"^(?P<name>{_NAME})(:(?P<width>\d{{1,2}})(\.(?P<decimals>\d))?)?$")


# Appended to an upper bound so that every key starting with the bound sorts below it (UTF-8 byte order is
# code-point order).
HIGH = "\uffff"


def key_range(template: str) -> tuple[str, str]:
    """The lowest and highest key text a template can render: its constant prefix, then anything after it.

    >>> key_range("ORDER#{orderId}")
    ('ORDER#', 'ORDER#\uffff')
    >>> key_range("ACCOUNT")
    ('ACCOUNT', 'ACCOUNT')
    """
    parsed = KeyTemplate.parse(template)
    prefix = parsed.constant_prefix
    return (prefix, prefix) if not parsed.attribute_names else (prefix, prefix + HIGH)


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
        return _parse_template(source)  # templates are parsed for every item rendered: parse each source once

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


@lru_cache(maxsize=1 << 16)
def _parse_template(source: str) -> KeyTemplate:
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
    return KeyTemplate(source, tuple(segments))


def _reference(source: str, inner: str) -> Segment:
    match = _REFERENCE.match(inner)
    if not match:
        raise KeyTemplateError(f"`{{{inner}}}` in {source!r} is not an attribute reference; "
                               "write {attribute} or {attribute:width}")
    width, decimals = match["width"], match["decimals"]
    return Segment(match["name"], True, int(width) if width else None, int(decimals) if decimals else None)


def missing_key_attributes(sources: Iterable[str | None], known: Iterable[str]) -> tuple[str, ...]:
    """The attributes the key templates reference that `known` does not hold, in template order, once each.

    What decides whether a request can address its items: a read needs its partition key's attributes from
    its inputs (else only a Scan can serve it, DDS201), a write every attribute of its primary key (DDS312).

    >>> missing_key_attributes(("ISBN#{isbn}", "COPY#{branchId}#{copyId}"), {"copyId"})
    ('isbn', 'branchId')
    >>> missing_key_attributes(("CUSTOMER#{customerId}", "PROFILE", None), ["customerId"])
    ()
    """
    given = set(known)
    names = (n for source in sources if source for n in KeyTemplate.parse(source).attribute_names)
    return tuple(dict.fromkeys(n for n in names if n not in given))


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




# --- reading key values back: the grammar the importers share -----------------------------------------
#
# Key values are the convention of single-table design (not a DynamoDB rule): labels and values joined by
# `#`, or by `:` / `|` after a label (`User:alice`). A label is a word of letters and `_`, in any case
# (`CUSTOMER`, `u`, `follower`, `Room`): the AWS sample models use all three. A word with a digit is a
# value (`D1`, `r1`, a VIN), and so is a mixed-case word right after a label (`User:UserA`). A whole key
# value of one segment is a value (`DEN`, `player001`) unless it is known to be a constant (written in
# quotes, or repeated where a value would not be): the importers decide that from the items.

KEY_SEPARATOR = "#"
LABEL_SEPARATORS = (":", "|")  # separate only after a label: `12:00` in a time is not a key part
VALUE = "*"  # a value's place in a key shape
_LABEL_WORD = re.compile(r"^[A-Za-z_]+$")


def is_label(segment: str, after_label: bool = False) -> bool:
    """Whether one segment of a key value reads as a label rather than a value.

    >>> [is_label(s) for s in ("CUSTOMER", "ORDER_ITEM", "u", "follower", "Room")]
    [True, True, True, True, True]
    >>> [is_label(s) for s in ("123", "D1", "r1", "c-0", "2024-05-01", "")]
    [False, False, False, False, False, False]
    >>> is_label("UserA", after_label=True), is_label("ACTIVE", after_label=True)
    (False, True)
    """
    if not _LABEL_WORD.match(segment):
        return False
    mixed = segment != segment.lower() and segment != segment.upper()
    return not (after_label and mixed)


def is_constant_word(value: str) -> bool:
    """A whole one-segment value that reads as a constant when no item says otherwise: capitals (`PROFILE`).

    >>> is_constant_word("PROFILE"), is_constant_word("META_DATA"), is_constant_word("meta"), is_constant_word("A1")
    (True, True, False, False)
    """
    return value.isupper() and bool(_LABEL_WORD.match(value))


def split_key_value(value: str) -> tuple[str, list[str]]:
    """The separator and the segments of a key value; `:` and `|` separate only after a label.

    >>> split_key_value("CUSTOMER#123#ORDER#9")
    ('#', ['CUSTOMER', '123', 'ORDER', '9'])
    >>> split_key_value("User:alice"), split_key_value("2024-05-01T12:00:00")
    ((':', ['User', 'alice']), ('', ['2024-05-01T12:00:00']))
    """
    if KEY_SEPARATOR in value:
        return KEY_SEPARATOR, value.split(KEY_SEPARATOR)
    for separator in LABEL_SEPARATORS:
        if separator in value and _LABEL_WORD.match(value.split(separator)[0]):
            return separator, value.split(separator)
    return "", [value]


def key_shape(value: str, constants: frozenset[str] | set[str] = frozenset()) -> tuple[str, ...]:
    """The labels of a key value with `*` for each value: items of one entity share a shape.

    A one-segment value is `*` unless `constants` holds it or it is quoted (`"info"`); empty segments
    (`#META#`) are kept as they are.

    >>> key_shape("CUSTOMER#123#ORDER#9"), key_shape("u#12345#follower"), key_shape("User:UserA")
    (('CUSTOMER', '*', 'ORDER', '*'), ('u', '*', 'follower'), ('User', '*'))
    >>> key_shape("#META#"), key_shape("DEN"), key_shape("PROFILE", {"PROFILE"}), key_shape('"info"')
    (('', 'META', ''), ('*',), ('PROFILE',), ('info',))
    """
    if value in constants or (value.startswith('"') and value.endswith('"')):
        return (value.strip('"'),)
    _, segments = split_key_value(value)
    if len(segments) == 1:
        return (VALUE,)
    shape: list[str] = []
    for segment in segments:
        after_label = bool(shape) and shape[-1] not in (VALUE, "")
        shape.append(segment if segment == "" or is_label(segment, after_label) else VALUE)
    return tuple(shape)


def repeated_constants(keys: Iterable[tuple[str, str | None]]) -> set[str]:
    """One-segment sort-key values found in several partitions (`PROFILE`, `meta`, `#META#`): constants.

    `keys` are (partition key value, sort key value) pairs; an identifier would differ between partitions.

    >>> sorted(repeated_constants([("u#1", "meta"), ("u#2", "meta"), ("u#1", "2024"), ("u#2", "x1")]))
    ['meta']
    """
    partitions: dict[str, set[str]] = {}
    for partition, sort in keys:
        if sort is not None:
            partitions.setdefault(sort, set()).add(partition)
    return {v for v, p in partitions.items() if len(p) > 1 and is_label(v.strip('"#'))}
