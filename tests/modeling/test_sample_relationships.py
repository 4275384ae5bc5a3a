"""A relationship's child attribute without a generator holds an existing parent's identifier in the sample data
(a stranger's book club, 2026-12-03: the Layout's sample table showed 12 meetings whose memberIds named none of
the 4 members, so the item collections a design builds on were empty)."""

from __future__ import annotations

from typing import Any

from modeling.data.sample_data import generate_items
from modeling.model import Model


def _book_club(meeting_member_generator: dict[str, Any] | None = None, relationship_order: int = 1) -> Model:
    member_id: dict[str, Any] = {"name": "memberId"}
    if meeting_member_generator is not None:
        member_id["generator"] = meeting_member_generator
    relationships = [{"name": "member_meetings", "kind": "one_to_many", "parent": "Member", "child": "Meeting",
                      "child_attributes": ["memberId"], "cardinality": {"mean": 40, "max": 500}},
                     {"name": "a_host", "kind": "one_to_many", "parent": "Member", "child": "Meeting",
                      "child_attributes": ["hostId"]}][::relationship_order]
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Book club", "table": {"name": "club"},
        "entities": [
            {"name": "Member", "item_count": 5000, "identifiers": ["memberId"],
             "attributes": [{"name": "memberId"}, {"name": "name"}, {"name": "email", "unique": True}]},
            {"name": "Meeting", "item_count": 200_000, "identifiers": ["meetingId"],
             "attributes": [{"name": "meetingId"}, member_id, {"name": "hostId"}, {"name": "bookTitle"}]}],
        "relationships": relationships,
        "access_patterns": [{"name": "get_member", "kind": "read_one", "entities": ["Member"], "inputs": ["memberId"],
                             "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}}]})


def test_a_child_attribute_without_a_generator_names_an_existing_parent() -> None:
    items = generate_items(_book_club(), {"Member": 4, "Meeting": 12}, seed=7)
    members = {m["memberId"] for m in items["Member"]}
    assert len(members) == 4
    assert {m["memberId"] for m in items["Meeting"]} <= members
    assert {m["hostId"] for m in items["Meeting"]} <= members  # the second relationship's attribute too


def test_a_generator_the_model_gives_is_kept() -> None:
    items = generate_items(_book_club({"kind": "uuid", "prefix": "x_"}), {"Member": 4, "Meeting": 12}, seed=7)
    assert all(m["memberId"].startswith("x_") for m in items["Meeting"])


def test_the_relationships_order_in_the_file_changes_nothing() -> None:
    assert generate_items(_book_club(), 6, seed=3) == generate_items(_book_club(relationship_order=-1), 6, seed=3)
