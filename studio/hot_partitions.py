"""Hot partitions at design time: key populations and per-partition load against DynamoDB's limits."""

from modeling.hot_partitions import (
    PAGE_KEY_VALUES,
    BurstScenario,
    HotPartitionError,
    HotPartitionReport,
    HotPartitionRequest,
)
from modeling.hot_partitions import analyse_hot_partitions as _analyse_hot_partitions
from modeling.hot_partitions.display import display_frame

__all__ = ["PAGE_KEY_VALUES", "BurstScenario", "HotPartitionError", "HotPartitionReport", "HotPartitionRequest",
           "analyse_hot_partitions", "display_frame"]


def analyse_hot_partitions(request: HotPartitionRequest) -> HotPartitionReport:
    """The report for one design and index (`modeling.hot_partitions.analyse_hot_partitions`)."""
    return _analyse_hot_partitions(request)
