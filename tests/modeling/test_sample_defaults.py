"""Realistic, consistent sample data (issue 27.7): generators chosen by name and type for attributes the model
gives none, optional attributes absent from a share of items, and closing attributes and the TTL following the
states the model's writes give them. The library fixture has almost no generators on purpose.

Expected values are worked out here from the rules they follow (the ISBN-13 check digit, the windows around
the reference date, the soft delete's 365 days), never by calling the code under test for them.
"""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from modeling.data.default_values import FakerMethod, default_generator, name_words
from modeling.data.sample_data import generate_items
from modeling.data.sample_states import entity_rules
from modeling.model import (
    AttributeType,
    ConstantGenerator,
    FakerGenerator,
    FakerProvider,
    IntRangeGenerator,
    Model,
    SequenceGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    UuidGenerator,
)
from modeling.model_file import load_model_file, model_from_document
from tests.fixture_files import FIXTURES_DIR

LIBRARY_FILE = FIXTURES_DIR / "write-semantics" / "library_states.yaml"
LIBRARY = load_model_file(LIBRARY_FILE)
ITEMS = generate_items(LIBRARY, 300, seed=42)
# The windows, written out: the reference date is 2026-01-01 UTC; past moments lie in the 365 days before it,
# dates to come (dueDate, a TTL) in the 90 days after it.
REFERENCE = datetime(2026, 1, 1, tzinfo=UTC)
PAST = (datetime(2025, 1, 1, tzinfo=UTC), REFERENCE)
FUTURE = (datetime(2026, 1, 2, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC))
SOFT_DELETE_DAYS = 365  # close_membership's expires_after_days


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).replace(tzinfo=UTC)


@pytest.mark.parametrize(("name", "kind", "expected"), [
    ("email", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.EMAIL)),
    ("contact_email", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.EMAIL)),
    ("name", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.PERSON_NAME)),
    ("authorName", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.PERSON_NAME)),
    ("firstName", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.FIRST_NAME)),
    ("publisher", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.COMPANY)),
    ("companyName", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.COMPANY)),
    ("isbn", AttributeType.S, FakerMethod("isbn13")),
    ("phoneNumber", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.PHONE_NUMBER)),
    ("street_address", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.STREET_ADDRESS)),
    ("website", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.URL)),
    ("city", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.CITY)),
    ("country", AttributeType.S, FakerGenerator(kind="faker", provider=FakerProvider.COUNTRY)),
    ("title", AttributeType.S, FakerMethod("title")),
    ("memberId", AttributeType.S, UuidGenerator(kind="uuid")),  # an id, not a member's name
    ("orderNumber", AttributeType.N, SequenceGenerator(kind="sequence")),
    ("version", AttributeType.N, IntRangeGenerator(kind="int_range", min=1, max=20)),
    ("publishedYear", AttributeType.N, IntRangeGenerator(kind="int_range", min=1950, max=2026)),
])
def test_a_generator_is_chosen_by_name_and_type(name: str, kind: AttributeType, expected: Any) -> None:
    assert default_generator(name, kind) == expected


@pytest.mark.parametrize(("name", "kind", "window", "fmt"), [
    ("dueDate", AttributeType.S, FUTURE, TimestampFormat.DATE),
    ("expiresAt", AttributeType.N, FUTURE, TimestampFormat.EPOCH_SECONDS),
    ("returnedAt", AttributeType.S, PAST, TimestampFormat.ISO_8601),
    ("created_at", AttributeType.N, PAST, TimestampFormat.EPOCH_SECONDS),
    ("lastLoginTime", AttributeType.S, PAST, TimestampFormat.ISO_8601),
])
def test_moments_are_chosen_in_their_window_by_name(name: str, kind: AttributeType, window: tuple[datetime, datetime],
                                                    fmt: TimestampFormat) -> None:
    spec = default_generator(name, kind)
    assert isinstance(spec, TimestampRangeGenerator)
    assert (_moment(spec.start), _moment(spec.end), spec.format) == (*window, fmt)


def test_names_are_read_as_words_whatever_their_case() -> None:
    assert {name_words(n) for n in ("dueDate", "due_date", "DueDate", "due-date")} == {"due date"}


