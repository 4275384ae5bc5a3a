"""The one answer to "what design?": `propose(model, pricing)`, the search's finalists checked and named.

`propose` returns the designs in the order the pickers list them (the model's own design first when it has
one, then the search's ranking), so the first is the design every page opens on, under the same name
everywhere ("Your design", "Proposed", "Fewer GSIs", "Separate partitions"). Every caller reaches it through
`studio.design.propose(model)` (the pages, `dds`, the report and the workshop's lessons) or, inside the cost
engine, `costs.design_ranking.propose(model)`: both pass the cost engine's `SearchPricing`
(`costs.search_pricing.SEARCH_PRICING`), since `modeling` never imports `costs` (tests/test_layering.py).

The finalists come from `modeling.design.search.search_layouts` (whose candidates include the rule-based
generator's, `modeling.design.generator.rule_based_designs`): the cheapest layout ("Proposed"), the cheapest
with fewer GSIs, the cheapest with every entity in its own partition, and the model's own design if it has
one. They are not priced here (the order comes from the search alone): a page that only lists them does not
size and price every one; `costs.design_ranking.rank_designs` prices them, with the reason each runner-up lost.
A model without entities has no design: the finalists are then empty and the search's `NoDesign` says what to
add; `costs.design_ranking.chosen_design` turns that into a `NoDesignError` for callers that need one.

A proposal is only offered when it passes the product's own checks (issue 28.4): no error-severity finding
(`modeling.design.checks`, DDS206 among them: the Preview's oracle worked out from the keys). Each finalist is
the first in the search's order that passes. An error that every candidate checked has (a write whose inputs
cannot name its item in any layout, a read no layout serves by key) belongs to the model, not to a layout: it
does not refuse a candidate, except DDS206 (a wrong answer is never offered). When no candidate passes, no
proposal is offered: `proposal_refusal(model, pricing)` says why, and `chosen_design` raises
`NoSafeDesignError` with that text instead of choosing a design that returns wrong results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from modeling.design.checks import Finding, FindingSeverity, check_design
from modeling.design.generator import explicit_design
from modeling.design.plans import Design
from modeling.design.search import NoDesign, PricedCandidate, SearchPricing, SearchResult, search_layouts
from modeling.memo import ContentMemo, content_key
from modeling.model import Model

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
class Finalists:
    """The designs the ranking prices, in its order, before any of them is priced."""

    designs: tuple[Design, ...]
    search: SearchResult | NoDesign
    refusal: NoSafeDesign | None = None


_FINALISTS: ContentMemo[Finalists] = ContentMemo("design finalists", max_entries=16)


def propose(model: Model, pricing: SearchPricing) -> tuple[Design, ...]:
    """The designs for a model, the default first: the one answer to "what design?" for every caller.

    The model's own design first when it has one, then the search's ranking ("Proposed", then the runners-up
    "Fewer GSIs" and "Separate partitions" where they differ); `costs.design_ranking.DesignRanking.designs`'
    order. Not priced: the order comes from the search alone, so a page that lists the designs does not size and
    price each one (`costs.design_ranking.rank_designs` prices them). Empty for a model without entities
    (`chosen_design` says what to add). Memoised per model content and pricing."""
    return picker_order(finalists(search_input(model), pricing).designs)


def search_note(model: Model, pricing: SearchPricing) -> str:
    """How good the search's answer is (optimal within its space, or its gap), "" without a search; without
    pricing the finalists (memoised with `propose`)."""
    search = finalists(search_input(model), pricing).search
    return search.stats.describe() if isinstance(search, SearchResult) else ""


def proposal_refusal(model: Model, pricing: SearchPricing) -> NoSafeDesign | None:
    """Why no proposal is offered (every candidate fails the checks), else None. Memoised with `propose`."""
    return finalists(search_input(model), pricing).refusal


def search_input(model: Model) -> str:
    """The JSON the search is given: the model without its name and description, which no design, plan or
    price reads. Models that differ only in them (thirty workshop attendees on one lesson, a renamed copy) share
    one search, and by construction get the same designs."""
    return model.model_copy(update={"name": ANONYMOUS_NAME, "description": ""}).model_dump_json()


ANONYMOUS_NAME = "model"  # any valid name: the search never shows it


def picker_order(designs: tuple[Design, ...]) -> tuple[Design, ...]:
    """The model's own first (what the user typed stays the default), then the ranking."""
    own = [d for d in designs if d.name == YOUR_DESIGN]
    return (*own, *(d for d in designs if d.name != YOUR_DESIGN))


def finalists(model_json: str, pricing: SearchPricing) -> Finalists:
    """The finalists of the model whose JSON (`search_input(model)`) is given, memoised by it and `pricing`.

    Keyed by the model as typed, not its canonical form: the user's own design and names are shown as typed."""
    return _FINALISTS.get(content_key(model_json, repr(pricing)), lambda: _search_finalists(model_json, pricing))


def _search_finalists(model_json: str, pricing: SearchPricing) -> Finalists:
    model = Model.model_validate_json(model_json)
    search = search_layouts(model, pricing)
    if isinstance(search, NoDesign):
        return Finalists((), search)
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
    return Finalists(tuple(_replanned(model, d) for d in designs), search, refusal)


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
    if candidate.choice is not None and candidate.choice.composite_sort_keys:
        gsis += ", and a pattern shares a GSI its entity is in through a composite sort key where it can"
    through = sorted(p.pattern for p in candidate.design.plans if p.through is not None)
    reads = (f" Read through their uniqueness items (two GetItems, no index): {', '.join(through)}."
             if through else "")
    return f"{_SUMMARIES[name]} Layout: {placements}; {gsis}.{reads}"


def _renamed(design: Design, name: str, summary: str) -> Design:
    return Design(name, summary, design.key_design, design.plans, design.entity_reasons, design.index_reasons)


def _replanned(model: Model, design: Design) -> Design:
    """Plans in the model's own pattern order (the search planned the canonical model)."""
    by_name = {p.pattern: p for p in design.plans}
    plans = tuple(by_name[p.name] for p in model.access_patterns if p.name in by_name)
    reasons = dict(design.entity_reasons)
    entity_reasons = tuple((e.name, reasons[e.name]) for e in model.entities if e.name in reasons)
    return Design(design.name, design.summary, design.key_design, plans, entity_reasons, design.index_reasons)
