"""A preview request as code a developer can paste: boto3 Python, the AWS CLI and JavaScript SDK v3.

Python uses the boto3 resource (plain values, numbers as Decimal) except for transactions, which only
the low-level client offers; the CLI takes DynamoDB JSON; JavaScript uses the document client of
`@aws-sdk/lib-dynamodb` (plain values). All three send exactly the request the preview executed.
User text (names and values) is only ever data: a Python literal (`python_literal`), JSON, a shell-quoted word.
"""

from __future__ import annotations

import json
import shlex
from decimal import Decimal
from typing import Any

from modeling.code_literals import python_literal
from modeling.design.plans import Operation
from modeling.preview.dataset import json_value
from modeling.preview.requests import PatternRequest, typed_params

_PYTHON_METHOD = {Operation.GET_ITEM: "get_item", Operation.QUERY: "query", Operation.SCAN: "scan",
                  Operation.PUT_ITEM: "put_item", Operation.UPDATE_ITEM: "update_item",
                  Operation.DELETE_ITEM: "delete_item", Operation.BATCH_GET_ITEM: "batch_get_item",
                  Operation.BATCH_WRITE_ITEM: "batch_write_item", Operation.TRANSACT_GET_ITEMS: "transact_get_items",
                  Operation.TRANSACT_WRITE_ITEMS: "transact_write_items"}
_JS_COMMAND = {Operation.GET_ITEM: "GetCommand", Operation.QUERY: "QueryCommand", Operation.SCAN: "ScanCommand",
               Operation.PUT_ITEM: "PutCommand", Operation.UPDATE_ITEM: "UpdateCommand",
               Operation.DELETE_ITEM: "DeleteCommand", Operation.BATCH_GET_ITEM: "BatchGetCommand",
               Operation.BATCH_WRITE_ITEM: "BatchWriteCommand", Operation.TRANSACT_GET_ITEMS: "TransactGetCommand",
               Operation.TRANSACT_WRITE_ITEMS: "TransactWriteCommand"}
_SINGLE_TABLE = (Operation.GET_ITEM, Operation.QUERY, Operation.SCAN, Operation.PUT_ITEM, Operation.UPDATE_ITEM,
                 Operation.DELETE_ITEM)


def python_code(request: PatternRequest) -> str:
    method = _PYTHON_METHOD[request.operation]
    guarded = _guarded(request)
    call = "    response = " if guarded else "response = "
    if request.operation in _SINGLE_TABLE:
        params = {k: v for k, v in request.params.items() if k != "TableName"}
        setup = f'table = boto3.resource("dynamodb").Table({python_literal(request.params["TableName"])})\n'
        head, target = f"{setup}{'try:' + chr(10) if guarded else ''}{call}table.{method}(", params
    elif request.operation in (Operation.BATCH_GET_ITEM, Operation.BATCH_WRITE_ITEM):
        head, target = f'response = boto3.resource("dynamodb").{method}(', request.params
    else:  # transactions: only the low-level client has them, so values are DynamoDB JSON
        setup = 'client = boto3.client("dynamodb")\n'
        head, target = f"{setup}{'try:' + chr(10) if guarded else ''}{call}client.{method}(", typed_params(request)
    depth = 2 if guarded else 1
    imports = "import boto3\n" + ("from decimal import Decimal\n" if "Decimal(" in _py(target, depth) else "")
    pad = "    " * depth
    arguments = "".join(f"{pad}{name}={_py(value, depth)},\n" for name, value in target.items())
    close = "    )\n" if guarded else ")\n"
    return f"{imports}\n{head}\n{arguments}{close}{_python_failure(request) if guarded else ''}" \
           f"{_python_result(request.operation)}"


def _guarded(request: PatternRequest) -> bool:
    """A conditional write or a transaction: the code shows how its failure is caught."""
    if request.operation is Operation.TRANSACT_WRITE_ITEMS:
        return True
    return request.operation in (Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.DELETE_ITEM) and (
        "ConditionExpression" in request.params)


