"""Design checks (lint): what a key design gets wrong for one model, explained for a workshop.

`check_design(model, design)` runs every rule against a planned `Design` and returns `Finding`s, most
severe first. Each rule is a small pure function. `CHECKS` lists every check with its explanation, fix
and AWS documentation link, so the docs and the UI can show them all. Ids are grouped by theme:
DDS1xx keys and partitions, DDS2xx reads, DDS3xx writes and indexes, DDS4xx limits and quotas,
DDS5xx names.

Throughput figures here are a labelled APPROXIMATION for spotting problems, not the bill (the cost
engine does the exact maths): item size = attribute names + `avg_size_bytes` (plus the key
attributes); reads ceil(size / 4 KB) x 0.5 eventual or x 1 strong per item, Query and Scan adding the
sizes first; writes ceil(size / 1 KB); transactions x 2. The share of traffic on the busiest key value
comes from the key attributes' sample-data generators (enum weights, zipf, hot_value; uniform keys
spread over their values).

>>> from modeling.examples import load_example
>>> from modeling.generator import explicit_design
>>> model = load_example("student_platform_mistakes")
>>> "DDS101" in {f.check_id for f in check_design(model, explicit_design(model))}
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from pathlib import Path

from modeling.design import TABLE, Design, Operation, PatternPlan
from modeling.generator import MAX_DISCARDED_SHARE
from modeling.keys import MAX_NUMBER_TEXT_BYTES, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, KeyTemplate
from modeling.model import (
    AccessPattern,
    Attribute,
    AttributeType,
    BooleanGenerator,
    Consistency,
    ConstantGenerator,
    Distribution,
    Entity,
    EntityKeys,
    EnumGenerator,
    FakerGenerator,
    FakerProvider,
    FloatRangeGenerator,
    HotValueDistribution,
    IntRangeGenerator,
    Model,
    PatternKind,
    ProjectionType,
    ReferenceGenerator,
    RelationshipKind,
    SecondaryIndex,
    SequenceGenerator,
    TextGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    ZipfDistribution,
)
from modeling.planner import AccessPath, access_paths, plan_pattern
from modeling.validation import MAX_GSIS_PER_TABLE, MAX_LSIS_PER_TABLE, MAX_PROJECTED_NON_KEY_ATTRIBUTES

# --- AWS numbers (each from /work/shared/reference/dynamodb-facts.md) --------------------------------

# dynamodb-facts §7.1: each partition serves at most 3,000 RCU and 1,000 WCU per second (or a linear mix)
PARTITION_READ_UNITS = 3000
PARTITION_WRITE_UNITS = 1000
# dynamodb-facts §1.1: reads in 4 KB blocks, eventual = half a strong read; writes in 1 KB blocks
READ_BLOCK_BYTES = 4 * 1024
WRITE_BLOCK_BYTES = 1024
EVENTUAL_READ_FACTOR = 0.5
# dynamodb-facts §1.1 and §2: transactional reads and writes cost 2x
TRANSACTION_FACTOR = 2.0
# dynamodb-facts §6: items up to 400 KB (1 KB = 1,024 B, §0.2)
MAX_ITEM_BYTES = 400 * 1024
# dynamodb-facts §4.2 and §7.1: with an LSI, one item collection holds at most 10 GB
MAX_ITEM_COLLECTION_BYTES = 10 * 1024**3
# dynamodb-facts §2 and §8: 100 actions and 4 MB per transaction
MAX_TRANSACTION_ITEMS = 100
MAX_TRANSACTION_BYTES = 4 * 1024**2
# dynamodb-facts §8: BatchWriteItem 25 items, BatchGetItem 100 items, 16 MB per request
MAX_BATCH_WRITE_ITEMS = 25
MAX_BATCH_GET_ITEMS = 100
MAX_BATCH_BYTES = 16 * 1024**2

# --- product thresholds (our choices, not AWS limits) ----------------------------------------------

# A key whose values come from a closed set of at most this many values is "low-cardinality".
LOW_CARDINALITY_MAX_VALUES = 100
# ISO 3166-1 assigns 249 country codes; real traffic gathers on a few of them.
COUNTRY_CODES = 249
# Share of one partition's capacity (dynamodb-facts §7.1) at which a key value counts as busy, and as
# hot: 50 % leaves the 2x headroom on-demand absorbs instantly (dynamodb-facts §7.2).
BUSY_PARTITION_SHARE = 0.1
HOT_PARTITION_SHARE = 0.5
# Updates per second at peak from which rewriting index entries is worth a warning rather than a note.
FREQUENT_UPDATES_PER_SECOND = 1.0
# Value sizes assumed when an attribute gives neither avg_size_bytes nor max_size_bytes.
_DEFAULT_VALUE_BYTES = {AttributeType.N: 8, AttributeType.BOOL: 1, AttributeType.NULL: 1}
_DEFAULT_OTHER_BYTES = 32

RESERVED_WORDS_FILE = Path(__file__).with_name("data") / "reserved_words.txt"

_DOCS = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
_GUIDE_2023 = ("https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/"
               "822948021fcd815a33c040fb6cce5fa0d4127df4/doc_source/")


class FindingSeverity(StrEnum):
    ERROR = "error"  # the design fails or throttles as modelled
    WARNING = "warning"  # works, but costs more or breaks under growth
    INFO = "info"  # worth knowing; often a myth worth correcting


_RANK = {FindingSeverity.ERROR: 0, FindingSeverity.WARNING: 1, FindingSeverity.INFO: 2}
ERROR, WARNING, INFO = FindingSeverity.ERROR, FindingSeverity.WARNING, FindingSeverity.INFO


@dataclass(frozen=True)
class Check:
    """One check as docs and the UI list it; `severity` is the most severe level it reports."""

    check_id: str
    title: str
    severity: FindingSeverity
    explanation: str
    fix: str
    doc_url: str


@dataclass(frozen=True)
class Finding:
    """One problem of one model: where (`path`), what (`message`, with this model's names and numbers)."""

    check_id: str
    severity: FindingSeverity
    title: str
    message: str
    explanation: str
    fix: str
    doc_url: str
    path: str
    pattern: str | None = None
    index: str | None = None


_CATALOGUE = (
    # §7.1 (3,000 RCU / 1,000 WCU per partition; adaptive capacity stops at that maximum), §4.1 (GSI back-pressure)
    Check("DDS101", "Low-cardinality partition key", ERROR,
          "DynamoDB spreads data over partitions by hashing the partition key, and each partition serves at most "
          "3,000 read units and 1,000 write units per second. A key with only a handful of values (a status, a "
          "boolean, a type, a country) can never use more than that handful of partitions, and its most common "
          "value (ACTIVE, true, US) takes most of the traffic: a hot partition that throttles while the rest of "
          "the table idles. Adaptive capacity moves capacity to a busy partition, but never past that maximum. "
          "On a GSI it is worse: a throttled GSI holds back writes to the table itself.",
          "Lead the key with a high-cardinality attribute (TENANT#{tenantId}#STATUS#{status} instead of "
          "STATUS#{status}), make the index sparse so only the rare state is indexed, or shard the value "
          "(STATUS#ACTIVE#0 to #9) and query the shards in parallel.",
          _GUIDE_2023 + "bp-partition-key-design.md"),
    # §7.1 (1,000 WCU per partition)
    Check("DDS102", "Time-bucketed partition key under writes", ERROR,
          "A partition key built from the current date or time (DAY#2024-05-01, HOUR#13) sends every new item to "
          "the same key value until the bucket rolls over: the current bucket takes all the writes, up to 1,000 "
          "write units per second for one partition, while older buckets sit idle. Hashing spreads different key "
          "values, so a unique id or a sequence number as partition key is fine; the trouble is many writes "
          "sharing one time bucket.",
          "Put the time in the sort key under a high-cardinality partition key (DEVICE#{deviceId} with sort key "
          "READING#{readingTime}), or add a shard suffix to the bucket (DAY#2024-05-01#7) and read every shard.",
          _GUIDE_2023 + "bp-partition-key-design.md"),
    # §7.1 (3,000 RCU and 1,000 WCU, linear mix; myth "1,000 RCU" in §14), §1.1-§1.2 units, §2 transactions
    Check("DDS103", "Busiest key value above one partition's throughput", ERROR,
          "Each partition serves at most 3,000 RCU and 1,000 WCU per second, or a linear mix of the two; it is a "
          "myth that a partition supports only 1,000 RCU. This estimate takes each pattern's peak rate, its units "
          "per request (approximately: reads ceil(item size / 4 KB) x 0.5 eventual or x 1 strong, Query sizes "
          "added first; writes ceil(item size / 1 KB); transactions x 2) and the share of requests that reach "
          "the busiest key value, read from the key attributes' sample-data distributions. Above the ceiling, "
          "requests to that value throttle whatever the table's total capacity or capacity mode. DynamoDB can "
          "split a busy item collection by sort key, but never one item, and not at all in a table with an LSI.",
          "Spread the busy value: lead the key with a higher-cardinality attribute, shard it (suffix #0 to #N-1), "
          "cache hot reads (DAX or the application), or write small changes less often.",
          _DOCS + "burst-adaptive-capacity.html"),
    # §14 myth "GSI sort-key range queries only work on Number" (GSI.md, Query.md)
    Check("DDS104", "Number in a string sort key without zero padding", ERROR,
          "String keys sort by UTF-8 bytes, character by character, so XP#10 sorts before XP#9 and a condition "
          "such as >= XP#50 also matches XP#6. It is a myth that sort-key range queries only work on Number "
          "keys: String and Binary keys support =, <, <=, >, >=, BETWEEN and begins_with too, but a number "
          "inside a string must be zero-padded to a fixed width (XP#000009 before XP#000010) to sort as a "
          "number. Negative numbers also need an offset.",
          "Give the reference a width wide enough for the largest value, e.g. XP#{xp:7} or PRICE#{price:5.2} for "
          "two decimals, or make the whole sort key a Number attribute.",
          _GUIDE_2023 + "Query.md"),
    # no number
    Check("DDS105", "Table partition key built from a natural attribute", WARNING,
          "An item's primary key can never be changed in place: changing it means deleting the item and writing a "
          "copy, and every reference to the old key breaks. Keys built from an entity's identifiers, or from its "
          "parent's to form an item collection, stay stable. Keys built from natural attributes such as an email "
          "address, a name or a phone number change when the real world does, may collide across tenants, and "
          "force every lookup by the real identifier through an extra index.",
          "Key the table by the entity's identifiers (TENANT#{tenantId} / STUDENT#{studentId}) and add a GSI on "
          "the natural attribute for the lookups by it.",
          _DOCS + "WorkingWithItems.html"),
    # no number
    Check("DDS106", "Table key does not identify one item", ERROR,
          "PutItem replaces any item with the same primary key. If the partition and sort key templates together "
          "do not contain all of an entity's identifiers (or one attribute that is unique), two different items "
          "render the same key and the second write silently overwrites the first.",
          "Add the missing identifiers to the sort key (ORDER#{orderId} with sort key ITEM#{productId}).",
          _DOCS + "WorkingWithItems.html"),
    # no number
    Check("DDS107", "Update changes a table key attribute", ERROR,
          "UpdateItem cannot change an item's primary key attributes. An update that changes an attribute used in "
          "the table's key has to read the item, delete it and put a copy under the new key, in a transaction if "
          "nothing may be lost: a read and two writes instead of one write, and every reference to the old key "
          "breaks.",
          "Keep the changing attribute out of the table key; put it in a GSI key instead, where DynamoDB moves the "
          "index entry for you.",
          _DOCS + "WorkingWithItems.html"),
    # §1.2 (Scan charged on items evaluated)
    Check("DDS201", "Access pattern needs a Scan", ERROR,
          "A Scan reads every item in the table and is charged for everything it evaluates, not for what it "
          "returns, so its cost and latency grow with the table. A pattern that only a Scan can serve usually "
          "means no table key or index is built from its inputs. Batch and transactional reads take full table "
          "keys only, so they cannot use an index.",
          "Add a GSI keyed on the pattern's inputs, or change the table keys so the inputs form the primary key.",
          _DOCS + "read-write-operations.html"),
    # §1.2 FilterExpression, §8 1 MB page; §14 myth "filter expressions save capacity"
    Check("DDS202", "Filter discards most of what is read", WARNING,
          "A FilterExpression runs inside DynamoDB after the items are read and before they are returned: it "
          "saves network bytes, not capacity. It is a myth that filters save read units: you pay for every item "
          "the key condition matched, and the 1 MB page limit applies before the filter, so a selective filter "
          "also means many nearly empty pages.",
          "Make the filtered attribute part of the key (a sort-key prefix such as STATUS#OPEN#..., or a composite "
          "GSI partition key), or use a sparse index that holds only the wanted items.",
          _GUIDE_2023 + "Query.md"),
    # §4.1, §4.2; §14 myth "strongly consistent reads are available on GSIs"
    Check("DDS203", "Strongly consistent read on a GSI", ERROR,
          "Global secondary indexes are eventually consistent only; a strongly consistent query on a GSI is "
          "rejected. It is a myth that strongly consistent reads are available on GSIs: only the table and local "
          "secondary indexes (which share the table's partition key) offer them.",
          "Serve the pattern from the table or from an LSI (same partition key, another sort key), or accept "
          "eventual consistency for it.",
          _DOCS + "GSI.html"),
    # §1.2 BatchGetItem; §14 myth "BatchGetItem of 10 small items costs 1 RCU"
    Check("DDS204", "BatchGetItem rounds every item up to 4 KB", INFO,
          "It is a myth that a BatchGetItem of 10 small items costs one read unit: each item counts as its own "
          "GetItem and is rounded up to 4 KB separately, so 10 items of 1 KB cost 10 x 0.5 = 5 RCU eventually "
          "consistent (10 strong). Only Query and Scan add item sizes before rounding. A batch saves round "
          "trips, not capacity.",
          "Keep the batch for latency; when the items share a partition key, one Query over the item collection "
          "reads them for less.",
          _DOCS + "read-write-operations.html"),
    # §4.1 (GSI cannot fetch), §4.2 (LSI fetch: whole base item, 4 KB each)
    Check("DDS205", "Index does not project what the pattern reads", ERROR,
          "An index stores only the attributes it projects. A GSI query cannot fetch the others from the table: "
          "the application needs a second read per item. An LSI query can fetch them, but pays for the index "
          "read plus a read of each whole base item, each rounded up to 4 KB separately.",
          "Project what the pattern uses (INCLUDE those attributes, or ALL), or list in the pattern's `returns` "
          "only the attributes it really needs.",
          _DOCS + "GSI.html"),
    # §4.1 (a key change is a delete plus a put: 2 index writes)
    Check("DDS301", "Index key built from an attribute that changes", WARNING,
          "When an update changes an attribute that is part of an index key, DynamoDB deletes the old index entry "
          "and puts a new one: 2 index writes per update on top of the table write, each sized on the index "
          "entry. A frequently changing key (a score, a last-seen time, a status) multiplies write cost, and if "
          "the new values gather on few key values it also makes a hot index partition.",
          "Keep the attribute out of the index key unless a pattern sorts or looks up by it; otherwise accept the "
          "cost, project fewer attributes so each index write stays small, or update less often.",
          _DOCS + "GSI.html"),
    # §14 myth "SET counter = counter + :v is not atomic" (WorkingWithItems.md, atomic counters)
    Check("DDS302", "Counter update: atomic, but not idempotent", INFO,
          "UpdateItem with SET n = n + :v or ADD n :v is applied atomically to the item, in the order the requests "
          "arrive: no read first and no lost updates. It is a myth that it is not atomic. It is not idempotent, "
          "though: an SDK retry after a timeout increments again.",
          "Update the counter in place without reading it first; add a ConditionExpression on a version "
          "attribute (or record a request id) where a retry must not count twice.",
          _GUIDE_2023 + "WorkingWithItems.md"),
    # §4.2 (10 GB with an LSI; no splitting), §7.1
    Check("DDS303", "Item collection grows without bound", WARNING,
          "Children that share their parent's partition key form an item collection that one Query reads. When "
          "nothing caps the number of children, one key value keeps collecting data and traffic. Without an LSI "
          "DynamoDB can spread a large collection over partitions; with an LSI it cannot, and the whole "
          "collection (table items plus LSI entries) must stay at or below 10 GB.",
          "Give the relationship a realistic maximum, expire old children (TTL), or give the children a partition "
          "key of their own (PARENT#{id}#MONTH#{month}) if an LSI is needed.",
          _GUIDE_2023 + "LSI.md"),
    # §6 (400 KB incl. names; 4 KB read / 1 KB write blocks), §4.2 (LSI entries count)
    Check("DDS401", "Item can exceed 400 KB", ERROR,
          "An item may be at most 400 KB, attribute names included, and with an LSI the item plus its LSI entries. "
          "Every read and write also grows with item size: one read unit per 4 KB, one write unit per 1 KB.",
          "Store large values (documents, images, long text) in S3 and keep the object key in the item, compress "
          "them, or split the item into several items under one partition key.",
          _DOCS + "ServiceQuotas.html"),
    # §6 (partition key 2,048 bytes, sort key 1,024 bytes)
    Check("DDS402", "Key value can exceed its size limit", ERROR,
          "A partition key value may be at most 2,048 bytes and a sort key value at most 1,024 bytes. A template "
          "that joins long attributes (descriptions, URLs, names) can exceed that for the longest values, and the "
          "write is rejected.",
          "Build keys from short identifiers; keep long text in ordinary attributes.",
          _DOCS + "ServiceQuotas.html"),
    # §4.2 (10 GB, ItemCollectionSizeLimitExceededException)
    Check("DDS403", "Item collection over 10 GB with an LSI", ERROR,
          "With at least one local secondary index, all items sharing a partition key value (table items plus "
          "their LSI entries) must stay at or below 10 GB; past that, writes fail with "
          "ItemCollectionSizeLimitExceededException, and adaptive capacity will not split such collections.",
          "Replace the LSI with a GSI (no size limit, eventually consistent), or spread the collection over more "
          "partition key values.",
          _GUIDE_2023 + "LSI.md"),
    # §8 (20 GSIs adjustable, 5 LSIs fixed)
    Check("DDS404", "Too many indexes", ERROR,
          "A table can have 20 GSIs (a quota you can ask to raise) and at most 5 LSIs (fixed, and created only "
          "with the table). Every index also adds write cost to each write that touches it.",
          "Overload indexes: let several entities and patterns share GSI1PK/GSI1SK with different key prefixes.",
          _DOCS + "ServiceQuotas.html"),
    # §8 (100 projected non-key attributes across all indexes)
    Check("DDS405", "Too many projected attributes", ERROR,
          "INCLUDE projections may list at most 100 non-key attributes in total across all of a table's indexes; "
          "an attribute projected into two indexes counts twice.",
          "Project ALL where an index needs most attributes, or shorten the INCLUDE lists.",
          _DOCS + "ServiceQuotas.html"),
    # §2 (100 actions, 4 MB, 2x units); §14 myth "transactions are limited to 10 (or 25) items"
    Check("DDS406", "Transaction over 100 items or 4 MB", ERROR,
          "A transaction may hold up to 100 actions on 100 distinct items with an aggregate size of at most 4 MB; "
          "the old limits of 10 or 25 items are outdated. Each item in a transaction costs two units (prepare, "
          "then commit).",
          "Split the work into several transactions with idempotent steps, or move bulk work out of the "
          "transaction.",
          _GUIDE_2023 + "transaction-apis.md"),
    # §8 (BatchWriteItem 25, BatchGetItem 100, 16 MB)
    Check("DDS407", "Batch over its size limit", ERROR,
          "BatchWriteItem takes at most 25 puts or deletes (no updates) and BatchGetItem at most 100 keys, with "
          "up to 16 MB per request. Larger batches are rejected; past 16 MB the rest comes back as unprocessed "
          "keys to retry.",
          "Send the work in chunks (25 writes or 100 reads per call) and retry unprocessed items with backoff.",
          "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html"),
    # no number (the list itself is modeling/data/reserved_words.txt)
    Check("DDS501", "Attribute name is a reserved word", INFO,
          "DynamoDB reserves several hundred words (NAME, STATUS, LEVEL, DATE, COUNT ...) in expressions, "
          "ignoring case. An attribute with such a name works, but every expression that mentions it (key "
          "condition, filter, update, projection) must use an expression attribute name such as #status, "
          "mapped in ExpressionAttributeNames, or DynamoDB rejects the request.",
          "Use placeholders for these names in every expression (most SDK expression builders do), or rename the "
          "attribute.",
          _DOCS + "ReservedWords.html"),
)
CHECKS: dict[str, Check] = {c.check_id: c for c in _CATALOGUE}


# --- context: what every rule needs, computed once ---------------------------------------------------


@dataclass(frozen=True)
class _Load:
    """Estimated peak units per second on the busiest value of one partition-key template (approximate)."""

    read_units: float = 0.0
    write_units: float = 0.0
    parts: tuple[tuple[str, float, float], ...] = ()  # (pattern, read units, write units)

    @property
    def utilisation(self) -> float:
        # dynamodb-facts §7.1: 3,000 RCU and 1,000 WCU per partition, or a linear mix of the two
        return self.read_units / PARTITION_READ_UNITS + self.write_units / PARTITION_WRITE_UNITS

    def plus(self, pattern: str, read_units: float, write_units: float) -> _Load:
        return _Load(self.read_units + read_units, self.write_units + write_units,
                     (*self.parts, (pattern, read_units, write_units)))


@dataclass(frozen=True)
class _KeyOwner:
    """One entity's partition-key template on the table or one GSI, with its readable path."""

    entity: Entity
    template: str
    path: str
    index: str | None


@dataclass(frozen=True)
class _Context:
    model: Model
    design: Design
    paths: dict[str, AccessPath]
    keys: dict[str, EntityKeys]
    indexes: dict[str, SecondaryIndex]
    item_bytes: dict[str, float]
    owners: dict[tuple[str, str], tuple[_KeyOwner, ...]]  # (TABLE or GSI name, template) -> owners
    loads: dict[tuple[str, str], _Load]

    def entity(self, name: str) -> Entity | None:
        return self.model.entity(name)

    def plans(self) -> Iterator[tuple[AccessPattern, PatternPlan]]:
        for pattern in self.model.access_patterns:
            plan = self.design.plan(pattern.name)
            if plan is not None:
                yield pattern, plan


def _context(model: Model, design: Design) -> _Context:
    key_design = design.key_design
    indexes = {i.name: i for i in (*key_design.global_secondary_indexes, *key_design.local_secondary_indexes)}
    ctx = _Context(model, design, {p.name: p for p in access_paths(key_design)},
                   {k.entity: k for k in key_design.entities}, indexes, {}, {}, {})
    ctx = replace(ctx, item_bytes={e.name: _item_bytes(ctx, e) for e in model.entities}, owners=_owners(ctx))
    return replace(ctx, loads=_loads(ctx))


def _owners(ctx: _Context) -> dict[tuple[str, str], tuple[_KeyOwner, ...]]:
    owners: dict[tuple[str, str], list[_KeyOwner]] = {}
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None:
            continue
        base = f"key_design.entities[{entity.name}]"
        found = [(TABLE, keys.table.partition_key, f"{base}.table.partition_key", None)]
        found += [(name, t.partition_key, f"{base}.indexes[{name}].partition_key", name)
                  for name, t in keys.indexes.items() if name in ctx.paths and ctx.paths[name].is_global]
        for physical, template, path, index in found:
            owners.setdefault((physical, template), []).append(_KeyOwner(entity, template, path, index))
    return {key: tuple(found) for key, found in owners.items()}


# --- sizes (approximate; dynamodb-facts §6) ---------------------------------------------------------


def _value_bytes(attribute: Attribute, largest: bool = False) -> int:
    """Value size of an attribute: its size hints, else the text generator's length, else a type default."""
    hints = (attribute.max_size_bytes, attribute.avg_size_bytes) if largest else (
        attribute.avg_size_bytes, attribute.max_size_bytes)
    for hint in hints:
        if hint is not None:
            return hint
    if isinstance(attribute.generator, TextGenerator):
        return attribute.generator.length_bytes
    return _DEFAULT_VALUE_BYTES.get(attribute.type, _DEFAULT_OTHER_BYTES)


def _template_bytes(entity: Entity, source: str, largest: bool = False) -> int:
    """Rendered key length: constants plus attribute values (numbers as text: ~2 digits per byte, §6)."""
    total = 0
    for segment in KeyTemplate.parse(source).segments:
        attribute = entity.attribute(segment.text) if segment.is_attribute else None
        if not segment.is_attribute:
            total += len(segment.text.encode())
        elif segment.width is not None:
            total += segment.width + (segment.decimals + 1 if segment.decimals else 0)
        elif attribute is None:
            total += _DEFAULT_OTHER_BYTES
        elif attribute.type is AttributeType.N:
            total += min(MAX_NUMBER_TEXT_BYTES, 2 * _value_bytes(attribute, largest))
        else:
            total += _value_bytes(attribute, largest)
    return total


def _key_attributes(ctx: _Context, entity: Entity, index: str | None = None) -> list[tuple[str, str]]:
    """(key attribute name, template) pairs the entity's items carry: the table's, or one index's."""
    keys = ctx.keys.get(entity.name)
    if keys is None:
        return []
    key_design = ctx.design.key_design
    if index is None:
        pairs = [(key_design.partition_key.name, keys.table.partition_key)]
        if key_design.sort_key is not None and keys.table.sort_key:
            pairs.append((key_design.sort_key.name, keys.table.sort_key))
        return pairs
    definition, templates = ctx.indexes.get(index), keys.indexes.get(index)
    if definition is None or templates is None:
        return []
    pairs = [(definition.partition_key.name, templates.partition_key)] if ctx.paths[index].is_global else []
    if definition.sort_key is not None and templates.sort_key:
        pairs.append((definition.sort_key.name, templates.sort_key))
    return pairs


def _item_bytes(ctx: _Context, entity: Entity, largest: bool = False) -> float:
    """Item size: attribute names plus values, plus the key attributes of the table and every index (§6)."""
    size = sum(len(a.name.encode()) + _value_bytes(a, largest) for a in entity.attributes)
    keys = ctx.keys.get(entity.name)
    for index in (None, *(keys.indexes if keys else ())):
        size += sum(len(name.encode()) + _template_bytes(entity, template, largest)
                    for name, template in _key_attributes(ctx, entity, index))
    return float(size)


def _entry_bytes(ctx: _Context, entity: Entity, path: AccessPath) -> float:
    """Size of the entity's entry on a path: the whole item, or the index keys plus what is projected (§4.1)."""
    if path.name == TABLE or path.projection is ProjectionType.ALL:
        return ctx.item_bytes.get(entity.name, 0.0)
    pairs = _key_attributes(ctx, entity) + _key_attributes(ctx, entity, path.name)
    size = sum(len(name.encode()) + _template_bytes(entity, template) for name, template in pairs)
    for name in ctx.indexes[path.name].projection.non_key_attributes:
        attribute = entity.attribute(name)
        size += (len(name.encode()) + _value_bytes(attribute)) if attribute is not None else 0
    return float(size)


def _lsi_entry_bytes(ctx: _Context, entity: Entity, largest: bool = False) -> float:
    """Bytes the entity's LSI entries add to its item collection (§4.2: they count towards 10 GB and 400 KB)."""
    keys = ctx.keys.get(entity.name)
    total = 0.0
    for index in ctx.design.key_design.local_secondary_indexes:
        if keys is not None and index.name in keys.indexes:
            path = ctx.paths[index.name]
            total += (_item_bytes(ctx, entity, largest) if largest and path.projection is ProjectionType.ALL
                      else _entry_bytes(ctx, entity, path))
    return total


# --- units per request (APPROXIMATE: dynamodb-facts §1.1, §1.2, §2) -----------------------------------


def _read_units(ctx: _Context, plan: PatternPlan) -> float:
    """Read units one request of a read plan consumes, approximately."""
    path = ctx.paths.get(plan.index)
    entities = [e for e in (ctx.entity(n) for n in plan.entities) if e is not None]
    if path is None or not entities:
        return 0.0
    consistency = 1.0 if plan.consistent_read else EVENTUAL_READ_FACTOR  # §1.1
    if plan.operation is Operation.SCAN:  # §1.2: charged on every item evaluated, sizes added
        table_bytes = sum(e.item_count * ctx.item_bytes[e.name] for e in ctx.model.entities)
        return math.ceil(table_bytes / READ_BLOCK_BYTES) * consistency
    entry = sum(_entry_bytes(ctx, e, path) for e in entities) / len(entities)
    per_item = math.ceil(entry / READ_BLOCK_BYTES)
    if plan.operation in (Operation.GET_ITEM, Operation.BATCH_GET_ITEM):  # §1.2: each item rounded
        return plan.items_read_per_request * per_item * consistency
    if plan.operation is Operation.TRANSACT_GET_ITEMS:  # §2: 2 units per 4 KB
        return plan.items_read_per_request * per_item * TRANSACTION_FACTOR
    return math.ceil(plan.items_read_per_request * entry / READ_BLOCK_BYTES) * consistency  # §1.2 Query


def _write_units_per_item(ctx: _Context, entity: Entity, pattern: AccessPattern) -> float:
    """Table write units per written item: ceil(size / 1 KB), doubled in a transaction (§1.2, §2)."""
    factor = TRANSACTION_FACTOR if pattern.kind is PatternKind.TRANSACT_WRITE else 1.0
    return math.ceil(ctx.item_bytes.get(entity.name, 0.0) / WRITE_BLOCK_BYTES) * factor


# --- key value distributions ------------------------------------------------------------------------


@cache
def _harmonic(count: float, exponent: float) -> float:
    """H(n, s) = sum of k^-s for k = 1..n: exact for 1,000 terms, then the integral of the tail."""
    exact = int(min(count, 1000))
    total = math.fsum(k ** -exponent for k in range(1, exact + 1))
    if count > exact:
        low, high = exact + 0.5, count + 0.5
        total += (math.log(high / low) if exponent == 1
                  else (high ** (1 - exponent) - low ** (1 - exponent)) / (1 - exponent))
    return total


def _top_share(distribution: Distribution, count: float) -> float:
    """Share of occurrences taken by the most common of `count` values."""
    if count <= 1:
        return 1.0
    if isinstance(distribution, ZipfDistribution):
        return 1.0 / _harmonic(count, distribution.exponent)
    if isinstance(distribution, HotValueDistribution):
        return max(distribution.share, (1 - distribution.share) / (count - 1))
    return 1.0 / count


def _value_spread(ctx: _Context, entity: Entity, name: str) -> tuple[float, float, bool]:
    """(distinct values, share of the most common value, whether the values form a closed set)."""
    attribute = entity.attribute(name)
    items = float(max(entity.item_count, 1))
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, ConstantGenerator):
        return 1.0, 1.0, True
    if isinstance(generator, EnumGenerator):
        count = float(len(generator.values))
        if generator.weights is not None:
            return count, max(generator.weights) / sum(generator.weights), True
        return count, _top_share(generator.distribution, count), True
    if isinstance(generator, BooleanGenerator):
        return 2.0, max(generator.true_share, 1 - generator.true_share), True
    if isinstance(generator, ReferenceGenerator):
        parent = ctx.entity(generator.entity)
        count = float(max(parent.item_count, 1)) if parent is not None else items
        return count, _top_share(generator.distribution, count), True
    if isinstance(generator, FakerGenerator) and generator.provider in _COUNTRY_PROVIDERS:
        return float(COUNTRY_CODES), 1.0 / COUNTRY_CODES, True
    ranged = isinstance(generator, IntRangeGenerator | FloatRangeGenerator)
    if ranged and attribute is not None and not attribute.unique:
        scale = 10 ** generator.decimals if isinstance(generator, FloatRangeGenerator) else 1
        count = min(float((generator.max - generator.min) * scale + 1), items)
        return count, _top_share(generator.distribution, count), True
    return items, 1.0 / items, False


