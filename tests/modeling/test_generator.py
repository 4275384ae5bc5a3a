"""The design generator: deterministic, every pattern served without Scan, choices that follow the rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from modeling.design.design_report import designs_json
from modeling.design.generator import COLLECTIONS, SEPARATE, generate_design, replace_key_design, rule_based_designs
from modeling.design.keys import KeyTemplate
from modeling.design.plans import TABLE, Operation
from modeling.examples import list_examples, load_example
from modeling.model import AccessPattern, Model
from modeling.model_file import (
    FileFormat,
    document_problems,
    dump_model,
    load_model_file,
    model_from_document,
    model_to_document,
    parse_document,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [e.slug for e in list_examples()]


def test_the_same_model_gives_the_same_design_byte_for_byte_in_another_process() -> None:
    code = ("from modeling.examples import load_example; from modeling.design.generator import rule_based_designs;"
            "from modeling.design.design_report import designs_json;"
            "print(designs_json(rule_based_designs(load_example('crm_single_table'))), end='')")
    other = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "12345", "PATH": ""})
    assert other.stdout == designs_json(rule_based_designs(load_example("crm_single_table")))


@pytest.mark.parametrize("strategy", [COLLECTIONS, SEPARATE])
@pytest.mark.parametrize("slug", [s for s in EXAMPLES if "mistakes" not in s])
def test_generated_designs_serve_every_pattern_without_scan_and_validate(slug: str, strategy: str) -> None:
    model = load_example(slug)
    design = generate_design(model, strategy)
    assert design.scan_patterns == ()
    with_design = replace_key_design(model, design.key_design)
    document = parse_document(dump_model(with_design, FileFormat.YAML).encode(), "m.yaml")
    assert [p for p in document_problems(document) if p.severity == "error"] == []


def _one_pattern_per_kind(slug: str) -> Model:
    """The example with only its first pattern of each kind: fewer patterns leave the generator freer to put
    an attribute in a table key (the load test's mix found a soft delete's status there)."""
    model = load_example(slug)
    kept: dict[str, AccessPattern] = {}
    for pattern in model.access_patterns:
        if len(kept) < 6:  # at most six, as in the load test's mix
            kept.setdefault(pattern.kind.value, pattern)
    # traffic n:n-1:...:1 in file order, as the load test's mix has it: the list pattern becomes the busiest
    patterns = [p.model_copy(update={"traffic": p.traffic.model_copy(update={
        "average_requests_per_second": float(w), "peak_requests_per_second": 2.0 * w})})
        for p, w in zip(kept.values(), range(len(kept), 0, -1), strict=True)]
    return model.model_copy(update={"access_patterns": tuple(patterns), "key_design": None})


def _changed_in_place(model: Model, entity: str) -> set[str]:
    """What writes change on an existing item, read from the model here (not from the generator)."""
    changed: set[str] = set()
    for p in model.access_patterns:
        if entity not in p.entities:
            continue
        if p.kind == "update":
            changed |= set(p.changed_attributes) | {u.attribute for u in p.updates}
        if p.soft_delete is not None and p.entities[0] == entity:  # SET status, deletedAt and the TTL attribute
            changed |= {p.soft_delete.status_attribute, p.soft_delete.deleted_at_attribute}
            if p.soft_delete.expires_after_days and model.table.ttl_attribute:
                changed.add(model.table.ttl_attribute)
    return changed


@pytest.mark.parametrize("subset", [False, True], ids=["whole", "one-per-kind"])
@pytest.mark.parametrize("slug", EXAMPLES)
def test_attributes_that_updates_change_never_sit_in_table_keys(slug: str, subset: bool) -> None:
    model = _one_pattern_per_kind(slug) if subset else load_example(slug)
    for design in rule_based_designs(model):
        if design.name == "Your design":
            continue
        for keys in design.key_design.entities:
            changed = _changed_in_place(model, keys.entity)
            table = [keys.table.partition_key, keys.table.sort_key or ""]
            assert not changed & {a for t in table for a in KeyTemplate.parse(t).attribute_names}


def test_children_read_by_their_parent_live_in_the_parents_item_collection() -> None:
    design = generate_design(load_example("chat_messages"), COLLECTIONS)
    keys = {k.entity: k.table for k in design.key_design.entities}
    # one item collection: keyed on the room's value alone, as experts draw it (issue 28.3)
    assert keys["Message"].partition_key == keys["Room"].partition_key == "{roomId}"
    assert design.key_design.partition_key.name == "roomId"
    plan = design.plan("list_latest_messages_by_room")
    assert (plan.operation, plan.index, plan.scan_index_forward) == (Operation.QUERY, TABLE, False)


def test_a_filter_that_discards_most_items_gets_a_sparse_index() -> None:
    design = generate_design(load_example("crm_single_table"), COLLECTIONS)
    plan = design.plan("list_open_tickets_by_customer")
    ticket = next(k for k in design.key_design.entities if k.entity == "Ticket")
    assert plan.index != TABLE and plan.filter_expression == ""
    assert [(c.attribute, c.equals) for c in ticket.indexes[plan.index].only_when] == [("status", "OPEN")]
    assert plan.discarded_share == 0.0 and "sparse index keeps" in plan.items_read_derivation


def test_many_to_many_lookups_from_the_other_side_use_an_inverted_index() -> None:
    design = generate_design(load_example("chat_messages"), COLLECTIONS)
    plan = design.plan("list_rooms_by_user")
    member = next(k for k in design.key_design.entities if k.entity == "Member")
    # a GSI holding one entity is keyed on the attribute itself (`{userId}`), without a label
    assert member.table.partition_key == "{roomId}" and member.indexes[plan.index].partition_key == "{userId}"
    assert "inverts" in next(c.reason for c in design.index_reasons if c.index == plan.index)


def test_an_explicit_design_is_respected_and_its_unserved_pattern_explained() -> None:
    model = load_example("student_platform_mistakes")
    own = rule_based_designs(model)[0]
    assert own.name == "Your design" and own.key_design.global_secondary_indexes == \
        model.key_design.global_secondary_indexes
    plan = own.plan("get_transfer_parties_by_ids")
    assert plan.operation is Operation.SCAN and not plan.served and "Scan" in plan.reason


def _model_with(pattern: dict) -> object:
    from modeling.model import Model

    model = load_example("chat_messages")
    document = model.model_dump(mode="json")
    document["access_patterns"].append(pattern)
    return Model.model_validate(document)


def test_a_strong_read_in_another_order_on_the_table_partition_gets_an_lsi() -> None:
    model = _model_with({"name": "list_messages_by_room_and_sender", "kind": "read_many", "entities": ["Message"],
                         "inputs": ["roomId"], "range_condition": {"attribute": "senderId", "operator": "equals"},
                         "consistency": "strong", "expected_items": 20,
                         "traffic": {"peak_requests_per_second": 5, "average_requests_per_second": 1}})
    design = generate_design(model, COLLECTIONS)
    plan = design.plan("list_messages_by_room_and_sender")
    assert plan.index == "LSI1" and plan.consistent_read and design.key_design.local_secondary_indexes
    assert "strongly consistent" in next(c.reason for c in design.index_reasons if c.index == "LSI1")


def test_projection_follows_what_the_patterns_return() -> None:
    model = _model_with({"name": "list_message_ids_by_sender", "kind": "read_many", "entities": ["Message"],
                         "inputs": ["senderId"], "returns": ["messageId", "sentAt", "body"], "expected_items": 20,
                         "traffic": {"peak_requests_per_second": 5, "average_requests_per_second": 1}})
    design = generate_design(model, COLLECTIONS)
    index = next(i for i in design.key_design.global_secondary_indexes
                 if "list_message_ids_by_sender" in next(c.patterns for c in design.index_reasons if c.index == i.name))
    # messageId and sentAt are inside the key strings, but the index holds those strings, not the attributes:
    # they are projected too, or the pattern could not return them (DDS205; the preview's oracle checks it)
    assert index.projection.type == "INCLUDE"
    assert index.projection.non_key_attributes == ("body", "messageId", "sentAt")


def test_patterns_sharing_a_gsi_partition_share_one_index_with_a_composite_sort_key() -> None:
    """Three reads of escalated logs by supervisor (alone, by state, by state and date) need one sparse GSI
    keyed on the supervisor and sorted by state then time, not one GSI each (issue 12, shared GSIs)."""
    from tests.expert_models.comparison import EXPERT_MODELS_DIR, load

    model = load(EXPERT_MODELS_DIR / "device_status" / "model.yaml")
    design = generate_design(model, COLLECTIONS)
    names = ("list_escalated_logs_by_supervisor", "list_escalated_logs_by_supervisor_and_state",
             "list_escalated_logs_by_supervisor_state_and_date")
    plans = [design.plan(n) for n in names]
    assert len({p.index for p in plans}) == 1 and plans[0].index != TABLE
    log = next(k for k in design.key_design.entities if k.entity == "DeviceLog")
    templates = log.indexes[plans[0].index]
    assert (templates.partition_key, templates.sort_key) == ("{escalatedTo}", "{state}#{logTime}")
    assert all(p.filter_expression == "" for p in plans)


# A school with integer ids, as a relational schema gives them: enrolments hold course ids through a foreign key
_INTEGER_FOREIGN_KEYS = """
format: dynamodb-design-studio/model
version: 1
name: Integer foreign keys
table: {name: school, region: us-east-1}
entities:
  - name: Student
    item_count: 1000
    identifiers: [student_id]
    attributes:
      - {name: student_id, type: N, unique: true, generator: {kind: sequence}}
      - {name: name, type: S, generator: {kind: faker, provider: name}}
  - name: Course
    item_count: 200
    identifiers: [course_id]
    attributes:
      - {name: course_id, type: N, unique: true, generator: {kind: int_range, min: 1, max: 99999}}
      - {name: title, type: S, generator: {kind: faker, provider: catch_phrase}}
  - name: Enrollment
    item_count: 20000
    identifiers: [student_id, course_id]
    attributes:
      - {name: student_id, type: N, generator: {kind: reference, entity: Student, attribute: student_id}}
      - {name: course_id, type: N, generator: {kind: reference, entity: Course, attribute: course_id}}
