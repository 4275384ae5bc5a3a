"""The check catalogue: severities, `Check` and `Finding`, every check's text and its AWS doc link.

`CHECKS` maps each check id to its title, explanation, generic fix and documentation URL, so the docs
and the UI can list them all. `finding` builds one `Finding` from that text and a model-specific
message; `number`, `percent` and `data_size` write the numbers inside those messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from modeling.number_text import number as number  # re-exported: the checks format with it

_DOCS = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
_GUIDE_2023 = ("https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/"
               "822948021fcd815a33c040fb6cce5fa0d4127df4/doc_source/")


class FindingSeverity(StrEnum):
    """How bad a finding is; checks of load pick the level from the estimated traffic."""

    ERROR = "error"  # the design fails or throttles as modelled
    WARNING = "warning"  # works, but costs more or breaks under growth
    INFO = "info"  # worth knowing; often a myth worth correcting


SEVERITY_RANK = {FindingSeverity.ERROR: 0, FindingSeverity.WARNING: 1, FindingSeverity.INFO: 2}
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
          "the application needs a second read per item. The plan makes that read (GetItem or BatchGetItem after "
          "the query, each item rounded up to 4 KB, charged to the table) and the estimate prices it, so the "
          "finding is then a warning: the search chooses such a projection only when it costs less. An LSI query "
          "can fetch them, but pays for the index read plus a read of each whole base item, each rounded up to "
          "4 KB separately.",
          "Project what the pattern uses (INCLUDE those attributes, or ALL), or list in the pattern's `returns` "
          "only the attributes it really needs.",
          _DOCS + "GSI.html"),
    # §4.1 (a key change is a delete plus a put: 2 index writes)
    # §1.2 (Query returns every item its key condition matches; a filter runs after the read and is paid for)
    Check("DDS206", "Query returns items the pattern does not ask for", ERROR,
          "A Query returns every item whose keys meet its key condition, whatever entity it is. When other "
          "entities share the partition and the sort-key condition does not keep them out (no sort-key condition, "
          "or a begins_with prefix such as ORDER# that also matches ORDER#ITEM#), the answer holds their items "
          "too: the application gets wrong results unless it filters them itself, and pays to read them. An "
          "index keyed by plain attribute names (customerId) holds every item that has them, of any entity. The "
          "pattern's own entity too: a condition that ends on a value with nothing after it (begins_with(SK, "
          "'TITLE#en') for TITLE#{language}{edition}) also matches the values that start with it (en-GB). The "
          "Preview's oracle fails such a pattern.",
          "Give each entity in a shared partition its own sort-key prefix and query with it (begins_with(SK, "
          "'TITLE#')), end a prefix with a separator no other prefix continues (and a value with one: "
          "TITLE#{language}#...), list every entity the pattern really wants in its entities, or move the other "
          "entities to their own partition or index.",
          _DOCS + "Query.KeyConditionExpressions.html"),
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
    # §4.1 (index writes: put, delete + put on key change, sized on the entry), §4.2 (LSI on the table), §0.2
    Check("DDS304", "More than one index write per item written", WARNING,
          "Every write to the table also writes each index the item is in: one put when it enters, a delete and a "
          "put when an index key changes, one write when only projected attributes change, each sized on the index "
          "entry and rounded up to 1 KB. A GSI pays with its own write capacity (and throttles table writes when "
          "short of it); an LSI pays with the table's. More than one index write per item written multiplies the "
          "write bill, usually for indexes that copy whole items or that several patterns could share.",
          "Drop or merge indexes the patterns can do without, keep changing attributes out of index keys, make "
          "indexes sparse (only the items a pattern reads) and project only what the patterns return.",
          _DOCS + "GSI.html"),
    # §4.1 (a GSI is a second copy written on every write)
    Check("DDS305", "Index keys repeat the table keys", WARNING,
          "An index that keys an entity by the same partition and sort key templates as the table (an LSI by the "
          "same sort key) orders and groups its items exactly as the table does: every Query it serves, the table "
          "serves already, while every write of the entity also writes the index.",
          "Query the table instead and remove the entity from the index (or the index), or give the index the key "
          "the pattern really needs (another attribute, another order).",
          _DOCS + "GSI.html"),
    # §8 (20 GSIs per table), §4.1
    Check("DDS306", "GSIs that could be one overloaded index", INFO,
          "GSIs that hold different entities with the same key shape (partition and sort key) and projection can be "
          "one overloaded GSI with generic key attribute names (GSI1PK, GSI1SK), each entity writing its own key "
          "values, as single-table designs do. Index writes stay the same, but the table keeps more of its 20 GSIs "
          "and has one index to provision, scale and watch instead of several.",
          "Give the entities one GSI with generic key attributes and entity-prefixed values (TYPE#{id}).",
          _DOCS + "bp-general-nosql-design.html"),
    # §4.1 (projection ALL: every attribute copied; storage per entry), §6 (storage)
    Check("DDS307", "GSI with ALL projection holds most of the table", WARNING,
          "A GSI with projection ALL stores a full copy of every item it holds. When it holds most of the table's "
          "items it doubles storage and write units for most of the table, often for a few patterns that read a "
          "handful of attributes.",
          "Project KEYS_ONLY or INCLUDE the attributes the patterns return, or make the index sparse so it holds "
          "only the items its patterns read.",
          _DOCS + "GSI.html"),
    # §6 (400 KB incl. names; 4 KB read / 1 KB write blocks), §4.2 (LSI entries count)
    # §1.2 (a failed conditional write still consumes write units), §2 (transactions)
    Check("DDS308", "Counter or balance updated without a condition (lost updates)", ERROR,
          "An update that SETs a counter or a balance to a value the application computed from an earlier read "
          "loses updates under concurrency: two clients read 10, both write 11, and one increment or payment "
          "disappears with no error. DynamoDB applies each write in full, but it cannot know the value was stale.",
          "Use ADD (atomic, no read first) for counters; for a balance that must not go negative, ADD a negative "
          "amount with the condition `balance >= :amount`; for other read-modify-write updates, add a "
          "version_matches condition (optimistic locking) and retry on ConditionalCheckFailedException.",
          _DOCS + "WorkingWithItems.html#WorkingWithItems.ConditionalUpdate"),
    # §4.1 (a GSI is a copy with its own keys; index keys need not be unique)
    Check("DDS309", "Unique attribute enforced only by a GSI", ERROR,
          "A global secondary index does not enforce uniqueness: any number of items may share an index key, and "
          "the index is updated asynchronously, so a check-then-write through it races. Reading one item by such "
          "a key can return two. Only a primary key is unique, so uniqueness of another attribute needs an item "
          "keyed by that value, written with attribute_not_exists in the same transaction.",
          "Mark the attribute `unique: true` (the design adds a uniqueness item such as EMAIL#{email}, put with "
          "attribute_not_exists in the same TransactWriteItems), and write such items with transactions, not "
          "BatchWriteItem.",
          _DOCS + "transaction-apis.html"),
    # §7.1 (1,000 WCU per partition per second; one hot item can get at most that)
    Check("DDS310", "Hot counter item", ERROR,
          "Every ADD to a counter writes the same item, and one item lives on one partition, which serves at most "
          "1,000 write units per second even with adaptive capacity isolating it. A like count on a viral post or "
          "a global total throttles past that rate.",
          "Shard the counter over N items (a random suffix per write) and sum the shards when reading: writes "
          "spread N ways, and every read of the count costs N item reads.",
          _DOCS + "bp-partition-key-sharding.html"),
    # TTL reads a top-level Number of epoch seconds (Time to Live docs)
    Check("DDS311", "TTL attribute that is not a Number of epoch seconds", ERROR,
          "DynamoDB's Time to Live deletes an item only when its TTL attribute is a top-level Number holding a Unix "
          "time in seconds that has passed. A String date, an ISO-8601 timestamp or epoch milliseconds are "
          "ignored silently: the items never expire and the storage keeps growing.",
          "Store the expiry as a Number of epoch seconds (e.g. 1767225600); convert milliseconds by dividing by "
          "1,000.",
          _DOCS + "time-to-live-ttl-before-you-start.html"),
    # single-item writes take the full primary key (WorkingWithItems); a Scan reads every item (§1.2)
    Check("DDS312", "Write cannot name the item it writes", ERROR,
          "PutItem, UpdateItem and DeleteItem, and every member of a TransactWriteItems, take the item's full "
          "primary key: every attribute the table's partition and sort key templates are built from. A write whose "
          "inputs lack one of them cannot be sent as modelled: the application must first read the key (a Query "
          "on an index keyed by the inputs, or a Scan of the whole table when there is none), so the write costs "
          "that read as well, and two items matching the inputs would both be candidates. A put sends the whole "
          "item it creates, so its key is always known: only updates and deletes (and such transaction members) "
          "can fail this check.",
          "Add the missing key attributes to the pattern's inputs (the application usually has them from the read "
          "that showed the item), or key the entity by what the inputs give.",
          _DOCS + "WorkingWithItems.html"),
    # §4.1 (an update that changes only projected attributes is 1 index write, sized on the entry), §0.2, §9.2
    Check("DDS313", "Counters and versions rewrite an ALL-projected GSI", WARNING,
          "An update that changes only a non-key attribute still rewrites the item's entry in every GSI that "
          "projects that attribute, and an ALL projection projects everything: each counter increment or version "
          "bump is one more index write, sized on the whole entry and rounded up to 1 KB, paid with the GSI's own "
          "write capacity. Frequent counters (views, likes, stock) and optimistic-locking versions make these "
          "writes a large, easily overlooked part of the bill.",
          "Project KEYS_ONLY, or INCLUDE only the attributes the index's patterns return, leaving the counter and "
          "the version out: their updates then skip the index. Or read the index's items through the uniqueness "
          "item (one GetItem by the unique value, then the item) instead of an ALL-projected GSI.",
          _DOCS + "GSI.html"),
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
          "BatchWriteItem takes at most 25 puts or deletes (no updates) and 16 MB per request, BatchGetItem at "
          "most 100 keys; larger requests are rejected. A BatchGetItem whose items add up to more than 16 MB "
          "returns the rest as UnprocessedKeys to request again.",
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


def finding(check_id: str, path: str, message: str, *, severity: FindingSeverity | None = None,
            fix: str | None = None, pattern: str | None = None, index: str | None = None) -> Finding:
    """A finding with its check's title, explanation and doc link; `fix` overrides the generic fix."""
    check = CHECKS[check_id]
    return Finding(check_id, severity or check.severity, check.title, message, check.explanation,
                   fix or check.fix, check.doc_url, path, pattern, index)


def percent(share: float) -> str:
    """78% / 2,666% / 99.9% / 0.25%: whole percent unless that would round to 0 or 100."""
    if 0.01 <= share <= 0.99 or share >= 1:
        return f"{share:,.0%}"
    return f"{share:.1%}" if share >= 0.001 else f"{share * 100:.2g}%"


def data_size(size_bytes: float) -> str:
    """Binary units as DynamoDB uses them (dynamodb-rules §0.2: 1 KB = 1,024 B)."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size_bytes >= scale:
            return f"{number(size_bytes / scale)} {unit}"
    return f"{size_bytes:,.0f} B"
