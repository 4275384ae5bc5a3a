"""A model inferred from a table's description and a sample of its items (pure: no endpoint here).

`modeling.interop.live_import` reads the table; this module turns what it read into a model document:

1. Items are grouped by the *shape* of their table keys, read with the key grammar of `modeling.design.keys`
   (the one the NoSQL Workbench import uses): each segment that reads as a label (`CUSTOMER`, `u`,
   `follower`: letters and `_`) is kept, any other segment is a value; a one-segment sort key found in
   several partitions is a constant. So `CUSTOMER#123 / PROFILE` and `CUSTOMER#9 / TICKET#T-1` are two groups.
2. Each group becomes an entity named after its labels: the sort key's first label when the sort key
   has values (`TICKET#...` -> Ticket), else the partition key's last label (`CUSTOMER#123` ->
   Customer), unless a constant sort key is more specific (`XP_TRANSFER` beside `TRANSFER#...`).
3. Each key value becomes a template: a segment equal in every item stays constant; a segment equal
   to one attribute's value in every item becomes `{attribute}` (zero-padded numbers keep their width);
   any other segment becomes a new attribute that exists only inside the key (`customerId`).
4. Attributes get the most common DynamoDB type, `required` when every sampled item has them, and a
   generator where the values make it obvious (UUIDs, sequences, e-mails, timestamps, small sets of
   values, number ranges, booleans, and references to the entity that owns an identifier).

Everything inferred is reported, so the user can check it. Label-like values inside table keys
(a status such as `OPEN`) split groups; the report shows such groups.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import Binary, TypeDeserializer

from modeling.data.value_generators import generator_for
from modeling.design.keys import (
    ATTRIBUTE_NAME_PATTERN,
    KEY_SEPARATOR,
    LABEL_SEPARATORS,
    VALUE,
    is_constant_word,
    is_label,
    key_shape,
    render_value,
    repeated_constants,
    split_key_value,
)
from modeling.model import FORMAT_NAME, FORMAT_VERSION, KeyAttribute, SecondaryIndex

SEPARATOR = KEY_SEPARATOR  # for the shapes shown in the notes
_ANY_SEPARATOR = "[" + re.escape(KEY_SEPARATOR + "".join(LABEL_SEPARATORS)) + "]"
_NAME = re.compile(ATTRIBUTE_NAME_PATTERN)  # modeling.model.AttributeName: `State#Date` is kept
_PADDED = re.compile(r"^\d+(\.\d+)?$")
_deserializer = TypeDeserializer()
# Value bytes of the types whose size varies with the value (dynamodb-rules §6: UTF-8 bytes of a string, the raw
# bytes of a binary, the sum of a binary set's members)
_SIZED_KINDS: dict[str, Callable[[Any], int]] = {
    "S": lambda text: len(text.encode("utf-8")),
    "B": len,
    "BS": lambda members: sum(len(m) for m in members),
}


@dataclass(frozen=True)
class TableFacts:
    """What DescribeTable (and the TTL and backup descriptions) say about the table."""

    name: str
    partition_key: KeyAttribute
    sort_key: KeyAttribute | None
    global_secondary_indexes: tuple[SecondaryIndex, ...] = ()
    local_secondary_indexes: tuple[SecondaryIndex, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)  # model `table` fields besides name and region
    item_count: int = 0  # DynamoDB's approximate count (refreshed about every six hours)

    @property
    def key_names(self) -> set[str]:
        names = {self.partition_key.name, *([self.sort_key.name] if self.sort_key else [])}
        for index in (*self.global_secondary_indexes, *self.local_secondary_indexes):
            names.add(index.partition_key.name)
            if index.sort_key:
                names.add(index.sort_key.name)
        return names


@dataclass
class _Item:
    values: dict[str, Any]  # Python values (Decimal numbers, str, bool, sets, lists, dicts)
    types: dict[str, str]  # DynamoDB type letter per attribute


_Shape = tuple[tuple[str, ...], tuple[str, ...] | None]  # (partition-key shape, sort-key shape or None)
_KeyTemplates = dict[str, str | list[dict[str, Any]]]  # partition_key, sort_key, only_when of a key-design entry


@dataclass
class _Group:
    shape: _Shape
    items: list[_Item]
    name: str = ""
    templates: dict[str, str] = field(default_factory=dict)  # key attribute -> template
    constants: frozenset[str] = frozenset()  # whole sort-key values read as constants (modeling.design.keys)
    conditions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # sparse key attribute -> only_when


@dataclass(frozen=True)
class InferredModel:
    document: dict[str, Any]
    inferred: tuple[str, ...]  # what was inferred, one sentence each


def parse_items(raw_items: Iterable[dict[str, dict[str, Any]]]) -> list[_Item]:
    """Items in DynamoDB JSON (as a low-level Scan returns them) as values plus type letters."""
    return [_Item({k: _plain_value(_deserializer.deserialize(v)) for k, v in raw.items()},
                  {k: next(iter(v)) for k, v in raw.items()}) for raw in raw_items]


def _plain_value(value: Any) -> Any:
    """boto3's `Binary` wrapper as the bytes it holds (its `str()` returns bytes, a TypeError wherever a value is
    rendered or compared as text: issue 30), also inside sets, lists and maps."""
    if isinstance(value, Binary):
        return bytes(value.value)
    if isinstance(value, set):
        return {_plain_value(v) for v in value}
    if isinstance(value, list):
        return [_plain_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_value(v) for k, v in value.items()}
    return value


def infer_model(facts: TableFacts, raw_items: list[dict[str, dict[str, Any]]], region: str,
                source: str) -> InferredModel:
    """A model document with an explicit key design, from the table's facts and a sample of its items."""
    notes: list[str] = []
    items = [i for i in parse_items(raw_items) if facts.partition_key.name in i.values]
    groups = _groups(facts, items)
    _name_groups(groups, facts.name, notes)
    for group in groups:
        _infer_templates(facts, group, notes)
    owners = _identifier_owners(facts, groups)
    entities = [_entity(facts, group, owners, len(items), notes) for group in groups]
    relationships = _relationships(groups, owners, notes)
    document = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "name": f"{facts.name} (imported)",
        "description": f"Imported from the table {facts.name} on {source}, from a sample of {len(items)} "
                       "items. Add the access patterns and their traffic on the Model page.",
        "table": {"name": facts.name, "region": region, **facts.settings},
        "entities": entities,
        **({"relationships": relationships} if relationships else {}),
        "key_design": _key_design(facts, groups),
    }
    if not items:
        notes.append("The sample has no items, so no entity could be inferred; the key design holds the "
                     "table's keys and indexes only.")
    return InferredModel(document, tuple(notes))


