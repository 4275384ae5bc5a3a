"""DDS308-DDS311 (issue 16.3): each check fires on the mistake and stays quiet on its fix.

Loads are worked out by hand in comments from dynamodb-rules §1.2 (1 KB write blocks), §2 (x2 in a
transaction) and §7.1 (1,000 WCU per partition per second).
"""

from __future__ import annotations

from typing import Any

from modeling.design.checks import check_design
from modeling.design.checks.catalogue import Finding
from modeling.design.generator import generate_design
from modeling.model import Model


def wallet(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "name": "Checks", "table": {"name": "checks-table"},
        "entities": [
            {"name": "User", "item_count": 10000, "identifiers": ["userId"], "attributes": [
                {"name": "userId", "generator": {"kind": "uuid"}},
                {"name": "email", "generator": {"kind": "faker", "provider": "email"}},
                {"name": "balance", "type": "N", "generator": {"kind": "int_range", "min": 0, "max": 100}},
                {"name": "version", "type": "N"}]},
            {"name": "Post", "item_count": 1000, "identifiers": ["postId"], "attributes": [
                {"name": "postId", "generator": {"kind": "uuid"}}]},
            {"name": "Like", "item_count": 100000, "identifiers": ["postId", "userId"], "attributes": [
                {"name": "postId", "generator": {"kind": "reference", "entity": "Post", "attribute": "postId",
                                                 "distribution": {"kind": "hot_value", "share": 0.5}}},
                {"name": "userId", "generator": {"kind": "reference", "entity": "User", "attribute": "userId"}}],
             "auxiliary_items": [{"name": "like_count", "kind": "aggregate", "relationship": "post_likes"}]}],
        "relationships": [{"name": "post_likes", "kind": "one_to_many", "parent": "Post", "child": "Like",
                           "child_attributes": ["postId"], "cardinality": {"mean": 100}}],
        "access_patterns": [
            {"name": "set_balance_by_user", "kind": "update", "entities": ["User"], "inputs": ["userId"],
             "updates": [{"attribute": "balance"}],
             "traffic": {"peak_requests_per_second": 5, "average_requests_per_second": 1}},
            {"name": "like_post_by_user", "kind": "write", "entities": ["Like"], "inputs": ["postId", "userId"],
             "traffic": {"peak_requests_per_second": 3000, "average_requests_per_second": 100}},
            {"name": "get_user_by_email", "kind": "read_one", "entities": ["User"], "inputs": ["email"],
             "traffic": {"peak_requests_per_second": 5, "average_requests_per_second": 1}}]}
    document.update(changes)
    return document


def findings(document: dict[str, Any], check_id: str) -> list[Finding]:
    model = Model.model_validate(document)
    return [f for f in check_design(model, generate_design(model)) if f.check_id == check_id]


def _patterns(document: dict[str, Any], name: str, **update: Any) -> list[dict[str, Any]]:
    return [({**p, **update} if p["name"] == name else p) for p in document["access_patterns"]]


def test_dds308_a_balance_set_without_a_condition_loses_updates() -> None:
    found = findings(wallet(), "DDS308")
    assert [f.path for f in found] == ["access_patterns[set_balance_by_user]"]
    assert "one increment is lost" in found[0].message


def test_dds308_is_quiet_with_a_version_condition_or_an_add() -> None:
    base = wallet()
    locked = wallet(access_patterns=_patterns(base, "set_balance_by_user",
                                              condition={"kind": "version_matches", "attribute": "version"}))
    added = wallet(access_patterns=_patterns(base, "set_balance_by_user",
                                             updates=[{"attribute": "balance", "action": "ADD"}]))
    assert findings(locked, "DDS308") == [] and findings(added, "DDS308") == []


def test_dds309_a_read_one_by_a_gsi_key_nothing_keeps_unique() -> None:
    found = findings(wallet(), "DDS309")
    assert [f.path for f in found] == ["access_patterns[get_user_by_email]"]
    assert "two User items can hold the same email" in found[0].message


def test_dds309_is_quiet_once_the_attribute_is_unique() -> None:
    document = wallet()
    user = document["entities"][0]
    user["attributes"][1] = {**user["attributes"][1], "unique": True}  # a uniqueness item EMAIL#{email}
    assert findings(document, "DDS309") == []


