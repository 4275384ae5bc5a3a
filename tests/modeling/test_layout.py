"""Sample items and the layout view: seeded, relationship-aware, and sparse indexes leave items out."""

from __future__ import annotations

from modeling.data.sample_data import generate_items, item_keys
from modeling.design.generator import generate_design, rule_based_designs
from modeling.design.layout import LayoutRequest, analyse_layout, layout_view
from modeling.design.plans import TABLE
from modeling.examples import load_example

CRM = load_example("crm_single_table")


def test_same_seed_same_items_other_seed_other_items() -> None:
    assert generate_items(CRM, 5, seed=7) == generate_items(CRM, 5, seed=7)
    assert generate_items(CRM, 5, seed=7) != generate_items(CRM, 5, seed=8)


def test_children_reference_parents_that_exist_and_unique_values_are_unique() -> None:
    items = generate_items(load_example("ecommerce_orders"), 30, seed=1)
    customers = {c["customerId"] for c in items["Customer"]}
    assert {o["customerId"] for o in items["Order"]} <= customers
    emails = [c["email"] for c in items["Customer"]]
    assert len(set(emails)) == len(emails)


def test_items_follow_enum_weights() -> None:
    tickets = generate_items(CRM, 4000, seed=3)["Ticket"]
    spec = next(a for e in CRM.entities if e.name == "Ticket" for a in e.attributes if a.name == "status").generator
    expected_open = spec.weights[spec.values.index("OPEN")] / sum(spec.weights)
    observed_open = sum(t["status"] == "OPEN" for t in tickets) / len(tickets)
    assert abs(observed_open - expected_open) < 0.03


def test_table_view_groups_items_by_partition_key_in_sort_order() -> None:
    view = layout_view(CRM, CRM.key_design, TABLE, 3)
    keys = [(r["PK"], r["SK"]) for r in view.rows]
    assert keys == sorted(keys) and view.absent == ()


def test_sparse_index_view_leaves_out_items_without_its_keys() -> None:
    design = generate_design(CRM).key_design
    sparse = next(name for k in design.entities for name, t in k.indexes.items() if t.only_when)
    view = layout_view(CRM, design, sparse, 6)
    assert view.absent and all(r["status"] == "OPEN" for r in view.rows if r["entity"] == "Ticket")


def test_item_keys_render_every_index_an_item_belongs_to() -> None:
    ticket = {"ticketId": "t1", "customerId": "c1", "assigneeId": "s1", "status": "OPEN", "openedAt": "2024-01-01"}
    assert item_keys(CRM.key_design, "Ticket", ticket) == {
        "PK": "CUSTOMER#c1", "SK": "TICKET#t1", "GSI1PK": "SALESPERSON#s1", "GSI1SK": "TICKET#OPEN#2024-01-01#t1"}


def test_analyse_layout_compares_every_candidate() -> None:
    result = analyse_layout(LayoutRequest(CRM, rule_based_designs(CRM), design_name="Item collections", index="GSI1"))
    assert [r["design"] for r in result.comparison] == [d.name for d in result.designs]
    assert result.design.name == "Item collections" and result.view.index == "GSI1"
