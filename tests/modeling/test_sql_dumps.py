"""SQL import on what real dumps contain (issue 31, items 1, 2, 4a and 5's schema parts): small files written
for each case, then the real dumps of tests/fixtures/sql/real/ (SOURCES.md). Expected entities, types and
skipped statements are written by hand from the SQL, never read from the importer."""

from __future__ import annotations

from pathlib import Path

import pytest

from dds.cli import main as dds_main
from modeling.interop.query_import import import_queries
from modeling.interop.query_log import read_query_log
from modeling.interop.sql_import import SqlImport, import_sql
from modeling.interop.sql_schema import SqlSchemaError, read_sql_schema
from modeling.model import RelationshipKind
from modeling.model_file import document_problems, model_to_document
from tests.cli_runner import run_main

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "sql" / "real"
JARGON = ("Required keyword", "<class", "sqlglot", "Expecting", "Invalid expression", "Command")


def _relationships(result: SqlImport) -> set[tuple[str, str, str, tuple[str, ...]]]:
    return {(r.kind.value, r.parent, r.child, r.child_attributes) for r in result.model.relationships}


def _skipped(result: SqlImport) -> list[tuple[int, str]]:
    return [(s.line, s.reason) for s in result.schema.skipped]


# --- item 1: a statement the model does not need never refuses the file ---------------------------------------

MYSQLDUMP_ROUTINES = """CREATE TABLE `film` (`film_id` int NOT NULL AUTO_INCREMENT, `length` int,
  PRIMARY KEY (`film_id`));
DELIMITER ;;
CREATE DEFINER=`root`@`localhost` PROCEDURE `film_in_stock`(IN p_film_id INT, OUT p_count INT)
BEGIN
  SELECT COUNT(*) / 2 FROM film WHERE film_id = p_film_id INTO p_count;
END ;;
DELIMITER ;
DELIMITER //
CREATE FUNCTION `half`(x INT) RETURNS INT DETERMINISTIC
BEGIN
  RETURN x / 2;
END//
DELIMITER ;
CREATE TABLE `actor` (`actor_id` int PRIMARY KEY, `film_id` int REFERENCES `film` (`film_id`));
"""


def test_mysqldump_routines_in_delimiter_blocks_are_skipped_with_their_lines_and_the_tables_kept() -> None:
    result = import_sql(MYSQLDUMP_ROUTINES, "mysql")
    assert [e.name for e in result.model.entities] == ["Film", "Actor"]
    assert _relationships(result) == {("one_to_many", "Film", "Actor", ("film_id",))}
    # the procedure starts on line 4, the function on line 10; the DELIMITER lines are used, not skipped
    assert [(s.line, s.summary.split("(")[0]) for s in result.schema.skipped] == [
        (4, "CREATE DEFINER=`root`@`localhost` PROCEDURE `film_in_stock`"), (10, "CREATE FUNCTION `half`")]
    assert [s.reason.split(":")[0] for s in result.schema.skipped] == ["a stored procedure", "a stored function"]


POSTGRES_EXTRAS = """\\c dvdrental;
CREATE FUNCTION public.last_day(timestamp with time zone) RETURNS date
    LANGUAGE sql IMMUTABLE STRICT
    AS $_$
  SELECT CASE WHEN EXTRACT(MONTH FROM $1) = 12
    THEN (((EXTRACT(YEAR FROM $1) + 1) operator(pg_catalog.||) '-01-01')::date - INTERVAL '1 day')::date END;
$_$;
CREATE TABLE public.film (
    film_id integer DEFAULT nextval('public.film_film_id_seq'::regclass) NOT NULL,
    length smallint,
    length_hours numeric(4,2) GENERATED ALWAYS AS (round(length / 60.0, 2)) VIRTUAL
);
ALTER TABLE ONLY public.film ADD CONSTRAINT film_pkey PRIMARY KEY (film_id);
CREATE VIEW public.long_films AS SELECT * FROM public.film WHERE length > 120;
"""


