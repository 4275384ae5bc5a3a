"""One design's capacity, usage and monthly cost, remembered by content.

The design ranking prices every design it lists, and the estimate prices the same designs again for the
chosen one and its comparison, most often with the same settings (the default target, no free tier): each
(model, design, price sheet, options) is priced once, whoever asks first. Keyed by the model's JSON and
the reprs of the design, the sheet (with any negotiated price) and the options, never by object identity.
"""

from __future__ import annotations

from costs.capacity import CapacityProfile, UsageExtras, capacity_profile, table_usage
from costs.monthly import CostEstimate, estimate_monthly_cost
from costs.pricing import PriceSheet
from costs.usage import EstimateOptions, TableUsage
from modeling.design.plans import Design
from modeling.memo import ContentMemo, content_key
from modeling.model import Model

PricedDesign = tuple[CapacityProfile, TableUsage, CostEstimate]
_PRICED: ContentMemo[PricedDesign] = ContentMemo("priced designs", 64)


def priced_design(model: Model, design: Design, sheet: PriceSheet, options: EstimateOptions | None = None,
                  free_tier: bool = False, extras: UsageExtras | None = None,
                 model_json: str | None = None) -> PricedDesign:
    """(capacity profile, usage, monthly cost) of `design`, sized on the model's seeded sample items.

    `model_json`: `model.model_dump_json()` when the caller has it (a 500-entity model takes ~30 ms to dump,
    and a comparison prices every design)."""
    options, extras = options or EstimateOptions(), extras or UsageExtras()

    def compute() -> PricedDesign:
        profile = capacity_profile(model, design)
        usage = table_usage(model, design, profile, free_tier, extras)
        return profile, usage, estimate_monthly_cost(usage, sheet, options)

    content = model_json if model_json is not None else model.model_dump_json()
    key = content_key(content, repr(design), repr(sheet), repr(options), repr(extras), str(free_tier))
    return _PRICED.get(key, compute)
