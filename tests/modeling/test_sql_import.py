"""SQL schema import: the expected entities, keys and relationships are written by hand from the SQL files in
tests/fixtures/sql/, never read from the importer."""

from __future__ import annotations

from pathlib import Path

import pytest

from dds.cli import main as dds_main
from modeling.errors import ModelFileError
from modeling.interop.sql_import import entity_name, import_sql, read_row_counts
from modeling.interop.sql_schema import SqlSchemaError, read_sql_schema
from modeling.model import EnumGenerator, ReferenceGenerator, RelationshipKind
from modeling.model_file import document_problems, model_to_document
from tests.cli_runner import run_main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sql"


def _import(name: str, **options: object):
    return import_sql((FIXTURES / name).read_text(encoding="utf-8"), source=name, **options)


def _relationships(model) -> set[tuple[str, str, str, tuple[str, ...]]]:
    return {(r.kind.value, r.parent, r.child, r.child_attributes) for r in model.relationships}


def test_students_schema_gives_its_entities_keys_and_relationships() -> None:
    result = _import("students.sql")
    model = result.model
    assert result.schema.dialect.value == "postgres"
    assert not [p for p in document_problems(model_to_document(model)) if p.severity.value == "error"]
    # by hand from students.sql: four tables, their primary keys and -- rows: comments (submissions' after `;`)
    assert {(e.name, e.identifiers, e.item_count) for e in model.entities} == {
        ("Student", ("id",), 200_000), ("Course", ("id",), 400),
        ("Enrollment", ("student_id", "course_id"), 1_200_000), ("Submission", ("id",), 9_000_000)}
    assert _relationships(model) == {
        ("one_to_many", "Student", "Enrollment", ("student_id",)),
        ("one_to_many", "Course", "Enrollment", ("course_id",)),
        ("one_to_many", "Enrollment", "Submission", ("student_id", "course_id")),
        ("many_to_many", "Course", "Student", ()),  # enrollments' PK is its two foreign keys
    }
    student = model.entity("Student")
    assert student.attribute("email").unique and student.attribute("email").generator.provider == "email"
    assert student.attribute("deleted_at").required is False and student.attribute("deleted_at").type == "S"
    assert student.attribute("xp").type == "N" and student.attribute("version").type == "N"
    status = student.attribute("status").generator
    assert isinstance(status, EnumGenerator) and status.values == ("active", "suspended", "graduated")
    credits = model.entity("Course").attribute("credits").generator
    assert (credits.kind, credits.min, credits.max) == ("int_range", 1, 10)  # CHECK (credits BETWEEN 1 AND 10)
    assert model.entity("Course").attribute("code").unique  # a named UNIQUE table constraint
    # 1,200,000 enrollments / 200,000 students = 6; 9,000,000 submissions / 1,200,000 enrollments = 7.5
    means = {(r.parent, r.child): r.cardinality.mean for r in model.relationships}
    assert means[("Student", "Enrollment")] == 6 and means[("Enrollment", "Submission")] == 7.5
    reference = model.entity("Submission").attribute("course_id").generator
    assert isinstance(reference, ReferenceGenerator) and (reference.entity, reference.attribute) == \
        ("Enrollment", "course_id")


def test_crm_in_pg_dump_style_reads_keys_from_alter_table_and_unique_indexes() -> None:
    model = _import("crm.sql").model
    assert {(e.name, e.identifiers) for e in model.entities} == {
        ("Customer", ("customer_id",)), ("Contact", ("contact_id",)), ("Product", ("product_id",)),
        ("Opportunity", ("opportunity_id",)), ("OpportunityProduct", ("opportunity_id", "product_id"))}
    assert _relationships(model) == {
        ("one_to_many", "Customer", "Contact", ("customer_id",)),
        ("one_to_many", "Customer", "Opportunity", ("customer_id",)),
        ("one_to_many", "Contact", "Opportunity", ("owner_contact_id",)),
        ("one_to_many", "Opportunity", "OpportunityProduct", ("opportunity_id",)),
        ("one_to_many", "Product", "OpportunityProduct", ("product_id",)),
        ("many_to_many", "Opportunity", "Product", ()),
    }
    assert model.entity("Contact").attribute("email").unique  # CREATE UNIQUE INDEX ... (email)
    assert model.entity("Contact").attribute("is_primary").type == "BOOL"
    assert model.entity("Product").attribute("product_id").generator.kind == "sequence"  # IDENTITY
    stage = model.entity("Opportunity").attribute("stage").generator  # pg_dump's = ANY (ARRAY[...])
    assert stage.values == ("lead", "qualified", "proposal", "won", "lost")
    assert model.entity("Customer").attribute("company_name").generator.provider == "company"


