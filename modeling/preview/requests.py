"""Each access pattern as the exact request a developer would send, built from the design.

Reads follow the planner's choice of operation and access path (modeling.design.planner); the key condition
is rebuilt from the path's templates so that range conditions stay correct when more key text
follows the range attribute (`ORDER#{orderDate}#{orderId}`: `<= :d` becomes `< 'ORDER#d#' + HIGH`).
Every attribute name goes through ExpressionAttributeNames, so reserved words (dynamodb-rules §6,
reserved words) never break a request. Values are plain Python here; `typed_params` turns them into
DynamoDB JSON with boto3's TypeSerializer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from boto3.dynamodb.types import TypeSerializer

from modeling.design.keys import HIGH, KeyTemplate, KeyTemplateError, Segment, render_segments, render_value
from modeling.design.planner import AccessPath, access_paths, entities_span, sent_range_operator
from modeling.design.plans import TABLE, Operation, PatternPlan
from modeling.errors import ModelingError
from modeling.limits import MAX_BATCH_GET_ITEMS
from modeling.model import AccessPattern, AttributeType, KeyDesign, Model, PatternKind, RangeCondition, RangeOperator
from modeling.preview.dataset import PreviewDataError, key_value, number_key_names

_SERIALIZER = TypeSerializer()


class RequestBuildError(ModelingError):
    """A pattern cannot be turned into a request with the given input values."""


@dataclass(frozen=True)
class PatternRequest:
    """One request: the operation, its parameters with plain values, and the inputs behind them."""

    pattern: str
    operation: Operation
    params: dict[str, Any]  # boto3 client parameter names; plain values (typed_params converts them)
    inputs: tuple[dict[str, Any], ...]  # one input set per item for batch and transaction reads

    @property
    def index(self) -> str:
        index: str = self.params.get("IndexName", TABLE)  # params hold boto3's values: IndexName is text
        return index


def typed_params(request: PatternRequest) -> dict[str, Any]:
    """The parameters as the low-level client sends them: every value in DynamoDB JSON."""
    return _typed(request.operation, request.params)


def _typed(operation: Operation, params: dict[str, Any]) -> dict[str, Any]:
    result = dict(params)
    if "Key" in result:
        result["Key"] = _typed_item(result["Key"])
    if "Item" in result:
        result["Item"] = _typed_item(result["Item"])
    if "ExpressionAttributeValues" in result:
        result["ExpressionAttributeValues"] = _typed_item(result["ExpressionAttributeValues"])
    if operation is Operation.BATCH_GET_ITEM:
        result["RequestItems"] = {table: {**spec, "Keys": [_typed_item(k) for k in spec["Keys"]]}
                                  for table, spec in result["RequestItems"].items()}
    if operation is Operation.BATCH_WRITE_ITEM:
        result["RequestItems"] = {table: [_typed_write(w) for w in writes]
                                  for table, writes in result["RequestItems"].items()}
    if operation in (Operation.TRANSACT_GET_ITEMS, Operation.TRANSACT_WRITE_ITEMS):
        result["TransactItems"] = [{kind: _typed(Operation.GET_ITEM, body) for kind, body in entry.items()}
                                   for entry in result["TransactItems"]]
    return result


def _typed_write(write: dict[str, Any]) -> dict[str, Any]:
    if "PutRequest" in write:
        return {"PutRequest": {"Item": _typed_item(write["PutRequest"]["Item"])}}
    return {"DeleteRequest": {"Key": _typed_item(write["DeleteRequest"]["Key"])}}


def _typed_item(values: dict[str, Any]) -> dict[str, Any]:
    return {name: _SERIALIZER.serialize(value) for name, value in values.items()}


# --- names -----------------------------------------------------------------------------------------


class _Names:
    """ExpressionAttributeNames: `#name` for every attribute, letters, digits and _ only."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def __call__(self, attribute: str) -> str:
        for placeholder, name in self.names.items():
            if name == attribute:
                return placeholder
        base = "#" + (re.sub(r"[^A-Za-z0-9_]", "_", attribute) or "a")
        placeholder, n = base, 1
        while placeholder in self.names:
            n += 1
            placeholder = f"{base}{n}"
        self.names[placeholder] = attribute
        return placeholder


