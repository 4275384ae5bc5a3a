"""The Changes page with AppTest: from a deep link on a fresh server and through the router, OLD (the open
model) against another design or a saved workspace model, with the changes, the plan and the downloads."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from modeling.model_file import load_model_file, model_to_document
from modeling.workspace.folder import Workspace
from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    st.cache_data.clear()


def _text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_a_deep_link_compares_two_designs_of_the_open_model(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "changes.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Changes · Student platform"
    assert at.radio[0].value == "another design of this model"
    assert at.selectbox[0].value != at.selectbox[1].value  # OLD and NEW designs differ by default
    assert [m.label for m in at.metric][:2] == ["Live table needs", "Changes"]
    assert int(at.metric[1].value) > 0
    labels = {b.proto.label for b in at.get("download_button")}
    assert labels == {"Download the plan (Markdown)", "Download the plan (JSON)",
                      "Download the migration script (Python)"}


def test_a_saved_model_with_a_new_index_plans_a_backfill(workspace_dir: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    new = load_model_file(ROOT / "docs" / "examples" / "student_platform_school_year.yaml")
    Workspace(workspace_dir).create(model_to_document(new))
    at.switch_page("pages/changes.py").run()
    assert not at.exception, at.exception
    at.radio[0].set_value("a saved model of the workspace").run()
    assert not at.exception, at.exception
    assert at.metric[0].value == "backfill"
    assert any("Student.schoolYear" in w.value for w in at.warning)  # old students lack it: asks for a value
    at.text_input(key=scoped(at, "changes.fills")).set_value("Student.schoolYear=2026").run()
    assert not any("Student.schoolYear" in w.value for w in at.warning)
    changes = at.dataframe[0].value
    assert "key_design.entities[Student].indexes[GSI5]" in list(changes["path"])
    steps = at.dataframe[1].value
    assert list(steps["step"]) == ["Deploy writers of the NEW form", "Apply key_design.global_secondary_indexes[GSI5]",
                                   "Backfill existing items", "Switch reads and clean up"]
    # 2,400,000 Students x (1 UpdateItem + 1 GSI5 entry), both under 1 KB = 4.8 M WRU x $0.625 / M (us-east-1,
    # dynamodb-rules §9.2) = $3.00, plus the Scan of the whole table (docs/migrations.md: 0.481376 M RRU x $0.125
    # = $0.06), plus the read-back of every migrated Student before each checkpoint (issue 30.5: one strongly
    # consistent read of an item under 4 KB each, 2.4 M RRU x $0.125 / M = $0.30) = $3.36 (the proposal's
    # design has GSI1-GSI4 since issue 28.1, so the new index is GSI5)
    assert at.metric[2].value == "$3.36"
