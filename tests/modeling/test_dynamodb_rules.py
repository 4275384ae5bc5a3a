"""The one home of DynamoDB's rules against AWS's documented examples (dynamodb-rules §1, §2, §4, §6, §8, §13).

Every expected figure is worked out by hand in the comment beside it, from the facts file's rules and
worked examples, never by calling the code under test.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeling.design.plans import IndexChange, Operation
from modeling.dynamodb_rules import index_write_units, items_per_page, read_units, write_units
from modeling.item_size import item_size_bytes

KB = 1024


@pytest.mark.parametrize(("operation", "strong", "expected"), [
    (Operation.GET_ITEM, True, Decimal(2)),  # §1.1: 8 KB item = 2 blocks of 4 KB, 1 unit each strong
    (Operation.GET_ITEM, False, Decimal(1)),  # eventual: half of 2
    (Operation.TRANSACT_GET_ITEMS, False, Decimal(4)),  # §1.1, §2: transactional = 2 units per 4 KB: 2 x 2
])
def test_an_8_kb_item_costs_2_strong_1_eventual_4_transactional(operation, strong, expected) -> None:
    assert read_units(operation, 1, 8 * KB, strong) == expected


def test_a_missing_item_still_costs_a_read() -> None:
    # §1.2 "Items that don't exist": a GetItem of a missing item costs 1 strong / 0.5 eventual
    assert read_units(Operation.GET_ITEM, 0, 0, strong=False) == Decimal("0.5")


def test_query_adds_the_sizes_read_and_rounds_once() -> None:
    # §1.2: 10 items totalling 40.8 KB -> 44 KB -> 11 blocks -> 11 strong
    assert read_units(Operation.QUERY, 10, 40.8 * KB / 10, strong=True) == Decimal(11)
    # §1.2: 1,500 items x 64 B = 96,000 B = 93.75 KB -> 96 KB -> 24 blocks -> 12 eventual
    assert read_units(Operation.QUERY, 1500, 64, strong=False) == Decimal(12)
    # W32: 10 items of 1.5 KB = 15 KB -> 16 KB -> 4 strong / 2 eventual
    assert read_units(Operation.QUERY, 10, 1.5 * KB, strong=True) == Decimal(4)
    assert read_units(Operation.QUERY, 10, 1.5 * KB, strong=False) == Decimal(2)


def test_batch_get_rounds_each_item_on_its_own() -> None:
    # §1.2, §14: 10 items of 1 KB are 10 GetItems of 4 KB: 10 strong, 5 eventual (a Query would cost 3 KB -> 1)
    assert read_units(Operation.BATCH_GET_ITEM, 10, KB, strong=True) == Decimal(10)
    assert read_units(Operation.BATCH_GET_ITEM, 10, KB, strong=False) == Decimal(5)


def test_transactions_cost_twice_per_item() -> None:
    # W16: one transaction of three 500 B items: 3 x 1 block x 2 = 6 RCU reading, 6 WCU writing
    assert read_units(Operation.TRANSACT_GET_ITEMS, 3, 500) == Decimal(6)
    assert write_units(Operation.TRANSACT_WRITE_ITEMS, 3, 500) == Decimal(6)
    # W12: a 3 KB write is 3 WCU, 6 transactional
    assert write_units(Operation.PUT_ITEM, 1, 3 * KB) == Decimal(3)
    assert write_units(Operation.TRANSACT_WRITE_ITEMS, 1, 3 * KB) == Decimal(6)


def test_writes_round_each_item_up_to_1_kb() -> None:
    # §1.1: a 500 B write is 1 WCU; §1.2: a 1.6 KB put -> 2 KB -> 2 WCU
    assert write_units(Operation.PUT_ITEM, 1, 500) == Decimal(1)
    assert write_units(Operation.DELETE_ITEM, 1, 1.6 * KB) == Decimal(2)
    # §1.2 BatchWriteItem: 25 items of 500 B are 25 x 1 KB = 25 WCU (not 12.5 KB -> 13)
    assert write_units(Operation.BATCH_WRITE_ITEM, 25, 500) == Decimal(25)


def test_gsi_and_lsi_query_units() -> None:
    # W17 (§4.1): GSI entries of 2,000 B, 8 matched: 16,000 B -> 16 KB -> 4 blocks x 0.5 = 2 RCU
    assert read_units(Operation.QUERY, 8, 5000, strong=False, entry_bytes=2000) == Decimal(2)
    # W18 (§4.2): LSI, 4 items of 300 B with 200 B projected, all fetched: 800 B -> 4 KB (1 block),
    # plus 4 whole items each rounded to 4 KB (4 blocks): 5 blocks -> 5 strong, 2.5 eventual
    assert read_units(Operation.QUERY, 4, 300, strong=True, entry_bytes=200, fetched_items=4) == Decimal(5)
    assert read_units(Operation.QUERY, 4, 300, strong=False, entry_bytes=200, fetched_items=4) == Decimal("2.5")


@pytest.mark.parametrize(("change", "entry_bytes", "expected"), [
    (IndexChange.ENTERS, 500, Decimal(1)),  # §4.1: a new item with the index keys: 1 put of a 500 B entry -> 1 KB
    (IndexChange.KEY_CHANGES, 1.5 * KB, Decimal(4)),  # delete the old 1.5 KB entry (2) + put the new one (2)
    (IndexChange.LEAVES, 2 * KB, Decimal(2)),  # the key attribute removed: 1 delete of a 2 KB entry
    (IndexChange.PROJECTED_ONLY, 100, Decimal(1)),  # only projected attributes change: 1 write
    (IndexChange.ABSENT, 3 * KB, Decimal(0)),  # not in the index before or after (sparse): nothing
])
def test_index_writes(change, entry_bytes, expected) -> None:
    assert index_write_units(change, entry_bytes) == expected


def test_a_page_holds_1_mb_of_items_read_or_limit_items() -> None:
    # §8: 1 MB = 1,048,576 B; items of 1,000 B -> 1,048 per page; Limit 25 -> 25
    assert items_per_page(1000) == 1048
    assert items_per_page(1000, limit=25) == 25
    # items of 600 KB: one per page, however large
    assert items_per_page(600 * KB) == 1


def test_item_size_examples() -> None:
    # W19 (§6): "shirt-color" (11) + "R" (1) + "shirt-size" (10) + "M" (1) = 23 bytes
    assert item_size_bytes({"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}}) == 23
    # W20: 5 + 19 + 18 + 18 + 7 + 26 + 11 + 14 + 19 = 137 bytes (Authors: 7 name + 3 list + 7 + 1 element)
    item = {"Id": {"N": "101"}, "Title": {"S": "Book 101 Title"}, "ISBN": {"S": "111-1111111111"},
            "Authors": {"L": [{"S": "Author1"}]}, "Price": {"N": "2"}, "Dimensions": {"S": "8.5 x 11.0 x 0.5"},
            "PageCount": {"N": "500"}, "InPublication": {"BOOL": True}, "ProductCategory": {"S": "Book"}}
    assert item_size_bytes(item) == 137