_COUNTRY_PROVIDERS = frozenset({FakerProvider.COUNTRY, FakerProvider.COUNTRY_CODE})
_TIME_NAME = re.compile(r"(date|time|timestamp|day|hour|minute|week|month|year)$|[a-z0-9](At|On)$|_(at|on)$",
                        re.IGNORECASE)
_BUCKET_SECONDS = {"minute": 60, "hour": 3600, "day": 86400, "date": 86400, "week": 604800,
                   "month": 2_629_746, "year": 31_556_952}


def _time_bucket_seconds(entity: Entity, name: str) -> float | None:
    """How long one value of a time attribute lasts (None: not a time attribute)."""
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, TimestampRangeGenerator):
        return {TimestampFormat.DATE: 86400.0, TimestampFormat.EPOCH_MILLISECONDS: 0.001}.get(generator.format, 1.0)
    if generator is not None or not _TIME_NAME.search(name):
        return None
    return float(next((s for word, s in _BUCKET_SECONDS.items() if word in name.lower()), 1))


def _hot_share(ctx: _Context, entity: Entity, template: str, pattern: AccessPattern, writes: bool) -> float:
    """Share of a pattern's requests that reach the busiest value of a partition-key template.

    Attributes fixed by the pattern's filters always hit one value; for writes, a time attribute sends
    everything written within one second to the same value (the newest), finer timestamps spread.
    """
    fixed = {f.attribute for f in pattern.filters}
    share = 1.0
    for name in KeyTemplate.parse(template).attribute_names:
        bucket = _time_bucket_seconds(entity, name) if writes else None
        if name in fixed:
            continue
        share *= min(1.0, bucket) if bucket is not None else _value_spread(ctx, entity, name)[1]
    return share


