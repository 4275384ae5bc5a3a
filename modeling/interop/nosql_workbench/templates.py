"""Key templates read back from a NoSQL Workbench table's key values, and the names they give new attributes.

Split out of `modeling.interop.nosql_workbench.infer` (which groups items into entities and builds the model):
each key part is decided from that part in every item of an entity (`infer_template`), a facet alias can name
the parts when there are no items (`template_from_alias`), and the label before a part names the attribute it
holds (`WAREHOUSE#100` is warehouseId). The key grammar is `modeling.design.keys`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from modeling.design.keys import KeyTemplate, is_constant_word, is_label, split_key_value

LETTERS = re.compile(r"^[A-Za-z_]+$")  # a letters-only key segment: a label or a value, decided by evidence
GENERIC_KEY = re.compile(r"^(pk|sk|hash|range|pk\d+|sk\d+|.*gsi.*|.*lsi.*)$", re.I)
_INVALID_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.\-]")

def safe_name(text: str, fallback: str = "attribute") -> str:
    """A Design Studio name (letters, digits, `_ . -`, starting with a letter or `_`)."""
    name = _INVALID_NAME_CHARS.sub("_", text.strip())[:255]
    if not name or not re.match(r"^[A-Za-z_]", name):
        name = f"_{name}" if name else fallback
    return name[:255]


def camel(text: str) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+", text) if w]
    if not words:
        return "value"
    first = words[0] if not words[0].isupper() else words[0].lower()
    return first[:1].lower() + first[1:] + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])


def unique_name(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    taken.add(candidate)
    return candidate


def key_text(value: Any) -> str | None:
    """A scalar value as key text (numbers without exponent), or None for maps, lists and sets."""
    if isinstance(value, bool) or value is None or isinstance(value, dict | list):
        return None
    return format(value, "f") if isinstance(value, Decimal) else str(value)


@dataclass
class KeyGroup:
    """The items of one inferred entity, as plain values."""

    name: str
    source: str  # why these items form an entity
    items: list[dict[str, Any]] = field(default_factory=list)
    facet_attributes: tuple[str, ...] = ()
    partition_alias: str = ""
    sort_alias: str | None = None
    shapes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # key -> labels, "*" for values


@dataclass
class Template:
    source: str
    new_attributes: dict[str, list[str]]  # attribute name -> values (one per item following the template)
    followers: int
    total: int
    guesses: tuple[str, ...] = ()  # what was decided without evidence, said in the notes


def template_from_alias(alias: str | None, key: str) -> tuple[str, list[str]] | None:
    """A facet alias read as a template when the facet has no items: `USER#userId` -> `USER#{userId}`.

    NoSQL Workbench shows the alias as the key's column title, and real files write them so
    (`playerID`, `ITEMS#ItemID`, `SubId#SKU`): an upper-case word is a label, any other word an attribute.
    An alias that only repeats a key's name (`PK`, `GSI1SK`) says nothing.
    """
    if not alias or alias == key or GENERIC_KEY.match(alias) or "{" in alias:
        return None
    parts, attributes = [], []
    for word in alias.split("#"):
        if word == "" or (word.isupper() and is_label(word)):
            parts.append(word)
        else:
            name = safe_name(word)
            attributes.append(name)
            parts.append(f"{{{name}}}")
    if not attributes:
        return None
    return "#".join(parts), list(dict.fromkeys(attributes))


def renamed_template(template: str, name_of: Any) -> str:
    parsed = KeyTemplate.parse(template)
    parts = []
    for segment in parsed.segments:
        if not segment.is_attribute:
            parts.append(segment.text)
            continue
        suffix = f":{segment.width}" if segment.width is not None else ""
        suffix += f".{segment.decimals}" if segment.decimals is not None else ""
        parts.append(f"{{{name_of(segment.text)}{suffix}}}")
    return "".join(parts)


# --- key templates from values -------------------------------------------------------------------


def infer_template(group: KeyGroup, key: str, alias: str, generic: set[str], taken: set[str],
                    table_keys: set[str]) -> Template | None:
    """The template the items' values of `key` follow, decided per segment from every item, not from the first.

    Items are aligned on the most common layout (separator and number of segments). At each segment: one
    attribute's value in most items is a reference; the same text in every item is a constant (a label);
    text that varies is a value, a new attribute. With one item there is no evidence, so the shape of the text
    decides (a letters-only word is a label). A lower-case label right after another (`ROLE#admin`) is said
    to be a guess. The new attributes are also set on the items that follow the template, so later keys (a
    sort key repeating the partition key's value) can refer to them.
    """
    rows: list[tuple[str, list[str], dict[str, Any]]] = []
    for item in group.items:
        value = key_text(item.get(key))
        if value is not None:
            rows.append((*split_key_value(value), item))
    if not rows:
        return None
    layouts = Counter((separator, len(segments)) for separator, segments, _ in rows)
    (separator, count), _ = max(layouts.items(), key=lambda layout: layout[1])  # a tie: the first seen
    fitting = [(segments, item) for s, segments, item in rows if (s, len(segments)) == (separator, count)]
    hint = group.shapes.get(key)
    hint = hint if hint is not None and len(hint) == count else None
    guesses: list[str] = []
    parts = tuple(_column_part(i, fitting, key, generic, count, hint[i] if hint else None)
                  for i in range(count))
    for i, part in enumerate(parts):
        # a lower-case word right after a label with no value after it (`USER#alice`) may be a value the
        # sample items happen to share: say so
        if (part[0] == "const" and LETTERS.match(part[1]) and not part[1].isupper() and i > 0
                and parts[i - 1][0] == "const" and (i + 1 == count or parts[i + 1][0] == "const")):
            evidence = "one item" if len(fitting) == 1 else f"all {len(fitting)} items have it"
            guesses.append(f"`{part[1]}` is taken as a label ({evidence}); if it is a value, make it "
                           "`{attribute}` on the Model page")
    followers = sum(1 for segments, item in fitting if all(
        p[0] == "var" or (p[0] == "const" and segments[i] == p[1]) or (p[0] == "ref" and key_text(item.get(p[1])) ==
                                                                         segments[i]) for i, p in enumerate(parts)))
    names = _variable_names(group, key, alias, separator, parts, taken, key in table_keys)
    new_attributes: dict[str, list[str]] = {names[i]: [] for i, p in enumerate(parts) if p == ("var",)}
    for segments, item in fitting:
        for i, part in enumerate(parts):
            if part == ("var",):
                new_attributes[names[i]].append(segments[i])
                item[names[i]] = segments[i]
    source = separator.join(f"{{{p[1]}}}" if p[0] == "ref" else f"{{{names[i]}}}" if p[0] == "var" else p[1]
                            for i, p in enumerate(parts))
    return Template(source, new_attributes, followers, len(rows), tuple(guesses))


def _column_part(position: int, fitting: list[tuple[list[str], dict[str, Any]]], key: str, generic: set[str],
                 count: int, hint: str | None) -> tuple[str, ...]:
    """One segment of a key template, from that segment in every item that has the template's layout."""
    texts = [segments[position] for segments, _ in fitting]
    if any("{" in t or "}" in t for t in texts):
        return ("var",)
    named = _labelled_attribute(position, fitting, key, generic)
    if named is not None:
        return ("ref", named)
    if len(fitting) == 1:
        return _part(texts[0], fitting[0][1], key, generic, count, hint)
    # a reference: the attribute whose value the segment is in most items (sample data is not always consistent:
    # one item's SK differs from its CreatedAt); the items it does not fit are counted in the notes
    best, best_matches = None, 0
    for name in dict.fromkeys(n for _, item in fitting for n in item):
        if name == key or name in generic:
            continue
        matches = sum(1 for text, (_, item) in zip(texts, fitting, strict=True)
                      if key_text(item.get(name)) == text and (count == 1 or len(text) > 1))
        if matches > best_matches:
            best, best_matches = name, matches
    if best is not None and 2 * best_matches > len(fitting):
        return ("ref", best)
    text = texts[0]
    if len(set(texts)) == 1 and (text == "" or hint not in (None, "*") or LETTERS.match(text.strip('"'))
                                 or (text.startswith('"') and text.endswith('"'))):
        return ("const", text)
    return ("var",)


def _labelled_attribute(position: int, fitting: list[tuple[list[str], dict[str, Any]]], key: str,
                        generic: set[str]) -> str | None:
    """The attribute the label before a segment names (`WAREHOUSE#7`: warehouseId, warehouse_id), when it holds
    the segment's value in every item.

    Sample data can give two ids the same value (order 7 of warehouse 7): the first attribute whose value
    matched used to win, so a round trip re-keyed a GSI from the warehouse to the order (issue 31.6). The label
    is the evidence; it also counts for one-character values, which are too common to be a reference alone.
    """
    if position == 0:
        return None
    labels = {segments[position - 1] for segments, _ in fitting}
    label = labels.pop() if len(labels) == 1 else ""
    if not is_label(label):
        return None
    wanted = {label.lower(), label.lower() + "id", label.lower() + "_id"}
    for name in dict.fromkeys(n for _, item in fitting for n in item):
        if name != key and name not in generic and name.lower() in wanted and all(
                key_text(item.get(name)) == segments[position] for segments, item in fitting):
            return name
    return None


def _part(segment: str, item: dict[str, Any], key: str, generic: set[str], count: int,
          hint: str | None) -> tuple[str, ...]:
    if "{" in segment or "}" in segment:
        return ("var",)
    for name, value in item.items():
        if name != key and name not in generic and key_text(value) == segment and (count == 1 or len(segment) > 1):
            return ("ref", name)
    if hint is not None:
        return ("var",) if hint == "*" else ("const", segment)
    if (count > 1 and (is_label(segment) or segment == "")) or (segment.startswith('"') and segment.endswith('"')):
        return ("const", segment)
    if count == 1 and is_constant_word(segment):
        return ("const", segment)
    return ("var",)


def _variable_names(group: KeyGroup, key: str, alias: str, separator: str, parts: tuple[Any, ...],
                    existing: set[str], table_key: bool) -> list[str]:
    """Names for the value segments: from the alias, the key's own name, or the label before them."""
    hints = []
    for source in (alias, key):
        if source and source not in ("PK", "SK") and separator and len(source.split(separator)) == len(parts):
            hints.append(source.split(separator))
        elif source and len(parts) == 1 and not GENERIC_KEY.match(source) and "#" not in source:
            hints.append([source])
    taken = {p[1] for p in parts if p[0] == "ref"} | existing
    names = []
    for i, part in enumerate(parts):
        if part != ("var",):
            names.append("")
            continue
        hinted = next((h[i] for h in hints if is_label(h[i].replace("-", "_")) and not h[i].isupper()), None)
        previous = parts[i - 1] if i else None
        if hinted is None and previous and previous[0] == "const" and previous[1].strip('"'):
            label = previous[1].strip('"')
            hinted = "id" if label.lower() == "id" else camel(label) + ("" if label.lower().endswith("id") else "Id")
        if hinted is None and not table_key:
            hinted = camel(key) + (str(i + 1) if len(parts) > 1 else "")  # an index key: GSI1PK -> gsi1pk
        if hinted is None:
            hinted = camel(group.name) + ("Id" if i == 0 and key != "SK" else f"{camel(key).title()}{i + 1}")
        names.append(unique_name(safe_name(hinted), taken))
    return names
