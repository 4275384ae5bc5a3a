"""DDS206, exact results: a Query whose key condition also reads items the pattern does not ask for.

The Preview's oracle (modeling.preview.oracle) computes what a read should return from the items alone: the
items of the pattern's entities whose attributes equal its inputs. A Query returns every item its key
condition matches, of any entity: when another entity's items share the partition and nothing in the sort-key
condition (or a filter on an attribute they lack) keeps them out, they come back too (`get_book_detail_by_isbn`
returning the Title items of the same ISBN; `begins_with(SK, "ORDER#")` also matching `ORDER#ITEM#...`).

This is the oracle worked out statically, from the key templates. The key condition is the one the planner
plans and the Preview sends (`modeling.design.planner._sort_key_match`, `modeling.preview.requests`): the
partition key; then, for one entity, the sort key equal to its whole template when the inputs give every part,
a range on the next part, or `begins_with` the text before the first part the inputs do not give; nothing for
a pattern of several entities. Two key templates are compared piece by piece, pieces split at `#`:
constants must agree, and an attribute's value is assumed never to equal a constant label (`ORDER`, `ITEM`),
which is how generated keys keep entities apart. Two partition templates name the same partition when they are
the same text, or when they differ only in attributes holding the same values (a reference to the other's
attribute: `{orderId}` of an item and `{id}` of its order). An index keyed by plain attribute names also holds
the entities whose items carry those attributes without a template there (`carried_keys`).

The pattern's own entity is the other half of the oracle: its items that do not equal the inputs. Inputs the
keys do not use become a filter (the planner's), so these come back only when the key condition ends on an
input's value with nothing after it (`begins_with(SK, "TITLE#en")` for `TITLE#{language}{edition}` also matches
`TITLE#en-GB1`): `open_ended_value`, judged by whether the attribute's values can start one another
(`values_nest`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from modeling.design.checks.catalogue import Finding, finding
from modeling.design.checks.context import Context, Rule, where
from modeling.design.keys import HIGH, KeyTemplate, Segment, key_range
from modeling.design.planner import AccessPath, entities_span
from modeling.design.plans import TABLE, Operation
from modeling.model import (
    AccessPattern,
    Entity,
    EnumGenerator,
    FakerGenerator,
    FloatRangeGenerator,
    IntRangeGenerator,
    KeyTemplates,
    Model,
    RangeOperator,
    ReferenceGenerator,
    SequenceGenerator,
    TextGenerator,
)

# A piece of a rendered key between `#` separators: constants and attribute references, in order.
_Piece = tuple[Segment, ...]
_OPEN_RANGES = (RangeOperator.LESS_THAN, RangeOperator.LESS_THAN_OR_EQUAL, RangeOperator.GREATER_THAN,
                RangeOperator.GREATER_THAN_OR_EQUAL)
_MAX_REFERENCE_HOPS = 8


@dataclass(frozen=True)
class SortCondition:
    """What a Query's sort-key condition fixes: nothing (the whole partition), a prefix, or the whole key.

    `pieces` is the text the condition fixes, split at `#`; with `partial_last` its last piece is only the
    start of a piece (`begins_with`); `whole` means the key must be exactly `pieces`."""

    pieces: tuple[_Piece, ...]
    partial_last: bool
    whole: bool
    text: str  # how it reads in a message: "begins_with(SK, ORDER#)"
    span: tuple[str, str] | None = None  # several entities: BETWEEN these (`planner.entities_span`)

    @property
    def whole_partition(self) -> bool:
        return not self.pieces and not self.whole and self.span is None


_WHOLE_PARTITION = SortCondition((), False, False, "no sort-key condition")


def sort_condition(path: AccessPath, pattern: AccessPattern, templates: KeyTemplates,
                   model: Model | None = None) -> SortCondition:
    """The sort-key condition a Query of `pattern` on `path` sends (planner and Preview alike)."""
    if len(pattern.entities) > 1 and path.sort_key is not None:
        span = _span(path, pattern, model)
        if span is not None:
            return span
    if len(pattern.entities) != 1 or path.sort_key is None or templates.sort_key is None:
        return _WHOLE_PARTITION
    condition = _one_entity_condition(path, pattern, templates.sort_key)
    if condition.whole_partition:
        # nothing before the first value, or an open range on it: the planner bounds a plain value key (`{time}`)
        # by its values' range when that leaves the other entities' keys out
        return _span(path, pattern, model) or condition
    return condition


def _span(path: AccessPath, pattern: AccessPattern, model: Model | None) -> SortCondition | None:
    span = entities_span(path, pattern.entities, model)
    if span is None:
        return None
    return SortCondition((), False, False, f"{path.sort_key} BETWEEN {span[0]!r} AND the highest "
                         f"{span[1].rstrip(HIGH)!r} key", span)


def _one_entity_condition(path: AccessPath, pattern: AccessPattern, sort_key: str) -> SortCondition:
    """The condition on one entity's sort key from the inputs and the range alone."""
    sort = KeyTemplate.parse(sort_key)
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    names = sort.attribute_names
    known = _known_count(pattern, sort)
    if known == len(names):
        return SortCondition(_pieces(sort.segments), False, True, f"{path.sort_key} = {sort_key}")
    references = [i for i, s in enumerate(sort.segments) if s.is_attribute]
    before = sort.segments[:references[known]]
    shown = "".join(_shown(s) for s in before)
    if range_attribute == names[known] and pattern.range_condition is not None:
        if pattern.range_condition.operator in _OPEN_RANGES and not before:
            return _WHOLE_PARTITION  # `SK < :bound` with nothing before it reaches every item below the bound
        if pattern.range_condition.operator not in _OPEN_RANGES:  # the range fixes the next part's kind too
            return SortCondition(_pieces((*before, sort.segments[references[known]])), True, False,
                                 f"a range on {path.sort_key} after {shown!r}")
    if not before:
        return _WHOLE_PARTITION
    return SortCondition(_pieces(before), True, False, f"begins_with({path.sort_key}, {shown!r})")


