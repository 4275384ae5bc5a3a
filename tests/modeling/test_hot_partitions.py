"""Hot partitions: key populations, per-key and per-partition load, bursts, sharding and findings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modeling.design.checks.catalogue import ERROR
from modeling.design.generator import explicit_design
from modeling.design.plans import TABLE
from modeling.examples import load_example
from modeling.hot_partitions import (
    KEY_COLUMNS,
    PARTITION_COLUMNS,
    SKEW_COLUMNS,
    TIMELINE_COLUMNS,
    BurstScenario,
    HotPartitionError,
    HotPartitionRequest,
    analyse_hot_partitions,
)
from modeling.model import Model

SIGN_UP = BurstScenario("create_student_by_tenant", start_seconds=1.0, duration_seconds=0.2, requests=3700,
                        resolution_seconds=0.1, window_seconds=3.0)


def _model(customer: dict[str, Any], peak: float = 100.0, customers: int = 10_000) -> Model:
    """Customers and their orders; orders keyed by order id, a GSI by customer."""
    return Model.model_validate({
        "name": "shop", "table": {"name": "shop"},
        "entities": [
            {"name": "Customer", "item_count": customers, "identifiers": ["customerId"],
             "attributes": [{"name": "customerId", "unique": True, "avg_size_bytes": 20}]},
            {"name": "Order", "item_count": 100_000, "identifiers": ["orderId"], "attributes": [
                {"name": "orderId", "unique": True, "avg_size_bytes": 20},
                {"name": "customerId", "avg_size_bytes": 20, "generator": {
                    "kind": "reference", "entity": "Customer", "attribute": "customerId", "distribution": customer}}]}],
        "access_patterns": [{"name": "list_orders_by_customer", "kind": "read_many", "entities": ["Order"],
                             "inputs": ["customerId"], "expected_items": 10,
                             "traffic": {"peak_requests_per_second": peak, "average_requests_per_second": 1}}],
        "key_design": {"global_secondary_indexes": [
            {"name": "GSI1", "partition_key": {"name": "GSI1PK"}, "sort_key": {"name": "GSI1SK"}}],
            "entities": [{"entity": "Customer", "table": {"partition_key": "CUSTOMER#{customerId}", "sort_key": "A"}},
                         {"entity": "Order", "table": {"partition_key": "ORDER#{orderId}", "sort_key": "A"},
                          "indexes": {"GSI1": {"partition_key": "CUSTOMER#{customerId}", "sort_key": "{orderId}"}}}]}})


def _analyse(model: Model, **options: Any):
    return analyse_hot_partitions(HotPartitionRequest(model, explicit_design(model), **options))


UNIFORM = {"kind": "uniform"}
HOT = {"kind": "hot_value", "share": 0.9}


def test_uniform_key_population_is_judged_healthy() -> None:
    report = _analyse(_model(UNIFORM))
    assert set(report.skew["verdict"]) == {"healthy"}
    assert report.findings == ()


def test_single_hot_key_is_flagged_with_its_pattern_and_index() -> None:
    report = _analyse(_model(HOT, peak=20_000))
    errors = [f for f in report.findings if f.severity is ERROR]
    assert [(f.index, f.pattern) for f in errors] == [("GSI1", "list_orders_by_customer")]
    assert errors[0].key_value == "CUSTOMER#<rank 1>" and "cache" in errors[0].fix


def test_hot_key_takes_its_share_of_the_items_and_the_traffic() -> None:
    skew = _analyse(_model(HOT)).skew.set_index("index")
    assert skew.loc["GSI1", "top1_traffic_share"] == pytest.approx(0.9, abs=1e-3)
    assert skew.loc["GSI1", "top1_item_share"] == pytest.approx(0.9, abs=0.01)
    assert skew.loc["GSI1", "gini"] > 0.8


def test_sign_up_burst_on_email_partition_key_is_flagged() -> None:
    model = load_example("student_platform_mistakes")
    report = _analyse(model, scenario=SIGN_UP)
    burst = [f for f in report.findings if f.pattern == "create_student_by_tenant"]
    assert [(f.severity, f.index) for f in burst] == [(ERROR, TABLE)]
    assert burst[0].key_value.startswith("STUDENT#")


def test_sign_up_burst_passes_when_the_email_key_is_sharded() -> None:
    # oracle: 3,700 creates in 0.2 s = 18,500 requests/s on one key; a create claims the email in the same
    # TransactWriteItems, so the student item costs 2 WCU (transactional, <= 1 KB; dynamodb-rules §2):
    # 37,000 WCU/s against 1,000 WCU/s per partition = 37x one partition. 40 suffixes give 0.925; 32 give 1.16
    model = load_example("student_platform_mistakes")
    report = _analyse(model, scenario=SIGN_UP, shard_count=40)
    assert not [f for f in report.findings if f.index == TABLE and f.severity is ERROR]
    sharding = report.sharding.set_index("shard_count")
    assert sharding.loc[1, "burst_key_utilisation"] == pytest.approx(37.0)
    assert sharding.loc[40, "burst_key_utilisation"] == pytest.approx(0.925)
    assert sharding.loc[32, "burst_key_utilisation"] > 1
    assert sharding.loc[40, "read_request_multiplier"] == 40  # get_student_by_email now queries 40 keys


@settings(max_examples=15, deadline=None)
@given(peak=st.floats(1, 50_000), seed=st.integers(0, 2**32), partitions=st.one_of(st.none(), st.integers(1, 64)))
def test_partition_sums_equal_total_traffic(peak: float, seed: int, partitions: int | None) -> None:
    report = _analyse(_model({"kind": "zipf", "exponent": 1.2}, peak=peak), seed=seed, partition_count=partitions)
    by_index = report.partitions.groupby("index")[["read_units_per_second", "items"]].sum()
    expected_items = {TABLE: 110_000, "GSI1": 100_000}
    for index, row in by_index.iterrows():
        assert row["items"] == pytest.approx(expected_items[index])
    assert by_index["read_units_per_second"].sum() == pytest.approx(report.hourly.query("hour == 0")[
        "read_units_per_second"].sum())


def test_evenly_spread_traffic_under_the_limit_throttles_nothing() -> None:
    report = _analyse(_model(UNIFORM, peak=2_000), partition_count=4)
    assert report.timeline["excess_utilisation"].max() == 0
    assert report.timeline["key_excess_utilisation"].max() == 0
    assert report.partitions["utilisation"].max() < 1


def test_same_seed_gives_the_same_frames_and_another_seed_moves_keys() -> None:
    model = _model({"kind": "zipf", "exponent": 1.1})
    first, second, other = (_analyse(model, seed=s, partition_count=16) for s in (7, 7, 8))
    for name in ("keys", "partitions", "skew", "timeline", "sharding", "key_profile"):
        pd.testing.assert_frame_equal(getattr(first, name), getattr(second, name))
    assert not first.keys["partition"].equals(other.keys["partition"])


def test_frames_have_their_documented_columns() -> None:
    report = _analyse(_model(UNIFORM), scenario=BurstScenario("list_orders_by_customer", multiplier=5))
    for frame, columns in ((report.keys, KEY_COLUMNS), (report.partitions, PARTITION_COLUMNS),
                           (report.skew, SKEW_COLUMNS), (report.timeline, TIMELINE_COLUMNS)):
        assert tuple(frame.columns) == columns


def test_million_key_population_is_built() -> None:
    report = _analyse(_model(UNIFORM, customers=1_000_000), max_key_values=1_000_000)
    assert report.skew.set_index("index").loc[TABLE, "key_values"] == 1_100_000
    assert np.isfinite(report.skew["gini"]).all()


def test_beyond_the_cap_cold_keys_are_grouped_but_counted() -> None:
    report = _analyse(_model({"kind": "zipf", "exponent": 1.1}, customers=50_000), max_key_values=1_000)
    skew = report.skew.set_index("index")
    assert skew.loc["GSI1", "key_values"] == pytest.approx(50_000)
    assert report.partitions.query("index == 'GSI1'")["items"].sum() == pytest.approx(100_000)


def test_alternative_keys_compare_email_id_date_and_status() -> None:
    model = load_example("student_platform_mistakes")
    report = _analyse(model, alternative_entity="Student")
    verdicts = dict(zip(report.alternatives["partition_key"], report.alternatives["verdict"], strict=True))
    assert verdicts["STUDENT#{email}"] == "healthy"
    assert set(verdicts) >= {"STUDENT#{studentId}", "STATUS#{status}", "CREATED_AT#{createdAt}"}


def test_unknown_index_is_refused_with_the_choices() -> None:
    with pytest.raises(HotPartitionError, match="GSI1"):
        _analyse(_model(UNIFORM), index="GSI9")


def _library(open_share: float = 0.2) -> Model:
    """Members and their loans (zipf 1.2, at most 500 a member); GSI1 lists a member's loans, GSI2 the open ones."""
    return Model.model_validate({
        "name": "library", "table": {"name": "library"},
        "entities": [
            {"name": "Member", "item_count": 100_000, "identifiers": ["memberId"],
             "attributes": [{"name": "memberId"}]},
            {"name": "Loan", "item_count": 2_000_000, "identifiers": ["loanId"], "attributes": [
                {"name": "loanId", "unique": True},
                {"name": "memberId", "generator": {"kind": "reference", "entity": "Member", "attribute": "memberId",
                                                   "distribution": {"kind": "zipf", "exponent": 1.2}}},
                {"name": "status", "generator": {"kind": "enum", "values": ["OPEN", "RETURNED"],
                                                 "weights": [open_share, 1 - open_share]}}]}],
        "relationships": [{"name": "member_loans", "kind": "one_to_many", "parent": "Member", "child": "Loan",
                           "child_attributes": ["memberId"],
                           "cardinality": {"mean": 20, "max": 500, "distribution": {"kind": "zipf", "exponent": 1.2}}}],
        "access_patterns": [{"name": "list_open_loans_by_member", "kind": "read_many", "entities": ["Loan"],
                             "inputs": ["memberId"], "filters": [{"attribute": "status", "equals": "OPEN"}],
                             "expected_items": 4,
                             "traffic": {"peak_requests_per_second": 50, "average_requests_per_second": 10}}],
        "key_design": {
            "global_secondary_indexes": [
                {"name": "GSI1", "partition_key": {"name": "GSI1PK"}, "sort_key": {"name": "GSI1SK"}},
                {"name": "GSI2", "partition_key": {"name": "GSI2PK"}, "sort_key": {"name": "GSI2SK"}}],
            "entities": [
                {"entity": "Member", "table": {"partition_key": "MEMBER#{memberId}", "sort_key": "A"}},
                {"entity": "Loan", "table": {"partition_key": "LOAN#{loanId}", "sort_key": "A"}, "indexes": {
                    "GSI1": {"partition_key": "MEMBER#{memberId}", "sort_key": "{loanId}"},
                    "GSI2": {"partition_key": "MEMBER#{memberId}", "sort_key": "{loanId}",
                             "only_when": [{"attribute": "status", "equals": "OPEN"}]}}}]}})


@pytest.mark.parametrize("index", ["GSI1", "GSI2"])
def test_no_key_value_holds_more_items_than_the_relationships_max(index: str) -> None:
    report = _analyse(_library(), index=index)
    keys = report.keys[report.keys["index"] == index]
    # zipf 1.2 over 100,000 members would give the top member 2,000,000 / H(100,000; 1.2) ~ 390,000 loans
    # (~78,000 open ones); the relationship says a member has at most 500 loans, open or not
    assert keys["items"].max() <= 500
    if index == "GSI1":  # the overflow goes to the other members: the busiest ones are full
        assert keys["items"].max() == 500
