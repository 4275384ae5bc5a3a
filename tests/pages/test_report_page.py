"""The Report page with AppTest: it previews the report of the open model and offers the three downloads."""

from __future__ import annotations

import copy
import hashlib
from decimal import Decimal
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from costs.estimate import EstimateRequest
from costs.pricing import PriceItem
from modeling.examples import example_document
from modeling.model import Model, TableClass
from modeling.model_file import FileFormat, dump_document
from modeling.workspace.folder import Workspace
from studio.estimate import estimate_model
from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    st.cache_data.clear()


def _report_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.switch_page("pages/report.py").run()
    assert not at.exception, at.exception
    return _build(at)


def _build(at: AppTest) -> AppTest:
    """Building the report is an explicit action (issue 14, speed): nothing is built before the click."""
    assert not [s for s in at.subheader if s.value == "Sign-off"], "a report was shown before it was built"
    at.button(key="report.build").click().run()
    assert not at.exception, at.exception
    return at


def _monthly_cost(document: dict, **choices: object) -> Decimal:
    best = estimate_model(EstimateRequest(Model.model_validate(document), **choices)).cost.recommendation
    assert best is not None
    return best.monthly_cost_usd


def _open_document(workspace_dir: Path) -> dict:
    space = Workspace(workspace_dir)
    return space.load(space.most_recent())


def _markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_report_page_previews_the_open_models_report_with_its_hash(workspace_dir: Path) -> None:
    at = _report_page()
    assert at.title[0].value == "Cost-review report · Student platform"
    document = _open_document(workspace_dir)
    digest = hashlib.sha256(dump_document(document, FileFormat.YAML).encode("utf-8")).hexdigest()
    text = _markdown(at)
    assert digest in text  # the hash of the YAML the Model page (and this page) downloads
    best = estimate_model(EstimateRequest(Model.model_validate(document))).cost.recommendation
    assert best is not None and best.reason.replace("$", "\\$") in text
    assert [s.value for s in at.subheader][-1] == "Sign-off"
    labels = {at.get("download_button")[i].proto.label for i in range(3)}
    assert labels == {"Download the report (HTML)", "Download the report (Markdown)",
                      "Download the model file it refers to (YAML)"}


def test_changing_the_region_reprices_the_report(workspace_dir: Path) -> None:
    at = _report_page()
    at.selectbox(key=scoped(at, "report.region")).select("eu-west-1").run()
    assert not at.exception, at.exception
    # the report built for us-east-1 is not shown for eu-west-1: the page says it is out of date
    assert "us-east-1 (prices effective" not in _markdown(at)
    assert any("changed since the report was built" in i.value for i in at.info)
    at.button(key="report.build").click().run()
    assert not at.exception, at.exception
    model = Model.model_validate(_open_document(workspace_dir))
    best = estimate_model(EstimateRequest(model, region="eu-west-1")).cost.recommendation
    text = _markdown(at)
    assert "eu\\-west\\-1" not in text and "eu-west-1 (prices effective" in text
    assert best is not None and f"**Monthly cost (USD)**: {best.monthly_cost_usd:,f}" in text


def test_a_model_with_errors_gets_its_problems_instead_of_a_report(workspace_dir: Path) -> None:
    document = example_document("student_platform")
    document["table"]["region"] = "mars-1"
    Workspace(workspace_dir).create(document)
    at = AppTest.from_file(str(ROOT / "pages" / "report.py"), default_timeout=90).run()
    assert not at.exception, at.exception
    assert "the report cannot be made" in at.error[0].value
    assert any("table.region" in e.value for e in at.error[1:])
    assert not at.get("download_button")


def test_negotiated_prices_from_capacity_and_cost_are_used(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "report.py"), default_timeout=90)
    # stored as the Capacity & cost page stores it
    at.session_state["cost.overrides"] = [("reserved_3y_rcu_upfront", "STANDARD", "1.0")]
    _build(at.run())
    model = Model.model_validate(_open_document(workspace_dir))
    override = ((PriceItem.RESERVED_3Y_RCU_UPFRONT, TableClass.STANDARD, Decimal("1.0")),)
    best = estimate_model(EstimateRequest(model, price_overrides=override)).cost.recommendation
    plain = estimate_model(EstimateRequest(model)).cost.recommendation
    assert best is not None and plain is not None and best.monthly_cost_usd != plain.monthly_cost_usd
    text = _markdown(at)
    assert f"**Monthly cost (USD)**: {best.monthly_cost_usd:,f}" in text
    assert "reserved\\_3y\\_rcu\\_upfront STANDARD = 1.0 USD" in text


def test_a_region_without_a_price_sheet_is_said_on_the_report_page(workspace_dir: Path) -> None:
    # af-south-1 ships no sheet (issue 13, item 4): the page and the report say so; nothing is priced as $0
    document = example_document("student_platform")
    document["table"]["region"] = "af-south-1"
    Workspace(workspace_dir).create(document)
    at = _build(AppTest.from_file(str(ROOT / "pages" / "report.py"), default_timeout=90).run())
    assert any("No price sheet ships for af-south-1" in w.value for w in at.warning)
    assert "No price sheet ships for af\\-south\\-1" in _markdown(at) or "No price sheet ships for af-south-1" in \
        _markdown(at)


def test_an_edit_after_a_built_report_is_never_shown_with_the_old_numbers(workspace_dir: Path) -> None:
    # A report kept for its inputs must not survive an edit of the model (another tab saves it here):
    # doubling every pattern's traffic moves the recommended monthly cost, so a key without the model's
    # content would show the old figure.
    at = _report_page()
    space = Workspace(workspace_dir)
    slug = space.most_recent()
    before = space.load(slug)
    old_cost = _monthly_cost(before)
    assert f"**Monthly cost (USD)**: {old_cost:,f}" in _markdown(at)

    edited = copy.deepcopy(before)
    for pattern in edited["access_patterns"]:
        for field in ("peak_requests_per_second", "average_requests_per_second"):
            pattern["traffic"][field] *= 2
    space.save(slug, edited, expected_version=space.version(slug))
    new_cost = _monthly_cost(edited)
    assert new_cost != old_cost
    at.run()
    assert not at.exception, at.exception
    assert f"{old_cost:,f}" not in _markdown(at)
    assert any("changed since the report was built" in i.value for i in at.info)
    at.button(key="report.build").click().run()
    assert f"**Monthly cost (USD)**: {new_cost:,f}" in _markdown(at)

    # a setting changed and changed back shows the report built for it at once, without a click
    at.slider(key=scoped(at, "report.target")).set_value(0.5).run()
    assert not [s for s in at.subheader if s.value == "Sign-off"]
    at.slider(key=scoped(at, "report.target")).set_value(0.7).run()
    assert f"**Monthly cost (USD)**: {new_cost:,f}" in _markdown(at)
