"""Three-way merge of model documents (issue #14.4): non-overlapping edits both survive; overlaps are named."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from modeling.workspace.merge import changed_paths, three_way_merge

BASE = {
    "name": "Shop", "table": {"name": "shop", "region": "us-east-1"},
    "entities": [{"name": "Customer", "item_count": 10}, {"name": "Order", "item_count": 100}],
    "access_patterns": [{"name": "get_customer", "kind": "read_one"}],
}


def _edit(**changes):
    document = copy.deepcopy(BASE)
    for key, value in changes.items():
        document[key] = value
    return document


def test_edits_to_different_items_both_survive() -> None:
    mine = _edit(access_patterns=[*BASE["access_patterns"], {"name": "list_orders", "kind": "read_many"}])
    theirs = _edit(entities=[{"name": "Customer", "item_count": 99}, BASE["entities"][1]])
    result = three_way_merge(BASE, mine, theirs)
    assert result.clean
    assert [p["name"] for p in result.document["access_patterns"]] == ["get_customer", "list_orders"]
    assert result.document["entities"][0]["item_count"] == 99


def test_the_same_field_changed_differently_is_a_conflict_that_keeps_theirs() -> None:
    mine = _edit(table={"name": "shop", "region": "eu-west-1"})
    theirs = _edit(table={"name": "shop", "region": "ap-northeast-1"})
    result = three_way_merge(BASE, mine, theirs)
    [conflict] = result.conflicts
    assert (conflict.path, conflict.mine, conflict.theirs) == ("table.region", "eu-west-1", "ap-northeast-1")
    assert result.document["table"]["region"] == "ap-northeast-1"


def test_a_deletion_on_one_side_and_no_change_on_the_other_deletes() -> None:
    mine = _edit(entities=[BASE["entities"][0]])
    result = three_way_merge(BASE, mine, copy.deepcopy(BASE))
    assert result.clean and [e["name"] for e in result.document["entities"]] == ["Customer"]


def test_a_deletion_against_an_edit_of_the_same_item_is_a_conflict() -> None:
    mine = _edit(entities=[BASE["entities"][0]])
    theirs = _edit(entities=[BASE["entities"][0], {"name": "Order", "item_count": 5}])
    result = three_way_merge(BASE, mine, theirs)
    assert [c.path for c in result.conflicts] == ["entities[Order]"]


def test_changed_paths_name_what_differs() -> None:
    after = _edit(name="Shop 2", entities=[{"name": "Customer", "item_count": 11}, BASE["entities"][1]])
    assert changed_paths(BASE, after) == ["name", "entities[Customer].item_count"]


names = st.sampled_from(["a", "b", "c", "d"])
documents = st.fixed_dictionaries({
    "name": st.text(max_size=3),
    "entities": st.lists(st.fixed_dictionaries({"name": names, "item_count": st.integers(0, 3)}),
                         max_size=4, unique_by=lambda e: e["name"]),
})


@given(documents, documents)
def test_when_one_side_did_not_change_the_merge_is_the_other_side(base: dict, other: dict) -> None:
    assert three_way_merge(base, copy.deepcopy(base), other).document == other
    assert three_way_merge(base, other, copy.deepcopy(base)).document == other