def test_postgres_function_psql_command_and_virtual_column_are_not_refusals() -> None:
    result = import_sql(POSTGRES_EXTRAS, "postgres")
    film = result.model.entity("Film")
    assert film is not None and film.identifiers == ("film_id",)
    assert _skipped(result) == [
        (1, "a psql command (connect, settings), read by psql, not SQL"),
        (2, "a stored function: code that runs in the database, not data the model holds"),
        (14, "a view: a saved query, not stored data (what it reads belongs in access patterns)")]
    # GENERATED ALWAYS AS (...) VIRTUAL: computed by the database, so a float range, never a sequence
    hours = film.attribute("length_hours")
    assert hours.type == "N" and hours.generator.kind == "float_range"
    assert any("length_hours is computed by the database" in note for note in result.inferred)
    assert film.attribute("film_id").generator.kind == "sequence"


@pytest.mark.parametrize(("sql", "dialect"), [
    ("CREATE TABLE t (id int PRIMARY KEY);\nDELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END//\n"
     "DELIMITER ;\n", "mysql"),
    ("CREATE TABLE t (id int PRIMARY KEY);\nCREATE FUNCTION f() RETURNS int AS $$ BEGIN SELECT 1; RETURN 2; END $$ "
     "LANGUAGE plpgsql;\n", "postgres"),
])
def test_without_a_dialect_the_reading_that_keeps_routines_whole_wins(sql: str, dialect: str) -> None:
    """Both readings find table t; read the wrong way, the routine falls apart at each `;` inside it."""
    result = import_sql(sql)
    assert result.schema.dialect.value == dialect and len(result.schema.skipped) == 1


def test_an_unreadable_create_table_refuses_the_file_in_plain_words_with_what_to_do() -> None:
    sql = "CREATE PROCEDURE p() BEGIN SELECT 1 / ; END;\nCREATE TABLE t (\n  id int,\n  name text NOT NUL\n);\n"
    with pytest.raises(SqlSchemaError) as raised:
        read_sql_schema(sql, "postgres")
    problem = raised.value.problems[0]
    # line 4 `  name text NOT NUL`: NOT spans columns 13 to 15, and the column given is its end (as before)
    assert (raised.value.line, raised.value.column) == (4, 15)
    assert "the table t cannot be read" in problem.message and "--dialect" in problem.suggestion
    assert not any(word in str(raised.value) for word in JARGON), str(raised.value)


def test_the_cli_lists_skipped_statements_and_never_shows_a_traceback(tmp_path: Path) -> None:
    schema = tmp_path / "dump.sql"
    schema.write_text(MYSQLDUMP_ROUTINES, encoding="utf-8")
    result = run_main(dds_main, ["import", "sql", schema, "--dialect", "mysql", "-o", tmp_path / "m.yaml"])
    assert result.returncode == 0 and "2 entities" in result.stderr
    assert "skipped: line 4: CREATE DEFINER=`root`@`localhost` PROCEDURE" in result.stderr
    assert "skipped: line 10: CREATE FUNCTION `half`(x INT) RETURNS INT DETERMINISTIC: a stored function" \
        in result.stderr
    bad = tmp_path / "bad.sql"
    bad.write_text("\\c shop\nCREATE TABLE t (id int, x int NOT NUL);\n", encoding="utf-8")
    result = run_main(dds_main, ["import", "sql", bad, "--dialect", "postgres"])
    assert result.returncode == 1 and "line 2, column" in result.stderr and "the table t cannot be read" in \
        result.stderr and "Traceback" not in result.stderr


# --- item 2: partitions are one entity ---------------------------------------------------------------------------

