"""Uploads are capped at the model file limit: by Streamlit's own limit, and by the page before reading."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from modeling.model_file import MAX_FILE_BYTES
from modeling.workspace.folder import Workspace

ROOT = Path(__file__).resolve().parents[2]


def test_streamlits_upload_limit_is_the_model_file_limit() -> None:
    """Streamlit's default is 200 MB (read into memory); its setting is in MB of 1024 * 1024 bytes."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] * 1024 * 1024 == MAX_FILE_BYTES == 5 * 1024 * 1024


@pytest.mark.parametrize("uploader", ["model.upload", "model.nwb_upload"])
def test_an_oversized_upload_is_refused_before_it_is_parsed(
        uploader: str, workspace_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def parsed(*_: object) -> None:
        raise AssertionError("an oversized upload was read and parsed")

    monkeypatch.setattr("ui.file_tab.parse_document", parsed)
    monkeypatch.setattr("ui.file_tab.read_workbench", parsed)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("pages/model.py").run()
    before = [d.name for d in Workspace(workspace_dir).drafts()]
    big = b"{" + b" " * MAX_FILE_BYTES + b"}"  # one byte over, after the braces: 5 MiB + 1
    at.file_uploader(key=uploader).set_value(("big.json", big, "application/json")).run()
    assert not at.exception, at.exception
    messages = " ".join(e.value for e in at.error)
    assert "larger than 5 MB" in messages and f"{MAX_FILE_BYTES + 2:,} bytes" in messages
    assert [d.name for d in Workspace(workspace_dir).drafts()] == before  # nothing opened, nothing lost
