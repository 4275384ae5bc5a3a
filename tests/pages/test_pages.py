"""Page tests with Streamlit's AppTest: every page on its own, and the Model page's behaviours."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from costs.design_ranking import propose
from modeling.examples import example_document, load_example
from modeling.workspace.folder import Workspace
from tests.markdown_checks import unescape
from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.name for p in (ROOT / "pages").glob("*.py"))


def _app_on(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page(f"pages/{page}").run()
    assert not at.exception, at.exception
    return at


def _open_document(workspace_dir: Path) -> dict:
    space = Workspace(workspace_dir)
    return space.load(space.most_recent())


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_on_its_own_like_a_deep_link(page: str) -> None:
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=60).run()
    assert not at.exception, at.exception
    assert at.title, "every page shows a title"


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_through_the_router(page: str) -> None:
    _app_on(page)


def test_first_visit_opens_an_example_and_saves_it(workspace_dir: Path) -> None:
    at = _app_on("model.py")
    assert at.title[0].value == "Model · Student platform"
    assert _open_document(workspace_dir)["name"] == "Student platform"


def test_adding_an_entity_in_the_table_autosaves_it(workspace_dir: Path) -> None:
    at = _app_on("model.py")
    at.session_state[scoped(at, "entities.editor.0")] = {
        "edited_rows": {}, "added_rows": [{"name": "Course", "item_count": 40}], "deleted_rows": []}
    at.run()
    assert not at.exception
    entities = _open_document(workspace_dir)["entities"]
    assert entities[-1] == {"name": "Course", "item_count": 40, "attributes": []}
    assert any("Course" in w.value for w in at.warning)  # unused entity warning shown inline


def test_adding_an_access_pattern_autosaves_it(workspace_dir: Path) -> None:
    at = _app_on("model.py")
    row = {"name": "list_tenants_by_plan", "kind": "read_many", "entities": ["Tenant"], "inputs": ["plan"],
           "peak_requests_per_second": 5, "average_requests_per_second": 1}
    at.session_state[scoped(at, "patterns.editor.0")] = {"edited_rows": {}, "added_rows": [row], "deleted_rows": []}
    at.run()
    pattern = _open_document(workspace_dir)["access_patterns"][-1]
    assert pattern["name"] == "list_tenants_by_plan"
    assert pattern["traffic"] == {"peak_requests_per_second": 5, "average_requests_per_second": 1}
    assert at.success[0].value.startswith("The model is valid")


def test_a_validation_error_is_shown_next_to_the_pattern_and_the_edit_is_kept(workspace_dir: Path) -> None:
    at = _app_on("model.py")
    at.session_state[scoped(at, "patterns.editor.0")] = {"edited_rows": {0: {"average_requests_per_second": 99999}},
                                                   "added_rows": [], "deleted_rows": []}
    at.run()
    saved = _open_document(workspace_dir)["access_patterns"][0]
    assert saved["traffic"]["average_requests_per_second"] == 99999
    messages = [unescape(e.value) for e in at.error]  # the text shown (names are Markdown-escaped)
    assert any(f"access_patterns[{saved['name']}].traffic" in m or saved["name"] in m for m in messages)
    assert any("above" in m and "peak" in m for m in messages)


def test_table_settings_form_saves_the_model_name(workspace_dir: Path) -> None:
    at = _app_on("model.py")
    at.text_input(key=scoped(at, "table_form.name")).input("Renamed platform")
    at.run()  # a field is saved when it is left (no form)
    assert _open_document(workspace_dir)["name"] == "Renamed platform"
    assert at.title[0].value == "Model · Renamed platform"


def test_start_page_opens_an_example_as_a_new_model(workspace_dir: Path) -> None:
    at = _app_on("start.py")
    at.button(key="start.open.ecommerce_orders").click().run()
    assert not at.exception
    names = sorted(d.name for d in Workspace(workspace_dir).drafts())
    assert "E-commerce orders" in " ".join(names) and len(names) == 2


def test_layout_adopt_a_design_then_an_override_problem_appears_and_disappears(workspace_dir: Path) -> None:
    at = _app_on("layout.py")
    options = at.radio(key=scoped(at, "layout.design")).options
    assert options[0] == "Proposed" and "Your design" not in options  # the search's winner first
    at.button(key="layout.adopt").click().run()
    assert "key_design" in _open_document(workspace_dir)
    assert at.radio(key=scoped(at, "layout.design")).value == "Your design"
    at.session_state[scoped(at, "layout.templates.editor.0")] = {
        "edited_rows": {0: {"partition_key": "TENANT#{tenantIdd}"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception and any("tenantIdd" in e.value for e in at.error)
    # the grid keeps its key while only its own edits change the model: its edits are cumulative
    at.session_state[scoped(at, "layout.templates.editor.0")] = {
        "edited_rows": {0: {"partition_key": "TENANT#{tenantId}"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not any("tenantIdd" in e.value for e in at.error)
    assert at.radio(key=scoped(at, "layout.design")).value == "Your design"


def test_layout_lists_the_designs_and_their_indexes_and_lays_out_only_the_one_shown(
        workspace_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pickers come from the search (`propose`), not from laying out every design: a first visit
    lays out the shown design once, and choosing another design lists that design's table and indexes."""
    import streamlit as st

    from ui import layout_views
    st.cache_data.clear()  # another test may have laid this model out already
    laid_out: list[str | None] = []
    real = layout_views.analyse_layout
    monkeypatch.setattr(layout_views, "analyse_layout", lambda request: laid_out.append(request.design_name)
                        or real(request))
    at = _app_on("layout.py")
    designs = propose(load_example("student_platform"))
    assert at.radio(key=scoped(at, "layout.design")).options == [d.name for d in designs]
    assert laid_out == [designs[0].name]
    for design in designs:
        at.radio(key=scoped(at, "layout.design")).set_value(design.name).run()
        assert at.selectbox(key=scoped(at, "layout.index")).options == [
            "table", *(i.name for i in design.key_design.global_secondary_indexes)]
        assert at.markdown and any(design.name in m.value for m in at.markdown)
    assert not at.exception