# --- peak load per partition-key template ------------------------------------------------------------


def _loads(ctx: _Context) -> dict[tuple[str, str], _Load]:
    loads: dict[tuple[str, str], _Load] = {}
    for pattern, plan in ctx.plans():
        rate = pattern.traffic.peak_requests_per_second
        for key, read_units, write_units in _pattern_traffic(ctx, pattern, plan):
            loads[key] = loads.get(key, _Load()).plus(pattern.name, read_units * rate, write_units * rate)
    return loads


def _physical(path: AccessPath) -> str:
    return path.name if path.is_global else TABLE  # an LSI shares the table's partitions (§4.2)


def _pattern_traffic(ctx: _Context, pattern: AccessPattern,
                     plan: PatternPlan) -> Iterator[tuple[tuple[str, str], float, float]]:
    """((partition, template), read units, write units) per request on the busiest key value."""
    if plan.operation is Operation.SCAN:
        return  # a Scan spreads over every partition (DDS201 reports it)
    entities = [e for e in (ctx.entity(n) for n in plan.entities) if e is not None]
    if not plan.operation.is_write:
        path = ctx.paths.get(plan.index)
        if path is not None and entities and entities[0].name in path.templates:
            template = path.templates[entities[0].name].partition_key
            share = _hot_share(ctx, entities[0], template, pattern, writes=False)
            yield (_physical(path), template), _read_units(ctx, plan) * share, 0.0
        return
    items_per_entity = plan.items_written_per_request / max(len(entities), 1)
    for entity in entities:
        keys = ctx.keys.get(entity.name)
        if keys is not None:
            share = _hot_share(ctx, entity, keys.table.partition_key, pattern, writes=True)
            units = items_per_entity * _write_units_per_item(ctx, entity, pattern)
            yield (TABLE, keys.table.partition_key), 0.0, units * share
    yield from _index_traffic(ctx, pattern, plan, entities)


