"""Capacity units one request consumes: one small function per AWS rule.

The numbers are the same whether the table is provisioned (RCU/WCU per second) or on-demand
(RRU/WRU per request), so functions return `RequestUnits(read_units, write_units)` as exact Decimals
(eventual reads are halves). Sizes are item sizes in bytes from `costs.item_size`.
Rules: dynamodb-rules §1.1, §1.2, §2, §4
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html

>>> get_item_units(8 * 1024, Consistency.STRONG).read_units
Decimal('2')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from costs.errors import RequestShapeError
from modeling import dynamodb_rules as rules
from modeling.design.plans import IndexChange, Operation
from modeling.dynamodb_rules import (  # noqa: F401  (the rules live in modeling.dynamodb_rules; names kept)
    EVENTUAL_READ_FACTOR,
    READ_UNIT_BYTES,
    TRANSACTION_FACTOR,
    WRITE_UNIT_BYTES,
)
from modeling.model import Consistency

# dynamodb-rules §8 and §2: request-size limits (modeling.dynamodb_rules)
BATCH_GET_MAX_ITEMS = rules.MAX_BATCH_GET_ITEMS
BATCH_WRITE_MAX_ITEMS = rules.MAX_BATCH_WRITE_ITEMS
TRANSACTION_MAX_ITEMS = rules.MAX_TRANSACTION_ITEMS


@dataclass(frozen=True)
class RequestUnits:
    """Units one request consumes: `read_units` (RCU or RRU) and `write_units` (WCU or WRU)."""

    read_units: Decimal = Decimal(0)
    write_units: Decimal = Decimal(0)

    def __add__(self, other: RequestUnits) -> RequestUnits:
        return RequestUnits(self.read_units + other.read_units, self.write_units + other.write_units)

    def times(self, factor: int | Decimal) -> RequestUnits:
        """These units `factor` times, e.g. per second at `factor` requests per second."""
        return RequestUnits(self.read_units * factor, self.write_units * factor)


def read_unit_blocks(size_bytes: int) -> int:
    """4 KB blocks a read of `size_bytes` is charged for; a missing item still costs one (§1.1, §1.2)."""
    _check_size(size_bytes)
    return rules.read_unit_blocks(size_bytes)


def write_unit_blocks(size_bytes: int) -> int:
    """1 KB blocks a write of `size_bytes` is charged for, at least one (§1.1; W8: 500 B -> 1 WCU)."""
    _check_size(size_bytes)
    return rules.write_unit_blocks(size_bytes)


def read_factor(consistency: Consistency) -> Decimal:
    """Units per 4 KB block: 1 strong, 0.5 eventual (§1.1)."""
    return rules.read_factor(consistency is Consistency.STRONG)


# --- reads -----------------------------------------------------------------------------------------


def get_item_units(item_size_bytes: int, consistency: Consistency = Consistency.EVENTUAL) -> RequestUnits:
    """GetItem: ceil(size / 4 KB) strong, half that eventual (§1.2 GetItem; W1, W3)."""
    return RequestUnits(read_units=read_unit_blocks(item_size_bytes) * read_factor(consistency))


def batch_get_item_units(item_sizes_bytes: Sequence[int],
                         consistency: Consistency = Consistency.EVENTUAL) -> RequestUnits:
    """BatchGetItem: each item rounded to 4 KB on its own, then added (§1.2 BatchGetItem; W4)."""
    _check_count(item_sizes_bytes, BATCH_GET_MAX_ITEMS, Operation.BATCH_GET_ITEM)
    blocks = sum(read_unit_blocks(size) for size in item_sizes_bytes)
    return RequestUnits(read_units=blocks * read_factor(consistency))


def query_units(item_sizes_read_bytes: Sequence[int],
                consistency: Consistency = Consistency.EVENTUAL) -> RequestUnits:
    """Query: sizes of all items READ (matched by the key condition) added, rounded up once (§1.2; W5, W6).

    A FilterExpression or projection does not reduce this: pass the items read, not the items returned.
    No item read still costs one block (§1.2 "Items that don't exist").
    """
    _check_sizes(item_sizes_read_bytes)
    return RequestUnits(read_units=read_unit_blocks(sum(item_sizes_read_bytes)) * read_factor(consistency))


def scan_units(item_sizes_evaluated_bytes: Sequence[int],
               consistency: Consistency = Consistency.EVENTUAL) -> RequestUnits:
    """Scan: charged on the items evaluated, not returned, aggregated like Query (§1.2 Scan)."""
    return query_units(item_sizes_evaluated_bytes, consistency)


# dynamodb-rules §4.1 (GSI reads and writes)
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html
def gsi_query_units(entry_sizes_bytes: Sequence[int],
                    consistency: Consistency = Consistency.EVENTUAL) -> RequestUnits:
    """Query on a GSI: index entries added and rounded once; GSIs are eventually consistent only (§4.1; W17)."""
    if consistency is Consistency.STRONG:
        raise RequestShapeError("a GSI cannot serve strongly consistent reads", "consistency", consistency.value,
                                "use eventual, or query the table or an LSI (AWS: "
                                "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html)")
    return query_units(entry_sizes_bytes, Consistency.EVENTUAL)


# dynamodb-rules §4.2 (LSI fetches) https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/
# 822948021fcd815a33c040fb6cce5fa0d4127df4/doc_source/LSI.md
def lsi_query_units(entry_sizes_bytes: Sequence[int], fetched_item_sizes_bytes: Sequence[int],
                    consistency: Consistency = Consistency.EVENTUAL) -> RequestUnits:
    """Query on an LSI that fetches unprojected attributes: the index read, plus each whole base item
    rounded to 4 KB on its own (§4.2; W18: 4 KB + 4 x 4 KB = 20 KB -> 5 strong / 2.5 eventual)."""
    _check_sizes(fetched_item_sizes_bytes)
    index_blocks = read_unit_blocks(sum(_check_sizes(entry_sizes_bytes)))
    fetch_blocks = sum(read_unit_blocks(size) for size in fetched_item_sizes_bytes)
    return RequestUnits(read_units=(index_blocks + fetch_blocks) * read_factor(consistency))


# dynamodb-rules §2 (Transactions) https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/
# 822948021fcd815a33c040fb6cce5fa0d4127df4/doc_source/transaction-apis.md
def transact_get_items_units(item_sizes_bytes: Sequence[int]) -> RequestUnits:
    """TransactGetItems: 2 units per 4 KB block of each item (§1.1, §2; W16: three 500 B items -> 6)."""
    _check_count(item_sizes_bytes, TRANSACTION_MAX_ITEMS, Operation.TRANSACT_GET_ITEMS)
    return RequestUnits(read_units=Decimal(TRANSACTION_FACTOR * sum(read_unit_blocks(s) for s in item_sizes_bytes)))


# --- writes ----------------------------------------------------------------------------------------


def put_item_units(new_item_bytes: int, existing_item_bytes: int = 0) -> RequestUnits:
    """PutItem: the larger of the replaced and the new item, rounded to 1 KB (§1.2 PutItem; W9)."""
    return RequestUnits(write_units=Decimal(write_unit_blocks(max(new_item_bytes, existing_item_bytes))))


def update_item_units(before_bytes: int, after_bytes: int) -> RequestUnits:
    """UpdateItem: the larger of the item before and after, even for one changed attribute (§1.2)."""
    return RequestUnits(write_units=Decimal(write_unit_blocks(max(before_bytes, after_bytes))))


def delete_item_units(item_bytes: int) -> RequestUnits:
    """DeleteItem: the size of the deleted item, rounded to 1 KB (§1.2 DeleteItem; W9)."""
    return RequestUnits(write_units=Decimal(write_unit_blocks(item_bytes)))


def batch_write_item_units(item_sizes_bytes: Sequence[int]) -> RequestUnits:
    """BatchWriteItem: each put or delete rounded to 1 KB on its own, then added (§1.2; W10)."""
    _check_count(item_sizes_bytes, BATCH_WRITE_MAX_ITEMS, Operation.BATCH_WRITE_ITEM)
    return RequestUnits(write_units=Decimal(sum(write_unit_blocks(size) for size in item_sizes_bytes)))


def transact_write_items_units(item_sizes_bytes: Sequence[int]) -> RequestUnits:
    """TransactWriteItems: 2 units per 1 KB of each item on the base table (§2; W12, W16).

    Index writes caused by a transaction are NOT doubled: add `index_write_units` at 1x
    (§2, [AWS-CODE] calculate_costs.py, empirical: the developer guide is silent).
    """
    _check_count(item_sizes_bytes, TRANSACTION_MAX_ITEMS, Operation.TRANSACT_WRITE_ITEMS)
    return RequestUnits(write_units=Decimal(TRANSACTION_FACTOR * sum(write_unit_blocks(s) for s in item_sizes_bytes)))


# dynamodb-rules §1.2 (failed conditional write)
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/WorkingWithItems.html
def failed_conditional_write_units(existing_item_bytes: int, attempted_item_bytes: int) -> RequestUnits:
    """A conditional write whose condition fails: max(1, ceil(max(existing, attempted) / 1 KB)) (§1.2; W11).

    The documents differ for a missing item with a large attempted write (§15 item 11); this is the
    formula the facts file prescribes. Verify against `ReturnConsumedCapacity` when it matters.
    """
    return RequestUnits(write_units=Decimal(write_unit_blocks(max(existing_item_bytes, attempted_item_bytes))))


# dynamodb-rules §4.1 (index writes), §2 (not doubled in transactions, [AWS-CODE] calculate_costs.py)
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html
def index_write_units(change: IndexChange, entry_bytes: int, old_entry_bytes: int | None = None) -> Decimal:
    """Write units one base-table write costs ONE index, sized on the index entry (§4.1, §4.2).

    `entry_bytes` is the entry after the write; `old_entry_bytes` the entry removed (default: the same).
    Charged at 1x even inside a transaction (§2 [AWS-CODE]).
    """
    return rules.index_write_units(change, entry_bytes, old_entry_bytes)


# --- one entry point for the command line ----------------------------------------------------------

_READS = {Operation.GET_ITEM, Operation.BATCH_GET_ITEM, Operation.QUERY, Operation.SCAN, Operation.TRANSACT_GET_ITEMS}
_MAX_SIZES = {Operation.GET_ITEM: 1, Operation.DELETE_ITEM: 1, Operation.PUT_ITEM: 2, Operation.UPDATE_ITEM: 2}


def request_units(operation: Operation, item_sizes_bytes: Sequence[int],
                  consistency: Consistency = Consistency.EVENTUAL, transactional: bool = False,
                  gsi_entry_bytes: int | None = None, gsi_key_change: bool = False) -> RequestUnits:
    """Units for one request of `operation`, with optional maintenance of one GSI entry.

    `item_sizes_bytes`: one size per item; for UpdateItem `[before, after]` (or one size); for PutItem
    `[new]` or `[new, replaced]`. `transactional` turns Get/Put/Update/Delete into a one-item transaction.
    """
    sizes = list(_check_sizes(item_sizes_bytes))
    _check_shape(operation, sizes, gsi_entry_bytes)
    units = _operation_units(operation, sizes, consistency, transactional)
    if gsi_entry_bytes is None:
        return units
    change = IndexChange.KEY_CHANGES if gsi_key_change else IndexChange.ENTERS
    if operation is Operation.DELETE_ITEM:
        change = IndexChange.LEAVES
    entries = len(sizes) if operation in (Operation.BATCH_WRITE_ITEM, Operation.TRANSACT_WRITE_ITEMS) else 1
    return units + RequestUnits(write_units=entries * index_write_units(change, gsi_entry_bytes))


def _operation_units(operation: Operation, sizes: list[int], consistency: Consistency,
                     transactional: bool) -> RequestUnits:
    if operation is Operation.TRANSACT_GET_ITEMS or (transactional and operation is Operation.GET_ITEM):
        return transact_get_items_units(sizes)
    if transactional and operation in (Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.DELETE_ITEM):
        return transact_write_items_units([max(sizes)])
    single = {
        Operation.GET_ITEM: lambda: get_item_units(sizes[0], consistency),
        Operation.BATCH_GET_ITEM: lambda: batch_get_item_units(sizes, consistency),
        Operation.QUERY: lambda: query_units(sizes, consistency),
        Operation.SCAN: lambda: scan_units(sizes, consistency),
        Operation.PUT_ITEM: lambda: put_item_units(*sizes),
        Operation.UPDATE_ITEM: lambda: update_item_units(sizes[0], sizes[-1]),
        Operation.DELETE_ITEM: lambda: delete_item_units(sizes[0]),
        Operation.BATCH_WRITE_ITEM: lambda: batch_write_item_units(sizes),
        Operation.TRANSACT_WRITE_ITEMS: lambda: transact_write_items_units(sizes),
    }
    return single[operation]()


def _check_shape(operation: Operation, sizes: list[int], gsi_entry_bytes: int | None) -> None:
    allowed = _MAX_SIZES.get(operation)
    if not sizes and operation not in (Operation.QUERY, Operation.SCAN):
        raise RequestShapeError("no item size given", "item_sizes_bytes", sizes, f"{operation} needs at least one")
    if allowed is not None and len(sizes) > allowed:
        raise RequestShapeError(f"{operation} takes at most {allowed} item size(s)", "item_sizes_bytes", sizes,
                                "UpdateItem: before,after; PutItem: new,replaced; otherwise one size")
    if gsi_entry_bytes is not None and operation in _READS:
        raise RequestShapeError("a GSI entry size only applies to writes", "gsi_entry_bytes", gsi_entry_bytes,
                                "for a GSI query, pass the index entry sizes as the item sizes")


def _check_size(size_bytes: int) -> None:
    if isinstance(size_bytes, bool) or not isinstance(size_bytes, int) or size_bytes < 0:
        raise RequestShapeError("an item size must be a whole number of bytes, 0 or more", "size_bytes",
                                size_bytes, "measure it with costs.item_size.item_size_bytes")


def _check_sizes(sizes: Sequence[int]) -> Sequence[int]:
    for size in sizes:
        _check_size(size)
    return sizes


def _check_count(sizes: Sequence[int], limit: int, operation: Operation) -> None:
    _check_sizes(sizes)
    if not 1 <= len(sizes) <= limit:
        raise RequestShapeError(f"{operation} takes 1 to {limit} items", "items", len(sizes),
                                "split the request into several (AWS: "
                                "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)")
