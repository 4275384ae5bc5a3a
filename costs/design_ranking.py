"""The one answer to "what design?": `propose(model)`, and the priced ranking behind it.

`propose(model)` is the single entry point every caller uses: the Layout, Capacity & cost, Preview, Hot
partitions, Changes, Import & export and Start pages, the report, `dds design` / `dds check` / `dds migrate`,
and the workshop's lessons. It returns the designs in the order the pickers list them (the model's own design
first when it has one, then the search's ranking), so the first is the design every page opens on, under the
same name everywhere ("Your design", "Proposed", "Fewer GSIs", "Separate partitions").

`rank_designs(model)` runs `costs.design_search.search_layouts` (whose candidates include the rule-based
generator's, `modeling.design.generator.rule_based_designs`) and keeps: the cheapest layout ("Proposed"),
the cheapest with fewer GSIs, the cheapest with every entity in its own partition, and the model's own
design if it has one. Each is priced by the same engine on the same traffic, under on-demand and under the
recommended capacity option, with the reason it lost in money and in index writes ("+$821.00/month
on-demand: GSI2 adds 1 index write to every like_post"). `propose` gives the same designs without pricing
them (the order comes from the search alone): a page that only lists them does not size and price every one.
A model without entities has no design: the ranking is then empty and `DesignRanking.no_design` (the search's
`NoDesign`) says what to add; `chosen_design` turns that into a `NoDesignError` for callers that need one.
`modeling` cannot import this module (tests/test_layering.py): a modeling-level function that needs a
design takes it, or its key design, as an argument.

A proposal is only offered when it passes the product's own checks (issue 28.4): no error-severity finding
(`modeling.design.checks`, DDS206 among them: the Preview's oracle worked out from the keys). Each finalist is
the first in the search's order that passes. An error that every candidate checked has (a write whose inputs
cannot name its item in any layout, a read no layout serves by key) belongs to the model, not to a layout: it
does not refuse a candidate, except DDS206 (a wrong answer is never offered). When no candidate passes, no
proposal is offered: `proposal_refusal(model)` (`DesignRanking.refusal`) says why, and `chosen_design` raises
`NoSafeDesignError` with that text instead of choosing a design that returns wrong results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from costs.design_cost import priced_design
from costs.design_search import NoDesign, PricedCandidate, SearchResult, search_layouts
from costs.errors import NoDesignError, NoSafeDesignError, UnknownDesignError
from costs.monthly import CostEstimate
from costs.pricing import price_sheet_for
from costs.usage import CapacityOption, label
from modeling.design.checks import Finding, FindingSeverity, check_design
from modeling.design.generator import explicit_design
from modeling.design.plans import Design, Operation
from modeling.memo import ContentMemo, content_key
from modeling.model import Model
from modeling.number_text import number

PROPOSED, FEWER_GSIS, SEPARATE_PARTITIONS, YOUR_DESIGN = ("Proposed", "Fewer GSIs", "Separate partitions",
                                                          "Your design")
_SUMMARIES = {
    PROPOSED: "The cheapest layout the search found on the model's own traffic (the monthly total of the "
              "recommended capacity option), serving every read with a key where any layout can.",
    FEWER_GSIS: "The cheapest layout with fewer GSIs than the proposal.",
    SEPARATE_PARTITIONS: "The cheapest layout where every item keeps its own partition and children are found "
                         "through indexes.",
}


# Error findings never excused as the model's own: a design that returns wrong results is never offered.
WRONG_RESULTS_CHECKS = frozenset({"DDS206"})
# Candidates checked, in the search's order: each check_design takes 5 ms on an example and about 0.1 s on a
# 120-pattern model, and an error all of them share (the model's) needs every one of them checked.
MAX_CHECKED_CANDIDATES = 16


@dataclass(frozen=True)
class NoSafeDesign:
    """Why no proposal is offered: every candidate checked has an error finding that another could avoid or that
    returns wrong results. `findings` are (check id, where, message) of the search's cheapest candidate."""

    candidates_checked: int
    findings: tuple[tuple[str, str, str], ...]

    @property
    def message(self) -> str:
        shown = "; ".join(f"{check_id} at {where}: {message}" for check_id, where, message in self.findings[:3])
        more = f" (and {len(self.findings) - 3} more)" if len(self.findings) > 3 else ""
        return (f"No design is proposed: each of the {self.candidates_checked} candidate layouts checked has an "
                f"error finding, so any of them would return wrong results or fail as modelled. The cheapest: "
                f"{shown}{more}. Change the model (the patterns' entities and inputs) or write your own key design.")


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
        return _picker_order(tuple(r.design for r in self.ranked))

    @property
    def no_design(self) -> NoDesign | None:
        """Why there is no design at all (the model has no entities), else None."""
        return self.search if isinstance(self.search, NoDesign) else None

    refusal: NoSafeDesign | None = None  # set when no candidate passes the checks (nothing is proposed)

    @property
    def search_note(self) -> str:
        """How good the search's answer is (optimal within its space, or its gap), "" without a search."""
        return self.search.stats.describe() if isinstance(self.search, SearchResult) else ""