def test_mysql_ecommerce_with_enum_auto_increment_and_a_row_count_csv() -> None:
    counts = read_row_counts((FIXTURES / "ecommerce_rows.csv").read_bytes())
    result = _import("ecommerce.sql", row_counts=counts)
    model = result.model
    assert result.schema.dialect.value == "mysql"  # detected: the PostgreSQL reading finds no table
    assert {(e.name, e.item_count) for e in model.entities} == {
        ("Customer", 1_500_000), ("Product", 50_000), ("Order", 12_000_000), ("OrderItem", 36_000_000)}
    product = model.entity("Product")
    assert product.attribute("category").generator.values == ("apparel", "shoes", "home", "kitchen", "toys")
    assert (product.attribute("price").type, product.attribute("photo").type) == ("N", "B")
    assert model.entity("Customer").attribute("marketing_opt_in").type == "BOOL"  # TINYINT(1)
    assert model.entity("Customer").attribute("email").unique  # UNIQUE KEY
    assert model.entity("Customer").attribute("email").max_size_bytes == 4 * 254  # utf8mb4: 4 bytes a character
    kinds = {(r.parent, r.child): r.kind for r in model.relationships}
    assert kinds[("Order", "Product")] is RelationshipKind.MANY_TO_MANY
    # 12,000,000 orders / 1,500,000 customers = 8 orders per customer
    assert next(r for r in model.relationships if r.child == "Order").cardinality.mean == 8


def test_one_to_one_from_a_unique_foreign_key_and_a_table_without_rows_asks_for_them() -> None:
    sql = ("CREATE TABLE users (id bigint PRIMARY KEY);\n"
           "CREATE TABLE profiles (user_id bigint PRIMARY KEY REFERENCES users (id), bio text);\n")
    result = import_sql(sql)
    assert _relationships(result.model) == {("one_to_one", "User", "Profile", ("user_id",))}
    assert any("no row count" in d and "users" in d for d in result.decisions)


@pytest.mark.parametrize(("sql", "line", "column"), [
    ("CREATE TABLE x (\n  id int,\n  name varchar(10) NOT NUL\n);", 3, 22),  # NOT NUL: `)` expected at NOT
    ("CREATE TABLE ok (id int);\nCREATE TABLE (id int);", 2, 14),  # no table name
])
def test_bad_sql_gives_line_and_column(sql: str, line: int, column: int) -> None:
    with pytest.raises(SqlSchemaError) as raised:
        read_sql_schema(sql, "postgres")
    assert (raised.value.line, raised.value.column) == (line, column)
    assert f"line {line}, column {column}" in str(raised.value)


def test_a_create_table_the_dialect_cannot_read_is_an_error_not_a_dropped_table() -> None:
    with pytest.raises(SqlSchemaError) as raised:
        read_sql_schema((FIXTURES / "ecommerce.sql").read_text(), "postgres")
    assert raised.value.line == 2 and "--dialect" in str(raised.value)


def test_a_file_without_tables_is_an_error() -> None:
    with pytest.raises(ModelFileError, match="no CREATE TABLE"):
        import_sql("SET x = 1;")


def test_entity_names_are_singular_pascal_case() -> None:
    assert [entity_name(t) for t in ("order_items", "categories", "addresses", "status", "people")] == \
        ["OrderItem", "Category", "Address", "Status", "People"]


def test_cli_writes_the_model_and_reports_bad_sql_without_a_traceback(tmp_path: Path) -> None:
    output = tmp_path / "model.yaml"
    result = run_main(dds_main, ["import", "sql", FIXTURES / "students.sql", "-o", output])
    assert result.returncode == 0 and output.is_file() and "4 entities" in result.stderr
    bad = tmp_path / "bad.sql"
    bad.write_text("CREATE TABLE t (\n  id int NOT NUL\n);\n")
    result = run_main(dds_main, ["import", "sql", bad])
    assert result.returncode == 1 and "line 2, column" in result.stderr and "Traceback" not in result.stderr