PARTITIONS = """CREATE TABLE customer (customer_id int PRIMARY KEY);
CREATE TABLE payment (payment_id int NOT NULL, customer_id int NOT NULL, paid_on date NOT NULL)
    PARTITION BY RANGE (paid_on);
CREATE TABLE payment_2022 PARTITION OF payment FOR VALUES FROM ('2022-01-01') TO ('2023-01-01');
CREATE TABLE public.payment_2023 (payment_id int NOT NULL, customer_id int NOT NULL, paid_on date NOT NULL);
ALTER TABLE ONLY public.payment ATTACH PARTITION public.payment_2023 FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
ALTER TABLE ONLY public.payment_2023 ADD CONSTRAINT payment_2023_pkey PRIMARY KEY (payment_id, paid_on);
ALTER TABLE ONLY public.payment_2023 ADD CONSTRAINT payment_2023_customer_fkey FOREIGN KEY (customer_id)
    REFERENCES customer (customer_id);
CREATE TABLE refund (refund_id int PRIMARY KEY, payment_id int, paid_on date,
    FOREIGN KEY (payment_id, paid_on) REFERENCES payment_2023 (payment_id, paid_on));
"""


def test_partitions_fold_into_their_table_with_the_keys_and_foreign_keys_declared_on_them() -> None:
    result = import_sql(PARTITIONS, "postgres")
    assert [e.name for e in result.model.entities] == ["Customer", "Payment", "Refund"]
    assert result.model.entity("Payment").identifiers == ("payment_id", "paid_on")  # the partition's key
    assert _relationships(result) == {
        ("one_to_many", "Customer", "Payment", ("customer_id",)),  # declared on payment_2023
        ("one_to_many", "Payment", "Refund", ("payment_id", "paid_on")),  # a reference to a partition
    }
    assert result.schema.partitions == (("payment", ("payment_2022", "payment_2023")),)
    assert any(note.startswith("payment is partitioned: its 2 partitions") for note in result.inferred)
    assert not any("AS SELECT" in note for note in result.decisions + result.inferred)


def test_partitions_with_their_own_constraints_a_default_partition_and_mysql_partition_clauses() -> None:
    sql = ("CREATE TABLE m (id int NOT NULL, d date NOT NULL) PARTITION BY LIST (d);\n"
           "CREATE TABLE m_default PARTITION OF m DEFAULT;\n"
           "CREATE TABLE m_a PARTITION OF m (CONSTRAINT m_a_pk PRIMARY KEY (id, d)) FOR VALUES IN ('2020-01-01');\n")
    result = import_sql(sql, "postgres")
    assert [(e.name, e.identifiers) for e in result.model.entities] == [("M", ("id", "d"))]
    assert result.schema.partitions == (("m", ("m_a", "m_default")),)
    # MySQL's PARTITION BY ... VALUES LESS THAN MAXVALUE, which sqlglot cannot read: storage, one table
    mysql = ("CREATE TABLE sales (id int NOT NULL, sold date NOT NULL, PRIMARY KEY (id, sold)) ENGINE=InnoDB\n"
             "PARTITION BY RANGE (YEAR(sold)) (PARTITION p0 VALUES LESS THAN (2020),\n"
             "  PARTITION p1 VALUES LESS THAN MAXVALUE);\n")
    assert [(e.name, e.identifiers) for e in import_sql(mysql, "mysql").model.entities] == [("Sale", ("id", "sold"))]


# --- item 4a: pg_dump's SERIAL is assigned by the database --------------------------------------------------------