# --- grouping and naming -----------------------------------------------------------------------------


def _groups(facts: TableFacts, items: list[_Item]) -> list[_Group]:
    sort_name = facts.sort_key.name if facts.sort_key else None

    def text(item: _Item, name: str | None) -> str | None:
        value = item.values.get(name) if name else None
        return None if value is None else render_value(value)

    constants = repeated_constants((str(text(i, facts.partition_key.name)), text(i, sort_name)) for i in items)
    by_shape: dict[_Shape, _Group] = {}
    for item in items:
        sort_value = text(item, sort_name)
        shape = (key_shape(str(text(item, facts.partition_key.name))),
                 None if sort_value is None else key_shape(sort_value, constants))
        by_shape.setdefault(shape, _Group(shape, [], constants=frozenset(constants))).items.append(item)
    return sorted(by_shape.values(), key=lambda g: -len(g.items))


def entity_name(label: str) -> str:
    """`ORDER_ITEM` -> `OrderItem`; a name the model format accepts.

    >>> entity_name("ORDER_ITEM"), entity_name("xp-transfer"), entity_name("2FA")
    ('OrderItem', 'XpTransfer', 'E2fa')
    """
    words = [w for w in re.split(r"[^A-Za-z0-9]+", label) if w]
    name = "".join(w[:1].upper() + w[1:].lower() for w in words) or "Item"
    return name if name[0].isalpha() else f"E{name.lower()}"


