"""Issue 30.6: a model whose table is beyond what the cost engine sizes (10^15 items of a 4,000-byte attribute is
~4 EB, above its 10^18-byte limit) passes validation; every page that shows a design crashed on it in the design
search (`storage is out of range`, a traceback). Each now refuses it as the estimate does, saying what to lower."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from modeling.limits import MAX_ITEM_COUNT
from modeling.workspace.folder import Workspace
from tests.markdown_checks import unescape

ROOT = Path(__file__).resolve().parents[2]
DESIGN_PAGES = ["hot_partitions.py", "capacity_and_cost.py", "preview.py", "report.py", "changes.py", "layout.py"]


def _exabyte_model() -> dict:
    document = yaml.safe_load((ROOT / "modeling" / "examples" / "chat_messages.yaml").read_text(encoding="utf-8"))
    room = document["entities"][0]
    room["item_count"] = MAX_ITEM_COUNT  # allowed: 10^15 items
    room["attributes"].append({"name": "blob", "type": "S", "avg_size_bytes": 4000, "max_size_bytes": 4000,
                               "generator": {"kind": "text", "length_bytes": 4000}})
    return document


@pytest.mark.parametrize("page", DESIGN_PAGES)
def test_a_table_too_big_to_size_is_refused_with_what_to_lower(page: str, workspace_dir: Path) -> None:
    slug = Workspace(workspace_dir).create(_exabyte_model())
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["model"] = slug
    at.run()
    at.switch_page(f"pages/{page}").run()
    assert not at.exception, at.exception
    refusals = [unescape(e.value) for e in at.error if "cannot be sized" in e.value]
    assert refusals, [e.value for e in at.error]
    assert "storage is out of range" in refusals[0] and "lower the entities' item_count" in refusals[0]
