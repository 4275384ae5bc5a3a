"""Hot partitions at scale: the chunked hash equals the plain one, and lazy constant columns give the same
figures as materialised ones while taking no memory."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pandas as pd
import pytest

from modeling.design.checks.context import build_context
from modeling.design.generator import explicit_design
from modeling.hot_partitions import population
from modeling.hot_partitions.columns import Accumulator, LazyColumns, constant, constant_value, top_rows
from modeling.hot_partitions.frames import HOT_UTILISATION, PARTITION_BYTES
from modeling.hot_partitions.load import IndexLoad, build_index_load, contributions, index_templates
from modeling.hot_partitions.metrics import skew_row
from modeling.hot_partitions.partitions import (
    Placement,
    partition_count,
    partition_frame,
    partition_ids,
    partition_ids_and_sums,
    partition_of,
    place,
)
from modeling.model import Model


def _events(keys: int) -> Model:
    """One entity keyed by its unique id: an even population of one key value per item."""
    return Model.model_validate({
        "name": "events", "table": {"name": "events"},
        "entities": [{"name": "Event", "item_count": keys, "identifiers": ["eventId"],
                      "attributes": [{"name": "eventId", "unique": True, "avg_size_bytes": 36},
                                     {"name": "payload", "avg_size_bytes": 400}]}],
        "access_patterns": [
            {"name": "put_event", "kind": "write", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": {"peak_requests_per_second": 5000, "average_requests_per_second": 1000}},
            {"name": "get_event", "kind": "read_one", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": {"peak_requests_per_second": 20000, "average_requests_per_second": 4000}}],
        "key_design": {"entities": [{"entity": "Event", "table": {"partition_key": "EVENT#{eventId}",
                                                                  "sort_key": "A"}}]}})


def _table_load(keys: int) -> IndexLoad:
    model = _events(keys)
    ctx = build_context(model, explicit_design(model))
    return build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), keys, 42)


def _materialised(load: IndexLoad) -> IndexLoad:
    names = ("key_values", "items", "collection_bytes", "read_units", "write_units")
    return load.with_columns({n: np.array(getattr(load, n)) for n in names})


@pytest.mark.parametrize("rows", [1, 5, 100_003])
@pytest.mark.parametrize("partitions", [1, 17, 300, 70_000])
def test_chunked_partition_ids_equal_the_plain_hash(rows: int, partitions: int) -> None:
    ids, counts = partition_ids(rows, partitions, salt=123_456_789)
    plain = partition_of(np.arange(rows, dtype=np.uint64), partitions, salt=123_456_789)
    np.testing.assert_array_equal(ids.astype(np.int64), plain)
    np.testing.assert_array_equal(counts, np.bincount(plain, minlength=partitions))
    assert ids.itemsize <= plain.itemsize


def test_an_even_one_key_per_item_population_has_constant_columns() -> None:
    load = _table_load(100_000)
    for column in (load.key_values, load.items, load.collection_bytes, load.read_units, load.write_units,
                   load.utilisation, load.per_key):
        assert constant_value(column) is not None and len(column) == 100_000
    assert load.items.sum() == pytest.approx(100_000)


def test_constant_columns_give_the_figures_of_materialised_ones() -> None:
    lazy = _table_load(50_000)
    full = _materialised(lazy)
    assert constant_value(full.items) is None
    lazy_place, full_place = place(lazy, 7, salt=5), place(full, 7, salt=5)
    pd.testing.assert_frame_equal(partition_frame(lazy_place), partition_frame(full_place), rtol=1e-9)
    lazy_skew = skew_row(lazy_place, np.random.default_rng(1))
    full_skew = skew_row(full_place, np.random.default_rng(1))
    assert lazy_skew.keys() == full_skew.keys()
    for name, value in full_skew.items():
        assert lazy_skew[name] == (pytest.approx(value, rel=1e-9, abs=1e-12) if isinstance(value, float) else value)


def test_accumulator_stays_constant_until_a_partial_or_varying_window() -> None:
    columns = Accumulator(4)
    columns.add("a", slice(0, 4), constant(2.0, 4))
    columns.add("a", slice(0, 4), constant(0.5, 4))
    assert constant_value(columns.column("a")) == 2.5
    columns.add("a", slice(1, 3), constant(1.0, 2))
    np.testing.assert_array_equal(columns.column("a"), [2.5, 3.5, 3.5, 2.5])
    columns.add("b", slice(0, 4), np.arange(4.0))
    np.testing.assert_array_equal(columns.column("b"), np.arange(4.0))
    assert constant_value(columns.column("missing")) == 0.0


def test_a_million_even_keys_build_in_little_memory() -> None:
    keys = 1_000_000
    tracemalloc.start()
    load = _table_load(keys)
    placement = place(load, 17, salt=1)
    frame = partition_frame(placement)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert frame["key_values"].sum() == keys
    assert frame["items"].sum() == pytest.approx(keys)
    assert peak < 8 * 2**20  # one byte of partition id per key, no per-key float columns


def test_a_sharded_index_placed_from_its_base_equals_one_placed_from_scratch() -> None:
    # the what-if rerun patches the unsharded placement (the split row, the appended shards); hashing every
    # row of the sharded copy again must give the same per-partition figures and busiest rows
    from modeling.hot_partitions.partitions import extend
    from modeling.hot_partitions.whatifs import shard
    model = Model.model_validate({
        "name": "shop", "table": {"name": "shop"},
        "entities": [{"name": "Order", "item_count": 40_000, "identifiers": ["orderId"], "attributes": [
            {"name": "orderId", "unique": True, "avg_size_bytes": 20},
            {"name": "customerId", "avg_size_bytes": 20,
             "generator": {"kind": "int_range", "min": 1, "max": 5_000,
                           "distribution": {"kind": "zipf", "exponent": 1.1}}}]}],
        "access_patterns": [{"name": "put_order", "kind": "write", "entities": ["Order"], "inputs": ["customerId"],
                             "traffic": {"peak_requests_per_second": 3000, "average_requests_per_second": 10}}],
        "key_design": {"entities": [{"entity": "Order", "table": {"partition_key": "CUSTOMER#{customerId}",
                                                                  "sort_key": "{orderId}"}}]}})
    ctx = build_context(model, explicit_design(model))
    load = build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), 10_000, 42)
    hot = int(np.argmax(load.per_key))
    for partitions, sample in ((7, 100_000), (900, 50)):
        base = place(load, partitions, salt=11, anchor_row=hot, max_simulated=sample)
        partition_frame(base)  # the base's sums are remembered, as on the page
        variant = shard(load, hot, 8)
        patched = extend(base, variant)
        fresh = place(_materialised(variant), partitions, salt=11, anchor_row=hot, max_simulated=sample)
        pd.testing.assert_frame_equal(partition_frame(patched), partition_frame(fresh), rtol=1e-9)
        np.testing.assert_array_equal(variant.busiest_rows(50),
                                      np.argsort(-_materialised(variant).per_key, kind="stable")[:50])


def test_lazy_columns_build_the_accumulators_bytes_only_when_read() -> None:
    vector = np.linspace(3.0, 1.0, 6)
    eager, lazy = Accumulator(6), LazyColumns(6)
    eager.add("a", slice(0, 6), vector * 0.1, owned=True)
    lazy.add_scaled("a", slice(0, 6), vector, 0.1)
    for columns in (eager, lazy):
        columns.add("a", slice(0, 6), constant(2.0, 6))
        columns.add("a", slice(2, 4), np.array([5.0, 7.0]))
    assert lazy.built("a") is None  # nothing computed yet
    built = lazy.column("a")
    np.testing.assert_array_equal(built, eager.column("a"))  # same additions, same order: same bytes
    assert not built.flags.writeable and lazy.column("a") is built  # shared by later readers, built once
    assert constant_value(lazy.column("missing")) == 0.0


def _zipf_devices(devices: int) -> Model:
    """Events spread over devices by a zipf law: every per-row column varies (the general path)."""
    return Model.model_validate({
        "name": "zipf", "table": {"name": "zipf"},
        "entities": [
            {"name": "Device", "item_count": devices, "identifiers": ["deviceId"],
             "attributes": [{"name": "deviceId", "unique": True, "avg_size_bytes": 36}]},
            {"name": "Event", "item_count": 5 * devices, "identifiers": ["eventId"], "attributes": [
                {"name": "eventId", "unique": True, "avg_size_bytes": 36},
                {"name": "deviceId", "avg_size_bytes": 36, "generator": {
                    "kind": "reference", "entity": "Device", "attribute": "deviceId",
                    "distribution": {"kind": "zipf", "exponent": 0.8}}},
                {"name": "payload", "avg_size_bytes": 400}]}],
        "access_patterns": [
            {"name": "put_event", "kind": "write", "entities": ["Event"], "inputs": ["deviceId"],
             "traffic": {"peak_requests_per_second": 5000, "average_requests_per_second": 1000}},
            {"name": "list_events_by_device", "kind": "read_many", "entities": ["Event"], "inputs": ["deviceId"],
             "expected_items": 5, "traffic": {"peak_requests_per_second": 20000, "average_requests_per_second": 4000}}],
        "key_design": {"entities": [{"entity": "Event", "table": {"partition_key": "DEVICE#{deviceId}",
                                                                  "sort_key": "{eventId}"}}]}})


def test_a_zipf_build_sums_its_partitions_without_building_a_per_row_column() -> None:
    model = _zipf_devices(20_000)
    ctx = build_context(model, explicit_design(model))
    load = build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), 20_000, 42)
    partitions = partition_count(load)
    frame = partition_frame(place(load, partitions, salt=3))
    lazy = ("items", "collection_bytes", "read_units", "write_units", "utilisation")
    assert load.ranked  # a zipf over ranks never rises, answered from its vector
    assert [n for n in lazy if load.columns.built(n) is not None] == []  # sums and counts came from the vectors
    # the same figures as from the built columns: every partition's sums, and the partition count
    placement = place(load, partitions, salt=3)
    for name, column in zip(lazy, ("items", "bytes", "read_units_per_second", "write_units_per_second",
                                   "utilisation"), strict=True):
        exact = np.bincount(placement.partition, weights=load.column(name), minlength=partitions)
        np.testing.assert_allclose(frame[column].to_numpy(), exact, rtol=1e-12)
    assert partitions == max(1, math.ceil(load.collection_bytes.sum() / PARTITION_BYTES),
                             math.ceil(load.utilisation.sum() / HOT_UTILISATION - 1e-9))
    np.testing.assert_array_equal(frame["busiest_key_utilisation"].to_numpy(),
                                  [load.per_key[placement.partition == p].max() for p in range(partitions)])


def test_a_burst_of_a_pattern_that_never_touches_the_analysed_gsi_is_said_and_does_not_crash() -> None:
    # Found by the hot-ratio work: get_student_by_id reads the table only, and a burst of it analysed on
    # GSI1 read the first row of an empty "during the burst" frame (IndexError on the page)
    from costs.design_ranking import propose
    from modeling.examples import load_example
    from modeling.hot_partitions.analysis import BurstScenario, HotPartitionRequest, analyse_hot_partitions

    model = load_example("student_platform_mistakes")
    design = propose(model)[0]
    gsi = design.key_design.global_secondary_indexes[0].name
    report = analyse_hot_partitions(HotPartitionRequest(
        model, design, index=gsi, max_key_values=5_000, scenario=BurstScenario("get_student_by_id", multiplier=10)))
    said = [f for f in report.findings if f.pattern == "get_student_by_id"]
    assert len(said) == 1 and said[0].severity.value == "info" and "sends no request to " + gsi in said[0].message


# --- the fused passes of the share vectors and the item draw: the same bits as the passes they replace ----


def _reference_rank_powers(ranks: int, exponent: float) -> np.ndarray:
    """rank_powers as it was written before its blocks: whole strided passes (the bits it must keep)."""
    weights = np.empty(ranks)
    for first in (1, 5):
        np.power(np.arange(first, ranks + 1, 6, dtype=float), -exponent, out=weights[first - 1::6])
    two, three = 2.0 ** -exponent, 3.0 ** -exponent
    low = 2
    while low <= ranks:
        high = min(2 * low, ranks + 1)
        evens = np.arange((low + 1) // 2, (high + 1) // 2)
        if len(evens):
            np.multiply(weights[evens[0] - 1:evens[-1]], two, out=weights[2 * evens[0] - 1:2 * evens[-1]:2])
        odd_first, odd_last = (low + 2) // 3 | 1, (high - 1) // 3
        odd_last -= 1 - odd_last % 2
        if odd_first <= odd_last:
            np.multiply(weights[odd_first - 1:odd_last:2], three, out=weights[3 * odd_first - 1:3 * odd_last:6])
        low = high
    return weights


@pytest.mark.parametrize("ranks", [1, 2, 5, 6, 7, 13, 4_097, 65_535, 65_536, 65_537, 131_073, 400_001])
@pytest.mark.parametrize("exponent", [0.07, 0.8, 1.0, 2.0])
def test_rank_powers_in_blocks_keep_the_bits_and_total_of_whole_passes(ranks: int, exponent: float) -> None:
    expected = _reference_rank_powers(ranks, exponent)
    assert population.rank_powers(ranks, exponent).tobytes() == expected.tobytes()
    weights, weights_total = population.rank_powers_and_total(ranks, exponent)
    assert weights.tobytes() == expected.tobytes()
    assert weights_total == float(expected.sum())  # exactly: NumPy's pairwise order, leaf by leaf


@pytest.mark.parametrize("rows", [1, 7, 8, 9, 129, 65_536, 65_537, 131_084, 262_156, 1_000_013])
def test_pairwise_total_is_numpys_sum_bit_for_bit(rows: int) -> None:
    rng = np.random.default_rng(rows)  # signs and 16 magnitudes mixed: another order of additions shows
    values = rng.standard_normal(rows) * 10.0 ** rng.integers(0, 16, rows)
    assert population.pairwise_total(values, lambda start, stop: float(values[start:stop].sum())) == float(values.sum())


@pytest.mark.parametrize("rows", [3, 65_537, 300_001])
def test_normalise_divides_in_place_as_one_division_and_knows_total_and_order(rows: int) -> None:
    rising = np.random.default_rng(1).random(rows)
    for weights in (np.sort(rising)[::-1].copy(), rising.copy()):
        expected = weights / weights.sum()
        known = population.normalise(weights)
        assert known.vector is weights and weights.tobytes() == expected.tobytes()
        assert known.total == float(expected.sum())
        assert known.non_increasing == bool(np.all(expected[1:] <= expected[:-1]))
    weights = np.ones(rows)
    weights[rows // 2] = 2.0  # one rise in the middle of a leaf or on a leaf's first row
    assert population.normalise(weights).non_increasing is False


@pytest.mark.parametrize("rows", [1, 70_000, 200_003])
def test_the_stratified_draw_knows_its_total_exactly(rows: int) -> None:
    shares = population.rank_powers(rows, 0.9)
    shares /= shares.sum()
    for items in (1, 3 * rows + 7, 50_000_000):
        counts, counts_total = population.stratified_counts(items, shares, np.random.default_rng(items))
        assert counts_total == float(counts.sum()) == items


def test_a_zipf_load_takes_each_vector_total_from_its_fused_pass() -> None:
    model = _zipf_devices(200_000)
    ctx = build_context(model, explicit_design(model))
    load = build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), 200_000, 42)
    vector = load.factored.unit_terms[0][1]
    items = load.factored.item_terms[0][1]
    assert load.share_vectors._known(vector).total == float(vector.sum())  # recorded by the build, not summed now
    assert load.share_vectors._known(items).total == float(items.sum())
    assert load.share_vectors.whole(items) and not load.share_vectors.whole(vector)
    assert load.share_vectors.non_increasing(vector) is True and load.ranked


@pytest.mark.parametrize("rows", [1, 40_000, 1_100_000])
def test_partition_ids_count_the_rows_and_sum_a_whole_vector_in_one_pass(rows: int) -> None:
    whole = np.floor(np.random.default_rng(rows).pareto(1.2, rows) * 3)  # whole numbers, a long tail
    ids, counts = partition_ids(rows, 17, salt=5)
    fused_ids, fused_counts, sums = partition_ids_and_sums(rows, 17, 5, whole, float(whole.sum()))
    assert fused_ids.tobytes() == ids.tobytes() and fused_counts.tobytes() == counts.tobytes()
    assert sums is not None and sums.tobytes() == np.bincount(ids, weights=whole, minlength=17).tobytes()
    # too large to add exactly next to the row counts: no sums, the same ids and counts
    huge = whole + 2.0 ** 51
    _, huge_counts, none = partition_ids_and_sums(rows, 17, 5, huge, float(huge.sum()))
    assert none is None and huge_counts.tobytes() == counts.tobytes()


def test_per_partition_sums_are_numpys_bincount_per_two_to_the_twenty_rows_bit_for_bit() -> None:
    rows = (1 << 20) + 70_001
    load = _table_load(1000)  # any load: the sums only read the placement's ids
    ids, counts = partition_ids(rows, 17, salt=9)
    placement = Placement(load, 17, ids, counts)
    rng = np.random.default_rng(3)
    values = rng.standard_normal(rows) * 10.0 ** rng.integers(0, 12, rows)  # the order of additions shows
    expected = np.zeros(18)
    for start in range(0, rows, 1 << 20):  # as the sums were taken before: bincount per 2^20 rows
        expected += np.bincount(ids[start:start + (1 << 20)], weights=values[start:start + (1 << 20)],
                                minlength=18)
    assert placement.sums(values).tobytes() == expected[:17].tobytes()


def test_a_zipf_placement_takes_its_item_sums_from_the_hashing_pass() -> None:
    model = _zipf_devices(50_000)
    ctx = build_context(model, explicit_design(model))
    load = build_index_load(ctx, "table", index_templates(ctx)["table"], contributions(ctx), 50_000, 42)
    whole = load.whole_items()
    assert whole is not None and whole[0] is load.factored.item_terms[0][1]  # the devices' are constant
    placement = place(load, 23, salt=4)
    known = placement._vector_sums[(0, id(whole[0]))][1]
    assert known.tobytes() == np.bincount(placement.partition, weights=whole[0], minlength=23).tobytes()


@pytest.mark.parametrize("shape", ["random", "ties", "all_equal", "falling", "rising", "nan", "late_max"])
@pytest.mark.parametrize("count", [1, 10, 1000])
def test_top_rows_scouted_equal_a_stable_sort(shape: str, count: int) -> None:
    rows = 300_007
    rng = np.random.default_rng(count)
    values = {
        "random": rng.random(rows), "ties": np.floor(rng.random(rows) * 7), "all_equal": np.full(rows, 2.5),
        "falling": np.linspace(1.0, 0.0, rows), "rising": np.linspace(0.0, 1.0, rows),
        "nan": np.where(rng.random(rows) < 1e-4, np.nan, rng.random(rows)),
        "late_max": np.concatenate([np.zeros(rows - 5), [3.0, 1.0, 3.0, 2.0, -0.0]])}[shape]
    # the former way, argpartition of every row (a stable sort, but for NaN, which it ranks above all)
    threshold = values[np.argpartition(values, rows - count)[rows - count]]
    above = np.flatnonzero(values > threshold)
    chosen = np.sort(np.concatenate([above, np.flatnonzero(values == threshold)[:count - len(above)]]))
    expected = chosen[np.argsort(-values[chosen], kind="stable")]
    assert top_rows(values, count).tolist() == expected.tolist()
    if shape != "nan":
        assert expected.tolist() == np.argsort(-values, kind="stable")[:count].tolist()
