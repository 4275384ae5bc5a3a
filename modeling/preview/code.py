"""A preview request as code a developer can paste: boto3 Python, the AWS CLI and JavaScript SDK v3.

Python uses the boto3 resource (plain values, numbers as Decimal) except for transactions, which only
the low-level client offers; the CLI takes DynamoDB JSON; JavaScript uses the document client of
`@aws-sdk/lib-dynamodb` (plain values). All three send exactly the request the preview executed.
User text (names and values) is only ever data: a Python literal (`python_literal`), JSON, a shell-quoted word.
"""

from __future__ import annotations

import json
import re
import shlex
from decimal import Decimal
from typing import Any

from modeling.code_literals import python_literal
from modeling.design.plans import Operation
from modeling.limits import MAX_BATCH_GET_ITEMS
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


def python_code(request: PatternRequest, first: PatternRequest | None = None,
                fetch_key_names: tuple[str, ...] = (), endpoint_url: str | None = None) -> str:
    """The request as boto3 code. `first`: a read through a uniqueness item, whose GetItem comes before the owner's
    (`request`); `fetch_key_names`: an index query whose items are then read whole from the table by these keys."""
    parts = [_python_parts(step) for step in ((first, request) if first is not None else (request,))]
    imports = "import boto3\n" + ("from decimal import Decimal\n" if any(p[0] for p in parts) else "")
    setups = list(dict.fromkeys(p[1] for p in parts if p[1]))
    if first is None:
        body = parts[0][2]
    else:
        body = ("# 1. the uniqueness item, which holds the owner's key attributes\n" + parts[0][2].replace(
            'item = response.get("Item")', 'unique = response.get("Item")')
            + "# 2. the owner's item, by the key those attributes give (here the values the preview read)\n"
            + parts[1][2])
    fetch = _python_fetch(request.params["TableName"], fetch_key_names) if fetch_key_names else ""
    return f"{_endpoint_note('#', endpoint_url)}{imports}\n{''.join(setups)}{body}{fetch}"


_URL = re.compile(r"https?://[^\s'\"]+")


def _endpoint_note(comment: str, endpoint_url: str | None) -> str:
    """Where the preview ran, as a comment (the SDKs call AWS unless told otherwise, as the CLI's --endpoint-url
    does; a stranger read the Python as code for the embedded endpoint). Only a plain URL is written."""
    if not endpoint_url or not _URL.fullmatch(endpoint_url):
        return ""
    return (f"{comment} The preview ran this on {endpoint_url}: set AWS_ENDPOINT_URL_DYNAMODB={endpoint_url} to run it "
            f"there too;\n{comment} without it, the SDK sends it to AWS in your Region.\n")


def _python_parts(request: PatternRequest) -> tuple[bool, str, str]:
    """(whether it needs Decimal, the line that makes its table or client, the call and what it reads)."""
    method = _PYTHON_METHOD[request.operation]
    guarded = _guarded(request)
    call = "    response = " if guarded else "response = "
    if request.operation in _SINGLE_TABLE:
        params = {k: v for k, v in request.params.items() if k != "TableName"}
        setup = f'table = boto3.resource("dynamodb").Table({python_literal(request.params["TableName"])})\n'
        head, target = f"{'try:' + chr(10) if guarded else ''}{call}table.{method}(", params
    elif request.operation in (Operation.BATCH_GET_ITEM, Operation.BATCH_WRITE_ITEM):
        setup, head, target = "", f'response = boto3.resource("dynamodb").{method}(', request.params
    else:  # transactions: only the low-level client has them, so values are DynamoDB JSON
        setup = 'client = boto3.client("dynamodb")\n'
        head, target = f"{'try:' + chr(10) if guarded else ''}{call}client.{method}(", typed_params(request)
    depth = 2 if guarded else 1
    pad = "    " * depth
    arguments = "".join(f"{pad}{name}={_py(value, depth)},\n" for name, value in target.items())
    close = "    )\n" if guarded else ")\n"
    failure = _python_failure(request) if guarded else ""
    return ("Decimal(" in _py(target, depth), setup,
            f"{head}\n{arguments}{close}{failure}{_python_result(request.operation)}")


def _python_fetch(table_name: str, key_names: tuple[str, ...]) -> str:
    """The base items of the index entries, whole, by BatchGetItem (at most 100 keys a request, §1.2)."""
    keys = ", ".join(f"{python_literal(name)}: entry[{python_literal(name)}]" for name in key_names)
    table, per_request = python_literal(table_name), MAX_BATCH_GET_ITEMS
    return ("# the index holds only some of the attributes the pattern uses: read the whole items from the table\n"
            f"keys = [{{{keys}}} for entry in items]\n"
            "items = []\n"
            f"for start in range(0, len(keys), {per_request}):\n"
            "    batch = boto3.resource(\"dynamodb\").batch_get_item(\n"
            f"        RequestItems={{{table}: {{\"Keys\": keys[start:start + {per_request}]}}}},\n"
            "    )\n"
            f"    items += batch[\"Responses\"][{table}]  # retry batch[\"UnprocessedKeys\"]\n")


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


