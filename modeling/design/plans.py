"""What a key design does for each access pattern: the plan types shared by the generator, the checks,
the Layout page and the cost engine.

A `Design` is a `KeyDesign` (the key attributes, indexes and per-entity templates of `modeling.model`)
plus one `PatternPlan` per access pattern: the DynamoDB operation, the index it uses, its key
condition, how many items it reads, which indexes a write touches, and one sentence on why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The operations and index changes are DynamoDB's vocabulary, kept with its rules in the core; imported from here too.
from modeling.dynamodb_rules import IndexChange as IndexChange
from modeling.dynamodb_rules import Operation as Operation
from modeling.model import KeyDesign
from modeling.write_semantics import UnaddressedItem, WritePlan

_FILTERED_ATTRIBUTE = re.compile(r"(\S+) = :")  # one comparison of the planner's FilterExpression

TABLE = "table"  # the access path name of the base table


@dataclass(frozen=True)
class IndexWrite:
    """Writes one request causes in one secondary index, per affected item."""

    index: str
    kind: IndexChange
    share_of_items: float = 1.0  # below 1 for sparse indexes: the share of items that are in the index
    reason: str = ""

    @property
    def writes_per_item(self) -> float:
        return self.kind.writes * self.share_of_items


@dataclass(frozen=True)
class ReadThrough:
    """A read by a unique attribute served through the entity's uniqueness item (issue 28.3).

    Every write of the entity already puts the uniqueness item (`partition_key` / `sort_key`, e.g.
    `CUSTOMEREMAIL#{email}`) in the same transaction, and the item carries the owner's identifiers
    (`carries`): one GetItem on it gives the owner's key, a second GetItem returns the owner's item.
    """

    item: str  # the auxiliary item's name (unique_email)
    partition_key: str
    sort_key: str | None
    carries: tuple[str, ...]  # the owner's identifiers the uniqueness item holds
    item_bytes: int  # the uniqueness item's estimated size


@dataclass(frozen=True)
class PatternPlan:
    """How one access pattern runs against a design."""

    pattern: str
    operation: Operation
    index: str  # TABLE or an index name
    entities: tuple[str, ...]
    key_condition: str  # KeyConditionExpression with placeholders, "" for GetItem/Scan/writes by key
    filter_expression: str
    scan_index_forward: bool
    consistent_read: bool
    items_read_per_request: float
    items_returned_per_request: float
    items_written_per_request: float
    index_writes: tuple[IndexWrite, ...]
    reason: str
    served: bool = True  # False when only a Scan (or nothing) can serve it
    items_read_p99: float = 0.0  # 99th percentile over requests (hot parents read more)
    pages_per_request: float = 1.0  # Query/Scan pages (Limit, 1 MB) per request, on average
    items_read_derivation: str = ""  # how the items read were worked out, assumptions named
    filter_keeps_share: float = 1.0  # share of the items read that the FilterExpression returns
    entity_shares: tuple[tuple[str, float], ...] = ()  # share of the items read of each entity (Query)
    write: WritePlan | None = None  # the members, expressions and extra items of a write (issue 16)
    # A write's items whose full primary key its inputs cannot build (DDS312), and for each the read the
    # application must make first to find that key (a Scan when no key or index fits), priced with the write;
    # None for a put, whose item does not exist yet: its missing key values must come with the request.
    unaddressed: tuple[UnaddressedItem, ...] = ()
    locate: tuple[PatternPlan | None, ...] = ()
    # A read by a unique attribute: first a GetItem on the uniqueness item, which carries the owner's key, then
    # the GetItem this plan describes (modeling.design.uniqueness_reads); None for every other plan.
    through: ReadThrough | None = None
    # A read on a GSI that does not project what the pattern returns (KEYS_ONLY, or INCLUDE of fewer
    # attributes): the application then fetches the base items by the table keys the index entries carry, with
    # this operation (GetItem for one item, BatchGetItem for more), eventually consistent, charged to the table
    # (dynamodb-rules §4.1: a GSI query cannot fetch; §1.2: each fetched item rounded up to 4 KB on its own).
    # None when the index returns everything the pattern uses.
    fetch: Operation | None = None

    @property
    def filter_attributes(self) -> tuple[str, ...]:
        """Attributes the FilterExpression compares, in its order (the planner writes `name = :name AND ...`)."""
        return tuple(_FILTERED_ATTRIBUTE.findall(self.filter_expression))

    @property
    def discarded_share(self) -> float:
        """Share of the items read (and paid for) that a filter throws away."""
        return 1.0 - self.filter_keeps_share if self.filter_expression else 0.0

    @property
    def read_index(self) -> str:
        """Where the plan's reads are charged: its index, or for a write that must first find its key, the path
        of that read (the table when its items are found on different paths, an approximation)."""
        paths = {read.index for read in self.locate if read is not None}
        return paths.pop() if len(paths) == 1 else self.index

    @property
    def items_fetched_per_request(self) -> float:
        """Base items the follow-up GetItem/BatchGetItem reads per request: the ones the index query returns."""
        return self.items_returned_per_request if self.fetch is not None else 0.0

    @property
    def index_writes_per_request(self) -> float:
        return sum(w.writes_per_item for w in self.index_writes) * self.items_written_per_request


@dataclass(frozen=True)
class IndexChoice:
    """Why an index exists (one sentence) and which patterns use it."""

    index: str
    reason: str
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class Design:
    """A candidate key design with its per-pattern plans and the reasons behind it."""

    name: str
    summary: str
    key_design: KeyDesign
    plans: tuple[PatternPlan, ...]
    entity_reasons: tuple[tuple[str, str], ...]  # (entity, why its table keys are what they are)
    index_reasons: tuple[IndexChoice, ...]

    def plan(self, pattern: str) -> PatternPlan | None:
        return next((p for p in self.plans if p.pattern == pattern), None)

    @property
    def index_count(self) -> int:
        return len(self.key_design.global_secondary_indexes) + len(self.key_design.local_secondary_indexes)

    @property
    def scan_patterns(self) -> tuple[str, ...]:
        return tuple(p.pattern for p in self.plans if p.operation is Operation.SCAN)
