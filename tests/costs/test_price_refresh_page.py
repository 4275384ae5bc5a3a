"""The Capacity & cost page's price-source line: the sheet's source and date; "Refresh prices" when AWS
credentials are present (the Price List client stubbed at its library boundary, botocore's Stubber);
otherwise one line on how to refresh from the command line or with an offer file."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import boto3
import pytest
import streamlit as st
from botocore.stub import Stubber
from streamlit.testing.v1 import AppTest

from costs import price_refresh
from tests.cli_runner import ROOT
from tests.pages.model_page import page_through_app

PAGES = json.loads((ROOT / "tests/fixtures/price_list/get-products-us-east-1.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def fresh_caches() -> None:
    st.cache_data.clear()  # whether credentials are present is cached for five minutes


def cost_page() -> AppTest:
    return page_through_app("capacity_and_cost", timeout_seconds=180)


def captions(at: AppTest) -> list[str]:
    return [caption.value for caption in at.caption]


def test_refresh_prices_reads_the_price_list_and_the_page_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    client = boto3.client("pricing", region_name="us-east-1")
    stubber = Stubber(client)
    stubber.add_response("get_products", PAGES[0])
    stubber.add_response("get_products", PAGES[1])
    monkeypatch.setattr(price_refresh, "pricing_client", lambda: client)
    at = cost_page()  # the example model is priced in us-east-1, with the dummy test credentials
    assert ("Prices for us-east-1: the price sheet shipped with the product (effective 2024-11-01, retrieved "
            "2026-11-30).") in captions(at)
    with stubber:
        at.button(key="cost.refresh_prices").click().run()
    assert not at.exception, at.exception
    today = datetime.now(UTC).date().isoformat()
    assert f"Prices for us-east-1: from the AWS Price List, retrieved {today} (effective 2024-11-01)." in captions(at)
    assert at.success[0].value.startswith("us-east-1: 19 usage types priced from the AWS Price List")


def test_without_credentials_the_page_says_how_to_refresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for variable in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    at = cost_page()
    assert not [b for b in at.button if b.key == "cost.refresh_prices"]
    assert any(c.startswith("To refresh them: run `dds prices refresh --region us-east-1` with AWS credentials")
               and "--offer-file index.json" in c for c in captions(at))


def test_in_a_workshop_attendees_see_the_source_but_cannot_refresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_WORKSHOP", "1")  # the sheets are the installation's, shared by the room
    at = cost_page()
    assert any(c.startswith("Prices for us-east-1: the price sheet shipped with the product") for c in captions(at))
    assert not [b for b in at.button if b.key == "cost.refresh_prices"]
    assert not [c for c in captions(at) if c.startswith("To refresh them")]
