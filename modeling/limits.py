"""Every size a model may ask for, in one place, with the reason for each number.

A model is untrusted input (a file, a share link of a few hundred characters): each figure below bounds
how much work or memory one model can demand, and is enforced when the document is validated
(`modeling.model` fields, reported by `modeling.model_file` with the path, the value, the limit and the fix).
The simulations never allocate per item: counts can stay as large as real tables (10^12 items and more)
because the hot-partition analysis and the cost engine work on sampled or grouped populations (see
`MAX_SIMULATED_PARTITIONS` and `modeling.hot_partitions.frames.MAX_KEY_VALUES`).

DynamoDB figures cite docs/dynamodb-rules.md; the others are product choices, each sized to
leave real designs far inside it.
"""

from __future__ import annotations

# --- how much: counts a real table can reach -------------------------------------------------------------

# Items per entity. DynamoDB tables have no item limit; 10^15 items of even 100 bytes is 100 PB, far above any
# real table (the largest public ones hold ~10^13 items), and still exact as a float64 (below 2^53).
MAX_ITEM_COUNT = 10**15
# Requests per second of one access pattern (peak or average). 10^9/s is 25,000x the default table quota of
# 40,000 units/s (dynamodb-rules §8), room for any quota increase.
MAX_REQUESTS_PER_SECOND = 1e9
# Items one request reads or writes (expected_items) and a relationship's children per parent: bounded by the
# item count, since a request cannot touch more items than exist.
MAX_ITEMS_PER_REQUEST = 1e9
MAX_CARDINALITY = MAX_ITEM_COUNT

# --- how much work: what the simulations allocate, whatever the counts above -----------------------------------

# Key values simulated per partition-key template (hot partitions); beyond it the coldest ranks are grouped into
# rows that each stand for many key values. 10 million rows is ~1 GB of working columns at most.
MAX_KEY_VALUES = 10_000_000
# Physical partitions simulated per index. An index needs one partition per 10 GB (dynamodb-rules §7.1), so
# 10^15 items of 200 B ask for ~20 million; beyond this many, the per-partition figures are a uniform sample of
# partitions that always holds the busiest key value's partition (each sampled partition exact, the index
# totals unchanged). 100,000 matches the largest partition count the Hot partitions page accepts.
MAX_SIMULATED_PARTITIONS = 100_000
# Cells (partitions x time bins) of the burst timeline: beyond it only the busiest partitions are kept.
MAX_TIMELINE_CELLS = 2_000_000

# Sample items the cost engine generates to size items, across the whole model: 200 per entity up to 100
# entities, fewer per entity beyond (never under MIN_SAMPLE_ITEMS_PER_ENTITY), so sizing stays linear in the
# entities and a 1,500-entity model costs seconds, not minutes.
MAX_SAMPLE_ITEMS_PER_MODEL = 20_000
MIN_SAMPLE_ITEMS_PER_ENTITY = 10
# Filler text up to this length comes from Faker whole; longer text repeats a Faker paragraph of this length
# (the bytes, not the prose, matter for sizing), so a 400 KB attribute costs what a 2 KB one does. Longer filler
# is also drawn once per attribute and shared by every sample item (the same string, not a copy per item) unless
# the attribute must differ between items (unique or an identifier): its size is exact either way.
MAX_FAKER_TEXT_CHARS = 2_000
# Memory one draw of sample items may hold, as `modeling.sample_footprint.sample_footprint_bytes` estimates it.
# A 512-character share link of ten 409,000-byte text attributes drew 200 distinct copies of each: 0.78 GB per
# model, and eight such links took a 9 GB server down (issue 30). The six examples hold 0.4-1.8 MB, so 64 MiB is
# ~35x the largest, and 16 cached draws (`modeling.design.sizing`) stay within a few hundred MB. The cost engine
# draws fewer items per entity (never under MIN_SAMPLE_ITEMS_PER_ENTITY) to fit; a model that does not fit even
# then is refused with what is too big (`modeling.validation`).
MAX_SAMPLE_BYTES_PER_MODEL = 64 * 1024**2
# Sample draws the process keeps for reuse (the sizing of every design and page rerun of a model draws the same
# items), across all sessions: the oldest are dropped beyond this many bytes, so hostile models evict each other
# instead of piling up (the newest is always kept while in use).
MAX_CACHED_SAMPLE_BYTES = 2 * MAX_SAMPLE_BYTES_PER_MODEL

