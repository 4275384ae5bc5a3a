"""The design check DDS206 agrees with the Preview's oracle on the moto server (issue 28.4).

A design DDS206 flags returns items the pattern does not ask for when its requests really run; the same model
keyed so that DDS206 is silent passes. Proposals for a few generated parent/children models pass the oracle for
every read pattern.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings

from costs.design_ranking import propose
from modeling.design.checks import check_design
from modeling.design.generator import explicit_design
from modeling.design.plans import Design
from modeling.endpoint.adapter import Endpoint
from modeling.model import Model
from modeling.preview.session import cleanup_preview, load_preview, preview_setup
from studio.preview import PreviewReport, PreviewRun, run_preview
from tests.modeling.exact_models import books_model, keyed, orders_model, repo_model, small_models, titles_model
from tests.modeling.plain_key_models import sensors_model

_tables = itertools.count()
ITEMS = 240  # enough for several children per parent, small enough to load in a second or two


def _run(endpoint: Endpoint, model: Model, design: Design, leaks: dict[str, str] | None = None) -> PreviewReport:
    """Every pattern run once; a pattern in `leaks` asks about the partition of the first item of that entity
    (one that holds an item the pattern does not ask for: a random pick may find a partition without one)."""
    setup = preview_setup(model, design, endpoint, f"exact{next(_tables)}", "exact", ITEMS, 7)
    try:
        data, _ = load_preview(setup)
        inputs = {}
        for name, entity in (leaks or {}).items():
            pattern = model.access_pattern(name)
            assert pattern is not None
            item = data.of(entity)[0]
            inputs[name] = [{n: item.attributes[n] for n in pattern.inputs}]
        return run_preview(PreviewRun(setup, data, inputs=inputs))
    finally:
        cleanup_preview(setup)


def _flagged(model: Model, design: Design) -> set[str]:
    return {f.pattern or "" for f in check_design(model, design) if f.check_id == "DDS206"}


def _unexpected(report: PreviewReport, pattern: str) -> int:
    return next(r.run.comparison.unexpected_count for r in report.results if r.run.pattern == pattern
                if r.run.comparison is not None)


def test_what_dds206_flags_is_what_the_oracle_fails(endpoint: Endpoint) -> None:
    cases = [
        books_model(keyed({"Book": ("ISBN#{isbn}", "{publisher}"), "Title": ("ISBN#{isbn}", "TITLE#{language}")})),
        orders_model(keyed({"Customer": ("CUSTOMER#{customerId}", "CUSTOMER"),
                            "Order": ("CUSTOMER#{customerId}", "ORDER#{orderId}"),
                            "OrderItem": ("CUSTOMER#{customerId}", "ORDER#ITEM#{orderId}#{itemId}")},
                           {"GSI1": {"OrderItem": ("ORDER#{orderId}", "ITEM#{itemId}")}})),
        repo_model(keyed({"Repo": ("REPO#{repoName}", "REPO"), "Issue": ("REPO#{repoName}", "ISSUE#{issueNumber}"),
                          "PullRequest": ("REPO#{repoName}", "PULL_REQUEST#{prNumber}"),
                          "Star": ("REPO#{repoName}", "STAR#{username}")})),
        # GSIs keyed by plain attributes: every OrderItem carries customerId and orderId, so GSI2 holds it too
        orders_model(keyed({"Customer": ("CUSTOMER#{customerId}", "CUSTOMER"), "Order": ("ORDER#{orderId}", "ORDER"),
                            "OrderItem": ("ORDER#{orderId}#ITEM#{itemId}", "ORDER_ITEM")},
                           {"GSI1": {"OrderItem": ("{orderId}", "{itemId}")},
                            "GSI2": {"Order": ("{customerId}", "{orderId}")}},
                           {"GSI1": ("orderId", "itemId"), "GSI2": ("customerId", "orderId")})),
    ]
    leaks = [{"get_book_detail_by_isbn": "Title"}, {"list_orders_by_customer": "OrderItem"},
             {"get_repo_with_issues": "PullRequest"}, {"list_orders_by_customer": "OrderItem"}]
    for model, leak in zip(cases, leaks, strict=True):
        flags = set(leak)
        design = explicit_design(model)
        assert design is not None
        assert _flagged(model, design) == flags
        report = _run(endpoint, model, design, leak)
        reads = {r.run.pattern for r in report.results}
        assert set(report.failed) == flags, [r.run.verdict for r in report.results]
        for pattern in flags:
            assert _unexpected(report, pattern) > 0  # it failed by returning other entities' items
        # every other read, BETWEEN of the repository with its pull requests or stars among them, passed
        assert reads - flags and not (reads - flags) & set(report.failed)


def test_the_own_entitys_items_dds206_flags_are_what_the_oracle_fails(endpoint: Endpoint) -> None:
    # issue 28.4, the pattern's own entity: begins_with(SK, "TITLE#en") for TITLE#{language}{edition} also returns
    # the book's en-GB titles. The request asks about a book that has titles in both (the oracle wants only `en`)
    pattern = "list_titles_by_isbn_and_language"
    for sort_key, flagged in (("TITLE#{language}{edition}", True), ("TITLE#{language}#{edition}", False)):
        model = titles_model(sort_key)
        design = explicit_design(model)
        assert design is not None
        assert (pattern in _flagged(model, design)) is flagged, sort_key
        setup = preview_setup(model, design, endpoint, f"exact{next(_tables)}", "exact", ITEMS, 7)
        try:
            data, _ = load_preview(setup)
            titles = data.of("Title")
            both = {t.attributes["isbn"] for t in titles if t.attributes["language"] == "en-GB"}
            asked = next(t for t in titles if t.attributes["language"] == "en" and t.attributes["isbn"] in both)
            inputs = {pattern: [{"isbn": asked.attributes["isbn"], "language": "en"}]}
            run = run_preview(PreviewRun(setup, data, (pattern,), inputs=inputs)).results[0].run
        finally:
            cleanup_preview(setup)
        assert run.comparison is not None
        assert run.passed is not flagged, run.verdict
        # what it returned beyond the answer is the same entity's: titles of that book in en-GB
        assert all(item["language"] == "en-GB" for item in run.comparison.unexpected)
        assert (run.comparison.unexpected_count > 0) is flagged


def test_the_proposals_for_the_small_models_pass_the_oracle(endpoint: Endpoint) -> None:
    for model in (books_model(), orders_model(), repo_model()):
        design = propose(model)[0]
        report = _run(endpoint, model, design)
        assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_models())
def test_a_generated_models_proposal_passes_the_oracle_for_every_read(endpoint: Endpoint, model: Model) -> None:
    design = propose(model)[0]
    report = _run(endpoint, model, design)
    assert len(report.results) == len(model.access_patterns)
    assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]


def test_plain_value_keys_sharing_a_partition_pass_the_oracle(endpoint: Endpoint) -> None:
    # issue 28.3: the sensor's partition holds its SENSOR item and its readings keyed by `{at}` alone; the newest
    # readings are read BETWEEN "0" and "9\uffff", so the SENSOR item (above the digits) never comes back. Every
    # sensor's partition holds its sensor item, so the first reading's partition is one that could leak.
    for model in (sensors_model(), sensors_model(alarms=True)):
        design = propose(model)[0]
        assert {k.table.sort_key for k in design.key_design.entities} >= {"{at}", "SENSOR"}
        report = _run(endpoint, model, design, {"list_latest_readings": "Reading"})
        assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]
        assert _unexpected(report, "list_latest_readings") == 0
