"""Write units of conditional, transactional and auxiliary writes (issue 16.2), against figures worked
out by hand from AWS's rules (dynamodb-facts §1.1, §1.2, §2).

The wallet fixture pins the sizes: a User holds a 1,500-byte bio plus its other attributes and keys, so it
is over 1 KB and under 2 KB: 2 write blocks. Every other item (UserArchive, Payment, Like, Follow, the
uniqueness and aggregate items) is under 1 KB: 1 block. The test checks that premise first.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from costs.capacity import capacity_profile
from modeling.design.generator import generate_design
from modeling.design.sizing import design_sizes
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