# --- read specs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadShape:
    """What a read pattern's request is made of, before any input value is known."""

    pattern: AccessPattern
    plan: PatternPlan
    path: AccessPath
    equal_attributes: tuple[str, ...]  # inputs and filter constants compared with =
    range_attribute: str | None
    filter_attributes: tuple[str, ...]  # attributes the keys do not cover (a FilterExpression)
    constants: dict[str, Any]  # the pattern's constant filters, typed (`status = OPEN`)
    number_keys: frozenset[str] = frozenset()  # key attributes of type N: their values are sent as Numbers
    # sort-key bounds that keep the other entities of the partition out when nothing else does (several
    # entities, or a plain value key such as `{time}`: `planner.entities_span`)
    span: tuple[str, str] | None = None
    # the table's key names when the plan fetches the base items after the index query (`PatternPlan.fetch`):
    # the query then asks only for them, and the fetch reads the items by them
    fetch_keys: tuple[str, ...] = ()


def read_shape(model: Model, key_design: KeyDesign, plan: PatternPlan) -> ReadShape:
    pattern = model.access_pattern(plan.pattern)
    if pattern is None:
        raise RequestBuildError(f"the model has no access pattern {plan.pattern!r}")
    path = next((p for p in access_paths(key_design) if p.name == plan.index), access_paths(key_design)[0])
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    equal = tuple(dict.fromkeys(n for n in (*pattern.inputs, *(f.attribute for f in pattern.filters))
                                if n != range_attribute))
    filters = plan.filter_attributes
    fetch_keys = tuple(k.name for k in (key_design.partition_key, key_design.sort_key)
                       if k is not None) if plan.fetch is not None else ()
    return ReadShape(pattern, plan, path, equal, range_attribute, filters, filter_values(model, pattern),
                     number_key_names(key_design), entities_span(path, pattern.entities, model), fetch_keys)


def build_read_request(shape: ReadShape, table_name: str, inputs: list[dict[str, Any]]) -> PatternRequest:
    """The request for a read pattern; `inputs` holds one value set (several for batch/transact gets)."""
    if not inputs:
        raise RequestBuildError(f"{shape.pattern.name} needs input values")
    try:
        return _build(shape, table_name, [{**shape.constants, **values} for values in inputs])
    except KeyTemplateError as exc:
        raise RequestBuildError(f"{shape.pattern.name}: {exc}; give a value for every input") from None


def _build(shape: ReadShape, table_name: str, inputs: list[dict[str, Any]]) -> PatternRequest:
    operation = shape.plan.operation
    names = _Names()
    if operation in (Operation.GET_ITEM, Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS):
        return _by_key(shape, table_name, inputs, names)
    values: dict[str, Any] = {}
    params: dict[str, Any] = {"TableName": table_name}
    if operation is Operation.QUERY:
        if shape.path.name != TABLE:
            params["IndexName"] = shape.path.name
        params["KeyConditionExpression"] = _key_condition(shape, inputs[0], names, values)
        params["ScanIndexForward"] = shape.plan.scan_index_forward
    filter_expression = _filter(shape, inputs[0], names, values)
    if filter_expression:
        params["FilterExpression"] = filter_expression
    _projection(shape, params, names)
    if shape.pattern.page_size and operation is Operation.QUERY:
        params["Limit"] = shape.pattern.page_size
    if shape.plan.consistent_read:
        params["ConsistentRead"] = True
    params["ExpressionAttributeNames"] = dict(names.names)
    if values:
        params["ExpressionAttributeValues"] = values
    return PatternRequest(shape.pattern.name, operation, params, (dict(inputs[0]),))