@dataclass(frozen=True)
class _Finalists:
    """The designs the ranking prices, in its order, before any of them is priced."""

    designs: tuple[Design, ...]
    search: SearchResult | NoDesign
    refusal: NoSafeDesign | None = None


_FINALISTS: ContentMemo[_Finalists] = ContentMemo("design finalists", max_entries=16)
_RANKINGS: ContentMemo[DesignRanking] = ContentMemo("design_ranking", max_entries=16)


def rank_designs(model: Model) -> DesignRanking:
    """The search's winner and runners-up for a model, each priced (memoised per model: the pages rerun on
    every click).

    Keyed by the model as typed, not its canonical form: the user's own design and names are shown as typed."""
    model_json = model.model_dump_json()
    key = content_key(model_json)
    return _RANKINGS.get(key, lambda: _ranking(model_json, _finalists(key, model_json)))


def propose(model: Model) -> tuple[Design, ...]:
    """The designs for a model, the default first: the one answer to "what design?" for every caller.

    The model's own design first when it has one, then the search's ranking ("Proposed", then the runners-up
    "Fewer GSIs" and "Separate partitions" where they differ); `DesignRanking.designs`' order. Not priced:
    the order comes from the search alone, so a page that lists the designs does not size and price each one
    (`rank_designs` prices them). Empty for a model without entities (`chosen_design` says what to add).
    Memoised per model content."""
    model_json = model.model_dump_json()
    return _picker_order(_finalists(content_key(model_json), model_json).designs)


def search_note(model: Model) -> str:
    """`DesignRanking.search_note` without pricing the finalists (memoised with `propose`)."""
    model_json = model.model_dump_json()
    search = _finalists(content_key(model_json), model_json).search
    return search.stats.describe() if isinstance(search, SearchResult) else ""


def proposal_refusal(model: Model) -> NoSafeDesign | None:
    """Why no proposal is offered (every candidate fails the checks), else None. Memoised with `propose`."""
    model_json = model.model_dump_json()
    return _finalists(content_key(model_json), model_json).refusal


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


def _picker_order(designs: tuple[Design, ...]) -> tuple[Design, ...]:
    """The model's own first (what the user typed stays the default), then the ranking."""
    own = [d for d in designs if d.name == YOUR_DESIGN]
    return (*own, *(d for d in designs if d.name != YOUR_DESIGN))


def _finalists(key: str, model_json: str) -> _Finalists:
    return _FINALISTS.get(key, lambda: _search_finalists(model_json))


def _search_finalists(model_json: str) -> _Finalists:
    model = Model.model_validate_json(model_json)
    search = search_layouts(model)
    if isinstance(search, NoDesign):
        return _Finalists((), search)
    checked = _Checked(model, search)
    best = checked.first(lambda c: True)
    refusal = checked.refusal() if best is None and checked.candidates else None
    picks: list[tuple[str, PricedCandidate]] = [(PROPOSED, best)] if best is not None else []
    if best is not None:
        best_gsis = best.gsi_count
        fewer = checked.first(lambda c: c.gsi_count < best_gsis and not c.refused)
        separate = checked.first(lambda c: c.all_separate and not c.refused)
        for name, pick in ((FEWER_GSIS, fewer), (SEPARATE_PARTITIONS, separate)):
            if pick is not None and all(pick.design.key_design != d.design.key_design for _, d in picks):
                picks.append((name, pick))
    designs = [_renamed(c.design, name, _summary(name, c)) for name, c in picks]
    own = explicit_design(model)
    if own is not None:  # the user's own layout takes the place of an identical proposal (it is the same table)
        same = [i for i, d in enumerate(designs) if _same_layout(d, own)]
        designs = [own if i == (same[0] if same else -1) else d for i, d in enumerate(designs) if i not in same[1:]]
        if not same:
            designs.append(own)
    return _Finalists(tuple(_replanned(model, d) for d in designs), search, refusal)


