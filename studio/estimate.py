"""Capacity and monthly cost of a model, and the units and prices the quick calculators and lessons quote."""

from costs.estimate import EstimateRequest, ModelEstimate, UnknownRegionError
from costs.estimate import estimate_model as _estimate_model
from costs.pricing import CapacityDimension, PriceSheet, break_even_utilization, load_price_sheet
from costs.units import RequestUnits, batch_get_item_units, get_item_units, query_units
from costs.usage import CapacityOption, label
from modeling.limits import PARTITION_READ_UNITS, PARTITION_WRITE_UNITS
from modeling.model import TableClass

__all__ = ["PARTITION_READ_UNITS", "PARTITION_WRITE_UNITS", "CapacityDimension", "CapacityOption", "EstimateRequest",
           "ModelEstimate", "PriceSheet", "RequestUnits", "TableClass", "UnknownRegionError", "batch_get_item_units",
           "break_even_utilization", "estimate_model", "get_item_units", "label", "load_price_sheet", "query_units"]


def estimate_model(request: EstimateRequest) -> ModelEstimate:
    """Capacity per access pattern and the monthly cost of every option (`costs.estimate.estimate_model`)."""
    return _estimate_model(request)