def _by_key(shape: ReadShape, table_name: str, inputs: list[dict[str, Any]], names: _Names) -> PatternRequest:
    keys = [primary_key_of(shape, values) for values in inputs]
    body: dict[str, Any] = {}
    _projection(shape, body, names)
    if names.names:
        body["ExpressionAttributeNames"] = dict(names.names)
    operation = shape.plan.operation
    if operation is Operation.GET_ITEM:
        params = {"TableName": table_name, "Key": keys[0], **body}
        if shape.plan.consistent_read:
            params["ConsistentRead"] = True
        return PatternRequest(shape.pattern.name, operation, params, (dict(inputs[0]),))
    if operation is Operation.BATCH_GET_ITEM:
        spec = {"Keys": keys[:MAX_BATCH_GET_ITEMS], **body}
        if shape.plan.consistent_read:
            spec["ConsistentRead"] = True
        return PatternRequest(shape.pattern.name, operation, {"RequestItems": {table_name: spec}},
                              tuple(dict(v) for v in inputs[:MAX_BATCH_GET_ITEMS]))
    entries = [{"Get": {"TableName": table_name, "Key": key, **body}} for key in keys[:MAX_BATCH_GET_ITEMS]]
    return PatternRequest(shape.pattern.name, operation, {"TransactItems": entries},
                          tuple(dict(v) for v in inputs[:MAX_BATCH_GET_ITEMS]))


def primary_key_of(shape: ReadShape, values: dict[str, Any]) -> dict[str, Any]:
    """The table key of the item the input values name (the pattern's first entity's templates)."""
    templates = shape.path.templates[shape.pattern.entities[0]]
    try:
        key = {shape.path.partition_key: _render(templates.partition_key, values)}
        if shape.path.sort_key and templates.sort_key is not None:
            key[shape.path.sort_key] = _render(templates.sort_key, values)
    except KeyTemplateError as exc:
        raise RequestBuildError(f"{shape.pattern.name}: {exc}; give a value for every input") from None
    return {name: _key_value(shape, name, text) for name, text in key.items()}


def _render(template: str, values: dict[str, Any]) -> str:
    return render_segments(KeyTemplate.parse(template).segments, values, template)


def _key_condition(shape: ReadShape, values: dict[str, Any], names: _Names, expression_values: dict[str, Any]) -> str:
    templates = [shape.path.templates[e] for e in shape.pattern.entities]
    try:
        expression_values[":pk"] = _key_value(shape, shape.path.partition_key,
                                              _render(templates[0].partition_key, values))
    except KeyTemplateError as exc:
        raise RequestBuildError(f"{shape.pattern.name}: {exc}; give a value for every input") from None
    condition = f"{names(shape.path.partition_key)} = :pk"
    if len(templates) > 1 and shape.span is not None and shape.path.sort_key is not None:
        expression_values[":sk_from"] = _key_value(shape, shape.path.sort_key, shape.span[0])
        expression_values[":sk_to"] = _key_value(shape, shape.path.sort_key, shape.span[1])
        return f"{condition} AND {names(shape.path.sort_key)} BETWEEN :sk_from AND :sk_to"  # apart from the others
    sort_source = templates[0].sort_key if len(templates) == 1 else None
    if sort_source is None or shape.path.sort_key is None:
        return condition
    sort_values: dict[str, Any] = {}  # rendered as text, then typed as the sort key attribute holds them
    sort_condition = _sort_condition(shape, sort_source, values, names, sort_values)
    for placeholder, text in sort_values.items():
        expression_values[placeholder] = _key_value(shape, shape.path.sort_key, text)
    return f"{condition} AND {sort_condition}" if sort_condition else condition


def _key_value(shape: ReadShape, key_name: str, text: str) -> Any:
    """A key value as its key attribute holds it (a Number key's bounds are Numbers, never strings)."""
    try:
        return key_value(key_name, text, shape.number_keys)
    except PreviewDataError as exc:
        raise RequestBuildError(f"{shape.pattern.name}: {exc}") from None


def _sort_condition(shape: ReadShape, sort_source: str, values: dict[str, Any], names: _Names,
                    expression_values: dict[str, Any]) -> str:
    """The sort-key part of a key condition, or "" when the inputs fix no part of the sort key."""
    sort = KeyTemplate.parse(sort_source)
    sort_key_name = shape.path.sort_key or ""

    def sk() -> str:  # named only when the condition uses it: DynamoDB refuses an unused name
        return names(sort_key_name)

    attributes = sort.attribute_names
    known = 0
    while known < len(attributes) and attributes[known] in shape.equal_attributes:
        known += 1
    references = [i for i, s in enumerate(sort.segments) if s.is_attribute]
    if known == len(attributes):
        expression_values[":sk"] = render_segments(sort.segments, values, sort_source)
        return f"{sk()} = :sk"
    before = render_segments(sort.segments[:references[known]], values, sort_source)
    condition = shape.pattern.range_condition  # its attribute is shape.range_attribute
    if condition is not None and condition.attribute == attributes[known]:
        segment = sort.segments[references[known]]
        tail = sort.segments[references[known] + 1:]
        return _range_condition(shape, condition, sk(), before, segment, tail, values, expression_values)
    if before:
        expression_values[":sk_prefix"] = before
        return f"begins_with({sk()}, :sk_prefix)"
    if shape.span is not None:  # a plain value key: between its values' bounds, the other entities' keys outside
        expression_values[":sk_from"], expression_values[":sk_to"] = shape.span
        return f"{sk()} BETWEEN :sk_from AND :sk_to"
    return ""


