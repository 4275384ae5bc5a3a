"""The answer a read pattern should give, computed from the generated items in plain Python.

The oracle knows nothing about keys, indexes or DynamoDB: it selects the items of the pattern's
entities whose attributes equal the inputs and filter constants and satisfy the range condition,
and keeps the attributes the pattern returns. If the design's keys cannot find exactly these items
(an unpadded number in a sort key, a sparse index that leaves items out, a begins_with prefix that
catches another entity), the comparison shows the difference.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from typing import Any

from modeling.data.sample_data import Item
from modeling.design.plans import Operation
from modeling.model import (
    AccessPattern,
    AttributeUpdate,
    ComparisonOperator,
    ConditionKind,
    Model,
    RangeCondition,
    RangeOperator,
    UpdateAction,
    WriteCondition,
)
from modeling.preview.dataset import PreviewData, StoredItem, json_value
from modeling.preview.requests import ReadShape, RequestBuildError, filter_values


@dataclass(frozen=True)
class Comparison:
    expected_count: int
    returned_count: int
    missing: tuple[Item, ...]  # expected but not returned (at most a few shown)
    unexpected: tuple[Item, ...]  # returned but not expected
    order_problem: str  # "" when the order is right or not checkable
    missing_count: int = 0
    unexpected_count: int = 0

    @property
    def passed(self) -> bool:
        return not self.missing and not self.unexpected and not self.order_problem


def choose_inputs(model: Model, shape: ReadShape, data: PreviewData, seed: int) -> list[dict[str, Any]]:
    """Realistic inputs taken from the loaded items: an item that has the answer's attributes."""
    return inputs_from(input_candidates(model, shape, data), shape, data, seed)


def input_candidates(model: Model, shape: ReadShape, data: PreviewData) -> list[StoredItem]:
    """The loaded items `choose_inputs` picks from (they do not depend on the seed: a caller choosing inputs
    for many seeds, as the load test does, finds them once)."""
    pattern = shape.pattern
    constants = filter_values(model, pattern)
    items = [item for entity in pattern.entities for item in data.of(entity)]
    with_inputs = items_carrying(items, pattern.inputs, pattern.name, pattern.entities)
    candidates = [item for item in items_carrying(with_inputs, [shape.range_attribute] if shape.range_attribute else [])
                  if all(item.attributes.get(a) == v for a, v in constants.items())]
    return candidates or with_inputs


def items_carrying(items: list[StoredItem], names: Iterable[str], pattern: str = "",
                   entities: Iterable[str] = ()) -> list[StoredItem]:
    """The items that hold a value for every one of `names`: a request's inputs come from one of them.

    An optional attribute (`manager`, not on every item) is absent from some items, and an input taken from
    such an item cannot build the request. With `pattern` given, finding none among `items` raises a
    RequestBuildError naming the attributes and the entity, rather than sending a request without them.
    """
    names = [n for n in names if n]
    found = [item for item in items if all(item.attributes.get(n) is not None for n in names)]
    if found or not items or not pattern:
        return found
    absent = [n for n in names if all(item.attributes.get(n) is None for item in items)]
    entity = " or ".join(dict.fromkeys(entities)) or "matching"
    missing = (f"has {_and(absent)}" if absent else f"has {_and(names)} together")
    raise RequestBuildError(f"{pattern}: no sample {entity} item {missing} (an optional attribute, or a "
                            f"reference that found no values); give the pattern's inputs a value for "
                            f"{_and(absent or names)}, or generate {'it' if len(absent) == 1 else 'them'} "
                            "on every item")


def write_targets(model: Model, data: PreviewData, pattern: AccessPattern) -> list[StoredItem]:
    """The items an update or delete may pick: those carrying every input that names the item.

    Inputs the write sets (a new `manager`) or compares (`amount`) need not be on the item already.
    """
    entity = model.entity(pattern.entities[0])
    naming = [n for n in pattern.inputs if entity is not None and entity.attribute(n) is not None
              and n not in pattern.changed and n not in pattern.value_inputs]
    return items_carrying(data.of(pattern.entities[0]), naming, pattern.name, pattern.entities[:1])


def _and(names: list[str]) -> str:
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else ""


