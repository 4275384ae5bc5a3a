"""The File tab's SQL import after an import (issue 31, items 1 and 5): every schema statement it skipped, with its
line and plain reason, as data; and the offer to strip a table prefix every table shares, off until ticked.

The schemas are written here; lines are counted by hand. What the page shows is compared with what `dds import sql`
prints and writes for the same file (the CLI path), never with a formula of the importer's."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from dds.cli import main as dds_main
from modeling.workspace.folder import Workspace
from tests.cli_runner import run_main
from tests.pages.model_page import model_page, saved, scoped

ROUTINES = ("\\c shop\n"                                          # line 1: a psql meta-command
            "CREATE TABLE orders (id int PRIMARY KEY, total numeric);\n"  # line 2: the model's one table
            "CREATE FUNCTION order_count() RETURNS bigint AS $$\n"        # line 3: a function, its body quoted
            "BEGIN RETURN (SELECT count(*) FROM orders); END;\n"          # a `;` inside $$ ends nothing
            "$$ LANGUAGE plpgsql;\n")
FORUM = ("CREATE TABLE phpbb_users (user_id int PRIMARY KEY, username varchar(40) NOT NULL);\n"
         "CREATE TABLE phpbb_posts (post_id int PRIMARY KEY, poster_id int NOT NULL REFERENCES phpbb_users (user_id),\n"
         "  post_text text);\n")


def _import(at: AppTest, name: str, sql: str) -> None:
    at.file_uploader(key="model.sql_upload").set_value((name, sql.encode(), "application/sql")).run()
    at.button(key="model.sql_import").click().run()
    assert not at.exception, at.exception


def _cli(tmp_path: Path, name: str, sql: str, *options: str) -> tuple[str, dict]:
    """What `dds import sql FILE [options]` prints to stderr, and the model it writes."""
    schema, output = tmp_path / name, tmp_path / f"{name}.yaml"
    schema.write_text(sql, encoding="utf-8")
    result = run_main(dds_main, ["import", "sql", schema, *options, "-o", output])
    assert result.returncode == 0, result.stderr
    return result.stderr, yaml.safe_load(output.read_text(encoding="utf-8"))


def test_every_skipped_statement_is_listed_with_its_line_kind_and_reason_as_the_cli_lists_it(
        workspace_dir: Path, tmp_path: Path) -> None:
    at = model_page()
    _import(at, "shop.sql", ROUTINES)
    skipped = [e for e in at.expander if "skipped" in e.label]
    assert [e.label for e in skipped] == ["2 statements skipped (not needed by the model)"]
    rows = skipped[0].dataframe[0].value.to_dict("records")
    assert [(r["line"], r["kind"], r["statement"]) for r in rows] == [
        (1, "psql command", "\\c shop"), (3, "CREATE FUNCTION", "CREATE FUNCTION order_count() RETURNS bigint AS $$")]
    assert "psql" in rows[0]["reason"] and "stored function" in rows[1]["reason"]
    stderr, _ = _cli(tmp_path, "shop.sql", ROUTINES)
    printed = [line.removeprefix("skipped: ") for line in stderr.splitlines() if line.startswith("skipped: ")]
    assert printed == [f"line {r['line']}: {r['statement']}: {r['reason']}" for r in rows]
    # user text reaches the page only as data: no Markdown element quotes the statements
    assert not any("order_count" in m.value or "\\c shop" in m.value for m in at.markdown)
    assert [e["name"] for e in saved(workspace_dir)["entities"]] == ["Order"]


def test_a_shared_prefix_is_offered_off_and_once_ticked_names_the_entities_as_the_cli_strip_prefix_does(
        workspace_dir: Path, tmp_path: Path) -> None:
    at = model_page()
    at.selectbox(key="model.sql_dialect").set_value("MySQL").run()
    at.number_input(key="model.sql_peak_ratio").set_value(3.5).run()
    _import(at, "forum.sql", FORUM)
    _, whole = _cli(tmp_path, "forum.sql", FORUM, "--dialect", "mysql")
    _, stripped = _cli(tmp_path, "forum.sql", FORUM, "--dialect", "mysql", "--strip-prefix")
    names = [e["name"] for e in whole["entities"]]
    assert [e["name"] for e in saved(workspace_dir)["entities"]] == names  # nothing stripped until asked
    box = at.checkbox(key=scoped(at, "sql_import.strip_prefix"))
    assert "phpbb" in box.label and box.value is False
    slug = at.session_state["model.scope"].slug
    models = len(Workspace(workspace_dir).drafts())
    box.check().run()
    assert not at.exception, at.exception
    assert len(Workspace(workspace_dir).drafts()) == models  # no copy: the imported model had no edits to keep
    assert [e["name"] for e in saved(workspace_dir)["entities"]] == [e["name"] for e in stripped["entities"]]
    assert [e["name"] for e in stripped["entities"]] != names
    assert at.session_state["model.scope"].slug == slug  # the imported model itself, not another one
    assert at.checkbox(key=scoped(at, "sql_import.strip_prefix")).value is True
    assert (at.selectbox(key="model.sql_dialect").value, at.number_input(key="model.sql_peak_ratio").value,
            at.number_input(key="model.sql_window_hours").value) == ("MySQL", 3.5, 0.0)
    assert at.file_uploader(key="model.sql_upload").value is not None
    at.checkbox(key=scoped(at, "sql_import.strip_prefix")).uncheck().run()  # and back: the table names whole
    assert [e["name"] for e in saved(workspace_dir)["entities"]] == names


def test_stripping_the_prefix_after_an_edit_keeps_the_edited_model_as_a_copy(workspace_dir: Path) -> None:
    at = model_page()
    _import(at, "forum.sql", FORUM)
    space = Workspace(workspace_dir)
    slug = at.session_state["model.scope"].slug
    edited = {**space.load(slug), "name": "My forum"}
    space.save(slug, edited, expected_version=space.version(slug))  # an edit made after the import
    at.checkbox(key=scoped(at, "sql_import.strip_prefix")).check().run()
    assert not at.exception, at.exception
    kept = [d.slug for d in space.drafts() if d.name == "My forum (my edits)"]  # session.place_model's copy
    assert len(kept) == 1 and space.load(kept[0])["entities"] == edited["entities"]
    assert space.load(slug)["entities"] != edited["entities"]  # the imported model now has the stripped names
