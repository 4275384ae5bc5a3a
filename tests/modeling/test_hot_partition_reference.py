"""The vectorised hot-partition build against a plain reference written here, one key and one item at a time:
every key value rendered as a string, every item given its key (the j-th item lands on the first key whose
running expected count reaches j - u, the documented stratified draw), the items counted with a Counter
over the key strings, and each key hashed to its partition with splitmix64 in pure Python. Per partition,
the key values and the items must be identical, for skewed and uniform keys, a composite key and a sparse
GSI (only the items that meet its only_when condition are in it)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from modeling.design.checks.context import build_context
from modeling.design.generator import explicit_design
from modeling.hot_partitions.load import build_index_load, contributions, index_templates, seeded_rng
from modeling.hot_partitions.partitions import partition_frame, place
from modeling.hot_partitions.population import row_label
from modeling.model import Model

MASK = 2**64 - 1
STATUSES = ("OPEN", "PAID", "SHIPPED")
COMPOSITE = "CUSTOMER#{customerId}#STATUS#{status}"
SPARSE = "OPEN#{customerId}"


def _model(customers: int, orders: int, distribution: dict, weights: tuple[float, float, float]) -> Model:
    return Model.model_validate({
        "name": "shop", "table": {"name": "shop"},
        "entities": [
            {"name": "Customer", "item_count": customers, "identifiers": ["customerId"],
             "attributes": [{"name": "customerId", "unique": True, "avg_size_bytes": 20}]},
            {"name": "Order", "item_count": orders, "identifiers": ["orderId"], "attributes": [
                {"name": "orderId", "unique": True, "avg_size_bytes": 20},
                {"name": "customerId", "avg_size_bytes": 20, "generator": {
                    "kind": "reference", "entity": "Customer", "attribute": "customerId",
                    "distribution": distribution}},
                {"name": "status", "avg_size_bytes": 6, "generator": {
                    "kind": "enum", "values": list(STATUSES), "weights": list(weights)}}]}],
        "access_patterns": [{"name": "list_orders_by_customer", "kind": "read_many", "entities": ["Order"],
                             "inputs": ["customerId"], "expected_items": 5,
                             "traffic": {"peak_requests_per_second": 100, "average_requests_per_second": 1}}],
        "key_design": {
            "global_secondary_indexes": [
                {"name": "GSI1", "partition_key": {"name": "GSI1PK"}, "sort_key": {"name": "GSI1SK"}},
                {"name": "GSI2", "partition_key": {"name": "GSI2PK"}, "sort_key": {"name": "GSI2SK"}}],
            "entities": [
                {"entity": "Customer", "table": {"partition_key": "CUSTOMER#{customerId}", "sort_key": "A"}},
                {"entity": "Order", "table": {"partition_key": "ORDER#{orderId}", "sort_key": "A"}, "indexes": {
                    "GSI1": {"partition_key": COMPOSITE, "sort_key": "{orderId}"},
                    "GSI2": {"partition_key": SPARSE, "sort_key": "{orderId}",
                             "only_when": [{"attribute": "status", "equals": "OPEN"}]}}}]}})


def _splitmix64(row: int, salt: int) -> int:
    """partitions.hash_rows for one key value's row, in plain integers."""
    z = (row + salt * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _customer_shares(customers: int, exponent: float | None) -> list[float]:
    """Share of the orders each customer rank gets: k^-s normalised (zipf), or even."""
    weights = [1.0] * customers if exponent is None else [k ** -exponent for k in range(1, customers + 1)]
    return [w / sum(weights) for w in weights]


def _item_keys(keys: list[str], shares: list[float], items: int, u: float) -> Counter[str]:
    """Each item's key, one item at a time: item j (1..items) on the first key whose running expected count
    (items x share, summed in key order) reaches j - u."""
    running = list(itertools.accumulate(items * s for s in shares))
    running[-1] = float(items)
    return Counter(keys[bisect.bisect_left(running, j - u)] for j in range(1, items + 1))


def _reference(keys: list[str], counts: Counter[str], partitions: int, salt: int) -> dict[int, tuple[int, int]]:
    """Partition -> (key values, items), hashing each rendered key by its position in the index."""
    result = {p: [0, 0] for p in range(partitions)}
    for row, key in enumerate(keys):
        cell = result[_splitmix64(row, salt) % partitions]
        cell[0] += 1
        cell[1] += counts[key]
    return {p: (k, i) for p, (k, i) in result.items()}


@settings(max_examples=25, deadline=None)
@given(customers=st.integers(1, 30), orders=st.integers(1, 2500),
       exponent=st.one_of(st.none(), st.sampled_from([0.6, 1.0, 1.7])),
       weights=st.tuples(*(st.integers(1, 9) for _ in STATUSES)),
       partitions=st.integers(1, 7), seed=st.integers(0, 2**31), salt=st.integers(0, 2**40))
def test_per_partition_counts_equal_a_counter_over_rendered_keys(customers: int, orders: int, exponent: float | None,
                                                                 weights: tuple[int, int, int], partitions: int,
                                                                 seed: int, salt: int) -> None:
    distribution = {"kind": "uniform"} if exponent is None else {"kind": "zipf", "exponent": exponent}
    model = _model(customers, orders, distribution, tuple(float(w) for w in weights))
    ctx = build_context(model, explicit_design(model))
    status_shares = [w / sum(weights) for w in weights]
    customer_shares = _customer_shares(customers, exponent)
    cap = 10_000

    # the table: one item per id, customers first (key design order), then orders
    table = [f"CUSTOMER#<rank {c:,}>" for c in range(1, customers + 1)] + [
        f"ORDER#<rank {o:,}>" for o in range(1, orders + 1)]
    table_items = Counter(table)
    # GSI1: every (customer, status) pair, customer-major; an order's key is its customer and its status
    composite = [f"CUSTOMER#<rank {c:,}>#STATUS#{s}" for c in range(1, customers + 1) for s in STATUSES]
    pair_shares = [c * s for c in customer_shares for s in status_shares]
    composite_items = _item_keys(composite, pair_shares, orders, seeded_rng(seed, "GSI1", COMPOSITE, "Order").random())
    # GSI2 (sparse): only the OPEN orders, under their customer
    sparse = [f"OPEN#<rank {c:,}>" for c in range(1, customers + 1)]
    open_orders = round(orders * status_shares[0])
    sparse_items = _item_keys(sparse, customer_shares, open_orders,
                              seeded_rng(seed, "GSI2", SPARSE, "Order").random())

    templates, parts = index_templates(ctx), contributions(ctx)
    for index, keys, counts in (("table", table, table_items), ("GSI1", composite, composite_items),
                                ("GSI2", sparse, sparse_items)):
        load = build_index_load(ctx, index, templates[index], parts, cap, seed)
        rendered = []
        for segment in load.segments:
            widest = max((lay for _, lay in segment.layouts), key=lambda lay: lay.rows)
            rendered += [row_label(widest, row) for row in range(segment.rows)]
        assert rendered == keys, index  # row r of the build is the key the reference renders r-th
        frame = partition_frame(place(load, partitions, salt)).set_index("partition")
        assert (frame["items"] == frame["items"].round()).all(), index  # whole items on every partition
        fast = {int(p): (round(r["key_values"]), round(r["items"])) for p, r in frame.iterrows()}
        assert fast == _reference(keys, counts, partitions, salt), index
