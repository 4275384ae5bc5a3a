"""The priced design ranking: `rank_designs(model)`, and the cost engine's own `propose(model)`.

The finalists, their names and their order come from `modeling.design.proposal` (the search's cheapest layout
"Proposed", "Fewer GSIs", "Separate partitions", and the model's own design), searched with the cost engine's
pricing (`costs.search_pricing.SEARCH_PRICING`). `rank_designs(model)` prices each with the same engine on the
same traffic, under on-demand and under the recommended capacity option, with the reason it lost in money and
in index writes ("+$821.00/month on-demand: GSI2 adds 1 index write to every like_post").

`propose`, `search_note` and `proposal_refusal` here are `modeling.design.proposal`'s with that pricing passed
in, for the cost engine's own callers (the estimate, the infrastructure export, the migration plan, the load
test, `python -m costs`); the pages, `dds` and the workshop call `studio.design`, which passes the same pricing.
`chosen_design` picks one by name, or raises the cost engine's `NoDesignError` / `NoSafeDesignError` /
`UnknownDesignError` for callers that need one. `modeling` cannot import this module (tests/test_layering.py):
a modeling-level function that needs a design takes it, or its key design, as an argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from costs.design_cost import priced_design
from costs.errors import NoDesignError, NoSafeDesignError, UnknownDesignError
from costs.monthly import CostEstimate
from costs.pricing import price_sheet_for
from costs.search_pricing import SEARCH_PRICING
from costs.usage import CapacityOption, label
from modeling.design import proposal
from modeling.design.plans import Design, Operation
from modeling.design.proposal import Finalists, NoSafeDesign, picker_order
from modeling.design.search import NoDesign, SearchResult
from modeling.memo import ContentMemo, content_key
from modeling.model import Model
from modeling.number_text import number


@dataclass(frozen=True)
class RankedDesign:
    design: Design
    on_demand_usd: Decimal | None
    recommended_usd: Decimal | None
    recommended_option: str
    lost_because: str  # "" for the winner


@dataclass(frozen=True)
class DesignRanking:
    ranked: tuple[RankedDesign, ...]  # the winner first
    unservable: tuple[str, ...]
    search: SearchResult | NoDesign

    @property
    def designs(self) -> tuple[Design, ...]:
        """Designs for pickers: the model's own first (what the user typed stays the default), then the ranking."""
        return picker_order(tuple(r.design for r in self.ranked))

    @property
    def no_design(self) -> NoDesign | None:
        """Why there is no design at all (the model has no entities), else None."""
        return self.search if isinstance(self.search, NoDesign) else None

    refusal: NoSafeDesign | None = None  # set when no candidate passes the checks (nothing is proposed)

    @property
    def search_note(self) -> str:
        """How good the search's answer is (optimal within its space, or its gap), "" without a search."""
        return self.search.stats.describe() if isinstance(self.search, SearchResult) else ""


_RANKINGS: ContentMemo[DesignRanking] = ContentMemo("design_ranking", max_entries=16)


def rank_designs(model: Model) -> DesignRanking:
    """The search's winner and runners-up for a model, each priced (memoised per model: the pages rerun on
    every click).

    Keyed by the model as typed, not its canonical form: the user's own design and names are shown as typed."""
    model_json = model.model_dump_json()
    key = content_key(model_json)
    return _RANKINGS.get(key, lambda: _ranking(model_json, proposal.finalists(proposal.search_input(model),
                                                                          SEARCH_PRICING)))


def propose(model: Model) -> tuple[Design, ...]:
    """`modeling.design.proposal.propose` with the cost engine's search pricing: the designs, the default first."""
    return proposal.propose(model, SEARCH_PRICING)


def search_note(model: Model) -> str:
    """`DesignRanking.search_note` without pricing the finalists (memoised with `propose`)."""
    return proposal.search_note(model, SEARCH_PRICING)


def proposal_refusal(model: Model) -> NoSafeDesign | None:
    """Why no proposal is offered (every candidate fails the checks), else None. Memoised with `propose`."""
    return proposal.proposal_refusal(model, SEARCH_PRICING)


def chosen_design(designs: tuple[Design, ...], name: str | None, refusal: NoSafeDesign | None = None) -> Design:
    """The design of that name, or the first (the ranking's default) when no name is given.

    Raises NoDesignError when there is no design at all (NoSafeDesignError, with `refusal`'s text, when every
    candidate failed the checks), UnknownDesignError when none has that name: never another design than the
    one asked for without saying so."""
    if not designs and refusal is not None:
        raise NoSafeDesignError("no candidate design passes the design checks", "design", None, refusal.message)
    if not designs:
        raise NoDesignError("the model has no design yet", "entities", 0,
                            "add an entity with its identifier, then the access patterns that use it")
    design = next((d for d in designs if d.name == name), None) if name is not None else designs[0]
    if design is None:
        raise UnknownDesignError("no design of that name", "design", name,
                                 f"choose one of: {', '.join(d.name for d in designs)}")
    return design