def test_default_nextval_is_database_assigned_and_an_insert_without_it_asks_for_an_application_id() -> None:
    sql = ("CREATE TABLE orders (id integer NOT NULL, note text);\n"
           "ALTER TABLE ONLY orders ADD CONSTRAINT orders_pkey PRIMARY KEY (id);\n"
           "ALTER TABLE ONLY orders ALTER COLUMN id SET DEFAULT nextval('orders_id_seq'::regclass);\n"
           "CREATE TABLE lines (id integer DEFAULT pg_catalog.nextval('lines_id_seq') PRIMARY KEY);\n"
           "CREATE TABLE notes (id integer NOT NULL);\n"
           "ALTER TABLE public.notes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (\n"
           "    SEQUENCE NAME public.notes_id_seq START WITH 1);\n")
    schema = import_sql(sql, "postgres")
    assert [schema.schema.table(t).column("id").auto_increment for t in ("orders", "lines", "notes")] == [True] * 3
    assert not schema.schema.skipped  # every ALTER here says something the model uses
    log = read_query_log(b"query,calls,total_exec_time,rows\nINSERT INTO orders (note) VALUES ($1),1000,1.0,1000\n")
    result = import_queries(schema, log, 24)
    assert any("the database assigns id" in d and "generate it in the application" in d for d in result.decisions)


# --- item 5: types, join tables, prefixes, guessed references -----------------------------------------------------

FORUM = """CREATE TABLE phpbb_users (
  user_id int UNSIGNED NOT NULL AUTO_INCREMENT,
  user_allow_pm tinyint(1) UNSIGNED NOT NULL DEFAULT '1',
  born YEAR,
  roles SET('admin','moderator','member') NOT NULL,
  name_length int GENERATED ALWAYS AS (user_id * 2) VIRTUAL,
  PRIMARY KEY (user_id)
);
CREATE TABLE phpbb_groups (group_id int NOT NULL AUTO_INCREMENT PRIMARY KEY, group_name varchar(40));
CREATE TABLE phpbb_user_group (
  user_id int UNSIGNED NOT NULL,
  group_id int NOT NULL,
  UNIQUE KEY user_group (user_id, group_id),
  FOREIGN KEY (user_id) REFERENCES phpbb_users (user_id),
  FOREIGN KEY (group_id) REFERENCES phpbb_groups (group_id)
);
"""


def test_mysql_flag_year_set_and_generated_columns_get_their_dynamodb_types() -> None:
    user = import_sql(FORUM, "mysql").model.entity("PhpbbUser")
    assert [(a.name, a.type) for a in user.attributes] == [
        ("user_id", "N"), ("user_allow_pm", "BOOL"), ("born", "N"), ("roles", "SS"), ("name_length", "N")]
    born = user.attribute("born").generator  # MySQL's YEAR: 1901 to 2155
    assert (born.kind, born.min, born.max) == ("int_range", 1901, 2155)
    roles = user.attribute("roles").generator  # the members a sample item's set is drawn from
    assert (roles.kind, roles.values) == ("enum", ("admin", "moderator", "member"))
    assert user.attribute("name_length").generator.kind == "int_range"  # computed: not a sequence
    assert user.attribute("user_allow_pm").generator.kind == "boolean"


def test_a_postgres_domain_gives_its_base_type_and_checks() -> None:
    sql = ("CREATE DOMAIN public.year AS integer CONSTRAINT year_check CHECK (((VALUE >= 1901) AND (VALUE <= 2155)));\n"
           "CREATE DOMAIN public.code AS character varying(8);\n"
           "CREATE TABLE film (film_id int PRIMARY KEY, release_year public.year, code public.code NOT NULL);\n")
    film = import_sql(sql, "postgres").model.entity("Film")
    release = film.attribute("release_year")
    assert release.type == "N" and (release.generator.kind, release.generator.min, release.generator.max) == \
        ("int_range", 1901, 2155)
    code = film.attribute("code")
    assert code.type == "S" and code.required and code.max_size_bytes == 32  # VARCHAR(8): 8 x 4 bytes


def test_a_join_table_keyed_by_unique_is_many_to_many_and_needs_no_uniqueness_item_for_its_key() -> None:
    result = import_sql(FORUM, "mysql")
    assert ("many_to_many", "PhpbbGroup", "PhpbbUser", ()) in _relationships(result)
    assert result.model.entity("PhpbbUserGroup").identifiers == ("user_id", "group_id")
    assert not any("UNIQUE (user_id, group_id)" in d for d in result.decisions)


