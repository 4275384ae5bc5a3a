"""Key templates: `CUSTOMER#{customerId}` is the constant `CUSTOMER#` then the attribute `customerId`.

One grammar for every key: constant text and `{attribute}` references, in order. Parsed once into
segments; rendering and sort-order handling build on these segments.
"""

from __future__ import annotations

from dataclasses import dataclass

from modeling.errors import ModelingError

SEPARATOR = "#"


class KeyTemplateError(ModelingError):
    """A key template that cannot be parsed."""


@dataclass(frozen=True)
class Segment:
    text: str
    is_attribute: bool


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
            opening = source.find("{", position)
            closing = source.find("}", position)
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
            name = source[opening + 1:end].strip()
            if not name or "{" in name:
                raise KeyTemplateError(f"empty or nested attribute reference in {source!r}")
            segments.append(Segment(name, True))
            position = end + 1
        return cls(source, tuple(segments))

    @property
    def attribute_names(self) -> tuple[str, ...]:
        return tuple(s.text for s in self.segments if s.is_attribute)
