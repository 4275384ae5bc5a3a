"""Propose key designs for a model (the cost-based search), check one, adopt one as the model's own."""

from __future__ import annotations

from typing import Any

from costs.design_ranking import chosen_design, proposal_refusal
from costs.design_ranking import propose as _propose
from editing import adopt_key_design
from modeling.design.checks import Finding, FindingSeverity
from modeling.design.checks import check_design as _check_design
from modeling.design.design_report import design_document
from modeling.design.planner import plan_pattern
from modeling.design.plans import TABLE, Design, Operation, PatternPlan
from modeling.model import Model

__all__ = ["TABLE", "Design", "Finding", "FindingSeverity", "Operation", "PatternPlan", "adopt_design",
           "adopt_key_design",
           "check_design", "chosen_design", "design_document", "plan_pattern", "proposal_refusal", "propose"]


def propose(model: Model) -> tuple[Design, ...]:
    """The designs every page shows, in the order they show them (`costs.design_ranking.propose`)."""
    return _propose(model)


def check_design(model: Model, design: Design) -> list[Finding]:
    """Every design check's findings for one design (`modeling.design.checks.check_design`)."""
    return _check_design(model, design)


def adopt_design(document: dict[str, Any], design: Design) -> dict[str, Any]:
    """The document with `design`'s key design as its own (the Layout page's "Use this design as mine")."""
    return adopt_key_design(document, design_document(design)["key_design"])
