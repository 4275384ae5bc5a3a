"""Write semantics proved on a real moto server over HTTP (issue 16.4): every conditional write runs its
success case and its failure cases, and the oracle (modeling.preview.oracle) checks every member's item.

What each test expects is written out by hand from DynamoDB's documented behaviour: a failed condition
raises ConditionalCheckFailedException (one item) or TransactionCanceledException with CancellationReasons
(a transaction) and changes nothing; ADD is atomic; a soft delete's TTL is the delete time plus the days,
in epoch seconds.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from modeling.design.generator import generate_design
from modeling.model_file import load_model_file
from modeling.preview.dataset import from_dynamodb_json, to_dynamodb_json
from modeling.preview.runner import PatternRun, RunContext, run_pattern
from modeling.preview.session import load_preview, preview_setup
from modeling.preview.write_runner import CONDITION_FAILED, TRANSACTION_CANCELED
from tests.fixture_files import FIXTURES_DIR

WALLET = load_model_file(FIXTURES_DIR / "write-semantics" / "wallet.yaml")
NOW = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
_tables = itertools.count()


@pytest.fixture(scope="module")
def loaded(endpoint):
    design = generate_design(WALLET)
    setup = preview_setup(WALLET, design, endpoint, f"ws{next(_tables)}", "wallet", 300, 42)
    data, _ = load_preview(setup)
    return setup, data


def run(loaded, client, pattern: str, **options: Any) -> PatternRun:
    setup, data = loaded
    context = RunContext(setup.model, setup.design, data, setup.table.name, setup.seed, now=NOW, **options)
    return run_pattern(client, context, pattern)


def cases(result: PatternRun) -> dict[str, tuple[str, bool]]:
    return {c.case: (c.expected, c.passed) for c in result.cases}


def table_items(loaded, client) -> list[dict[str, Any]]:
    setup, _ = loaded
    items = client.scan(TableName=setup.table.name, ConsistentRead=True)["Items"]
    return sorted((from_dynamodb_json(i) for i in items), key=lambda i: (str(i["PK"]), str(i.get("SK"))))


def test_a_duplicate_id_or_email_fails_and_changes_nothing_the_uniqueness_item_included(loaded, client) -> None:
    before = table_items(loaded, client)
    result = run(loaded, client, "create_user_by_id")
    assert result.passed, result.verdict
    assert cases(result) == {
        "success": ("succeeds", True),
        "duplicate id (the same item again)": (TRANSACTION_CANCELED, True),
        "duplicate email (another new item, the same email)": (TRANSACTION_CANCELED, True)}
    duplicate_email = next(c for c in result.cases if c.case.startswith("duplicate email"))
    # the user Put's key is new, so only the uniqueness item's attribute_not_exists fails
    assert duplicate_email.cancellation_reasons == ("None", "ConditionalCheckFailed")
    assert table_items(loaded, client) == before  # and every case was undone


def test_a_stale_version_fails_and_the_current_one_succeeds_and_increments(loaded, client) -> None:
    result = run(loaded, client, "change_email_by_user")
    assert result.passed, result.verdict
    by_case = {c.case: c for c in result.cases}
    assert by_case["success"].passed
    stale = by_case["stale version (the version read before the success)"]
    # the version moved on, and the new email is now claimed: both conditions fail, the delete has none
    assert stale.expected == TRANSACTION_CANCELED
    assert stale.cancellation_reasons == ("ConditionalCheckFailed", "None", "ConditionalCheckFailed")
    taken = by_case["email held by another item"]
    assert taken.passed and taken.cancellation_reasons == ("None", "None", "ConditionalCheckFailed")
    success = by_case["success"].request
    assert success is not None
    update = success.params["TransactItems"][0]["Update"]
    assert update["ConditionExpression"] == "#version = :expected_version"
    assert update["UpdateExpression"] == "SET #email = :email ADD #version :one"


def test_the_version_increment_is_what_the_endpoint_stored(loaded, client) -> None:
    # a single UpdateItem with a version condition, sent by hand from the planned expressions
    setup, data = loaded
    user = data.of("User")[0]
    key = to_dynamodb_json({"PK": user.keys["PK"], "SK": user.keys["SK"]})
    version = user.attributes["version"]
    sent = dict(TableName=setup.table.name, Key=key, UpdateExpression="ADD #version :one",
                ConditionExpression="#version = :expected_version",
                ExpressionAttributeNames={"#version": "version"},
                ExpressionAttributeValues=to_dynamodb_json({":one": Decimal(1), ":expected_version": version}))
    client.update_item(**sent)
    stored = from_dynamodb_json(client.get_item(TableName=setup.table.name, Key=key, ConsistentRead=True)["Item"])
    assert stored["version"] == version + 1
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        client.update_item(**sent)  # the same expected version is now stale
    again = from_dynamodb_json(client.get_item(TableName=setup.table.name, Key=key, ConsistentRead=True)["Item"])
    assert again == stored
    client.put_item(TableName=setup.table.name, Item=to_dynamodb_json(user.full_item))


def test_an_atomic_counter_from_20_clients_10_times_ends_exactly_200_higher(loaded, client) -> None:
    result = run(loaded, client, "earn_coins_by_user", concurrent_clients=20)
    assert result.passed, result.verdict
    concurrent = result.cases[-1]
    assert concurrent.case == "20 concurrent clients x 10 ADDs of 1 to coins"
    assert "exactly 200 higher" in concurrent.detail


def test_a_guarded_decrement_fails_when_the_balance_is_short(loaded, client) -> None:
    result = run(loaded, client, "spend_coins_by_user")
    assert result.passed, result.verdict
    assert cases(result)["coins >= value made false"] == (CONDITION_FAILED, True)


def test_a_transaction_whose_condition_fails_leaves_every_member_unchanged(loaded, client) -> None:
    before = table_items(loaded, client)
    result = run(loaded, client, "pay_user_by_ids")
    assert result.passed, result.verdict
    failed = next(c for c in result.cases if c.case == "coins >= value made false")
    # the sender's balance is short: the sender fails, the receiver's ADD and the new payment are not applied
    assert failed.expected == TRANSACTION_CANCELED
    assert failed.cancellation_reasons == ("ConditionalCheckFailed", "None", "None")
    assert table_items(loaded, client) == before


def test_a_soft_delete_sets_the_marks_and_the_ttl_to_the_expected_epoch_second(loaded, client) -> None:
    result = run(loaded, client, "delete_user_by_id")
    assert result.passed, result.verdict
    assert cases(result)["missing item (attribute_exists)"] == (TRANSACTION_CANCELED, True)
    success = result.cases[0].request
    assert success is not None
    values = from_dynamodb_json(typed_values(success.params["TransactItems"][0]["Update"]))
    # 2026-12-01T12:00:00Z is 1,796,126,400 s after the epoch; + 30 days x 86,400 s = 1,798,718,400
    assert values[":expires_at"] == Decimal(1_798_718_400)
    assert values[":deleted_at"] == "2026-12-01T12:00:00Z" and values[":deleted_status"] == "DELETED"
    assert "Put" in success.params["TransactItems"][1]  # the archived copy


def typed_values(body: dict[str, Any]) -> dict[str, Any]:
    return to_dynamodb_json(body["ExpressionAttributeValues"])


def test_likes_and_follows_keep_their_auxiliary_items_in_step(loaded, client) -> None:
    like = run(loaded, client, "like_post_by_user")
    assert like.passed, like.verdict
    assert cases(like)["duplicate id (the same item again)"] == (TRANSACTION_CANCELED, True)
    follow = run(loaded, client, "follow_user_by_ids")
    assert follow.passed and cases(follow) == {"success": ("succeeds", True)}


def test_the_python_code_shown_for_a_failing_write_catches_the_failure(loaded, client, endpoint,
                                                                         monkeypatch) -> None:
    """The shown boto3 code, run as it is for a failing case, catches the error and reads the reasons."""
    from modeling.preview.code import cli_command, javascript_code, python_code

    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint.url)
    monkeypatch.setenv("AWS_DEFAULT_REGION", endpoint.region)
    before = table_items(loaded, client)
    pay = run(loaded, client, "pay_user_by_ids")
    failing = next(c for c in pay.cases if c.case == "coins >= value made false")
    assert failing.request is not None
    namespace: dict = {}
    exec(python_code(failing.request), namespace)  # raises if the failure is not caught
    assert namespace["reasons"] == ["ConditionalCheckFailed", "None", "None"]
    assert table_items(loaded, client) == before
    assert "TransactionCanceledException" in javascript_code(failing.request)
    assert "CancellationReasons" in javascript_code(failing.request) and "CancellationReasons" in cli_command(
        failing.request)
    spend = run(loaded, client, "spend_coins_by_user")
    short = next(c for c in spend.cases if c.case == "coins >= value made false")
    assert short.request is not None
    code = python_code(short.request)
    assert "ConditionExpression='#coins >= :price'" in code and "UpdateExpression='ADD #coins :price_negated'" in code
    exec(code, {})  # the ConditionalCheckFailedException is caught
    assert table_items(loaded, client) == before


def test_running_the_counter_pattern_alone_from_the_preview_includes_the_concurrent_case(loaded) -> None:
    from studio.preview import PreviewRun, run_preview

    setup, data = loaded
    alone = run_preview(PreviewRun(setup, data, ("earn_coins_by_user",))).results[0].run
    assert alone.passed and alone.cases[-1].case.startswith("20 concurrent clients")
    with_others = run_preview(PreviewRun(setup, data, ("earn_coins_by_user", "get_user_by_id"))).results[0].run
    assert with_others.passed and not any(c.case.startswith("20 concurrent") for c in with_others.cases)


def test_the_student_transfer_never_takes_a_balance_below_zero(make_setup) -> None:
    """A 100-item sample picks a sender with 0 xp: the amount chosen is what the sender holds (here 0), so the
    leaderboard key built from xp never renders a negative number (found by the thirty-attendees test)."""
    from studio.preview import PreviewRun, run_preview

    setup = make_setup("student_platform", 100)
    data, _ = load_preview(setup)
    run_ = run_preview(PreviewRun(setup, data, ("transfer_xp_by_student_ids",))).results[0].run
    assert run_.passed, run_.verdict
    assert [c.case for c in run_.cases] == ["success", "stale version (the version read before the success)",
                                            "XpTransfer already exists (attribute_not_exists)"]
