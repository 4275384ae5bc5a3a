"""No user text reaches a page as live Markdown (issue 15, finding 4), field by field, with Markdown, HTML and
link payloads: the model name on every page, invalid entity, attribute and pattern names in the problems,
a share link's errors and an upload's file name.

AppTest gives each element's Markdown source; `tests.markdown_checks` decides what a renderer would show
(the payload, character for character) and whether anything in the source is live (a link, an image, HTML,
a code span, an icon or maths). The real rendering is checked in tests/e2e/test_markdown_browser.py.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from modeling.examples import example_document
from modeling.workspace.folder import Workspace
from tests.markdown_checks import PAYLOADS, live_markdown, unescape
from workshop.sharing import encode_share

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("start.py", "model.py", "layout.py", "preview.py", "hot_partitions.py", "capacity_and_cost.py",
         "report.py", "import_and_export.py", "changes.py")
# pages whose tabs run only when open (ui.tabs): each tab is opened in turn, so hidden tabs are checked too
LAZY_TABS = {"capacity_and_cost.py": ("cost.tab", ("Access patterns", "Table & indexes", "Auto scaling", "Break-even",
                                                   "Designs", "Assumptions & prices")),
             "import_and_export.py": ("ie.tab", ("Load test",))}
MARKDOWN_ELEMENTS = ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info",
                     "success", "toast")


def _sources(at: AppTest) -> list[str]:
    """Every Markdown source on the page: text elements, alerts, and the labels and options of widgets."""
    sources = [e.value for kind in MARKDOWN_ELEMENTS for e in at.get(kind)]
    for kind in ("radio", "checkbox", "toggle", "text_input", "text_area", "number_input", "selectbox", "button"):
        for widget in at.get(kind):
            sources.append(widget.label)
            if kind == "radio":
                sources += [str(o) for o in widget.options]
    return sources


def _assert_literal(at: AppTest, payload: str, where: str, must_show: bool = True) -> None:
    assert not at.exception, (where, at.exception)
    # "evil.example" with its dot: a preview table's name made from the model's slug ("dds-…-evil-example")
    # holds only [A-Za-z0-9_.-] and is shown in a code span on purpose
    carrying = [s for s in _sources(at) if "evil.example" in unescape(s)]
    if must_show:
        assert carrying, f"{where}: the payload is shown nowhere"
        assert any(payload in unescape(s) for s in carrying), (where, carrying)
    for source in carrying:
        assert live_markdown(source) == [], (where, source)


def _open(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


@pytest.mark.parametrize("kind", PAYLOADS)
def test_the_model_name_shows_literally_on_every_page(kind: str, workspace_dir: Path) -> None:
    document = example_document("student_platform")
    document["name"] = PAYLOADS[kind]
    Workspace(workspace_dir).create(document)
    for page in PAGES:
        at = _open(page)
        if page == "report.py":  # the report's body (which names the model throughout) comes on Build
            at.button(key="report.build").click().run()
            assert any(s.value == "Sign-off" for s in at.subheader), "the report was not built"
        _assert_literal(at, PAYLOADS[kind], page)
        key, labels = LAZY_TABS.get(page, ("", ()))
        for label in labels:
            at.session_state[key] = label
            at.run()
            _assert_literal(at, PAYLOADS[kind], f"{page} {label}", must_show=False)


@pytest.mark.parametrize("kind", PAYLOADS)
def test_invalid_entity_attribute_and_pattern_names_show_literally_in_the_problems(
        kind: str, workspace_dir: Path) -> None:
    payload = PAYLOADS[kind]
    for field in ("entity", "attribute", "pattern"):
        document = example_document("student_platform")
        if field == "entity":
            document["entities"][0]["name"] = payload
        elif field == "attribute":
            document["entities"][0]["attributes"][0]["name"] = payload
        else:
            document["access_patterns"][0]["name"] = payload
        space = Workspace(workspace_dir / field)
        slug = space.create(document)
        at = AppTest.from_file(str(ROOT / "pages" / "model.py"), default_timeout=120)
        at.query_params["model"] = slug
        _run_in(at, workspace_dir / field)
        _assert_literal(at, payload, field)


def _run_in(at: AppTest, folder: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DESIGN_STUDIO_WORKSPACE", str(folder))
        at.run()


@pytest.mark.parametrize("kind", PAYLOADS)
def test_a_share_links_errors_show_names_literally(kind: str) -> None:
    document = example_document("student_platform")
    broken = copy.deepcopy(document)
    broken["entities"][0]["name"] = "A`b`" + PAYLOADS[kind]  # a backtick closed the code span it was shown in
    at = _open("start.py", share=encode_share(broken))
    assert any("could not be opened" in e.value for e in at.error)
    _assert_literal(at, PAYLOADS[kind], "share link")


@pytest.mark.parametrize("kind", PAYLOADS)
def test_an_uploads_file_name_shows_literally(kind: str) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/model.py").run()
    name = PAYLOADS[kind].replace("/", "_") + ".json"  # a browser sends no folder in a file name
    at.file_uploader(key="model.upload").set_value((name, b"{not json", "application/json")).run()
    _assert_literal(at, name, "upload")