def test_dds310_a_like_count_on_a_hot_post_passes_one_partition() -> None:
    # 3,000 likes/s, half of them on one post (hot_value 0.5): 1,500 ADDs/s on its like-count item,
    # each 1 KB block x2 in the transaction (§2) = 3,000 WCU/s > 1,000 (§7.1).
    found = findings(wallet(), "DDS310")
    assert len(found) == 1
    assert "≈ 1,500 writes/s" in found[0].message and "≈ 3,000 WCU/s" in found[0].message
    # shards at 80 % of 1,000: ceil(3,000 / 800) = 4; a read of the count: 4 GetItems x 0.5 RCU = 2 RCU
    assert "Shard the counter: 4 items" in found[0].fix and "2 RCU per eventually consistent read" in found[0].fix


def test_dds310_is_quiet_when_the_likes_spread_over_the_posts() -> None:
    document = wallet()
    document["entities"][2]["attributes"][0]["generator"]["distribution"] = {"kind": "uniform"}
    # 3,000 / 1,000 posts = 3 ADDs/s per post x 2 = 6 WCU/s
    assert findings(document, "DDS310") == []


def test_dds311_ttl_in_epoch_milliseconds_never_expires() -> None:
    document = wallet(table={"name": "checks-table", "ttl_attribute": "expiresAt"})
    document["entities"][0]["attributes"].append(
        {"name": "expiresAt", "type": "N", "required": False, "generator": {
            "kind": "timestamp_range", "start": "2026-01-01", "end": "2026-12-31", "format": "epoch_milliseconds"}})
    found = findings(document, "DDS311")
    assert [f.path for f in found] == ["entities[User].attributes[expiresAt]"]
    assert "never expire" in found[0].message
    document["entities"][0]["attributes"][-1]["generator"]["format"] = "epoch_seconds"
    assert findings(document, "DDS311") == []


# --- DDS302 and optimistic locking (issue 27.5) ------------------------------------------------------------------


def _balance_update(**pattern: Any) -> dict[str, Any]:
    return wallet(access_patterns=[{"name": "change_balance_by_user", "kind": "update", "entities": ["User"],
                                    "inputs": ["userId", "expected", "amount"],
                                    "traffic": {"peak_requests_per_second": 5, "average_requests_per_second": 1},
                                    **pattern}])


def test_dds302_an_optimistic_lock_makes_the_version_increment_idempotent() -> None:
    # condition `version = :expected_version`, update `SET email = :email ADD version :one`: a retry after the
    # first attempt went through finds version + 1 and fails, so nothing counts twice
    locked = _balance_update(condition={"kind": "version_matches", "attribute": "version"},
                             updates=[{"attribute": "email"}])
    assert findings(locked, "DDS302") == []
    unlocked = _balance_update(updates=[{"attribute": "version", "action": "ADD", "amount": 1}])
    [finding] = findings(unlocked, "DDS302")
    assert "version" in finding.message and "a retried request adds again" in finding.message


def test_dds302_an_equality_on_the_incremented_attribute_guards_it_but_a_floor_does_not() -> None:
    guarded = _balance_update(condition={"attribute": "balance", "operator": "=", "input": "expected"},
                              updates=[{"attribute": "balance", "action": "ADD", "input": "amount"}])
    assert findings(guarded, "DDS302") == []
    # `balance >= :amount` still holds on the retry while enough is left: the ADD counts twice
    floor = _balance_update(condition={"attribute": "balance", "operator": ">=", "input": "amount"},
                            updates=[{"attribute": "balance", "action": "ADD", "input": "amount", "negate": True}])
    assert [f.path for f in findings(floor, "DDS302")] == ["access_patterns[change_balance_by_user]"]
    # an equality on another attribute says nothing about a retry of the increment
    other = _balance_update(condition={"attribute": "email", "operator": "=", "input": "expected"},
                            updates=[{"attribute": "balance", "action": "ADD", "input": "amount"}])
    assert len(findings(other, "DDS302")) == 1


def test_a_put_members_attributes_are_its_new_item_not_a_change_to_the_other_members() -> None:
    """A stranger's library (typed in the browser): the Loan Put SETs memberId, isbn and copyId from inputs of the
    same names. They are the new Loan's attributes: DDS107 said borrow_copy changes Member's table key and DDS301
    priced ~2 index writes per update on GSI1; neither happens (the Member is only ADDed to)."""
    from costs.design_ranking import propose
    from modeling.model_file import load_model_file
    from tests.fixture_files import FIXTURES_DIR

    model = load_model_file(FIXTURES_DIR / "write-semantics" / "library_typed_in_browser.yaml")
    borrow = next(p for p in model.access_patterns if p.name == "borrow_copy")
    assert "memberId" not in borrow.changed and "memberId" not in borrow.value_inputs
    findings = check_design(model, propose(model)[0])
    assert [f.check_id for f in findings if f.pattern == "borrow_copy" and f.check_id in ("DDS107", "DDS301")] == []
