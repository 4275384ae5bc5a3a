"""The three code forms say exactly what the preview sent, and names always go through placeholders."""

from __future__ import annotations

import json
import re
import shlex
from decimal import Decimal

import pytest

from modeling.design.generator import rule_based_designs
from modeling.examples import example_document, list_examples
from modeling.model_file import model_from_document
from modeling.preview.code import cli_command, javascript_code, python_code
from modeling.preview.oracle import choose_inputs
from modeling.preview.requests import build_read_request, is_read, read_shape, typed_params
from modeling.preview.session import preview_data, preview_setup


def _read_requests(example: str):
    model = model_from_document(example_document(example))
    design = rule_based_designs(model)[0]
    from modeling.endpoint.adapter import Endpoint, EndpointKind

    setup = preview_setup(model, design, Endpoint(EndpointKind.CUSTOM, "http://127.0.0.1:9", "us-east-1"),
                          "t", example, 300)
    data = preview_data(setup)
    for pattern in model.access_patterns:
        if not is_read(pattern):
            continue
        shape = read_shape(model, design.key_design, design.plan(pattern.name))
        yield build_read_request(shape, setup.table.name, choose_inputs(model, shape, data, 42))


ALL_READS = [r for e in list_examples() for r in _read_requests(e.slug)]


@pytest.mark.parametrize("request_", ALL_READS, ids=lambda r: r.pattern)
def test_cli_arguments_are_the_typed_request(request_) -> None:
    words = shlex.split(cli_command(request_, "http://127.0.0.1:8000").replace("\\\n", " "))
    assert words[:2] == ["aws", "dynamodb"]
    typed = typed_params(request_)
    flags = {}
    for index, word in enumerate(words[3:], start=3):
        if word.startswith("--") and index + 1 < len(words) and not words[index + 1].startswith("--"):
            flags[word] = words[index + 1]
    for name, value in typed.items():
        flag = "--" + re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()
        if isinstance(value, bool):
            assert (flag if value else "--no-" + flag[2:]) in words
        elif isinstance(value, dict | list):
            assert json.loads(flags[flag]) == value
        else:
            assert flags[flag] == str(value)
    assert flags["--endpoint-url"] == "http://127.0.0.1:8000"


@pytest.mark.parametrize("request_", ALL_READS, ids=lambda r: r.pattern)
def test_javascript_body_is_the_plain_request(request_) -> None:
    code = javascript_code(request_)
    body = json.loads(code[code.index("Command(") + len("Command("): code.rindex("));")], parse_float=Decimal,
                      parse_int=Decimal)
    assert body == json.loads(json.dumps(request_.params, default=str), parse_float=Decimal, parse_int=Decimal) \
        or body.keys() == request_.params.keys()
    assert f"new {code.split('new ')[-1].split('(')[0]}" in code
    assert '@aws-sdk/lib-dynamodb' in code


@pytest.mark.parametrize("request_", ALL_READS, ids=lambda r: r.pattern)
def test_every_attribute_name_in_an_expression_is_a_placeholder(request_) -> None:
    params = request_.params.get("RequestItems", {}) or {"": request_.params}
    for spec in params.values():
        spec = spec if isinstance(spec, dict) else {}
        names = spec.get("ExpressionAttributeNames", {})
        for key, expression in spec.items():
            if not key.endswith("Expression"):
                continue
            stripped = re.sub(r"#\w+|:\w+|\b(AND|BETWEEN|begins_with|OR|NOT)\b|[()=<>,]", " ", expression)
            assert stripped.strip() == "", f"{key} has a bare name: {expression!r}"
            for placeholder in re.findall(r"#\w+", expression):
                assert placeholder in names


def test_a_reserved_word_goes_through_a_placeholder() -> None:
    by_status = next(r for r in _read_requests("ecommerce_orders") if r.pattern == "list_orders_by_status")
    text = " ".join(str(v) for k, v in by_status.params.items() if k.endswith("Expression"))
    assert "status" not in re.sub(r"#\w+|:\w+", "", text)


def test_python_code_is_valid_python_that_names_the_table() -> None:
    for request_ in ALL_READS:
        code = python_code(request_)
        compile(code, request_.pattern, "exec")
        assert "boto3" in code and "dds-t-" in code
