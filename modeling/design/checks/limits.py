"""DDS4xx rules, limits and quotas (item and key sizes, index quotas, transaction and batch sizes), and
DDS5xx names (reserved words, listed in modeling/data/reserved_words.txt).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from modeling.design.checks.catalogue import Finding, data_size, finding, number
from modeling.design.checks.context import Context, Rule, existing_entities
from modeling.design.checks.estimates import (
    MAX_BATCH_GET_ITEMS,
    MAX_BATCH_WRITE_ITEMS,
    MAX_TRANSACTION_ITEMS,
    largest_item_bytes,
    lsi_entry_bytes,
    template_bytes,
    value_bytes,
)
from modeling.design.keys import MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES
from modeling.dynamodb_rules import MAX_BATCH_BYTES, MAX_ITEM_BYTES, MAX_TRANSACTION_BYTES
from modeling.model import PatternKind, ProjectionType
from modeling.validation import MAX_GSIS_PER_TABLE, MAX_LSIS_PER_TABLE, MAX_PROJECTED_NON_KEY_ATTRIBUTES

RESERVED_WORDS_FILE = Path(__file__).parents[2] / "data" / "reserved_words.txt"


def _large_items(ctx: Context) -> Iterator[Finding]:
    """DDS401: the largest item (max sizes, names, keys, LSI entries) can exceed 400 KB (§6, §4.2)."""
    for entity in ctx.model.entities:
        size = largest_item_bytes(ctx, entity) + lsi_entry_bytes(ctx, entity, largest=True)
        if size > MAX_ITEM_BYTES:
            biggest = max(entity.attributes, key=lambda a: value_bytes(a, largest=True))
            yield finding("DDS401", f"entities[{entity.name}]", (
                f"A {entity.name} item can reach ≈ {data_size(size)} (max_size_bytes plus names and keys), over the "
                f"{data_size(MAX_ITEM_BYTES)} item limit; the largest attribute is {biggest.name} "
                f"({data_size(value_bytes(biggest, largest=True))})."))


def _long_keys(ctx: Context) -> Iterator[Finding]:
    """DDS402: a rendered key can exceed 2,048 bytes (partition) or 1,024 bytes (sort) (§6)."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None:
            continue
        base = f"key_design.entities[{entity.name}]"
        found = [(f"{base}.table", keys.table, None),
                 *((f"{base}.indexes[{n}]", t, n) for n, t in keys.indexes.items())]
        for path, templates, index in found:
            for part, source, limit in (("partition_key", templates.partition_key, MAX_PARTITION_KEY_BYTES),
                                        ("sort_key", templates.sort_key, MAX_SORT_KEY_BYTES)):
                size = template_bytes(entity, source, largest=True) if source else 0
                if size > limit:
                    yield finding("DDS402", f"{path}.{part}", (
                        f"{entity.name}'s {part.replace('_', ' ')} {source} can render to ≈ {size:,} bytes "
                        f"(from the attributes' max_size_bytes), over the {limit:,}-byte limit."), index=index)


def _index_quotas(ctx: Context) -> Iterator[Finding]:
    """DDS404 and DDS405: index counts and INCLUDE projections over the table quotas (§8)."""
    key_design = ctx.design.key_design
    gsis, lsis = key_design.global_secondary_indexes, key_design.local_secondary_indexes
    if len(gsis) > MAX_GSIS_PER_TABLE:
        yield finding("DDS404", "key_design.global_secondary_indexes",
                      f"{len(gsis)} GSIs; a table has at most {MAX_GSIS_PER_TABLE} by default.")
    if len(lsis) > MAX_LSIS_PER_TABLE:
        yield finding("DDS404", "key_design.local_secondary_indexes",
                      f"{len(lsis)} LSIs; a table has at most {MAX_LSIS_PER_TABLE}.")
    included = [i for i in (*gsis, *lsis) if i.projection.type is ProjectionType.INCLUDE]
    projected = sum(len(i.projection.non_key_attributes) for i in included)
    if projected > MAX_PROJECTED_NON_KEY_ATTRIBUTES:
        yield finding("DDS405", "key_design.indexes", (
            f"{projected} projected non-key attributes across {', '.join(i.name for i in included)}; a table "
            f"allows {MAX_PROJECTED_NON_KEY_ATTRIBUTES}."))


_BATCH_LIMITS = {PatternKind.BATCH_WRITE: MAX_BATCH_WRITE_ITEMS, PatternKind.BATCH_READ: MAX_BATCH_GET_ITEMS}


def _request_sizes(ctx: Context) -> Iterator[Finding]:
    """DDS406 and DDS407: transactions over 100 items or 4 MB, batches over 25 / 100 items or 16 MB (§2, §8)."""
    for pattern in ctx.model.access_patterns:
        entities = existing_entities(ctx, pattern.entities)
        size = pattern.expected_items * (sum(ctx.item_bytes[e.name] for e in entities) / max(len(entities), 1))
        path, items = f"access_patterns[{pattern.name}].expected_items", pattern.expected_items
        if pattern.kind in (PatternKind.TRANSACT_WRITE, PatternKind.TRANSACT_READ) and (
                items > MAX_TRANSACTION_ITEMS or size > MAX_TRANSACTION_BYTES):
            yield finding("DDS406", path, (
                f"{pattern.name} has {number(items)} items (≈ {data_size(size)}) in one transaction; the limits are "
                f"{MAX_TRANSACTION_ITEMS} items and {data_size(MAX_TRANSACTION_BYTES)}."), pattern=pattern.name)
        limit = _BATCH_LIMITS.get(pattern.kind)
        if limit is not None and (items > limit or size > MAX_BATCH_BYTES):
            yield finding("DDS407", path, (
                f"{pattern.name} sends {number(items)} items (≈ {data_size(size)}) in one {pattern.kind} request; "
                f"the limits are {limit} items and {data_size(MAX_BATCH_BYTES)}."), pattern=pattern.name)


# --- DDS5xx names -----------------------------------------------------------------------------------


@cache
def reserved_words() -> frozenset[str]:
    """DynamoDB's reserved words in upper case (modeling/data/reserved_words.txt, see its README)."""
    return frozenset(RESERVED_WORDS_FILE.read_text(encoding="utf-8").split())


def _reserved_names(ctx: Context) -> Iterator[Finding]:
    """DDS501: attribute and key attribute names that need #placeholders in expressions."""
    for entity in ctx.model.entities:
        hits = [a.name for a in entity.attributes if a.name.upper() in reserved_words()]
        if hits:
            yield finding("DDS501", f"entities[{entity.name}]", (
                f"{entity.name}'s attribute(s) {', '.join(hits)} {'is a' if len(hits) == 1 else 'are'} reserved "
                f"word{'s' if len(hits) > 1 else ''}: write #{hits[0]} with ExpressionAttributeNames in expressions."))
    key_design = ctx.design.key_design
    named = [("key_design.partition_key", key_design.partition_key), ("key_design.sort_key", key_design.sort_key)]
    for kind, indexes in (("global_secondary_indexes", key_design.global_secondary_indexes),
                          ("local_secondary_indexes", key_design.local_secondary_indexes)):
        for index in indexes:
            named += [(f"key_design.{kind}[{index.name}]", index.partition_key),
                      (f"key_design.{kind}[{index.name}]", index.sort_key)]
    for path, key in named:
        if key is not None and key.name.upper() in reserved_words():
            yield finding("DDS501", path, f"The key attribute {key.name} is a reserved word: write #{key.name} "
                                          "in key conditions.")


RULES: tuple[Rule, ...] = (_large_items, _long_keys, _index_quotas, _request_sizes, _reserved_names)
