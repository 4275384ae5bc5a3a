"""The cost engine's pricing for the key-design search (`modeling.design.search.SearchPricing`).

The search (`modeling.design.search`) finds the cheapest layout by best-first branch and bound; what a layout
costs is this module's answer: the model's seeded sample items sized under the layout (`costs.capacity`), the
monthly total of the option the estimate recommends (`costs.monthly.recommended_subtotal_usd`: the cheapest of
on-demand, provisioned, auto scaling and reserved, in both table classes) with the on-demand total beside it.
A partial layout (a sub-model of the placed entities) is priced with every other pattern and item at its floor,
the least any layout can charge it: the search's admissible lower bound (see `modeling.design.search`).
`modeling` never imports `costs`: `studio.design` (and `costs.design_ranking` for the cost engine's own
callers) pass `SEARCH_PRICING` to the search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal

from costs.capacity import CapacityProfile, PatternCapacity, capacity_profile, table_usage
from costs.monthly import option_estimate, recommended_subtotal_usd
from costs.pricing import PriceItem, PriceSheet, load_price_sheet, price_sheet_for
from costs.usage import CapacityOption, EstimateOptions
from modeling.data.sample_data import generate_items
from modeling.design.plans import TABLE, Design, Operation
from modeling.design.sizing import EntitySize, SizingMemo, attribute_bytes_floor
from modeling.dynamodb_rules import read_factor, write_unit_blocks
from modeling.model import Consistency, Model, PatternKind, TableClass

SEARCH_SAMPLE_ITEMS = 12  # sample items per entity for sizes while searching (the final estimate uses more)
# the objective's options: every capacity option in both classes, as the estimate's recommendation compares them
OBJECTIVE_OPTIONS = EstimateOptions()

# The search only orders layouts by what they cost relative to each other. In a Region whose sheet does
# not price on-demand requests, it orders them at this Region's rates; no figure from it is shown: the
# ranking's costs are estimated with the model's own Region's sheet, and say "not available" there.
RANKING_REFERENCE_REGION = "us-east-1"


def ranking_sheet(region: str, table_class: TableClass) -> PriceSheet:
    sheet = price_sheet_for(region)
    known = all(sheet.price(item, table_class).value is not None for item in (
        PriceItem.ON_DEMAND_READ_REQUEST_UNITS, PriceItem.ON_DEMAND_WRITE_REQUEST_UNITS))
    return sheet if known else load_price_sheet(RANKING_REFERENCE_REGION)


@dataclass(frozen=True)
class CostSearchPricing:
    """The cost engine's `SearchPricing`: `sheet`, or None for the model's Region's (`ranking_sheet`)."""

    sheet: PriceSheet | None = None

    def pricer(self, model: Model) -> CostLayoutPricer:
        return CostLayoutPricer(model, self.sheet)


SEARCH_PRICING = CostSearchPricing()


class CostLayoutPricer:
    """Prices designs of one (canonical) model; samples and price sheet drawn once (`LayoutPricer`)."""

    def __init__(self, model: Model, sheet: PriceSheet | None = None) -> None:
        self.model = model
        self.sheet = sheet or ranking_sheet(model.table.region, model.table.table_class)
        self.items = generate_items(model, SEARCH_SAMPLE_ITEMS)
        self.on_demand = EstimateOptions(capacity_options=(CapacityOption.ON_DEMAND,),
                                         table_classes=(model.table.table_class,))
        self.sizing = SizingMemo()  # for self.items: most entities are keyed alike in most layouts
        self._entity_bytes_floor = {e.name: attribute_bytes_floor(e, self.items[e.name]) for e in model.entities}
        self._floors = _pattern_floors(model, self._entity_bytes_floor)

    def price(self, model: Model, design: Design) -> tuple[Decimal, Decimal]:
        """(objective, on-demand total) of a complete design, or the lower bound of a partial one (`model` a
        sub-model of the placed entities: the patterns and items not in it are added at their floors)."""
        items = {e.name: self.items[e.name] for e in model.entities}
        profile = capacity_profile(model, design, sample_items_per_entity=SEARCH_SAMPLE_ITEMS, items=items,
                                   sizing_memo=self.sizing)
        if len(model.entities) < len(self.model.entities):
            model, profile = self._with_floors(model, profile)
        usage = table_usage(model, design, profile)
        on_demand = option_estimate(usage, self.sheet, self.on_demand, CapacityOption.ON_DEMAND,
                                    model.table.table_class).priced_subtotal_usd
        recommended = recommended_subtotal_usd(usage, self.sheet, OBJECTIVE_OPTIONS)
        return (on_demand if recommended is None else recommended, on_demand)

    def _with_floors(self, placed: Model, profile: CapacityProfile) -> tuple[Model, CapacityProfile]:
        names = {e.name for e in placed.entities}
        missing_entities = tuple(e for e in self.model.entities if e.name not in names)
        in_model = {p.name for p in placed.access_patterns}
        floors = tuple(f for name, f in self._floors if name not in in_model)
        sizes = tuple(EntitySize(e.name, *(4 * [math.floor(self._entity_bytes_floor[e.name])]))
                      for e in missing_entities)
        whole = placed.model_copy(update={"entities": (*placed.entities, *missing_entities)})
        return whole, replace(profile, entity_sizes=(*profile.entity_sizes, *sizes),
                              patterns=(*profile.patterns, *floors))


_WRITE_KINDS = frozenset({PatternKind.WRITE, PatternKind.UPDATE, PatternKind.DELETE, PatternKind.TRANSACT_WRITE,
                          PatternKind.BATCH_WRITE})


def _pattern_floors(model: Model, entity_bytes: dict[str, float]) -> tuple[tuple[str, PatternCapacity], ...]:
    """Each pattern at the least any layout charges it, on the base table (see the module docstring)."""
    floors = []
    for pattern in model.access_patterns:
        is_write = pattern.kind in _WRITE_KINDS
        smallest = min((entity_bytes.get(name, 0.0) for name in pattern.entities), default=0.0)
        written = (Decimal(repr(min(1.0, float(pattern.expected_items)))) * write_unit_blocks(math.floor(smallest))
                   if is_write else Decimal(0))
        read = Decimal(0) if is_write else read_factor(pattern.consistency is Consistency.STRONG)
        floors.append((pattern.name, PatternCapacity(
            pattern.name, Operation.QUERY, TABLE, read, written, (), pattern.traffic.peak_requests_per_second,
            pattern.traffic.average_requests_per_second, 0.0, 0.0)))
    return tuple(floors)
