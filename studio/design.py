"""Propose key designs for a model (the cost-based search), check one, adopt one as the model's own; the table as
a modeller draws it (`modeling.design.layout`), and what a half-built model still lacks (`modeling.design.missing`).

The search (`modeling.design.search`, its finalists in `modeling.design.proposal`) prices layouts with the
`SearchPricing` it is given; this module passes it the cost engine's (`costs.search_pricing.SEARCH_PRICING`),
so no page, `dds` command or lesson passes pricing itself.
"""

from __future__ import annotations

from typing import Any

from costs.design_ranking import chosen_design, rank_designs, ranking_rows
from costs.search_pricing import SEARCH_PRICING
from editing import adopt_key_design
from modeling.design import proposal
from modeling.design.checks import Finding, FindingSeverity
from modeling.design.checks import check_design as _check_design
from modeling.design.checks.catalogue import SEVERITY_RANK
from modeling.design.design_report import ENTITY_CHART_COLUMNS, PATTERN_CHART_COLUMNS, design_document, markdown_table
from modeling.design.layout import (
    ENTITY_COLUMN,
    LayoutRequest,
    LayoutResult,
    access_path_names,
    analyse_layout,
    finding_rows,
)
from modeling.design.missing import nothing_to_design, what_is_missing
from modeling.design.planner import plan_pattern
from modeling.design.plans import TABLE, Design, Operation, PatternPlan
from modeling.design.proposal import NoSafeDesign
from modeling.design.summary import DesignFindingsSummary, design_findings_summary
from modeling.model import Model

__all__ = ["ENTITY_CHART_COLUMNS", "ENTITY_COLUMN", "PATTERN_CHART_COLUMNS", "SEVERITY_RANK", "TABLE", "Design",
           "DesignFindingsSummary", "Finding", "FindingSeverity", "LayoutRequest", "LayoutResult", "Operation",
           "PatternPlan", "access_path_names", "adopt_design", "adopt_key_design", "analyse_layout", "check_design",
           "chosen_design", "design_document", "design_findings_summary", "finding_rows", "markdown_table",
           "nothing_to_design", "plan_pattern", "proposal_refusal", "propose", "rank_designs", "ranking_rows",
           "what_is_missing"]


def propose(model: Model) -> tuple[Design, ...]:
    """The designs every page shows, in the order they show them (`modeling.design.proposal.propose`, priced by
    the cost engine's search pricing)."""
    return proposal.propose(model, SEARCH_PRICING)


def proposal_refusal(model: Model) -> NoSafeDesign | None:
    """Why no proposal is offered (every candidate fails the checks), else None
    (`modeling.design.proposal.proposal_refusal`, with the same pricing as `propose`)."""
    return proposal.proposal_refusal(model, SEARCH_PRICING)


def check_design(model: Model, design: Design) -> list[Finding]:
    """Every design check's findings for one design (`modeling.design.checks.check_design`)."""
    return _check_design(model, design)


def adopt_design(document: dict[str, Any], design: Design) -> dict[str, Any]:
    """The document with `design`'s key design as its own (the Layout page's "Use this design as mine")."""
    return adopt_key_design(document, design_document(design)["key_design"])