def test_a_shared_table_prefix_is_offered_then_stripped_when_asked(tmp_path: Path) -> None:
    offered = import_sql(FORUM, "mysql")
    assert any("Every table name starts with `phpbb_`" in d and "--strip-prefix" in d for d in offered.decisions)
    stripped = import_sql(FORUM, "mysql", table_prefix="")
    assert [e.name for e in stripped.model.entities] == ["User", "Group", "UserGroup"]
    assert stripped.stripped_prefix == "phpbb_"
    assert "The prefix `phpbb_` was stripped from 3 table names to name the entities." in stripped.inferred
    assert {r.name for r in stripped.model.relationships} >= {"user_user_group", "group_user_via_user_group"}
    schema = tmp_path / "forum.sql"
    schema.write_text(FORUM, encoding="utf-8")
    result = run_main(dds_main, ["import", "sql", schema, "--strip-prefix", "-o", tmp_path / "m.yaml"])
    assert result.returncode == 0 and "was stripped from 3 table names" in result.stderr
    assert "name: UserGroup" in (tmp_path / "m.yaml").read_text(encoding="utf-8")


def test_references_a_schema_does_not_declare_are_guessed_from_names_and_never_made_relationships() -> None:
    sql = ("CREATE TABLE queues (id int PRIMARY KEY, name text);\n"
           "CREATE TABLE users (id int PRIMARY KEY);\n"
           "CREATE TABLE tickets (id int PRIMARY KEY, queue_id int, owner_id int, user_id int REFERENCES users);\n")
    result = import_sql(sql, "postgres")
    # queue_id names `queues`; owner_id names no table; user_id is a declared foreign key
    assert [(g.table, g.column, g.parent, g.parent_column) for g in result.guesses] == [
        ("tickets", "queue_id", "queues", "id")]
    assert _relationships(result) == {("one_to_many", "User", "Ticket", ("user_id",))}
    assert any(d.startswith("tickets.queue_id looks like a reference to queues (a guess") for d in result.decisions)
    prefixed = import_sql(sql.replace("queues", "ost_queue").replace("users", "ost_user").replace(
        "tickets", "ost_ticket"), "postgres")  # the shared prefix `ost_` is no part of the name a column uses
    assert [(g.table, g.column, g.parent) for g in prefixed.guesses] == [("ost_ticket", "queue_id", "ost_queue")]


# --- the real dumps ------------------------------------------------------------------------------------------------

# (file, dialect, CREATE TABLEs, entities, relationships, skipped statements, guessed references)
# CREATE TABLEs: `grep -ciE '^\s*CREATE TABLE'` of each file; pagila's 71 are 16 tables and the 55 partitions
# of payment (`grep -c 'ATTACH PARTITION'` = 55), so 16 entities. Relationships: one per FOREIGN KEY
# (deduplicated across partitions) plus one many-to-many per join table: sakila and pagila 22 FKs + film_actor
# and film_category; chinook 11 FKs + playlist_track; northwind 13 FKs + order_details, employee_territories,
# customer_customer_demo; kanboard 59 (PostgreSQL) / 61 (MySQL) FKs + 5 tables keyed by UNIQUE of two FKs.
# Skipped statements are pinned from the run that checked each reason by hand (a regression pin).
DUMPS = [
    ("pagila-schema.sql", "postgres", 71, 16, 24, 202, 0),
    ("sakila-mysql-schema.sql", "mysql", 16, 16, 24, 25, 0),
    ("chinook-postgresql.sql", "postgres", 11, 11, 12, 38, 0),
    ("chinook-mysql.sql", "mysql", 11, 11, 12, 38, 0),
    ("northwind-postgresql.sql", "postgres", 14, 14, 16, 58, 0),
    ("kanboard-postgresql.sql", "postgres", 48, 48, 64, 143, 8),
    ("kanboard-mysql.sql", "mysql", 48, 48, 66, 244, 6),  # 105 statements + 139 `/*!...*/;` (grep -c '/\*!')
    # 5 tables, 5 REFERENCES: 3 to Supabase's auth.users, which the file does not create, so 2 relationships
    ("saas-subscriptions-postgresql.sql", "postgres", 5, 5, 2, 14, 0),
    # Flarum: 23 (MySQL) / 24 (PostgreSQL) FOREIGN KEYs + 3 join tables (discussion_user, group_user, post_user)
    ("flarum-forum-mysql.sql", "mysql", 17, 17, 26, 146, 0),
    ("flarum-forum-postgresql.sql", "postgres", 18, 18, 27, 147, 0),
]


