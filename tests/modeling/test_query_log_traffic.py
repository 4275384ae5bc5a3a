"""Query-log import, issue 31 (3, 5): stored procedures and functions listed with their share of the traffic,
rows per call as the items a read returns, views, session-variable reads, plural batch names and the ORDER BY /
OFFSET parts a pattern drops. Expected values are worked out by hand from tests/fixtures/sql/rental*.csv."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from dds.cli import main as dds_main
from modeling.design.generator import rule_based_designs
from modeling.design.plan_units import read_units_per_request
from modeling.design.sizing import design_sizes
from modeling.interop.query_import import import_queries
from modeling.interop.query_log import read_query_log
from modeling.interop.query_patterns import PROCEDURE, VIEW
from modeling.interop.query_views import read_views
from modeling.interop.relational_import import import_relational
from modeling.interop.sql_import import import_sql
from modeling.model import PatternKind
from tests.cli_runner import run_main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sql"
SCHEMA = (FIXTURES / "rental.sql").read_text(encoding="utf-8")
LOG = FIXTURES / "rental_pg_stat_statements.csv"


def _rental(log: bytes | None = None, row_counts: dict[str, int] | None = None):
    schema = import_sql(SCHEMA, "postgres", "rental.sql", row_counts)
    return import_queries(schema, read_query_log(log or LOG.read_bytes()), 24, 2, read_views(SCHEMA, "postgres"))


def test_calls_of_procedures_and_functions_are_unmapped_with_their_share_of_the_traffic() -> None:
    result = _rental()
    listed = [(u.statement, u.reason, u.calls, round(u.traffic_share, 4)) for u in result.unmapped
              if u.reason == PROCEDURE]
    # calls that read or write data: every row but BEGIN and COMMIT (1,036,800 each) =
    # 864,000 + 518,400 + 259,200 + 86,400 + 43,200 + 17,280 + 8,640 + 4,320 + 2,160 = 1,803,600;
    # 518,400 / 1,803,600 = 0.28743; 259,200 / 1,803,600 = 0.14371
    assert listed == [("CALL rewards_report($1, $2)", PROCEDURE, 518_400, 0.2874),
                      ("SELECT inventory_in_stock($1)", PROCEDURE, 259_200, 0.1437)]
    assert sorted(result.skipped) == ["BEGIN", "COMMIT"]


def test_a_table_function_and_a_mysql_call_are_procedures_and_system_functions_are_skipped() -> None:
    log = (b'query,calls\n"SELECT * FROM film_in_stock($1, $2)",30\n"SELECT version()",20\n'
           b'"SELECT pg_backend_pid()",10\n')
    result = _rental(log)
    assert [(u.reason, u.calls) for u in result.unmapped] == [(PROCEDURE, 30)]
    assert "film_in_stock" in result.unmapped[0].detail
    assert sorted(result.skipped) == ["SELECT pg_backend_pid()", "SELECT version()"]
    mysql = read_query_log(b"DIGEST_TEXT,COUNT_STAR\n\"CALL `rewards_report` ( ? , ? )\",7\n")
    imported = import_queries(import_sql((FIXTURES / "ecommerce.sql").read_text(encoding="utf-8")), mysql, 1, 2)
    assert [(u.reason, u.calls, u.traffic_share) for u in imported.unmapped] == [(PROCEDURE, 7, 1.0)]
    assert "rewards_report" in imported.unmapped[0].detail


def test_rows_per_call_set_the_items_a_read_returns_and_what_it_costs() -> None:
    result = _rental()
    model = result.model
    # 2,592,000 rows / 86,400 calls = 30 customers per store; the counts were assumed (no row counts), so the
    # customers follow the stores: 1,000 stores x 30 = 30,000 customers
    assert model.access_pattern("list_customers_by_store_id").expected_items == 30
    assert model.entity("Customer").item_count == 30_000 and model.entity("Store").item_count == 1_000
    assert any("rows per call" in note and "list_customers_by_store_id" in note for note in result.inferred)
    design = rule_based_designs(model)[0]
    plan = next(p for p in design.plans if p.pattern == "list_customers_by_store_id")
    sizes = design_sizes(model, design.key_design)
    item_bytes = sizes.item_bytes("Customer")  # 170 bytes when written
    assert plan.items_read_per_request == pytest.approx(30)
    # eventually consistent Query: ceil(30 x 170 B / 4,096 B) x 0.5 = ceil(1.245) x 0.5 = 1.0 RCU (it was
    # ceil(1 x 170 / 4,096) x 0.5 = 0.5 when the read was taken to return one customer)
    assert read_units_per_request(model, design.key_design, plan, sizes) == math.ceil(30 * item_bytes / 4096) * 0.5
    assert 30 * item_bytes > 4096  # so the figure above is more than the single item's 0.5


def test_row_counts_given_are_kept_over_the_log() -> None:
    result = _rental(row_counts={"store": 2, "customer": 600, "film": 1000, "rental": 16_000})
    relationship = next(r for r in result.model.relationships if r.name == "store_customer")
    assert relationship.cardinality.mean == 300  # 600 customers / 2 stores, not the log's 30
    assert (result.model.entity("Store").item_count, result.model.entity("Customer").item_count) == (2, 600)


def test_a_query_on_a_simple_view_reads_its_table_under_the_view_condition() -> None:
    log = (b'query,calls,rows\nSELECT * FROM active_customer WHERE store_id = $1,4320,86400\n'
           b'SELECT first_name FROM active_customer WHERE contact_email = $1,100,100\n')
    result = _rental(log)
    by_store = result.model.access_pattern("list_customers_by_store_id")
    assert (by_store.entities, by_store.inputs) == (("Customer",), ("store_id",))
    assert [(f.attribute, f.equals) for f in by_store.filters] == [("active", 1)]
    by_email = result.model.access_pattern("list_customers_by_email")
    assert by_email.inputs == ("email",)  # the view's contact_email is customer.email
    assert any("active_customer is a view of customer" in note for note in result.inferred)
    assert not result.unmapped


def test_a_query_on_a_view_that_joins_is_unmapped_as_a_view() -> None:
    result = _rental(b"query,calls\nSELECT * FROM customer_list WHERE sid = $1,2160\n")
    assert [(u.reason, u.calls) for u in result.unmapped] == [(VIEW, 2160)]
    assert "customer_list is a view" in result.unmapped[0].detail and "joins customer and store" in \
        result.unmapped[0].detail
    assert "CREATE TABLE" not in result.unmapped[0].alternative


def test_the_page_and_the_cli_read_queries_on_views_through_the_schemas_views() -> None:
    # import_relational is what the SQL File tab and `dds import queries` call: the schema file's views must
    # reach the query import there too, not only when a test passes them
    log = b"query,calls,rows\nSELECT * FROM active_customer WHERE store_id = $1,4320,86400\n"
    result = import_relational(SCHEMA.encode(), "rental.sql", log, "log.csv", window_hours=24, peak_to_average=2)
    by_store = result.model.access_pattern("list_customers_by_store_id")
    assert by_store is not None and [(f.attribute, f.equals) for f in by_store.filters] == [("active", 1)]
    assert not result.unmapped


def test_session_variable_reads_are_skipped_not_unparsed() -> None:
    log = read_query_log(b"DIGEST_TEXT,COUNT_STAR\n"
                         b"SELECT @@`session` . `transaction_isolation`,900\n"
                         b"SELECT @@SESSION . `auto_increment_increment` AS `auto_increment_increment`,800\n"
                         b"SELECT * FROM `customers` WHERE `id` = ?,10\n")
    result = import_queries(import_sql((FIXTURES / "ecommerce.sql").read_text(encoding="utf-8")), log, 1, 2)
    assert len(result.skipped) == 2 and not result.unmapped
    assert [m.pattern for m in result.mapped] == ["get_customer_by_id"]


@pytest.mark.parametrize("where", ["film_id = ANY($1)", "film_id IN ($1, $2, $3)"], ids=["any", "in"])
def test_a_batch_read_of_a_singular_table_is_named_in_the_plural(where: str) -> None:
    result = _rental(f"query,calls\n\"SELECT * FROM film WHERE {where}\",5\n".encode())
    assert [(p.name, p.kind) for p in result.model.access_patterns] == [("get_films_by_id", PatternKind.BATCH_READ)]


def test_offset_a_second_order_column_and_an_order_on_a_joined_table_are_said() -> None:
    result = _rental()
    paged = [d for d in result.decisions if d.startswith("list_rentals_by_customer_id:")]
    assert any("OFFSET is dropped" in d for d in paged)
    assert any("ORDER BY rental_date, rental_id" in d and "composite sort key" in d for d in paged)
    joined = [d for d in result.decisions if d.startswith("list_rentals_by_customer_id_2:")]
    assert any("ORDER BY f.title orders by a column of film" in d for d in joined)


def test_cli_lists_the_procedure_with_calls_and_share(tmp_path: Path) -> None:
    result = run_main(dds_main, ["import", "queries", LOG, "--schema", FIXTURES / "rental.sql", "--window-hours",
                                 "24", "-o", tmp_path / "rental.yaml"])
    assert result.returncode == 0, result.stderr
    assert ("unmapped (stored procedure or function): CALL rewards_report($1, $2) (518,400 calls, 28.7 % of the "
            "calls reading or writing data)") in result.stderr
    assert "Traceback" not in result.stderr and "unsupported syntax" not in result.stderr


def test_offset_is_said_only_for_a_read_of_many_items() -> None:
    log = read_query_log(b'DIGEST_TEXT,COUNT_STAR\n"SELECT * FROM `customers` WHERE `id` = ? LIMIT ?, ?",4\n'
                         b'"SELECT * FROM `customers` WHERE `city` = ? ORDER BY `name` LIMIT ? OFFSET ?",4\n')
    result = import_queries(import_sql((FIXTURES / "ecommerce.sql").read_text(encoding="utf-8")), log, 1, 2)
    offsets = [d.split(":")[0] for d in result.decisions if "OFFSET is dropped" in d]
    assert offsets == ["list_customers_by_city"]  # a get by id returns one item: no page to skip to
