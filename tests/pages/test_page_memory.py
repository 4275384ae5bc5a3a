"""Issue 30, item 2: ten hostile share links in a row on the Capacity & cost page keep the process's memory
bounded, and a normal model still renders afterwards with the same figures.

Before the fix each link (ten 409,000-byte text attributes, ~300 characters) pinned ~0.78 GB: this test would
need ~7.8 GB. Memory is read as the process's resident set (VmRSS) after each link, the growth over a warm-up
render of an example (which pays for the imports and Streamlit's own start). The ceiling, 400 MB, is ~half of
what one link took before and several times what ten take now (each keeps its one copy of the texts, ~4 MB, in
the sample-draw cache: `modeling.design.sizing`), which leaves room for the allocator and a busy machine.
"""

from __future__ import annotations

import gc
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

from modeling.examples import example_document
from modeling.memo import clear_domain_caches
from modeling.workspace.folder import Workspace
from tests.modeling.test_sample_memory import hostile_document
from workshop.sharing import encode_share

ROOT = Path(__file__).resolve().parents[2]
LINKS = 10
GROWTH_CEILING_BYTES = 400 * 1024**2


def _resident_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024  # reported in kB


def _capacity_page(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "capacity_and_cost.py"), default_timeout=180)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def _recommended(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label == "Recommended, USD/month")


def test_ten_hostile_links_keep_memory_bounded_and_a_normal_model_still_renders(workspace_dir: Path) -> None:
    st.cache_data.clear()
    clear_domain_caches()
    Workspace(workspace_dir).create(example_document("student_platform"))
    before = _recommended(_capacity_page())
    gc.collect()
    baseline = _resident_bytes()
    growth = []
    for variant in range(LINKS):
        document = hostile_document()
        document["name"] = f"Hostile {variant}"
        document["entities"][0]["item_count"] += variant  # a variant: another model, another draw
        token = encode_share(document)
        assert token is not None and len(token) <= 512
        at = _capacity_page(share=token)
        assert _recommended(at).startswith("$")  # it was priced
        gc.collect()
        growth.append(_resident_bytes() - baseline)
        assert growth[-1] < GROWTH_CEILING_BYTES, [f"{g / 1024**2:.0f} MB" for g in growth]  # stop at the first
    Workspace(workspace_dir).create(example_document("student_platform"))
    at = _capacity_page()
    assert "Student platform" in at.title[0].value and _recommended(at) == before
