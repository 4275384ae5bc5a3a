"""Estimates as text: JSON, Markdown, CSV and plain text, for the command line and downloads.

Every format carries the same facts: the design priced, the Region and the price sheet's date, each
option's line items and total (an option missing a price says so, never $0), the recommendation with
its reason, capacity per access pattern and per index, and the assumptions.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from costs import cost_text
from costs.cost_text import option_display_rows, text_rows
from costs.estimate import ModelEstimate
from costs.monthly import CostEstimate, OptionEstimate
from costs.pricing import CostLineItem, price_sheet_file, price_source_line
from costs.usage import label
from modeling.design.design_report import markdown_table
from modeling.interop.spreadsheet import csv_text

_K = TypeVar("_K")  # a mapping's keys, any type: `plain` makes them text

LINE_ITEM_COLUMNS = ("option", "table class", "line item", "quantity", "unit", "unit price USD",
                     "monthly USD", "assumption", "confidence", "source")


def plain(value: Any) -> Any:
    """JSON-ready: Decimals as exact strings, enums as their values, dates as ISO text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain_mapping(document_fields(value))
    if isinstance(value, dict):
        return plain_mapping(value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal | date):
        return str(value)
    return value


def document_fields(value: Any) -> dict[str, Any]:
    """A dataclass's fields as a document holds them: a field marked `metadata={"document": False}` (a curve of
    1,440 minutes) is left out, and the names in its `DOCUMENT_PROPERTIES` (measured on demand) follow."""
    fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.metadata.get("document", True)}
    return {**fields, **{name: getattr(value, name) for name in getattr(value, "DOCUMENT_PROPERTIES", ())}}


def plain_mapping(value: Mapping[_K, object]) -> dict[str, Any]:
    """`plain` of a mapping: the keys as text."""
    return {str(plain(k)): plain(v) for k, v in value.items()}


def cost_estimate_document(estimate: CostEstimate, header: dict[str, Any]) -> dict[str, Any]:
    # an option not offered, or without a read/write/capacity price, has no subtotal: null, never "0"
    options = [{**plain(o), "monthly_total_usd": plain(o.monthly_total_usd),
                "priced_subtotal_usd": None if o.unavailable_reason or o.lacks_throughput_price
                else plain(o.priced_subtotal_usd), "is_complete": o.is_complete}
               for o in estimate.options]
    return plain_mapping({"region": estimate.region, "price_sheet_effective_date": estimate.price_sheet_effective_date,
                  **header, "options": options, "recommendation": estimate.recommendation,
                  "storage_projections": estimate.storage_projections, "assumptions": estimate.assumptions})


def cost_estimate_json(estimate: CostEstimate, header: dict[str, Any]) -> str:
    return json.dumps(cost_estimate_document(estimate, header), indent=2, ensure_ascii=False)


def cost_estimate_text(estimate: CostEstimate, header: dict[str, Any]) -> str:
    lines = [f"Region {estimate.region} (prices effective {estimate.price_sheet_effective_date}); "
             + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in header.items())]
    for option in estimate.options:
        lines += ["", option_title(option)]
        lines += [_line_text(item) for item in option.line_items]
    best = estimate.recommendation
    lines += ["", f"Recommendation: {best.reason}" if best else "No recommendation: no option has every price."]
    lines += [f"Quota: {finding}" for finding in estimate.quota_findings]
    return "\n".join([*lines, "", "Assumptions:", *(f"  - {a}" for a in estimate.assumptions)])


def _line_text(item: CostLineItem) -> str:
    if item.monthly_cost_usd is None:
        return f"  {item.name}: {cost_text.number(item.quantity)} x {item.unit}: price not available"
    flag = " (assumption)" if item.is_assumption else ""
    return (f"  {item.name}: {cost_text.number(item.quantity)} x {item.unit} @ {cost_text.price(item.unit_price_usd)}"
            f" = ${item.monthly_cost_usd:,}{flag}")