def _index_traffic(ctx: _Context, pattern: AccessPattern, plan: PatternPlan,
                   entities: list[Entity]) -> Iterator[tuple[tuple[str, str], float, float]]:
    """Index writes, shared evenly by the pattern's entities that are in the index (§4.1, 1 KB blocks)."""
    for write in plan.index_writes:
        path = ctx.paths.get(write.index)
        members = [e for e in entities if path is not None and e.name in path.templates]
        for entity in members:
            writes = write.writes_per_item * plan.items_written_per_request / len(members)
            template = path.templates[entity.name].partition_key
            units = writes * math.ceil(_entry_bytes(ctx, entity, path) / WRITE_BLOCK_BYTES)
            yield (_physical(path), template), 0.0, units * _hot_share(ctx, entity, template, pattern, writes=True)


# --- running the checks -----------------------------------------------------------------------------


def check_design(model: Model, design: Design) -> list[Finding]:
    """Every finding of every check for a model and one of its planned designs, most severe first.

    Sorted by severity, then check id, then path (then message), so the same input always gives the
    same list. Example: `check_design(model, generate_design(model))`.
    """
    ctx = _context(model, design)
    findings = [finding for rule in RULES for finding in rule(ctx)]
    return sorted(findings, key=lambda f: (_RANK[f.severity], f.check_id, f.path, f.message))


