"""When a pattern may share a GSI through a composite sort key, and when it may not (issue 28.3)."""

from __future__ import annotations

from modeling.design.design_space import LayoutChoice, Placement
from modeling.design.generator import COLLECTIONS, generate_design
from modeling.design.plans import Design
from modeling.model import Model

TRAFFIC = {"peak_requests_per_second": 1, "average_requests_per_second": 1}


def _loans(*reads: dict[str, object]) -> Model:
    """Loans keyed by their id on the table (a strong read by id), read by member in the ways given."""
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Loans", "table": {"name": "loans"},
        "entities": [{"name": "Loan", "item_count": 1000, "identifiers": ["loanId"], "attributes": [
            {"name": "loanId"}, {"name": "memberId"}, {"name": "isbn"},
            {"name": "dueDate", "generator": {"kind": "timestamp_range", "start": "2026-01-01T00:00:00Z",
                                              "end": "2026-12-31T00:00:00Z", "format": "date"}}]}],
        "access_patterns": [
            {"name": "get_loan", "kind": "read_one", "entities": ["Loan"], "inputs": ["loanId"],
             "consistency": "strong", "traffic": TRAFFIC},
            *({"kind": "read_many", "entities": ["Loan"], "expected_items": 2, "traffic": TRAFFIC, **r}
              for r in reads)]})


def _design(model: Model, composite: bool) -> Design:
    return generate_design(model, COLLECTIONS, LayoutChoice((("Loan", Placement()),), True, composite))


BY_MEMBER = {"name": "list_loans_by_member", "inputs": ["memberId"]}
DUE_AFTER = {"name": "list_loans_by_member_due_after", "inputs": ["memberId"],
             "range_condition": {"attribute": "dueDate", "operator": "greater_than"}}
FOR_ISBN = {"name": "list_loans_by_member_for_isbn", "inputs": ["memberId", "isbn"]}


def test_a_range_on_another_attribute_shares_the_gsi_through_a_composite_sort_key() -> None:
    design = _design(_loans(BY_MEMBER, DUE_AFTER), composite=True)
    (index,) = design.key_design.global_secondary_indexes
    plans = {p.pattern: p for p in design.plans}
    assert plans["list_loans_by_member"].index == plans["list_loans_by_member_due_after"].index == index.name
    # the range on dueDate under the shared sort key's prefix is bounded by it on both sides, as the Preview sends
    # it (a bare `> :sk` would read the other patterns' items of the member that sort after the prefix)
    assert plans["list_loans_by_member_due_after"].key_condition.endswith("GSI1SK BETWEEN :sk_from AND :sk_to")
    assert plans["list_loans_by_member_due_after"].filter_expression == ""


def test_a_pattern_never_shares_a_gsi_when_an_earlier_reader_would_filter_more() -> None:
    # the isbn first would leave the range on dueDate to a filter over every loan of the member: the isbn gets a
    # GSI of its own and the range stays on the sort key
    design = _design(_loans(DUE_AFTER, FOR_ISBN), composite=True)
    assert len(design.key_design.global_secondary_indexes) == 2
    plans = {p.pattern: p for p in design.plans}
    assert plans["list_loans_by_member_due_after"].filter_expression == ""
    assert plans["list_loans_by_member_for_isbn"].filter_expression == ""


def test_the_move_is_a_policy_of_the_layout() -> None:
    # the rule-based designs (no layout choice) never re-sort an entity in a GSI for another pattern
    model = _loans(DUE_AFTER, FOR_ISBN)
    assert generate_design(model, COLLECTIONS).key_design == _design(model, composite=False).key_design