def test_an_email_looks_like_an_email_and_a_name_like_a_name() -> None:
    members = ITEMS["Member"]
    assert all(re.fullmatch(r"[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}", m["email"]) for m in members)
    assert len({m["email"] for m in members}) == len(members)  # unique: true
    assert all(re.fullmatch(r"[A-Z][\w'.-]+( [A-Z][\w'.-]+)+", m["name"]) for m in members if " " in m["name"])
    assert not any(str(v).startswith("value-") for items in ITEMS.values() for i in items for v in i.values())


def test_an_isbn_is_thirteen_digits_with_a_valid_check_digit() -> None:
    for book in ITEMS["Book"]:
        digits = [int(c) for c in book["isbn"] if c.isdigit()]
        assert len(digits) == 13 and book["isbn"].startswith(("978", "979"))
        # ISBN-13: weights 1, 3, 1, 3 ... on the first twelve digits; the check digit makes the sum a multiple of 10
        weighted = sum(d * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits[:12]))
        assert digits[12] == (10 - weighted % 10) % 10, book["isbn"]


def test_dates_lie_in_their_window_around_the_reference_date() -> None:
    loans = ITEMS["Loan"]
    assert all(PAST[0] <= _moment(loan["borrowedAt"]) <= PAST[1] for loan in loans)
    assert all(FUTURE[0].date() <= datetime.fromisoformat(loan["dueDate"]).date() <= FUTURE[1].date()
               for loan in loans)
    assert all(PAST[0] <= _moment(m["joinedAt"]) <= PAST[1] for m in ITEMS["Member"])


def test_an_optional_attribute_is_absent_from_some_items_but_not_all() -> None:
    for entity, attribute in (("Member", "phone"), ("Member", "city"), ("Author", "website"), ("Book", "publisher")):
        present = sum(attribute in item for item in ITEMS[entity])
        # absent from about 30% of 300 items: far from none and from all
        assert 150 < present < 260, (entity, attribute, present)


def test_a_required_attribute_or_one_that_names_an_item_is_on_every_item() -> None:
    assert all("version" in c and "status" in c for c in ITEMS["Copy"])
    assert all({"loanId", "memberId", "isbn", "dueDate"} <= set(loan) for loan in ITEMS["Loan"])


def test_open_loans_have_no_returned_at_and_returned_ones_have_it() -> None:
    loans = ITEMS["Loan"]
    assert {loan["loanStatus"] for loan in loans} == {"OPEN", "RETURNED"}  # the constants the writes use
    assert all("returnedAt" not in loan for loan in loans if loan["loanStatus"] == "OPEN")
    assert all("returnedAt" in loan for loan in loans if loan["loanStatus"] == "RETURNED")


def test_only_soft_deleted_members_have_deleted_at_and_a_ttl_in_the_future_after_it() -> None:
    members = ITEMS["Member"]
    deleted = [m for m in members if m["status"] == "DELETED"]
    assert 0 < len(deleted) < len(members) / 4  # a small share is soft-deleted
    assert all("deletedAt" not in m and "expiresAt" not in m for m in members if m["status"] != "DELETED")
    now = int(REFERENCE.timestamp())
    for member in deleted:
        expiry = member["expiresAt"]
        assert isinstance(expiry, Decimal) and expiry > now  # epoch seconds DynamoDB would not delete yet
        # the soft delete sets the TTL to the deletion time plus 365 days
        assert int(expiry) == int((_moment(member["deletedAt"]) + timedelta(days=SOFT_DELETE_DAYS)).timestamp())


def test_the_rules_are_read_from_the_writes() -> None:
    loan = entity_rules(LIBRARY, LIBRARY.entity("Loan"))  # type: ignore[arg-type]
    (returned,) = loan.states
    # return_copy SETs loanStatus RETURNED with returnedAt; borrow_copy puts an OPEN loan and REMOVEs it
    assert (returned.attribute, returned.status, returned.present, returned.absent, returned.strict) == (
        "returnedAt", "loanStatus", frozenset({"returned"}), frozenset({"open"}), True)
    member = entity_rules(LIBRARY, LIBRARY.entity("Member"))  # type: ignore[arg-type]
    assert {(r.attribute, r.status, r.present) for r in member.states} == {
        ("deletedAt", "status", frozenset({"deleted"})), ("expiresAt", "status", frozenset({"deleted"}))}


def _with_ticket(attributes: list[dict[str, Any]], patterns: list[dict[str, Any]] | None = None) -> Model:
    return model_from_document({
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Tickets", "table": {"name": "tickets"},
        "entities": [{"name": "Ticket", "item_count": 100, "identifiers": ["ticketId"],
                      "attributes": [{"name": "ticketId"}, *attributes]}],
        "access_patterns": patterns or []})


