"""Proposals pass the product's own oracle (issue 28.4).

DDS206 is the Preview's oracle (modeling.preview.oracle) worked out from the key templates: a Query whose key
condition also matches another entity's items returns items the pattern does not ask for. The expectations below
are written from DynamoDB's documented Query semantics (every item whose keys meet the key condition comes back,
whatever its entity; `begins_with(SK, "ORDER#")` matches "ORDER#ITEM#..."), not from the code under test.
`propose` offers only designs without error findings: checked over every built-in example, every expert model
and a hypothesis corpus of small parent/children models, and for a few of those against the moto server.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from costs.design_ranking import chosen_design, proposal_refusal, propose
from costs.errors import NoSafeDesignError
from modeling.design import proposal
from modeling.design.checks import FindingSeverity, check_design
from modeling.design.checks.catalogue import finding
from modeling.design.generator import explicit_design
from modeling.design.plans import Design, Operation
from modeling.design.proposal import YOUR_DESIGN
from modeling.examples import EXAMPLES_DIR
from modeling.model import Model
from modeling.model_file import load_model_file
from tests.expert_models.comparison import EXPERT_MODELS_DIR
from tests.modeling.exact_models import books_model, keyed, orders_model, repo_model, small_models, titles_model

MODEL_FILES = sorted(EXAMPLES_DIR.glob("*.yaml")) + sorted(EXPERT_MODELS_DIR.glob("*/*.yaml"))
# Errors that belong to the model, not the layout: every candidate has them. The mistakes example's transfer
# names its students by fromStudentId / toStudentId, which are not Student attributes: no key can be built from
# them in any layout (DDS312), which is the mistake the example teaches.
MODEL_ERRORS = {"student_platform_mistakes": {("DDS312", "transfer_xp_by_student_ids")}}


def _extra(model: Model, design: Design) -> dict[str, str]:
    """Pattern -> the DDS206 message, for the design's findings."""
    return {f.pattern or "": f.message for f in check_design(model, design) if f.check_id == "DDS206"}


def _own(model: Model) -> Design:
    design = explicit_design(model)
    assert design is not None
    return design


def test_a_prefix_that_also_matches_another_entitys_prefix_is_an_error() -> None:
    # the classic: orders ORDER#{orderId} and their items ORDER#ITEM#{orderId}#{itemId} in the customer's partition;
    # begins_with(SK, "ORDER#") for the orders also matches every item
    collection = {"Customer": ("CUSTOMER#{customerId}", "CUSTOMER"),
                  "Order": ("CUSTOMER#{customerId}", "ORDER#{orderId}")}
    wrong = orders_model(keyed({**collection, "OrderItem": ("CUSTOMER#{customerId}", "ORDER#ITEM#{orderId}#{itemId}")}))
    found = _extra(wrong, _own(wrong))
    assert set(found) == {"list_orders_by_customer"}
    assert "OrderItem" in found["list_orders_by_customer"] and "begins_with(SK, 'ORDER#')" in found[
        "list_orders_by_customer"]
    # ITEM#... sorts apart from ORDER#...: the same Query returns only orders
    right = orders_model(keyed({**collection, "OrderItem": ("CUSTOMER#{customerId}", "ITEM#{orderId}#{itemId}")}))
    assert _extra(right, _own(right)) == {}


def test_a_lookup_whose_sort_key_starts_with_an_attribute_returns_the_titles_too() -> None:
    # get_book_detail_by_isbn: the book's sort key is `{publisher}`, so the ISBN alone fixes no part of it and the
    # Query reads the whole partition, the titles of that ISBN with it
    wrong = books_model(keyed({"Book": ("ISBN#{isbn}", "{publisher}"), "Title": ("ISBN#{isbn}", "TITLE#{language}")}))
    plan = _own(wrong).plan("get_book_detail_by_isbn")
    assert plan is not None and plan.operation is Operation.QUERY and plan.key_condition == "PK = :pk"
    assert set(_extra(wrong, _own(wrong))) == {"get_book_detail_by_isbn"}
    right = books_model(keyed({"Book": ("ISBN#{isbn}", "BOOK"), "Title": ("ISBN#{isbn}", "TITLE#{language}")}))
    assert _extra(right, _own(right)) == {}


