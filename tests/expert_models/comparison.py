"""Price the proposal for each expert model against the expert's published design.

Each use case is a folder with `model.yaml` (entities, relationships, access patterns and traffic: no key
design) and `expert.yaml` (the same bytes followed by the expert's `key_design`). Both are priced by the
cost engine the Capacity & cost page uses (`studio.estimate.estimate_model`) on the same traffic, so the
only difference between the two figures is the key design. Shared by `tests/test_expert_models.py` and
`bench/expert_comparison.py`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from costs.design_ranking import propose
from costs.estimate import EstimateRequest
from costs.usage import CapacityOption
from modeling.design.plans import Design
from modeling.model import Model
from modeling.model_file import load_model_file
from studio.estimate import estimate_model

EXPERT_MODELS_DIR = Path(__file__).resolve().parent
MODEL_FILE = "model.yaml"
EXPERT_FILE = "expert.yaml"
# Self-describing keys (ORDER#{orderId}) are a few bytes longer than an expert's terse ones (o#{id}):
# the proposal may cost at most 2% more than the expert design (issue 12, "Tests and done").
TOLERANCE = Decimal("1.02")
# Reordering the file may move a float sum by a rounding step; a cent is the engine's resolution.
COST_RESOLUTION_USD = Decimal("0.01")


@dataclass(frozen=True)
class UseCase:
    name: str
    folder: Path

    @property
    def model_path(self) -> Path:
        return self.folder / MODEL_FILE

    @property
    def expert_path(self) -> Path:
        return self.folder / EXPERT_FILE


@dataclass(frozen=True)
class Priced:
    """One design priced on the model's traffic."""

    design: Design
    on_demand_usd: Decimal  # on-demand, Standard table class, monthly total
    recommended_usd: Decimal  # the engine's recommended option (cheapest complete one), monthly
    recommended_option: str


def use_cases() -> list[UseCase]:
    """Every folder holding both files, by name."""
    return [UseCase(folder.name, folder) for folder in sorted(EXPERT_MODELS_DIR.iterdir())
            if (folder / MODEL_FILE).is_file() and (folder / EXPERT_FILE).is_file()]


def load(path: Path) -> Model:
    return load_model_file(path)


def price_proposal(model: Model) -> Priced:
    """The proposal (`costs.design_ranking.propose`'s first) for a model that states no design, priced."""
    if model.key_design is not None:
        raise ValueError("the proposal is priced on a model without a key design")
    return _priced(model, None)


def price_expert(model: Model) -> Priced:
    """The model's own (expert) design, priced; found by its templates, not by its display name."""
    if model.key_design is None:
        raise ValueError("the expert file has no key_design")
    return _priced(model, expert_design_name(model))


def expert_design_name(model: Model) -> str:
    # auxiliary items (uniqueness, counts, edge copies) a file leaves out are derived from the model, for the
    # expert's design and the proposal alike: compare them only where the expert's file states them
    expert = model.key_design
    if expert is None:
        raise ValueError(f"the expert model {model.name} has no key design")
    stated = {k.entity for k in expert.entities if k.auxiliary}
    wanted = {k.entity: _canonical(k) for k in expert.entities}
    wanted_indexes = _indexes(expert)
    for design in propose(model):
        keys = {k.entity: _canonical(k if k.entity in stated else k.model_copy(update={"auxiliary": {}}))
                for k in design.key_design.entities}
        if all(keys.get(entity) == templates for entity, templates in wanted.items()) \
                and _indexes(design.key_design) == wanted_indexes:
            return design.name
    raise LookupError(f"{model.name}: no design among the candidates is the model's own key design")


def _priced(model: Model, design_name: str | None) -> Priced:
    estimate = estimate_model(EstimateRequest(model, design_name=design_name, compare_designs=False))
    on_demand = estimate.cost.option(CapacityOption.ON_DEMAND).monthly_total_usd
    best = estimate.cost.recommendation
    if on_demand is None or best is None:
        raise ValueError(f"{model.name}: the cost engine gave no complete on-demand price or recommendation")
    return Priced(estimate.design, on_demand, best.monthly_cost_usd, f"{best.option.value} {best.table_class.value}")


# --- order independence ----------------------------------------------------------------------------------


def reversed_model(model: Model) -> Model:
    """The same model with its entities, relationships and access patterns listed in reverse order."""
    return model.model_copy(update={"entities": tuple(reversed(model.entities)),
                                    "relationships": tuple(reversed(model.relationships)),
                                    "access_patterns": tuple(reversed(model.access_patterns))})


def canonical_proposal(design: Design) -> dict[str, Any]:
    """What a design is, independent of the order its lists come in: keys, indexes by name (projected
    attributes as a set), each entity's templates, and how each access pattern runs."""
    key_design = design.key_design
    return {
        "table": [_dump(key_design.partition_key), _dump(key_design.sort_key)],
        "indexes": _indexes(key_design),
        "entities": {k.entity: _canonical(k) for k in key_design.entities},
        "plans": {p.pattern: [p.operation.value, p.index, p.key_condition, p.filter_expression]
                  for p in design.plans},
    }


def same_cost(a: Priced, b: Priced) -> bool:
    return (abs(a.on_demand_usd - b.on_demand_usd) <= COST_RESOLUTION_USD
            and abs(a.recommended_usd - b.recommended_usd) <= COST_RESOLUTION_USD)


def _indexes(key_design: Any) -> dict[str, Any]:
    indexes = {}
    for kind, group in (("GSI", key_design.global_secondary_indexes), ("LSI", key_design.local_secondary_indexes)):
        for index in group:
            spec = _dump(index)
            spec["projection"]["non_key_attributes"] = sorted(spec["projection"].get("non_key_attributes") or [])
            indexes[index.name] = {"kind": kind, **spec}
    return indexes


def _canonical(entity_keys: Any) -> str:
    return json.dumps(_dump(entity_keys), sort_keys=True)


def _dump(value: Any) -> Any:
    return None if value is None else value.model_dump(mode="json")


# --- the table the bench prints ------------------------------------------------------------------------


@dataclass(frozen=True)
class ComparisonRow:
    use_case: str
    proposal: Priced
    expert: Priced
    reversed_proposal: Priced
    same_design_reversed: bool  # the proposal for the reversed file is the same design (names included)
    same_cost_reversed: bool

    @property
    def order_independent(self) -> bool:
        return self.same_design_reversed and self.same_cost_reversed

    @property
    def on_demand_ratio(self) -> Decimal:
        return self.proposal.on_demand_usd / self.expert.on_demand_usd

    @property
    def recommended_ratio(self) -> Decimal:
        return self.proposal.recommended_usd / self.expert.recommended_usd

    @property
    def within_tolerance(self) -> bool:
        return self.on_demand_ratio <= TOLERANCE and self.recommended_ratio <= TOLERANCE


def compare(use_case: UseCase) -> ComparisonRow:
    model = load(use_case.model_path)
    proposal = price_proposal(model)
    reversed_proposal = price_proposal(reversed_model(model))
    expert = price_expert(load(use_case.expert_path))
    return ComparisonRow(use_case.name, proposal, expert, reversed_proposal,
                         canonical_proposal(proposal.design) == canonical_proposal(reversed_proposal.design),
                         same_cost(proposal, reversed_proposal))
