"""A read through a uniqueness item runs on the moto server and passes the Preview's oracle (issue 28.3).

The proposal for the AWS blog's User table (tests/fixtures/uniqueness-reads/users.yaml) and for the built-in
e-commerce example reads a user (a customer) by email with two GetItems: the uniqueness item, which carries the
owner's key, then the owner's item. Every pattern of the proposal, writes included, is run and checked.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

from modeling.endpoint.adapter import Endpoint
from modeling.examples import load_example
from modeling.model import Model
from modeling.model_file import load_model_file
from modeling.preview.dataset import from_dynamodb_json, to_dynamodb_json
from modeling.preview.session import cleanup_preview, load_preview, preview_setup
from studio.design import propose
from studio.preview import PreviewReport, PreviewRun, run_preview
from tests.fixture_files import FIXTURES_DIR

USERS = load_model_file(FIXTURES_DIR / "uniqueness-reads" / "users.yaml")
_tables = itertools.count()


def _run(endpoint: Endpoint, model: Model, check: Any = None) -> PreviewReport:
    design = propose(model)[0]
    setup = preview_setup(model, design, endpoint, f"through{next(_tables)}", "through", 200, 7)
    try:
        data, _ = load_preview(setup)
        report = run_preview(PreviewRun(setup, data))
        if check is not None:
            check(setup, data)
        return report
    finally:
        cleanup_preview(setup)


def _through_run(report: PreviewReport, pattern: str) -> Any:
    return next(r.run for r in report.results if r.run.pattern == pattern)


def test_users_read_by_email_through_the_uniqueness_item_pass_the_oracle(endpoint: Endpoint, client: Any) -> None:
    def uniqueness_item_holds_the_users_key(setup: Any, data: Any) -> None:
        user = data.of("User")[0].attributes
        key = {"PK": f"EMAIL#{user['email']}", "SK": f"EMAIL#{user['email']}"}
        found = client.get_item(TableName=setup.table.name, Key=to_dynamodb_json(key)).get("Item")
        assert found is not None and from_dynamodb_json(found)["userId"] == user["userId"]

    report = _run(endpoint, USERS, uniqueness_item_holds_the_users_key)
    assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]
    run = _through_run(report, "get_user_by_email")
    assert run.passed and run.returned_count == 1
    assert run.first_request is not None and run.first_request.params["Key"]["PK"].startswith("EMAIL#")
    assert len(run.read_pages) == 2  # two GetItems: the uniqueness item, then the user
    assert set(run.request.inputs[0]) == {"email"}  # what the page's "your own values" form is filled with
    # each GetItem of an item under 4 KB, eventually consistent: 0.5 RRU, so 1 RRU measured (dynamodb-rules §1.2)
    capacity = next(r.capacity for r in report.results if r.run.pattern == "get_user_by_email")
    assert capacity.measured.read_units == Decimal("1.0") == capacity.estimated.read_units


def test_the_ecommerce_examples_customer_by_email_passes_the_oracle(endpoint: Endpoint) -> None:
    model = load_example("ecommerce_orders")
    report = _run(endpoint, model)
    run = _through_run(report, "get_customer_by_email")
    assert run.first_request is not None and run.passed, run.verdict
    assert report.failed == (), [r.run.verdict for r in report.results if not r.run.passed]
