"""The analysis's frames as people read them: the product's column names, percentages and units.

The frames of `frames` keep machine columns (snake_case, shares as fractions such as 0.0000004, bytes) for
code, tests and exports; the page shows `display_frame(frame)`: each known column renamed with its unit,
shares and utilisations as percentages ("< 0.01%" below what two decimals can show, never 4e-07), bytes
as KB/MB/GB, rates rounded. Unknown columns are kept as they are, so a new column is never hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from modeling.design.plans import TABLE

_SMALLEST_PERCENT = 0.01


def percent(share: Any) -> str:
    """A fraction as a percentage for people.

    >>> [percent(x) for x in (0.5, 0.0000004, 0.0, 1.234, 12.5)]
    ['50.00%', '< 0.01%', '0%', '123.40%', '1,250%']
    """
    if share is None or pd.isna(share):
        return "—"
    value = float(share) * 100
    if value == 0:
        return "0%"
    if abs(value) < _SMALLEST_PERCENT:
        return "< 0.01%"
    return f"{value:,.0f}%" if abs(value) >= 1000 else f"{value:,.2f}%"


def size(byte_count: Any) -> str:
    """Bytes in the unit that reads best (1 KB = 1,024 bytes, as DynamoDB counts sizes: dynamodb-rules §6).

    >>> [size(b) for b in (0, 512, 2048, 3.5 * 2**20, 12 * 2**30)]
    ['0 B', '512 B', '2.0 KB', '3.5 MB', '12.0 GB']
    """
    if byte_count is None or pd.isna(byte_count):
        return "—"
    value = float(byte_count)
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if abs(value) >= scale:
            return f"{value / scale:,.1f} {unit}"
    return f"{value:,.0f} B"


def _rounded(digits: int) -> Callable[[Any], Any]:
    return lambda x: x if x is None or pd.isna(x) else round(float(x), digits)


def _index_name(name: Any) -> Any:
    return "Table" if name == TABLE else name


def _times(x: Any) -> str:
    return "—" if x is None or pd.isna(x) else f"× {float(x):,.3g}"


def _sentence(text: Any) -> Any:
    return text[:1].upper() + text[1:] if isinstance(text, str) else text


# machine column -> (label with its unit, how a value is shown)
COLUMNS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "index": ("Table or index", _index_name),
    "key_rank": ("Rank", lambda x: x),
    "key_value": ("Partition-key value", lambda x: x),
    "template": ("Key template", lambda x: x),
    "partition_key": ("Partition key", lambda x: x),
    "entity": ("Entity", lambda x: x),
    "partition": ("Partition", lambda x: x),
    "hour": ("Hour (UTC)", lambda x: x),
    "time_seconds": ("Time (s)", _rounded(2)),
    "key_values": ("Key values", _rounded(0)),
    "items": ("Items", _rounded(1)),
    "partitions": ("Partitions", lambda x: x),
    "collection_bytes": ("Item collection", size),
    "bytes": ("Stored", size),
    "largest_collection_bytes": ("Largest item collection", size),
    "largest_collection_share_of_10gb": ("Largest collection (% of 10 GB)", percent),
    "read_units_per_second": ("Reads (RCU/s at peak)", _rounded(2)),
    "write_units_per_second": ("Writes (WCU/s at peak)", _rounded(2)),
    "utilisation": ("Load (% of one partition)", percent),
    "burst_utilisation": ("Burst load (% of one partition)", percent),
    "excess_utilisation": ("Over the partition's limit", percent),
    "key_excess_utilisation": ("Over a key value's limit", percent),
    "traffic_share": ("Share of the index's traffic", percent),
    "top_pattern": ("Busiest access pattern", lambda x: x),
    "top1_traffic_share": ("Busiest key's share of traffic", percent),
    "top10_traffic_share": ("Top 10 keys' share of traffic", percent),
    "top1_item_share": ("Busiest key's share of items", percent),
    "top10_item_share": ("Top 10 keys' share of items", percent),
    "max_to_mean_partition": ("Busiest partition ÷ mean", _times),
    "gini": ("Gini (0 even, 1 one key takes all)", _rounded(3)),
    "busiest_key_utilisation": ("Busiest key (% of one partition)", percent),
    "busiest_partition_utilisation": ("Busiest partition (% of one partition)", percent),
    "burst_key_utilisation": ("Busiest key in the burst (% of one partition)", percent),
    "shard_count": ("Write shards", lambda x: x),
    "read_request_multiplier": ("Queries per read of the key", _times),
    "verdict": ("Verdict", _sentence),
}


def display_frame(frame: pd.DataFrame, drop: tuple[str, ...] = ()) -> pd.DataFrame:
    """`frame` with the product's labels and units (a copy; the machine frame is untouched)."""
    shown = frame.drop(columns=[c for c in drop if c in frame.columns])
    columns = {}
    for name in shown.columns:
        label, show = COLUMNS.get(name, (name, lambda x: x))
        columns[label] = [show(v) for v in shown[name].tolist()]
    return pd.DataFrame(columns, index=range(len(shown)))
