"""Reading through uniqueness items (issue 28.3): a read by a unique attribute as two GetItems, chosen by cost.

The model is the User table of the AWS Database Blog post on unique constraints (tests/fixtures/uniqueness-reads/
users.yaml): email and userName each claimed by a uniqueness item in the user's transactions. The expected
figures are worked out by hand from docs/dynamodb-rules.md, never by the code under test:

    seconds a month: 730 h x 3,600 = 2,628,000 (dynamodb-rules §10)
    a GetItem of an item up to 4 KB, eventually consistent: 0.5 RRU; strongly consistent: 1 RRU (§1.1, §1.2)
    us-east-1 on-demand: $0.125 per million RRU, $0.625 per million WRU (§9.2)
    a GSI on email (projection ALL) costs, per write of a user (§4.1, entries under 1 KB):
        create_user 1 index put, delete_user_by_id 1 index delete, change_email_by_user 2 (its key changes),
        change_phone_by_user 1 (a projected attribute changes)
"""

from __future__ import annotations

from decimal import Decimal

from costs.design_cost import priced_design
from costs.monthly import CostEstimate
from costs.pricing import load_price_sheet
from costs.usage import CapacityOption
from modeling.design.generator import explicit_design, generate_design
from modeling.design.plans import TABLE, Operation
from modeling.model import Consistency, KeyDesign, Model, Traffic, TransactAction
from modeling.model_file import load_model_file
from studio.design import propose
from tests.expert_models.comparison import canonical_proposal, reversed_model
from tests.fixture_files import FIXTURES_DIR

USERS = load_model_file(FIXTURES_DIR / "uniqueness-reads" / "users.yaml")
SECONDS_PER_MONTH = 2_628_000
SHEET = load_price_sheet("us-east-1")


def _with_lookups(model: Model, average: float, consistency: Consistency = Consistency.EVENTUAL) -> Model:
    patterns = tuple(p.model_copy(update={"traffic": Traffic(peak_requests_per_second=2 * average,
                                                                     average_requests_per_second=average),
                                          "consistency": consistency})
                     if p.name == "get_user_by_email" else p for p in model.access_patterns)
    return model.model_copy(update={"access_patterns": patterns})


def _line(cost: CostEstimate, name: str) -> Decimal:
    option = cost.option(CapacityOption.ON_DEMAND)
    return next((i.quantity for i in option.line_items if i.name == name), Decimal(0))


def test_write_heavy_users_are_read_by_email_through_the_uniqueness_item() -> None:
    design = propose(USERS)[0]
    plan = design.plan("get_user_by_email")
    assert plan is not None and plan.through is not None
    assert (plan.operation, plan.index, plan.through.partition_key) == (Operation.GET_ITEM, TABLE, "EMAIL#{email}")
    assert plan.through.carries == ("userId",)  # the uniqueness item holds the user's key
    assert design.key_design.global_secondary_indexes == ()
    assert "uniqueness item unique_email" in plan.reason and "Two eventually consistent GetItems" in plan.reason


def test_every_write_that_claims_an_email_puts_the_users_key_in_the_uniqueness_item() -> None:
    design = propose(USERS)[0]
    for pattern in ("create_user", "change_email_by_user"):
        plan = design.plan(pattern)
        assert plan is not None and plan.write is not None
        claims = [m for m in plan.write.members if m.item == "unique_email" and m.action is TransactAction.PUT]
        assert [m.carries for m in claims] == [("userId",)]


def test_the_two_getitem_plan_costs_what_the_rules_say() -> None:
    # get_user_by_email: 0.5 RRU (uniqueness item) + 0.5 RRU (user item) = 1 RRU a request
    # table reads: (get_user_by_id 50/s x 0.5 + get_user_by_email 2/s x 1) x 2,628,000 = 70,956,000 RRU
    profile, _, cost = priced_design(USERS, propose(USERS)[0], SHEET)
    units = {p.pattern: p.read_units_per_request for p in profile.patterns}
    assert units["get_user_by_email"] == Decimal("1.0")
    assert _line(cost, "Reads, table users (RRU)") == Decimal("70.956")
    assert not any("index" in i.name for i in cost.option(CapacityOption.ON_DEMAND).line_items)


def test_the_gsi_it_replaces_costs_the_index_writes_the_rules_say() -> None:
    # index writes: (create 20/s x 1 + delete 2/s x 1 + change_email 5/s x 2 + change_phone 10/s x 1) = 42 WRU/s
    #   x 2,628,000 = 110,376,000 WRU = $68.985; index reads 2/s x 0.5 x 2,628,000 = 2,628,000 RRU = $0.3285
    # the two GetItems read 2/s x 0.5 x 2,628,000 = 2,628,000 RRU more on the table than the GSI's Query: $0.3285
    # on-demand: the GSI design costs 68.985 + 0.3285 - 0.3285 - 0.3285 = $68.6565 a month more (storage: both
    # under a cent)
    gsi = generate_design(USERS)  # the generator still builds the GSI: the search's other candidate
    _, _, gsi_cost = priced_design(USERS, gsi, SHEET)
    _, _, through_cost = priced_design(USERS, propose(USERS)[0], SHEET)
    assert _line(gsi_cost, "Writes, index GSI1 (WRU)") == Decimal("110.376")
    assert _line(gsi_cost, "Reads, index GSI1 (RRU)") == Decimal("2.628")
    difference = (gsi_cost.option(CapacityOption.ON_DEMAND).monthly_total_usd
                  - through_cost.option(CapacityOption.ON_DEMAND).monthly_total_usd)
    assert abs(difference - Decimal("68.6565")) <= Decimal("0.01")  # each line is rounded to the cent


def test_read_heavy_users_keep_the_gsi() -> None:
    # 2,000 lookups a second: the two GetItems cost 2,000 x 0.5 x 2,628,000 = 2,628,000,000 RRU more than the GSI's
    # Query, $328.50 a month, against the GSI's $68.985 of index writes: the GSI is kept (reserved capacity keeps
    # the same 1:5 ratio of read to write prices, dynamodb-rules §10)
    model = _with_lookups(USERS, 2_000)
    design = propose(model)[0]
    plan = design.plan("get_user_by_email")
    assert plan is not None and plan.through is None
    assert plan.index in {i.name for i in design.key_design.global_secondary_indexes}


def test_a_strongly_consistent_lookup_is_two_strong_getitems_never_a_scan() -> None:
    # a GSI cannot serve a strong read (§4.1): 1 RRU + 1 RRU a request
    model = _with_lookups(USERS, 2_000, Consistency.STRONG)
    design = propose(model)[0]
    plan = design.plan("get_user_by_email")
    assert plan is not None and plan.through is not None and plan.consistent_read
    profile, _, _ = priced_design(model, design, SHEET)
    assert next(p.read_units_per_request for p in profile.patterns if p.pattern == "get_user_by_email") == 2


def test_a_written_design_without_the_index_reads_through_the_uniqueness_item() -> None:
    keys = propose(USERS)[0].key_design
    written = USERS.model_copy(update={"key_design": KeyDesign.model_validate(
        {"entities": [{"entity": "User", "table": keys.entities[0].table.model_dump()}]})})
    design = explicit_design(written)
    assert design is not None
    plan = design.plan("get_user_by_email")
    assert plan is not None and plan.through is not None and plan.served


def test_the_choice_does_not_depend_on_the_order_of_the_file() -> None:
    for model in (USERS, _with_lookups(USERS, 2_000)):
        assert canonical_proposal(propose(reversed_model(model))[0]) == canonical_proposal(propose(model)[0])