def _finding(check_id: str, path: str, message: str, *, severity: FindingSeverity | None = None,
             fix: str | None = None, pattern: str | None = None, index: str | None = None) -> Finding:
    check = CHECKS[check_id]
    return Finding(check_id, severity or check.severity, check.title, message, check.explanation,
                   fix or check.fix, check.doc_url, path, pattern, index)


def _load_severity(utilisation: float) -> FindingSeverity:
    if utilisation >= HOT_PARTITION_SHARE:
        return ERROR
    return WARNING if utilisation >= BUSY_PARTITION_SHARE else INFO


def _n(value: float) -> str:
    """A number for messages: 58,500 / 12.5 / 0.25."""
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:,.1f}".removesuffix(".0")
    return f"{value:.2g}"


def _pct(share: float) -> str:
    return f"{share:,.0%}" if share >= 0.01 else f"{share:.2%}"


def _size(size_bytes: float) -> str:
    """Binary units as DynamoDB uses them (dynamodb-facts §0.2: 1 KB = 1,024 B)."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size_bytes >= scale:
            return f"{_n(size_bytes / scale)} {unit}"
    return f"{size_bytes:,.0f} B"


def _where(physical: str) -> str:
    return "the table" if physical == TABLE else f"index {physical}"


def _names(owners: tuple[_KeyOwner, ...]) -> str:
    return ", ".join(dict.fromkeys(o.entity.name for o in owners))


def _entities(ctx: _Context, names: tuple[str, ...]) -> list[Entity]:
    return [e for e in (ctx.entity(n) for n in names) if e is not None]


# --- DDS1xx keys and partitions ---------------------------------------------------------------------


def _few_values(ctx: _Context, entity: Entity, name: str) -> bool:
    attribute = entity.attribute(name)
    if attribute is not None and isinstance(attribute.generator, FakerGenerator):
        return attribute.generator.provider in _COUNTRY_PROVIDERS  # few countries carry most traffic
    count, _, closed = _value_spread(ctx, entity, name)
    return closed and count <= LOW_CARDINALITY_MAX_VALUES


def _describe_values(ctx: _Context, entity: Entity, name: str) -> str:
    attribute = entity.attribute(name)
    generator = attribute.generator if attribute is not None else None
    if isinstance(generator, EnumGenerator):
        shown = ", ".join(generator.values[:6]) + (" ..." if len(generator.values) > 6 else "")
        return f"{name}: {shown}"
    if isinstance(generator, BooleanGenerator):
        return f"{name}: true or false"
    return f"{name}: {_n(_value_spread(ctx, entity, name)[0])} values"


def _low_cardinality_keys(ctx: _Context) -> Iterator[Finding]:
    """DDS101: a partition key whose values come from a small closed set, or a busy constant key."""
    for key, owners in ctx.owners.items():
        owner, load = owners[0], ctx.loads.get(key, _Load())
        names = KeyTemplate.parse(owner.template).attribute_names
        if not names and load.utilisation < BUSY_PARTITION_SHARE:
            continue  # a constant key with little traffic (a singleton item) is fine
        if not all(_few_values(ctx, owner.entity, n) for n in names):
            continue
        spreads = [_value_spread(ctx, owner.entity, n) for n in names]
        values, top = math.prod(s[0] for s in spreads), math.prod(s[1] for s in spreads)
        what = (f"the constant {owner.template}" if not names else
                f"{owner.template} ({'; '.join(_describe_values(ctx, owner.entity, n) for n in names)})")
        yield _finding("DDS101", owner.path, (
            f"{_names(owners)} use {what} as partition key on {_where(key[0])}: {_n(values)} key value(s), the "
            f"most common holding {_pct(top)} of the items. At peak the busiest value takes ≈ {_n(load.read_units)} "
            f"RCU/s and {_n(load.write_units)} WCU/s, {_pct(load.utilisation)} of one partition (approximate)."),
            severity=_load_severity(load.utilisation), index=owner.index)


_DURATIONS = {1.0: "second", 60.0: "minute", 3600.0: "hour", 86400.0: "day", 604800.0: "week",
              2_629_746.0: "month", 31_556_952.0: "year"}


def _time_bucketed_keys(ctx: _Context) -> Iterator[Finding]:
    """DDS102: a partition key of time buckets (plus few other values) that new items are written to."""
    for key, owners in ctx.owners.items():
        owner, load = owners[0], ctx.loads.get(key, _Load())
        names = KeyTemplate.parse(owner.template).attribute_names
        buckets = {n: s for n in names if (s := _time_bucket_seconds(owner.entity, n)) is not None and s >= 1}
        others = [n for n in names if n not in buckets]
        if not buckets or load.write_units <= 0 or not all(_few_values(ctx, owner.entity, n) for n in others):
            continue
        share = load.write_units / PARTITION_WRITE_UNITS  # §7.1: 1,000 WCU per partition
        spans = ", ".join(f"{n} (one value per {_DURATIONS.get(s, f'{s:g} s')})" for n, s in buckets.items())
        yield _finding("DDS102", owner.path, (
            f"{owner.template} on {_where(key[0])} is bucketed by {spans}: everything {_names(owners)} writes "
            f"within a bucket goes to its newest value, ≈ {_n(load.write_units)} WCU/s at peak, {_pct(share)} of "
            f"one partition's {PARTITION_WRITE_UNITS:,} WCU (approximate)."),
            severity=ERROR if share >= HOT_PARTITION_SHARE else WARNING, index=owner.index)


def _top_parts(load: _Load) -> str:
    merged: dict[str, float] = {}
    for pattern, read_units, write_units in load.parts:
        merged[pattern] = merged.get(pattern, 0.0) + read_units / PARTITION_READ_UNITS \
            + write_units / PARTITION_WRITE_UNITS
    ranked = sorted(merged.items(), key=lambda item: (-item[1], item[0]))[:3]
    return ", ".join(f"{pattern} {_pct(share)}" for pattern, share in ranked)


def _hot_key_values(ctx: _Context) -> Iterator[Finding]:
    """DDS103: the busiest value of a partition key needs more than one partition can serve (§7.1)."""
    for key, load in ctx.loads.items():
        if load.utilisation < HOT_PARTITION_SHARE:
            continue
        owners = ctx.owners.get(key, ())
        path = owners[0].path if owners else "key_design"
        yield _finding("DDS103", path, (
            f"At peak the busiest {key[1]} value on {_where(key[0])} takes ≈ {_n(load.read_units)} RCU/s and "
            f"{_n(load.write_units)} WCU/s: {_pct(load.utilisation)} of one partition ({PARTITION_READ_UNITS:,} RCU "
            f"and {PARTITION_WRITE_UNITS:,} WCU per second; approximate). Largest shares: {_top_parts(load)}."),
            severity=ERROR if load.utilisation >= 1 else WARNING, index=owners[0].index if owners else None)


def _varying_digits(attribute: Attribute | None) -> bool:
    """Whether the attribute's numbers can have different digit counts (so string order breaks)."""
    if attribute is None:
        return False
    generator = attribute.generator
    if isinstance(generator, TimestampRangeGenerator):
        return False  # epoch values keep the same number of digits for centuries
    if isinstance(generator, SequenceGenerator):
        return attribute.type is AttributeType.N or generator.width == 0
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator):
        return generator.min < 0 or len(str(int(generator.min))) != len(str(int(generator.max)))
    return attribute.type is AttributeType.N


