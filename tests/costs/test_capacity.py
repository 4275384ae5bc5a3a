"""Capacity per access pattern from a model's design, checked against hand arithmetic."""

from __future__ import annotations

from decimal import Decimal

import pytest

from costs.capacity import capacity_profile, table_usage
from costs.errors import UsageError
from costs.estimate import EstimateRequest
from modeling.design.generator import rule_based_designs
from modeling.examples import list_examples, load_example
from modeling.model import Model
from studio.estimate import estimate_model

TRAFFIC = {"peak_requests_per_second": 20, "average_requests_per_second": 10}


def _model(consistency: str = "eventual") -> Model:
    # Doc items: id "d000000001" (10 B), body 5,000 B; keys PK "DOC#d000000001" (14 B), SK "DOC" (3 B)
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Docs", "table": {"name": "docs"},
        "entities": [{"name": "Doc", "item_count": 1000, "identifiers": ["id"], "attributes": [
            {"name": "id", "avg_size_bytes": 10, "generator": {"kind": "sequence", "prefix": "d", "width": 9}},
            {"name": "owner", "avg_size_bytes": 8, "generator": {"kind": "sequence", "prefix": "o", "width": 7}},
            {"name": "body", "avg_size_bytes": 5000, "generator": {"kind": "text", "length_bytes": 5000}}]}],
        "access_patterns": [
            {"name": "get_doc_by_id", "kind": "read_one", "entities": ["Doc"], "inputs": ["id"],
             "consistency": consistency, "traffic": TRAFFIC},
            {"name": "list_docs_by_owner", "kind": "read_many", "entities": ["Doc"], "inputs": ["owner"],
             "returns": ["id"], "expected_items": 10, "traffic": TRAFFIC},
            {"name": "put_doc_by_id", "kind": "write", "entities": ["Doc"], "inputs": ["id"], "traffic": TRAFFIC}],
        "key_design": {"global_secondary_indexes": [{"name": "GSI1", "partition_key": {"name": "GSI1PK"},
                                                     "sort_key": {"name": "GSI1SK"},
                                                     "projection": {"type": "KEYS_ONLY"}}],
                       "entities": [{"entity": "Doc", "table": {"partition_key": "DOC#{id}", "sort_key": "DOC"},
                                     "indexes": {"GSI1": {"partition_key": "OWNER#{owner}",
                                                          "sort_key": "DOC#{id}"}}}]}})


def _profile(consistency: str = "eventual"):
    model = _model(consistency)
    design = rule_based_designs(model)[0]
    return model, design, capacity_profile(model, design)


def test_item_size_adds_names_hinted_values_and_the_design_keys() -> None:
    # id 2+10, owner 5+8, body 4+5000, PK 2+14, SK 2+3, GSI1PK 6+14 ("OWNER#o0000001"), GSI1SK 6+14 = 5090
    assert _profile()[2].entity_size("Doc").average_bytes == 5090


@pytest.mark.parametrize("consistency, units", [("eventual", "1.0"), ("strong", "2")], ids=["eventual", "strong"])
def test_get_item_rounds_to_4kb_blocks_and_halves_for_eventual(consistency: str, units: str) -> None:
    # 5,090 B -> 2 blocks of 4 KB; strong 2 RCU, eventual 1 RCU
    capacity = next(c for c in _profile(consistency)[2].patterns if c.pattern == "get_doc_by_id")
    assert capacity.read_units_per_request == Decimal(units)


def test_gsi_query_reads_keys_only_entries_summed_then_rounded() -> None:
    # KEYS_ONLY entry: PK 16 + SK 5 + GSI1PK 20 + GSI1SK 20 = 61 B; 10 entries = 610 B -> 1 block, eventual 0.5
    _, _, profile = _profile()
    capacity = next(c for c in profile.patterns if c.pattern == "list_docs_by_owner")
    assert profile.entry_size("GSI1", "Doc") == 61 and capacity.read_units_per_request == Decimal("0.5")


def test_a_put_costs_the_table_write_plus_one_index_entry() -> None:
    # table: 5,090 B -> 5 KB -> 5 WCU; GSI1 entry 61 B -> 1 WCU
    capacity = next(c for c in _profile()[2].patterns if c.pattern == "put_doc_by_id")
    assert capacity.write_units_per_request == 5
    assert capacity.index_write_units_per_request == (("GSI1", Decimal("1.000000")),)