def _python_failure(request: PatternRequest) -> str:
    if request.operation is Operation.TRANSACT_WRITE_ITEMS:
        return ("except client.exceptions.TransactionCanceledException as error:\n"
                "    # nothing was written; one reason per member, in order: None or ConditionalCheckFailed\n"
                '    reasons = [r["Code"] for r in error.response["CancellationReasons"]]\n')
    return ("except table.meta.client.exceptions.ConditionalCheckFailedException:\n"
            "    pass  # the condition is false: nothing was written (the write units are still consumed)\n")


def _python_result(operation: Operation) -> str:
    return {Operation.GET_ITEM: 'item = response.get("Item")\n', Operation.QUERY: 'items = response["Items"]  '
            '# repeat with ExclusiveStartKey=response["LastEvaluatedKey"] for the next page\n',
            Operation.SCAN: 'items = response["Items"]\n',
            Operation.BATCH_GET_ITEM: 'items = response["Responses"]  # retry response["UnprocessedKeys"]\n',
            Operation.BATCH_WRITE_ITEM: '# retry response["UnprocessedItems"] with backoff\n'}.get(operation, "")


def _py(value: Any, depth: int) -> str:
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        body = "".join(f"{inner}{_py(k, depth + 1)}: {_py(v, depth + 1)},\n" for k, v in value.items())
        return "{\n" + body + pad + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        return "[\n" + "".join(f"{inner}{_py(v, depth + 1)},\n" for v in value) + pad + "]"
    if isinstance(value, Decimal):
        return f'Decimal("{value}")'
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(_py(v, depth) for v in sorted(value, key=str)) + "}"
    if isinstance(value, str):
        return python_literal(value)
    return repr(value)  # bytes, numbers, booleans and None: their repr is a literal


def cli_command(request: PatternRequest, endpoint_url: str | None = None) -> str:
    """`aws dynamodb <operation> --flag value ...`; JSON arguments in DynamoDB JSON, shell-quoted."""
    command = "aws dynamodb " + _kebab(_PYTHON_METHOD[request.operation]).replace("_", "-")
    parts = [command]
    for name, value in typed_params(request).items():
        flag = "--" + _kebab(name)
        if isinstance(value, bool):
            parts.append(flag if value else "--no-" + _kebab(name))
        elif isinstance(value, dict | list):
            parts.append(f"{flag} {shlex.quote(json.dumps(value, default=json_value, ensure_ascii=False))}")
        else:
            parts.append(f"{flag} {shlex.quote(str(value))}")
    if endpoint_url:
        parts.append(f"--endpoint-url {shlex.quote(endpoint_url)}")
    command_text = " \\\n    ".join(parts)
    if request.operation is Operation.TRANSACT_WRITE_ITEMS:
        return (command_text + "\n# when a condition is false: TransactionCanceledException, nothing written; the "
                "message lists the CancellationReasons, one per member in order")
    if _guarded(request):
        return (command_text + "\n# when the condition is false: ConditionalCheckFailedException (exit status 254), "
                "nothing written")
    return command_text


def _kebab(name: str) -> str:
    out = []
    for i, char in enumerate(name):
        if char.isupper() and i:
            out.append("-")
        out.append(char.lower())
    return "".join(out).replace("_", "-")


def javascript_code(request: PatternRequest) -> str:
    command = _JS_COMMAND[request.operation]
    body = json.dumps(request.params, indent=2, default=json_value, ensure_ascii=False)
    head = ('import { DynamoDBClient } from "@aws-sdk/client-dynamodb";\n'
            f'import {{ DynamoDBDocumentClient, {command} }} from "@aws-sdk/lib-dynamodb";\n\n'
            "const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n")
    if not _guarded(request):
        return head + f"const response = await client.send(new {command}({body}));\n"
    indented = body.replace("\n", "\n  ")
    if request.operation is Operation.TRANSACT_WRITE_ITEMS:
        handler = ('  if (error.name !== "TransactionCanceledException") throw error;\n'
                   "  // nothing was written; one reason per member, in order: None or ConditionalCheckFailed\n"
                   "  const reasons = error.CancellationReasons.map((reason) => reason.Code);\n")
    else:
        handler = ('  if (error.name !== "ConditionalCheckFailedException") throw error;\n'
                   "  // the condition is false: nothing was written (the write units are still consumed)\n")
    return head + f"try {{\n  const response = await client.send(new {command}({indented}));\n}} catch (error) {{\n" \
        + handler + "}\n"