def test_an_index_partition_named_by_a_reference_is_the_same_partition() -> None:
    # OrderItem.orderId holds Order.orderId values: GSI1 keys both by them, so a Query for the items of an order
    # by `{orderId}` alone also returns the order itself
    wrong = orders_model(keyed(
        {"Customer": ("CUSTOMER#{customerId}", "CUSTOMER"), "Order": ("ORDER#{orderId}", "ORDER"),
         "OrderItem": ("ITEM#{orderId}#{itemId}", "ITEM")},
        {"GSI1": {"Order": ("{orderId}", "{status}"), "OrderItem": ("{orderId}", "{itemId}")}}))
    found = _extra(wrong, _own(wrong))
    assert "list_order_items_by_order_id" in found and "Order items" in found["list_order_items_by_order_id"]


def _plain_attribute_gsis(order_item_keys: tuple[str, str] = ("{orderId}", "{itemId}")) -> Model:
    # each GSI keyed by plain attributes: GSI2 (customerId, orderId) lists a customer's orders, GSI1 (orderId,
    # itemId) an order's items; only Order is given templates on GSI2
    return orders_model(keyed(
        {"Customer": ("CUSTOMER#{customerId}", "CUSTOMER"), "Order": ("ORDER#{orderId}", "ORDER"),
         "OrderItem": ("ORDER#{orderId}#ITEM#{itemId}", "ORDER_ITEM")},
        {"GSI1": {"OrderItem": order_item_keys}, "GSI2": {"Order": ("{customerId}", "{orderId}")}},
        {"GSI1": ("orderId", "itemId"), "GSI2": ("customerId", "orderId")}))


def test_an_index_keyed_by_plain_attributes_holds_every_entity_that_has_them() -> None:
    # an OrderItem item carries customerId and orderId: DynamoDB puts every item with an index's key attributes in
    # the index (a sparse index leaves out only the items without them), so a customer's GSI2 partition holds their
    # orders and their order items, and the Query by customerId returns both (the search offered this layout as
    # a runner-up; the Preview returned 9 items where 4 orders were asked)
    model = _plain_attribute_gsis()
    found = _extra(model, _own(model))
    assert set(found) == {"list_orders_by_customer"}
    assert "OrderItem items" in found["list_orders_by_customer"]
    assert "attributes named customerId and orderId" in found["list_orders_by_customer"]
    # the items of an order on GSI1: an Order item has no itemId, so it stays out of GSI1
    assert "list_order_items_by_order_id" not in found


def test_a_prefix_that_ends_on_a_value_also_returns_the_own_entitys_longer_values() -> None:
    # issue 28.4, the pattern's own entity: begins_with(SK, "TITLE#en") for TITLE#{language}{edition} also matches
    # TITLE#en-GB1 (a title in another language, of the same book), since nothing marks where `en` ends
    nested = titles_model("TITLE#{language}{edition}")
    found = _extra(nested, _own(nested))
    assert set(found) == {"list_titles_by_isbn_and_language"}
    assert "whose language starts with that value" in found["list_titles_by_isbn_and_language"]
    # a separator after the language (TITLE#en#...) keeps en-GB out
    closed = titles_model("TITLE#{language}#{edition}")
    assert _extra(closed, _own(closed)) == {}
    # the search never offers it: every proposal beside the user's own design answers exactly
    proposals = [d for d in propose(nested) if d.name != YOUR_DESIGN]
    assert proposals and all(_extra(nested, d) == {} for d in proposals)


def test_several_entities_are_read_between_their_sort_keys_when_nothing_sorts_between_them() -> None:
    # sorted: ISSUE#... < PULL_REQUEST#... < REPO < STAR#...: the repo with its pull requests or its stars is one
    # BETWEEN; the repo with its issues is not (pull requests sort between), and returns them
    model = repo_model(keyed({"Repo": ("REPO#{repoName}", "REPO"), "Issue": ("REPO#{repoName}", "ISSUE#{issueNumber}"),
                              "PullRequest": ("REPO#{repoName}", "PULL_REQUEST#{prNumber}"),
                              "Star": ("REPO#{repoName}", "STAR#{username}")}))
    design = _own(model)
    conditions = {p.pattern: p.key_condition for p in design.plans}
    assert conditions["get_repo_with_pullrequests"] == "PK = :pk AND SK BETWEEN :sk_from AND :sk_to"
    assert conditions["get_repo_with_stars"] == "PK = :pk AND SK BETWEEN :sk_from AND :sk_to"
    assert conditions["get_repo_with_issues"] == "PK = :pk"
    found = _extra(model, design)
    assert set(found) == {"get_repo_with_issues"} and "PullRequest, Star" in found["get_repo_with_issues"]
    # the estimate reads only what the BETWEEN matches: the repo and its ~4 pull requests, not the stars and issues
    reads = {p.pattern: p.items_read_per_request for p in design.plans}
    assert reads["get_repo_with_pullrequests"] < reads["get_repo_with_issues"]


