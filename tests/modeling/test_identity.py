"""Issue #14.5: an entity that a pattern uses needs what makes its items unique; never a silent guess."""

from __future__ import annotations

import yaml

from modeling.design.generator import generate_design
from modeling.errors import errors_only
from modeling.model_file import document_problems, model_from_document

MODEL = """\
format: dynamodb-design-studio/model
version: 1
name: Bookings
table: {name: bookings}
entities:
  - name: Booking
    item_count: 1000
    attributes:
      - {name: hotel, type: S}
      - {name: bookingRef, type: S}
      - {name: night, type: S}
access_patterns:
  - name: get_booking
    kind: read_one
    entities: [Booking]
    inputs: [bookingRef]
    traffic: {peak_requests_per_second: 5, average_requests_per_second: 1}
"""


def _document() -> dict:
    return yaml.safe_load(MODEL)


def test_an_entity_without_identifiers_that_a_pattern_reads_is_an_error_that_suggests_the_id() -> None:
    problems = errors_only(document_problems(_document()))
    [problem] = [p for p in problems if p.path == "entities[Booking].identifiers"]
    assert "no unique primary key" in problem.message
    assert "`bookingRef`" in problem.suggestion  # the attribute whose name says it is the id


def test_an_unused_entity_without_identifiers_is_not_an_error() -> None:
    document = _document()
    document["access_patterns"] = []
    assert not [p for p in errors_only(document_problems(document)) if p.path.endswith(".identifiers")]


def test_one_unique_attribute_is_the_identity_and_keys_the_item() -> None:
    document = _document()
    document["entities"][0]["attributes"][1]["unique"] = True
    assert not errors_only(document_problems(document))
    design = generate_design(model_from_document(document))
    [keys] = [k for k in design.key_design.entities if k.entity == "Booking"]
    # the unique bookingRef keys the item, not the first attribute (hotel, shared by many bookings)
    assert "{bookingRef}" in keys.table.partition_key + (keys.table.sort_key or "")
    assert "{hotel}" not in keys.table.partition_key


def test_ticking_the_identifier_clears_the_error() -> None:
    document = _document()
    document["entities"][0]["identifiers"] = ["bookingRef"]
    assert not errors_only(document_problems(document))
