"""Hot partitions counts each step of a two-step read on the partitions it reads (issue 28, left last session).

- A listing through a KEYS_ONLY GSI, then a BatchGetItem of the whole items: the query's units on the GSI, the
  fetch's on the table's partitions of the fetched items. Before, the fetch was not counted anywhere.
- A read through a uniqueness item: the owner's GetItem on the owner's key. Before, the uniqueness item's GetItem
  was counted on the owner's partition too (it reads a partition of its own).

Oracles are AWS's rules by hand (dynamodb-rules §1.2, §4.1), never the estimator's code.
"""

from __future__ import annotations

import pytest

from modeling.design.plans import TABLE
from modeling.hot_partitions import HotPartitionRequest, analyse_hot_partitions
from modeling.model import Model
from modeling.model_file import load_model_file
from studio.design import propose
from tests.costs.test_projection_choice import audit_model
from tests.fixture_files import FIXTURES_DIR


def _read_units_by_index(model: Model) -> dict[str, float]:
    report = analyse_hot_partitions(HotPartitionRequest(model, propose(model)[0], partition_count=8))
    by_index = report.partitions.groupby("index")["read_units_per_second"].sum()
    return {str(index): float(units) for index, units in by_index.items()}


def test_a_fetch_after_a_keys_only_query_reads_the_tables_partitions() -> None:
    model = audit_model("write")  # 100 puts/s of ~5 KB events: the GSI by device is KEYS_ONLY and 0.1 listings/s
    design = propose(model)[0]  # of 10 events fetch them whole
    listing = design.plan("list_events_by_device")
    assert listing.fetch == "BatchGetItem"
    units = _read_units_by_index(model)
    # The fetch: 10 items a request, each rounded alone: ceil(5,1xx B / 4 KB) = 2 blocks x 0.5 (eventually
    # consistent) = 1 RRU an item, so 10 RRU a request; x 0.1 requests/s = 1 RRU/s on the table's partitions.
    # get_event_by_id: 1 request/s, strongly consistent, 2 blocks = 2 RRU/s on the table as well.
    assert units[TABLE] == pytest.approx(1 + 2, rel=0.02)
    # The query reads 10 keys-only entries (~100 B each: well under one 4 KB block): 0.5 RRU x 0.1 = 0.05 RRU/s
    assert units[listing.index] == pytest.approx(0.05, rel=0.02)


def test_a_read_through_a_uniqueness_item_counts_the_owners_getitem_on_the_owners_key() -> None:
    model = load_model_file(FIXTURES_DIR / "uniqueness-reads" / "users.yaml")
    design = propose(model)[0]
    plan = design.plan("get_user_by_email")
    assert plan.through is not None
    report = analyse_hot_partitions(HotPartitionRequest(model, design, partition_count=8))
    reads = report.partitions.groupby("index")["read_units_per_second"].sum()
    pattern = model.access_pattern("get_user_by_email")
    assert pattern is not None
    rate = pattern.traffic.peak_requests_per_second
    # the owner's GetItem: one user item under 4 KB, eventually consistent = 0.5 RRU a request (§1.2); the
    # uniqueness item's GetItem (another 0.5) reads its own partition, not listed
    others = sum(p.traffic.peak_requests_per_second * 0.5 for p in model.access_patterns
                 if p.kind.is_read and p.name != "get_user_by_email" and design.plan(p.name).index == TABLE
                 and design.plan(p.name).operation.value == "GetItem" and not design.plan(p.name).consistent_read)
    assert float(reads[TABLE]) == pytest.approx(rate * 0.5 + others, rel=0.02)