def _labels(shape: tuple[str, ...] | None) -> list[str]:
    return [s for s in shape or () if s != "*"]


def _group_label(group: _Group, generic_sort_constants: set[str]) -> str | None:
    partition, sort = group.shape
    partition_labels, sort_labels = _labels(partition), _labels(sort)
    if sort is not None and len(sort) > 1 and sort_labels:
        return sort_labels[0]
    last = partition_labels[-1] if partition_labels else None
    constant = sort[0] if sort is not None and len(sort) == 1 and sort_labels else None
    if constant and constant not in generic_sort_constants and (last is None or last in constant.split("_")):
        return constant
    return last or constant


def _name_groups(groups: list[_Group], table_name: str, notes: list[str]) -> None:
    sort_constants = Counter(g.shape[1][0] for g in groups if g.shape[1] is not None and len(g.shape[1]) == 1)
    partition_shapes: dict[str, set[tuple[str, ...]]] = {}
    for group in groups:
        if group.shape[1] is not None and len(group.shape[1]) == 1:
            partition_shapes.setdefault(group.shape[1][0], set()).add(group.shape[0])
    generic = {c for c, shapes in partition_shapes.items() if len(shapes) > 1 and sort_constants[c] > 1}
    used: set[str] = set()
    for group in groups:
        label = _group_label(group, generic)
        base = entity_name(label) if label else entity_name(table_name)
        name, number = base, 2
        while name in used:
            name, number = f"{base}{number}", number + 1
        used.add(name)
        group.name = name
        how = f"from the key label {label}" if label else "after the table (its keys have no labels)"
        notes.append(f"Entity {name}: {len(group.items)} sampled items whose keys look like "
                     f"{_shape_text(group.shape)}; named {how}.")
        if name != base:
            notes.append(f"Entity {name} shares its label with another key shape; rename or merge it.")


def _shape_text(shape: tuple[tuple[str, ...], tuple[str, ...] | None]) -> str:
    partition, sort = shape
    text = SEPARATOR.join(s if s != "*" else "…" for s in partition)
    return text if sort is None else f"{text} / {SEPARATOR.join(s if s != '*' else '…' for s in sort)}"


# --- key templates ---------------------------------------------------------------------------------


def _infer_templates(facts: TableFacts, group: _Group, notes: list[str]) -> None:
    for key in sorted(facts.key_names, key=_key_order(facts)):
        with_key = [i for i in group.items if key in i.values and i.types[key] in ("S", "N", "B")]
        if not with_key:
            continue
        group.templates[key] = _template(key, with_key, facts.key_names, group, notes)
        if key in _index_entry_keys(facts) and len(with_key) < len(group.items):
            condition = _separating_condition(with_key, [i for i in group.items if key not in i.values],
                                              facts.key_names)
            found = ""
            if condition:
                group.conditions[key] = [condition]
                found = f"; only items with {condition['attribute']} = {condition['equals']} have it (only_when)"
            notes.append(f"Entity {group.name}: {len(with_key)} of {len(group.items)} sampled items have {key} "
                         f"(a sparse index){found or '; add only_when if a condition decides it'}.")


def _table_key_names(facts: TableFacts) -> list[str]:
    return [facts.partition_key.name, *([facts.sort_key.name] if facts.sort_key else [])]


def _index_entry_keys(facts: TableFacts) -> set[str]:
    """The attribute whose presence puts an item in an index: a GSI's partition key, an LSI's sort key."""
    return {i.partition_key.name for i in facts.global_secondary_indexes} | {
        i.sort_key.name for i in facts.local_secondary_indexes if i.sort_key}