# --- how big: sizes DynamoDB itself caps ---------------------------------------------------------------------

# dynamodb-rules §6 (Limits and overheads): an item is at most 400 KB (1 KB = 1,024 B, §0.2), so neither one
# attribute nor the filler text of a generator can be larger.
MAX_ITEM_BYTES = 400 * 1024
MAX_ATTRIBUTE_BYTES = MAX_ITEM_BYTES
# dynamodb-rules §6: Numbers have at most 38 significant digits; an integer range beyond +-10^38 cannot be
# stored as a DynamoDB Number (and would overflow the float arithmetic of the simulations).
MAX_NUMBER_MAGNITUDE = 10**38

# --- DynamoDB's own limits and default quotas ------------------------------------------------------------------
# Each cites AWS's page and the section of docs/dynamodb-rules.md that restates it. Sizes are binary (1 KB =
# 1,024 B, docs/dynamodb-rules.md §0.2, as the note atop ServiceQuotas.html says). Every module that needs one of
# these imports it from here; `modeling.dynamodb_rules` keeps the names its callers import.

# Key values: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
# (docs/dynamodb-rules.md §6, Limits and overheads): a partition key value is 1-2,048 bytes, a sort key 1-1,024.
MAX_PARTITION_KEY_BYTES = 2048
MAX_SORT_KEY_BYTES = 1024
# Numbers: at most 38 significant digits (ServiceQuotas.html, Data types; docs/dynamodb-rules.md §6).
MAX_NUMBER_SIGNIFICANT_DIGITS = 38
# Documents (lists and maps) nest at most 32 levels (ServiceQuotas.html, Attributes; docs/dynamodb-rules.md §6).
MAX_NESTING_LEVELS = 32
# Attribute names: up to 64 KB, but a name used as an index key, or projected into an LSI, is at most 255 bytes
# (ServiceQuotas.html, Attributes; docs/dynamodb-rules.md §6).
MAX_ATTRIBUTE_NAME_BYTES = 64 * 1024
MAX_KEY_ATTRIBUTE_NAME_BYTES = 255
# Table and index names: 3 to 255 characters of A-Z a-z 0-9 _ . - (ServiceQuotas.html, Table names and
# secondary index names; also
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html).
# docs/dynamodb-rules.md has no section on names; AWS's pages are the source.
MIN_TABLE_NAME_CHARS = 3
MAX_TABLE_NAME_CHARS = 255
TABLE_NAME_CHARACTER = r"[A-Za-z0-9_.\-]"
TABLE_NAME_PATTERN = rf"^{TABLE_NAME_CHARACTER}+$"

# Item collections and partitions: with an LSI, the items sharing a partition key value (and their LSI entries)
# hold at most 10 GB (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html,
# docs/dynamodb-rules.md §4.2); one partition holds at most 10 GB (ServiceQuotas.html, docs/dynamodb-rules.md §7.1).
MAX_ITEM_COLLECTION_BYTES = 10 * 1024**3
MAX_PARTITION_BYTES = 10 * 1024**3
# One partition serves at most 3,000 read units and 1,000 write units a second, or a linear mix of the two
# (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html,
# docs/dynamodb-rules.md §7.1).
PARTITION_READ_UNITS = 3000
PARTITION_WRITE_UNITS = 1000

# Indexes per table: 20 GSIs (a default quota that can be raised) and 5 LSIs (fixed); at most 100 projected
# non-key attributes (INCLUDE) over all of a table's indexes (ServiceQuotas.html, docs/dynamodb-rules.md §8).
MAX_GSIS_PER_TABLE = 20
MAX_LSIS_PER_TABLE = 5
MAX_PROJECTED_NON_KEY_ATTRIBUTES = 100

