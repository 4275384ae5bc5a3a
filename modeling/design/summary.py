"""A model at a glance, computed from its document (valid or not)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modeling.design.checks import FindingSeverity, check_design
from modeling.design.plans import Design
from modeling.errors import Problem, Severity
from modeling.model import Model


@dataclass(frozen=True)
class DocumentSummary:
    name: str
    entity_count: int
    access_pattern_count: int
    peak_requests_per_second: float
    error_count: int
    warning_count: int


def document_summary(document: dict[str, Any], problems: list[Problem]) -> DocumentSummary:
    """Counts and total peak traffic; patterns whose traffic is not a number count as zero."""
    patterns = [p for p in document.get("access_patterns") or [] if isinstance(p, dict)]
    peak = sum(_number((p.get("traffic") or {}).get("peak_requests_per_second")) for p in patterns)
    return DocumentSummary(
        name=str(document.get("name") or "untitled"),
        entity_count=len([e for e in document.get("entities") or [] if isinstance(e, dict)]),
        access_pattern_count=len(patterns),
        peak_requests_per_second=peak,
        error_count=sum(p.severity is Severity.ERROR for p in problems),
        warning_count=sum(p.severity is Severity.WARNING for p in problems),
    )


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


@dataclass(frozen=True)
class DesignFindingsSummary:
    """The design checks of the design the Layout page opens on (the model's own, else the first proposal)."""

    design_name: str
    error_count: int
    warning_count: int


def design_findings_summary(model: Model, design: Design) -> DesignFindingsSummary:
    findings = check_design(model, design)
    return DesignFindingsSummary(
        design.name,
        sum(f.severity is FindingSeverity.ERROR for f in findings),
        sum(f.severity is FindingSeverity.WARNING for f in findings))
