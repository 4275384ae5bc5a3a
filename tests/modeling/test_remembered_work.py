"""What the design search remembers (plans per model, indexes per table keys, sizes per entity keying) never
changes an answer: each remembered value equals the one worked out from scratch, and two designs that differ
only in what a plan or a size reads never share one."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeling.data.sample_data import generate_items, key_renderer
from modeling.design.design_space import OWN_PARTITION, LayoutChoice, canonical_model, placement_options
from modeling.design.generator import COLLECTIONS, SEPARATE, generate_design
from modeling.design.planner import _plan_uncached, plan_pattern
from modeling.design.plans import Operation
from modeling.design.sizing import (
    SizingMemo,
    _entry_size,
    _measured,
    _serialized,
    _value_bytes,
    design_sizes,
    entity_size,
)
from modeling.examples import list_examples, load_example
from modeling.model import AccessPattern, KeyDesign, Model

EXAMPLES = [e.slug for e in list_examples()]


def _fresh(model: Model) -> Model:
    """An equal model with nothing remembered (a copy would share what the original remembers)."""
    return Model.model_validate_json(model.model_dump_json())


def _layouts(model: Model) -> list[LayoutChoice]:
    """A few layouts of the model: the first and last placement of every entity, both GSI policies."""
    options = {e.name: placement_options(model, e) for e in model.entities}
    return [LayoutChoice(tuple((name, opts[pick]) for name, opts in sorted(options.items())), share)
            for pick in (0, -1) for share in (True, False)]


@pytest.mark.parametrize("slug", EXAMPLES)
def test_remembered_plans_and_designs_equal_fresh_ones(slug: str) -> None:
    model = canonical_model(load_example(slug)).model_copy(update={"key_design": None})
    layouts = _layouts(model)
    # plan many layouts on one model object (what the search does), then compare with a model that saw none
    remembered = [generate_design(model, COLLECTIONS, c) for c in layouts] + [generate_design(model, SEPARATE)]
    for choice, design in zip(layouts, remembered, strict=False):
        assert design == generate_design(_fresh(model), COLLECTIONS, choice), choice
        for pattern in model.access_patterns:
            assert plan_pattern(model, design.key_design, pattern) == _plan_uncached(model, design.key_design,
                                                                                      pattern), pattern.name


def test_canonical_model_of_a_canonical_model_is_itself() -> None:
    """So what is remembered with it serves every design generated from it; reordered input still sorts."""
    model = load_example("ecommerce_orders")
    canonical = canonical_model(model)
    assert canonical_model(canonical) is canonical
    shuffled = model.model_copy(update={"entities": model.entities[::-1],
                                        "access_patterns": model.access_patterns[::-1]})
    assert canonical_model(shuffled).model_dump_json() == canonical.model_dump_json()


TASKS = Model.model_validate({
    "name": "Tasks", "table": {"name": "tasks"},
    "entities": [{"name": "Task", "item_count": 100_000, "identifiers": ["taskId"], "attributes": [
        {"name": "taskId", "generator": {"kind": "uuid"}}, {"name": "ownerId"},
        {"name": "done", "type": "BOOL", "generator": {"kind": "boolean", "true_share": 0.25}}]}],
    "access_patterns": [{"name": "list_done_by_owner", "kind": "read_many", "entities": ["Task"],
                         "inputs": ["ownerId"], "filters": [{"attribute": "done", "equals": True}],
                         "traffic": {"peak_requests_per_second": 10, "average_requests_per_second": 5}}]})


def _sparse_design(equals: object) -> KeyDesign:
    return KeyDesign.model_validate({
        "global_secondary_indexes": [{"name": "GSI1", "partition_key": {"name": "GSI1PK"},
                                      "sort_key": {"name": "GSI1SK"}}],
        "entities": [{"entity": "Task", "table": {"partition_key": "TASK#{taskId}", "sort_key": "TASK"},
                      "indexes": {"GSI1": {"partition_key": "{ownerId}", "sort_key": "{taskId}",
                                           "only_when": [{"attribute": "done", "equals": equals}]}}}]})


def test_a_sparse_condition_on_true_is_not_one_on_1() -> None:
    """True == 1 in Python, but `done = True` is not `done = 1`: the plans must not be shared."""
    pattern = TASKS.access_patterns[0]
    on_true = plan_pattern(TASKS, _sparse_design(True), pattern)
    on_one = plan_pattern(TASKS, _sparse_design(1), pattern)
    # the index holds only done = True items, the pattern wants those: a Query; `done = 1` is another set
    assert (on_true.operation, on_true.index) == (Operation.QUERY, "GSI1")
    assert on_one.operation is Operation.SCAN


def test_a_plan_follows_the_other_entities_in_the_collection_it_reads() -> None:
    """A Query on a collection depends on every entity keyed by its partition template, not only the pattern's
    own: with Tickets in the Customer's collection, a read of Customer and ContactLog needs sort-key bounds that
    keep them out (issue 28.4; before, it read the Tickets too); with Tickets moved out, the partition key alone
    is exact."""
    model = load_example("crm_single_table")
    design = model.key_design
    pattern = AccessPattern.model_validate({
        "name": "customer_with_contact_logs", "kind": "read_many", "entities": ["Customer", "ContactLog"],
        "inputs": ["customerId"], "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}})
    moved = design.model_copy(update={"entities": tuple(
        k if k.entity != "Ticket" else k.model_copy(update={"table": k.table.model_copy(
            update={"partition_key": "TICKET#{ticketId}"})}) for k in design.entities)})
    shared, alone = plan_pattern(model, design, pattern), plan_pattern(model, moved, pattern)
    assert shared.key_condition == "PK = :pk AND SK BETWEEN :sk_from AND :sk_to"
    assert alone.key_condition == "PK = :pk"
    assert "Ticket" not in dict(shared.entity_shares) and "Ticket" not in dict(alone.entity_shares)
    assert alone.items_read_per_request == shared.items_read_per_request  # the same items, Customer's and logs
    assert (shared, alone) == (_plan_uncached(model, design, pattern), _plan_uncached(model, moved, pattern))


@pytest.mark.parametrize("slug", ["chat_messages", "student_platform"])
def test_sizes_measured_through_the_memo_equal_fresh_sizes(slug: str) -> None:
    model = canonical_model(load_example(slug)).model_copy(update={"key_design": None})
    items = generate_items(model, 12)
    memo = SizingMemo()
    designs = [generate_design(model, COLLECTIONS, c).key_design for c in _layouts(model)]
    designs.append(generate_design(model, SEPARATE, LayoutChoice(
        tuple((e.name, OWN_PARTITION) for e in model.entities), True)).key_design)
    for design in designs:
        assert design_sizes(model, design, per_entity=12, items=items, memo=memo) == design_sizes(
            model, design, per_entity=12, items=items)
    assert memo.entities  # it was used


@pytest.mark.parametrize("slug", EXAMPLES)
def test_sizes_of_values_measured_once_equal_sizes_of_the_merged_items(slug: str) -> None:
    """The sizing serializes and measures the attribute values once per sample and only the rendered keys per
    design; the oracle sizes each item merged with its keys (`{**item, **keys}`), as it was done before. A
    rendered key with an attribute's name (the Student platform's GSI1 is keyed on tenantId itself) replaces
    that attribute's value in both."""
    model = canonical_model(load_example(slug)).model_copy(update={"key_design": None})
    items = generate_items(model, 30)
    memo, overridden = SizingMemo(), False
    for choice in _layouts(model):
        design = generate_design(model, COLLECTIONS, choice).key_design
        sizes = design_sizes(model, design, per_entity=30, items=items, memo=memo)
        entries = {(index, entity): size for index, entity, size in sizes.entries}
        for entity in model.entities:
            render = key_renderer(design, entity.name)
            merged = [_serialized({**item, **render(item)}) for item in items[entity.name]]
            overridden |= any(set(render(item)) & set(item) for item in items[entity.name])
            expected = entity_size(entity, merged)
            assert sizes.entities[model.entities.index(entity)] == expected, entity.name
            keys = next((k for k in design.entities if k.entity == entity.name), None)
            for index in (*design.global_secondary_indexes, *design.local_secondary_indexes):
                if keys is not None and index.name in keys.indexes and merged:
                    assert entries[(index.name, entity.name)] == _entry_size(
                        entity, merged, design, index, expected.average_bytes), (entity.name, index.name)
    if slug == "student_platform":
        assert overridden  # the override case was exercised


VALUES = ["", "a", "é", "日本語", "🗂️", True, False, None, Decimal(0), Decimal("0.00"), Decimal("-1"), Decimal("1.0"),
          Decimal("1"), Decimal("100"), Decimal("12345.678900"), Decimal("-0.001"), Decimal("1E+5"), Decimal("9" * 38),
          7, 0, b"bytes", ["a", Decimal(2)], {"k": "v", "n": Decimal("3.5")}, {"a", "b"}, {Decimal(1), Decimal(22)}]


@pytest.mark.parametrize("value", VALUES, ids=[f"{type(v).__name__}-{i}" for i, v in enumerate(VALUES)])
def test_a_value_measured_directly_equals_its_dynamodb_json_measured(value: object) -> None:
    assert _value_bytes(value) == _measured([_serialized({"v": value})])[0]["v"]


@pytest.mark.parametrize("slug", EXAMPLES)
def test_every_sample_value_measured_directly_equals_its_dynamodb_json_measured(slug: str) -> None:
    for entity_items in generate_items(load_example(slug), 200).values():
        for item in entity_items:
            assert {n: _value_bytes(v) for n, v in item.items()} == _measured([_serialized(item)])[0]
