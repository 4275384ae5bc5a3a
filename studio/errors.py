"""The domain errors an edge catches (and translates once, into a message), and the problems it shows."""

from costs.errors import CostError, PriceListError, PriceSheetError, UsageError
from modeling.errors import (
    EndpointError,
    ModelFileError,
    ModelingError,
    Problem,
    Severity,
    WorkspaceConflictError,
    WorkspaceError,
    errors_only,
    problems_under,
)
from modeling.hot_partitions import HotPartitionError
from modeling.preview.loader import LoadInterrupted
from modeling.preview.requests import RequestBuildError
from modeling.preview.session import PreviewTableChanged

__all__ = ["CostError", "EndpointError", "HotPartitionError", "LoadInterrupted", "ModelFileError", "ModelingError",
           "PreviewTableChanged", "PriceListError", "PriceSheetError", "Problem", "RequestBuildError", "Severity",
           "UsageError", "WorkspaceConflictError", "WorkspaceError", "errors_only", "problems_under"]
