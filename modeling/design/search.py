"""The key-design search: price candidate layouts with the pricing it is given and keep the cheapest.

`modeling.design.design_space` says what the candidates are (a placement per entity, shared or per-pattern
GSIs) and `modeling.design.generator` builds each (its rule-based designs, `rule_based_designs`, are always
among the candidates); this module prices them on the model's own traffic with a `SearchPricing` (the cost
engine's, `costs.search_pricing.SEARCH_PRICING`: `costs.capacity` + `costs.monthly`, passed in from above:
`modeling` never imports `costs`; `studio.design` wires the two) and finds the cheapest by best-first branch
and bound.

The objective is what the user will pay: the monthly total of the option the estimate recommends
(`costs.monthly.recommended_subtotal_usd`: the cheapest of on-demand, provisioned, auto scaling and reserved,
in both table classes, provisioned per-index minimums included), with the on-demand total beside it.

Lower bounds (admissible: never above the cost of any completion). A partial layout places the first
entities of a parents-first order; its bound prices, with the same engine and objective, the usage of the
placed entities' layout and patterns plus a floor for everything not yet placed: every other pattern at the
least any layout can charge it (0.5 read unit per eventually consistent read, 1 per strong read, min(1, items
written) write units per write, all on the base table) and every other item at its 100-byte storage overhead.
The placed layout's GSIs are priced KEYS_ONLY without the fetches that would need (a complete layout chooses
each GSI's projection by price, `modeling.design.projections`, and none is cheaper than that), or with the
generator's projections when those price lower (`_BranchAndBound._least`). A completion
only adds patterns, items, indexes and index writes, and each option's price never falls when a resource's
units or bytes grow, so the bound holds; `tests/costs/test_design_search.py` checks it against
every complete layout of the examples. The root's bound (nothing placed) is a floor for every layout of the
model.

Search: best first by bound, each expansion diving depth first to a complete layout (cheapest child first),
its siblings queued with their bounds. A node whose bound is not below the best complete layout is pruned.
When the queue empties the best is optimal within the search space (gap 0); when the pricing budget runs out
first, `SearchStats.optimality_gap` is (best - the least bound still queued) / best: no layout of the space,
placed or not, can be cheaper than that bound.

Ties, in `PricedCandidate.rank_key`'s order: a layout that is not refused, then fewer reads served by a Scan,
then the lower recommended total, then the lower on-demand total, then fewer indexes, then the key design's
JSON (so the same model always gives the same bytes).

Reads through uniqueness items (issue 28.3): every complete layout is priced as generated and, where a read by a
unique attribute can go through the entity's uniqueness item instead of its GSI, once more without that GSI's
entries (`modeling.design.uniqueness_candidates`); the bound of a partial layout is the lower of the two, so it
stays admissible.

Rules the search enforces, not just prefers: a layout that serves a read with a Scan loses to any that
serves it with a key (strong reads never come from a GSI: the planner refuses it, dynamodb-rules §4.1),
and a layout whose LSI would hold an item collection over 10 GB is refused (§4.2). When no layout
serves a pattern by key, `DesignSearch.unservable` says which and why. A model without entities has no
layout at all: the search answers `NoDesign`, saying what to add, instead of a design of nothing.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Protocol

from modeling.design.checks import wrong_results
from modeling.design.design_space import OWN_PARTITION, LayoutChoice, Placement, canonical_model, placement_options
from modeling.design.generator import COLLECTIONS, SEPARATE, generate_design, rule_based_designs
from modeling.design.keys import KeyTemplate
from modeling.design.missing import Missing, nothing_to_design, what_is_missing
from modeling.design.plans import Design, Operation
from modeling.design.projections import cheapest_projections, keys_only_bound
from modeling.design.uniqueness_candidates import lookup_indexes_dropped
from modeling.limits import MAX_ITEM_COLLECTION_BYTES
from modeling.memo import ContentMemo, content_key
from modeling.model import Model, parents_first

# Work budget: designs priced (complete or partial) x access patterns. Deterministic (a time limit would make the
# answer depend on the machine); a large model settles for the best layout found by then, with its gap.
DEFAULT_PRICING_BUDGET = 20_000

# The GSI policies every placement is priced under: (GSIs shared by entities, patterns sharing an entity's GSI
# through a composite sort key). The search takes a composite only where it is cheaper than separate GSIs.
GSI_POLICIES: tuple[tuple[bool, bool], ...] = ((True, False), (True, True), (False, False), (False, True))


class LayoutPricer(Protocol):
    """Prices the layouts of one canonical model (made by `SearchPricing.pricer`, used by one search)."""

    def price(self, model: Model, design: Design) -> tuple[Decimal, Decimal]:
        """(objective, on-demand total) per month of a complete design of the canonical model, or the lower bound
        of a partial one: `model` is then a sub-model of the placed entities, and the patterns and items not in
        it are priced at the least any layout can charge them (see the module docstring)."""
        ...


class SearchPricing(Protocol):
    """What the search prices with, given from above (`modeling` never imports `costs`): the cost engine's is
    `costs.search_pricing.SEARCH_PRICING`. Its `repr` names its prices (a sheet, or the model's Region's): the
    search is remembered per pricing."""

    def pricer(self, model: Model) -> LayoutPricer:
        """The pricer of one canonical model's layouts (samples and price sheet drawn once)."""
        ...


