"""Constants and the documented columns of every frame the hot-partition analysis returns.

The per-partition limits are AWS's (dynamodb-facts §7.1), reused from the checks' estimates so the
DDS103 check and this analysis agree; everything computed with them is APPROXIMATE (see `load`).
Every frame is tidy: one row per observation, the columns listed here in this order.
"""

from __future__ import annotations

from modeling.design.checks.estimates import (
    READ_BLOCK_BYTES,
    WRITE_BLOCK_BYTES,
)
from modeling.dynamodb_rules import MAX_ITEM_COLLECTION_BYTES, PARTITION_READ_UNITS, PARTITION_WRITE_UNITS
from modeling.limits import MAX_KEY_VALUES  # key values simulated per template; the coldest ranks beyond are grouped

__all__ = [
    "ALTERNATIVE_COLUMNS", "HOURLY_COLUMNS", "KEY_COLUMNS", "KEY_PROFILE_COLUMNS", "MAX_ITEM_COLLECTION_BYTES",
    "MAX_KEY_VALUES", "PARTITION_BYTES", "PARTITION_COLUMNS", "PARTITION_READ_UNITS", "PARTITION_WRITE_UNITS",
    "READ_BLOCK_BYTES", "SHARDING_COLUMNS", "SKEW_COLUMNS", "TIMELINE_COLUMNS", "WRITE_BLOCK_BYTES",
]

# dynamodb-facts §7.1: a partition holds at most 10 GB (the same figure as the LSI item-collection cap, §4.2)
PARTITION_BYTES = MAX_ITEM_COLLECTION_BYTES
# Share of one partition at which a key or partition counts as hot (product choice, as in checks DDS103).
HOT_UTILISATION = 0.5

# One row per partition-key value shown (the top-N per physical index, Contributor Insights style).
KEY_COLUMNS = (
    "index",  # TABLE ("table") or a GSI name; LSIs share the table's partitions (dynamodb-facts §4.2)
    "key_rank",  # 1 = busiest key value at peak on this index
    "key_value",  # rendered label, e.g. STATUS#ACTIVE or STUDENT#<rank 1>
    "template",  # the partition-key template it comes from
    "items",  # items (or index entries) under this key value
    "collection_bytes",  # item-collection size, LSI entries included on the table
    "read_units_per_second",  # approximate RCU/s at peak
    "write_units_per_second",  # approximate WCU/s at peak
    "utilisation",  # share of one partition: RCU/3,000 + WCU/1,000 (dynamodb-facts §7.1)
    "traffic_share",  # share of the index's utilisation
    "partition",  # physical partition the key hashes to
    "top_pattern",  # the access pattern that loads it most
)
# Per-key utilisation by rank, thinned logarithmically (all top ranks, then ever sparser) for the histogram.
KEY_PROFILE_COLUMNS = ("index", "key_rank", "read_units_per_second", "write_units_per_second", "utilisation")
# One row per physical partition; per index the rows add up to the index's total traffic and items.
PARTITION_COLUMNS = (
    "index", "partition", "key_values", "items", "bytes", "read_units_per_second", "write_units_per_second",
    "utilisation", "busiest_key_utilisation",
)
# The daily profile (UTC hours), per index: peak rates scaled by the model's traffic profile.
HOURLY_COLUMNS = (
    "index", "hour", "read_units_per_second", "write_units_per_second", "busiest_key_utilisation",
    "busiest_partition_utilisation",
)
# Partition-by-time load of the analysed index under the burst scenario (one row per partition and time bin).
TIMELINE_COLUMNS = (
    "index", "partition", "time_seconds",
    "utilisation",  # share of one partition's capacity in the bin (rate averaged over the bin)
    "burst_utilisation",  # the part of it the burst adds
    "excess_utilisation",  # above 1.0 on the partition as it stands: throttled unless capacity is isolated
    "key_excess_utilisation",  # above 1.0 on single key values: throttled whatever adaptive capacity does
)
# Skew metrics, one row per physical index (what-if variants use the same columns).
SKEW_COLUMNS = (
    "index", "key_values", "items", "partitions", "top1_traffic_share", "top10_traffic_share",
    "top1_item_share", "top10_item_share", "max_to_mean_partition", "gini",
    "largest_collection_bytes", "largest_collection_share_of_10gb", "busiest_key_utilisation", "verdict",
)
# Write-sharding what-if: the analysed index with its hot key split into N suffixes.
SHARDING_COLUMNS = (
    "shard_count", "busiest_key_utilisation", "burst_key_utilisation", "top1_traffic_share", "gini",
    "read_request_multiplier", "verdict",
)
# Alternative partition keys for one entity, side by side.
ALTERNATIVE_COLUMNS = (
    "entity", "partition_key", "key_values", "top1_traffic_share", "top10_traffic_share", "top1_item_share",
    "gini", "busiest_key_utilisation", "largest_collection_bytes", "verdict",
)