def _known_count(pattern: AccessPattern, sort: KeyTemplate) -> int:
    """How many of the sort key's leading attributes the pattern's equality inputs and filters give."""
    range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
    equal = {n for n in (*pattern.inputs, *(f.attribute for f in pattern.filters)) if n != range_attribute}
    names = sort.attribute_names
    known = 0
    while known < len(names) and names[known] in equal:
        known += 1
    return known


def _shown(segment: Segment) -> str:
    return "{" + segment.text + "}" if segment.is_attribute else segment.text


def _pieces(segments: tuple[Segment, ...]) -> tuple[_Piece, ...]:
    """Segments split at every `#` of their constants (attribute values are taken to hold no `#`)."""
    pieces: list[list[Segment]] = [[]]
    for segment in segments:
        if segment.is_attribute:
            pieces[-1].append(segment)
            continue
        for i, text in enumerate(segment.text.split("#")):
            if i:
                pieces.append([])
            if text:
                pieces[-1].append(Segment(text, False))
    return tuple(tuple(p) for p in pieces)


def _constant(piece: _Piece) -> str | None:
    """A piece's text when it is all constant, else None."""
    return None if any(s.is_attribute for s in piece) else "".join(s.text for s in piece)


def _lead(piece: _Piece) -> str:
    """The constant text a piece starts with."""
    text = ""
    for segment in piece:
        if segment.is_attribute:
            break
        text += segment.text
    return text


def _pieces_may_match(ours: _Piece, theirs: _Piece, partial: bool, same_value: SameValue | None = None) -> bool:
    """Whether a piece of another key can equal ours (start with ours, when `partial`)."""
    mine, other = _constant(ours), _constant(theirs)
    if mine is not None and other is not None:
        return other.startswith(mine) if partial else other == mine
    if mine is not None or other is not None:
        if partial and mine == "":
            return True  # `begins_with(SK, "ORDER#")`: nothing of this piece is fixed yet
        # an attribute's value never equals a constant label; a mixed piece (`V{n}`) may, by its leading text
        constant, mixed = (mine, theirs) if mine is not None else (other, ours)
        lead = _lead(mixed)
        return bool(lead) and (constant or "").startswith(lead)
    lead_a, lead_b = _lead(ours), _lead(theirs)
    if not (lead_a.startswith(lead_b) or lead_b.startswith(lead_a)):
        return False
    if same_value is None:
        return True
    attributes_a = [s.text for s in ours if s.is_attribute]
    attributes_b = [s.text for s in theirs if s.is_attribute]
    return len(attributes_a) == len(attributes_b) and all(map(same_value, attributes_a, attributes_b))


def may_match(ours: SortCondition, other_sort: str | None) -> bool:
    """Whether an item with sort key template `other_sort` can meet our sort-key condition."""
    if ours.whole_partition:
        return True
    if other_sort is None:
        return False
    if ours.span is not None:
        low, high = key_range(other_sort)
        return low <= ours.span[1] and ours.span[0] <= high
    theirs = _pieces(KeyTemplate.parse(other_sort).segments)
    if ours.whole and len(theirs) != len(ours.pieces):
        return False
    if len(theirs) < len(ours.pieces):
        return False
    last = len(ours.pieces) - 1
    return all(_pieces_may_match(piece, theirs[i], ours.partial_last and i == last)
               for i, piece in enumerate(ours.pieces))


