"""Capacity units per request (dynamodb-rules §1, §2, §4): AWS's worked examples, boundaries, invariants."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from costs.errors import RequestShapeError
from costs.units import (
    IndexChange,
    Operation,
    RequestUnits,
    batch_get_item_units,
    batch_write_item_units,
    delete_item_units,
    failed_conditional_write_units,
    get_item_units,
    gsi_query_units,
    index_write_units,
    lsi_query_units,
    put_item_units,
    query_units,
    request_units,
    scan_units,
    transact_get_items_units,
    transact_write_items_units,
    update_item_units,
)
from modeling.model import Consistency

KB = 1024
STRONG, EVENTUAL = Consistency.STRONG, Consistency.EVENTUAL


def reads(units: RequestUnits) -> Decimal:
    return units.read_units


def writes(units: RequestUnits) -> Decimal:
    return units.write_units


# (id, call, expected units) -- the arithmetic is in each comment; sources in dynamodb-rules §13
WORKED_EXAMPLES: list[tuple[str, Callable[[], Decimal], str]] = [
    ("W1-3500B-strong", lambda: reads(get_item_units(3500, STRONG)), "1"),  # 3,500 B -> 4 KB -> 1
    ("W1-3500B-eventual", lambda: reads(get_item_units(3500, EVENTUAL)), "0.5"),  # 1 x 0.5
    ("W2-8KB-strong", lambda: reads(get_item_units(8 * KB, STRONG)), "2"),  # 8 KB / 4 KB = 2
    ("W2-8KB-eventual", lambda: reads(get_item_units(8 * KB, EVENTUAL)), "1"),  # 2 x 0.5
    ("W2-8KB-transactional", lambda: reads(transact_get_items_units([8 * KB])), "4"),  # 2 x 2
    ("W3-10KB-strong", lambda: reads(get_item_units(10 * KB, STRONG)), "3"),  # 10 KB -> 12 KB -> 3
    ("W3-10KB-eventual", lambda: reads(get_item_units(10 * KB, EVENTUAL)), "1.5"),  # 3 x 0.5
    ("W4-batch-1.5KB+6.5KB", lambda: reads(batch_get_item_units([1536, 6656], STRONG)), "3"),  # 4 KB + 8 KB
    ("W5-query-40.8KB-strong", lambda: reads(query_units([4178] * 10, STRONG)), "11"),  # 41,780 B -> 44 KB -> 11
    ("W5-query-40.8KB-eventual", lambda: reads(query_units([4178] * 10, EVENTUAL)), "5.5"),  # 11 x 0.5
    ("W6-query-1500x64B-strong", lambda: reads(query_units([64] * 1500, STRONG)), "24"),  # 96,000 B -> 24 x 4 KB
    ("W6-query-1500x64B-eventual", lambda: reads(query_units([64] * 1500, EVENTUAL)), "12"),
    ("W7-eventual-80KB", lambda: reads(query_units([80 * KB], EVENTUAL)), "10"),  # 20 blocks x 0.5
    ("W8-write-500B", lambda: writes(put_item_units(500)), "1"),  # 500 B -> 1 KB
    ("W8-write-2KB", lambda: writes(put_item_units(2 * KB)), "2"),
    ("W8-write-2KB-transactional", lambda: writes(transact_write_items_units([2 * KB])), "4"),  # 2 x 2
    ("W9-put-1.6KB", lambda: writes(put_item_units(1638)), "2"),  # 1.6 KB -> 2 KB
    ("W9-delete-1.6KB", lambda: writes(delete_item_units(1638)), "2"),
    ("W10-batch-write-500B+3.5KB", lambda: writes(batch_write_item_units([500, 3584])), "5"),  # 1 + 4
    ("W11-failed-condition-300KB-310KB", lambda: writes(failed_conditional_write_units(300 * KB, 310 * KB)), "310"),
    ("W12-write-1KB", lambda: writes(put_item_units(KB)), "1"),
    ("W12-write-3KB", lambda: writes(put_item_units(3 * KB)), "3"),
    ("W12-write-3KB-transactional", lambda: writes(transact_write_items_units([3 * KB])), "6"),  # 3 x 2
    ("W13-7.5KB-write", lambda: writes(put_item_units(7680)), "8"),  # 7.5 KB -> 8 KB -> 8
    ("W13-7.5KB-strong-read", lambda: reads(get_item_units(7680, STRONG)), "2"),  # 8 KB -> 2
    ("W15-80-strong-reads-of-3KB", lambda: reads(get_item_units(3 * KB, STRONG).times(80)), "80"),  # 80 x 1
    ("W15-100-writes-of-512B", lambda: writes(put_item_units(512).times(100)), "100"),  # 100 x 1
    ("W16-transact-write-3x500B", lambda: writes(transact_write_items_units([500] * 3)), "6"),  # 3 x 1 x 2
    ("W16-transact-read-3x500B", lambda: reads(transact_get_items_units([500] * 3)), "6"),  # 3 x 1 x 2
    ("W17-gsi-8x2000B", lambda: reads(gsi_query_units([2000] * 8)), "2"),  # 16,000 B -> 16 KB -> 4 x 0.5
    ("W18-lsi-fetch-strong", lambda: reads(lsi_query_units([200] * 4, [300] * 4, STRONG)), "5"),  # 4 KB + 4 x 4 KB
    ("W18-lsi-fetch-eventual", lambda: reads(lsi_query_units([200] * 4, [300] * 4, EVENTUAL)), "2.5"),  # 5 x 0.5
    ("W32-query-10x1.5KB-strong", lambda: reads(query_units([1536] * 10, STRONG)), "4"),  # 15 KB -> 16 KB -> 4
    ("W32-query-10x1.5KB-eventual", lambda: reads(query_units([1536] * 10, EVENTUAL)), "2"),
]


@pytest.mark.parametrize(("call", "expected"), [(c, e) for _, c, e in WORKED_EXAMPLES],
                         ids=[i for i, _, _ in WORKED_EXAMPLES])
def test_aws_worked_examples(call: Callable[[], Decimal], expected: str) -> None:
    assert call() == Decimal(expected)


# W14: 6 RCU serve 24 KB/s strong (6 x 4 KB), 48 KB/s eventual, 12 KB/s transactional; 6 WCU serve 6 KB/s
W14 = [
    ("strong-6x4KB", get_item_units(4 * KB, STRONG).times(6).read_units),
    ("eventual-12x4KB", get_item_units(4 * KB, EVENTUAL).times(12).read_units),
    ("transactional-3x4KB", transact_get_items_units([4 * KB]).times(3).read_units),
    ("writes-6x1KB", put_item_units(KB).times(6).write_units),
    ("transactional-writes-3x1KB", transact_write_items_units([KB]).times(3).write_units),
]


@pytest.mark.parametrize("units", [u for _, u in W14], ids=[i for i, _ in W14])
def test_w14_six_units_serve_the_stated_throughput(units: Decimal) -> None:
    assert units == 6


BOUNDARIES = [
    ("read-1B", lambda: reads(get_item_units(1, STRONG)), 1),
    ("read-4096B", lambda: reads(get_item_units(4096, STRONG)), 1),
    ("read-4097B", lambda: reads(get_item_units(4097, STRONG)), 2),
    ("read-400KB", lambda: reads(get_item_units(400 * KB, STRONG)), 100),  # 409,600 / 4,096
    ("write-1B", lambda: writes(put_item_units(1)), 1),
    ("write-1024B", lambda: writes(put_item_units(1024)), 1),
    ("write-1025B", lambda: writes(put_item_units(1025)), 2),
    ("write-400KB", lambda: writes(put_item_units(400 * KB)), 400),
    ("missing-item-read", lambda: reads(get_item_units(0, STRONG)), 1),  # §1.2: still 1 RCU strong
    ("empty-query-eventual", lambda: reads(query_units([], EVENTUAL)), Decimal("0.5")),  # minimum per partition
]


@pytest.mark.parametrize(("call", "expected"), [(c, e) for _, c, e in BOUNDARIES], ids=[i for i, _, _ in BOUNDARIES])
def test_units_round_up_at_4kb_reads_and_1kb_writes(call: Callable[[], Decimal], expected: Decimal) -> None:
    assert call() == expected


INDEX_CHANGES = [
    (IndexChange.ENTERS, 500, 1),  # new entry: 1 put
    (IndexChange.KEY_CHANGES, 500, 2),  # delete old + put new
    (IndexChange.LEAVES, 500, 1),  # 1 delete
    (IndexChange.ABSENT, 500, 0),  # sparse index: nothing
    (IndexChange.PROJECTED_ONLY, 500, 1),  # projected non-key attribute changed
    (IndexChange.ENTERS, 1025, 2),  # sized on the entry: 1,025 B -> 2 KB
    (IndexChange.KEY_CHANGES, 1025, 4),  # 2 writes x 2 KB
]


@pytest.mark.parametrize(("change", "entry_bytes", "expected"), INDEX_CHANGES,
                         ids=[f"{c}-{b}B" for c, b, _ in INDEX_CHANGES])
def test_index_writes_follow_the_entry_lifecycle(change: IndexChange, entry_bytes: int, expected: int) -> None:
    assert index_write_units(change, entry_bytes) == expected


def test_index_writes_under_a_transaction_are_not_doubled() -> None:
    # §2 [AWS-CODE]: base item 500 B transactional = 2 x 1; the GSI put of 200 B stays at 1 -> 3
    units = request_units(Operation.PUT_ITEM, [500], transactional=True, gsi_entry_bytes=200)
    assert units.write_units == 3


def test_update_charges_the_larger_image() -> None:
    # §1.2: 900 B before, 1,100 B after -> 1,100 B -> 2 KB -> 2 WCU, whichever way round
    assert update_item_units(900, 1100) == update_item_units(1100, 900) == RequestUnits(write_units=Decimal(2))


def test_scan_charges_items_evaluated_like_a_query() -> None:
    # §1.2: 3 evaluated items of 2 KB = 6 KB -> 8 KB -> 2 strong, even if a filter returns none
    assert scan_units([2048] * 3, STRONG) == query_units([2048] * 3, STRONG) == RequestUnits(read_units=Decimal(2))


def test_failed_conditional_write_costs_at_least_one_unit() -> None:
    assert failed_conditional_write_units(0, 0).write_units == 1


REJECTED = [
    ("batch-get-101", lambda: batch_get_item_units([1] * 101)),
    ("batch-write-26", lambda: batch_write_item_units([1] * 26)),
    ("transaction-101", lambda: transact_write_items_units([1] * 101)),
    ("gsi-strong-read", lambda: gsi_query_units([100], STRONG)),
    ("negative-size", lambda: get_item_units(-1)),
    ("bool-size", lambda: put_item_units(True)),
    ("get-two-sizes", lambda: request_units(Operation.GET_ITEM, [1, 2])),
    ("gsi-on-a-read", lambda: request_units(Operation.QUERY, [1], gsi_entry_bytes=10)),
    ("put-no-size", lambda: request_units(Operation.PUT_ITEM, [])),
]


@pytest.mark.parametrize("call", [c for _, c in REJECTED], ids=[i for i, _ in REJECTED])
def test_requests_breaking_operation_rules_are_rejected(call: Callable[[], object]) -> None:
    with pytest.raises(RequestShapeError, match="field="):
        call()


SIZES = st.integers(min_value=0, max_value=400 * KB)


@given(SIZES)
def test_eventual_read_is_half_a_strong_read(size: int) -> None:
    assert get_item_units(size, EVENTUAL).read_units * 2 == get_item_units(size, STRONG).read_units


@given(st.lists(SIZES, min_size=1, max_size=25))
def test_transactional_is_twice_standard(sizes: list[int]) -> None:
    assert transact_write_items_units(sizes).write_units == 2 * batch_write_item_units(sizes).write_units
    assert transact_get_items_units(sizes).read_units == 2 * batch_get_item_units(sizes, STRONG).read_units


@given(SIZES, SIZES)
def test_units_grow_with_item_size(a: int, b: int) -> None:
    small, large = sorted((a, b))
    assert get_item_units(small, STRONG).read_units <= get_item_units(large, STRONG).read_units
    assert put_item_units(small).write_units <= put_item_units(large).write_units


@given(st.integers(min_value=1, max_value=400 * KB - 1))
def test_units_step_only_just_after_a_unit_boundary(size: int) -> None:
    if get_item_units(size + 1, STRONG) != get_item_units(size, STRONG):
        assert size % 4096 == 0
    if put_item_units(size + 1) != put_item_units(size):
        assert size % 1024 == 0


@given(st.lists(SIZES, min_size=1, max_size=100))
def test_batch_get_never_costs_less_than_a_query_of_the_same_items(sizes: list[int]) -> None:
    # per-item rounding (BatchGetItem) >= one rounding of the total (Query), §14 first myth
    assert batch_get_item_units(sizes, STRONG).read_units >= query_units(sizes, STRONG).read_units
