"""One GSI shared by several patterns through a composite sort key (issue 28.3): what it costs, worked by hand.

A member's account (the member and their loans in one Query) needs a GSI keyed on the member; the loans due after
a date need the loans of a member sorted by due date. Without the move each gets a GSI; with it, the loans'
entries in the account's GSI are sorted `LOAN#{dueDate}#{loanId}` and one GSI serves both. Every figure below is
worked from docs/dynamodb-rules.md, never from the code under test.
"""

from __future__ import annotations

from decimal import Decimal

from costs.capacity import capacity_profile, table_usage
from costs.design_ranking import propose
from costs.monthly import option_estimate
from costs.pricing import load_price_sheet
from costs.usage import CapacityOption, EstimateOptions
from modeling.design.design_space import LayoutChoice, Placement
from modeling.design.generator import COLLECTIONS, generate_design
from modeling.model import Model, TableClass

TRAFFIC = {"peak_requests_per_second": 10, "average_requests_per_second": 10}
SECONDS_PER_MONTH = 2_628_000  # 730 hours (dynamodb-rules §0.2)
MILLION = 1_000_000  # request units are priced and counted per million


def _text(width: int) -> dict[str, object]:
    return {"avg_size_bytes": width, "max_size_bytes": width}


def loans_model() -> Model:
    """Members and their loans; both lookups by id are strongly consistent, so both entities stay keyed by their
    own ids on the table (a GSI cannot serve a strong read, dynamodb-rules §4.1) and the reads by member need a
    GSI."""
    sequence = {"kind": "sequence", "start": 1, "width": 7}
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Loans",
        "table": {"name": "loans", "region": "us-east-1"}, "traffic_profile": {"shape": "flat"},
        "entities": [
            {"name": "Member", "item_count": 100_000, "identifiers": ["memberId"], "attributes": [
                {"name": "memberId", **_text(7), "generator": sequence},
                {"name": "fullName", **_text(20), "generator": {"kind": "text", "length_bytes": 20}}]},
            {"name": "Loan", "item_count": 1_000_000, "identifiers": ["loanId"], "attributes": [
                {"name": "loanId", **_text(7), "generator": sequence},
                {"name": "memberId", **_text(7),
                 "generator": {"kind": "reference", "entity": "Member", "attribute": "memberId"}},
                {"name": "dueDate", **_text(10), "generator": {
                    "kind": "timestamp_range", "start": "2026-01-01T00:00:00Z", "end": "2026-12-31T00:00:00Z",
                    "format": "date"}}]}],
        "relationships": [{"name": "member_loans", "kind": "one_to_many", "parent": "Member", "child": "Loan",
                           "child_attributes": ["memberId"], "cardinality": {"mean": 10, "max": 10}}],
        "access_patterns": [
            {"name": "get_member", "kind": "read_one", "entities": ["Member"], "inputs": ["memberId"],
             "consistency": "strong", "traffic": TRAFFIC},
            {"name": "get_loan", "kind": "read_one", "entities": ["Loan"], "inputs": ["loanId"],
             "consistency": "strong", "traffic": TRAFFIC},
            {"name": "get_account_by_member", "kind": "read_many", "entities": ["Member", "Loan"],
             "inputs": ["memberId"], "expected_items": 11, "traffic": TRAFFIC},
            {"name": "list_loans_by_member_due_after", "kind": "read_many", "entities": ["Loan"],
             "inputs": ["memberId"], "range_condition": {"attribute": "dueDate", "operator": "greater_than"},
             "expected_items": 2, "traffic": TRAFFIC},
            {"name": "create_loan", "kind": "write", "entities": ["Loan"], "inputs": ["loanId"],
             "traffic": TRAFFIC}]})


MODEL = loans_model()
PROPOSAL = propose(MODEL)[0]


def test_one_gsi_serves_the_account_and_the_loans_due_after_a_date() -> None:
    key_design = PROPOSAL.key_design
    assert [g.name for g in key_design.global_secondary_indexes] == ["GSI1"]
    loan = next(k for k in key_design.entities if k.entity == "Loan")
    assert (loan.indexes["GSI1"].partition_key, loan.indexes["GSI1"].sort_key) == (
        "MEMBER#{memberId}", "LOAN#{dueDate}#{loanId}")
    plans = {p.pattern: p for p in PROPOSAL.plans}
    assert plans["get_account_by_member"].index == plans["list_loans_by_member_due_after"].index == "GSI1"


def test_without_the_move_the_same_layout_needs_a_second_gsi() -> None:
    placements = (("Loan", Placement()), ("Member", Placement()))
    separate = generate_design(MODEL, COLLECTIONS, LayoutChoice(placements, True, False))
    shared = generate_design(MODEL, COLLECTIONS, LayoutChoice(placements, True, True))
    assert len(separate.key_design.global_secondary_indexes) == 2
    assert shared.key_design == PROPOSAL.key_design


def test_the_shared_gsi_costs_what_the_rules_say() -> None:
    # Item sizes (dynamodb-rules §6: name bytes + value bytes; ALL projection, so an entry is the whole item):
    #   Loan: loanId 6+7, memberId 8+7, dueDate 7+10, PK "LOAN#0000001" 2+12, SK "LOAN" 2+4,
    #         GSI1PK "MEMBER#0000001" 6+14, GSI1SK "LOAN#2026-05-05#0000001" 6+23 = 13+15+17+14+6+20+29 = 114 B
    #   Member: memberId 8+7, fullName 8+20, PK "MEMBER#0000001" 2+14, SK "MEMBER" 2+6, GSI1PK 6+14,
    #           GSI1SK "MEMBER" 6+6 = 15+28+16+8+20+12 = 99 B
    # Writes (§4.1, §1.1): a new Loan enters GSI1 once, 114 B rounds up to one 1 KB block: 1 WRU a put, on one
    #   index only. 10 puts/s x 2,628,000 s = 26,280,000 WRU x $0.625 per million (§9.2) = $16.425 -> $16.43.
    # Reads (§1.2, §4.1): the account reads 1 Member + 10 Loans = 99 + 1,140 = 1,239 B -> one 4 KB block x 0.5
    #   = 0.5 RRU; the loans due after a date read 2 x 114 = 228 B -> 0.5 RRU. (10 + 10)/s x 0.5 = 10 RRU/s x
    #   2,628,000 s = 26,280,000 RRU x $0.125 per million = $3.285 -> $3.29 (rounded half up to the cent).
    # Storage (§4.1: each entry carries 100 B): 100,000 x (99 + 100) + 1,000,000 x (114 + 100)
    #   = 19,900,000 + 214,000,000 = 233,900,000 B.
    profile = capacity_profile(MODEL, PROPOSAL)
    usage = table_usage(MODEL, PROPOSAL, profile)
    estimate = option_estimate(usage, load_price_sheet("us-east-1"),
                               EstimateOptions(capacity_options=(CapacityOption.ON_DEMAND,)),
                               CapacityOption.ON_DEMAND, TableClass.STANDARD)
    lines = {line.name: line for line in estimate.line_items}
    assert lines["Writes, index GSI1 (WRU)"].quantity == Decimal(10 * SECONDS_PER_MONTH) / MILLION
    assert lines["Writes, index GSI1 (WRU)"].monthly_cost_usd == Decimal("16.43")
    assert lines["Reads, index GSI1 (RRU)"].quantity == Decimal(10 * SECONDS_PER_MONTH) / MILLION
    assert lines["Reads, index GSI1 (RRU)"].monthly_cost_usd == Decimal("3.29")
    assert [(i.name, i.storage_bytes) for i in usage.indexes] == [("GSI1", 233_900_000)]