def test_postgres_enum_types_identity_columns_and_a_self_join_table() -> None:
    sql = """CREATE TABLE app.people (person_id integer PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY,
                                      current_mood mood NOT NULL, payload jsonb, ip inet)
             PARTITION BY RANGE (person_id);
             CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
             CREATE TABLE app.friendships (person_id integer REFERENCES app.people ON DELETE CASCADE,
                                           friend_id integer REFERENCES app.people (person_id),
                                           PRIMARY KEY (person_id, friend_id));"""
    model = import_sql(sql).model
    people = model.entity("People")
    assert people.attribute("current_mood").generator.values == ("sad", "ok", "happy")  # declared after its use
    assert (people.attribute("payload").type, people.attribute("ip").generator.provider) == ("M", "ipv4")
    assert _relationships(model) == {("one_to_many", "People", "Friendship", ("person_id",)),
                                     ("one_to_many", "People", "Friendship", ("friend_id",)),
                                     ("many_to_many", "People", "People", ())}
    assert len({r.name for r in model.relationships}) == 3  # two keys to one parent get distinct names


def test_mysql_table_options_generated_columns_and_create_table_like() -> None:
    sql = """CREATE TABLE `users` (
      `user_id` BIGINT NOT NULL AUTO_INCREMENT COMMENT 'surrogate',
      `login` VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      `updated_at` TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
      PRIMARY KEY (`user_id`), UNIQUE INDEX `ux_login` (`login`), FULLTEXT KEY `ft` (`login`)
    ) ENGINE=InnoDB AUTO_INCREMENT=1000 DEFAULT CHARSET=utf8mb4 COMMENT='people';
    CREATE TABLE users_archive LIKE users;"""
    result = import_sql(sql)
    assert result.schema.dialect.value == "mysql"
    assert {(e.name, e.identifiers) for e in result.model.entities} == {("User", ("user_id",)),
                                                                      ("UsersArchive", ("user_id",))}
    assert result.model.entity("UsersArchive").attribute("login").unique


def test_a_check_of_sixty_thousand_chained_ands_is_read_not_a_recursion_error() -> None:
    """Issue 30.6: `CHECK (a <> 0 AND a <> 1 AND ...)` 60,000 terms deep raised RecursionError in the CLI and
    on the File tab; its terms are read in a loop now, and an IN list among them still narrows the column."""
    terms = " AND ".join(f"a <> {i}" for i in range(60_000))
    schema = read_sql_schema(f"CREATE TABLE t (id int PRIMARY KEY, a int, s text, CHECK ({terms} AND s IN ('x', "
                             "'y')));", "postgres")
    [table] = schema.tables
    assert [c.name for c in table.columns] == ["id", "a", "s"]
    assert next(c for c in table.columns if c.name == "s").enum_values == ("x", "y")


@pytest.mark.parametrize("via", ["csv", "comment"])
def test_a_row_count_above_the_limit_is_clamped_with_a_note_naming_the_table(via: str) -> None:
    """10^30 rows become 10^15 items (MAX_ITEM_COUNT), and the user is told so (issue 30, item 8)."""
    comment = "-- rows: 1000000000000000000000000000000\n" if via == "comment" else ""
    sql = f"{comment}CREATE TABLE ledger_lines (id bigint PRIMARY KEY);\nCREATE TABLE users (id bigint PRIMARY KEY);\n"
    counts = read_row_counts(b"table,rows\nledger_lines,1e30\nusers,10\n") if via == "csv" else {"users": 10}
    result = import_sql(sql, row_counts=counts)
    assert {(e.name, e.item_count) for e in result.model.entities} == {("LedgerLine", 10**15), ("User", 10)}
    notes = [d for d in result.decisions if "ledger_lines" in d and "1,000,000,000,000,000 items" in d]
    assert len(notes) == 1, result.decisions
    assert not any("users" in d for d in result.decisions)
