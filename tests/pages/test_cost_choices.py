"""Issue #14.7: the cost choices follow the user: kept per model when the page is left, used by the Report,
and carried in the URL so a refresh or a link keeps them."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    return at


def test_choices_survive_leaving_the_page_and_reach_the_report(workspace_dir: Path) -> None:
    at = _app()
    at.switch_page("pages/capacity_and_cost.py").run()
    at.selectbox(key=scoped(at, "cost.region")).select("eu-west-1").run()
    at.slider(key=scoped(at, "cost.target")).set_value(0.5).run()
    at.toggle(key=scoped(at, "cost.free_tier")).set_value(True).run()
    assert at.query_params["region"] == "eu-west-1" and at.query_params["target"] == "0.5"

    at.switch_page("pages/model.py").run()
    at.switch_page("pages/report.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key=scoped(at, "report.region")).value == "eu-west-1"
    assert at.slider(key=scoped(at, "report.target")).value == 0.5
    assert at.toggle(key=scoped(at, "report.free_tier")).value is True

    at.switch_page("pages/capacity_and_cost.py").run()
    assert at.selectbox(key=scoped(at, "cost.region")).value == "eu-west-1"  # back on the page: still the user's choice
    assert at.slider(key=scoped(at, "cost.target")).value == 0.5


def test_a_link_with_choices_opens_with_them(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["region"] = "ap-northeast-1"
    at.query_params["target"] = "0.6"
    at.query_params["free"] = "1"
    at.run()
    at.switch_page("pages/capacity_and_cost.py").run()
    assert at.selectbox(key=scoped(at, "cost.region")).value == "ap-northeast-1"
    assert at.slider(key=scoped(at, "cost.target")).value == 0.6
    assert at.toggle(key=scoped(at, "cost.free_tier")).value is True
