"""Problems found in a model, and the typed errors the domain raises.

Every problem has one shape: where (a readable path such as `entities[Order].attributes[total]`),
what is wrong, and how to fix it. Pages and the CLI translate these errors once, at their edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    suggestion: str = ""
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        text = f"{self.severity}: {self.path or '(file)'}: {self.message}"
        return f"{text} ({self.suggestion})" if self.suggestion else text


def errors_only(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity is Severity.ERROR]


def problems_under(problems: list[Problem], prefix: str) -> list[Problem]:
    """Problems whose path is `prefix` or lies inside it (`entities[Order]` covers its attributes)."""
    return [p for p in problems
            if p.path == prefix or p.path.startswith(prefix + ".") or p.path.startswith(prefix + "[")]


class ModelingError(ValueError):
    """Base class of the errors this package raises for bad input."""


class ItemSizeError(ModelingError):
    """An item is not valid DynamoDB JSON; carries what is wrong, where, the value and a hint.

    `costs.item_size` turns it into the cost engine's `ItemFormatError` at its edge.
    """

    def __init__(self, what: str, field: str, value: object, hint: str = "") -> None:
        self.what, self.field, self.value, self.hint = what, field, value, hint
        text = f"{what}, field={field}, value={value!r}"
        super().__init__(f"{text}; {hint}" if hint else text)


class ModelFileError(ModelingError):
    """A model file or document could not be turned into a valid model."""

    def __init__(self, problems: list[Problem], source: str = "") -> None:
        self.problems = problems
        self.source = source
        first = problems[0] if problems else Problem("", "unknown problem")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{source + ': ' if source else ''}{first}{more}")


class WorkspaceError(ModelingError):
    """The workspace folder cannot be read or written."""


class WorkspaceConflictError(WorkspaceError):
    """A save based on a version of a draft that another save has replaced since."""

    def __init__(self, slug: str, found_version: str, theirs: dict[str, Any] | None = None) -> None:
        super().__init__(f"the model `{slug}` was changed elsewhere since it was opened here")
        self.slug = slug
        self.found_version = found_version  # "" when the draft was deleted since
        self.theirs = theirs  # the other side's document as it is at `found_version` (None: deleted or unreadable)


class ForeignWorkspaceTableError(WorkspaceError):
    """The workspace table exists but DynamoDB Design Studio did not create it: it is never written to."""


class EndpointError(ModelingError):
    """The DynamoDB endpoint cannot be reached or refused a request."""
