"""DynamoDB's rules, in one place: capacity units per operation, item sizes, pages, index writes and limits.

Every number here is AWS's and cites docs/dynamodb-rules.md (`§n`). The checks
(`modeling.design.checks.estimates`), the planner, the hot-partition analysis and the cost engine
(`costs.units`, `costs.capacity`) all call these functions, so they cannot disagree on a rule; they
may still feed different sizes in, which is why the sizes come from here too (`attribute_value_bytes`).
Units are exact `Decimal`s (an eventually consistent read is half a unit); callers that want floats
convert once.

>>> read_units(Operation.QUERY, items=10, item_bytes=1536, strong=True)
Decimal('4')
"""

from __future__ import annotations

import math
from decimal import Decimal
from enum import StrEnum

from modeling import limits  # the lowest module: the model's own bounds need the item limit first
from modeling.model import Attribute, AttributeType, Entity, TextGenerator

# --- sizes and blocks: dynamodb-rules §0.2 (1 KB = 1,024 B), §1.1 ----------------------------------------
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
READ_UNIT_BYTES = 4 * 1024  # §1.1: reads round each item (or each Query/Scan page total) up to 4 KB
WRITE_UNIT_BYTES = 1024  # §1.1: writes round up to 1 KB
EVENTUAL_READ_FACTOR = Decimal("0.5")  # §1.1: eventually consistent = half a strong read
TRANSACTION_FACTOR = 2  # §2: every transactional item is read or written twice (prepare, commit)
PAGE_BYTES = limits.PAGE_BYTES  # a Query/Scan page, before the filter (modeling.limits)

# §0.2: a month is 730 hours (AWS Pricing Calculator convention; costs.pricing prices the same month)
HOURS_PER_MONTH = 730
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600


# --- the operations and what a write does to an index (the vocabulary of the rules below) -----------------------


class Operation(StrEnum):
    """DynamoDB API operations, spelled as AWS spells them."""

    GET_ITEM = "GetItem"
    QUERY = "Query"
    SCAN = "Scan"
    BATCH_GET_ITEM = "BatchGetItem"
    TRANSACT_GET_ITEMS = "TransactGetItems"
    PUT_ITEM = "PutItem"
    UPDATE_ITEM = "UpdateItem"
    DELETE_ITEM = "DeleteItem"
    BATCH_WRITE_ITEM = "BatchWriteItem"
    TRANSACT_WRITE_ITEMS = "TransactWriteItems"

    @property
    def is_write(self) -> bool:
        return self in _WRITES


_WRITES = frozenset({Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.DELETE_ITEM,
                     Operation.BATCH_WRITE_ITEM, Operation.TRANSACT_WRITE_ITEMS})


class IndexChange(StrEnum):
    """What a base-table write does to one index's entry (docs/dynamodb-rules.md §4.1)."""

    ENTERS = "enters"  # new item, or an update that adds the index keys: 1 put
    KEY_CHANGES = "key_changes"  # index key value A -> B: delete the old entry + put the new = 2 writes
    LEAVES = "leaves"  # an update removes an index key, or the item is deleted: 1 delete
    PROJECTED_ONLY = "projected_only"  # an update touches only projected non-key attributes: 1 write
    ABSENT = "absent"  # the item lacks the index keys before and after (sparse index): 0 writes

    @property
    def writes(self) -> int:
        return {IndexChange.KEY_CHANGES: 2, IndexChange.ABSENT: 0}.get(self, 1)


# --- limits: they live in modeling.limits, each with its source; the cost engine imports these names from here ---
MAX_ITEM_COLLECTION_BYTES = limits.MAX_ITEM_COLLECTION_BYTES
MAX_TRANSACTION_ITEMS = limits.MAX_TRANSACTION_ITEMS
MAX_BATCH_GET_ITEMS = limits.MAX_BATCH_GET_ITEMS
MAX_BATCH_WRITE_ITEMS = limits.MAX_BATCH_WRITE_ITEMS

# Value sizes assumed when an attribute gives no size hint and no text length (our defaults, not AWS's):
# a Number of ~14 digits is 8 bytes under §6's digit-pair rule; Boolean and Null are 1 byte (§6).
_DEFAULT_VALUE_BYTES = {AttributeType.N: 8, AttributeType.BOOL: 1, AttributeType.NULL: 1}
DEFAULT_OTHER_VALUE_BYTES = 32


