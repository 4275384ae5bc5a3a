"""The File tab's SQL import through AppTest, with the real fixture files of tests/fixtures/sql/."""

from __future__ import annotations

from pathlib import Path

from tests.pages.model_page import model_page, saved

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sql"


def test_a_schema_and_its_query_log_open_as_a_new_model_with_the_unmapped_statements_listed(
        workspace_dir: Path) -> None:
    at = model_page()
    at.file_uploader(key="model.sql_upload").set_value(
        ("crm.sql", (FIXTURES / "crm.sql").read_bytes(), "application/sql")).run()
    at.file_uploader(key="model.sql_log_upload").set_value(
        ("crm.csv", (FIXTURES / "crm_pg_stat_statements.csv").read_bytes(), "text/csv")).run()
    at.number_input(key="model.sql_window_hours").set_value(24.0).run()
    at.button(key="model.sql_import").click().run()
    assert not at.exception, at.exception
    document = saved(workspace_dir)
    assert {e["name"] for e in document["entities"]} == {"Customer", "Contact", "Product", "Opportunity",
                                                         "OpportunityProduct"}
    assert "get_customer_by_id" in {p["name"] for p in document["access_patterns"]}
    assert "11 statements mapped, 4 not mapped" in " ".join(m.value for m in at.markdown)
    assert any("crm.sql" in s.value for s in at.success)


def test_bad_sql_is_shown_with_its_line_and_column_and_nothing_opens(workspace_dir: Path) -> None:
    at = model_page()
    before = saved(workspace_dir)
    bad = b"CREATE TABLE t (\n  id int NOT NUL\n);\n"
    at.file_uploader(key="model.sql_upload").set_value(("bad.sql", bad, "application/sql")).run()
    at.button(key="model.sql_import").click().run()
    assert not at.exception, at.exception
    assert any("could not be imported" in e.value for e in at.error)
    shown = " ".join(m.value for m in at.markdown) + " ".join(e.value for e in at.error)
    assert "line 2, column" in shown
    assert saved(workspace_dir) == before


def test_a_failed_import_after_a_good_one_shows_only_its_own_error(workspace_dir: Path) -> None:
    # seen in a browser: the earlier file's "Imported crm.sql ..." and its notes stayed above the new error, and
    # the advice named the command line's --dialect on a page that has a Dialect choice
    at = model_page()
    at.file_uploader(key="model.sql_upload").set_value(
        ("crm.sql", (FIXTURES / "crm.sql").read_bytes(), "application/sql")).run()
    at.button(key="model.sql_import").click().run()
    assert any("crm.sql" in s.value for s in at.success)
    opened = saved(workspace_dir)
    bad = b"CREATE TABLE t (\n  id int NOT NUL\n);\n"
    at.file_uploader(key="model.sql_upload").set_value(("broken.sql", bad, "application/sql")).run()
    at.button(key="model.sql_import").click().run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error if "could not be imported" in e.value]
    assert not [s.value for s in at.success if "crm.sql" in s.value]
    shown = " ".join(m.value for m in at.markdown) + " ".join(e.value for e in at.error)
    assert "Dialect" in shown
    assert saved(workspace_dir) == opened  # the model the first import opened is unchanged
