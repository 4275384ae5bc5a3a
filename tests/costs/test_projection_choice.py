"""Issue 28.3: each GSI's projection is chosen by cost (`modeling.design.projections`).

The expected figures are worked out by hand from docs/dynamodb-rules.md in the comments; the code under test only
produces the figures compared.
"""

from __future__ import annotations

from decimal import Decimal

from modeling.model import Model, ProjectionType
from studio.estimate import CapacityOption, EstimateRequest, estimate_model

SECONDS_PER_MONTH = 730 * 3600  # §0.2: the 730-hour month


def audit_model(heavy: str) -> Model:
    """Audit events of 5 KB (a wide `payload`), written and updated in place, read by id (strongly consistent: the
    table is keyed on eventId, so the read by device needs a GSI) and listed by device as whole items.
    `heavy="write"`: 100 puts/s and 50 payload updates/s, 0.1 listings/s; `heavy="read"`: 1 put/s, 500 listings/s."""
    puts, updates, lists = (100.0, 50.0, 0.1) if heavy == "write" else (1.0, 0.0, 500.0)
    traffic = lambda rate: {"peak_requests_per_second": rate, "average_requests_per_second": rate}  # noqa: E731
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Audit events",
        "table": {"name": "audit-events", "region": "us-east-1"},
        "entities": [{"name": "Event", "item_count": 1_000_000, "identifiers": ["eventId"], "attributes": [
            {"name": "eventId", "unique": True, "avg_size_bytes": 36, "max_size_bytes": 36,
             "generator": {"kind": "uuid"}},
            {"name": "deviceId", "avg_size_bytes": 20, "max_size_bytes": 20,
             "generator": {"kind": "faker", "provider": "user_name"}},
            {"name": "createdAt", "avg_size_bytes": 20, "max_size_bytes": 20,
             "generator": {"kind": "timestamp_range", "start": "2026-01-01T00:00:00Z", "end": "2026-12-01T00:00:00Z"}},
            {"name": "payload", "avg_size_bytes": 5000, "max_size_bytes": 5000,
             "generator": {"kind": "text", "length_bytes": 5000}}]}],
        "access_patterns": [
            {"name": "put_event", "kind": "write", "entities": ["Event"], "inputs": ["eventId"],
             "traffic": traffic(puts)},
            *([{"name": "update_event_payload", "kind": "update", "entities": ["Event"], "inputs": ["eventId"],
                "changed_attributes": ["payload"], "traffic": traffic(updates)}] if updates else []),
            {"name": "get_event_by_id", "kind": "read_one", "entities": ["Event"], "inputs": ["eventId"],
             "consistency": "strong", "traffic": traffic(1.0)},
            {"name": "list_events_by_device", "kind": "read_many", "entities": ["Event"], "inputs": ["deviceId"],
             "range_condition": {"attribute": "createdAt", "operator": "greater_than_or_equal"}, "expected_items": 10,
             "traffic": traffic(lists)}]})


def _on_demand_lines(model: Model) -> tuple[object, dict[str, tuple[Decimal, Decimal | None]]]:
    estimate = estimate_model(EstimateRequest(model=model, compare_designs=False))
    option = estimate.cost.option(CapacityOption.ON_DEMAND, model.table.table_class)
    assert option is not None
    return estimate.design, {line.name: (line.quantity, line.monthly_cost_usd) for line in option.line_items}


def test_a_write_heavy_index_of_wide_items_is_keys_only_and_its_readers_fetch_the_items() -> None:
    design, lines = _on_demand_lines(audit_model("write"))
    gsi = design.key_design.global_secondary_indexes[0]
    assert gsi.projection.type in (ProjectionType.KEYS_ONLY, ProjectionType.INCLUDE)
    listing = design.plan("list_events_by_device")
    assert (listing.index, listing.fetch) == (gsi.name, "BatchGetItem")  # the plan says it fetches the items
    assert design.plan("update_event_payload").index_writes == ()  # payload is not projected: no index write
    # Entry (§4.1: table key + index keys, KEYS_ONLY; §6: name + value bytes): eventId 7 + 36, deviceId 8 + 20,
    # createdAt 9 + 20 = 100 B. Index writes (§4.1): each put enters the index, 1 write of ceil(100 / 1024) = 1 WRU;
    # the payload update changes no projected attribute nor key: 0. 100 puts/s x 2,628,000 s = 262,800,000 WRU
    # = 262.8 million x $0.625 (§9.2) = $164.25 a month. (ALL would write 5,107 B entries: 5 WRU per put and per
    # update, 750 WRU/s.)
    assert lines[f"Writes, index {gsi.name} (WRU)"] == (Decimal("262.8"), Decimal("164.25"))
    # Storage (§4.1, §6): 1,000,000 entries x (100 B + 100 B overhead) = 200,000,000 B / 1024^3 = 0.186265 GB
    # x $0.25 = $0.0466 -> $0.05.
    quantity, cost = lines[f"Storage, GSI {gsi.name} (GB-month)"]
    assert abs(quantity - Decimal("0.186265")) < Decimal("0.000001") and cost == Decimal("0.05")
    # The fetch (§1.2: BatchGetItem rounds each item to 4 KB; eventually consistent): 10 items of 5,107 B = 10 x 2
    # blocks x 0.5 = 10 RRU on the table per listing, 0.1/s x 2,628,000 s = 262,800 listings = 2,628,000 RRU; with
    # the strong GetItem's 2 RRU at 1/s (5,256,000 RRU), 7.884 million table reads.
    assert lines["Reads, table audit-events (RRU)"][0] == Decimal("7.884")


def test_a_read_heavy_pattern_that_returns_whole_items_keeps_an_all_projection() -> None:
    design, lines = _on_demand_lines(audit_model("read"))
    gsi = design.key_design.global_secondary_indexes[0]
    assert gsi.projection.type is ProjectionType.ALL
    assert design.plan("list_events_by_device").fetch is None
    # ALL (§1.2, §4.1): 10 entries of 5,107 B = 51,070 B -> 13 blocks x 0.5 = 6.5 RRU a listing, against KEYS_ONLY's
    # 0.5 + 10 fetched items x 2 blocks x 0.5 = 10.5; at 500/s the 4 RRU saved are 5.256e9 RRU = $657 a month, far
    # more than ALL's extra 4 WRU per put at 1/s ($6.57) and 4.8 GB ($1.21). Index reads: 500 x 2,628,000 x 6.5 =
    # 8,541 million RRU.
    assert lines[f"Reads, index {gsi.name} (RRU)"][0] == Decimal("8541")