def test_the_proposal_for_a_repository_with_several_child_collections_returns_exact_results() -> None:
    model = repo_model()
    designs = propose(model)
    assert designs and all(_extra(model, d) == {} for d in designs)


def _errors(model: Model, design: Design) -> set[tuple[str, str]]:
    return {(f.check_id, f.pattern or f.path) for f in check_design(model, design)
            if f.severity is FindingSeverity.ERROR}


@pytest.mark.parametrize("path", MODEL_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_first_proposal_of_every_example_and_expert_model_has_no_error_finding(path: Path) -> None:
    model = load_model_file(path)
    proposals = [d for d in propose(model) if d.name != YOUR_DESIGN]
    assert proposals, proposal_refusal(model)
    assert _errors(model, proposals[0]) == MODEL_ERRORS.get(path.stem, set())
    # DDS305 (index keys repeating the table's) no longer fires on the product's own proposals either
    assert not any(f.check_id == "DDS305" for d in proposals for f in check_design(model, d))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_models())
def test_every_offered_proposal_of_a_generated_model_has_no_error_finding(model: Model) -> None:
    designs = propose(model)
    assert designs or proposal_refusal(model) is not None
    for design in designs:
        assert _errors(model, design) == set(), design.name


def test_when_every_candidate_returns_wrong_results_nothing_is_proposed_and_callers_say_why(monkeypatch) -> None:
    model = books_model().model_copy(update={"name": "Books refused"})  # its own memo entry
    def always_wrong(model: Model, design: Design) -> list:
        return [finding("DDS206", "access_patterns[list_titles_by_isbn]", "returns the Book item too",
                        pattern="list_titles_by_isbn")]
    monkeypatch.setattr(proposal, "check_design", always_wrong)
    assert propose(model) == ()
    refusal = proposal_refusal(model)
    assert refusal is not None and refusal.findings[0][0] == "DDS206"
    assert "No design is proposed" in refusal.message and "returns the Book item too" in refusal.message
    with pytest.raises(NoSafeDesignError, match="No design is proposed"):
        chosen_design(propose(model), None, refusal)


def test_a_read_of_one_item_by_its_full_table_key_is_a_getitem_even_with_another_input() -> None:
    # the cause of DDS309 on the session-management proposal: `get_session_by_session_id` gives sessionId (the
    # table key) and customerId; the extra input made the table's GetItem score as a filtered read, so a GSI keyed
    # on customerId (not unique) won
    path = EXPERT_MODELS_DIR / "session_management" / "expert.yaml"
    model = load_model_file(path)
    proposal = next(d for d in propose(model) if d.name != YOUR_DESIGN)
    plan = proposal.plan("get_session_by_session_id")
    assert plan is not None and plan.operation is Operation.GET_ITEM and plan.index == "table"
    assert not any(f.check_id == "DDS309" for f in check_design(model, proposal))


def test_an_index_that_groups_an_entity_with_others_does_not_repeat_the_table() -> None:
    # Repo's GSI1 keys are its table keys, but on GSI1 its issues share its partition, which on the table they
    # do not: not DDS305. Keyed alone there, it is
    table = {"Repo": ("REPO#{repoName}", "REPO"), "Issue": ("ISSUE#{repoName}#{issueNumber}", "ISSUE"),
             "PullRequest": ("PR#{repoName}#{prNumber}", "PR"), "Star": ("STAR#{repoName}#{username}", "STAR")}
    grouped = repo_model(keyed(table, {"GSI1": {"Repo": ("REPO#{repoName}", "REPO"),
                                                "Issue": ("REPO#{repoName}", "ISSUE#{issueNumber}")}}))
    alone = repo_model(keyed(table, {"GSI1": {"Repo": ("REPO#{repoName}", "REPO")}}))
    assert not [f for f in check_design(grouped, _own(grouped)) if f.check_id == "DDS305"]
    assert [f.path for f in check_design(alone, _own(alone)) if f.check_id == "DDS305"] == [
        "key_design.entities[Repo].indexes[GSI1]"]