class _Checked:
    """The search's candidates (at most MAX_CHECKED_CANDIDATES, its order) and which pass the checks.

    A candidate passes when it has no error finding, or only errors every candidate checked has (the model's,
    not the layout's: the same check on the same pattern, or the same key-level check), never a wrong answer
    (DDS206). Checked lazily: the cheapest usually has no error, and then only the runners-up picked are."""

    def __init__(self, model: Model, search: SearchResult) -> None:
        self.model = model
        self.candidates = search.complete[:MAX_CHECKED_CANDIDATES]
        self._errors: dict[int, dict[tuple[str, ...], list[Finding]]] = {}
        self._excused: set[tuple[str, ...]] | None = None

    def errors(self, i: int) -> dict[tuple[str, ...], list[Finding]]:
        if i not in self._errors:
            grouped: dict[tuple[str, ...], list[Finding]] = {}
            for f in check_design(self.model, self.candidates[i].design):
                if f.severity is FindingSeverity.ERROR:
                    grouped.setdefault((f.check_id, f.pattern) if f.pattern else (f.check_id,), []).append(f)
            self._errors[i] = grouped
        return self._errors[i]

    def excused(self) -> set[tuple[str, ...]]:
        if self._excused is None:
            shared = {key for key in self.errors(0) if key[0] not in WRONG_RESULTS_CHECKS}
            for j in range(1, len(self.candidates)):
                if not shared:
                    break  # nothing every candidate has: no need to check the rest for it
                shared &= set(self.errors(j))
            self._excused = shared
        return self._excused

    def passes(self, i: int) -> bool:
        return not self.errors(i) or set(self.errors(i)) <= self.excused()

    def first(self, wanted: Callable[[PricedCandidate], bool]) -> PricedCandidate | None:
        return next((c for i, c in enumerate(self.candidates) if wanted(c) and self.passes(i)), None)

    def refusal(self) -> NoSafeDesign:
        found = [f for key, fs in sorted(self.errors(0).items()) if key not in self.excused() for f in fs]
        return NoSafeDesign(len(self.candidates), tuple((f.check_id, f.path, f.message) for f in found))


def _ranking(model_json: str, finalists: _Finalists) -> DesignRanking:
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


def _same_layout(a: Design, b: Design) -> bool:
    def canonical(design: Design) -> str:
        key_design = design.key_design
        return key_design.model_copy(update={"entities": tuple(sorted(key_design.entities, key=lambda k: k.entity))}
                                     ).model_dump_json()
    return canonical(a) == canonical(b)


def _summary(name: str, candidate: PricedCandidate) -> str:
    placements = "; ".join(f"{entity}: {p.describe()}" for entity, p in candidate.choice.placements) \
        if candidate.choice else "the generator's rules"
    gsis = ("GSIs shared (overloaded) where they fit" if candidate.choice is None or candidate.choice.share_gsis
            else "one GSI per pattern")
    return f"{_SUMMARIES[name]} Layout: {placements}; {gsis}."


def _renamed(design: Design, name: str, summary: str) -> Design:
    return Design(name, summary, design.key_design, design.plans, design.entity_reasons, design.index_reasons)


def _replanned(model: Model, design: Design) -> Design:
    """Plans in the model's own pattern order (the search planned the canonical model)."""
    by_name = {p.pattern: p for p in design.plans}
    plans = tuple(by_name[p.name] for p in model.access_patterns if p.name in by_name)
    reasons = dict(design.entity_reasons)
    entity_reasons = tuple((e.name, reasons[e.name]) for e in model.entities if e.name in reasons)
    return Design(design.name, design.summary, design.key_design, plans, entity_reasons, design.index_reasons)


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