def _separating_condition(inside: list[_Item], outside: list[_Item], key_names: set[str]) -> dict[str, Any] | None:
    """`{attribute, equals}` that holds for every item with the index key and for none without it."""
    for name, value in inside[0].values.items():
        if name in key_names or not _NAME.match(name) or not isinstance(value, str | bool | Decimal):
            continue
        if all(i.values.get(name) == value for i in inside) and all(o.values.get(name) != value for o in outside):
            equals = value if not isinstance(value, Decimal) else int(value) if value == value.to_integral_value() \
                else float(value)
            return {"attribute": name, "equals": equals}
    return None


def _key_order(facts: TableFacts) -> Any:
    order = _table_key_names(facts)
    return lambda name: (order.index(name) if name in order else len(order), name)


def _template(key: str, items: list[_Item], key_names: set[str], group: _Group, notes: list[str]) -> str:
    split = [split_key_value(str(render_value(i.values[key]))) for i in items]
    separator, length = Counter((s, len(p)) for s, p in split).most_common(1)[0][0]
    kept = [(item, parts) for item, (found, parts) in zip(items, split, strict=True)
            if (found, len(parts)) == (separator, length)]
    if len(kept) < len(items):
        notes.append(f"Entity {group.name}: {len(items) - len(kept)} of {len(items)} sampled {key} values have "
                     f"another number of {separator or '#'} segments and were left out of its template.")
    parts = [_segment(key, position, kept, key_names, group, notes) for position in range(length)]
    return separator.join(parts)


def _segment(key: str, position: int, kept: list[tuple[_Item, list[str]]], key_names: set[str], group: _Group,
             notes: list[str]) -> str:
    values = [parts[position] for _, parts in kept]
    if len(set(values)) == 1 and (_constant_segment(values[0], len(kept[0][1]), group.constants) or not values[0]):
        return values[0]
    reference = _matching_attribute(values, [item for item, _ in kept], key_names, key)
    if reference is not None:
        return reference
    if len(kept[0][1]) == 1:  # the whole value (`id` = 42): an attribute named like the key, same type
        name = key if _NAME.match(key) else _free_name(group, "keyValue")
        for item, _ in kept:
            item.values.setdefault(name, item.values[key])
            item.types.setdefault(name, item.types[key])
        notes.append(f"Entity {group.name}: {key} holds a plain value, so the entity has the attribute {name} "
                     "with the same values.")
        return f"{{{name}}}"
    previous = [parts[position - 1] for _, parts in kept] if position else []
    label = previous[0] if previous and len(set(previous)) == 1 and is_label(previous[0]) else ""
    name = _free_name(group, f"{entity_name(label)[:1].lower()}{entity_name(label)[1:]}Id" if label
                      else f"{key.lower()}Part{position + 1}")
    for (item, _), value in zip(kept, values, strict=True):
        item.values.setdefault(name, value)
        item.types.setdefault(name, "S")
    notes.append(f"Entity {group.name}: the values after {label or 'position ' + str(position + 1)} in {key} "
                 f"match no attribute, so they became the attribute {name} (it exists only inside the key).")
    return f"{{{name}}}"


def _constant_segment(segment: str, segments: int, constants: frozenset[str]) -> bool:
    """A segment equal in every item stays constant text when the key grammar reads it as a label; a whole
    value when it is capitals, quoted, or repeated across partitions (`modeling.design.keys.key_shape`)."""
    if segments > 1:
        return is_label(segment)
    return is_constant_word(segment) or key_shape(segment, constants) != (VALUE,)


