"""Table edits applied to documents: nothing the user typed is lost, nothing shown is dropped."""

from __future__ import annotations

import copy

import pytest

import editing
from modeling.examples import example_document, list_examples
from modeling.model_file import document_problems

EXAMPLES = [e.slug for e in list_examples()]


def _document() -> dict:
    return example_document("student_platform")


def test_adding_an_entity_row_creates_an_entity_with_no_attributes() -> None:
    document = editing.edit_entities(_document(), {"added_rows": [{"name": "Course", "item_count": 50.0}]})
    assert document["entities"][-1] == {"name": "Course", "item_count": 50, "attributes": []}


def test_renaming_an_entity_keeps_its_attributes() -> None:
    before = _document()
    after = editing.edit_entities(before, {"edited_rows": {0: {"name": "School"}}})
    assert after["entities"][0]["name"] == "School"
    assert after["entities"][0]["attributes"] == before["entities"][0]["attributes"]


def test_deleting_a_row_removes_only_that_entity() -> None:
    before = _document()
    after = editing.edit_entities(before, {"deleted_rows": [0]})
    assert [e["name"] for e in after["entities"]] == [e["name"] for e in before["entities"][1:]]


def test_an_invalid_value_is_kept_and_reported() -> None:
    document = editing.edit_entities(_document(), {"edited_rows": {0: {"item_count": "many"}}})
    assert document["entities"][0]["item_count"] == "many"
    name = document["entities"][0]["name"]
    assert any(p.path == f"entities[{name}].item_count" for p in document_problems(document))


def test_empty_added_rows_are_ignored() -> None:
    before = _document()
    assert editing.edit_entities(before, {"added_rows": [{"name": None, "item_count": float("nan")}]}) == before


def test_identifier_checkbox_edits_the_entity_identifiers() -> None:
    document = _document()
    entity = document["entities"][1]
    rows = editing.attribute_rows(document, entity["name"])
    position = next(i for i, r in enumerate(rows) if not r["identifier"])
    after = editing.edit_attributes(document, entity["name"], {"edited_rows": {position: {"identifier": True}}})
    assert rows[position]["name"] in after["entities"][1]["identifiers"]


@pytest.mark.parametrize("slug", EXAMPLES)
def test_pattern_and_relationship_rows_round_trip_every_example(slug: str) -> None:
    document = example_document(slug)
    for pattern in document.get("access_patterns", []):
        assert editing.pattern_from_row(editing.pattern_to_row(pattern), pattern) == pattern
    for relationship in document.get("relationships", []):
        assert editing.relationship_from_row(editing.relationship_to_row(relationship), relationship) == relationship


def test_attribute_rows_round_trip_every_attribute_of_an_example() -> None:
    for entity in _document()["entities"]:
        for attribute in entity["attributes"]:
            assert editing.attribute_from_row(editing.attribute_to_row(attribute), attribute) == attribute


def test_filters_text_is_typed() -> None:
    assert editing.parse_filters("status=UNPAID; archived=false; priority=2") == [
        {"attribute": "status", "equals": "UNPAID"}, {"attribute": "archived", "equals": False},
        {"attribute": "priority", "equals": 2}]


def test_generator_form_builds_a_valid_weighted_enum_with_zipf() -> None:
    spec = editing.generator_from_form("enum", {"values": "OPEN, CLOSED", "weights": "3, 1",
                                                "distribution": "zipf", "distribution_parameter": "1.3"})
    assert spec == {"kind": "enum", "values": ["OPEN", "CLOSED"], "weights": [3, 1],
                    "distribution": {"kind": "zipf", "exponent": 1.3}}
    assert editing.generator_from_form("enum", editing.generator_form_values(spec)) == spec


def test_generator_form_keeps_text_typed_into_a_number_field() -> None:
    spec = editing.generator_from_form("int_range", {"min": "ten", "max": "20"})
    assert spec == {"kind": "int_range", "min": "ten", "max": 20}


def test_key_template_rows_rebuild_the_key_design_losslessly() -> None:
    document = example_document("crm_single_table")
    assert editing.edit_key_templates(document, {})["key_design"] == document["key_design"]
    assert editing.edit_index_definitions(document, {})["key_design"] == document["key_design"]


def test_a_template_edit_changes_that_template_only_and_keeps_what_the_table_does_not_show() -> None:
    """Issue 26: a sort-key edit on Layout → Overrides dropped the entity's uniqueness items (`auxiliary`)."""
    from workshop.lessons import LESSONS

    document = LESSONS[0].steps[2].document()  # the Student platform as designed: Student has unique_email
    [student] = [k for k in document["key_design"]["entities"] if k.get("auxiliary")]
    row = [r["entity"] for r in editing.key_template_rows(document)].index(student["entity"])
    after = editing.edit_key_templates(document, {"edited_rows": {row: {"sort_key": "PROFILE2"}}})
    expected = copy.deepcopy(document["key_design"])
    next(k for k in expected["entities"] if k["entity"] == student["entity"])["table"]["sort_key"] = "PROFILE2"
    assert after["key_design"] == expected


def test_a_template_override_with_an_unknown_attribute_is_kept_and_reported() -> None:
    document = editing.edit_key_templates(example_document("crm_single_table"),
                                          {"edited_rows": {0: {"partition_key": "SALESPERSON#{nope}"}}})
    assert document["key_design"]["entities"][0]["table"]["partition_key"] == "SALESPERSON#{nope}"
    assert any(p.path == "key_design.entities[Salesperson].table.partition_key" and "nope" in p.message
               for p in document_problems(document))


def test_a_projection_override_changes_only_that_index() -> None:
    document = example_document("crm_single_table")
    after = editing.edit_index_definitions(document, {"edited_rows": {0: {"projection": "KEYS_ONLY"}}})
    assert after["key_design"]["global_secondary_indexes"][0]["projection"] == {"type": "KEYS_ONLY"}
    assert after["key_design"]["global_secondary_indexes"][1] == document["key_design"]["global_secondary_indexes"][1]
