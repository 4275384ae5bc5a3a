"""Hot partitions at design time: key populations, per-key and per-partition load, bursts, what-ifs.

From a model and one of its designs, this package builds the partition-key population of the table and
every GSI (up to 10 million key values per template, vectorised, seeded), spreads each access pattern's
peak traffic over the key values, hashes key values onto physical partitions and compares the load with
DynamoDB's per-partition limits (3,000 RCU, 1,000 WCU, 10 GB: dynamodb-rules §7.1). Every figure is
APPROXIMATE. The page calls `analyse_hot_partitions(HotPartitionRequest(...))`; charts live in
`modeling.charts`, which nothing here imports.
"""

from modeling.hot_partitions.analysis import (
    PAGE_KEY_VALUES,
    BurstScenario,
    HotPartitionError,
    HotPartitionReport,
    HotPartitionRequest,
    analyse_hot_partitions,
)
from modeling.hot_partitions.findings import HotPartitionFinding
from modeling.hot_partitions.frames import (
    ALTERNATIVE_COLUMNS,
    HOURLY_COLUMNS,
    KEY_COLUMNS,
    KEY_PROFILE_COLUMNS,
    PARTITION_COLUMNS,
    SHARDING_COLUMNS,
    SKEW_COLUMNS,
    TIMELINE_COLUMNS,
)

__all__ = [
    "ALTERNATIVE_COLUMNS",
    "HOURLY_COLUMNS",
    "KEY_COLUMNS",
    "KEY_PROFILE_COLUMNS",
    "PAGE_KEY_VALUES",
    "PARTITION_COLUMNS",
    "SHARDING_COLUMNS",
    "SKEW_COLUMNS",
    "TIMELINE_COLUMNS",
    "BurstScenario",
    "HotPartitionError",
    "HotPartitionFinding",
    "HotPartitionReport",
    "HotPartitionRequest",
    "analyse_hot_partitions",
]
