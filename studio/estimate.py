"""Capacity and monthly cost of a model, and the units and prices the quick calculators and lessons quote."""

from costs import cost_text
from costs.capacity import UsageExtras
from costs.design_ranking import chosen_design, proposal_refusal, propose
from costs.estimate import (
    EstimateRequest,
    ModelEstimate,
    UnknownRegionError,
    autoscaling_day,
    break_even_curve,
    cost_components,
    estimate_design,
    request_price_sheet,
)
from costs.item_size import item_size_bytes, parse_item_json
from costs.price_refresh import HOW_TO_REFRESH, credentials_available, refresh, result_lines
from costs.pricing import (
    CapacityDimension,
    PriceItem,
    PriceSheet,
    break_even_utilization,
    load_price_sheet,
    price_source_line,
    priced_regions,
    refreshed_sheet_stamp,
)
from costs.report_text import estimate_csv, estimate_markdown, line_item_rows
from costs.units import RequestUnits, batch_get_item_units, get_item_units, query_units, request_units
from costs.usage import CapacityOption, label
from modeling.limits import PARTITION_READ_UNITS, PARTITION_WRITE_UNITS
from modeling.model import TableClass

__all__ = ["HOW_TO_REFRESH", "PARTITION_READ_UNITS", "PARTITION_WRITE_UNITS", "CapacityDimension", "CapacityOption",
           "EstimateRequest", "ModelEstimate", "PriceItem", "PriceSheet", "RequestUnits", "TableClass",
           "UnknownRegionError", "UsageExtras", "autoscaling_day", "batch_get_item_units", "break_even_curve",
           "break_even_utilization", "cost_components", "cost_text", "credentials_available", "estimate_csv",
           "estimate_markdown", "estimate_model", "get_item_units", "item_size_bytes", "label", "line_item_rows",
           "load_price_sheet", "parse_item_json", "price_source_line", "priced_regions", "query_units", "refresh",
           "refreshed_sheet_stamp", "request_units", "result_lines"]


def estimate_model(request: EstimateRequest) -> ModelEstimate:
    """Capacity per access pattern and the monthly cost of every option for the request's design (the model's own,
    else the first proposal, or one by name), with the other candidates side by side: the search chooses the
    design here, the cost engine prices it (`costs.estimate.estimate_design`)."""
    sheet = request_price_sheet(request)
    designs = propose(request.model)  # the ranking's own prices are needed only for the comparison
    design = chosen_design(designs, request.design_name, proposal_refusal(request.model))
    return estimate_design(request, sheet, design, designs)
