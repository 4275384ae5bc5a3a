"""Generators for attributes the model gives none: chosen by the attribute's name and type, from one table.

An attribute without a `generator` used to get `value-17` (or its index as a number), so a sample `email`,
`isbn` or `dueDate` looked like nothing a user would store (issue 27.7). `default_generator` reads the name
(camelCase, snake_case and kebab-case alike: `dueDate`, `due_date` and `due-date` are the words `due date`)
and picks the first row of `_RULES` whose pattern matches and whose type fits. Dates are drawn in a window
around the fixed `REFERENCE_DATE`, not around today, so the same seed draws the same items on every day.
An explicit generator in the model always wins: this is only asked when there is none.

>>> default_generator("contactEmail", AttributeType.S).provider.value
'email'
>>> default_generator("dueDate", AttributeType.S).format.value
'date'
>>> default_generator("isbn", AttributeType.S).method
'isbn13'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from modeling.model import (
    AttributeType,
    BooleanGenerator,
    EnumGenerator,
    FakerGenerator,
    FakerProvider,
    FloatRangeGenerator,
    IntRangeGenerator,
    SequenceGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    UuidGenerator,
)

# Sample dates lie around this moment; fixed so that a seed gives the same items whatever the day.
REFERENCE_DATE = datetime(2026, 1, 1, tzinfo=UTC)
PAST_WINDOW = timedelta(days=365)  # createdAt, deletedAt, publishedAt ...: the year before REFERENCE_DATE
FUTURE_WINDOW = timedelta(days=90)  # dueDate, expiresAt, validUntil ...: the quarter after it
ADULT_AGES_YEARS = (18, 80)  # birthDate: people aged 18 to 80 on REFERENCE_DATE


@dataclass(frozen=True)
class FakerMethod:
    """A Faker method the model's FakerProvider list does not offer (the model format stays as it is)."""

    method: Literal["isbn13", "title", "currency_code"]


DefaultSpec = (UuidGenerator | SequenceGenerator | FakerGenerator | FakerMethod | EnumGenerator | IntRangeGenerator
               | FloatRangeGenerator | TimestampRangeGenerator | BooleanGenerator)
Moment = Literal["past", "future", "birth"]


def _moment_range(moment: Moment) -> tuple[datetime, datetime]:
    if moment == "future":
        return REFERENCE_DATE + timedelta(days=1), REFERENCE_DATE + FUTURE_WINDOW
    if moment == "birth":
        youngest, oldest = ADULT_AGES_YEARS
        return (REFERENCE_DATE.replace(year=REFERENCE_DATE.year - oldest),
                REFERENCE_DATE.replace(year=REFERENCE_DATE.year - youngest))
    return REFERENCE_DATE - PAST_WINDOW, REFERENCE_DATE


def timestamps(moment: Moment, attribute_type: AttributeType, date_only: bool = False,
               milliseconds: bool = False) -> TimestampRangeGenerator:
    """A timestamp in the window `moment` names: ISO-8601 text (a date for `...Date`), epoch seconds for a Number."""
    start, end = _moment_range(moment)
    if attribute_type is AttributeType.N:
        fmt = TimestampFormat.EPOCH_MILLISECONDS if milliseconds else TimestampFormat.EPOCH_SECONDS
    else:
        fmt = TimestampFormat.DATE if date_only else TimestampFormat.ISO_8601
    text = "%Y-%m-%dT%H:%M:%SZ"
    return TimestampRangeGenerator(kind="timestamp_range", start=start.strftime(text), end=end.strftime(text),
                                   format=fmt)


def _faker(provider: FakerProvider) -> FakerGenerator:
    return FakerGenerator(kind="faker", provider=provider)


def _ints(low: int, high: int) -> IntRangeGenerator:
    return IntRangeGenerator(kind="int_range", min=low, max=high)


def _decimals(low: float, high: float) -> FloatRangeGenerator:
    return FloatRangeGenerator(kind="float_range", min=low, max=high, decimals=2)


_TEXT = (AttributeType.S,)
_NUMBER = (AttributeType.N,)
_MOMENT = (AttributeType.S, AttributeType.N)
_MOMENT_WORDS = r"(at|on|date|time|timestamp|ts|day)"

