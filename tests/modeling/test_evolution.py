"""Comparing two models: every change found, matched by name (order-independent), classified by what
DynamoDB allows on a live table."""

from __future__ import annotations

import copy
import json

from modeling.migration.evolution import (
    ChangeKind,
    Classification,
    Subject,
    changes_json,
    compare_models,
    overall,
)
from modeling.model_file import model_from_document
from tests.evolution_models import (
    library,
    library_document,
    with_branch_partition_key,
    with_loan_sort_key_by_due_date,
    with_loans_by_book,
)


def _paths(changes) -> dict[str, tuple[str, str]]:
    return {c.path: (c.kind.value, c.classification.value) for c in changes}


def test_a_model_compared_with_itself_has_no_change() -> None:
    assert compare_models(library(), library()) == ()


def test_reordering_every_list_of_a_file_is_no_change() -> None:
    document = copy.deepcopy(with_loans_by_book())
    document["entities"].reverse()
    for entity in document["entities"]:
        entity["attributes"].reverse()
    document["access_patterns"].reverse()
    document["key_design"]["entities"].reverse()
    reordered = model_from_document(document)
    assert compare_models(library(with_loans_by_book()), reordered) == ()
    # and the same inputs give the same bytes, whichever order the OLD file lists things in
    plain = json.dumps(changes_json(compare_models(library(), library(with_loans_by_book()))))
    shuffled = json.dumps(changes_json(compare_models(library(), reordered)))
    assert plain == shuffled


def test_a_new_gsi_on_derived_keys_is_built_online_but_old_items_need_a_backfill() -> None:
    changes = compare_models(library(), library(with_loans_by_book()))
    assert _paths(changes) == {
        "access_patterns[list_loans_by_book]": ("added", "in_place"),
        "key_design.global_secondary_indexes[ByBook]": ("added", "in_place"),
        # GSI1PK/GSI1SK are rendered from isbn and dueDate: no existing Loan item has them
        "key_design.entities[Loan].indexes[ByBook]": ("added", "backfill"),
    }
    backfill = next(c for c in changes if c.classification is Classification.BACKFILL)
    assert backfill.entity == "Loan" and backfill.index == "ByBook" and "dueDate, isbn" in backfill.reason
    assert overall(changes) is Classification.BACKFILL


def test_a_gsi_keyed_on_the_items_own_attributes_needs_no_backfill() -> None:
    document = copy.deepcopy(library_document())
    document["key_design"]["global_secondary_indexes"] = [
        {"name": "ByIsbn", "partition_key": {"name": "isbn"}, "sort_key": {"name": "dueDate"}}]
    document["key_design"]["entities"][1]["indexes"] = {"ByIsbn": {"partition_key": "{isbn}",
                                                                   "sort_key": "{dueDate}"}}
    changes = compare_models(library(), library(document))
    assert {c.classification for c in changes} == {Classification.IN_PLACE}


def test_a_sort_key_template_change_rewrites_the_entitys_items() -> None:
    changes = compare_models(library(), library(with_loan_sort_key_by_due_date()))
    assert _paths(changes) == {"key_design.entities[Loan].table": ("modified", "rewrite")}
    assert changes[0].before == "MEMBER#{memberId} / LOAN#{loanId}"
    assert changes[0].after == "MEMBER#{memberId} / LOAN#{dueDate}#{loanId}"


def test_a_new_partition_key_attribute_needs_a_new_table() -> None:
    changes = compare_models(library(), library(with_branch_partition_key()))
    found = _paths(changes)
    assert found["key_design.partition_key"] == ("modified", "new_table")
    assert found["key_design.entities[Loan].table"] == ("modified", "new_table")
    # the Member templates are unchanged, but the Members move with the table all the same; their new index
    # entries are written by the copy itself, so the GSI needs no backfill of its own
    assert "key_design.entities[Member].table" not in found
    assert found["key_design.entities[Member].indexes[ByBranch]"] == ("added", "in_place")
    assert overall(changes) is Classification.NEW_TABLE


def test_an_lsi_added_needs_a_new_table() -> None:
    document = copy.deepcopy(library_document())
    document["key_design"]["local_secondary_indexes"] = [
        {"name": "ByDue", "partition_key": {"name": "PK"}, "sort_key": {"name": "LSI1SK"}}]
    changes = compare_models(library(), library(document))
    lsi = next(c for c in changes if c.subject is Subject.INDEX)
    assert (lsi.kind, lsi.classification) == (ChangeKind.ADDED, Classification.NEW_TABLE)
    assert "LSI" in lsi.source


def test_table_settings_ttl_pitr_are_in_place_name_and_region_are_a_new_table() -> None:
    document = copy.deepcopy(library_document())
    document["entities"][1]["attributes"].append({"name": "expiresAt", "type": "N", "required": False})
    document["table"].update(point_in_time_recovery=True, ttl_attribute="expiresAt")
    changes = compare_models(library(), library(document))
    assert _paths(changes) == {"table.point_in_time_recovery": ("modified", "in_place"),
                               "table.ttl_attribute": ("modified", "in_place"),
                               "entities[Loan].attributes[expiresAt]": ("added", "in_place")}
    document["table"]["region"] = "us-east-1"
    assert _paths(compare_models(library(), library(document)))["table.region"] == ("modified", "new_table")


def test_attributes_entities_relationships_and_projections_are_listed() -> None:
    document = copy.deepcopy(with_loans_by_book())
    document["entities"][1]["attributes"].append({"name": "renewals", "type": "N", "required": False})
    document["entities"][0]["attributes"][1]["type"] = "N"  # branch S -> N: every stored value changes type
    # (branch numbers now: a Number whose generator makes text is refused by validation)
    document["entities"][0]["attributes"][1]["generator"] = {"kind": "enum", "values": ["1", "2", "3"]}
    document["entities"][1]["item_count"] = 80_000
    document["relationships"][0]["cardinality"] = {"mean": 8}
    newer = copy.deepcopy(document)
    newer["key_design"]["global_secondary_indexes"][0]["projection"] = {"type": "KEYS_ONLY"}
    found = _paths(compare_models(library(document), library(newer)))
    assert found == {"key_design.global_secondary_indexes[ByBook].projection": ("modified", "in_place")}
    found = _paths(compare_models(library(), library(document)))
    assert found["entities[Loan].attributes[renewals]"] == ("added", "in_place")
    assert found["entities[Member].attributes[branch]"] == ("modified", "backfill")
    assert found["entities[Loan]"] == ("modified", "in_place")
    assert found["relationships[member_loans]"] == ("modified", "in_place")


def test_two_designs_of_one_model_compare_their_key_designs() -> None:
    model = library()
    other = library(with_loans_by_book()).key_design
    changes = compare_models(model, model, model.key_design, other)
    assert {c.path for c in changes} == {"key_design.global_secondary_indexes[ByBook]",
                                         "key_design.entities[Loan].indexes[ByBook]"}