class SameValue:
    """Whether two attributes (of two entities) can hold the same values: the same name, or references that
    lead to the same attribute (`OrderItem.orderId` -> `Order.id`)."""

    def __init__(self, model: Model, ours: Entity, theirs: Entity) -> None:
        self.model, self.ours, self.theirs = model, ours, theirs

    def __call__(self, mine: str, other: str) -> bool:
        return mine == other or _root(self.model, self.ours, mine) == _root(self.model, self.theirs, other)


def _root(model: Model, entity: Entity, name: str) -> tuple[str, str]:
    """The attribute whose values an attribute holds: follows reference generators to their source."""
    for _ in range(_MAX_REFERENCE_HOPS):
        attribute = entity.attribute(name)
        generator = attribute.generator if attribute is not None else None
        target = model.entity(generator.entity) if isinstance(generator, ReferenceGenerator) else None
        if target is None or not isinstance(generator, ReferenceGenerator):
            break
        entity, name = target, generator.attribute
    return entity.name, name


def same_partition(model: Model, ours: Entity, mine: str, theirs: Entity, other: str) -> bool:
    """Whether two partition-key templates can name the same partition value."""
    if mine == other:
        return True
    a, b = _pieces(KeyTemplate.parse(mine).segments), _pieces(KeyTemplate.parse(other).segments)
    same_value = SameValue(model, ours, theirs)
    return len(a) == len(b) and all(_pieces_may_match(x, y, False, same_value) for x, y in zip(a, b, strict=True))


def _filtered_out(plan_filter: str, entity: Entity, range_in_filter: str | None) -> bool:
    """A FilterExpression on an attribute the entity does not have keeps its items out."""
    attributes = {*re.findall(r"(\S+) = :", plan_filter), *([range_in_filter] if range_in_filter else [])}
    return any(entity.attribute(a) is None for a in attributes)


def carried_keys(model: Model, path: AccessPath, table: AccessPath | None) -> dict[str, KeyTemplates]:
    """Entities an index holds without a template on it: their items carry the index's key attributes themselves.

    DynamoDB puts every item that has an index's key attributes into the index, whatever entity it is (dynamodb-
    rules §4.1). An index keyed by plain attribute names (`customerId`, `orderId`) so also holds every other
    entity whose items have attributes of those names (an order item carries its order's customerId and orderId),
    keyed by their values: `{customerId}` / `{orderId}`. An LSI's partition is the table's, so such an entity
    sits there under its table partition key."""
    if path.name == TABLE:
        return {}
    found = {}
    for entity in model.entities:
        if entity.name in path.templates or (path.is_global and entity.attribute(path.partition_key) is None):
            continue
        if path.sort_key is not None and entity.attribute(path.sort_key) is None:
            continue
        sort = "{" + path.sort_key + "}" if path.sort_key is not None else None
        if path.is_global:
            found[entity.name] = KeyTemplates(partition_key="{" + path.partition_key + "}", sort_key=sort)
        elif sort is not None and table is not None and entity.name in table.templates:
            found[entity.name] = KeyTemplates(partition_key=table.templates[entity.name].partition_key, sort_key=sort)
    return found


def extra_entities(model: Model, path: AccessPath, pattern: AccessPattern, plan_filter: str,
                   range_in_filter: str | None = None,
                   table: AccessPath | None = None) -> tuple[tuple[str, SortCondition], ...]:
    """The other entities on `path` whose items a Query of `pattern` also returns, with the sort condition: those
    with templates on it, and those whose items carry its key attributes (`carried_keys`)."""
    first = model.entity(pattern.entities[0])
    templates = path.templates.get(pattern.entities[0])
    if first is None or templates is None:
        return ()
    condition = sort_condition(path, pattern, templates, model)
    found = []
    for name, theirs in {**path.templates, **carried_keys(model, path, table)}.items():
        other = model.entity(name)
        if name in pattern.entities or other is None:
            continue
        if not same_partition(model, first, templates.partition_key, other, theirs.partition_key):
            continue
        if may_match(condition, theirs.sort_key) and not _filtered_out(plan_filter, other, range_in_filter):
            found.append((name, condition))
    return tuple(found)