def _range_condition(shape: ReadShape, condition: RangeCondition, sk: str, before: str, segment: Segment,
                     tail: tuple[Segment, ...], values: dict[str, Any], expression_values: dict[str, Any]) -> str:
    """The sort-key condition for a range on one key part; text after the part widens the bounds."""
    operator = condition.operator
    value = values.get(segment.text)
    if value is None:
        raise RequestBuildError(f"{shape.pattern.name}: give a value for {segment.text}")
    if operator is RangeOperator.BEGINS_WITH:
        if shape.path.sort_key in shape.number_keys:
            raise RequestBuildError(f"{shape.pattern.name}: begins_with compares text, and the sort key "
                                    f"{shape.path.sort_key} is a Number; use between, or make the key a string")
        expression_values[":sk"] = before + str(value)
        return f"begins_with({sk}, :sk)"
    following = tail[0].text if tail and not tail[0].is_attribute else ""
    if operator is RangeOperator.BETWEEN:
        low, high = value
        expression_values[":sk_from"] = before + _part(segment, low)
        expression_values[":sk_to"] = before + _part(segment, high) + (following + HIGH if tail else "")
        return f"{sk} BETWEEN :sk_from AND :sk_to"
    bound = before + _part(segment, value)
    # bound the open side by the prefix too, or by a plain value key's range (`{time}`: `planner.entities_span`),
    # or other entities of the collection come back
    floor, ceiling = (before, before + HIGH) if before else (shape.span or ("", ""))
    sent = sent_range_operator(operator, prefixed=bool(before), followed=bool(tail), spanned=bool(floor or ceiling))
    if operator is RangeOperator.EQUALS:
        expression_values[":sk"] = bound + following if tail else bound
        return f"begins_with({sk}, :sk)" if sent is RangeOperator.BEGINS_WITH else f"{sk} = :sk"
    # the keys of the bound value itself: `bound` exactly (no tail) or up to bound + following + HIGH
    lowest, highest = bound, (bound + following + HIGH if tail else bound)
    if sent is RangeOperator.BETWEEN:
        if operator in (RangeOperator.LESS_THAN, RangeOperator.LESS_THAN_OR_EQUAL):
            top = highest if operator is RangeOperator.LESS_THAN_OR_EQUAL else _just_below(lowest)
            expression_values[":sk_from"], expression_values[":sk_to"] = floor, top
        else:
            bottom = lowest if operator is RangeOperator.GREATER_THAN_OR_EQUAL else highest + "\x00"
            expression_values[":sk_from"], expression_values[":sk_to"] = bottom, ceiling
        return f"{sk} BETWEEN :sk_from AND :sk_to"
    if operator in (RangeOperator.LESS_THAN, RangeOperator.GREATER_THAN_OR_EQUAL):
        expression_values[":sk"] = lowest
        return f"{sk} {_SYMBOL[operator]} :sk"
    expression_values[":sk"] = highest
    return f"{sk} {_SYMBOL[operator]} :sk"


def _just_below(text: str) -> str:
    """The greatest key text below `text` that any real key could have: its last character minus one, then HIGH."""
    if not text or text[-1] == "\x00":
        return text[:-1]
    return text[:-1] + chr(ord(text[-1]) - 1) + HIGH


_SYMBOL = {RangeOperator.EQUALS: "=", RangeOperator.LESS_THAN: "<", RangeOperator.LESS_THAN_OR_EQUAL: "<=",
           RangeOperator.GREATER_THAN: ">", RangeOperator.GREATER_THAN_OR_EQUAL: ">="}


