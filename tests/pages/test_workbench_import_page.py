"""The Model page's NoSQL Workbench import and download, through AppTest with a real fixture file."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from modeling.workspace.folder import Workspace
from tests.fixture_files import workbench_file
from tests.pages.model_page import model_page, scoped

ROOT = Path(__file__).resolve().parents[2]


def _model_page() -> AppTest:
    return model_page()


def test_importing_a_two_table_file_opens_the_chosen_table_as_a_new_model(workspace_dir: Path) -> None:
    at = _model_page()
    data = workbench_file("BankModel.json").read_bytes()
    at.file_uploader(key="model.nwb_upload").set_value(("BankModel.json", data, "application/json")).run()
    assert at.selectbox(key="model.nwb_table").options == ["PaymentScheduler", "TransactionHistory"]
    at.selectbox(key="model.nwb_table").select("TransactionHistory").run()
    at.button(key="model.nwb_import").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Model · Bank · TransactionHistory"
    space = Workspace(workspace_dir)
    opened = space.load(space.most_recent())
    assert opened["table"]["name"] == "TransactionHistory"
    assert [i["name"] for i in opened["key_design"]["global_secondary_indexes"]] == ["QueryAll_byTime",
                                                                                   "Query_TransactionID"]
    shown = " ".join(m.value for m in at.markdown)
    assert "Imported table TransactionHistory" in " ".join(s.value for s in at.success)
    assert "no access patterns" in shown and "Sharded" in shown  # what was inferred is listed


def test_a_file_that_is_not_a_workbench_model_is_explained_and_nothing_opens(workspace_dir: Path) -> None:
    at = _model_page()
    before = sorted(d.slug for d in Workspace(workspace_dir).drafts())
    bad = json.dumps({"ModelName": "x", "DataModel": [{"TableName": "t"}]}).encode()
    at.file_uploader(key="model.nwb_upload").set_value(("broken.json", bad, "application/json")).run()
    assert not at.exception, at.exception
    assert any("PartitionKey" in e.value for e in at.error)
    assert sorted(d.slug for d in Workspace(workspace_dir).drafts()) == before


def test_the_open_model_can_be_downloaded_as_a_workbench_file(workspace_dir: Path) -> None:
    at = _model_page()
    assert at.download_button(key="model.nwb_download").label == "Download NoSQL Workbench JSON"
    at.number_input(key=scoped(at, "nwb_items")).set_value(2).run()
    assert not at.exception, at.exception


def test_opening_an_example_from_the_file_tab_keeps_it_open(workspace_dir: Path) -> None:
    # Regression: the sidebar's model selectbox kept its old choice and switched straight back.
    at = _model_page()
    at.selectbox(key="model.example_choice").select("chat_messages").run()
    at.button(key="model.open_example").click().run()
    assert at.title[0].value == "Model · Chat messages"


def test_the_model_page_builds_the_workbench_file_only_when_it_is_downloaded(workspace_dir: Path) -> None:
    """The file is keyed by the search's first design: built on every Model page run, it ran the design search on
    every edit (seconds on a large model); it is built when the button is clicked."""
    from studio import interop

    interop._DOWNLOADS.clear()
    at = _model_page()
    at.number_input(key=scoped(at, "nwb_items")).set_value(2).run()
    assert not at.exception, at.exception
    assert len(interop._DOWNLOADS) == 0
    assert any("Built when you click" in c.value for c in at.caption)