def _extra_items(ctx: Context) -> Iterator[Finding]:
    """DDS206: a Query whose key condition also returns items of entities the pattern does not ask for."""
    for pattern, plan in ctx.plans():
        path = ctx.paths.get(plan.index)
        if plan.operation is not Operation.QUERY or path is None or not pattern.kind.is_read:
            continue
        range_attribute = pattern.range_condition.attribute if pattern.range_condition else None
        in_filter = range_attribute if range_attribute and range_attribute in plan.filter_expression else None
        extra = extra_entities(ctx.model, path, pattern, plan.filter_expression, in_filter, ctx.paths.get(TABLE))
        if not extra:
            continue
        names = ", ".join(name for name, _ in extra)
        carried = [name for name, _ in extra if name not in path.templates]
        why = (f" ({', '.join(carried)} {'has' if len(carried) == 1 else 'have'} attributes named "
               f"{' and '.join(n for n in (path.partition_key, path.sort_key) if n)}, so DynamoDB puts "
               f"{'its' if len(carried) == 1 else 'their'} items in {plan.index} too)" if carried else "")
        condition = extra[0][1]
        yield finding("DDS206", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} asks for {', '.join(pattern.entities)} items, but its Query on {where(plan.index)} "
            f"({path.partition_key} = {path.templates[pattern.entities[0]].partition_key}, {condition.text}) also "
            f"returns the {names} items of the same partition{why}: the answer holds items it does not ask for, "
            "and every one of them is read and paid for."),
            pattern=pattern.name, index=None if plan.index == TABLE else plan.index)


# --- the pattern's own entity: a value that starts another value ------------------------------------------------


def open_ended_value(path: AccessPath, pattern: AccessPattern, templates: KeyTemplates) -> str | None:
    """The attribute a Query's sort-key condition ends on with nothing after it, else None.

    `begins_with(SK, "TITLE#en")` for `TITLE#{language}{edition}`: the condition fixes `language` but nothing
    marks where its value ends, so a title in `en-GB` (a value that starts with `en`) meets it too. A range on
    the next part after such a value (`X#{a}{date}` BETWEEN ...) is open the same way. A separator after the
    value (`TITLE#{language}#{edition}`) or a fixed width (`{n:8}`) closes it."""
    condition = sort_condition(path, pattern, templates)
    if condition.whole or condition.whole_partition or condition.span is not None or templates.sort_key is None:
        return None
    sort = KeyTemplate.parse(templates.sort_key)
    references = [i for i, s in enumerate(sort.segments) if s.is_attribute]
    before = sort.segments[:references[_known_count(pattern, sort)]]
    last = before[-1] if before else None
    if last is None or not last.is_attribute or last.width is not None:
        return None
    return last.text


def values_nest(model: Model, entity: Entity, name: str) -> bool:
    """Whether one value of the attribute can be the start of another (`en` and `en-GB`, `7` and `72`), from its
    generator (references followed to their source). Fixed-length values (uuids, timestamps, booleans) and a
    single constant cannot; an attribute without a generator is not judged."""
    owner, source = _root(model, entity, name)
    root = model.entity(owner)
    attribute = root.attribute(source) if root is not None else None
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, EnumGenerator):
        values = set(generator.values)
        return any(a != b and b.startswith(a) for a in values for b in values)
    if isinstance(generator, SequenceGenerator):
        return generator.width == 0
    return isinstance(generator, FakerGenerator | TextGenerator | IntRangeGenerator | FloatRangeGenerator)


def _own_items(ctx: Context) -> Iterator[Finding]:
    """DDS206 for the pattern's own entity: a sort-key condition that ends on a value with nothing after it."""
    for pattern, plan in ctx.plans():
        path = ctx.paths.get(plan.index)
        entity = ctx.entity(pattern.entities[0]) if pattern.entities else None
        if plan.operation is not Operation.QUERY or path is None or entity is None or len(pattern.entities) != 1:
            continue
        templates = path.templates.get(entity.name)
        if templates is None or path.sort_key is None:
            continue
        name = open_ended_value(path, pattern, templates)
        if name is None or not values_nest(ctx.model, entity, name):
            continue
        yield finding("DDS206", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} asks for the {entity.name} items whose {name} equals its input, but its Query on "
            f"{where(plan.index)} ({sort_condition(path, pattern, templates).text}, sort key {templates.sort_key}) "
            f"ends on the {name} value with nothing after it: a {entity.name} whose {name} starts with that value "
            f"(en-GB after en, 72 after 7) meets the condition too, so the answer holds {entity.name} items it does "
            f"not ask for. Put a separator after {{{name}}} in the sort key ({{{name}}}#...)."),
            pattern=pattern.name, index=None if plan.index == TABLE else plan.index)


RULES: tuple[Rule, ...] = (_extra_items, _own_items)