def _part(segment: Segment, value: Any) -> str:
    try:
        return render_value(value, segment.width, segment.decimals)
    except KeyTemplateError as exc:
        raise RequestBuildError(str(exc)) from None


def _filter(shape: ReadShape, values: dict[str, Any], names: _Names, expression_values: dict[str, Any]) -> str:
    parts = []
    for attribute in shape.filter_attributes:
        placeholder = ":" + re.sub(r"[^A-Za-z0-9_]", "_", attribute)
        condition = shape.pattern.range_condition  # its attribute is shape.range_attribute
        if condition is not None and attribute == condition.attribute:
            parts.append(_range_filter(shape, condition, names(attribute), placeholder, values, expression_values))
            continue
        if attribute not in values:
            raise RequestBuildError(f"{shape.pattern.name}: give a value for {attribute}")
        expression_values[placeholder] = values[attribute]
        parts.append(f"{names(attribute)} = {placeholder}")
    return " AND ".join(parts)


def _range_filter(shape: ReadShape, condition: RangeCondition, name: str, placeholder: str, values: dict[str, Any],
                  expression_values: dict[str, Any]) -> str:
    operator = condition.operator
    value = values.get(condition.attribute)
    if value is None:
        raise RequestBuildError(f"{shape.pattern.name}: give a value for {condition.attribute}")
    if operator is RangeOperator.BETWEEN:
        expression_values[placeholder + "_from"], expression_values[placeholder + "_to"] = value
        return f"{name} BETWEEN {placeholder}_from AND {placeholder}_to"
    expression_values[placeholder] = value
    if operator is RangeOperator.BEGINS_WITH:
        return f"begins_with({name}, {placeholder})"
    return f"{name} {_SYMBOL[operator]} {placeholder}"


def _projection(shape: ReadShape, params: dict[str, Any], names: _Names) -> None:
    if shape.fetch_keys:  # the index query only finds the items: the fetch that follows reads them
        params["ProjectionExpression"] = ", ".join(names(a) for a in shape.fetch_keys)
    elif shape.pattern.returns:
        params["ProjectionExpression"] = ", ".join(names(a) for a in shape.pattern.returns)


# --- input values --------------------------------------------------------------------------------


def input_attributes(pattern: AccessPattern) -> tuple[str, ...]:
    """The attributes a user gives values for: the inputs, then the range attribute."""
    names = list(pattern.inputs)
    if pattern.range_condition and pattern.range_condition.attribute not in names:
        names.append(pattern.range_condition.attribute)
    return tuple(names)


def parse_input_value(model: Model, pattern: AccessPattern, attribute: str, text: str) -> Any:
    """A typed value from what a user typed: numbers as Decimal, true/false as booleans."""
    kind = _attribute_type(model, pattern, attribute)
    text = text.strip()
    if kind is AttributeType.N:
        try:
            return Decimal(text)
        except InvalidOperation:
            raise RequestBuildError(f"{attribute} is a number; {text!r} is not one") from None
    if kind is AttributeType.BOOL:
        if text.lower() not in ("true", "false"):
            raise RequestBuildError(f"{attribute} is true or false, not {text!r}")
        return text.lower() == "true"
    return text


def _attribute_type(model: Model, pattern: AccessPattern, attribute: str) -> AttributeType:
    for entity_name in pattern.entities:
        entity = model.entity(entity_name)
        found = entity.attribute(attribute) if entity else None
        if found is not None:
            return found.type
    return AttributeType.S


def filter_values(model: Model, pattern: AccessPattern) -> dict[str, Any]:
    """The pattern's constant filters as typed values (`status = UNPAID`)."""
    values: dict[str, Any] = {}
    for condition in pattern.filters:
        values[condition.attribute] = parse_input_value(model, pattern, condition.attribute, str(condition.equals)) \
            if not isinstance(condition.equals, bool) else condition.equals
    return values


def is_read(pattern: AccessPattern) -> bool:
    return pattern.kind in (PatternKind.READ_ONE, PatternKind.READ_MANY, PatternKind.BATCH_READ,
                            PatternKind.TRANSACT_READ)