# One Query or Scan page reads at most 1 MB, counted before any filter
# (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html,
# docs/dynamodb-rules.md §8).
PAGE_BYTES = 1024 * 1024
# Batches: BatchGetItem takes at most 100 keys, BatchWriteItem 25 puts or deletes, each at most 16 MB
# (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html,
# https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html, docs/dynamodb-rules.md §8).
MAX_BATCH_GET_ITEMS = 100
MAX_BATCH_WRITE_ITEMS = 25
MAX_BATCH_BYTES = 16 * 1024**2
# Transactions: at most 100 actions on distinct items and 4 MB in all
# (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html,
# docs/dynamodb-rules.md §2 and §8).
MAX_TRANSACTION_ITEMS = 100
MAX_TRANSACTION_BYTES = 4 * 1024**2
# ListTables returns at most 100 names a call (its largest Limit,
# https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ListTables.html; not in docs/dynamodb-rules.md).
MAX_LIST_TABLES_PAGE = 100

# Throughput quotas, defaults that can be raised (https://docs.aws.amazon.com/general/latest/gr/ddb.html,
# ServiceQuotas.html; docs/dynamodb-rules.md §8): 40,000 read and 40,000 write units a second per table (the
# table plus its GSIs, provisioned or on-demand), 80,000 provisioned units per account and Region.
TABLE_THROUGHPUT_QUOTA_UNITS = 40_000
ACCOUNT_PROVISIONED_QUOTA_UNITS = 80_000

# --- how many: the shape of a model --------------------------------------------------------------------------

# Entities in one model. DynamoDB sets no limit; single-table designs hold a few dozen entity types, and the
# largest enterprise models we know of a few hundred. 2,000 leaves that room while bounding the key-design
# search and the per-entity checks (the CLI benchmark bench/large_model_bench.py runs at this size).
MAX_ENTITIES = 2_000
# Attributes per entity. An item of 400 KB holds at most a few thousand tiny attributes (each costs its name's
# bytes, §6); real entities have tens. 1,000 bounds the per-attribute work of sizing and checks.
MAX_ATTRIBUTES_PER_ENTITY = 1_000
# Relationships and access patterns: a few per entity in real models (every entity read, listed and written).
MAX_RELATIONSHIPS = 2 * MAX_ENTITIES
MAX_ACCESS_PATTERNS = 5 * MAX_ENTITIES
# Values of one enum generator (and its weights): a closed set of statuses or categories, not a column of data.
MAX_ENUM_VALUES = 10_000


def describe(limit: float | int) -> str:
    """A limit as people read it: 1,000,000,000,000,000 or 409,600."""
    if isinstance(limit, int):
        return f"{limit:,}"
    return f"{limit:,.0f}" if float(limit).is_integer() and abs(limit) < 2**53 else f"{limit:,.6g}"


# What to do when a value is over its limit, by the field's name (the last name in its path).
FIXES = {
    "item_count": "DynamoDB tables hold at most about 10^15 items in practice; enter the real expected count",
    "entities": "split the model: one model per table or service",
    "attributes": "keep the attributes the access patterns and key design use; store the rest as one map (M)",
    "relationships": "keep the relationships the key design uses",
    "access_patterns": "keep the distinct access patterns; merge ones that read the same keys the same way",
    "values": "an enum is a small closed set; use a text or int_range generator for open-ended values",
    "weights": "give one weight per enum value",
    "avg_size_bytes": "DynamoDB items are at most 400 KB "
                      "(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); "
                      "store larger values in S3 and keep a pointer",
    "max_size_bytes": "DynamoDB items are at most 400 KB "
                      "(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html); "
                      "store larger values in S3 and keep a pointer",
    "length_bytes": "DynamoDB items are at most 400 KB "
                    "(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)",
    "peak_requests_per_second": "enter the real rate in requests per second",
    "average_requests_per_second": "enter the real rate in requests per second",
    "expected_items": "enter how many items one request really reads or writes",
    "cardinality.mean": "enter how many children one parent really has",
    "cardinality.max": "enter the largest number of children one parent really has",
    "int_range.min": "DynamoDB Numbers have at most 38 significant digits (https://docs.aws.amazon.com/"
                      "amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)",
    "int_range.max": "DynamoDB Numbers have at most 38 significant digits (https://docs.aws.amazon.com/"
                      "amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)",
    "sequence.start": "DynamoDB Numbers have at most 38 significant digits (https://docs.aws.amazon.com/"
                      "amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)",
}