def _padded_reference(entity: Entity, attribute: Attribute) -> str:
    """`{xp:7}` / `{price:4.2}`: a width that fits the largest value the model allows."""
    generator = attribute.generator
    if isinstance(generator, IntRangeGenerator | FloatRangeGenerator):
        width = len(str(int(max(abs(generator.min), abs(generator.max)))))
        decimals = f".{generator.decimals}" if isinstance(generator, FloatRangeGenerator) else ""
        return f"{{{attribute.name}:{width}{decimals}}}"
    if isinstance(generator, SequenceGenerator):
        return f"{{{attribute.name}:{len(str(generator.start + entity.item_count))}}}"
    # dynamodb-facts §6: about 2 digits per byte of a stored Number; 10 digits when nothing is known
    digits = 2 * (attribute.max_size_bytes - 1) if attribute.max_size_bytes else 10
    return f"{{{attribute.name}:{max(1, min(digits, 38))}}}"


def _sort_templates(ctx: _Context, keys: EntityKeys) -> Iterator[tuple[str, str, str, str | None]]:
    """(access path, sort template, readable path, index) for the table and each index of an entity."""
    base = f"key_design.entities[{keys.entity}]"
    key_design = ctx.design.key_design
    if keys.table.sort_key and key_design.sort_key is not None and key_design.sort_key.type == "S":
        yield TABLE, keys.table.sort_key, f"{base}.table.sort_key", None
    for name, templates in keys.indexes.items():
        index = ctx.indexes.get(name)
        if templates.sort_key and index is not None and index.sort_key is not None and index.sort_key.type == "S":
            yield name, templates.sort_key, f"{base}.indexes[{name}].sort_key", name


def _unpadded_numbers(ctx: _Context) -> Iterator[Finding]:
    """DDS104: a number inside a string sort key without a `{attr:width}` (10 sorts before 9)."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        for path_name, source, path, index in _sort_templates(ctx, keys) if entity is not None else ():
            for segment in KeyTemplate.parse(source).segments:
                attribute = entity.attribute(segment.text) if segment.is_attribute else None
                if attribute is None or segment.width is not None or not _varying_digits(attribute):
                    continue
                ranged = sorted({p.name for p, plan in ctx.plans() if plan.index == path_name
                                 and entity.name in plan.entities and p.range_condition is not None
                                 and p.range_condition.attribute == attribute.name})
                padded = re.sub(r"\{\s*" + re.escape(attribute.name) + r"\s*\}",
                                _padded_reference(entity, attribute), source)
                uses = (f"; {', '.join(ranged)} select{'s' if len(ranged) == 1 else ''} by it and get wrong results"
                        if ranged else "")
                yield _finding("DDS104", path, (
                    f"{entity.name}'s sort key {source} writes the number {attribute.name} without zero padding, so "
                    f"it sorts as text (10 before 9){uses}."), severity=ERROR if ranged else WARNING,
                    fix=f"Write the sort key as {padded}" + (", after offsetting negative values" if
                                                           _can_be_negative(attribute) else "") + ".",
                    pattern=ranged[0] if ranged else None, index=index)


def _can_be_negative(attribute: Attribute) -> bool:
    generator = attribute.generator
    return isinstance(generator, IntRangeGenerator | FloatRangeGenerator) and generator.min < 0


def _parent_attributes(ctx: _Context, entity: Entity) -> set[str]:
    return {a for r in ctx.model.relationships if r.child == entity.name for a in r.child_attributes}


def _natural_table_keys(ctx: _Context) -> Iterator[Finding]:
    """DDS105: a table partition key from attributes that are neither identifiers nor parent references."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None or not entity.identifiers:
            continue
        allowed = set(entity.identifiers) | _parent_attributes(ctx, entity)
        natural = [n for n in KeyTemplate.parse(keys.table.partition_key).attribute_names if n not in allowed]
        if not natural:
            continue
        detours = [f"{p.name} (via {plan.index})" for p, plan in ctx.plans() if p.entities == (entity.name,)
                   and p.kind.is_read and set(entity.identifiers) <= set(p.inputs) and plan.index != TABLE]
        detour = f" Lookups by its identifiers go through an index: {', '.join(detours)}." if detours else ""
        yield _finding("DDS105", f"key_design.entities[{entity.name}].table.partition_key", (
            f"{entity.name}'s table partition key {keys.table.partition_key} is built from {', '.join(natural)}, "
            f"not from its identifiers ({', '.join(entity.identifiers)}) or a parent reference.{detour}"))


def _colliding_table_keys(ctx: _Context) -> Iterator[Finding]:
    """DDS106: the table key templates leave out an identifier, so two items can share one key."""
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None or not entity.identifiers:
            continue
        names = {n for t in (keys.table.partition_key, keys.table.sort_key) if t
                 for n in KeyTemplate.parse(t).attribute_names}
        unique = any(a is not None and a.unique for a in (entity.attribute(n) for n in names))
        missing = [n for n in entity.identifiers if n not in names]
        if missing and not unique:
            yield _finding("DDS106", f"key_design.entities[{entity.name}].table", (
                f"{entity.name}'s table key {keys.table.partition_key} / {keys.table.sort_key or '(none)'} leaves out "
                f"{', '.join(missing)}: two of its {_n(entity.item_count)} items that differ only there get the "
                "same key, and the second write overwrites the first."))


def _changed(ctx: _Context, pattern: AccessPattern) -> list[tuple[Entity, set[str]]]:
    """(entity, attributes it changes) for update-like patterns."""
    if pattern.kind not in (PatternKind.UPDATE, PatternKind.TRANSACT_WRITE):
        return []
    return [(e, changed) for e in _entities(ctx, pattern.entities)
            if (changed := {a for a in pattern.changed_attributes if e.attribute(a) is not None})]


def _template_names(*sources: str | None) -> set[str]:
    return {n for source in sources if source for n in KeyTemplate.parse(source).attribute_names}


