"""The Preview page with AppTest: load the sample data, run every pattern, see them pass, clean up."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from modeling.endpoint.adapter import configured_endpoint, dynamodb_client
from tests.markdown_checks import unescape
from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]


def _button(at: AppTest, key: str):
    return next(b for b in at.button if b.key == key)


def test_load_run_all_and_cleanup() -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=120).run()
    assert not at.exception, at.exception
    assert any("Load the sample data" in i.value for i in at.info)
    at.number_input(key=scoped(at, "preview.items")).set_value(400).run()
    _button(at, "preview.load").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    loaded = next(m for m in at.metric if m.label == "Items in the table")
    assert int(loaded.value.replace(",", "")) > 300
    assert not [b for b in at.button if b.key == "preview.cancel"], "Cancel loading stays after the load (26.5)"
    _button(at, "preview.run_all").click().run()
    assert not at.exception, at.exception
    passed = next(m for m in at.metric if m.label == "Patterns passed")
    done, total = passed.value.split(" of ")
    assert done == total and int(total) >= 10
    assert any("Every access pattern returned" in s.value for s in at.success)
    assert at.selectbox(key=scoped(at, "preview.detail")).options, "every pattern can be inspected"
    assert any("boto3" in c.value for c in at.code)
    table = next(c.value for c in at.caption if "Table `" in c.value).split("`")[1]
    assert table in dynamodb_client(configured_endpoint({})).list_tables()["TableNames"]
    _button(at, "preview.cleanup").click().run()
    assert table not in dynamodb_client(configured_endpoint({})).list_tables()["TableNames"]


def test_own_input_values_rerun_one_pattern_and_bad_values_are_explained() -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=120).run()
    at.number_input(key=scoped(at, "preview.items")).set_value(300).run()
    _button(at, "preview.load").click().run()
    _button(at, "preview.run_all").click().run()
    detail = at.selectbox(key=scoped(at, "preview.detail"))
    pattern = next(o for o in detail.options if o.startswith("list_"))
    detail.set_value(pattern).run()
    returned = next(m for m in at.metric if m.label == "Items returned")
    assert int(returned.value) > 0
    fields = [t for t in at.text_input if t.key.startswith(scoped(at, f"preview.input.{pattern}."))]
    assert fields
    fields[0].set_value("no-such-value")  # inside a form: sent with the submit, not before
    at.button(key=f"FormSubmitter:{scoped(at, f'preview.inputs.{pattern}')}-Run with these values").click().run()
    assert not at.exception, at.exception
    # the user's run is shown apart and labelled; the pattern's own verdict and figures stay (issue #14.6)
    assert any("Values:" in t.value and "no-such-value" in t.value for t in at.text)
    assert any("As the data says" in t.value for t in at.text), "an unknown value returns nothing, which is right"
    assert any(pattern in unescape(s.value) for s in at.success)
    assert int(next(m for m in at.metric if m.label == "Items returned").value) == int(returned.value)


def test_a_custom_run_never_turns_a_failing_pattern_green() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/start.py").run()
    at.button(key="start.open.student_platform_mistakes").click().run()
    at.switch_page("pages/preview.py").run()
    at.number_input(key=scoped(at, "preview.items")).set_value(1000).run()
    _button(at, "preview.load").click().run()
    _button(at, "preview.run_all").click().run()
    at.selectbox(key=scoped(at, "preview.detail")).set_value("list_top_students_by_tenant").run()
    field = next(t for t in at.text_input
                 if t.key == scoped(at, "preview.input.list_top_students_by_tenant.tenantId"))
    field.set_value("no-such-tenant")
    at.button(key=f"FormSubmitter:{scoped(at, 'preview.inputs.list_top_students_by_tenant')}-Run with these values"
              ).click().run()
    assert not at.exception, at.exception
    # still failed
    assert any("list_top_students_by_tenant" in unescape(e.value) for e in at.error)
    failed = next(m for m in at.metric if m.label == "Failed")
    # the example's failing read (the unpadded xp), and its three writes that cannot name a Student keyed by email
    # (DDS312, tests/preview/test_preview_endpoint.py names them); the lookup by id through its KEYS_ONLY index
    # now fetches the student (issue 28.3) and passes
    assert int(failed.value) == 4


def test_a_fresh_session_finds_the_table_it_loaded_and_a_changed_seed_does_not() -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=120).run()
    at.number_input(key=scoped(at, "preview.items")).set_value(200).run()
    _button(at, "preview.load").click().run()
    assert any(m.label == "Items in the table" for m in at.metric)

    again = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=120).run()  # a refresh
    again.number_input(key=scoped(at, "preview.items")).set_value(200).run()
    assert any("already holds this sample data" in i.value for i in again.info)
    _button(again, "preview.run_all").click().run()
    assert not again.exception, again.exception
    passed = next(m for m in again.metric if m.label == "Patterns passed")
    assert passed.value.split(" of ")[0] == passed.value.split(" of ")[1]

    other = AppTest.from_file(str(ROOT / "pages" / "preview.py"), default_timeout=120).run()
    other.number_input(key=scoped(at, "preview.items")).set_value(200).run()
    other.number_input(key=scoped(at, "preview.seed")).set_value(7).run()
    assert not any("already holds" in i.value for i in other.info)
    assert any("Load the sample data" in i.value for i in other.info)
