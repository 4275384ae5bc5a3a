"""What a half-built model still lacks before its design, data, load and cost mean something.

A model is built up in steps: entities, their attributes, the access patterns, their traffic. Each step
missing is a normal state (a new empty model has none of them), not an error: the pages say what to add
first instead of failing. Only `Gap.NO_ENTITIES` leaves nothing to design; the others give a design that
is still worth looking at, with a note of what it does not yet reflect.

>>> from modeling.model import Model
>>> empty = Model.model_validate({"name": "New", "table": {"name": "new"}, "entities": [], "access_patterns": []})
>>> [m.gap.value for m in what_is_missing(empty)]
['no_entities']
>>> nothing_to_design(empty)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from modeling.model import Model


class Gap(StrEnum):
    NO_ENTITIES = "no_entities"
    NO_ATTRIBUTES = "no_attributes"
    NO_ACCESS_PATTERNS = "no_access_patterns"
    NO_TRAFFIC = "no_traffic"


_MESSAGES = {
    Gap.NO_ENTITIES: "The model has no entities yet, so there is nothing to design. Add an entity (a kind of item, "
                     "e.g. Customer) with its identifier attribute, then the access patterns that read and write it.",
    Gap.NO_ATTRIBUTES: "Entities without attributes: {names}. Add their attributes, the identifier first; sample "
                       "items and sizes come from them.",
    Gap.NO_ACCESS_PATTERNS: "The model has no access patterns yet: the key design starts from how the application "
                            "reads and writes. Add them, with their traffic.",
    Gap.NO_TRAFFIC: "Access patterns with no traffic (0 requests per second at peak): {names}. Add their peak and "
                    "average requests per second; capacity, cost and hot partitions come from them.",
}


@dataclass(frozen=True)
class Missing:
    """One step the model has not taken yet, and the entities or patterns it concerns."""

    gap: Gap
    names: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        return _MESSAGES[self.gap].format(names=", ".join(self.names))


def what_is_missing(model: Model) -> tuple[Missing, ...]:
    """The steps still to take, first step first (nothing else is listed when there are no entities)."""
    if not model.entities:
        return (Missing(Gap.NO_ENTITIES),)
    found = []
    bare = tuple(e.name for e in model.entities if not e.attributes)
    if bare:
        found.append(Missing(Gap.NO_ATTRIBUTES, bare))
    if not model.access_patterns:
        found.append(Missing(Gap.NO_ACCESS_PATTERNS))
    idle = tuple(p.name for p in model.access_patterns if p.traffic.peak_requests_per_second <= 0)
    if idle:
        found.append(Missing(Gap.NO_TRAFFIC, idle))
    return tuple(found)


def nothing_to_design(model: Model) -> bool:
    """True when no key design can be made: there is no entity to place."""
    return not model.entities
