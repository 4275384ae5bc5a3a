"""Both outcomes of every conditional write, on a real moto server over HTTP (issue 27.1-2).

A library lends copies: borrowing is one transaction (the Copy only if `status = available`, a new open Loan,
ADD 1 to the Member's `activeLoans`), returning its mirror. The success path must start from items that
satisfy every condition (the preview writes one first when the data has none), the rejected path from one
that violates exactly one member's condition; each is checked against an oracle worked out from the model's
semantics, not from the request. What each test expects is written out by hand from DynamoDB's documented
behaviour: a failed member cancels the transaction, CancellationReasons name it, and nothing changes.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import replace
from typing import Any

import pytest
import yaml

from modeling.design.generator import rule_based_designs
from modeling.model_file import model_from_document
from modeling.preview import write_runner
from modeling.preview.dataset import from_dynamodb_json
from modeling.preview.runner import RunContext, run_pattern
from modeling.preview.session import PreviewSetup, load_preview, preview_setup
from modeling.preview.write_runner import TRANSACTION_CANCELED, WriteContext, run_semantic_write
from modeling.write_semantics import ValueKind, ValueSource

LIBRARY = yaml.safe_load("""
format: dynamodb-design-studio/model
version: 1
name: Library lending
table: {name: library}
entities:
  - name: Copy
    item_count: 60
    identifiers: [isbn, branchId, copyId]
    attributes:
      - {name: isbn, generator: {kind: uuid, prefix: "isbn_"}}
      - {name: branchId, generator: {kind: enum, values: [north, south]}}
      - {name: copyId, generator: {kind: uuid, prefix: "c_"}}
      - {name: status, generator: {kind: enum, values: [available, on_loan]}}
  - name: Member
    item_count: 40
    identifiers: [memberId]
    attributes:
      - {name: memberId, generator: {kind: uuid, prefix: "m_"}}
      - {name: activeLoans, type: N, generator: {kind: int_range, min: 0, max: 3}}
  - name: Loan
    item_count: 80
    identifiers: [loanId]
    attributes:
      - {name: loanId, generator: {kind: uuid, prefix: "l_"}}
      - {name: memberId, generator: {kind: reference, entity: Member, attribute: memberId}}
      - {name: isbn, generator: {kind: reference, entity: Copy, attribute: isbn}}
      - {name: loanStatus, generator: {kind: enum, values: [OPEN, RETURNED]}}
      - {name: returnedAt, required: false, generator: {kind: timestamp_range, start: "2026-01-01", end: "2026-06-01"}}
access_patterns:
  - name: borrow_copy
    kind: transact_write
    entities: [Copy, Loan, Member]
    inputs: [isbn, branchId, copyId, loanId, memberId]
    members:
      - entity: Copy
        action: Update
        condition: {attribute: status, operator: "=", value: available}
        updates: [{attribute: status, value: on_loan}]
      - entity: Loan
        action: Put
        condition: attribute_not_exists
        updates: [{attribute: loanStatus, value: OPEN}, {attribute: returnedAt, action: REMOVE}]
      - entity: Member
        action: Update
        updates: [{attribute: activeLoans, action: ADD, amount: 1}]
    traffic: {peak_requests_per_second: 5, average_requests_per_second: 1}
  - name: return_copy
    kind: transact_write
    entities: [Copy, Loan, Member]
    inputs: [isbn, branchId, copyId, loanId, memberId]
    members:
      - entity: Copy
        action: Update
        condition: {attribute: status, operator: "=", value: on_loan}
        updates: [{attribute: status, value: available}]
      - entity: Loan
        action: Update
        condition: {attribute: loanStatus, operator: "=", value: OPEN}
        updates: [{attribute: loanStatus, value: RETURNED}]
      - entity: Member
        action: Update
        updates: [{attribute: activeLoans, action: ADD, amount: -1}]
    traffic: {peak_requests_per_second: 5, average_requests_per_second: 1}