@dataclass(frozen=True)
class PricedCandidate:
    """One complete layout with its monthly cost (the recommended option's total, on-demand beside it) and what
    it fails to serve by key."""

    choice: LayoutChoice | None
    design: Design
    monthly_cost_usd: Decimal  # the objective: the recommended option's total (on-demand's where none compares)
    scans: tuple[str, ...]  # read patterns served by a Scan
    refused: str = ""  # why the layout is not allowed (an LSI collection over 10 GB), "" when it is
    on_demand_usd: Decimal = Decimal(0)

    @property
    def gsi_count(self) -> int:
        return len(self.design.key_design.global_secondary_indexes)

    @property
    def all_separate(self) -> bool:
        return self.choice is not None and all(not p.in_collection for _, p in self.choice.placements)

    def rank_key(self) -> tuple[int, int, Decimal, Decimal, int, str]:
        """Not refused, fewer Scans, recommended total, on-demand total, fewer indexes, key design JSON."""
        return (bool(self.refused), len(self.scans), self.monthly_cost_usd, self.on_demand_usd,
                self.design.index_count, self.design.key_design.model_dump_json())


@dataclass(frozen=True)
class SearchStats:
    candidates_costed: int
    partial_layouts_pruned: int
    complete_layouts: int  # size of the whole space (placements x GSI policies)
    seconds: float
    exhaustive: bool
    budget_exhausted: bool
    lower_bound_usd: Decimal = Decimal(0)  # no layout of the space costs less (recommended option, per month)
    optimality_gap: float = 0.0  # (best - lower bound) / best; 0 when the search proved its best optimal

    @property
    def proven_optimal(self) -> bool:
        return self.optimality_gap == 0.0

    def describe(self) -> str:
        """One sentence on how good the answer is, for the CLI and the pages (no dollar figure: the search prices
        on a small sample, the estimate beside it on the full one)."""
        if self.proven_optimal:
            # a layout is priced with each projection of its GSIs, and partial layouts for their bounds: more
            # designs than layouts may be priced (a stranger read "4 layouts (26 priced)" as a contradiction)
            return (f"Search: optimal within its space of {self.complete_layouts:,} layouts "
                    f"({self.candidates_costed:,} designs priced, projections and lower bounds included; every "
                    "layout not priced was ruled out by a lower bound).")
        return (f"Search: stopped at its budget after pricing {self.candidates_costed:,} of "
                f"{self.complete_layouts:.3g} layouts; the proposal costs at most {self.optimality_gap:.0%} more than "
                "the cheapest layout could (a lower bound the search proved), and may be the cheapest.")


@dataclass(frozen=True)
class SearchResult:
    best: PricedCandidate
    complete: tuple[PricedCandidate, ...]  # every complete layout priced, best first
    unservable: tuple[str, ...]
    stats: SearchStats