def _table_key_updates(ctx: _Context) -> Iterator[Finding]:
    """DDS107: an update changes an attribute that the table's primary key is built from."""
    for pattern in ctx.model.access_patterns:
        for entity, changed in _changed(ctx, pattern):
            keys = ctx.keys.get(entity.name)
            hit = sorted(changed & _template_names(keys.table.partition_key, keys.table.sort_key)) if keys else []
            if hit:
                yield _finding("DDS107", f"access_patterns[{pattern.name}]", (
                    f"{pattern.name} changes {', '.join(hit)}, part of {entity.name}'s table key "
                    f"{keys.table.partition_key} / {keys.table.sort_key or '(none)'}: at "
                    f"{_n(pattern.traffic.peak_requests_per_second)} requests/s peak each one becomes a read, a delete "
                    "and a put."), pattern=pattern.name)


# --- DDS2xx reads -----------------------------------------------------------------------------------


def _scans(ctx: _Context) -> Iterator[Finding]:
    """DDS201: a pattern that only a Scan can serve (§1.2: charged on every item evaluated)."""
    for pattern, plan in ctx.plans():
        if plan.operation is not Operation.SCAN:
            continue
        units, rate = _read_units(ctx, plan), pattern.traffic.peak_requests_per_second
        inputs = ", ".join((*pattern.inputs, *(f.attribute for f in pattern.filters))) or "none"
        yield _finding("DDS201", f"access_patterns[{pattern.name}]", (
            f"No table key or index is built from {pattern.name}'s inputs ({inputs}), so it needs a Scan that reads "
            f"all {_n(plan.items_read_per_request)} items to return {_n(plan.items_returned_per_request)}: "
            f"≈ {_n(units)} RCU per request, {_n(units * rate)} RCU/s at {_n(rate)} requests/s peak (approximate)."),
            pattern=pattern.name)


def _wasteful_filters(ctx: _Context) -> Iterator[Finding]:
    """DDS202: a Query whose filter throws away most of what it reads (and pays for)."""
    for pattern, plan in ctx.plans():
        read, returned = plan.items_read_per_request, plan.items_returned_per_request
        if plan.operation is Operation.SCAN or not plan.filter_expression or read <= returned:
            continue
        discarded = 1 - returned / read
        if discarded < MAX_DISCARDED_SHARE:
            continue
        filtered = ", ".join(part.split(" = ")[0] for part in plan.filter_expression.split(" AND "))
        units = _read_units(ctx, plan)
        yield _finding("DDS202", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} reads ≈ {_n(read)} items per request to return {_n(returned)}: the filter on {filtered} "
            f"discards {_pct(discarded)} of them, yet all ≈ {_n(units)} RCU per request are paid "
            f"({_n(units * pattern.traffic.peak_requests_per_second)} RCU/s at peak; approximate)."),
            pattern=pattern.name, index=None if plan.index == TABLE else plan.index)


def _strong_reads_on_gsis(ctx: _Context) -> Iterator[Finding]:
    """DDS203: a strongly consistent pattern planned on a GSI, or left to a Scan because only a GSI fits."""
    for pattern, plan in ctx.plans():
        if pattern.consistency is not Consistency.STRONG or not pattern.kind.is_read:
            continue
        path = ctx.paths.get(plan.index)
        gsi = plan.index if path is not None and path.is_global else None
        if gsi is None and plan.operation is Operation.SCAN:
            relaxed = plan_pattern(ctx.model, ctx.design.key_design,
                                   pattern.model_copy(update={"consistency": Consistency.EVENTUAL}))
            fits = ctx.paths.get(relaxed.index)
            gsi = relaxed.index if relaxed.operation is not Operation.SCAN and fits and fits.is_global else None
        if gsi is not None:
            yield _finding("DDS203", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} asks for strongly consistent reads, but only {gsi} (a GSI, eventually consistent) "
                f"is keyed on its inputs ({', '.join(pattern.inputs) or 'none'})."
                + (" It falls back to a Scan." if plan.operation is Operation.SCAN else "")),
                pattern=pattern.name, index=gsi)


def _batch_get_rounding(ctx: _Context) -> Iterator[Finding]:
    """DDS204: BatchGetItem rounds each item up to 4 KB; small items cost more than their total size suggests."""
    for pattern, plan in ctx.plans():
        entities = _entities(ctx, plan.entities)
        if plan.operation is not Operation.BATCH_GET_ITEM or plan.items_read_per_request <= 1 or not entities:
            continue
        size = ctx.item_bytes[entities[0].name]
        factor = 1.0 if plan.consistent_read else EVENTUAL_READ_FACTOR  # §1.1
        per_item = _read_units(ctx, plan)
        together = math.ceil(plan.items_read_per_request * size / READ_BLOCK_BYTES) * factor  # §1.2 Query rule
        if per_item > together:
            yield _finding("DDS204", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} fetches {_n(plan.items_read_per_request)} items of ≈ {_size(size)}: BatchGetItem "
                f"rounds each up to 4 KB, ≈ {_n(per_item)} RCU per request, not the {_n(together)} RCU their total "
                "size suggests."), pattern=pattern.name)


def _projection_gaps(ctx: _Context) -> Iterator[Finding]:
    """DDS205: a read on an index that does not project what the pattern uses."""
    for pattern, plan in ctx.plans():
        path = ctx.paths.get(plan.index)
        if plan.operation.is_write or path is None or path.name == TABLE or path.projection is ProjectionType.ALL:
            continue
        entities = _entities(ctx, plan.entities)
        needed = set(pattern.returns) or {a.name for e in entities for a in e.attributes}
        available = set(ctx.indexes[path.name].projection.non_key_attributes)
        for keys in (ctx.keys[e.name] for e in entities if e.name in ctx.keys):
            available |= _template_names(keys.table.partition_key, keys.table.sort_key)
            available |= _template_names(*((t.partition_key, t.sort_key) if (t := keys.indexes.get(path.name))
                                           else ()))
        missing = sorted(needed - available)
        if not missing:
            continue
        how = ("a GSI cannot fetch them: the application needs another read per item" if path.is_global else
               "the LSI fetches each whole item from the table, each read rounded up to 4 KB")
        assumed = "" if pattern.returns else " (it lists no `returns`, so it is taken to use whole items)"
        yield _finding("DDS205", f"access_patterns[{pattern.name}]", (
            f"{pattern.name} reads {path.name} ({path.projection}), which lacks {', '.join(missing[:6])}"
            f"{' ...' if len(missing) > 6 else ''}{assumed}; {how}."),
            severity=ERROR if path.is_global and pattern.returns else WARNING, pattern=pattern.name,
            index=path.name)


# --- DDS3xx writes and indexes ----------------------------------------------------------------------


def _index_key_updates(ctx: _Context) -> Iterator[Finding]:
    """DDS301: an update changes an index key attribute: a delete plus a put in the index (§4.1)."""
    for pattern in ctx.model.access_patterns:
        rate = pattern.traffic.peak_requests_per_second
        for entity, changed in _changed(ctx, pattern):
            keys = ctx.keys.get(entity.name)
            for index, templates in (keys.indexes.items() if keys else ()):
                hit = sorted(changed & _template_names(templates.partition_key, templates.sort_key))
                path = ctx.paths.get(index)
                if not hit or path is None:
                    continue
                units = 2 * math.ceil(_entry_bytes(ctx, entity, path) / WRITE_BLOCK_BYTES)  # §4.1: delete + put
                yield _finding("DDS301", f"access_patterns[{pattern.name}]", (
                    f"{pattern.name} changes {', '.join(hit)}, part of {index}'s key for {entity.name} "
                    f"({templates.partition_key} / {templates.sort_key or '(none)'}): every change deletes the old "
                    f"entry and puts a new one, ≈ {_n(units)} index WCU per update, {_n(units * rate)} WCU/s at "
                    f"{_n(rate)} updates/s peak."),
                    severity=WARNING if rate >= FREQUENT_UPDATES_PER_SECOND else INFO,
                    pattern=pattern.name, index=index)


_COUNTER_NAME = re.compile(r"(count|total|xp|points|score|stock|quantity|qty|version|balance|views|likes|votes)$",
                           re.IGNORECASE)


def _counter_updates(ctx: _Context) -> Iterator[Finding]:
    """DDS302: an update of a counter-like Number: atomic in place, but a retry counts twice."""
    for pattern in ctx.model.access_patterns:
        counters = sorted({name for entity, changed in _changed(ctx, pattern) for name in changed
                           if (a := entity.attribute(name)) is not None and a.type is AttributeType.N
                           and (_COUNTER_NAME.search(name) or re.search(r"increment|counter|atomic",
                                                                        a.description, re.IGNORECASE))})
        if counters:
            yield _finding("DDS302", f"access_patterns[{pattern.name}]", (
                f"{pattern.name} changes the counter(s) {', '.join(counters)}: SET {counters[0]} = {counters[0]} + :v "
                "(or ADD) is atomic without reading the item first, but a retried request adds again."),
                pattern=pattern.name)