def option_title(option: OptionEstimate) -> str:
    title = f"{label(option.option)} ({label(option.table_class)})"
    return f"{title}: {option.status}"


# --- a model's estimate --------------------------------------------------------------------------------


def _header(result: ModelEstimate) -> dict[str, Any]:
    return {"design": result.design.name,
            "price_sheet": Path(result.price_sheet.source_file).name or "none (no price sheet for this Region)",
            "price_source": price_source_line(result.price_sheet)}


def estimate_json(result: ModelEstimate) -> str:
    document = cost_estimate_document(result.cost, _header(result))
    document["region_message"] = result.region_message
    document["quota_findings"] = list(result.cost.quota_findings)
    document.update(plain({"access_patterns": result.pattern_rows, "resources": result.resource_rows,
                           "design_comparison": result.comparison, "line_item_deltas": result.line_deltas}))
    return json.dumps(document, indent=2, ensure_ascii=False)


def estimate_text(result: ModelEstimate) -> str:
    text = cost_estimate_text(result.cost, _header(result))
    return f"{result.region_message}\n\n{text}" if result.region_message else text


def option_rows(estimate: CostEstimate) -> list[dict[str, Any]]:
    """One row per option: the total only when complete; otherwise the note says why (never $0)."""
    return [{"option": label(o.option), "table class": label(o.table_class),
             "monthly USD": o.monthly_total_usd, "upfront USD": o.upfront_usd or None,
             "note": (o.status if o.monthly_total_usd is None or not o.serves_peak else
                      ("some prices are assumptions" if o.has_assumptions else ""))}
            for o in estimate.options]


def line_item_rows(estimate: CostEstimate) -> list[dict[str, Any]]:
    return [{"option": label(o.option), "table class": label(o.table_class), "line item": i.name,
             "quantity": i.quantity, "unit": i.unit, "unit price USD": i.unit_price_usd,
             "monthly USD": i.monthly_cost_usd, "assumption": i.is_assumption, "confidence": i.confidence,
             "source": i.source}
            for o in estimate.options for i in o.line_items]


def estimate_csv(result: ModelEstimate) -> str:
    """Every line item of every option, one row each (totals are the sums per option)."""
    # numbers stay numbers (written exactly, a negative one is not a formula); text is made inert if need be
    rows = [{k: v if isinstance(v, str | Decimal | int | float) else plain(v) for k, v in row.items()}
            for row in line_item_rows(result.cost)]
    return csv_text(rows, LINE_ITEM_COLUMNS)  # text cells that start like a formula are made inert


def estimate_markdown(result: ModelEstimate) -> str:
    cost, best = result.cost, result.cost.recommendation
    parts = [f"# Capacity and cost: {result.design.name}\n\n",
             f"Region {cost.region}, prices effective {cost.price_sheet_effective_date} "
             f"({price_sheet_file(result.price_sheet)}). {price_source_line(result.price_sheet)}\n\n",
             f"**Region not priced.** {result.region_message}\n\n" if result.region_message else "",
             *(f"**Quota.** {finding}\n\n" for finding in cost.quota_findings),
             f"**Recommendation.** {best.reason}\n\n" if best else
             "**No recommendation**: no option has every price.\n\n",
             "## Options\n\n", _markdown_table(option_display_rows(cost)),
             "\n## Capacity per access pattern\n\n", _markdown_table(result.pattern_rows),
             "\n## Table and indexes\n\n", _markdown_table(result.resource_rows)]
    if result.comparison:
        parts += ["\n## Design comparison\n\n", _markdown_table(result.comparison)]
    parts += ["\n## Assumptions\n\n", *(f"- {a}\n" for a in cost.assumptions)]
    return "".join(parts)


def _markdown_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every cell as `costs.cost_text` writes it: amounts with units, "not available", never None or float noise."""
    return markdown_table(text_rows(rows), tuple(rows[0]) if rows else ())