def _ranking(model_json: str, finalists: Finalists) -> DesignRanking:
    model = Model.model_validate_json(model_json)
    designs = finalists.designs
    if not designs:
        return DesignRanking((), (), finalists.search, finalists.refusal)
    sheet = price_sheet_for(model.table.region)  # never another Region's prices (an unpriced sheet says so)
    estimates = [_estimate(model, d, sheet, model_json) for d in designs]
    winner, winner_cost = designs[0], estimates[0]
    ranked = tuple(RankedDesign(d, _on_demand(e), *_recommended(e),
                                "" if i == 0 else lost_because(model, winner, winner_cost, d, e))
                   for i, (d, e) in enumerate(zip(designs, estimates, strict=True)))
    unservable = finalists.search.unservable if isinstance(finalists.search, SearchResult) else ()
    return DesignRanking(ranked, unservable, finalists.search, finalists.refusal)


def _estimate(model: Model, design: Design, sheet: Any, model_json: str) -> CostEstimate:
    return priced_design(model, design, sheet, model_json=model_json)[2]  # default settings; the estimate reuses it


def _on_demand(estimate: CostEstimate) -> Decimal | None:
    return next((o.monthly_total_usd for o in estimate.options if o.option is CapacityOption.ON_DEMAND), None)


def _recommended(estimate: CostEstimate) -> tuple[Decimal | None, str]:
    best = estimate.recommendation
    if best is None:
        return None, "no complete option"
    return best.monthly_cost_usd, f"{label(best.option)} ({label(best.table_class)})"


def lost_because(model: Model, winner: Design, winner_cost: CostEstimate, design: Design,
                 cost: CostEstimate) -> str:
    """Why a runner-up lost, in money first, then the index writes or scans that explain it."""
    scans = [p.pattern for p in design.plans if p.operation is Operation.SCAN]
    ours, theirs = _on_demand(winner_cost), _on_demand(cost)
    money = ("price unknown in this Region's sheet" if ours is None or theirs is None
             else f"{'+' if theirs >= ours else '-'}${abs(theirs - ours):,.2f}/month on-demand")
    if scans and not [p for p in winner.plans if p.operation is Operation.SCAN]:
        return f"{money}: serves {', '.join(scans)} with a Scan, which the proposal serves with a key"
    why = _index_write_difference(model, winner, design) or _biggest_line(winner_cost, cost)
    if ours is not None and theirs is not None and theirs < ours:
        return f"{money}: cheaper, but not a layout the search may propose ({why or 'see its checks'})"
    return f"{money}: {why}" if why else money


def _index_write_difference(model: Model, winner: Design, design: Design) -> str:
    """The write pattern (busiest first) whose index writes grow most, and the indexes that cause it."""
    rates = {p.name: p.traffic.average_requests_per_second for p in model.access_patterns}
    worst: tuple[float, str] | None = None
    for plan in design.plans:
        base = winner.plan(plan.pattern)
        if not plan.operation.is_write or base is None:
            continue
        extra = plan.index_writes_per_request - base.index_writes_per_request
        if extra >= 0.0005:  # what a message shows (0.001); a float residue is not a reason
            indexes = ", ".join(sorted({w.index for w in plan.index_writes} - {w.index for w in base.index_writes})
                                ) or ", ".join(sorted({w.index for w in plan.index_writes}))
            text = f"{indexes} adds {number(extra)} index write(s) to every {plan.pattern}"
            weight = extra * rates.get(plan.pattern, 0.0)
            if worst is None or weight > worst[0]:
                worst = (weight, text)
    return worst[1] if worst else ""


def _biggest_line(winner_cost: CostEstimate, cost: CostEstimate) -> str:
    def lines(estimate: CostEstimate) -> dict[str, Decimal]:
        option = estimate.option(CapacityOption.ON_DEMAND, estimate.options[0].table_class)
        return {i.name: i.monthly_cost_usd or Decimal(0) for i in option.line_items}

    base, other = lines(winner_cost), lines(cost)
    deltas = {name: other.get(name, Decimal(0)) - base.get(name, Decimal(0)) for name in {*base, *other}}
    name = max(sorted(deltas), key=lambda n: deltas[n], default=None)
    return f"the largest increase is {name} (+${deltas[name]:,.2f})" if name and deltas[name] > 0 else ""


def ranking_rows(ranking: DesignRanking) -> list[dict[str, Any]]:
    """Candidates side by side, winner first: cost, indexes, index writes per write, items read, why it lost."""
    rows = []
    for entry in ranking.ranked:
        design = entry.design
        writes = [p for p in design.plans if p.operation.is_write]
        reads = [p for p in design.plans if not p.operation.is_write]
        rows.append({
            "design": design.name, "on-demand USD/month": entry.on_demand_usd,
            "recommended USD/month": entry.recommended_usd, "recommended option": entry.recommended_option,
            "GSIs": len(design.key_design.global_secondary_indexes),
            "LSIs": len(design.key_design.local_secondary_indexes), "scans": len(design.scan_patterns),
            "index writes per write (mean)": round(sum(p.index_writes_per_request for p in writes)
                                                   / len(writes), 3) if writes else 0.0,
            "items read per read request (mean)": round(sum(p.items_read_per_request for p in reads)
                                                        / len(reads), 3) if reads else 0.0,
            "items read per read request (p99)": "not estimated yet",
            "why it lost": entry.lost_because or "cheapest",
        })
    return rows