def _matching_attribute(values: list[str], items: list[_Item], key_names: set[str], key: str) -> str | None:
    """`{attribute}` (with a width for zero-padded numbers) whose value renders as the segment in every item.

    Besides the ordinary attributes, another key's attribute counts when it holds plain values: a GSI keyed
    on the items' own `tenantId` (no label, no separator) is that attribute, which the table key repeats."""
    plain_keys = [n for n in items[0].values if n in key_names and n != key and _NAME.match(n)
                  and all(n in item.values and len(split_key_value(str(render_value(item.values[n])))[1]) == 1
                          for item in items)]
    candidates = [n for n in items[0].values if n not in key_names and _NAME.match(n)] + plain_keys
    for name in candidates:
        if all(name in item.values and render_value(item.values[name]) == value
               for item, value in zip(items, values, strict=True)):
            fixed = len({len(v) for v in values}) == 1 and len(values) > 1 and values[0].isdigit()
            # numbers of one width in a key: keep the width, so future values sort the same (DDS checks)
            return f"{{{name}:{len(values[0])}}}" if fixed and isinstance(items[0].values[name], Decimal) \
                else f"{{{name}}}"
    for name in candidates:
        padded = _padded_reference(name, values, items)
        if padded:
            return padded
    return None


def _padded_reference(name: str, values: list[str], items: list[_Item]) -> str | None:
    if not all(_PADDED.match(v) for v in values) or len({len(v) for v in values}) != 1:
        return None
    integer, _, fraction = values[0].partition(".")
    if not all(isinstance(i.values.get(name), Decimal) and Decimal(v) == i.values[name]
               for i, v in zip(items, values, strict=True)):
        return None
    return f"{{{name}:{len(integer)}.{len(fraction)}}}" if fraction else f"{{{name}:{len(integer)}}}"


def _free_name(group: _Group, name: str) -> str:
    taken = {n for item in group.items for n in item.values}
    base, number = name, 2
    while name in taken:
        name, number = f"{base}{number}", number + 1
    return name


def _references(template: str) -> list[str]:
    return [m.split(":")[0] for m in re.findall(r"\{([^}]*)\}", template)]


# --- entities, attributes and generators ---------------------------------------------------------


def _identifier_owners(facts: TableFacts, groups: list[_Group]) -> dict[str, str]:
    """Attribute -> the entity it identifies: `CUSTOMER#{customerId}` in Customer's own table keys.

    The identifier is the last reference after the entity's label (`CONTACT#{contactedAt}#{contactId}`).
    """
    owners: dict[str, str] = {}
    for group in groups:
        for key in _table_key_names(facts):
            parts = re.split(_ANY_SEPARATOR, group.templates.get(key, ""))
            for position, label in enumerate(parts):
                if not (is_label(label) and entity_name(label) == group.name):
                    continue
                following = []
                for part in parts[position + 1:]:
                    if not _references(part):
                        break
                    following.append(_references(part)[0])
                if following:
                    owners.setdefault(following[-1], group.name)
    return owners


def _entity(facts: TableFacts, group: _Group, owners: dict[str, str], sampled: int,
            notes: list[str]) -> dict[str, Any]:
    referenced = {r for template in group.templates.values() for r in _references(template)}
    names = list(dict.fromkeys(n for item in group.items for n in item.values
                               if n not in facts.key_names or n in referenced))
    skipped = [n for n in names if not _NAME.match(n)]
    if skipped:
        notes.append(f"Entity {group.name}: attributes {', '.join(skipped)} have names the model format cannot "
                     "hold (no spaces, `{`, `}` or `:`, which key templates use) and were left out.")
    identifiers = list(dict.fromkeys(r for key in _table_key_names(facts)
                                     for r in _references(group.templates.get(key, ""))))
    attributes = [_attribute(name, group, owners, identifiers, facts) for name in names if _NAME.match(name)]
    share = len(group.items) / sampled if sampled else 0.0
    count = max(len(group.items), round(facts.item_count * share))
    entity = {"name": group.name, "item_count": count, "identifiers": identifiers, "attributes": attributes}
    return {k: v for k, v in entity.items() if v != []}