def attribute_value_bytes(attribute: Attribute, largest: bool = False) -> int:
    """Value size of an attribute: its size hints, else its text generator's length, else a type default."""
    hints = (attribute.max_size_bytes, attribute.avg_size_bytes) if largest else (
        attribute.avg_size_bytes, attribute.max_size_bytes)
    for hint in hints:
        if hint is not None:
            return hint
    if isinstance(attribute.generator, TextGenerator):
        return attribute.generator.length_bytes
    return _DEFAULT_VALUE_BYTES.get(attribute.type, DEFAULT_OTHER_VALUE_BYTES)


def attribute_bytes(entity: Entity, largest: bool = False) -> int:
    """An entity's attributes as stored, without key attributes: names plus values (§6)."""
    return sum(len(a.name.encode()) + attribute_value_bytes(a, largest) for a in entity.attributes)


# --- blocks ------------------------------------------------------------------------------------------------


def read_unit_blocks(size_bytes: float) -> int:
    """4 KB blocks a read of `size_bytes` is charged for; reading nothing still costs one (§1.1, §1.2)."""
    return max(1, math.ceil(size_bytes / READ_UNIT_BYTES))


def write_unit_blocks(size_bytes: float) -> int:
    """1 KB blocks a write of `size_bytes` is charged for, at least one (§1.1: 500 B -> 1 WCU)."""
    return max(1, math.ceil(size_bytes / WRITE_UNIT_BYTES))


def read_factor(strong: bool) -> Decimal:
    """Units per 4 KB block: 1 strongly consistent, 0.5 eventually consistent (§1.1)."""
    return Decimal(1) if strong else EVENTUAL_READ_FACTOR


def items_per_page(entry_bytes: float, limit: int | None = None) -> int:
    """Items one Query/Scan page holds: `Limit`, and at most 1 MB of entries read (§8, before the filter)."""
    by_size = max(1, math.floor(PAGE_BYTES / max(entry_bytes, 1.0)))
    return min(by_size, limit) if limit else by_size


# --- units per request ---------------------------------------------------------------------------------------


def read_units(operation: Operation, items: float, item_bytes: float, strong: bool = False,
               entry_bytes: float | None = None, fetched_items: float = 0.0) -> Decimal:
    """Read units of one request that reads `items` items (an average may be fractional).

    GetItem/BatchGetItem round each item to 4 KB on its own (§1.2); TransactGetItems costs 2 units per
    4 KB block of each item (§2); Query/Scan add the sizes read (index entries, `entry_bytes`, on an
    index) and round the total once (§1.2, §4.1). `fetched_items` are whole base items an LSI query
    fetches, each rounded on its own (§4.2, W18).
    """
    per_item = read_unit_blocks(item_bytes)
    count = Decimal(repr(max(items, 0.0)))
    if operation in (Operation.GET_ITEM, Operation.BATCH_GET_ITEM):
        return max(Decimal(1), count) * per_item * read_factor(strong)
    if operation is Operation.TRANSACT_GET_ITEMS:
        return max(Decimal(1), count) * per_item * TRANSACTION_FACTOR
    read_bytes = max(items, 0.0) * (item_bytes if entry_bytes is None else entry_bytes)
    blocks = read_unit_blocks(read_bytes) + math.ceil(fetched_items) * per_item
    return blocks * read_factor(strong)


def write_units(operation: Operation, items: float, item_bytes: float) -> Decimal:
    """Table write units of one request: ceil(size / 1 KB) per item, x2 in a transaction (§1.2, §2).

    Put/Update size the larger of the old and new item (§1.2); pass that size.
    """
    per_item = write_unit_blocks(item_bytes)
    count = Decimal(1) if operation in (Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.DELETE_ITEM) \
        else max(Decimal(1), Decimal(repr(math.ceil(items))))
    factor = TRANSACTION_FACTOR if operation is Operation.TRANSACT_WRITE_ITEMS else 1
    return count * per_item * factor


def index_write_units(change: IndexChange, entry_bytes: float, old_entry_bytes: float | None = None) -> Decimal:
    """Write units one base-table write costs ONE index, sized on the index entry (§4.1, §4.2).

    A key change deletes the old entry and puts the new one (2 writes); entering or a projected change is
    one put; leaving is one delete; an item absent before and after costs nothing. Charged at 1x even
    inside a transaction (§2, [AWS-CODE] calculate_costs.py).
    """
    old_bytes = entry_bytes if old_entry_bytes is None else old_entry_bytes
    if change is IndexChange.ABSENT:
        return Decimal(0)
    if change is IndexChange.KEY_CHANGES:
        return Decimal(write_unit_blocks(old_bytes) + write_unit_blocks(entry_bytes))
    if change is IndexChange.LEAVES:
        return Decimal(write_unit_blocks(old_bytes))
    return Decimal(write_unit_blocks(entry_bytes))