key_design:
  entities:
    - {entity: Copy, table: {partition_key: "ISBN#{isbn}", sort_key: "COPY#{branchId}#{copyId}"}}
    - {entity: Member, table: {partition_key: "MEMBER#{memberId}", sort_key: "MEMBER#{memberId}"}}
    - {entity: Loan, table: {partition_key: "LOAN#{loanId}", sort_key: "LOAN#{loanId}"}}
""")
_tables = itertools.count()


def library(changes: Any = None) -> dict[str, Any]:
    document = copy.deepcopy(LIBRARY)
    if changes is not None:
        changes(document)
    return document


def setup_of(endpoint: Any, document: dict[str, Any]) -> tuple[PreviewSetup, Any]:
    model = model_from_document(document)
    setup = preview_setup(model, rule_based_designs(model)[0], endpoint, f"lib{next(_tables)}", "library", 200, 42)
    data, _ = load_preview(setup)
    return setup, data


@pytest.fixture(scope="module")
def loaded(endpoint):
    return setup_of(endpoint, library())


def run(loaded: tuple[PreviewSetup, Any], client: Any, pattern: str):
    setup, data = loaded
    return run_pattern(client, RunContext(setup.model, setup.design, data, setup.table.name, setup.seed), pattern)


def table_items(setup: PreviewSetup, client: Any) -> list[dict[str, Any]]:
    items = client.scan(TableName=setup.table.name, ConsistentRead=True)["Items"]
    return sorted((from_dynamodb_json(i) for i in items), key=lambda i: (str(i["PK"]), str(i["SK"])))


def members(request: Any) -> list[dict[str, Any]]:
    return [next(iter(m.values())) for m in request.params["TransactItems"]]


def test_borrowing_runs_the_success_and_each_rejected_path_with_requests_that_make_sense(loaded, client) -> None:
    setup, _ = loaded
    before = table_items(setup, client)
    result = run(loaded, client, "borrow_copy")
    assert result.passed, result.verdict
    by_case = {c.case: c for c in result.cases}
    success = by_case["success"]
    assert success.expected == "succeeds" and success.passed
    copy_update, loan_put, member_update = members(success.request)
    # the constant the pattern names, not an input-derived value
    assert copy_update["ExpressionAttributeValues"] == {":status": "on_loan", ":status_limit": "available"}
    assert copy_update["Key"]["PK"].startswith("ISBN#") and copy_update["Key"]["SK"].startswith("COPY#")
    loan = loan_put["Item"]
    # a new loan is open and not returned; it belongs to the member whose counter goes up, and to this copy
    assert loan["loanStatus"] == "OPEN" and "returnedAt" not in loan
    assert member_update["Key"]["PK"] == f"MEMBER#{loan['memberId']}"
    assert copy_update["Key"]["PK"] == f"ISBN#{loan['isbn']}"
    assert member_update["UpdateExpression"] == "ADD #activeLoans :activeLoans_delta"
    # the rejected paths: each cancels the transaction on its own member, and nothing changes
    unavailable = next(c for c in result.cases if c.case.startswith("Copy's status = available made false"))
    assert unavailable.passed and unavailable.expected == TRANSACTION_CANCELED
    assert unavailable.cancellation_reasons == ("ConditionalCheckFailed", "None", "None")
    taken = by_case["Loan already exists (attribute_not_exists)"]
    assert taken.passed and taken.cancellation_reasons == ("None", "ConditionalCheckFailed", "None")
    assert table_items(setup, client) == before  # every case was undone


def test_returning_needs_a_copy_on_loan_and_an_open_loan_and_rejects_each_otherwise(loaded, client) -> None:
    result = run(loaded, client, "return_copy")
    assert result.passed, result.verdict
    success = result.cases[0]
    assert success.case == "success" and success.expected == "succeeds"
    copy_update, loan_update, _member_update = members(success.request)
    assert copy_update["ExpressionAttributeValues"] == {":status": "available", ":status_limit": "on_loan"}
    assert loan_update["ExpressionAttributeValues"] == {":loanStatus": "RETURNED", ":loanStatus_limit": "OPEN"}
    reasons = {c.case.split(" made false")[0]: c.cancellation_reasons for c in result.cases[1:]}
    assert reasons == {"Copy's status = on_loan": ("ConditionalCheckFailed", "None", "None"),
                       "Loan's loanStatus = OPEN": ("None", "ConditionalCheckFailed", "None")}
    # the written items as the oracle says: the counter one lower, the loan returned, the copy available
    (copy_before, copy_after), (loan_before, loan_after), (member_before, member_after) = success.written
    assert (copy_before["status"], copy_after["status"]) == ("on_loan", "available")
    assert (loan_before["loanStatus"], loan_after["loanStatus"]) == ("OPEN", "RETURNED")
    assert member_after["activeLoans"] == member_before["activeLoans"] - 1


def test_with_no_available_copy_in_the_data_one_is_written_first_and_both_paths_run(endpoint, client) -> None:
    def all_on_loan(document: dict[str, Any]) -> None:
        document["entities"][0]["attributes"][3]["generator"]["values"] = ["on_loan"]

    setup, data = setup_of(endpoint, library(all_on_loan))
    assert {i.attributes["status"] for i in data.of("Copy")} == {"on_loan"}
    before = table_items(setup, client)
    result = run((setup, data), client, "borrow_copy")
    assert result.passed, result.verdict
    assert next(c.expected for c in result.cases) == "succeeds"
    assert table_items(setup, client) == before  # the copy written for the success path was put back


def test_only_the_rejected_path_possible_is_refused_before_the_preview(endpoint, client) -> None:
    """`status = 1` never holds on a String attribute: the model itself is refused now (a constant of another
    type than its attribute), so the Preview never runs a condition whose success path cannot exist."""
    from modeling.errors import ModelFileError

    def numeric_status(document: dict[str, Any]) -> None:
        document["access_patterns"][0]["members"][0]["condition"]["value"] = 1

    with pytest.raises(ModelFileError, match=r"`status` is S, but the constant 1 is a number"):
        setup_of(endpoint, library(numeric_status))


def test_a_request_with_another_constant_than_the_pattern_fails_the_oracle(loaded, client) -> None:
    setup, data = loaded
    plan = setup.design.plan("borrow_copy").write
    wrong = replace(plan.members[0], values=tuple(
        (p, ValueSource(ValueKind.CONSTANT, constant="on-loan") if p == ":status" else s)
        for p, s in plan.members[0].values))
    broken = replace(plan, members=(wrong, *plan.members[1:]))
    ctx = WriteContext(client, setup.model, setup.design.key_design, data, setup.table.name, setup.seed)
    result = run_semantic_write(ctx, "borrow_copy", broken)
    assert not result.passed
    success = result.cases[0]
    assert not success.passed and "status is on-loan, the oracle says on_loan" in success.detail


@pytest.mark.parametrize("crossing", ["loan", "member"])
def test_crossed_ids_between_members_fail(loaded, client, monkeypatch, crossing: str) -> None:
    """The request puts the Loan for one member and counts it on another: the oracle, which follows the one
    memberId input, finds the wrong member changed and the right one unchanged."""
    setup, data = loaded
    stranger = data.of("Member")[0].attributes["memberId"]
    real_bind = write_runner.bind

    def crossed_bind(*args: Any, **kwargs: Any):
        bound = real_bind(*args, **kwargs)
        if crossing == "loan":
            loan = bound[1]
            return [bound[0], replace(loan, item={**loan.item, "memberId": f"{stranger}-other"}), *bound[2:]]
        member = bound[2]
        key = {"PK": f"MEMBER#{stranger}-other", "SK": f"MEMBER#{stranger}-other"}
        return [*bound[:2], replace(member, key=key), *bound[3:]]

    monkeypatch.setattr(write_runner, "bind", crossed_bind)
    before = table_items(setup, client)
    result = run(loaded, client, "borrow_copy")
    assert not result.passed
    success = result.cases[0]
    assert not success.passed
    if crossing == "loan":
        assert "Loan differs from the oracle's" in success.detail
    else:
        assert "the request writes Member" in success.detail and "Member differs from the oracle's" in success.detail
    assert table_items(setup, client) == before