relationships:
  - {name: student_enrollments, kind: one_to_many, parent: Student, child: Enrollment,
     child_attributes: [student_id], cardinality: {mean: 20, max: 60}}
access_patterns:
  - name: list_enrollments_by_student
    kind: read_many
    entities: [Enrollment]
    inputs: [student_id]
    traffic: {peak_requests_per_second: 50, average_requests_per_second: 10}
  - name: get_course_by_id
    kind: read_one
    entities: [Course]
    inputs: [course_id]
    traffic: {peak_requests_per_second: 50, average_requests_per_second: 10}
"""


def test_a_number_copied_through_a_foreign_key_is_padded_like_the_attribute_it_copies() -> None:
    from modeling.design.checks import check_design
    from modeling.model_file import model_from_document

    model = model_from_document(parse_document(_INTEGER_FOREIGN_KEYS.encode(), "school.yaml"))
    for design in rule_based_designs(model):
        enrollment = next(k for k in design.key_design.entities if k.entity == "Enrollment")
        sort_templates = [t.sort_key or "" for t in (enrollment.table, *enrollment.indexes.values())]
        # course ids run to 99999 (int_range max): five digits, so COURSE 10 sorts after 9 in string order
        assert any("{course_id:5}" in t for t in sort_templates), sort_templates
        assert not any("{course_id}" in t for t in sort_templates), sort_templates
        assert "DDS104" not in {f.check_id for f in check_design(model, design)}


# Books numbered by ISBN-13 from a sequence: 13-digit values, one more than the default 12-digit padding
_ISBN_SEQUENCE = """
format: dynamodb-design-studio/model
version: 1
name: ISBN sequence
table: {name: books, region: us-east-1}
entities:
  - name: Publisher
    item_count: 100
    identifiers: [publisherId]
    attributes:
      - {name: publisherId, type: S, generator: {kind: uuid}}
  - name: Book
    item_count: 5000
    identifiers: [isbn]
    attributes:
      - {name: isbn, type: N, generator: {kind: sequence, start: 9780000000000}}
      - {name: publisherId, type: S, generator: {kind: reference, entity: Publisher, attribute: publisherId}}
  - name: Loan
    item_count: 20000
    identifiers: [memberId, isbn]
    attributes:
      - {name: memberId, type: S, generator: {kind: uuid}}
      - {name: isbn, type: N, generator: {kind: reference, entity: Book, attribute: isbn}}
