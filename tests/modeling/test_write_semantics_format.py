"""The write-semantics fields of the model format (issue 16): a good file loads as typed, version-1
files without them load unchanged, and the JSON Schema accepts what the loader accepts.

The bad files (each with its message) are in bad_files/write_semantics_*.yaml, checked by test_bad_files.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from modeling.errors import Severity
from modeling.examples import EXAMPLES_DIR
from modeling.model import (
    AttributeUpdate,
    AuxiliaryKind,
    ComparisonOperator,
    ConditionKind,
    Model,
    TransactAction,
    UpdateAction,
    WriteCondition,
)
from modeling.model_file import document_problems, load_model_file, parse_document
from tests.fixture_files import FIXTURES_DIR

WALLET = FIXTURES_DIR / "write-semantics" / "wallet.yaml"
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "model.schema.json").read_text("utf-8"))
NEW_FIELDS = ("condition", "updates", "soft_delete", "members", "auxiliary_items", "auxiliary")


def test_the_wallet_file_loads_without_errors_and_every_field_is_typed() -> None:
    problems = document_problems(parse_document(WALLET.read_bytes(), WALLET.name))
    assert [p for p in problems if p.severity is Severity.ERROR] == []
    model = load_model_file(WALLET)
    create = model.access_pattern("create_user_by_id")
    assert create is not None and create.condition == WriteCondition(kind=ConditionKind.ATTRIBUTE_NOT_EXISTS)
    spend = model.access_pattern("spend_coins_by_user")
    assert spend is not None and spend.condition is not None
    assert (spend.condition.kind, spend.condition.operator, spend.condition.input) == (
        ConditionKind.COMPARE, ComparisonOperator.GREATER_THAN_OR_EQUAL, "price")  # kind defaults to compare
    assert spend.updates[0].action is UpdateAction.ADD and spend.updates[0].negate
    assert spend.value_inputs == ("price",)  # a value the request carries, not an attribute
    pay = model.access_pattern("pay_user_by_ids")
    assert pay is not None and [m.action for m in pay.members] == [TransactAction.UPDATE, TransactAction.UPDATE,
                                                                    TransactAction.PUT]
    assert pay.members[0].key_inputs == {"userId": "fromUserId"}
    delete = model.access_pattern("delete_user_by_id")
    assert delete is not None and delete.soft_delete is not None
    assert (delete.soft_delete.expires_after_days, delete.soft_delete.archive_entity) == (30, "UserArchive")
    assert delete.changed == ("status", "deletedAt")  # what decides its index writes
    like = model.entity("Like")
    assert like is not None and like.auxiliary_items[0].kind is AuxiliaryKind.AGGREGATE


def test_a_version_condition_counts_its_attribute_as_changed() -> None:
    model = load_model_file(WALLET)
    change = model.access_pattern("change_email_by_user")
    assert change is not None and change.changed == ("email", "version")


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_a_version_1_file_without_the_new_fields_loads_unchanged(path: Path) -> None:
    document = yaml.safe_load(path.read_text("utf-8"))
    uses_new = any(f in json.dumps(document) for f in ('"condition"', '"updates"', '"soft_delete"', '"members"',
                                                         '"auxiliary_items"'))
    model = Model.model_validate(document)
    dumped = json.dumps(model.model_dump(mode="json", exclude_defaults=True))
    assert document["version"] == 1 and model.version == 1
    if not uses_new:
        assert not any(f'"{f}"' in dumped for f in NEW_FIELDS)


@pytest.mark.parametrize("condition", ["attribute_not_exists", "attribute_exists",
                                       {"kind": "version_matches", "attribute": "version"},
                                       {"attribute": "currency", "operator": ">=", "input": "amount"}])
def test_the_schema_accepts_every_condition_form_the_loader_accepts(condition: object) -> None:
    WriteCondition.model_validate(condition)
    jsonschema.validate(condition, {**SCHEMA["$defs"]["WriteCondition"], "$defs": SCHEMA["$defs"]})


def test_the_schema_rejects_an_unknown_condition_shorthand() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("version_matches", {**SCHEMA["$defs"]["WriteCondition"], "$defs": SCHEMA["$defs"]})
    with pytest.raises(ValueError, match="version_matches needs `attribute`"):
        WriteCondition.model_validate("version_matches")


def test_the_wallet_file_is_valid_against_the_json_schema() -> None:
    jsonschema.validate(yaml.safe_load(WALLET.read_text("utf-8")), SCHEMA)


@pytest.mark.parametrize("update", [{"attribute": "status", "value": "on_loan"},
                                    {"attribute": "tier", "action": "if_not_exists", "value": 3},
                                    {"attribute": "xp", "action": "ADD", "input": "points"}])
def test_an_update_may_set_a_constant_and_the_schema_agrees(update: dict) -> None:
    parsed = AttributeUpdate.model_validate(update)
    assert parsed.value == update.get("value")
    jsonschema.validate(update, {**SCHEMA["$defs"]["AttributeUpdate"], "$defs": SCHEMA["$defs"]})


@pytest.mark.parametrize(("update", "message"), [
    ({"attribute": "status", "value": "on_loan", "input": "status"}, "either a constant `value` or an `input`"),
    ({"attribute": "status", "action": "REMOVE", "value": "x"}, "REMOVE takes no value"),
    ({"attribute": "xp", "action": "ADD", "value": 1}, "ADD takes a constant `amount`")])
def test_a_constant_where_it_means_nothing_is_refused_with_the_fix(update: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AttributeUpdate.model_validate(update)


def test_a_put_member_says_what_its_new_item_holds_but_cannot_add_to_it() -> None:
    document = yaml.safe_load(WALLET.read_text("utf-8"))
    pay = next(p for p in document["access_patterns"] if p["name"] == "pay_user_by_ids")
    pay["members"][2]["updates"] = [{"attribute": "amount", "input": "amount"}]
    assert [p for p in document_problems(document) if p.severity is Severity.ERROR] == []
    pay["members"][2]["updates"] = [{"attribute": "amount", "action": "ADD", "amount": 1}, {"attribute": "toUserId"}]
    errors = [p for p in document_problems(document) if p.severity is Severity.ERROR]
    assert [p.path for p in errors] == ["access_patterns[pay_user_by_ids].members[2].updates[amount]",
                                        "access_patterns[pay_user_by_ids].members[2].updates[toUserId]"]
    assert "Put writes a new item" in errors[0].message and "needs a value" in errors[1].message


@pytest.mark.parametrize(("where", "constant", "fine"), [
    ("condition", {"attribute": "coins", "operator": ">=", "value": "100"}, False),  # N compared with a string
    ("condition", {"attribute": "coins", "operator": ">=", "value": 100}, True),
    ("condition", {"attribute": "status", "operator": "=", "value": 1}, False),  # S compared with a number
    ("condition", {"attribute": "status", "operator": "=", "value": "ACTIVE"}, True),
    ("updates", [{"attribute": "coins", "value": "zero"}], False),  # SET a Number to a string
    ("updates", [{"attribute": "status", "value": "BANNED"}], True),
])
def test_a_constant_of_another_type_than_its_attribute_is_an_error(where: str, constant: object,
                                                                   fine: bool) -> None:
    """Issue 27: a constant whose type differs from its attribute's compares unequal in DynamoDB (a condition
    that never holds) or changes the attribute's type (a SET); both are refused, with the fix."""
    document = yaml.safe_load(WALLET.read_text("utf-8"))
    earn = next(p for p in document["access_patterns"] if p["name"] == "earn_coins_by_user")
    earn[where] = constant
    errors = [p for p in document_problems(document) if p.severity is Severity.ERROR and "the constant" in p.message]
    assert (errors == []) is fine
    if not fine:
        assert errors[0].path.startswith(f"access_patterns[earn_coins_by_user].{where}")
        assert "write a constant of type" in errors[0].suggestion
