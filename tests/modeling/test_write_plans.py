"""Write plans (issue 16.2): each write becomes the real request: members, UpdateExpression,
ConditionExpression; uniqueness and auxiliary items get their keys in the one key grammar.

The expected expressions are written out by hand from the wallet fixture's fields.
"""

from __future__ import annotations

import pytest

from modeling.design.design_report import entity_chart
from modeling.design.generator import generate_design
from modeling.design.plans import Operation
from modeling.model import TransactAction
from modeling.model_file import load_model_file
from modeling.write_semantics import ARCHIVE, ITEM
from tests.fixture_files import FIXTURES_DIR

WALLET = load_model_file(FIXTURES_DIR / "write-semantics" / "wallet.yaml")
DESIGN = generate_design(WALLET)


def members(pattern: str) -> list[tuple[str, str, str, str]]:
    plan = DESIGN.plan(pattern)
    assert plan is not None and plan.write is not None
    return [(m.action.value, m.item, m.update_expression, m.condition_expression) for m in plan.write.members]


def test_a_create_with_a_unique_email_is_one_transaction_claiming_the_email() -> None:
    plan = DESIGN.plan("create_user_by_id")
    assert plan is not None and plan.operation is Operation.TRANSACT_WRITE_ITEMS
    assert members("create_user_by_id") == [("Put", ITEM, "", "attribute_not_exists(#PK)"),
                                            ("Put", "unique_email", "", "attribute_not_exists(#PK)")]


def test_changing_the_unique_attribute_releases_the_old_item_and_claims_the_new_one() -> None:
    assert members("change_email_by_user") == [
        ("Update", ITEM, "SET #email = :email ADD #version :one", "#version = :expected_version"),
        ("Delete", "unique_email", "", ""), ("Put", "unique_email", "", "attribute_not_exists(#PK)")]


def test_an_atomic_add_is_a_plain_update_with_no_read_first() -> None:
    plan = DESIGN.plan("earn_coins_by_user")
    assert plan is not None and plan.operation is Operation.UPDATE_ITEM
    assert members("earn_coins_by_user") == [("Update", ITEM, "ADD #coins :coins_delta", "")]
    assert plan.items_read_per_request == 0 and plan.write is not None and plan.write.reads_before_write == 0


def test_a_version_condition_reads_the_item_first() -> None:
    plan = DESIGN.plan("change_email_by_user")
    assert plan is not None and plan.write is not None and plan.write.reads_before_write == 1
    assert plan.items_read_per_request == 1


def test_a_guarded_decrement_compares_with_the_input() -> None:
    # the sender ADDs the negated input (its own placeholder) while the condition compares the input itself
    assert members("spend_coins_by_user") == [("Update", ITEM, "ADD #coins :price_negated", "#coins >= :price")]


def test_a_transfer_has_one_member_per_declared_member_with_its_own_condition() -> None:
    plan = DESIGN.plan("pay_user_by_ids")
    assert plan is not None and plan.operation is Operation.TRANSACT_WRITE_ITEMS
    assert plan.items_written_per_request == 3
    assert members("pay_user_by_ids") == [("Update", ITEM, "ADD #coins :amount_negated", "#coins >= :amount"),
                                          ("Update", ITEM, "ADD #coins :amount", ""),
                                          ("Put", ITEM, "", "attribute_not_exists(#PK)")]


def test_a_soft_delete_sets_the_marks_and_ttl_and_archives_in_one_transaction() -> None:
    plan = DESIGN.plan("delete_user_by_id")
    assert plan is not None and plan.operation is Operation.TRANSACT_WRITE_ITEMS
    assert members("delete_user_by_id") == [
        ("Update", ITEM, "SET #status = :deleted_status, #deletedAt = :deleted_at, #expiresAt = :expires_at",
         "attribute_exists(#PK)"),
        ("Put", ARCHIVE, "", "")]


def test_an_aggregate_is_added_to_under_the_parents_partition_key() -> None:
    assert members("like_post_by_user") == [("Put", ITEM, "", "attribute_not_exists(#PK)"),
                                            ("Update", "like_count", "ADD #likeCount :like_count_delta", "")]
    keys = next(k for k in DESIGN.key_design.entities if k.entity == "Like")
    post = next(k for k in DESIGN.key_design.entities if k.entity == "Post")
    assert keys.auxiliary["like_count"].partition_key == post.table.partition_key == "POST#{postId}"


def test_an_edge_copy_is_put_under_the_other_ends_key() -> None:
    plan = DESIGN.plan("follow_user_by_ids")
    assert plan is not None and plan.write is not None
    copy = plan.write.members[1]
    assert (copy.action, copy.partition_key, copy.sort_key) == (TransactAction.PUT, "USER#{followedId}",
                                                                "FOLLOWER#{followerId}")


@pytest.mark.parametrize(("entity", "partition_key", "sort_key"), [
    ("User", "EMAIL#{email}", "EMAIL#{email}"), ("Like", "POST#{postId}", "AGG#like_count"),
    ("Follow", "USER#{followedId}", "FOLLOWER#{followerId}")])
def test_the_entity_chart_shows_every_auxiliary_item(entity: str, partition_key: str, sort_key: str) -> None:
    rows = [r for r in entity_chart(DESIGN) if r["entity"] == entity and "Auxiliary item" in r["why"]]
    assert [(r["partition_key"], r["sort_key"]) for r in rows] == [(partition_key, sort_key)]


def test_a_model_without_write_semantics_plans_plain_writes() -> None:
    plain = WALLET.model_copy(update={"entities": tuple(
        e.model_copy(update={"auxiliary_items": (), "attributes": tuple(
            a.model_copy(update={"unique": False}) for a in e.attributes)}) for e in WALLET.entities),
        "access_patterns": tuple(p for p in WALLET.access_patterns if p.name == "follow_user_by_ids")})
    plan = generate_design(plain).plan("follow_user_by_ids")
    assert plan is not None and plan.write is None and plan.operation is Operation.PUT_ITEM


def test_a_users_own_auxiliary_templates_are_kept() -> None:
    from modeling.design.generator import explicit_design
    from modeling.model import EntityKeys, KeyDesign, KeyTemplates

    own = KeyDesign(entities=(EntityKeys(entity="User", table=KeyTemplates(partition_key="USER#{userId}",
                                                                            sort_key="PROFILE"),
                                         auxiliary={"unique_email": KeyTemplates(partition_key="MAIL#{email}",
                                                                                 sort_key="MAIL")}),))
    design = explicit_design(WALLET.model_copy(update={"key_design": own}))
    assert design is not None
    user = next(k for k in design.key_design.entities if k.entity == "User")
    assert user.auxiliary["unique_email"] == KeyTemplates(partition_key="MAIL#{email}", sort_key="MAIL")
