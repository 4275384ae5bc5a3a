"""The key-design search: price candidate layouts with the cost engine and keep the cheapest.

`modeling.design.design_space` says what the candidates are (a placement per entity, shared or per-pattern
GSIs) and `modeling.design.generator` builds each (its rule-based designs, `rule_based_designs`, are always
among the candidates); this module prices them on the model's own traffic with
the cost engine (`costs.capacity` + `costs.monthly`, on-demand, the model's table class) and walks the
space depth first, parents before children, with branch and bound: the design of the entities placed
so far, with the patterns that only touch them, is a lower bound of every completion (later entities
add patterns, items and index writes, never remove them), so a partial layout already dearer than the
best complete one stops there. It lives in `costs` because it prices; `modeling` never imports `costs`.

Rules the search enforces, not just prefers: a layout that serves a read with a Scan loses to any that
serves it with a key (strong reads never come from a GSI: the planner refuses it, dynamodb-facts §4.1),
and a layout whose LSI would hold an item collection over 10 GB is refused (§4.2). When no layout
serves a pattern by key, `DesignSearch.unservable` says which and why. A model without entities has no
layout at all: the search answers `NoDesign`, saying what to add, instead of a design of nothing.

The objective is the on-demand monthly cost: it is linear in the traffic, so bounds hold; the ranked
result (`costs.design_ranking`) also prices the finalists under every capacity option.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from costs.capacity import capacity_profile, table_usage
from costs.monthly import option_estimate
from costs.pricing import PriceItem, PriceSheet, load_price_sheet, price_sheet_for
from costs.usage import CapacityOption, EstimateOptions
from modeling.data.sample_data import generate_items
from modeling.design.checks.estimates import MAX_ITEM_COLLECTION_BYTES
from modeling.design.design_space import OWN_PARTITION, LayoutChoice, Placement, canonical_model, placement_options
from modeling.design.generator import COLLECTIONS, SEPARATE, generate_design, rule_based_designs
from modeling.design.keys import KeyTemplate
from modeling.design.missing import Missing, nothing_to_design, what_is_missing
from modeling.design.plans import Design, Operation
from modeling.design.sizing import SizingMemo
from modeling.memo import ContentMemo, content_key
from modeling.model import Model, TableClass, parents_first

SEARCH_SAMPLE_ITEMS = 12  # sample items per entity for sizes while searching (the final estimate uses more)
# Work budget: designs priced x access patterns. Deterministic (a time limit would make the answer depend on
# the machine); about 8 s on a 2-core machine, so a large model settles for the best layout found by then.
DEFAULT_PRICING_BUDGET = 3_600


@dataclass(frozen=True)
class PricedCandidate:
    """One complete layout with its on-demand monthly cost and what it fails to serve by key."""

    choice: LayoutChoice | None
    design: Design
    monthly_cost_usd: Decimal
    scans: tuple[str, ...]  # read patterns served by a Scan
    refused: str = ""  # why the layout is not allowed (an LSI collection over 10 GB), "" when it is

    @property
    def gsi_count(self) -> int:
        return len(self.design.key_design.global_secondary_indexes)

    @property
    def all_separate(self) -> bool:
        return self.choice is not None and all(not p.in_collection for _, p in self.choice.placements)

    def rank_key(self) -> tuple[int, int, Decimal, int, str]:
        return (bool(self.refused), len(self.scans), self.monthly_cost_usd, self.design.index_count,
                self.design.key_design.model_dump_json())


@dataclass(frozen=True)
class SearchStats:
    candidates_costed: int
    partial_layouts_pruned: int
    complete_layouts: int  # size of the whole space (placements x GSI policies)
    seconds: float
    exhaustive: bool
    budget_exhausted: bool


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


# The search only orders layouts by what they cost relative to each other. In a Region whose sheet does
# not price on-demand requests, it orders them at this Region's rates; no figure from it is shown: the
# ranking's costs are estimated with the model's own Region's sheet, and say "not available" there.
RANKING_REFERENCE_REGION = "us-east-1"


def ranking_sheet(region: str, table_class: TableClass) -> PriceSheet:
    sheet = price_sheet_for(region)
    known = all(sheet.price(item, table_class).value is not None for item in (
        PriceItem.ON_DEMAND_READ_REQUEST_UNITS, PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS))
    return sheet if known else load_price_sheet(RANKING_REFERENCE_REGION)


class _Pricer:
    """Prices designs of one (canonical) model; samples and price sheet drawn once, results memoised."""

    def __init__(self, model: Model, sheet: PriceSheet | None = None) -> None:
        self.model = model
        self.sheet = sheet or ranking_sheet(model.table.region, model.table.table_class)
        self.items = generate_items(model, SEARCH_SAMPLE_ITEMS)
        self.options = EstimateOptions(capacity_options=(CapacityOption.ON_DEMAND,),
                                       table_classes=(model.table.table_class,))
        self.costed = 0
        self.sizing = SizingMemo()  # for self.items: most entities are keyed alike in most layouts
        self._memo: dict[tuple[tuple[str, ...], str], tuple[Decimal, int]] = {}

    def price(self, model: Model, design: Design) -> Decimal:
        key = (tuple(e.name for e in model.entities), design.key_design.model_dump_json())
        if key not in self._memo:
            self.costed += 1
            items = {e.name: self.items[e.name] for e in model.entities}
            profile = capacity_profile(model, design, sample_items_per_entity=SEARCH_SAMPLE_ITEMS, items=items,
                                       sizing_memo=self.sizing)
            usage = table_usage(model, design, profile)
            option = option_estimate(usage, self.sheet, self.options, CapacityOption.ON_DEMAND,
                                     model.table.table_class)
            self._memo[key] = (option.priced_subtotal_usd, max((s.average_bytes for s in profile.entity_sizes),
                                                              default=0))
        return self._memo[key][0]

    def candidate(self, choice: LayoutChoice | None, design: Design) -> PricedCandidate:
        cost = self.price(self.model, design)
        scans = tuple(p.pattern for p in design.plans if p.operation is Operation.SCAN)
        return PricedCandidate(choice, design, cost, scans, _lsi_collection_problem(self.model, design))


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


def search_layouts(model: Model, sheet: PriceSheet | None = None, max_candidates: int | None = None,
                   exhaustive: bool = False) -> SearchResult | NoDesign:
    """The cheapest layout of the model (canonicalised first), with every complete layout priced on the way;
    `NoDesign` for a model without entities.

    Memoised by the canonical model's content and the arguments (the stats of a remembered answer are those of
    the search that found it)."""
    if nothing_to_design(model):
        return NoDesign(what_is_missing(model))
    canonical = canonical_model(model).model_copy(update={"key_design": None})
    key = content_key(canonical.model_dump_json(), repr(sheet), repr(max_candidates), repr(exhaustive))
    return _SEARCHES.get(key, lambda: _search(canonical, sheet, max_candidates, exhaustive))


def _search(canonical: Model, sheet: PriceSheet | None, max_candidates: int | None,
            exhaustive: bool) -> SearchResult:
    started = time.perf_counter()
    if max_candidates is None:  # pricing a design costs in proportion to its entities and patterns
        work = len(canonical.access_patterns) + len(canonical.entities)
        max_candidates = max(4, min(DEFAULT_PRICING_BUDGET // max(1, work), DEFAULT_PRICING_BUDGET // 12))
    pricer = _Pricer(canonical, sheet)
    order = _placement_order(canonical)
    options = _options(canonical)
    space = 2 * _product(len(o) for o in options.values())
    complete: dict[str, PricedCandidate] = {}

    def keep(candidate: PricedCandidate) -> PricedCandidate:
        complete.setdefault(candidate.design.key_design.model_dump_json(), candidate)
        return candidate

    # the rule-based generator's designs and the all-own-partitions layouts are always priced: they seed the
    # bound and give the "separate partitions" runner-up
    for design in rule_based_designs(canonical):  # the canonical model has no design of its own
        keep(pricer.candidate(None, design))
    for share in (True, False):
        choice = LayoutChoice(tuple((name, OWN_PARTITION) for name in sorted(options)), share)
        keep(pricer.candidate(choice, generate_design(canonical, SEPARATE, choice)))
    best = min(complete.values(), key=PricedCandidate.rank_key)
    pruned = 0
    budget_hit = False
    # one sub-model per set of placed entities (every node at one depth has the same set): the plans and
    # indexes remembered with it serve every partial layout of that depth
    sub_models: dict[tuple[str, ...], Model] = {}
    for choice in _walk(canonical, order, options, exhaustive):
        if pricer.costed >= max_candidates and not exhaustive:
            budget_hit = True
            break
        if choice.complete:
            design = generate_design(canonical, COLLECTIONS, choice.layout)
            candidate = keep(pricer.candidate(choice.layout, design))
            if candidate.rank_key() < best.rank_key():
                best = candidate
            continue
        if choice.names not in sub_models:
            sub_models[choice.names] = _sub_model(canonical, set(choice.names))
        partial = sub_models[choice.names]
        design = generate_design(partial, COLLECTIONS, choice.layout)
        scans = sum(p.operation is Operation.SCAN for p in design.plans)
        bound = (scans, pricer.price(partial, design))
        if not exhaustive and bound > (len(best.scans), best.monthly_cost_usd) and not best.refused:
            choice.prune()
            pruned += 1
    ranked = tuple(sorted(complete.values(), key=PricedCandidate.rank_key))
    stats = SearchStats(pricer.costed, pruned, space, time.perf_counter() - started, exhaustive, budget_hit)
    return SearchResult(ranked[0], ranked, _unservable(canonical, ranked[0]), stats)


def _product(values: Iterator[int] | Any) -> int:
    total = 1
    for value in values:
        total *= value
    return total


@dataclass
class _Node:
    """A partial layout: placements for the first entities of the order, and the GSI policy."""

    names: tuple[str, ...]
    placements: tuple[tuple[str, Placement], ...]
    share_gsis: bool
    complete: bool
    pruned: list[bool] = field(default_factory=lambda: [False])

    @property
    def layout(self) -> LayoutChoice:
        return LayoutChoice(tuple(sorted(self.placements)), self.share_gsis)

    def prune(self) -> None:
        self.pruned[0] = True


def _walk(model: Model, order: list[str], options: dict[str, tuple[Placement, ...]],
          exhaustive: bool) -> Iterator[_Node]:
    """Depth first over placements in parent-first order; a pruned node's subtree is skipped.

    Exhaustive mode yields only complete layouts (every combination), for the benchmark's comparison.
    """
    for share in (True, False):
        if exhaustive:
            for combination in itertools.product(*(options[name] for name in order)):
                yield _Node(tuple(order), tuple(zip(order, combination, strict=True)), share, True)
            continue
        yield from _depth_first(order, options, share, ())


def _depth_first(order: list[str], options: dict[str, tuple[Placement, ...]], share: bool,
                 placed: tuple[tuple[str, Placement], ...]) -> Iterator[_Node]:
    """Partial layouts in depth-first order; a node the consumer prunes (after it is yielded) is not
    expanded. An explicit stack, not recursion: a model may have thousands of entities."""
    if not order:  # nothing to place: no partial layout (search_layouts answers NoDesign before walking)
        return
    stack = [_children(order, options, share, placed)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        yield node
        if not node.complete and not node.pruned[0]:
            stack.append(_children(order, options, share, node.placements))


def _children(order: list[str], options: dict[str, tuple[Placement, ...]], share: bool,
              placed: tuple[tuple[str, Placement], ...]) -> Iterator[_Node]:
    depth = len(placed)
    name = order[depth]
    for placement in options[name]:
        yield _Node(tuple(order[:depth + 1]), (*placed, (name, placement)), share, depth + 1 == len(order))


def _unservable(model: Model, best: PricedCandidate) -> tuple[str, ...]:
    """Why the best layout still scans (then no priced layout serves the pattern by key) or is refused."""
    reasons = []
    for name in best.scans:
        pattern = model.access_pattern(name)
        why = ("it is strongly consistent, a GSI cannot serve it (dynamodb-facts §4.1) and no table or LSI "
               "key is built from its inputs" if pattern is not None and pattern.consistency == "strong"
               else "no table or index key can be built from its inputs")
        reasons.append(f"{name}: every layout priced serves it with a Scan: {why}.")
    if best.refused:
        reasons.append(best.refused)
    return tuple(reasons)


# dynamodb-facts §4.2: with an LSI, an item collection (table items + LSI entries) may not exceed 10 GB
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
                    "an LSI caps a collection at 10 GB (dynamodb-facts §4.2).")
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