relationships:
  - {name: publisher_books, kind: one_to_many, parent: Publisher, child: Book, child_attributes: [publisherId],
     cardinality: {mean: 50, max: 500}}
access_patterns:
  - name: list_books_by_publisher
    kind: read_many
    entities: [Book]
    inputs: [publisherId]
    traffic: {peak_requests_per_second: 10, average_requests_per_second: 5}
  - name: list_loans_by_member
    kind: read_many
    entities: [Loan]
    inputs: [memberId]
    traffic: {peak_requests_per_second: 10, average_requests_per_second: 5}
"""


def test_a_sequence_beyond_twelve_digits_gets_a_width_that_holds_its_largest_value() -> None:
    from costs.estimate import EstimateRequest
    from modeling.data.sample_data import generate_items, key_renderer
    from modeling.model_file import model_from_document
    from studio.estimate import estimate_model

    model = model_from_document(parse_document(_ISBN_SEQUENCE.encode(), "books.yaml"))
    items = generate_items(model, 50)
    for design in rule_based_designs(model):
        for entity in ("Book", "Loan"):  # a loan's isbn copies a book's (a reference): padded alike
            keys = next(k for k in design.key_design.entities if k.entity == entity)
            templates = [k.sort_key or "" for k in (keys.table, *keys.indexes.values())]
            # 9780000000000 + 5000 - 1 = 9780000004999 has 13 digits: the default width 12 cannot hold it
            assert any("{isbn:13}" in t for t in templates), (entity, templates)
            assert not any("{isbn:12}" in t for t in templates), (entity, templates)
            render = key_renderer(design.key_design, entity)
            assert all(render(item) for item in items[entity])  # every sample item renders its keys
    # the symptom: the estimate rendered every sample item's keys and raised KeyTemplateError
    assert estimate_model(EstimateRequest(model, compare_designs=False)).cost.recommendation is not None


def _session_store(unique_username: bool = False) -> Model:
    # The DynamoDB Book's session store (chapter 18): one entity, keyed by the token itself.
    model = load_model_file(Path(__file__).parents[1] / "expert_models" / "session_store" / "model.yaml")
    if not unique_username:
        return model
    document = model_to_document(model)
    for attribute in document["entities"][0]["attributes"]:
        if attribute["name"] == "username":
            attribute["unique"] = True
    return model_from_document(document)


def test_a_table_of_one_entity_is_keyed_on_the_attribute_itself() -> None:
    design = generate_design(_session_store(), COLLECTIONS)
    # as the book draws it: `sessionToken` is the table's partition key, with no label and no constant sort key,
    # so no PK/SK attribute is added to a 7-million-item table
    assert (design.key_design.partition_key.name, design.key_design.sort_key) == ("sessionToken", None)
    assert design.key_design.entities[0].table.partition_key == "{sessionToken}"
    assert design.plan("get_session_by_token").operation is Operation.GET_ITEM


def test_a_table_that_also_holds_uniqueness_items_keeps_its_labels() -> None:
    # a unique username adds a second kind of item (USERNAME#...) to the table: labels keep the two apart
    design = generate_design(_session_store(unique_username=True), COLLECTIONS)
    assert (design.key_design.partition_key.name, design.key_design.sort_key.name if design.key_design.sort_key
            else None) == ("PK", "SK")
    assert design.key_design.entities[0].table.partition_key.startswith("SESSION")