def test_usage_charges_reads_where_they_run_and_index_writes_to_the_index() -> None:
    model, design, profile = _profile()
    usage = table_usage(model, design, profile)
    # daily means (average 10/s): table reads GetItem 1.0 x 10 = 10, plus list_docs_by_owner's fetch: `id` is only
    # inside GSI1's key strings, not an attribute of the KEYS_ONLY entry (§4.1), so the 10 docs are fetched, each
    # 5,090 B -> 2 blocks x 0.5 = 1 RRU (§1.2): 10 x 10 = 100, 110 in all; table writes 5 x 10 = 50; GSI1: reads
    # 0.5 x 10, writes 1 x 10. Busiest hour (flat profile: hour 0) at the stated peak of 20/s: 220, 100, 10, 20
    def mean(rates: tuple[float, ...]) -> float:
        return sum(rates) / 24

    gsi = usage.indexes[0]
    assert [mean(r) for r in (usage.table.read_units_per_second, usage.table.write_units_per_second,
                              gsi.read_units_per_second, gsi.write_units_per_second)] == pytest.approx([110, 50, 5, 10])
    assert [r[0] for r in (usage.table.read_units_per_second, usage.table.write_units_per_second,
                           gsi.read_units_per_second, gsi.write_units_per_second)] == pytest.approx([220, 100, 10, 20])


def test_storage_adds_100_bytes_per_item_and_per_index_entry() -> None:
    model, design, profile = _profile()
    usage = table_usage(model, design, profile)
    assert usage.table.storage_bytes == 1000 * (5090 + 100)
    assert usage.indexes[0].storage_bytes == 1000 * (61 + 100)


def test_pattern_cost_is_its_units_at_the_on_demand_price() -> None:
    result = estimate_model(EstimateRequest(_model(), region="us-east-1", compare_designs=False))
    row = next(r for r in result.pattern_rows if r["access pattern"] == "get_doc_by_id")
    # 10 requests/s x 1 RRU x 2,628,000 s = 26.28 M RRU x $0.125 per million = $3.285 -> $3.29
    assert row["on-demand USD/month"] == Decimal("3.29")


def test_backups_and_billable_stream_reads_appear_as_line_items() -> None:
    from costs.capacity import UsageExtras
    from costs.usage import CapacityOption

    extras = UsageExtras(on_demand_backup_gb=Decimal(100), stream_read_requests_per_month=12_500_000)
    result = estimate_model(EstimateRequest(_model(), region="us-east-1", compare_designs=False, extras=extras))
    lines = {i.name: i for i in result.cost.option(CapacityOption.ON_DEMAND).line_items}
    backup = next(i for n, i in lines.items() if "backup" in n.lower())
    assert backup.monthly_cost_usd == Decimal("10.00")  # 100 GB x $0.10 per GB-month (dynamodb-rules §9.2)
    # 12.5 M reads / 100,000 x $0.02 = $2.50; the 2.5 M free reads count only with the free tier on (§9.2)
    assert lines["DynamoDB Streams reads"].monthly_cost_usd == Decimal("2.50")


@pytest.mark.parametrize("slug", [e.slug for e in list_examples()])
def test_checks_and_cost_engine_agree_on_every_read(slug: str) -> None:
    """Issue 12: the checks and the cost engine once disagreed on 8 of 44 reads; they now share one estimator."""
    from modeling.design.checks.context import build_context
    from modeling.design.checks.estimates import read_units_per_request

    model = load_example(slug)
    design = rule_based_designs(model)[0]
    ctx, profile = build_context(model, design), capacity_profile(model, design)
    for capacity, plan in zip(profile.patterns, design.plans, strict=True):
        if not plan.operation.is_write:
            assert read_units_per_request(ctx, plan) == float(capacity.read_units_per_request), plan.pattern


def test_traffic_past_the_engines_range_names_the_access_pattern_the_user_wrote() -> None:
    """The error named `crm.read_units_per_second`, a field no model has (issue 30, item 8)."""
    model = load_example("iot_telemetry")
    reads = [p for p in model.access_patterns if p.name == "get_latest_reading_by_device"]
    heavy = reads[0].model_copy(update={
        "expected_items": 1e9, "traffic": reads[0].traffic.model_copy(
            update={"peak_requests_per_second": 1e9, "average_requests_per_second": 1e9})})
    # past the engine's 10^12 units/s once a request reads over 1,000 RCU: 10^9 items of a Query are many 1-MB
    # pages of 128 RCU each (1 MB / 4 KB / 2, eventual), so at 10^9 requests/s the table's reads are out of range
    model = model.model_copy(update={"access_patterns": tuple(
        heavy if p.name == heavy.name else p for p in model.access_patterns)})
    design = rule_based_designs(model)[0]
    with pytest.raises(UsageError) as raised:
        table_usage(model, design, capacity_profile(model, design))
    assert raised.value.field == f"access_patterns[{heavy.name}].traffic.peak_requests_per_second"
    assert "read_units_per_second" not in str(raised.value) and "expected_items" in raised.value.hint
