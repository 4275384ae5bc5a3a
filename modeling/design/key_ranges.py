"""The text a sort key can hold, from the model's values: what lets a plain value key share a partition.

`key_range` (the core's key grammar) knows a template only: `{time}` may render as any text, so a Query for
the items keyed by it would also meet every other entity's keys in the partition. The model says more. A value
whose generator writes a zero-padded or non-negative number, or a timestamp (ISO-8601 and dates start with the
year's digits, epochs are non-negative numbers), always starts with a digit, so its keys sort between "0" and
"9" followed by the highest character (strings sort by UTF-8 bytes, dynamodb-rules §14). A constant sort key
starting with a letter (`EQUIPMENT`, `Metadata`) sorts above all of them: `BETWEEN "0" AND "9\\uffff"` reads
the values and never the constant, as published designs do with `begins_with(SK, "2")` (AWS's time-based
version control sample). Anything else (free text, UUIDs, prefixed sequences) may start with anything, and
keeps `key_range`'s answer.

>>> from modeling.model import Entity, Model, Attribute, TimestampRangeGenerator, TableSettings
>>> time = Attribute(name="time", generator=TimestampRangeGenerator(kind="timestamp_range", start="2025-01-01",
...                                                                 end="2025-12-31"))
>>> entity = Entity(name="Version", item_count=10, identifiers=("id", "time"), attributes=(time,))
>>> model = Model(name="m", table=TableSettings(name="versions"), entities=(entity,))
>>> sort_key_range(model, "Version", "{time}") == ("0", "9" + HIGH)
True
>>> sort_key_range(model, "Version", "VERSION#{time}") == ("VERSION#", "VERSION#" + HIGH)
True
"""

from __future__ import annotations

from modeling.design.keys import HIGH, KeyTemplate, key_range
from modeling.model import (
    Entity,
    FloatRangeGenerator,
    IntRangeGenerator,
    Model,
    ReferenceGenerator,
    SequenceGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
)

# Every text that starts with a digit sorts inside these bounds (UTF-8 byte order is code-point order).
DIGIT_RANGE = ("0", "9" + HIGH)
_MAX_REFERENCE_HOPS = 8  # references of references followed (a cycle ends here)
_EPOCH_FORMATS = (TimestampFormat.EPOCH_SECONDS, TimestampFormat.EPOCH_MILLISECONDS)
_EPOCH_START = "1970"  # an epoch timestamp from then on is a non-negative number


def starts_with_digit(model: Model, entity: Entity, attribute: str) -> bool:
    """Whether every value of `entity.attribute` renders as key text starting with a digit (its generator says
    so, following references to the values' own generator); False when nothing says so."""
    found = entity.attribute(attribute)
    generator = found.generator if found is not None else None
    for _ in range(_MAX_REFERENCE_HOPS):
        if not isinstance(generator, ReferenceGenerator):
            break
        target = model.entity(generator.entity)
        source = target.attribute(generator.attribute) if target is not None else None
        generator = source.generator if source is not None else None
    if isinstance(generator, TimestampRangeGenerator):
        return generator.format not in _EPOCH_FORMATS or generator.start >= _EPOCH_START
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator):
        return generator.min >= 0
    if isinstance(generator, SequenceGenerator):
        return not generator.prefix and generator.start >= 0
    return False


def sort_key_range(model: Model, entity_name: str, template: str) -> tuple[str, str]:
    """The lowest and highest key text an entity's sort-key template can render: `key_range`, narrowed to the
    digits when the template is nothing but values and its first value starts with a digit."""
    parsed = KeyTemplate.parse(template)
    entity = model.entity(entity_name)
    if parsed.constant_prefix or not parsed.attribute_names or entity is None:
        return key_range(template)
    if starts_with_digit(model, entity, parsed.attribute_names[0]):
        return DIGIT_RANGE
    return key_range(template)
