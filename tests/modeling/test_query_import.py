"""Query-log import: each test schema's log, with the statements that must map (to which pattern) and the ones
that must not (with which reason) written by hand from the CSV files in tests/fixtures/sql/."""

from __future__ import annotations

from pathlib import Path

import pytest

from dds.cli import main as dds_main
from modeling.design.generator import rule_based_designs
from modeling.design.plans import Operation
from modeling.errors import ModelFileError
from modeling.interop.query_import import import_queries
from modeling.interop.query_log import read_query_log
from modeling.interop.query_patterns import AGGREGATE, BULK_WRITE, EVERY_PARTITION, FULL_TEXT, REPORTING
from modeling.interop.sql_import import import_sql, read_row_counts
from modeling.model import PatternKind
from modeling.model_file import document_problems, load_model_file, model_to_document
from tests.cli_runner import run_main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sql"


def _import(schema: str, log: str, rows: str | None = None, **options: object):
    counts = read_row_counts((FIXTURES / rows).read_bytes()) if rows else None
    imported = import_sql((FIXTURES / schema).read_text(encoding="utf-8"), source=schema, row_counts=counts)
    return import_queries(imported, read_query_log((FIXTURES / log).read_bytes(), log), **options)


CASES = {
    "students": ("students.sql", "students_pg_stat_statements.csv", None, {
        "get_student_by_id": (PatternKind.READ_ONE, ("Student",), ("id",)),
        "get_student_by_email": (PatternKind.READ_ONE, ("Student",), ("email",)),
        "list_submissions_by_student_id": (PatternKind.READ_MANY, ("Submission",), ("student_id",)),
        "list_enrollments_by_student_id": (PatternKind.READ_MANY, ("Enrollment",), ("student_id",)),
        "list_enrollments_by_course_id": (PatternKind.READ_MANY, ("Enrollment",), ("course_id",)),
        "get_courses_by_id": (PatternKind.BATCH_READ, ("Course",), ("id",)),
        "create_student_by_id": (PatternKind.WRITE, ("Student",), ("id",)),
        "create_enrollment_by_student_id_and_course_id": (PatternKind.WRITE, ("Enrollment",),
                                                          ("student_id", "course_id")),
        "update_student_xp_version_by_id": (PatternKind.UPDATE, ("Student",), ("id",)),
        "update_student_deleted_at_by_id": (PatternKind.UPDATE, ("Student",), ("id",)),
        "update_submission_score_version_by_id": (PatternKind.UPDATE, ("Submission",), ("id",)),
        "delete_enrollment_by_student_id_and_course_id": (PatternKind.DELETE, ("Enrollment",),
                                                          ("student_id", "course_id")),
        "count_students_by_status": (PatternKind.READ_MANY, ("Student",), ("status",)),
    }, {"LIKE '%son%'": FULL_TEXT, "avg(score)": AGGREGATE}),
    "crm": ("crm.sql", "crm_pg_stat_statements.csv", None, {
        "get_customer_by_id": (PatternKind.READ_ONE, ("Customer",), ("customer_id",)),
        "list_customer_with_opportunities_by_customer_id": (PatternKind.READ_MANY, ("Customer", "Opportunity"),
                                                            ("customer_id",)),
        "list_contacts_by_customer_id": (PatternKind.READ_MANY, ("Contact",), ("customer_id",)),
        "get_contact_by_email": (PatternKind.READ_ONE, ("Contact",), ("email",)),
        "list_opportunities_by_owner_contact_id": (PatternKind.READ_MANY, ("Opportunity",), ("owner_contact_id",)),
        "list_opportunity_products_by_opportunity_id": (PatternKind.READ_MANY, ("OpportunityProduct",),
                                                        ("opportunity_id",)),
        "get_product_by_sku": (PatternKind.READ_ONE, ("Product",), ("sku",)),
        "update_opportunity_stage_updated_at_by_id": (PatternKind.UPDATE, ("Opportunity",),
                                                                  ("opportunity_id",)),
        "create_opportunity_by_id": (PatternKind.WRITE, ("Opportunity",), ("opportunity_id",)),
        "create_opportunity_products_by_opportunity_id_and_product_id": (
            PatternKind.BATCH_WRITE, ("OpportunityProduct",), ("opportunity_id", "product_id")),
        "delete_contact_by_id": (PatternKind.DELETE, ("Contact",), ("contact_id",)),
    }, {"sum(amount)": AGGREGATE, "ILIKE": FULL_TEXT, "BETWEEN": EVERY_PARTITION, " OR ": REPORTING}),
    "ecommerce (MySQL)": ("ecommerce.sql", "ecommerce_digest.csv", "ecommerce_rows.csv", {
        "get_product_by_id": (PatternKind.READ_ONE, ("Product",), ("id",)),
        "list_products_by_category": (PatternKind.READ_MANY, ("Product",), ("category",)),
        "get_customer_by_id": (PatternKind.READ_ONE, ("Customer",), ("id",)),
        "get_customer_by_email": (PatternKind.READ_ONE, ("Customer",), ("email",)),
        "list_orders_by_customer_id": (PatternKind.READ_MANY, ("Order",), ("customer_id",)),
        "list_order_items_by_order_id": (PatternKind.READ_MANY, ("OrderItem",), ("order_id",)),
        "get_products_by_id": (PatternKind.BATCH_READ, ("Product",), ("id",)),
        "create_order_by_id": (PatternKind.WRITE, ("Order",), ("id",)),
        "update_order_status_by_id": (PatternKind.UPDATE, ("Order",), ("id",)),
        "update_product_stock_by_id": (PatternKind.UPDATE, ("Product",), ("id",)),
        "list_orders_by_status": (PatternKind.READ_MANY, ("Order",), ("status",)),
    }, {"MATCH": FULL_TEXT, "COUNT ( * )": AGGREGATE, "SUM (": AGGREGATE, "DELETE FROM": BULK_WRITE}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_log_maps_its_statements_and_lists_the_rest_with_reasons(case: str) -> None:
    schema, log, rows, expected, unmapped = CASES[case]
    result = _import(schema, log, rows, peak_to_average=3.0)
    patterns = {p.name: (p.kind, p.entities, p.inputs) for p in result.model.access_patterns}
    assert patterns == expected
    assert not [p for p in document_problems(model_to_document(result.model)) if p.severity.value == "error"]
    reasons = {fragment: next(u.reason for u in result.unmapped if fragment in u.statement) for fragment in unmapped}
    assert reasons == unmapped and len(result.unmapped) == len(unmapped)
    assert all(u.alternative for u in result.unmapped)


@pytest.mark.parametrize("case", list(CASES))
def test_the_design_serves_every_mapped_pattern_without_a_scan(case: str) -> None:
    schema, log, rows, _, _ = CASES[case]
    model = _import(schema, log, rows).model
    for design in rule_based_designs(model):  # every rule-based design (the search's seeds)
        plans = {p.pattern: p for p in design.plans}
        assert set(plans) == {p.name for p in model.access_patterns}
        scans = [name for name, plan in plans.items() if plan.operation is Operation.SCAN or not plan.served]
        assert scans == KNOWN_UNADDRESSED.get((case, design.name), []), design.name


# Writes whose inputs cannot name their item (DDS312, issue 27): the item-collection design keys Opportunity and
# Contact under their customer, while the log's UPDATE and DELETE give only the row's id (an INSERT's put sends
# the whole row, so it names its item). The importer could take the customer id as an input; left open.
KNOWN_UNADDRESSED = {("crm", "Item collections"): ["update_opportunity_stage_updated_at_by_id",
                                                   "delete_contact_by_id"]}


def test_traffic_is_calls_over_the_window_and_peak_is_the_stated_ratio() -> None:
    result = _import("students.sql", "students_pg_stat_statements.csv", window_hours=48, peak_to_average=4)
    traffic = result.model.access_pattern("get_student_by_id").traffic
    # 8,640,000 calls / (48 h x 3,600 s) = 50 requests/s on average; peak 4 x 50 = 200
    assert (traffic.average_requests_per_second, traffic.peak_requests_per_second) == (50, 200)
    pattern = result.model.access_pattern("list_submissions_by_student_id")
    # ORDER BY submitted_at DESC LIMIT 20, rows 17,280,000 / 1,728,000 calls = 10 items per request
    assert (pattern.page_size, pattern.sort_order.value, pattern.expected_items) == (20, "descending", 10)
    assert (pattern.range_condition.attribute, pattern.range_condition.operator.value) == \
        ("submitted_at", "greater_than_or_equal")
    assert result.model.access_pattern("get_courses_by_id").expected_items == 4  # IN ($1, $2, $3, $4)
    filters = result.model.access_pattern("list_enrollments_by_course_id").filters
    assert [(f.attribute, f.equals) for f in filters] == [("grade", "A")]
    assert result.model.access_pattern("update_student_xp_version_by_id").changed_attributes == ("xp", "version")
    assert {"BEGIN", "SELECT 1"} <= set(result.skipped)


def test_mysql_window_comes_from_first_and_last_seen() -> None:
    result = _import("ecommerce.sql", "ecommerce_digest.csv", "ecommerce_rows.csv", peak_to_average=2)
    assert result.window_hours == 48  # 2026-11-01 00:00 to 2026-11-03 00:00
    # 43,200,000 calls / 172,800 s = 250 requests/s; peak 2 x 250 = 500
    traffic = result.model.access_pattern("get_product_by_id").traffic
    assert (traffic.average_requests_per_second, traffic.peak_requests_per_second) == (250, 500)


def test_without_a_window_or_ratio_the_defaults_are_listed_as_decisions() -> None:
    result = _import("crm.sql", "crm_pg_stat_statements.csv")
    assert any("--window-hours" in d for d in result.decisions)
    assert any("--peak-to-average" in d for d in result.decisions)


def test_a_ratio_below_one_is_refused() -> None:
    with pytest.raises(ModelFileError, match="peak-to-average"):
        _import("crm.sql", "crm_pg_stat_statements.csv", peak_to_average=0.5)


def test_a_csv_that_is_no_query_log_is_a_clear_error() -> None:
    with pytest.raises(ModelFileError, match="pg_stat_statements"):
        read_query_log(b"a,b\n1,2\n")


def test_cli_writes_a_model_the_product_loads(tmp_path: Path) -> None:
    output = tmp_path / "crm.yaml"
    result = run_main(dds_main, ["import", "queries", FIXTURES / "crm_pg_stat_statements.csv", "--schema",
                                 FIXTURES / "crm.sql", "--window-hours", "24", "--peak-to-average", "3", "-o", output])
    assert result.returncode == 0, result.stderr
    model = load_model_file(output)
    assert len(model.access_patterns) == 11
    assert "unmapped (full-text search)" in result.stderr and "mapped: get_customer_by_id" in result.stderr
    # the summary names the design `dds design` and the pages propose (the ranking's), injected by `dds import`
    assert "design 'Proposed': 11 of 11 patterns served by a key read" in result.stderr


GENERIC_SCHEMA = """
CREATE TABLE customers (id bigserial PRIMARY KEY, email text NOT NULL, "Full Name" text);
CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers (id),
                     status varchar(20) NOT NULL, placed_at timestamp NOT NULL);
CREATE TABLE audit_log (at timestamptz, actor text);
CREATE TEMPORARY TABLE scratch (x int);
"""


def _generic(rows: list[tuple[str, int]]):
    lines = ["query,calls"] + [f'"{q}",{calls}' for q, calls in rows]
    schema = import_sql(GENERIC_SCHEMA, "postgres")
    return import_queries(schema, read_query_log("\n".join(lines).encode()), window_hours=1, peak_to_average=2)


def test_a_join_on_generic_id_keys_reads_the_child_and_says_what_to_denormalise() -> None:
    # customers.id and orders.customer_id differ in name: no shared item collection, so the pattern reads the
    # orders (the rows the join returns) by customer_id, and the customer's columns are a decision
    result = _generic([("SELECT c.email, o.* FROM customers c JOIN orders o ON o.customer_id = c.id "
                        "WHERE c.id = $1", 100)])
    pattern = result.model.access_pattern("list_orders_by_customer_id")
    assert (pattern.entities, pattern.inputs) == (("Order",), ("customer_id",))
    assert any("denormalise" in d and "Customer" in d for d in result.decisions)


def test_array_keys_tables_without_keys_and_multi_statement_entries() -> None:
    result = _generic([("SELECT * FROM orders WHERE id = ANY($1)", 10), ("SELECT * FROM audit_log WHERE actor = $1", 5),
                       ("SELECT * FROM customers WHERE email = $1; SELECT 2", 1)])
    assert result.model.access_pattern("get_orders_by_id").kind is PatternKind.BATCH_READ
    reasons = sorted(u.reason for u in result.unmapped)
    assert reasons == ["not parsed", "table without a primary key"]
    assert {e.name for e in result.model.entities} == {"Customer", "Order", "AuditLog"}  # TEMPORARY is left out


def test_a_column_name_no_attribute_can_have_is_renamed_and_said() -> None:
    result = _generic([('UPDATE customers SET ""Full Name"" = $1 WHERE id = $2', 3)])
    assert result.model.entity("Customer").attribute("Full_Name") is not None
    assert any("Full Name -> Full_Name" in note for note in result.inferred)
    assert result.model.access_pattern("update_customer_full_name_by_id").changed_attributes == ("Full_Name",)


def test_a_conditional_update_by_key_is_mapped_and_a_range_delete_is_not() -> None:
    result = _generic([("UPDATE orders SET status = $1 WHERE id = $2 AND placed_at > $3", 3),
                       ("DELETE FROM orders WHERE placed_at < $1", 1)])
    assert result.model.access_pattern("update_order_status_by_id").inputs == ("id",)
    assert [u.reason for u in result.unmapped] == [BULK_WRITE]


def test_the_same_log_in_another_row_order_gives_the_same_model_bytes() -> None:
    from modeling.model_file import FileFormat, dump_model

    schema = import_sql((FIXTURES / "students.sql").read_text(encoding="utf-8"), source="students.sql")
    header, *rows = (FIXTURES / "students_pg_stat_statements.csv").read_text(encoding="utf-8").splitlines()
    forward = import_queries(schema, read_query_log("\n".join([header, *rows]).encode()), 24, 3)
    backward = import_queries(schema, read_query_log("\n".join([header, *reversed(rows)]).encode()), 24, 3)
    assert dump_model(forward.model, FileFormat.YAML) == dump_model(backward.model, FileFormat.YAML)
    assert forward.unmapped == tuple(sorted(backward.unmapped, key=lambda u: (-u.calls, u.statement)))


@pytest.mark.parametrize("name", ["students.sql", "crm.sql", "ecommerce.sql"])
def test_a_schema_cut_anywhere_is_imported_or_refused_with_a_problem_never_a_crash(name: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    for cut in range(0, len(text), max(1, len(text) // 12)):
        try:
            import_sql(text[:cut])
        except ModelFileError as exc:
            assert exc.problems and all(p.message for p in exc.problems)


def test_a_log_cut_anywhere_is_read_or_refused_with_a_problem_never_a_crash() -> None:
    schema = import_sql((FIXTURES / "crm.sql").read_text(encoding="utf-8"))
    data = (FIXTURES / "crm_pg_stat_statements.csv").read_bytes()
    for cut in range(0, len(data), max(1, len(data) // 15)):
        try:
            import_queries(schema, read_query_log(data[:cut]), 24, 2)
        except ModelFileError as exc:
            assert exc.problems


def test_casts_unknown_columns_and_what_merged_statements_say() -> None:
    result = _generic([("SELECT * FROM orders WHERE id = $1::bigint", 9),
                       ("SELECT * FROM orders WHERE CustomerNo = $1", 8),
                       ("SELECT * FROM orders WHERE customer_id = $1 AND status <> 'cancelled'", 7),
                       ("SELECT * FROM orders WHERE customer_id = $1 AND placed_at IS NULL", 6)])
    assert result.model.access_pattern("get_order_by_id").inputs == ("id",)
    assert [(u.reason, u.calls) for u in result.unmapped] == [("column not in the schema", 8)]
    # the two list statements are one pattern (6 + 7 calls) and both conditions they drop are decisions
    merged = result.model.access_pattern("list_orders_by_customer_id")
    assert merged.traffic.average_requests_per_second == 0.003611  # 13 calls / 3,600 s, to 4 significant digits
    assert any("status <> 'cancelled'" in d for d in result.decisions)


HOSTILE_LOGS = {  # issue 30.6: each raised OverflowError, ValueError or _csv.Error (a traceback) in the CLI
    "calls inf": (b"query,calls,total_exec_time\nSELECT 1,inf,2.5\n", "line 2", "'inf' is not a finite number"),
    "calls nan": (b"query,calls,total_exec_time\nSELECT 1,10,2.5\nSELECT 2,nan,1\n", "line 3",
                  "'nan' is not a finite number"),
    "calls 1e400": (b"query,calls,total_exec_time\nSELECT 1,1e400,2.5\n", "line 2",
                    "'1e400' is not a finite number"),
    "field over 1 MB": (b"query,calls,total_exec_time\nSELECT 1,10,2.5\n\"SELECT " + b"x" * (1024 * 1024 + 1)
                        + b"\",10,2.5\n", "line 3", "field larger than field limit"),
}


@pytest.mark.parametrize("case", HOSTILE_LOGS)
def test_a_hostile_query_log_is_a_located_message_not_a_traceback(case: str, tmp_path: Path) -> None:
    data, where, what = HOSTILE_LOGS[case]
    with pytest.raises(ModelFileError) as raised:
        read_query_log(data, "log.csv")
    assert raised.value.problems[0].path == f"log.csv {where}" and what in raised.value.problems[0].message
    log = tmp_path / "log.csv"
    log.write_bytes(data)
    result = run_main(dds_main, ["import", "queries", log, "--schema", FIXTURES / "crm.sql", "-o",
                                 tmp_path / "out.yaml"])
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert f"log.csv {where}" in result.stderr and what in result.stderr, result.stderr