def test_layout_says_how_good_the_search_answer_is(workspace_dir: Path) -> None:
    """Beside the candidates, the page states whether the search proved its proposal optimal (the examples are
    searched to the end) rather than leaving the user to guess how far it looked."""
    at = _app_on("layout.py")
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Search: optimal within its space of ") for c in captions), captions
    assert not at.exception


def test_layout_view_through_an_index_shows_that_index_keys(workspace_dir: Path) -> None:
    at = _app_on("layout.py")
    at.selectbox(key=scoped(at, "layout.index")).select("GSI1").run()
    assert not at.exception
    # the index's own key attributes, as the proposal names them (labelled GSI1PK/GSI1SK or plain attributes)
    shown_design = propose(load_example("student_platform"))[0]  # the page opens on the ranking's winner
    index = next(i for i in shown_design.key_design.global_secondary_indexes if i.name == "GSI1")
    shown = at.dataframe[1].value
    assert {index.partition_key.name, *([index.sort_key.name] if index.sort_key else [])} <= set(shown.columns)
    assert list(shown.columns[:1]) == [index.partition_key.name]  # viewed through the index: its key first


def test_layout_checks_of_the_mistakes_example_show_what_a_finding_concerns(workspace_dir: Path) -> None:
    at = _app_on("start.py")
    at.button(key="start.open.student_platform_mistakes").click().run()
    at.switch_page("pages/layout.py").run()
    assert at.radio(key=scoped(at, "layout.design")).value == "Your design"
    findings = at.radio(key=scoped(at, "layout.finding"))
    assert findings.value.startswith("⛔ DDS101") and "GSI1" in findings.value
    assert any("STATUS#{status}" in frame.value.to_csv() for frame in at.dataframe)
    findings.set_value(next(o for o in findings.options if "DDS201" in o)).run()
    assert any("get_transfer_parties_by_ids" in frame.value.to_csv() for frame in at.dataframe)


def test_capacity_and_cost_recommends_and_follows_the_region(workspace_dir: Path) -> None:
    at = _app_on("capacity_and_cost.py")
    assert "cheapest option" in at.success[0].value
    first = at.metric[0].value
    at.selectbox(key=scoped(at, "cost.region")).select("ap-northeast-1").run()
    assert not at.exception and at.metric[0].value != first


def test_capacity_and_cost_runs_only_the_open_tab_and_keeps_a_hidden_tabs_choices(workspace_dir: Path) -> None:
    """The Options tab opens first and no other tab's chart is drawn; the auto scaling choices are still there
    after the user looked at another tab; the quick calculator's forms are sent even when hidden (their typing
    lives in the browser until submitted)."""
    at = _app_on("capacity_and_cost.py")
    assert [c.key for c in at.get("plotly_chart")] == ["cost.components"]
    assert not [s for s in at.selectbox if s.key == "cost.scaling_resource"]
    assert at.text_area(key="cost.item").value and at.text_input(key="cost.item_bytes").value == "3500"
    at.session_state["cost.tab"] = "Auto scaling"
    at.run()
    at.radio(key=scoped(at, "cost.scaling_dimension")).set_value("write").run()
    at.session_state["cost.tab"] = "Designs"
    at.run()
    assert not [r for r in at.radio if r.key == "cost.scaling_dimension"]  # its tab did not run
    at.session_state["cost.tab"] = "Auto scaling"
    at.run()
    assert at.radio(key=scoped(at, "cost.scaling_dimension")).value == "write"
    assert [c.key for c in at.get("plotly_chart")] == ["cost.scaling_chart"]
    assert not at.exception


def test_quick_calculator_sizes_an_item_and_explains_bad_json(workspace_dir: Path) -> None:
    at = _app_on("capacity_and_cost.py")
    at.text_area(key="cost.item").input('{"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}}')
    at.button(key="FormSubmitter:cost.item_size_form-Item size").click().run()
    assert any(s.value == "23 bytes" for s in at.success)  # AWS's own example (dynamodb-rules §6)
    at.text_area(key="cost.item").input('{"a": {"STRING": "x"}}')
    at.button(key="FormSubmitter:cost.item_size_form-Item size").click().run()
    assert not at.exception and at.error