@pytest.mark.parametrize(("name", "dialect", "tables", "entities", "relationships", "skipped", "guesses"), DUMPS)
def test_real_dumps_import_without_refusal_and_keep_their_counts(name: str, dialect: str, tables: int,
                                                                entities: int, relationships: int, skipped: int,
                                                                guesses: int) -> None:
    text = (REAL / name).read_text(encoding="utf-8")
    result = import_sql(text, None, name)  # no --dialect: the importer finds it
    schema = result.schema
    assert schema.dialect.value == dialect
    assert len(schema.tables) + sum(len(p) for _, p in schema.partitions) == tables
    assert (len(result.model.entities), len(result.model.relationships), len(schema.skipped), len(result.guesses)) \
        == (entities, relationships, skipped, guesses)
    assert all(s.reason and not any(word in s.reason for word in JARGON) for s in schema.skipped)
    assert not [s for s in schema.skipped if s.summary.upper().startswith("CREATE TABLE")]
    document = model_to_document(result.model)
    assert not [p for p in document_problems(document) if p.severity.value == "error"]


def test_pagila_payment_is_one_entity_with_the_relationships_its_partitions_declare() -> None:
    result = import_sql((REAL / "pagila-schema.sql").read_text(encoding="utf-8"), "postgres")
    assert not [e.name for e in result.model.entities if e.name.startswith("PaymentP")]
    # pg_dump declares payment's foreign keys on each partition (payment_p2022_01_customer_id_fkey ...)
    assert {(r.parent, r.child_attributes) for r in result.model.relationships if r.child == "Payment"} == {
        ("Customer", ("customer_id",)), ("Rental", ("rental_id",)), ("Staff", ("staff_id",))}
    film = result.model.entity("Film")
    assert film.attribute("release_year").type == "N"  # the `year` domain: integer
    assert film.attribute("length_hours").generator.kind == "float_range"  # GENERATED ... VIRTUAL
    summaries = [s.summary for s in result.schema.skipped]
    assert "CREATE FUNCTION public.last_day(timestamp with time zone) RETURNS date" in summaries


def test_sakila_routines_and_chinook_psql_command_are_listed_as_skipped() -> None:
    sakila = import_sql((REAL / "sakila-mysql-schema.sql").read_text(encoding="utf-8"), "mysql")
    kinds = [s.reason.split(":")[0] for s in sakila.schema.skipped]
    # the file: 3 triggers (DELIMITER ;;), 3 procedures and 3 functions (DELIMITER // and $$), 7 views
    assert (kinds.count("a trigger"), kinds.count("a stored procedure"), kinds.count("a stored function"),
            kinds.count("a view")) == (3, 3, 3, 7)
    chinook = import_sql((REAL / "chinook-postgresql.sql").read_text(encoding="utf-8"), "postgres")
    assert (28, "a psql command (connect, settings), read by psql, not SQL") in _skipped(chinook)
    assert chinook.model.relationships and all(r.kind in (RelationshipKind.ONE_TO_MANY, RelationshipKind.MANY_TO_MANY)
                                               for r in chinook.model.relationships)