@dataclass(frozen=True)
class NoDesign:
    """The search's answer for a model with nothing to place (no entities yet): no layout, and what to add."""

    missing: tuple[Missing, ...]

    @property
    def message(self) -> str:
        return " ".join(m.message for m in self.missing)


class _Pricer:
    """Prices designs of one (canonical) model with a `SearchPricing`; results memoised and counted (the budget)."""

    def __init__(self, model: Model, pricing: SearchPricing) -> None:
        self.model = model
        self.layouts = pricing.pricer(model)
        self.costed = 0
        self._memo: dict[tuple[tuple[str, ...], str, tuple[bool, ...]], tuple[Decimal, Decimal]] = {}
        self._projected: dict[str, Design] = {}  # key design JSON -> the design with its projections chosen

    def price(self, model: Model, design: Design) -> tuple[Decimal, Decimal]:
        """(objective, on-demand total) of a complete design, or the lower bound of a partial one (`model` a
        sub-model of the placed entities: the patterns and items not in it are added at their floors)."""
        # the fetches too: a lower bound prices a KEYS_ONLY design without them (`keys_only_bound`)
        key = (tuple(e.name for e in model.entities), design.key_design.model_dump_json(),
               tuple(p.fetch is not None for p in design.plans))
        if key not in self._memo:
            self.costed += 1
            self._memo[key] = self.layouts.price(model, design)
        return self._memo[key]

    def floor(self) -> Decimal:
        """A lower bound of every layout of the model: nothing placed, everything at its floor."""
        empty = self.model.model_copy(update={"entities": (), "relationships": (), "access_patterns": ()})
        design = Design("floor", "", empty.key_design or _empty_key_design(self.model), (), (), ())
        return self.price(empty, design)[0]

    def candidate(self, choice: LayoutChoice | None, design: Design) -> PricedCandidate:
        """A complete layout priced, each GSI's projection chosen by the same prices first
        (`modeling.design.projections`)."""
        key = design.key_design.model_dump_json()
        chosen = self._projected.get(key)
        if chosen is None:  # many layouts build the same key design: its projections are chosen once
            chosen = self._projected[key] = cheapest_projections(self.model, design,
                                                                 lambda d: self.price(self.model, d))
        design = replace(design, key_design=chosen.key_design, plans=chosen.plans, index_reasons=chosen.index_reasons)
        cost, on_demand = self.price(self.model, design)
        scans = tuple(p.pattern for p in design.plans if p.operation is Operation.SCAN)
        return PricedCandidate(choice, design, cost, scans, _lsi_collection_problem(self.model, design), on_demand)


def _empty_key_design(model: Model) -> Any:
    return generate_design(model.model_copy(update={"key_design": None}), SEPARATE,
                           LayoutChoice((), True)).key_design.model_copy(
        update={"entities": (), "global_secondary_indexes": (), "local_secondary_indexes": ()})


def _sub_model(model: Model, names: set[str]) -> Model:
    """The entities placed so far, their relationships and the patterns that touch only them."""
    return model.model_copy(update={
        "entities": tuple(e for e in model.entities if e.name in names),
        "relationships": tuple(r for r in model.relationships if r.parent in names and r.child in names),
        "access_patterns": tuple(p for p in model.access_patterns if set(p.entities) <= names),
        "key_design": None})


def _placement_order(model: Model) -> list[str]:
    return [e.name for e in parents_first(model.entities, lambda e: sorted(
        r.parent for r in model.relationships if r.child == e.name))]


def _options(model: Model) -> dict[str, tuple[Placement, ...]]:
    return {e.name: placement_options(model, e) for e in model.entities}


# One search per canonical model: the pages rerun on every click, and a model whose lists were only reordered
# (or that another session has open) is the same search. Results are frozen; see modeling/memo.py.
_SEARCHES: ContentMemo[SearchResult] = ContentMemo("design_search", max_entries=32)