@pytest.mark.parametrize("page, words", [("capacity_and_cost.py", "cannot be priced"),
                                         ("layout.py", "designs cannot be shown")])
def test_analysis_pages_explain_a_model_with_errors_instead_of_failing(page: str, words: str) -> None:
    at = _app_on("model.py")
    at.session_state[scoped(at, "patterns.editor.0")] = {"edited_rows": {0: {"average_requests_per_second": 99999}},
                                                   "added_rows": [], "deleted_rows": []}
    at.run()
    at.switch_page(f"pages/{page}").run()
    assert not at.exception and any(words in e.value for e in at.error)


def test_hot_partitions_flags_the_sign_up_burst_and_sharding_fixes_it(workspace_dir: Path) -> None:
    at = _app_on("start.py")
    at.button(key="start.open.student_platform_mistakes").click().run()
    at.switch_page("pages/hot_partitions.py").run()
    assert at.selectbox(key=scoped(at, "hot.design")).value == "Your design"
    assert at.selectbox(key=scoped(at, "hot.index")).value == "GSI1"  # opens where the worst finding is (DDS101)
    at.selectbox(key=scoped(at, "hot.index")).select("table").run()  # the sign-up burst lands on the table's key
    at.selectbox(key=scoped(at, "hot.burst_pattern")).select("create_student_by_tenant").run()
    burst_errors = [unescape(e.value) for e in at.error if "create_student_by_tenant" in unescape(e.value)]
    assert burst_errors and "STUDENT#" in burst_errors[0]
    at.slider(key=scoped(at, "hot.shards")).set_value(40).run()  # a create is a transaction (2 WCU): 37x one partition
    assert not at.exception
    assert not [e.value for e in at.error
                if "create_student_by_tenant" in unescape(e.value) and e.value.startswith("**table")]


def test_hot_partitions_takes_a_user_set_partition_count(workspace_dir: Path) -> None:
    at = _app_on("hot_partitions.py")
    at.number_input(key=scoped(at, "hot.partitions")).set_value(7).run()
    assert not at.exception
    skew = next(frame.value for frame in at.dataframe if "Verdict" in frame.value.columns
                and "Partitions" in frame.value.columns)
    assert int(skew.loc[skew["Table or index"] == "Table", "Partitions"].iloc[0]) == 7


def test_an_endpoint_that_does_not_answer_gets_a_message_and_a_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("DESIGN_STUDIO_ENDPOINT", f"http://127.0.0.1:{port}")
    at = _app_on("start.py")
    assert any("does not answer" in e.value for e in at.sidebar.error)
    at.button(key="sidebar.endpoint_retry").click().run()
    assert not at.exception and any("does not answer" in e.value for e in at.sidebar.error)
    assert at.title[0].value == "DynamoDB Design Studio"  # the page itself still works


@pytest.mark.parametrize(("region", "warned"), [("us-west-2", False), ("af-south-1", True)],
                         ids=["priced-us-west-2", "unpriced-af-south-1"])
def test_capacity_and_cost_prices_the_models_own_region_or_says_it_cannot(workspace_dir: Path, region: str,
                                                                          warned: bool) -> None:
    # a model in us-west-2 was priced as ap-northeast-1 (the first of the priced Regions); now it is priced at
    # its own sheet, and a Region without a sheet is selected, unpriced, and says so (issue 13, item 4)
    document = example_document("student_platform")
    document["table"]["region"] = region
    Workspace(workspace_dir).create(document)
    at = AppTest.from_file(str(ROOT / "pages" / "capacity_and_cost.py"), default_timeout=90).run()
    assert not at.exception, at.exception
    assert at.selectbox(key=scoped(at, "cost.region")).value == region
    notices = [w.value for w in at.warning if "No price sheet ships" in w.value]
    assert bool(notices) == warned and (not warned or region in notices[0])


def test_pending_edits_are_saved_whatever_page_the_run_shows(workspace_dir: Path) -> None:
    """A grid cell and a table setting committed in the run that a sidebar click turns into another page's
    run (ui.model_editor.apply_pending_edits): both reach the saved model, though that page draws neither."""
    at = _app_on("model.py")
    key = scoped(at, "entities.editor.0")
    at.session_state[key] = {"edited_rows": {0: {"description": "Pays the bills"}}, "added_rows": [],
                             "deleted_rows": []}
    at.session_state[scoped(at, "table_form.description")] = "Typed and left"
    at.switch_page("pages/capacity_and_cost.py").run()
    assert not at.exception, at.exception
    saved = _open_document(workspace_dir)
    assert saved["entities"][0]["description"] == "Pays the bills"
    assert saved["description"] == "Typed and left"
    at.switch_page("pages/model.py").run()  # back: the grid and the field show what was saved, nothing twice
    assert at.text_area(key=scoped(at, "table_form.description")).value == "Typed and left"
    assert _open_document(workspace_dir) == saved