# (words the name matches, the types the row serves, the generator). First match wins, so the specific rows
# (an ISBN is an id-like code; an email address is not an address) come before the general ones.
_RULES: tuple[tuple[str, tuple[AttributeType, ...], DefaultSpec | Moment], ...] = (
    (r"\bisbn\b|\bisbn ?13\b", _TEXT, FakerMethod("isbn13")),
    (r"\be ?mail\b", _TEXT, _faker(FakerProvider.EMAIL)),
    # ids: a uuid for text, 1, 2, 3 ... for a Number (before the names: `memberId` is an id, not a name)
    (r"\b(id|uuid|guid|key|ref)$", _TEXT, UuidGenerator(kind="uuid")),
    (r"\b(id|number|no|seq)$", _NUMBER, SequenceGenerator(kind="sequence")),
    (r"\b(year)\b", _NUMBER, _ints(1950, REFERENCE_DATE.year)),  # before the moments: `publishedYear` is a year
    # moments (before the words: `lastLoginTime` is a time): the words say which window, a birth date, a time
    # to come, else one that has passed
    (rf"\b(birth|born)\b.*\b{_MOMENT_WORDS}$|\b(birthday|dob)\b", _MOMENT, "birth"),
    (rf"\b(due|deadline|expires?|expiry|expiration|until|ends?|valid|renew(al)?|ttl)\b.*\b{_MOMENT_WORDS}$"
     r"|\b(due|deadline|expiry|expiration|ttl)\b", _MOMENT, "future"),
    (rf"\b{_MOMENT_WORDS}$", _MOMENT, "past"),
    (r"\b(user ?name|login|handle)\b", _TEXT, _faker(FakerProvider.USER_NAME)),
    (r"\bfirst ?name\b|\bgiven ?name\b", _TEXT, _faker(FakerProvider.FIRST_NAME)),
    (r"\blast ?name\b|\bsurname\b|\bfamily ?name\b", _TEXT, _faker(FakerProvider.LAST_NAME)),
    (r"\b(company|publisher|organi[sz]ation|employer|vendor|supplier|brand)( name)?\b", _TEXT,
     _faker(FakerProvider.COMPANY)),
    (r"\b(phone|mobile|tel|telephone|fax)( number)?\b", _TEXT, _faker(FakerProvider.PHONE_NUMBER)),
    (r"\b(url|website|homepage|link|uri)\b", _TEXT, _faker(FakerProvider.URL)),
    (r"\bip( ?address)?\b|\bipv4\b", _TEXT, _faker(FakerProvider.IPV4)),
    (r"\b(country ?code)\b", _TEXT, _faker(FakerProvider.COUNTRY_CODE)),
    (r"\bcountry\b", _TEXT, _faker(FakerProvider.COUNTRY)),
    (r"\b(city|town)\b", _TEXT, _faker(FakerProvider.CITY)),
    (r"\b(post ?code|zip( ?code)?)\b", _TEXT, _faker(FakerProvider.POSTCODE)),
    (r"\b(street|address)\b", _TEXT, _faker(FakerProvider.STREET_ADDRESS)),
    (r"\bcurrency\b", _TEXT, FakerMethod("currency_code")),
    (r"\b(job|occupation|role|position)( title)?\b", _TEXT, _faker(FakerProvider.JOB)),
    (r"\b(title|headline|subject)\b", _TEXT, FakerMethod("title")),
    (r"\b(colou?r)\b", _TEXT, _faker(FakerProvider.COLOR_NAME)),
    (r"\b(description|bio|summary|notes?|comment|body|message|text)\b", _TEXT, _faker(FakerProvider.SENTENCE)),
    (r"\b(name|author|owner|customer|member|borrower)( name)?\b", _TEXT, _faker(FakerProvider.PERSON_NAME)),
    # numbers
    (r"\bversion\b|\brevision\b", _NUMBER, _ints(1, 20)),
    (r"\b(price|amount|cost|balance|fee|fine|total|subtotal|salary)\b", _NUMBER, _decimals(1.0, 500.0)),
    (r"\b(rating|stars)\b", _NUMBER, _ints(1, 5)),
    (r"\b(age)\b", _NUMBER, _ints(*ADULT_AGES_YEARS)),
    (r"\b(pages?)\b", _NUMBER, _ints(40, 900)),
    (r"\b(percent|percentage|pct)\b", _NUMBER, _ints(0, 100)),
    (r"\b(lat|latitude)\b", _NUMBER, _decimals(-90.0, 90.0)),
    (r"\b(lng|lon|longitude)\b", _NUMBER, _decimals(-180.0, 180.0)),
)
_FALLBACK: dict[AttributeType, DefaultSpec] = {
    AttributeType.S: _faker(FakerProvider.WORD),
    AttributeType.N: _ints(0, 20),  # counts, quantities, loans held: small non-negative numbers
    AttributeType.BOOL: BooleanGenerator(kind="boolean"),
}
_COMPILED = tuple((re.compile(pattern), types, spec) for pattern, types, spec in _RULES)


def name_words(name: str) -> str:
    """`dueDate`, `due_date`, `DueDate` and `due-date` as `due date`; `ISBN13` as `isbn13`.

    >>> name_words("returnedAt"), name_words("ISBNCode"), name_words("last_name")
    ('returned at', 'isbn code', 'last name')
    """
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_\-.#\s]+", " ", name)
    return " ".join(spaced.lower().split())


def default_generator(name: str, attribute_type: AttributeType) -> DefaultSpec | None:
    """The generator for an attribute the model gives none, or None for a type without one (lists, maps, sets,
    binary: they keep the old placeholder). A pure function of the name and the type."""
    words = name_words(name)
    for pattern, types, spec in _COMPILED:
        if attribute_type in types and pattern.search(words):
            if isinstance(spec, str):
                return timestamps(spec, attribute_type, date_only=words.endswith(("date", "day")),
                                  milliseconds=bool(re.search(r"\b(ms|millis|milliseconds)\b", words)))
            return spec
    return _FALLBACK.get(attribute_type)
