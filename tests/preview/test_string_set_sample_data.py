"""A MySQL `SET('a','b')` column becomes an SS attribute (issue 31, item 5), and its sample values are string sets:
loaded into the real moto server over HTTP, each item's attribute is stored as an SS and read back as a Python set
of the declared members. A plain string there was the bug: DynamoDB stored an S in an SS attribute."""

from __future__ import annotations

import itertools

import pytest

from modeling.design.generator import generate_design
from modeling.endpoint.adapter import dynamodb_client
from modeling.interop.sql_import import import_sql
from modeling.preview.dataset import from_dynamodb_json
from modeling.preview.session import load_preview, preview_setup

FORUM = ("CREATE TABLE users (\n"
         "  user_id int NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
         "  roles SET('admin','moderator','member') NOT NULL,\n"
         "  badges SET('early','helpful')\n"
         ");\n")
_tables = itertools.count()


@pytest.fixture(scope="module")
def stored(endpoint):
    model = import_sql(FORUM, "mysql").model
    setup = preview_setup(model, generate_design(model), endpoint, f"sets{next(_tables)}", "forum", 60, 42)
    load_preview(setup)
    client = dynamodb_client(endpoint)
    items = client.scan(TableName=setup.table.name, ConsistentRead=True)["Items"]
    yield items
    client.delete_table(TableName=setup.table.name)


def test_a_set_column_is_stored_as_a_string_set_of_its_declared_members(stored) -> None:
    assert len(stored) == 60
    assert all(set(item["roles"]) == {"SS"} for item in stored)  # the wire type: an SS, never an S
    roles = [from_dynamodb_json(item)["roles"] for item in stored]
    assert all(isinstance(r, set) and r and r <= {"admin", "moderator", "member"} for r in roles)
    # a set, not one value per item: some items hold more than one member, and every member turns up
    assert any(len(r) > 1 for r in roles) and set().union(*roles) == {"admin", "moderator", "member"}


def test_an_optional_set_column_is_absent_or_a_non_empty_string_set(stored) -> None:
    badges = [item["badges"] for item in stored if "badges" in item]
    assert badges and all(set(b) == {"SS"} and 1 <= len(b["SS"]) <= 2 for b in badges)  # DynamoDB has no empty set
    assert len(badges) < len(stored)  # optional: some items lack it