def cli_command(request: PatternRequest, endpoint_url: str | None = None, first: PatternRequest | None = None,
                fetched_keys: tuple[dict[str, Any], ...] | None = None) -> str:
    """`aws dynamodb <operation> --flag value ...`; JSON arguments in DynamoDB JSON, shell-quoted. `first`: the
    GetItem on a uniqueness item sent before; `fetched_keys`: the table keys (DynamoDB JSON) of the index entries
    whose whole items were then read (the shell has no loop over the first answer, so the preview's own keys)."""
    command = _cli_one(request, endpoint_url)
    if first is not None:
        command = ("# 1. the uniqueness item, which holds the owner's key attributes\n" + _cli_one(first, endpoint_url)
                   + "\n# 2. the owner's item, by the key those attributes give (here the values the preview read)\n"
                   + command)
    if fetched_keys is not None:
        command += "\n" + _cli_fetch(request.params["TableName"], fetched_keys, endpoint_url)
    return command


def _cli_fetch(table_name: str, keys: tuple[dict[str, Any], ...], endpoint_url: str | None) -> str:
    shown = keys[:MAX_BATCH_GET_ITEMS]
    fetch = PatternRequest("", Operation.BATCH_GET_ITEM, {"RequestItems": {table_name: {"Keys": list(shown)}}}, ())
    more = (f" (the first {len(shown)} of {len(keys)}; send the rest {MAX_BATCH_GET_ITEMS} at a time)"
            if len(keys) > len(shown) else "")
    return ("# the index holds only some of the attributes the pattern uses: read the whole items from the table by "
            f"the keys the query returned{more}; retry UnprocessedKeys\n"
            + _cli_one(fetch, endpoint_url, typed=True))


def _cli_one(request: PatternRequest, endpoint_url: str | None, typed: bool = False) -> str:
    """One request as a command; `typed`: its parameters are DynamoDB JSON already."""
    command = "aws dynamodb " + _kebab(_PYTHON_METHOD[request.operation]).replace("_", "-")
    parts = [command]
    for name, value in (request.params if typed else typed_params(request)).items():
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


def javascript_code(request: PatternRequest, first: PatternRequest | None = None,
                    fetch_key_names: tuple[str, ...] = (), endpoint_url: str | None = None) -> str:
    """The request with the document client; `first` and `fetch_key_names` as in `python_code`."""
    command = _JS_COMMAND[request.operation]
    commands = sorted({command, *([_JS_COMMAND[first.operation]] if first is not None else []),
                       *(["BatchGetCommand"] if fetch_key_names else [])})
    body = json.dumps(request.params, indent=2, default=json_value, ensure_ascii=False)
    head = (f'{_endpoint_note("//", endpoint_url)}import {{ DynamoDBClient }} from "@aws-sdk/client-dynamodb";\n'
            f'import {{ DynamoDBDocumentClient, {", ".join(commands)} }} from "@aws-sdk/lib-dynamodb";\n\n'
            "const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n")
    if first is not None:
        first_body = json.dumps(first.params, indent=2, default=json_value, ensure_ascii=False)
        head += ("// 1. the uniqueness item, which holds the owner's key attributes\n"
                 f"const unique = await client.send(new {_JS_COMMAND[first.operation]}({first_body}));\n"
                 "// 2. the owner's item, by the key those attributes give (here the values the preview read)\n")
    if not _guarded(request):
        fetch = _javascript_fetch(request.params["TableName"], fetch_key_names) if fetch_key_names else ""
        return head + f"const response = await client.send(new {command}({body}));\n" + fetch
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


def _javascript_fetch(table_name: str, key_names: tuple[str, ...]) -> str:
    keys = ", ".join(f"{json.dumps(name)}: entry[{json.dumps(name)}]" for name in key_names)
    table, per_request = json.dumps(table_name, ensure_ascii=False), MAX_BATCH_GET_ITEMS
    return ("// the index holds only some of the attributes the pattern uses: read the whole items from the table\n"
            f"const keys = response.Items.map((entry) => ({{ {keys} }}));\n"
            "const items = [];\n"
            f"for (let start = 0; start < keys.length; start += {per_request}) {{\n"
            "  const batch = await client.send(new BatchGetCommand({\n"
            f"    RequestItems: {{ [{table}]: {{ Keys: keys.slice(start, start + {per_request}) }} }},\n"
            "  }));\n"
            f"  items.push(...batch.Responses[{table}]);  // retry batch.UnprocessedKeys\n"
            "}\n")
