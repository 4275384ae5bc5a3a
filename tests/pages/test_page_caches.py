"""Issue 14 (speed): pages answer reruns from caches keyed by their inputs, so an edit after a cached render
must show the new numbers. Each test renders a page (filling its caches), edits the model as another tab
would (a save to the workspace), reruns the same session and checks the figures moved as the edit says.
A cache key without the model's content (or one choice) would show the old figures and fail here.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from modeling.examples import example_document
from modeling.memo import clear_domain_caches
from modeling.workspace.folder import Workspace
from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    st.cache_data.clear()
    clear_domain_caches()


def _page(name: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=180).run()
    assert not at.exception, at.exception
    return at


def _edit(workspace_dir: Path, change: Any) -> None:
    """Save an edited copy of the open model, as another tab or person would."""
    space = Workspace(workspace_dir)
    slug = space.most_recent()
    assert slug is not None
    document = copy.deepcopy(space.load(slug))
    change(document)
    space.save(slug, document, expected_version=space.version(slug))


def _scale_traffic(factor: float) -> Any:
    def change(document: dict[str, Any]) -> None:
        for pattern in document["access_patterns"]:
            for field in ("peak_requests_per_second", "average_requests_per_second"):
                pattern["traffic"][field] *= factor
    return change


def _top_keys(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "Rank" in d.value.columns)


def test_hot_partitions_show_the_new_load_after_an_edit(workspace_dir: Path) -> None:
    # One tenant, no burst: every key's load is the patterns' peak traffic spread by the same key
    # distribution, so doubling every pattern's traffic doubles the busiest key's units (same seed, same keys).
    Workspace(workspace_dir).create(example_document("student_platform"))
    at = _page("hot_partitions.py")
    before = _top_keys(at).iloc[0]
    _edit(workspace_dir, _scale_traffic(2))
    at.run()
    assert not at.exception, at.exception
    after = _top_keys(at).iloc[0]
    assert after["Partition-key value"] == before["Partition-key value"]
    for column in ("Reads (RCU/s at peak)", "Writes (WCU/s at peak)"):
        assert after[column] == pytest.approx(2 * before[column], rel=0.01), column


def test_hot_partitions_what_if_follows_its_slider_and_comes_back(workspace_dir: Path) -> None:
    Workspace(workspace_dir).create(example_document("student_platform"))
    at = _page("hot_partitions.py")
    first = _top_keys(at).copy()
    at.slider(key=scoped(at, "hot.shards")).set_value(4).run()
    assert not at.exception, at.exception
    at.slider(key=scoped(at, "hot.shards")).set_value(1).run()
    pd.testing.assert_frame_equal(_top_keys(at), first)  # a cached answer for the same inputs is the same


def _recommended_usd(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label == "Recommended, USD/month")


def test_capacity_and_cost_show_the_new_cost_after_an_edit(workspace_dir: Path) -> None:
    # Ten times the traffic costs more every month whatever the option: a key without the model's
    # content would show the old total.
    Workspace(workspace_dir).create(example_document("student_platform"))
    at = _page("capacity_and_cost.py")
    before = _recommended_usd(at)
    at.slider(key=scoped(at, "cost.target")).set_value(0.5).run()  # a choice change first: another cache entry
    _edit(workspace_dir, _scale_traffic(10))
    at.run()
    assert not at.exception, at.exception
    after = _recommended_usd(at)
    assert after != before
    at.slider(key=scoped(at, "cost.target")).set_value(0.7).run()  # back to the first choices: the edited model's cost
    assert _recommended_usd(at) not in (before,)

    def usd(text: str) -> float:
        return float(text.split("$")[1].split()[0].replace(",", ""))
    assert usd(_recommended_usd(at)) > usd(before)
