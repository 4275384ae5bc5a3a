"""The domain errors an edge catches (and translates once, into a message), and the problems it shows."""

from costs.errors import CostError, PriceSheetError, UsageError
from modeling.errors import EndpointError, ModelFileError, ModelingError, Problem, Severity, problems_under
from modeling.hot_partitions import HotPartitionError
from modeling.preview.session import PreviewTableChanged

__all__ = ["CostError", "EndpointError", "HotPartitionError", "ModelFileError", "ModelingError", "PreviewTableChanged",
           "PriceSheetError", "Problem", "Severity", "UsageError", "problems_under"]