def _item_collections(ctx: _Context) -> Iterator[Finding]:
    """DDS303 and DDS403: children stored under their parent's partition key, and how big that gets."""
    lsis = [i.name for i in ctx.design.key_design.local_secondary_indexes]
    for relationship in ctx.model.relationships:
        child, parent = ctx.entity(relationship.child), ctx.entity(relationship.parent)
        keys = ctx.keys.get(relationship.child)
        if relationship.kind is RelationshipKind.MANY_TO_MANY or child is None or parent is None or keys is None:
            continue
        names = set(KeyTemplate.parse(keys.table.partition_key).attribute_names)
        if not names or not names <= set(relationship.child_attributes):
            continue
        item = ctx.item_bytes[child.name] + _lsi_entry_bytes(ctx, child)
        path = f"key_design.entities[{child.name}].table.partition_key"
        collection = f"{child.name} items share their {parent.name}'s partition key ({keys.table.partition_key})"
        cardinality = relationship.cardinality
        if cardinality.max is not None and lsis and cardinality.max * item > MAX_ITEM_COLLECTION_BYTES:
            yield _finding("DDS403", path, (
                f"{collection} and the table has {', '.join(lsis)}: the largest collection holds up to "
                f"{_n(cardinality.max)} x ≈ {_size(item)} ≈ {_size(cardinality.max * item)}, over the 10 GB limit."),
                index=lsis[0])
        elif cardinality.max is None:
            growth = f", and {child.name} grows {child.monthly_growth_percent:g} % a month" \
                if child.monthly_growth_percent > 0 else ""
            limit = f"; with {', '.join(lsis)} each must stay under 10 GB" if lsis else ""
            yield _finding("DDS303", path, (
                f"{collection}; {relationship.name} gives no maximum: ≈ {_n(cardinality.mean)} x ≈ {_size(item)} "
                f"≈ {_size(cardinality.mean * item)} on average with no cap{growth}{limit}."),
                severity=WARNING if lsis else INFO, index=lsis[0] if lsis else None)


# --- DDS4xx limits and quotas -----------------------------------------------------------------------


def _large_items(ctx: _Context) -> Iterator[Finding]:
    """DDS401: the largest item (max sizes, names, keys, LSI entries) can exceed 400 KB (§6, §4.2)."""
    for entity in ctx.model.entities:
        size = _item_bytes(ctx, entity, largest=True) + _lsi_entry_bytes(ctx, entity, largest=True)
        if size > MAX_ITEM_BYTES:
            biggest = max(entity.attributes, key=lambda a: _value_bytes(a, largest=True))
            yield _finding("DDS401", f"entities[{entity.name}]", (
                f"A {entity.name} item can reach ≈ {_size(size)} (max_size_bytes plus names and keys), over the "
                f"400 KB item limit; the largest attribute is {biggest.name} "
                f"({_size(_value_bytes(biggest, largest=True))})."))


def _long_keys(ctx: _Context) -> Iterator[Finding]:
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
                size = _template_bytes(entity, source, largest=True) if source else 0
                if size > limit:
                    yield _finding("DDS402", f"{path}.{part}", (
                        f"{entity.name}'s {part.replace('_', ' ')} {source} can render to ≈ {size:,} bytes "
                        f"(from the attributes' max_size_bytes), over the {limit:,}-byte limit."), index=index)


def _index_quotas(ctx: _Context) -> Iterator[Finding]:
    """DDS404 and DDS405: index counts and INCLUDE projections over the table quotas (§8)."""
    key_design = ctx.design.key_design
    gsis, lsis = key_design.global_secondary_indexes, key_design.local_secondary_indexes
    if len(gsis) > MAX_GSIS_PER_TABLE:
        yield _finding("DDS404", "key_design.global_secondary_indexes",
                       f"{len(gsis)} GSIs; a table has at most {MAX_GSIS_PER_TABLE} by default.")
    if len(lsis) > MAX_LSIS_PER_TABLE:
        yield _finding("DDS404", "key_design.local_secondary_indexes",
                       f"{len(lsis)} LSIs; a table has at most {MAX_LSIS_PER_TABLE}.")
    included = [i for i in (*gsis, *lsis) if i.projection.type is ProjectionType.INCLUDE]
    projected = sum(len(i.projection.non_key_attributes) for i in included)
    if projected > MAX_PROJECTED_NON_KEY_ATTRIBUTES:
        yield _finding("DDS405", "key_design.indexes", (
            f"{projected} projected non-key attributes across {', '.join(i.name for i in included)}; a table "
            f"allows {MAX_PROJECTED_NON_KEY_ATTRIBUTES}."))


_BATCH_LIMITS = {PatternKind.BATCH_WRITE: MAX_BATCH_WRITE_ITEMS, PatternKind.BATCH_READ: MAX_BATCH_GET_ITEMS}


def _request_sizes(ctx: _Context) -> Iterator[Finding]:
    """DDS406 and DDS407: transactions over 100 items or 4 MB, batches over 25 / 100 items or 16 MB (§2, §8)."""
    for pattern in ctx.model.access_patterns:
        entities = _entities(ctx, pattern.entities)
        size = pattern.expected_items * (sum(ctx.item_bytes[e.name] for e in entities) / max(len(entities), 1))
        path, items = f"access_patterns[{pattern.name}].expected_items", pattern.expected_items
        if pattern.kind in (PatternKind.TRANSACT_WRITE, PatternKind.TRANSACT_READ) and (
                items > MAX_TRANSACTION_ITEMS or size > MAX_TRANSACTION_BYTES):
            yield _finding("DDS406", path, (
                f"{pattern.name} puts {_n(items)} items (≈ {_size(size)}) in one transaction; the limits are "
                f"{MAX_TRANSACTION_ITEMS} items and 4 MB."), pattern=pattern.name)
        limit = _BATCH_LIMITS.get(pattern.kind)
        if limit is not None and (items > limit or size > MAX_BATCH_BYTES):
            yield _finding("DDS407", path, (
                f"{pattern.name} sends {_n(items)} items (≈ {_size(size)}) in one {pattern.kind} request; the limits "
                f"are {limit} items and 16 MB."), pattern=pattern.name)


# --- DDS5xx names -----------------------------------------------------------------------------------


@cache
def reserved_words() -> frozenset[str]:
    """DynamoDB's reserved words in upper case (modeling/data/reserved_words.txt, see its README)."""
    return frozenset(RESERVED_WORDS_FILE.read_text(encoding="utf-8").split())


def _reserved_names(ctx: _Context) -> Iterator[Finding]:
    """DDS501: attribute and key attribute names that need #placeholders in expressions."""
    for entity in ctx.model.entities:
        hits = [a.name for a in entity.attributes if a.name.upper() in reserved_words()]
        if hits:
            yield _finding("DDS501", f"entities[{entity.name}]", (
                f"{entity.name}'s attribute(s) {', '.join(hits)} {'is a' if len(hits) == 1 else 'are'} reserved "
                f"word{'s' if len(hits) > 1 else ''}: write #{hits[0]} with ExpressionAttributeNames in expressions."))
    key_design = ctx.design.key_design
    named = [("key_design.partition_key", key_design.partition_key), ("key_design.sort_key", key_design.sort_key)]
    for kind in ("global_secondary_indexes", "local_secondary_indexes"):
        for index in getattr(key_design, kind):
            named += [(f"key_design.{kind}[{index.name}]", index.partition_key),
                      (f"key_design.{kind}[{index.name}]", index.sort_key)]
    for path, key in named:
        if key is not None and key.name.upper() in reserved_words():
            yield _finding("DDS501", path, f"The key attribute {key.name} is a reserved word: write #{key.name} "
                                           "in key conditions.")


RULES: tuple[Callable[[_Context], Iterator[Finding]], ...] = (
    _low_cardinality_keys, _time_bucketed_keys, _hot_key_values, _unpadded_numbers, _natural_table_keys,
    _colliding_table_keys, _table_key_updates, _scans, _wasteful_filters, _strong_reads_on_gsis,
    _batch_get_rounding, _projection_gaps, _index_key_updates, _counter_updates, _item_collections,
    _large_items, _long_keys, _index_quotas, _request_sizes, _reserved_names,
)