def test_flarum_forum_tables_lose_their_db_prefix_when_asked_and_its_flags_are_booleans() -> None:
    text = (REAL / "flarum-forum-mysql.sql").read_text(encoding="utf-8")
    offered = import_sql(text, "mysql")
    assert any(d.startswith("Every table name starts with `db_prefix_`") for d in offered.decisions)
    result = import_sql(text, "mysql", table_prefix="")
    names = {e.name for e in result.model.entities}
    assert {"User", "Discussion", "Post", "Group", "DiscussionUser"} <= names
    assert not [n for n in names if n.startswith("DbPrefix")]
    assert result.model.entity("Discussion").attribute("is_private").type == "BOOL"  # tinyint(1)
    assert ("many_to_many", "Discussion", "User", ()) in _relationships(result)


def test_kanboard_serials_written_as_alter_column_set_default_are_database_assigned() -> None:
    result = import_sql((REAL / "kanboard-postgresql.sql").read_text(encoding="utf-8"), "postgres")
    # `grep -c 'SET DEFAULT "nextval"'` = 33 columns, one per SERIAL table
    assert sum(c.auto_increment for t in result.schema.tables for c in t.columns) == 33


def test_a_reference_to_a_schema_the_file_does_not_create_is_not_a_table_of_the_same_name() -> None:
    """Supabase's `users.id references auth.users` was a one-to-one from users to itself."""
    sql = ("CREATE TABLE public.users (id uuid REFERENCES auth.users NOT NULL PRIMARY KEY);\n"
           "CREATE TABLE orders (id int PRIMARY KEY, user_id uuid REFERENCES public.users (id));\n")
    result = import_sql(sql, "postgres")
    assert _relationships(result) == {("one_to_many", "User", "Order", ("user_id",))}
    assert "users.id references auth.users, which the schema does not create: no relationship was made." in \
        result.decisions


def test_mysqldump_versioned_comments_are_listed_as_what_mysql_runs() -> None:
    sql = ("/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
           "CREATE TABLE t (id int PRIMARY KEY);\n"
           "/*!50001 CREATE VIEW `v` AS SELECT 1 AS `id` */;\n"
           "-- a plain comment; with a semicolon\n")
    assert _skipped(import_sql(sql, "mysql")) == [
        (1, "a MySQL versioned comment: a session setting"),
        (3, "a MySQL versioned comment: a view: a saved query, not stored data (what it reads belongs in access "
            "patterns)")]


def test_a_unique_index_the_import_cannot_map_to_columns_is_listed_as_a_lost_rule() -> None:
    sql = ("CREATE TABLE users (id int PRIMARY KEY, email text, deleted_at timestamp);\n"
           "CREATE UNIQUE INDEX users_email ON users (lower(email));\n"
           "CREATE UNIQUE INDEX users_live ON users (email) WHERE deleted_at IS NULL;\n"
           "CREATE INDEX users_deleted ON users (deleted_at);\n")
    result = import_sql(sql, "postgres")
    assert result.schema.table("users").unique_sets == ()  # email is unique among live users only
    reasons = [s.reason.split(":")[0] for s in result.schema.skipped]
    assert reasons[:2] == ["a unique index on an expression or on some rows (WHERE), not on plain columns"] * 2
    assert reasons[2] == "an index"


def test_a_table_whose_columns_are_named_like_objects_is_still_a_table() -> None:
    """Kanboard's `CREATE TABLE ... ("type" ..., "user_id" ...)` was once taken for a CREATE TYPE and lost."""
    sql = ('CREATE TABLE "public"."settings" ("type" text, "view" text, "index" int, "function" text);\n'
           "CREATE OR REPLACE VIEW v AS SELECT 1 AS table_count;\n")
    result = import_sql(sql, "postgres")
    assert [e.name for e in result.model.entities] == ["Setting"]
    assert [s.reason.split(":")[0] for s in result.schema.skipped] == ["a view"]