def search_layouts(model: Model, pricing: SearchPricing, max_candidates: int | None = None,
                   exhaustive: bool = False) -> SearchResult | NoDesign:
    """The cheapest layout of the model (canonicalised first), with every complete layout priced on the way by
    `pricing`; `NoDesign` for a model without entities.

    Memoised by the canonical model's content and the arguments (the stats of a remembered answer are those of
    the search that found it)."""
    if nothing_to_design(model):
        return NoDesign(what_is_missing(model))
    canonical = canonical_model(model).model_copy(update={"key_design": None})
    key = content_key(canonical.model_dump_json(), repr(pricing), repr(max_candidates), repr(exhaustive))
    return _SEARCHES.get(key, lambda: _search(canonical, pricing, max_candidates, exhaustive))


@dataclass(frozen=True)
class _Node:
    """A partial layout: placements for the first entities of the order, and the GSI policy."""

    placements: tuple[tuple[str, Placement], ...]
    share_gsis: bool
    composite_sort_keys: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.placements)

    @property
    def layout(self) -> LayoutChoice:
        return LayoutChoice(tuple(sorted(self.placements)), self.share_gsis, self.composite_sort_keys)


class _BranchAndBound:
    """Best-first branch and bound with depth-first dives over one canonical model's layouts."""

    def __init__(self, canonical: Model, pricer: _Pricer, max_candidates: int) -> None:
        self.model, self.pricer, self.max_candidates = canonical, pricer, max_candidates
        self.order = _placement_order(canonical)
        self.options = _options(canonical)
        self.complete: dict[str, PricedCandidate] = {}
        self.best: PricedCandidate | None = None
        self.pruned = 0
        self.queue: list[tuple[tuple[int, Decimal], int, _Node]] = []
        self._sequence = itertools.count()  # FIFO among equal bounds: deterministic
        # one sub-model per set of placed entities (every node at one depth has the same set)
        self._sub_models: dict[tuple[str, ...], Model] = {}

    def keep(self, candidate: PricedCandidate) -> None:
        """Remember a complete layout; one that would become the best is checked first (a layout that returns
        wrong results is refused, so it never bounds the search: the proposal must pass the checks)."""
        if self.best is None or candidate.rank_key() < self.best.rank_key():
            candidate = _refused_if_wrong(self.model, candidate)
        self.complete.setdefault(candidate.design.key_design.model_dump_json(), candidate)
        if self.best is None or candidate.rank_key() < self.best.rank_key():
            self.best = candidate

    def keep_design(self, choice: LayoutChoice | None, design: Design) -> None:
        """Price a complete layout and, where a uniqueness item can serve its reads by a unique attribute, the same
        layout without their GSI entries (`lookup_indexes_dropped`): both are candidates, the cheaper wins."""
        self._keep_both(choice, design, lookup_indexes_dropped(self.model, design))

    def _keep_both(self, choice: LayoutChoice | None, design: Design, variant: Design | None) -> None:
        self.keep(self.pricer.candidate(choice, design))
        if variant is not None:
            self.keep(self.pricer.candidate(choice, variant))

    def incumbent(self) -> tuple[int, Decimal]:
        assert self.best is not None
        return (len(self.best.scans), self.best.monthly_cost_usd)

    def out_of_budget(self) -> bool:
        return self.pricer.costed >= self.max_candidates

    def run(self) -> bool:
        """Search until the queue is empty (True) or the budget is spent (False)."""
        for share, composite in GSI_POLICIES:
            self._push(_Node((), share, composite), (0, self.pricer.floor()))
        while self.queue:
            bound, _, node = self.queue[0]
            if self.best is not None and not self.best.refused and bound >= self.incumbent():
                self.pruned += len(self.queue)  # best first: every node left is bounded at least as high
                self.queue.clear()
                break
            if self.out_of_budget():
                return False
            heapq.heappop(self.queue)
            self._dive(node)
        return True

    def lower_bound(self) -> Decimal:
        """No layout of the space costs less (the least bound queued, or the best when none is)."""
        assert self.best is not None
        queued = [bound[1] for bound, _, _ in self.queue if bound[0] <= len(self.best.scans)]
        return min([self.best.monthly_cost_usd, *queued])

    def _push(self, node: _Node, bound: tuple[int, Decimal]) -> None:
        heapq.heappush(self.queue, (bound, next(self._sequence), node))

    def _dive(self, node: _Node) -> None:
        """From `node` to a complete layout, the cheapest child first; the other children are queued."""
        while node is not None and not self.out_of_budget():
            children = []
            for child in self._children(node):
                if len(child.placements) == len(self.order):
                    self._complete(child)
                    continue
                bound = self._bound(child)
                if self.best is not None and not self.best.refused and bound >= self.incumbent():
                    self.pruned += 1
                    continue
                children.append((bound, child))
            if not children:
                return
            children.sort(key=lambda c: c[0])  # stable: placement order among equal bounds
            for bound, child in children[1:]:
                self._push(child, bound)
            node = children[0][1]

    def _complete(self, node: _Node) -> None:
        """Price a complete layout, unless its keys-only bound (`_bound`'s, on the whole model) already costs more
        than the best: choosing its projections would then price several designs for nothing."""
        design = generate_design(self.model, COLLECTIONS, node.layout)
        variant = lookup_indexes_dropped(self.model, design)  # planned once, for the bound and the pricing
        if self.best is not None and not self.best.refused and design.key_design.global_secondary_indexes:
            scans = sum(p.operation is Operation.SCAN for p in design.plans)
            if (scans, self._least_of_layout(self.model, design, variant)) > self.incumbent():
                self.pruned += 1
                return
        self._keep_both(node.layout, design, variant)

    def _children(self, node: _Node) -> Iterator[_Node]:
        name = self.order[len(node.placements)]
        for placement in self.options[name]:
            yield _Node((*node.placements, (name, placement)), node.share_gsis, node.composite_sort_keys)

    def _bound(self, node: _Node) -> tuple[int, Decimal]:
        names = node.names
        if names not in self._sub_models:
            self._sub_models[names] = _sub_model(self.model, set(names))
        partial = self._sub_models[names]
        design = generate_design(partial, COLLECTIONS, node.layout)
        scans = sum(p.operation is Operation.SCAN for p in design.plans)
        return (scans, self._least_of_layout(partial, design, lookup_indexes_dropped(partial, design)))

    def _least_of_layout(self, model: Model, design: Design, variant: Design | None) -> Decimal:
        """`_least` of the layout, or of `variant`, the same layout without the GSIs reads through uniqueness items
        replace (`keep_design` prices both), when that is lower."""
        least = self._least(model, design)
        return least if variant is None else min(least, self._least(model, variant))

    def _least(self, model: Model, design: Design) -> Decimal:
        """The objective's lower bound over the projections a completion may choose: every GSI KEYS_ONLY without
        fetches (no projection stores, writes or reads less), or the rule-based projections when they price lower
        (an option's availability is not monotone: auto scaling may not serve a peak of tiny loads, and the
        objective then falls back to a dearer option)."""
        cost = self.pricer.price(model, design)[0]
        if not design.key_design.global_secondary_indexes:
            return cost
        return min(cost, self.pricer.price(model, keys_only_bound(model, design))[0])


