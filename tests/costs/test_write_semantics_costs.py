"""Write units of conditional, transactional and auxiliary writes (issue 16.2), against figures worked
out by hand from AWS's rules (dynamodb-rules §1.1, §1.2, §2).

The wallet fixture pins the sizes: a User holds a 1,500-byte bio plus its other attributes and keys, so it
is over 1 KB and under 2 KB: 2 write blocks. Every other item (UserArchive, Payment, Like, Follow, the
uniqueness and aggregate items) is under 1 KB: 1 block. The test checks that premise first.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from costs.capacity import capacity_profile
from modeling.design.generator import generate_design, rule_based_designs
from modeling.design.sizing import design_sizes
from modeling.examples import load_example
from modeling.model import Model
from modeling.model_file import load_model_file
from tests.fixture_files import FIXTURES_DIR

WALLET = load_model_file(FIXTURES_DIR / "write-semantics" / "wallet.yaml")
DESIGN = generate_design(WALLET)
PROFILE = {c.pattern: c for c in capacity_profile(WALLET, DESIGN).patterns}


def test_the_fixture_sizes_are_what_the_arithmetic_assumes() -> None:
    sizes = design_sizes(WALLET, DESIGN.key_design)
    assert 1024 < sizes.item_bytes("User") <= 2048
    assert all(sizes.item_bytes(e) <= 1024 for e in ("UserArchive", "Payment", "Like", "Follow"))


@pytest.mark.parametrize(("pattern", "write_units"), [
    # Put User (2 blocks) + Put uniqueness item (1 block), both x2 in a transaction: 2*2 + 1*2 = 6
    ("create_user_by_id", 6),
    # Update User 2*2 + Delete old uniqueness 1*2 + Put new uniqueness 1*2 = 8
    ("change_email_by_user", 8),
    # plain UpdateItem ADD, sized on the larger image (§1.2): ceil(1.6 KB / 1 KB) = 2, no transaction
    ("earn_coins_by_user", 2),
    # conditional UpdateItem: 2, the same whether the condition passes or fails (§1.2)
    ("spend_coins_by_user", 2),
    # two User updates 2*2 each + Payment put 1*2 = 10 (each member rounded on its own, §2)
    ("pay_user_by_ids", 10),
    # soft delete: Update User 2*2 + Put UserArchive 1*2 = 6
    ("delete_user_by_id", 6),
    # Put Like 1*2 + ADD to the like-count item 1*2 = 4
    ("like_post_by_user", 4),
    # Put Follow 1*2 + Put the follower copy 1*2 = 4
    ("follow_user_by_ids", 4),
])
def test_table_write_units_per_request(pattern: str, write_units: int) -> None:
    assert PROFILE[pattern].write_units_per_request == Decimal(write_units)


@pytest.mark.parametrize(("pattern", "read_units"), [
    ("earn_coins_by_user", 0),  # ADD needs no read: writes consume write units only (§1.2)
    ("create_user_by_id", 0),
    # optimistic locking reads the version first: one strongly consistent GetItem, ceil(1.6 KB / 4 KB) = 1
    ("change_email_by_user", 1),
])
def test_read_units_a_write_needs_first(pattern: str, read_units: int) -> None:
    assert PROFILE[pattern].read_units_per_request == Decimal(read_units)


def test_the_same_put_without_semantics_costs_only_its_own_item() -> None:
    # a plain PutItem of a Follow: 1 block, no copy, no transaction = 1 (was 4 with the copy in a transaction)
    plain_follow = WALLET.entity("Follow").model_copy(update={"auxiliary_items": ()})
    model = WALLET.model_copy(update={"entities": tuple(plain_follow if e.name == "Follow" else e
                                                        for e in WALLET.entities)})
    profile = {c.pattern: c for c in capacity_profile(model, generate_design(model)).patterns}
    assert profile["follow_user_by_ids"].write_units_per_request == Decimal(1)


# --- transactions without members, and the index writes of members (issue 27, D1 and D2) -------------------
# Customer (id, a unique email, a tier in GSI1's key, a balance) and Order (id, customerId in GSI1's key, a
# note); GSI1 projects KEYS_ONLY. Every item, entry and uniqueness item is under 1 KB: 1 write block each
# (the premise is checked first). dynamodb-rules §1.1 (1 KB blocks), §2 (2x per item in a transaction, each
# rounded on its own; index writes 1x), §4.1 (an index write per entry that enters, leaves or changes).
def _shop() -> Model:
    traffic = {"peak_requests_per_second": 1, "average_requests_per_second": 1}
    text = {"kind": "sequence", "width": 7}
    return Model.model_validate({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Shop", "table": {"name": "shop"},
        "entities": [
            {"name": "Customer", "item_count": 100, "identifiers": ["id"], "attributes": [
                {"name": "id", "avg_size_bytes": 8, "generator": {**text, "prefix": "c"}},
                {"name": "email", "unique": True, "avg_size_bytes": 30},
                {"name": "tier", "avg_size_bytes": 6},
                {"name": "balance", "type": "N", "avg_size_bytes": 4}]},
            {"name": "Order", "item_count": 100, "identifiers": ["id"], "attributes": [
                {"name": "id", "avg_size_bytes": 8, "generator": {**text, "prefix": "o"}},
                {"name": "customerId", "avg_size_bytes": 8, "generator": {**text, "prefix": "c"}},
                {"name": "note", "avg_size_bytes": 100}]}],
        "access_patterns": [
            {"name": "sign_up_with_orders_by_id", "kind": "transact_write", "entities": ["Customer", "Order"],
             "inputs": ["id"], "expected_items": 4, "traffic": traffic},
            {"name": "move_balance_by_ids", "kind": "transact_write", "entities": ["Customer"],
             "inputs": ["fromId", "toId", "amount"], "members": [
                 {"entity": "Customer", "action": "Update", "key_inputs": {"id": "fromId"},
                  "updates": [{"attribute": "balance", "action": "ADD", "input": "amount", "negate": True}]},
                 {"entity": "Customer", "action": "Update", "key_inputs": {"id": "toId"},
                  "updates": [{"attribute": "balance", "action": "ADD", "input": "amount"}]}],
             "traffic": traffic}],
        "key_design": {"global_secondary_indexes": [{"name": "GSI1", "partition_key": {"name": "GSI1PK"},
                                                     "sort_key": {"name": "GSI1SK"},
                                                     "projection": {"type": "KEYS_ONLY"}}],
                       "entities": [
                           {"entity": "Customer", "table": {"partition_key": "C#{id}", "sort_key": "C#{id}"},
                            "indexes": {"GSI1": {"partition_key": "TIER#{tier}", "sort_key": "C#{id}"}}},
                           {"entity": "Order", "table": {"partition_key": "O#{id}", "sort_key": "O#{id}"},
                            "indexes": {"GSI1": {"partition_key": "CUST#{customerId}",
                                                 "sort_key": "O#{id}"}}}]}})


SHOP = _shop()
SHOP_DESIGN = rule_based_designs(SHOP)[0]
SHOP_PROFILE = {c.pattern: c for c in capacity_profile(SHOP, SHOP_DESIGN).patterns}


def test_the_shop_items_are_each_one_write_block() -> None:
    sizes = design_sizes(SHOP, SHOP_DESIGN.key_design)
    assert sizes.item_bytes("Customer") <= 1024 and sizes.item_bytes("Order") <= 1024
    assert all(sizes.entry_bytes("GSI1", e) <= 1024 for e in ("Customer", "Order"))


def test_a_transaction_without_members_writes_every_entity_and_its_uniqueness_items() -> None:
    # 4 expected items over 2 entities (the model gives no per-entity count): 2 Customers, 2 Orders, each a new
    # item (no changed attribute). Table: 2 Customer puts x 1 block x 2 + 2 email uniqueness puts x 1 x 2 +
    # 2 Order puts x 1 x 2 = 4 + 4 + 4 = 12 WCU. GSI1: 2 Customer entries + 2 Order entries = 4 WCU (1x; the
    # uniqueness items are in no index). Total 16 WCU a request. Before: one Put of the first entity and its
    # email claim, 2 x 2 = 4 WCU on the table, as if a 4-item checkout wrote one Customer.
    capacity = SHOP_PROFILE["sign_up_with_orders_by_id"]
    assert capacity.write_units_per_request == 12
    assert capacity.index_write_units_per_request == (("GSI1", Decimal(4)),)
    assert capacity.units_per_request == 16


def test_members_updating_an_unindexed_attribute_write_no_index_entry() -> None:
    # two Customer updates ADD to `balance`: not in GSI1's key, not projected (KEYS_ONLY) -> 0 index writes
    # (§4.1: "an update that touches no index key or projected attribute" writes nothing). Table: 2 updates x
    # 1 block x 2 = 4 WCU. Before: each member counted as a new GSI1 entry (a generic estimate replacing 0).
    capacity = SHOP_PROFILE["move_balance_by_ids"]
    assert capacity.write_units_per_request == 4
    assert capacity.index_write_units_per_request == ()


def test_the_ecommerce_checkout_prices_its_seven_items_and_their_index_writes() -> None:
    # place_order_by_customer: a 7-item transaction of Order, OrderItem and Product, no `members`; Product has
    # a unique sku, so the pattern has write semantics. Sizes: Order 409 B (1 block), OrderItem 256 B (1),
    # Product 1,121 B (2 blocks; its GSI1 entry, ALL projected, 1,121 B: 2 blocks). (Issue 27.7: the optional
    # paidAt is absent from unpaid and some other orders, the optional color from some products.) 7 items spread evenly:
    # 7/3 of each. Table (2x, §2): 2 x 7/3 x (1 + 1 + 2) = 56/3 = 18.666667. Index (1x): a new Order enters
    # GSI1 and GSI2 (2 x 1 block); the Product's stock update rewrites its GSI1 entry (stock projected: 2
    # blocks); no sku change, so no uniqueness item: 7/3 x (2 + 2) = 28/3 = 9.333333 (GSI1 7/3 x 3 = 7,
    # GSI2 7/3). Total 28 WCU a request (the independent calculator's 1 Order + 3 OrderItems + 3 Products,
    # 2 x (1 + 3 + 6) + 2 + 6, is also 28). Before: 3.33 (one Put of the Order).
    model = load_example("ecommerce_orders")
    design = rule_based_designs(model)[0]
    sizes = design_sizes(model, design.key_design)
    assert (sizes.item_bytes("Order"), sizes.item_bytes("OrderItem"), sizes.item_bytes("Product")) == (409, 256, 1121)
    capacity = next(c for c in capacity_profile(model, design).patterns if c.pattern == "place_order_by_customer")
    assert capacity.write_units_per_request == Decimal("18.666667")
    assert capacity.index_write_units_per_request == (("GSI1", Decimal(7)), ("GSI2", Decimal("2.333333")))
    assert capacity.units_per_request == Decimal(28)


# --- TTL deletes in a global table's replicas (issue 27, D4) ---------------------------------------------------


def _global_wallet(user_ttl_required: bool) -> Model:
    """The wallet as a global table (us-east-1 + us-west-2); User's expiresAt optional (set only by the soft
    delete) or required (every User put carries an expiry)."""
    users = WALLET.entity("User")
    assert users is not None
    attributes = tuple(a.model_copy(update={"required": user_ttl_required}) if a.name == "expiresAt" else a
                       for a in users.attributes)
    entities = tuple(e.model_copy(update={"attributes": attributes}) if e.name == "User" else e
                     for e in WALLET.entities)
    return WALLET.model_copy(update={"entities": entities,
                                     "table": WALLET.table.model_copy(update={"replica_regions": ("us-west-2",)})})


def _ttl_lines(model: Model) -> dict[str, Decimal]:
    from costs.capacity import table_usage
    from costs.monthly import estimate_monthly_cost
    from costs.pricing import price_sheet_for
    from costs.usage import CapacityOption, EstimateOptions
    from modeling.model import TableClass

    design = generate_design(model)
    usage = table_usage(model, design, capacity_profile(model, design))
    estimate = estimate_monthly_cost(usage, price_sheet_for("us-east-1"),
                                     EstimateOptions(capacity_options=(CapacityOption.ON_DEMAND,),
                                                     table_classes=(TableClass.STANDARD,)))
    lines = estimate.options[0].line_items
    # request units are priced per million: the quantity is in millions
    return {li.name: li.quantity * 1_000_000 for li in lines if li.name.startswith("TTL deletes")}


def test_ttl_deletes_are_replicated_writes_in_the_replica_and_free_at_home() -> None:
    # Only the soft delete gives a User an expiry (expiresAt optional, create_user does not set it): 1 request/s
    # on average, one User item of 2 write blocks (1.6 KB, see the premise above): 1 x 2 = 2 rWRU/s in
    # us-west-2. A month is 730 h x 3,600 s = 2,628,000 s: 2 x 2,628,000 = 5,256,000 rWRU. The archived copy
    # (UserArchive) has no expiresAt and expires never.
    lines = _ttl_lines(_global_wallet(user_ttl_required=False))
    assert lines["TTL deletes: Replicated writes, table social-wallet, us-west-2 (rWRU)"] == Decimal(5_256_000)
    assert not any("us-east-1" in name for name in lines)  # free where DynamoDB deletes the item


def test_every_put_of_an_entity_that_always_expires_is_a_later_delete() -> None:
    # expiresAt required: each created User expires too. create_user_by_id 1/s + delete_user_by_id 1/s, each a
    # 2-block User: (1 + 1) x 2 = 4 rWRU/s, x 2,628,000 s = 10,512,000 rWRU a month
    lines = _ttl_lines(_global_wallet(user_ttl_required=True))
    assert lines["TTL deletes: Replicated writes, table social-wallet, us-west-2 (rWRU)"] == Decimal(10_512_000)


def test_a_single_region_table_has_no_ttl_delete_lines() -> None:
    assert _ttl_lines(WALLET) == {}