def inputs_from(candidates: list[StoredItem], shape: ReadShape, data: PreviewData, seed: int) -> list[dict[str, Any]]:
    """`choose_inputs` given its candidates (`input_candidates`)."""
    pattern = shape.pattern
    rng = random.Random(f"{seed}/{pattern.name}")  # noqa: S311 - sample choice, not security
    if not candidates:
        return [{}]
    if shape.plan.operation in (Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS):
        count = max(1, min(round(pattern.expected_items), 100, len(candidates)))
        chosen = rng.sample(candidates, count)
        return [{n: item.attributes[n] for n in pattern.inputs} for item in chosen]
    item = rng.choice(candidates)
    values = {n: item.attributes[n] for n in pattern.inputs}
    condition = pattern.range_condition  # its attribute is shape.range_attribute
    if condition is not None:
        values[condition.attribute] = _range_value(condition, shape, item, data)
    return [values]


def _range_value(condition: RangeCondition, shape: ReadShape, chosen: StoredItem, data: PreviewData) -> Any:
    """Bounds that cut the chosen item's collection in a telling place (quartiles, median, a prefix)."""
    operator, attribute = condition.operator, condition.attribute
    siblings = sorted(v for i in data.of(chosen.entity)
                      if all(i.attributes.get(n) == chosen.attributes.get(n) for n in shape.pattern.inputs)
                      and (v := i.attributes.get(attribute)) is not None)
    if not siblings:
        return None
    value = chosen.attributes.get(attribute, siblings[len(siblings) // 2])
    if operator is RangeOperator.BETWEEN:
        return (siblings[len(siblings) // 4], siblings[(3 * len(siblings)) // 4])
    if operator is RangeOperator.BEGINS_WITH:
        text = str(value)
        return text[: max(1, (len(text) + 1) // 2)]
    if operator is RangeOperator.EQUALS:
        return value
    return siblings[len(siblings) // 2]


def expected_items(model: Model, shape: ReadShape, data: PreviewData, inputs: list[dict[str, Any]]) -> list[Item]:
    """The items the pattern asks for, each with the attributes it returns."""
    wanted = returned_attributes(model, shape)
    return [project(item.attributes, wanted) for item in matching_items(model, shape, data, inputs)]


def matching_items(model: Model, shape: ReadShape, data: PreviewData,
                   inputs: list[dict[str, Any]]) -> list[StoredItem]:
    """The loaded items the pattern asks for, whole, with their keys (in the data's order)."""
    pattern = shape.pattern
    constants = filter_values(model, pattern)
    if shape.plan.operation in (Operation.BATCH_GET_ITEM, Operation.TRANSACT_GET_ITEMS, Operation.GET_ITEM):
        return [item for values in inputs for item in data.of(pattern.entities[0])
                if all(item.attributes.get(n) == v for n, v in values.items())]
    values = {**inputs[0], **constants}
    equal = {n: values[n] for n in shape.equal_attributes if n in values}
    result = []
    for item in data.items:
        if item.entity not in pattern.entities:
            continue
        if not all(item.attributes.get(n) == v for n, v in equal.items()):
            continue
        condition = pattern.range_condition  # its attribute is shape.range_attribute
        if condition is not None and not _in_range(condition.operator, item.attributes.get(condition.attribute),
                                                   values.get(condition.attribute)):
            continue
        result.append(item)
    return result


def _in_range(operator: RangeOperator, value: Any, bound: Any) -> bool:
    if value is None or bound is None:
        return False
    try:
        if operator is RangeOperator.BETWEEN:
            return bool(bound[0] <= value <= bound[1])
        if operator is RangeOperator.BEGINS_WITH:
            return isinstance(value, str) and value.startswith(str(bound))
        return bool({RangeOperator.EQUALS: value == bound, RangeOperator.LESS_THAN: value < bound,
                     RangeOperator.LESS_THAN_OR_EQUAL: value <= bound, RangeOperator.GREATER_THAN: value > bound,
                     RangeOperator.GREATER_THAN_OR_EQUAL: value >= bound}[operator])
    except TypeError:  # a number compared with text: not in range
        return False


def returned_attributes(model: Model, shape: ReadShape) -> tuple[str, ...]:
    """What the pattern returns: its `returns`, else whole items (as the design checks read it, DDS205).

    An index that projects less than the pattern returns cannot answer it: the comparison shows the
    attributes missing from every item.
    """
    if shape.pattern.returns:
        return shape.pattern.returns
    names: dict[str, None] = {}
    for entity_name in shape.pattern.entities:
        entity = model.entity(entity_name)
        for attribute in entity.attributes if entity else ():
            names[attribute.name] = None
    return tuple(names)


def project(item: Item, attributes: tuple[str, ...]) -> Item:
    return {name: item[name] for name in attributes if name in item}


def compare(expected: list[Item], returned: list[Item], attributes: tuple[str, ...], shape: ReadShape,
            shown: int = 5) -> Comparison:
    """Expected and returned items as multisets, plus the order a sorted pattern promises."""
    returned_projected = [project(item, attributes) for item in returned]
    want, got = Counter(map(_canonical, expected)), Counter(map(_canonical, returned_projected))
    missing = [json.loads(text) for text in (want - got).elements()]
    unexpected = [json.loads(text) for text in (got - want).elements()]
    return Comparison(len(expected), len(returned), tuple(missing[:shown]), tuple(unexpected[:shown]),
                      _order_problem(shape, returned_projected), len(missing), len(unexpected))


def first_page_answers(shape: ReadShape, attributes: tuple[str, ...]) -> bool:
    """A paged Query ordered by its range attribute answers with its first page: "the latest 20"."""
    return (shape.plan.operation is Operation.QUERY and shape.pattern.page_size is not None
            and shape.range_attribute is not None and shape.range_attribute in attributes
            and not shape.filter_attributes and len(shape.pattern.entities) == 1)


def compare_first_page(expected: list[Item], returned: list[Item], attributes: tuple[str, ...], shape: ReadShape,
                       shown: int = 5) -> Comparison:
    """The first page must hold the top `page_size` items by the range attribute, in order.

    Items that tie on the range attribute may come in any order, so the page is compared by its range
    values, and each returned item must be one of the expected items.
    """
    attribute, forward = shape.range_attribute, shape.plan.scan_index_forward
    if attribute is None:
        raise ValueError("the first page is compared on a range attribute: see first_page_answers")
    ordered = sorted(expected, key=lambda item: _sort_value(item.get(attribute)), reverse=not forward)
    top = ordered[: shape.pattern.page_size]
    returned_projected = [project(item, attributes) for item in returned]
    unexpected = list((Counter(map(_canonical, returned_projected)) - Counter(map(_canonical, expected))).elements())
    want = Counter(_canonical(item.get(attribute)) for item in top)
    got = Counter(_canonical(item.get(attribute)) for item in returned_projected)
    missing = [item for item in top if _canonical(item.get(attribute)) in (want - got)]
    return Comparison(len(top), len(returned), tuple(missing[:shown]), tuple(json.loads(t) for t in unexpected[:shown]),
                      _order_problem(shape, returned_projected), len(missing), len(unexpected))


def _sort_value(value: Any) -> tuple[int, Any]:
    """Numbers before text, each in its own order (a mixed column cannot be compared directly)."""
    return (0, value) if isinstance(value, Decimal | int | float) else (1, str(value))


def _order_problem(shape: ReadShape, returned: list[Item]) -> str:
    attribute = shape.range_attribute
    if shape.plan.operation is not Operation.QUERY or attribute is None or len(shape.pattern.entities) > 1:
        return ""
    values = [item[attribute] for item in returned if attribute in item]
    if len(values) < 2 or len(values) != len(returned):
        return ""
    forward = shape.plan.scan_index_forward
    for first, second in pairwise(values):
        try:
            wrong = first > second if forward else first < second
        except TypeError:
            wrong = True
        if wrong:
            direction = "ascending" if forward else "descending"
            return (f"the items are not in {direction} {attribute} order ({first} came before {second}): "
                    "the sort key does not sort like the attribute (pad numbers to a fixed width)")
    return ""


def _canonical(item: object) -> str:
    return json.dumps(item, sort_keys=True, default=json_value)


# --- writes (issue 16): what a conditional write must leave, worked out in plain Python ---------------


def apply_operations(before: Item | None, ops: tuple[tuple[UpdateAction, str, str], ...],
                     values: dict[str, Any]) -> Item:
    """The attributes after SET / if_not_exists / ADD / REMOVE operations, as DynamoDB documents them: ADD to
    a missing number starts from 0, ADD to a set is a union, an update of a missing item creates it."""
    after = dict(before or {})
    for action, attribute, placeholder in ops:
        value = values.get(placeholder)
        if action is UpdateAction.SET:
            after[attribute] = value
        elif action is UpdateAction.IF_NOT_EXISTS:
            after.setdefault(attribute, value)
        elif action is UpdateAction.REMOVE:
            after.pop(attribute, None)
        elif isinstance(value, set | frozenset):
            after[attribute] = set(after.get(attribute, set())) | set(value)
        else:  # ADD of a number: the request always gives its value
            after[attribute] = Decimal(after.get(attribute, 0)) + Decimal(values[placeholder])
    return after


_COMPARE = {ComparisonOperator.EQUALS: lambda a, b: a == b, ComparisonOperator.NOT_EQUALS: lambda a, b: a != b,
            ComparisonOperator.LESS_THAN: lambda a, b: a < b,
            ComparisonOperator.LESS_THAN_OR_EQUAL: lambda a, b: a <= b,
            ComparisonOperator.GREATER_THAN: lambda a, b: a > b,
            ComparisonOperator.GREATER_THAN_OR_EQUAL: lambda a, b: a >= b}


def condition_holds(condition: WriteCondition | None, claims: bool, before: Item | None,
                    values: dict[str, Any], value_of: dict[str, str]) -> bool:
    """Whether a member's ConditionExpression holds on the item as it is (`claims`: attribute_not_exists of an
    auxiliary item); `value_of` maps the condition's value placeholder to the values' key."""
    if claims:
        return before is None
    if condition is None:
        return True
    if condition.kind is ConditionKind.ATTRIBUTE_NOT_EXISTS:
        return before is None
    if condition.kind is ConditionKind.ATTRIBUTE_EXISTS:
        return before is not None
    if before is None or condition.attribute not in before:
        return False  # a comparison with a missing attribute is false
    value = values.get(value_of.get("value", ""))
    if condition.kind is ConditionKind.VERSION_MATCHES:
        return bool(before[condition.attribute] == value)
    if condition.operator is None:
        raise ValueError("a compare condition has an operator: WriteCondition's validator requires it")
    try:
        return bool(_COMPARE[condition.operator](before[condition.attribute], value))
    except TypeError:
        return False  # DynamoDB compares only values of one type


def constant_value(constant: Any) -> Any:
    """A model constant as DynamoDB stores it: numbers as Decimal (booleans stay booleans)."""
    if isinstance(constant, int | float) and not isinstance(constant, bool):
        return Decimal(str(constant))
    return constant


def update_value(update: AttributeUpdate, inputs: dict[str, Any], new_value: Any) -> Any:
    """The value one update of the pattern puts in, read from the pattern's semantics: its constant, its input
    (negated for a `negate` ADD), its `amount` (1 by default), else `new_value` (a SET of a fresh value)."""
    if update.value is not None:
        return constant_value(update.value)
    if update.input is not None:
        value = inputs[update.input]
        return -value if update.negate else value
    if update.action is UpdateAction.ADD:
        return constant_value(update.amount if update.amount is not None else 1)
    return new_value


def expected_own_item(before: Item | None, updates: tuple[AttributeUpdate, ...], inputs: dict[str, Any],
                      new_values: dict[str, Any], version: str | None = None) -> Item:
    """An item after the pattern's updates (a Put: the new item's attributes after its SETs and REMOVEs), worked
    out from the model's `updates`, not from the request: SET a constant or input, ADD, REMOVE, if_not_exists,
    and +1 on the version a `version_matches` condition checks."""
    ops = tuple((u.action, u.attribute, f"u{i}") for i, u in enumerate(updates))
    values = {f"u{i}": update_value(u, inputs, new_values.get(u.attribute, (before or {}).get(u.attribute)))
              for i, u in enumerate(updates)}
    if version is not None:
        ops = (*ops, (UpdateAction.ADD, version, "version"))
        values["version"] = Decimal(1)
    return apply_operations(before, ops, values)


def condition_value(condition: WriteCondition | None, inputs: dict[str, Any], read_version: Any) -> Any:
    """What the pattern's condition compares with: its constant, its input, or the version the application read."""
    if condition is None:
        return None
    if condition.kind is ConditionKind.VERSION_MATCHES:
        return read_version
    if condition.value is not None:
        return constant_value(condition.value)
    return inputs.get(condition.input or "")