def _attribute(name: str, group: _Group, owners: dict[str, str], identifiers: list[str],
               facts: TableFacts) -> dict[str, Any]:
    present = [i for i in group.items if name in i.values]
    kind = Counter(i.types[name] for i in present).most_common(1)[0][0]
    values = [i.values[name] for i in present if i.types[name] == kind]
    attribute: dict[str, Any] = {"name": name, "type": kind}
    if len(present) < len(group.items):
        attribute["required"] = False
    owner = owners.get(name)
    if name in identifiers and owner == group.name and len(set(map(str, values))) == len(values) > 1:
        attribute["unique"] = True
    if kind in _SIZED_KINDS:
        sizes = [_SIZED_KINDS[kind](v) for v in values]
        attribute["avg_size_bytes"], attribute["max_size_bytes"] = round(sum(sizes) / len(sizes)), max(sizes)
    generator = ({"kind": "reference", "entity": owner, "attribute": name} if owner and owner != group.name
                 else generator_for(kind, values, name == facts.settings.get("ttl_attribute")))
    if generator:
        attribute["generator"] = generator
    return attribute


def _relationships(groups: list[_Group], owners: dict[str, str], notes: list[str]) -> list[dict[str, Any]]:
    counts = {g.name: len(g.items) for g in groups}
    relationships = []
    for group in groups:
        attributes = dict.fromkeys(n for item in group.items for n in item.values)
        for name in attributes:
            parent = owners.get(name)
            if parent and parent != group.name:
                mean = round(counts[group.name] / max(counts[parent], 1), 2)
                relationships.append({"name": f"{_snake(parent)}_{_snake(group.name)}_by_{_snake(name)}",
                                      "kind": "one_to_many", "parent": parent, "child": group.name,
                                      "child_attributes": [name], "cardinality": {"mean": mean}})
                notes.append(f"Relationship: {group.name}.{name} holds the identifier of {parent} "
                             f"(about {mean:g} per {parent} in the sample); its sample data references {parent}.")
    return relationships


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("-", "_").replace(".", "_")


# --- the key design --------------------------------------------------------------------------------


def _key_design(facts: TableFacts, groups: list[_Group]) -> dict[str, Any]:
    def index_document(index: SecondaryIndex) -> dict[str, Any]:
        return index.model_dump(mode="json", exclude_defaults=True)

    design: dict[str, Any] = {"partition_key": facts.partition_key.model_dump(mode="json"),
                              "sort_key": facts.sort_key.model_dump(mode="json") if facts.sort_key else None}
    if facts.global_secondary_indexes:
        design["global_secondary_indexes"] = [index_document(i) for i in facts.global_secondary_indexes]
    if facts.local_secondary_indexes:
        design["local_secondary_indexes"] = [index_document(i) for i in facts.local_secondary_indexes]
    design["entities"] = [e for e in (_entity_keys(facts, g) for g in groups) if e]
    return design


def _entity_keys(facts: TableFacts, group: _Group) -> dict[str, Any] | None:
    partition = group.templates.get(facts.partition_key.name)
    if partition is None:
        return None
    table = {"partition_key": partition}
    if facts.sort_key is not None and facts.sort_key.name in group.templates:
        table["sort_key"] = group.templates[facts.sort_key.name]
    indexes: dict[str, _KeyTemplates] = {}
    for index in facts.global_secondary_indexes:
        if index.partition_key.name in group.templates:
            templates: _KeyTemplates = {"partition_key": group.templates[index.partition_key.name]}
            if index.sort_key is not None and index.sort_key.name in group.templates:
                templates["sort_key"] = group.templates[index.sort_key.name]
            if index.partition_key.name in group.conditions:
                templates["only_when"] = group.conditions[index.partition_key.name]
            if index.sort_key is None or "sort_key" in templates:
                indexes[index.name] = templates
    for index in facts.local_secondary_indexes:
        if index.sort_key is not None and index.sort_key.name in group.templates:
            indexes[index.name] = {"partition_key": partition, "sort_key": group.templates[index.sort_key.name],
                                   **({"only_when": group.conditions[index.sort_key.name]}
                                      if index.sort_key.name in group.conditions else {})}
    keys: dict[str, Any] = {"entity": group.name, "table": table}
    if indexes:
        keys["indexes"] = indexes
    return keys
