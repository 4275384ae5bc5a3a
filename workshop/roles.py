"""Indexes named by their role in a lesson, never by the generator's numbering.

A lesson means "the roster index" or "the sparse index of the unpaid report", not "GSI2": the generator
numbers its GSIs in the order it adds them, so a change to the design search renumbers them. A role is
the access pattern an index serves, read from the design's plans (`Design.plan(pattern).index`).

Lesson texts name an index by role with `[index:PATTERN]` (the index serving PATTERN) and list every
GSI with `[indexes]`; `role_text` resolves them against a design:

>>> role_text("The roster ([index:roster]) and [indexes]", {"roster": "GSI2"}, ("GSI1", "GSI2", "GSI3"))
'The roster (GSI2) and GSI1, GSI2 and GSI3'
>>> free_index_name(("GSI1", "GSI2"))
'GSI3'
>>> free_index_name(("GSI2", "GSI3"))
'GSI1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from studio.design import TABLE, Design, propose
from studio.errors import ModelingError
from studio.model import model_from_document

_ROLE = re.compile(r"\[index:([A-Za-z0-9_.\-]+)\]")
ALL_INDEXES = "[indexes]"  # every GSI of the design, listed


class IndexRoleError(ModelingError):
    """No index of the design plays the role a lesson asks for (the pattern is missing or not on a GSI)."""


def index_serving(design: Design, pattern: str) -> str:
    """The name of the index the design reads for `pattern`; IndexRoleError when it reads no index."""
    plan = design.plan(pattern)
    if plan is None:
        raise IndexRoleError(f"the design has no access pattern `{pattern}`, so no index serves it")
    if plan.index == TABLE:
        raise IndexRoleError(f"`{pattern}` runs as a {plan.operation.value} on the table, not on an index")
    return plan.index


def document_design(document: Mapping[str, Any]) -> Design:
    """The design a lesson's document opens on: `studio.design.propose`'s first, as on every page
    (the document's own design when it has one, else the search's proposal)."""
    return propose(model_from_document(dict(document)))[0]


def document_index_serving(document: Mapping[str, Any], pattern: str) -> str:
    """`index_serving` for a model document."""
    return index_serving(document_design(document), pattern)


def free_index_name(taken: Iterable[str], stem: str = "GSI") -> str:
    """`GSI<n>` with the smallest n no index of the design has: a name a lesson adds without a clash."""
    names, number = set(taken), 1
    while f"{stem}{number}" in names:
        number += 1
    return f"{stem}{number}"


def index_role(pattern: str) -> str:
    """The text naming, by role, the index that serves `pattern` (resolved by `role_text`)."""
    return f"[index:{pattern}]"


def roles_in(text: str) -> tuple[str, ...]:
    """The patterns whose index `text` names by role.

    >>> roles_in("[index:a] then [index:b]")
    ('a', 'b')
    """
    return tuple(_ROLE.findall(text))


def needs_design(text: str) -> bool:
    return bool(roles_in(text)) or ALL_INDEXES in text


def role_text(text: str, serving: Mapping[str, str], gsi_names: tuple[str, ...]) -> str:
    """`text` with `[index:PATTERN]` replaced by `serving[PATTERN]` and `[indexes]` by every GSI's name."""
    listed = gsi_names[0] if len(gsi_names) == 1 else f"{', '.join(gsi_names[:-1])} and {gsi_names[-1]}"
    return _ROLE.sub(lambda match: serving[match.group(1)], text).replace(ALL_INDEXES, listed if gsi_names else "none")


def resolve_roles(text: str, design: Design) -> str:
    """`role_text` against a design: each role's index is read from its plans."""
    if not needs_design(text):
        return text
    serving = {pattern: index_serving(design, pattern) for pattern in roles_in(text)}
    names = tuple(i.name for i in design.key_design.global_secondary_indexes)
    return role_text(text, serving, names)