def _search(canonical: Model, pricing: SearchPricing, max_candidates: int | None,
            exhaustive: bool) -> SearchResult:
    started = time.perf_counter()
    if max_candidates is None:  # pricing a design costs in proportion to its entities and patterns
        work = len(canonical.access_patterns) + len(canonical.entities)
        max_candidates = max(4, min(DEFAULT_PRICING_BUDGET // max(1, work), DEFAULT_PRICING_BUDGET // 12))
    pricer = _Pricer(canonical, pricing)
    search = _BranchAndBound(canonical, pricer, max_candidates)
    space = len(GSI_POLICIES) * _product(len(o) for o in search.options.values())
    # the rule-based generator's designs and the all-own-partitions layouts are always priced: they seed the
    # bound and give the "separate partitions" runner-up
    for design in rule_based_designs(canonical):  # the canonical model has no design of its own
        search.keep_design(None, design)
    for share in (True, False):
        choice = LayoutChoice(tuple((name, OWN_PARTITION) for name in sorted(search.options)), share)
        search.keep_design(choice, generate_design(canonical, SEPARATE, choice))
    if exhaustive:
        for share, composite in GSI_POLICIES:
            for combination in itertools.product(*(search.options[name] for name in search.order)):
                layout = LayoutChoice(tuple(sorted(zip(search.order, combination, strict=True))), share, composite)
                search.keep_design(layout, generate_design(canonical, COLLECTIONS, layout))
        finished = True
    else:
        finished = search.run()
    ranked = tuple(sorted(search.complete.values(), key=PricedCandidate.rank_key))
    best = ranked[0]
    lower = best.monthly_cost_usd if finished else search.lower_bound()
    gap = 0.0 if finished or best.monthly_cost_usd <= 0 else float((best.monthly_cost_usd - lower)
                                                                     / best.monthly_cost_usd)
    stats = SearchStats(pricer.costed, search.pruned, space, time.perf_counter() - started, exhaustive,
                        not finished, lower, gap)
    return SearchResult(best, ranked, _unservable(canonical, best), stats)


def _product(values: Iterator[int] | Any) -> int:
    total = 1
    for value in values:
        total *= value
    return total


def _refused_if_wrong(model: Model, candidate: PricedCandidate) -> PricedCandidate:
    if candidate.refused:
        return candidate
    wrong = wrong_results(model, candidate.design)
    if not wrong:
        return candidate
    return replace(candidate, refused=f"it returns wrong results: {wrong[0].check_id} {wrong[0].message}")


def _unservable(model: Model, best: PricedCandidate) -> tuple[str, ...]:
    """Why the best layout still scans (then no priced layout serves the pattern by key) or is refused."""
    reasons = []
    for name in best.scans:
        pattern = model.access_pattern(name)
        why = ("it is strongly consistent, a GSI cannot serve it (AWS: "
               "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html) and no table or LSI "
               "key is built from its inputs" if pattern is not None and pattern.consistency == "strong"
               else "no table or index key can be built from its inputs")
        reasons.append(f"{name}: every layout priced serves it with a Scan: {why}.")
    if best.refused:
        reasons.append(best.refused)
    return tuple(reasons)


# dynamodb-rules §4.2: with an LSI, an item collection (table items + LSI entries) may not exceed 10 GB
def _lsi_collection_problem(model: Model, design: Design) -> str:
    key_design = design.key_design
    if not key_design.local_secondary_indexes:
        return ""
    for keys in key_design.entities:
        if not any(i.name in keys.indexes for i in key_design.local_secondary_indexes):
            continue
        partition = keys.table.partition_key
        largest = sum(_largest_collection_items(model, k.entity, partition) * _item_bytes(model, k.entity) * 2
                      for k in key_design.entities if k.table.partition_key == partition)
        if largest > MAX_ITEM_COLLECTION_BYTES:
            return (f"the item collection {partition} can reach {largest / 1024**3:.1f} GB with its LSI entries; "
                    "an LSI caps a collection at 10 GB (AWS: "
                    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html).")
    return ""


def _largest_collection_items(model: Model, entity_name: str, partition: str) -> float:
    """Most items of one entity under one partition key value: its parent's largest child count, or 1."""
    entity = model.entity(entity_name)
    attributes = set(KeyTemplate.parse(partition).attribute_names)
    if entity is None or set(entity.identifiers) <= attributes:
        return 1.0
    counts = [float(r.cardinality.max or r.cardinality.mean) for r in model.relationships
              if r.child == entity_name and set(r.child_attributes) <= attributes]
    return max(counts, default=float(entity.item_count))


def _item_bytes(model: Model, entity_name: str) -> int:
    entity = model.entity(entity_name)
    if entity is None:
        return 0
    return sum((a.max_size_bytes or a.avg_size_bytes or 0) + len(a.name.encode()) for a in entity.attributes)
