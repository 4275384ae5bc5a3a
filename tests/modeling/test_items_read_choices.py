"""Items read: which relationship a key names, and items returned never above the items read (issue 28.5).

Expected figures are worked out by hand from the model's counts: with children spread evenly over parents, a
parent's collection holds child item_count / parent item_count items on average.
"""

from __future__ import annotations

from typing import Any

import pytest

from modeling.design.generator import explicit_design
from modeling.design.items_read import entity_rows
from modeling.model import Model
from tests.modeling.exact_models import books_model, keyed

_UNIFORM = {"kind": "uniform"}


def _loans(names: tuple[str, str], reverse: bool = False) -> Model:
    """Loans of 200 books by 5,000 members: 10,000 loans, 50 per book, 2 per member (hand-computed)."""
    def ref(name: str, entity: str, attribute: str) -> dict[str, Any]:
        return {"name": name, "avg_size_bytes": 8,
                "generator": {"kind": "reference", "entity": entity, "attribute": attribute}}
    entities = [
        {"name": "Book", "item_count": 200, "identifiers": ["bookId"],
         "attributes": [{"name": "bookId", "unique": True, "generator": {"kind": "uuid"}}]},
        {"name": "Member", "item_count": 5000, "identifiers": ["memberId"],
         "attributes": [{"name": "memberId", "unique": True, "generator": {"kind": "uuid"}}]},
        {"name": "Loan", "item_count": 10_000, "identifiers": ["loanId"],
         "attributes": [{"name": "loanId", "unique": True, "generator": {"kind": "uuid"}},
                        ref("bookId", "Book", "bookId"), ref("memberId", "Member", "memberId")]},
    ]
    relationships = [
        {"name": names[0], "kind": "one_to_many", "parent": "Book", "child": "Loan", "child_attributes": ["bookId"],
         "cardinality": {"mean": 50, "distribution": _UNIFORM}},
        {"name": names[1], "kind": "one_to_many", "parent": "Member", "child": "Loan",
         "child_attributes": ["memberId"], "cardinality": {"mean": 2, "distribution": _UNIFORM}},
    ]
    patterns = [{"name": "list_loans_by_book_and_member", "kind": "read_many", "entities": ["Loan"],
                 "inputs": ["bookId", "memberId"], "expected_items": 2,
                 "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}}]
    if reverse:
        entities, relationships = entities[::-1], relationships[::-1]
    return Model.model_validate({
        "name": "Library", "table": {"name": "library"}, "entities": entities, "relationships": relationships,
        "access_patterns": patterns,
        "key_design": keyed({"Book": ("BOOK#{bookId}", "BOOK"), "Member": ("MEMBER#{memberId}", "MEMBER"),
                             "Loan": ("BOOK#{bookId}#MEMBER#{memberId}", "LOAN#{loanId}")})})


@pytest.mark.parametrize("names", [("book_loans", "member_loans"), ("z_book_loans", "a_member_loans")])
@pytest.mark.parametrize("reverse", [False, True])
def test_a_key_naming_two_parents_reads_the_smaller_collection_whatever_the_names_and_order(
        names: tuple[str, str], reverse: bool) -> None:
    model = _loans(names, reverse)
    loan = model.entity("Loan")
    assert loan is not None
    rows, text = entity_rows(model, loan, {"bookId", "memberId"}, {}, 1.0)
    # a loan is in its book's collection (50) and its member's (2): one book and one member hold at most 2
    assert rows.mean == pytest.approx(10_000 / 5_000)
    assert names[1] in text  # the member relationship, named in the derivation
    design = explicit_design(model)
    assert design is not None
    plan = design.plan("list_loans_by_book_and_member")
    assert plan is not None and plan.items_read_per_request == pytest.approx(2, rel=0.05)


def test_items_returned_are_never_more_than_the_items_read_and_the_derivation_says_why() -> None:
    # 2,000 titles over 3,000 books: 2,000 / 3,000 = 0.667 per ISBN, while the pattern expects 3
    document = books_model(keyed({"Book": ("ISBN#{isbn}", "BOOK"), "Title": ("ISBN#{isbn}", "TITLE#{language}")}))
    model = document.model_copy(update={"entities": tuple(
        e.model_copy(update={"item_count": 3000 if e.name == "Book" else 2000}) for e in document.entities)})
    design = explicit_design(model)
    assert design is not None
    plan = design.plan("list_titles_by_isbn")
    assert plan is not None
    assert plan.items_read_per_request == pytest.approx(2000 / 3000, rel=0.05)
    assert plan.items_returned_per_request <= plan.items_read_per_request
    assert "fewer than the pattern's expected_items (3)" in plan.items_read_derivation
    assert model.access_pattern("list_titles_by_isbn").expected_items == 3  # the model keeps what the user typed


@pytest.mark.parametrize("reverse", [False, True])
def test_without_relationships_two_references_also_read_the_smaller_collection(reverse: bool) -> None:
    # the same loans with only the reference generators to group them: bookId sorts first, memberId is the key
    # that holds fewer loans (10,000 / 5,000 = 2 per member against 50 per book)
    model = _loans(("book_loans", "member_loans"), reverse).model_copy(update={"relationships": ()})
    loan = model.entity("Loan")
    assert loan is not None
    rows, text = entity_rows(model, loan, {"bookId", "memberId"}, {}, 1.0)
    assert rows.mean == pytest.approx(2.0) and text.startswith("memberId refers to Member")
