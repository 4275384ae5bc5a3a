"""No generated file runs code from a model: user text (names, descriptions, item values) is data in every one.

The generators write a fixed program with user text in data slots only: a string literal in Python, a JSON
expression in JavaScript, a YAML scalar, an HCL string. So the property, for any text: the file parses, and
with its data slots blanked it is the same program as the one generated for a plain name: the same syntax
tree, the same comments and docstrings (what a reader is told), the same YAML/HCL structure. A `\"\"\"`, a
newline, `*/` or `${` that escaped its slot would change the program or stop it parsing. Each slot still holds
the text exactly, so nothing is lost to the user. `test_payload_names_run_nothing` runs the files.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tokenize
from decimal import Decimal
from pathlib import Path
from typing import Any

import hcl2
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from modeling.design.generator import rule_based_designs
from modeling.design.plans import Operation
from modeling.examples import load_example
from modeling.interop.infrastructure import IacFormat, cloudformation_template, infrastructure_code, terraform_config
from modeling.migration.plan import MigrationSpec, migration_spec
from modeling.migration.script import migration_script, script_main
from modeling.model import Model
from modeling.preview.code import cli_command, javascript_code, python_code
from modeling.preview.dataset import json_value
from modeling.preview.loadtest import PatternLoad
from modeling.preview.loadtest_scripts import k6_script, locust_file
from modeling.preview.requests import PatternRequest, typed_params
from tests.evolution_models import library, with_loans_by_book

ROOT = Path(__file__).resolve().parents[1]
PLAIN = "Reference"
# What closes a string, docstring or comment, or starts a template, in one of the generated languages
FRAGMENTS = ('"', "'", "\\", "\n", "\r\n", "\r", '"""', "'''", "*/", "/*", "//", "${", "}", "{", "`", "#",
             "-->", "<!--", "%(prog)s", "%", "$${", "%{", "\u2028", "\u2029", "\x00", "\x85", "\u202e", "é", "✓",
             "🙂", "import os; os.system('touch pwned')", "\\n", "'); x = ('")
hostile_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(min_size=1, max_size=4)),
                        min_size=1, max_size=8).map("".join)
EXAMPLES = settings(max_examples=30)


# --- what a file does, with its data blanked ----------------------------------------------------------------


def python_shape(source: str) -> str:
    """The program's syntax tree with every string and bytes value blanked except docstrings and other
    statement-level strings, plus its comments: what runs and what a reader is told, without the data."""
    tree = ast.parse(source)
    told = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes) and id(node) not in told:
            node.value = "<data>"
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    return ast.dump(tree) + "\n" + "\n".join(comments)


def module_constant(source: str, name: str) -> Any:
    """The literal value of a module-level `NAME = <literal>`."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"no {name} = ... in the file")


def json_slots(source: str, *prefixes: str) -> tuple[str, list[Any]]:
    """The JavaScript with each `<prefix><JSON>;` line's JSON blanked, and the JSON values (JSON is an
    ECMAScript expression holding only data)."""
    lines, values = [], []
    for line in source.split("\n"):
        prefix = next((p for p in prefixes if line.startswith(p)), None)
        if prefix is not None:
            assert line.endswith(";"), line
            values.append(json.loads(line[len(prefix):-1]))
            line = prefix + "<data>;"
        lines.append(line)
    return "\n".join(lines), values


def _leading_comments(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:next(i for i, line in enumerate(lines) if not line.startswith("#"))]


# --- the migration script ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec() -> MigrationSpec:
    return migration_spec(library(), library(with_loans_by_book()))[0]


@pytest.fixture(scope="module")
def plain_migration_shape(spec: MigrationSpec) -> str:
    return python_shape(migration_script(_renamed(spec, PLAIN, PLAIN, PLAIN)))


def _renamed(spec: MigrationSpec, old_name: str, new_name: str, description: str) -> MigrationSpec:
    return dataclasses.replace(spec, old=spec.old.model_copy(update={"name": old_name, "description": description}),
                               new=spec.new.model_copy(update={"name": new_name}))


@EXAMPLES
@given(old_name=hostile_text, new_name=hostile_text, description=hostile_text)
def test_migration_script_holds_model_text_as_data(spec: MigrationSpec, plain_migration_shape: str, old_name: str,
                                                   new_name: str, description: str) -> None:
    source = migration_script(_renamed(spec, old_name, new_name, description))
    assert python_shape(source) == plain_migration_shape
    assert (module_constant(source, "OLD_MODEL_NAME"), module_constant(source, "NEW_MODEL_NAME")) == (
        old_name, new_name)  # shown readably in the file
    assert json.loads(module_constant(source, "SPEC"))["old"]["description"] == description


@EXAMPLES
@given(name=hostile_text)
def test_migration_script_help_names_the_models_without_a_traceback(spec: MigrationSpec, name: str) -> None:
    """argparse %-formats a description holding `%(prog)`: a name must not become a format (or a crash)."""
    out = io.StringIO()
    with pytest.raises(SystemExit) as done, contextlib.redirect_stdout(out):
        script_main(_document(_renamed(spec, name, PLAIN, "")), ["--help"])
    assert done.value.code == 0
    shown = "".join(out.getvalue().split())  # argparse rewraps the description
    assert "".join(repr(name).split()) in shown




def _document(spec: MigrationSpec) -> str:
    return module_constant(migration_script(spec), "SPEC")


# --- the load tests ---------------------------------------------------------------------------------------


def _load_test_input(text: str) -> tuple[Model, tuple[PatternLoad, ...]]:
    chat = load_example("chat_messages")
    model = chat.model_copy(update={"name": text, "table": chat.table.model_copy(update={"region": text})})
    request = {"TableName": model.table.name, "Key": {"PK": {"S": text}, "SK": {"S": "x" + text}}}
    return model, (PatternLoad(text, Operation.GET_ITEM, 1.0, 1000, (request,)),)


@functools.cache
def _plain_locust_shape() -> str:
    return python_shape(locust_file(*_load_test_input(PLAIN), "locustfile.py"))


@functools.cache
def _plain_k6_blanked() -> str:
    return json_slots(k6_script(*_load_test_input(PLAIN), "loadtest.mjs"), "const MODEL = ", "const PATTERNS = ")[0]


@EXAMPLES
@given(text=hostile_text)
def test_locust_file_holds_model_and_request_text_as_data(text: str) -> None:
    source = locust_file(*_load_test_input(text), "locustfile.py")
    assert python_shape(source) == _plain_locust_shape()
    model = json.loads(ast.literal_eval(source.split("\nMODEL = json.loads(")[1].split(")\n")[0]))
    assert model["name"] == text


@EXAMPLES
@given(text=hostile_text)
def test_k6_script_holds_model_and_request_text_as_data(text: str) -> None:
    blanked, (model, patterns) = json_slots(k6_script(*_load_test_input(text), "loadtest.mjs"),
                                            "const MODEL = ", "const PATTERNS = ")
    assert blanked == _plain_k6_blanked()
    assert model["name"] == text and patterns[0]["pattern"] == text
    assert patterns[0]["requests"][0]["Key"]["PK"] == {"S": text}


# --- the preview's request code ---------------------------------------------------------------------------


def _requests(text: str) -> list[PatternRequest]:
    """A conditional put (the guarded code path), a query and a transaction, with the text in keys and values."""
    item = {text: text, "n": Decimal("1.5"), "b": text.encode(), "ss": {"a" + text, "b" + text},
            "m": {text: [text, 1]}}
    return [
        PatternRequest("put", Operation.PUT_ITEM, {"TableName": "t", "Item": item,
                                                   "ConditionExpression": "attribute_not_exists(#k)",
                                                   "ExpressionAttributeNames": {"#k": text}}, ()),
        PatternRequest("query", Operation.QUERY, {"TableName": "t", "KeyConditionExpression": "#k = :v",
                                                  "ExpressionAttributeNames": {"#k": text},
                                                  "ExpressionAttributeValues": {":v": text}}, ()),
        PatternRequest("transact", Operation.TRANSACT_WRITE_ITEMS, {"TransactItems": [
            {"Put": {"TableName": "t", "Item": {"PK": text}}}]}, ()),
    ]


def _js_body(code: str) -> tuple[str, Any]:
    """The JavaScript with the command's argument blanked, and that argument read as JSON."""
    start = code.index("Command(", code.index("await client.send(")) + len("Command(")
    end = code.rindex("));")
    return code[:start] + "<data>" + code[end:], json.loads(code[start:end])


@EXAMPLES
@given(text=hostile_text)
def test_request_code_holds_item_text_as_data(text: str) -> None:
    for request, plain in zip(_requests(text), _requests(PLAIN), strict=True):
        assert python_shape(python_code(request)) == python_shape(python_code(plain))
        blanked, body = _js_body(javascript_code(request))
        assert blanked == _js_body(javascript_code(plain))[0]
        assert body == json.loads(json.dumps(request.params, default=json_value))  # the request, as sent
        words, plain_words = (shlex.split(cli_command(r, "http://127.0.0.1:8000"), comments=True)
                              for r in (request, plain))
        assert len(words) == len(plain_words)
        typed = iter(v for v in typed_params(request).values() if isinstance(v, dict | list))
        for word, plain_word in zip(words, plain_words, strict=True):
            if plain_word.startswith(("{", "[")):
                assert json.loads(word) == json.loads(json.dumps(next(typed), default=json_value))
            else:
                assert word == plain_word


# --- infrastructure as code -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def iac_model() -> tuple[Model, Any]:
    model = load_example("chat_messages")
    return model, rule_based_designs(model)[0].key_design


def _iac(iac_model: tuple[Model, Any], fmt: IacFormat, text: str) -> str:
    """The writer itself, skipping the export's check of tags against AWS's rules (parse_tags)."""
    model, design = iac_model
    writer = cloudformation_template if fmt is IacFormat.CLOUDFORMATION else terraform_config
    return writer(model.model_copy(update={"name": text}), design, tags=(("team", _tag(text)),))


def _tag(text: str) -> str:
    """Tags come one per line (parse_tags), so a value holds no line break (PyYAML would write a lone NEL,
    U+0085, raw, and read it back as a space)."""
    return " ".join(text.splitlines())


@EXAMPLES
@given(text=hostile_text)
def test_cloudformation_holds_model_and_tag_text_as_data(iac_model: tuple[Model, Any], text: str) -> None:
    source, plain = (_iac(iac_model, IacFormat.CLOUDFORMATION, t) for t in (text, PLAIN))
    template, plain_template = yaml.safe_load(source), yaml.safe_load(plain)
    assert _leading_comments(source) == _leading_comments(plain)
    assert template["Resources"]["Table"]["Properties"]["Tags"] == [{"Key": "team", "Value": _tag(text)}]
    assert "Design Studio model" in template["Description"]  # a plain string: CloudFormation substitutes nothing
    for document in (template, plain_template):
        document["Resources"]["Table"]["Properties"]["Tags"] = document["Description"] = "<data>"
    assert template == plain_template


@pytest.fixture(scope="module")
def plain_terraform(iac_model: tuple[Model, Any]) -> str:
    return _iac(iac_model, IacFormat.TERRAFORM, PLAIN)


@functools.cache
def _parsed_hcl(text: str) -> Any:
    return hcl2.loads(text)


def _hcl_text(literal: str) -> str:
    """The text an HCL quoted string (as python-hcl2 keeps it) means: JSON's escapes, `$${` and `%%{` literal."""
    assert literal.startswith('"') and literal.endswith('"'), literal
    return json.loads(literal.replace("$${", "${").replace("%%{", "%{"))


@EXAMPLES
@given(text=hostile_text)
def test_terraform_holds_model_and_tag_text_as_data(iac_model: tuple[Model, Any], plain_terraform: str,
                                                    text: str) -> None:
    # python-hcl2 reads the escape `$${` (or `%%{`) only when a `}` follows; HCL needs none (hclsyntax spec:
    # "escaped by doubling their leading characters"), so the oracle gets texts it can read
    text = re.sub(r"([$%]\{)(?![^}]*\})", r"\1}", text)
    source, plain = _iac(iac_model, IacFormat.TERRAFORM, text), plain_terraform
    config, plain_config = hcl2.loads(source), _parsed_hcl(plain)
    assert _leading_comments(source) == _leading_comments(plain)
    assert _hcl_text(config["locals"][0]["design_studio_model"]) == text
    table = config["resource"][0]['"aws_dynamodb_table"']['"table"']
    assert _hcl_text(table["tags"]['"team"']) == _tag(text)
    for document in (config, plain_config):
        document["locals"][0]["design_studio_model"] = "<data>"
        document["resource"][0]['"aws_dynamodb_table"']['"table"']["tags"] = "<data>"
    assert config == plain_config


# --- running them -----------------------------------------------------------------------------------------

# Each would create MARKER if it escaped its literal, docstring or comment
PAYLOADS = ['x"""; import pathlib; pathlib.Path("MARKER").touch(); """',
            "x'''; import pathlib; pathlib.Path('MARKER').touch(); '''",
            'x\nimport pathlib; pathlib.Path("MARKER").touch()\n"""\n#',
            "x\\'; import pathlib; pathlib.Path('MARKER').touch(); #"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_names_run_nothing(payload: str, spec: MigrationSpec, iac_model: tuple[Model, Any],
                                   tmp_path: Path) -> None:
    from tests.modeling.test_infrastructure import cfn_lint_problems

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = tmp_path / "migrate.py"
    script.write_text(migration_script(_renamed(spec, payload, payload, payload)), encoding="utf-8")
    helped = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=120)
    assert helped.returncode == 0, helped.stderr
    assert "".join(repr(payload).split()) in "".join(helped.stdout.split())  # the help names the models
    locust = tmp_path / "locustfile.py"
    locust.write_text(locust_file(*_load_test_input(payload), "locustfile.py"), encoding="utf-8")
    # as `locust -f` loads it: locust (and its gevent patches) first, then the file's top level
    imported = subprocess.run([sys.executable, "-c", "import locust, runpy; runpy.run_path('locustfile.py')"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert imported.returncode == 0, imported.stderr
    k6 = tmp_path / "loadtest.mjs"
    k6.write_text(k6_script(*_load_test_input(payload), "loadtest.mjs"), encoding="utf-8")
    node = shutil.which("node")
    assert node, "node is missing: .ci/run installs Debian's nodejs; install it to check the k6 script"
    checked = subprocess.run([node, "--check", str(k6)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    model, design = iac_model
    template = infrastructure_code(model.model_copy(update={"name": payload}), design, IacFormat.CLOUDFORMATION)
    assert cfn_lint_problems(template.text) == []
    assert not (tmp_path / "MARKER").exists()