def test_without_writes_a_closing_attribute_follows_its_name() -> None:
    model = _with_ticket([{"name": "status", "generator": {"kind": "enum", "values": ["OPEN", "CLOSED", "ESCALATED"]}},
                          {"name": "closedAt", "required": False}])
    tickets = generate_items(model, 300)["Ticket"]
    by_state = {s: [t for t in tickets if t["status"] == s] for s in ("OPEN", "CLOSED", "ESCALATED")}
    assert by_state["OPEN"] and not any("closedAt" in t for t in by_state["OPEN"])
    assert by_state["CLOSED"] and all("closedAt" in t for t in by_state["CLOSED"])
    escalated = sum("closedAt" in t for t in by_state["ESCALATED"])
    assert 0 < escalated < len(by_state["ESCALATED"])  # the model does not say: the optional share decides


def test_an_optional_attribute_a_condition_or_an_input_reads_is_on_every_item() -> None:
    update = {"name": "assign", "kind": "update", "entities": ["Ticket"], "inputs": ["ticketId", "queue", "owner"],
              "condition": {"kind": "version_matches", "attribute": "version"},
              "updates": [{"attribute": "owner", "input": "owner"}],
              "traffic": {"peak_requests_per_second": 1, "average_requests_per_second": 1}}
    model = _with_ticket([{"name": "version", "type": "N", "required": False},
                          {"name": "queue", "required": False}, {"name": "owner", "required": False}], [update])
    tickets = generate_items(model, 200)["Ticket"]
    assert all("version" in t and "queue" in t for t in tickets)
    assert 0 < sum("owner" in t for t in tickets) < len(tickets)  # the value the write sets may be missing


def test_an_explicit_generator_always_wins() -> None:
    document = json.loads(LIBRARY.model_dump_json())
    member = next(e for e in document["entities"] if e["name"] == "Member")
    member["attributes"][2]["generator"] = {"kind": "constant", "value": "Ada"}  # name
    member["attributes"][6]["generator"] = {"kind": "int_range", "min": 0, "max": 3}  # activeLoans
    assert isinstance(model_from_document(document).entity("Member").attributes[2].generator,  # type: ignore[union-attr]
                      ConstantGenerator)
    members = generate_items(model_from_document(document), 100)["Member"]
    assert {m["name"] for m in members} == {"Ada"}
    assert {m["activeLoans"] for m in members} <= {Decimal(n) for n in range(4)}


def _bytes(items: dict[str, list[dict[str, Any]]]) -> str:
    return json.dumps(items, sort_keys=True, default=str)


def test_the_same_seed_gives_the_same_items_and_another_seed_others() -> None:
    assert _bytes(generate_items(LIBRARY, 300, seed=42)) == _bytes(ITEMS)
    assert _bytes(generate_items(LIBRARY, 300, seed=43)) != _bytes(ITEMS)


@pytest.mark.parametrize("order_seed", [1, 2, 3])
def test_a_shuffled_model_file_gives_the_same_items(order_seed: int) -> None:
    rng = random.Random(order_seed)
    document = json.loads(LIBRARY.model_dump_json())
    for key in ("entities", "relationships", "access_patterns"):
        rng.shuffle(document[key])
    for entity in document["entities"]:
        rng.shuffle(entity["attributes"])
    assert _bytes(generate_items(model_from_document(document), 300, seed=42)) == _bytes(ITEMS)


def test_a_string_set_holds_a_set_of_text_never_one_string() -> None:
    """An SS (a MySQL SET, issue 31.5): an enum's values are its members, 1 to all of them per item; without a
    generator, its one member is the placeholder text. Never empty: DynamoDB refuses an empty set (facts §6)."""
    model = _with_ticket([{"name": "labels", "type": "SS", "generator": {"kind": "enum", "values": ["bug", "ux"]}},
                          {"name": "watchers", "type": "SS"}])
    tickets = generate_items(model, 100)["Ticket"]
    labels = [t["labels"] for t in tickets]
    assert all(isinstance(s, set) and s and s <= {"bug", "ux"} for s in labels)
    assert {frozenset(s) for s in labels} == {frozenset({"bug"}), frozenset({"ux"}), frozenset({"bug", "ux"})}
    assert all(isinstance(t["watchers"], set) and len(t["watchers"]) == 1 for t in tickets)
    assert all(isinstance(m, str) for t in tickets for m in t["watchers"])
