"""The model a user edits: entities, relationships, access patterns, table settings, key design.

Types are frozen pydantic models so that one definition gives parsing with every problem reported
at once, a JSON Schema for editors (`docs/model.schema.json`) and immutable values for the rest of
the product. Enum values are AWS's strings where AWS has one (`PAY_PER_REQUEST`, `KEYS_ONLY`).
Cross-references (an access pattern naming an entity, a template naming an attribute) are checked
in `modeling.validation`, which reports them with readable paths.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from modeling.key_templates import ATTRIBUTE_NAME_PATTERN
from modeling.limits import (
    MAX_ACCESS_PATTERNS,
    MAX_ATTRIBUTE_BYTES,
    MAX_ATTRIBUTES_PER_ENTITY,
    MAX_CARDINALITY,
    MAX_ENTITIES,
    MAX_ENUM_VALUES,
    MAX_ITEM_BYTES,
    MAX_ITEM_COUNT,
    MAX_ITEMS_PER_REQUEST,
    MAX_NUMBER_MAGNITUDE,
    MAX_RELATIONSHIPS,
    MAX_REQUESTS_PER_SECOND,
    MAX_TABLE_NAME_CHARS,
    MIN_TABLE_NAME_CHARS,
    TABLE_NAME_PATTERN,
)

FORMAT_NAME: Final = "dynamodb-design-studio/model"
FORMAT_VERSION: Final = 1
_T = TypeVar("_T")

Name = Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[A-Za-z_][A-Za-z0-9_.\-]*$")]
# Attribute names keep what DynamoDB allows (`State#Date`); the key grammar owns the rule (modeling/key_templates.py).
AttributeName = Annotated[str, Field(min_length=1, max_length=255, pattern=ATTRIBUTE_NAME_PATTERN)]
PatternName = Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[a-z][a-z0-9_]*$")]
# dynamodb-rules §8; table names per the CreateTable API: 3-255 of [a-zA-Z0-9_.-]
TableName = Annotated[str, Field(min_length=MIN_TABLE_NAME_CHARS, max_length=MAX_TABLE_NAME_CHARS,
                                  pattern=TABLE_NAME_PATTERN)]
RegionName = Annotated[str, Field(pattern=r"^[a-z]{2}(-gov)?-[a-z]+-\d$")]
Share = Annotated[float, Field(ge=0.0, le=1.0)]
Number = Annotated[int, Field(ge=-MAX_NUMBER_MAGNITUDE, le=MAX_NUMBER_MAGNITUDE)]
# ISO-8601 date or date-time, optionally with a zone: 2024-01-31, 2024-01-31T08:00:00Z
IsoTimestamp = Annotated[str, Field(
    pattern=r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


# --- enums ---------------------------------------------------------------------------------------


class AttributeType(StrEnum):
    """DynamoDB attribute types, spelled as in DynamoDB JSON."""

    S = "S"
    N = "N"
    B = "B"
    BOOL = "BOOL"
    NULL = "NULL"
    L = "L"
    M = "M"
    SS = "SS"
    NS = "NS"
    BS = "BS"


class KeyAttributeType(StrEnum):
    """Types a key attribute may have (CreateTable AttributeDefinitions)."""

    S = "S"
    N = "N"
    B = "B"


class BillingMode(StrEnum):
    PAY_PER_REQUEST = "PAY_PER_REQUEST"
    PROVISIONED = "PROVISIONED"


class TableClass(StrEnum):
    STANDARD = "STANDARD"
    STANDARD_INFREQUENT_ACCESS = "STANDARD_INFREQUENT_ACCESS"


class StreamViewType(StrEnum):
    KEYS_ONLY = "KEYS_ONLY"
    NEW_IMAGE = "NEW_IMAGE"
    OLD_IMAGE = "OLD_IMAGE"
    NEW_AND_OLD_IMAGES = "NEW_AND_OLD_IMAGES"


class ProjectionType(StrEnum):
    ALL = "ALL"
    KEYS_ONLY = "KEYS_ONLY"
    INCLUDE = "INCLUDE"


class RelationshipKind(StrEnum):
    ONE_TO_ONE = "one_to_one"
    ONE_TO_MANY = "one_to_many"
    MANY_TO_MANY = "many_to_many"


class PatternKind(StrEnum):
    """What an access pattern does; the key-design step maps each to a DynamoDB operation."""

    READ_ONE = "read_one"
    READ_MANY = "read_many"
    WRITE = "write"
    UPDATE = "update"
    DELETE = "delete"
    TRANSACT_WRITE = "transact_write"
    TRANSACT_READ = "transact_read"
    BATCH_READ = "batch_read"
    BATCH_WRITE = "batch_write"

    @property
    def is_read(self) -> bool:
        return self in _READ_KINDS


_READ_KINDS = frozenset({PatternKind.READ_ONE, PatternKind.READ_MANY, PatternKind.TRANSACT_READ,
                         PatternKind.BATCH_READ})


class Consistency(StrEnum):
    EVENTUAL = "eventual"
    STRONG = "strong"


class SortOrder(StrEnum):
    ASCENDING = "ascending"
    DESCENDING = "descending"


class RangeOperator(StrEnum):
    """Sort-key conditions a Query can express (KeyConditionExpression)."""

    EQUALS = "equals"
    BEGINS_WITH = "begins_with"
    BETWEEN = "between"
    LESS_THAN = "less_than"
    LESS_THAN_OR_EQUAL = "less_than_or_equal"
    GREATER_THAN = "greater_than"
    GREATER_THAN_OR_EQUAL = "greater_than_or_equal"


class TrafficShape(StrEnum):
    FLAT = "flat"
    BUSINESS_HOURS = "business_hours"
    EVENING_PEAK = "evening_peak"
    CUSTOM = "custom"


class FakerProvider(StrEnum):
    """Faker providers the sample-data generator may call (a fixed list, never a user string)."""

    PERSON_NAME = "name"
    FIRST_NAME = "first_name"
    LAST_NAME = "last_name"
    EMAIL = "email"
    USER_NAME = "user_name"
    PHONE_NUMBER = "phone_number"
    COMPANY = "company"
    JOB = "job"
    STREET_ADDRESS = "street_address"
    CITY = "city"
    COUNTRY = "country"
    COUNTRY_CODE = "country_code"
    POSTCODE = "postcode"
    URL = "url"
    IPV4 = "ipv4"
    WORD = "word"
    SENTENCE = "sentence"
    CATCH_PHRASE = "catch_phrase"
    PRODUCT_NAME = "ecommerce_name"
    COLOR_NAME = "color_name"


# --- distributions -------------------------------------------------------------------------------


class UniformDistribution(_Frozen):
    """Every value equally likely."""

    kind: Literal["uniform"]


class ZipfDistribution(_Frozen):
    """Rank-frequency skew: the k-th most popular value has weight 1/k^exponent."""

    kind: Literal["zipf"]
    exponent: Annotated[float, Field(gt=0.0, le=10.0)] = 1.1


class HotValueDistribution(_Frozen):
    """One value takes `share` of all occurrences; the rest are uniform."""

    kind: Literal["hot_value"]
    share: Share = 0.5


Distribution = Annotated[
    UniformDistribution | ZipfDistribution | HotValueDistribution, Field(discriminator="kind")
]


# --- sample-data generator specs -----------------------------------------------------------------


class UuidGenerator(_Frozen):
    kind: Literal["uuid"]
    prefix: str = ""


class SequenceGenerator(_Frozen):
    """1, 2, 3 ... optionally zero-padded to `width` digits."""

    kind: Literal["sequence"]
    start: Number = 1
    width: Annotated[int, Field(ge=0, le=38)] = 0
    prefix: str = ""

    def largest_value(self, item_count: int) -> int:
        """The last number of `item_count` items: `start`, `start + 1` ... (a key's padding must hold it).

        >>> SequenceGenerator(kind="sequence", start=9780000000000).largest_value(5000)
        9780000004999
        """
        return self.start + max(item_count, 1) - 1


class FakerGenerator(_Frozen):
    """A realistic value from Faker (names, emails, addresses ...)."""

    kind: Literal["faker"]
    provider: FakerProvider


class EnumGenerator(_Frozen):
    """One of `values`; `weights` (same length) or `distribution` decide how often."""

    kind: Literal["enum"]
    values: Annotated[tuple[str, ...], Field(min_length=1, max_length=MAX_ENUM_VALUES)]
    weights: Annotated[tuple[Annotated[float, Field(ge=0.0)], ...], Field(max_length=MAX_ENUM_VALUES)] | None = None
    distribution: Distribution = UniformDistribution(kind="uniform")

    @model_validator(mode="after")
    def _weights_match_values(self) -> EnumGenerator:
        if self.weights is not None:
            if len(self.weights) != len(self.values):
                raise ValueError(
                    f"weights has {len(self.weights)} entries but values has {len(self.values)}; "
                    "give one weight per value")
            if sum(self.weights) <= 0:
                raise ValueError("weights must not all be zero")
        return self


class IntRangeGenerator(_Frozen):
    kind: Literal["int_range"]
    min: Number
    max: Number
    distribution: Distribution = UniformDistribution(kind="uniform")

    @model_validator(mode="after")
    def _ordered(self) -> IntRangeGenerator:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max}); swap them")
        return self


class FloatRangeGenerator(_Frozen):
    kind: Literal["float_range"]
    min: float
    max: float
    decimals: Annotated[int, Field(ge=0, le=10)] = 2
    distribution: Distribution = UniformDistribution(kind="uniform")

    @model_validator(mode="after")
    def _ordered(self) -> FloatRangeGenerator:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max}); swap them")
        return self


class TimestampFormat(StrEnum):
    ISO_8601 = "iso8601"
    EPOCH_SECONDS = "epoch_seconds"
    EPOCH_MILLISECONDS = "epoch_milliseconds"
    DATE = "date"


class TimestampRangeGenerator(_Frozen):
    """A timestamp between `start` and `end` (ISO-8601, UTC); `recent_bias` skews towards `end`."""

    kind: Literal["timestamp_range"]
    start: IsoTimestamp
    end: IsoTimestamp
    format: TimestampFormat = TimestampFormat.ISO_8601
    recent_bias: Share = 0.0

    @model_validator(mode="after")
    def _ordered(self) -> TimestampRangeGenerator:
        if _comparable(self.start) > _comparable(self.end):
            raise ValueError(f"start ({self.start}) is after end ({self.end}); swap them")
        return self


def _comparable(timestamp: str) -> str:
    """Dates and datetimes in the same zone compare as strings once the separator is unified."""
    return timestamp.replace(" ", "T")


class TextGenerator(_Frozen):
    """Filler text of about `length_bytes` UTF-8 bytes."""

    kind: Literal["text"]
    length_bytes: Annotated[int, Field(ge=1, le=MAX_ITEM_BYTES)]


class BooleanGenerator(_Frozen):
    kind: Literal["boolean"]
    true_share: Share = 0.5


class ConstantGenerator(_Frozen):
    kind: Literal["constant"]
    value: str | int | float | bool


class ReferenceGenerator(_Frozen):
    """The value of `attribute` of an existing `entity` item (a foreign key)."""

    kind: Literal["reference"]
    entity: Name
    attribute: AttributeName
    distribution: Distribution = UniformDistribution(kind="uniform")


GeneratorSpec = Annotated[
    UuidGenerator | SequenceGenerator | FakerGenerator | EnumGenerator | IntRangeGenerator
    | FloatRangeGenerator | TimestampRangeGenerator | TextGenerator | BooleanGenerator
    | ConstantGenerator | ReferenceGenerator,
    Field(discriminator="kind"),
]

GENERATOR_KINDS: tuple[str, ...] = (
    "uuid", "sequence", "faker", "enum", "int_range", "float_range", "timestamp_range", "text",
    "boolean", "constant", "reference",
)

# --- write semantics (issue 16) ------------------------------------------------------------------
#
# All optional, so a version-1 file without them loads unchanged and means what it meant: plain puts,
# updates and deletes. `modeling.write_semantics` turns them into requests and extra items.


class ConditionKind(StrEnum):
    """What a write's ConditionExpression checks."""

    ATTRIBUTE_NOT_EXISTS = "attribute_not_exists"  # create only: the key is not taken
    ATTRIBUTE_EXISTS = "attribute_exists"  # change only an item that is there
    VERSION_MATCHES = "version_matches"  # optimistic locking: the version read is still current
    COMPARE = "compare"  # `attribute operator value`, e.g. currency >= :amount


class ComparisonOperator(StrEnum):
    """Comparators of a ConditionExpression, as DynamoDB writes them."""

    EQUALS = "="
    NOT_EQUALS = "<>"
    LESS_THAN = "<"
    LESS_THAN_OR_EQUAL = "<="
    GREATER_THAN = ">"
    GREATER_THAN_OR_EQUAL = ">="


ConstantValue = str | int | float | bool


class WriteCondition(_Frozen):
    """A write's condition: `attribute_not_exists`, `attribute_exists`, `{kind: version_matches, attribute:
    version}` or `{attribute: currency, operator: ">=", input: amount}` (the compare form needs no kind)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False,
                              json_schema_extra=lambda schema: _or_kind_name(schema))

    kind: ConditionKind = ConditionKind.COMPARE
    attribute: Name | None = Field(default=None, description="version_matches: the Number attribute the write "
                                   "checks and increments by 1; compare: the attribute compared.")
    operator: ComparisonOperator | None = None
    value: ConstantValue | None = Field(default=None, description="compare: a constant to compare with.")
    input: Name | None = Field(default=None, description="compare: the pattern input holding the value "
                               "(currency >= :amount).")

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: object) -> object:
        return {"kind": data} if isinstance(data, str) else data

    @model_validator(mode="after")
    def _fields_fit_kind(self) -> WriteCondition:
        if self.kind is ConditionKind.VERSION_MATCHES and self.attribute is None:
            raise ValueError("version_matches needs `attribute`: the Number attribute holding the version, "
                             "e.g. {kind: version_matches, attribute: version}")
        if self.kind is ConditionKind.COMPARE:
            if self.attribute is None or self.operator is None:
                raise ValueError("a compare condition needs `attribute` and `operator`, e.g. "
                                 "{attribute: currency, operator: '>=', input: amount}")
            if (self.value is None) == (self.input is None):
                raise ValueError("a compare condition needs exactly one of `value` (a constant) or `input` "
                                 "(a pattern input)")
        elif self.operator is not None or self.value is not None or self.input is not None:
            raise ValueError(f"operator, value and input belong to a compare condition, not {self.kind.value}; "
                             "remove them or drop `kind`")
        if self.kind in (ConditionKind.ATTRIBUTE_EXISTS, ConditionKind.ATTRIBUTE_NOT_EXISTS) and self.attribute:
            raise ValueError(f"{self.kind.value} checks the item's key, so it takes no `attribute`; remove it")
        return self


def _or_kind_name(schema: dict[str, Any]) -> None:
    """The schema accepts the shorthand `condition: attribute_not_exists` that `_shorthand` reads."""
    whole = dict(schema)
    schema.clear()
    schema["anyOf"] = [whole, {"type": "string", "enum": [ConditionKind.ATTRIBUTE_NOT_EXISTS.value,
                                                          ConditionKind.ATTRIBUTE_EXISTS.value]}]


class UpdateAction(StrEnum):
    """How an update changes one attribute (UpdateExpression clauses and `if_not_exists`)."""

    SET = "SET"
    ADD = "ADD"  # atomic: add a number (or set members) without reading the item first
    REMOVE = "REMOVE"
    IF_NOT_EXISTS = "if_not_exists"  # SET a = if_not_exists(a, :v): set only when absent


class AttributeUpdate(_Frozen):
    """One attribute an update changes, and how: `{attribute: xp, action: ADD, input: points}`,
    `{attribute: status, value: on_loan}` (SET to a constant)."""

    attribute: Name
    action: UpdateAction = UpdateAction.SET
    amount: Number | None = Field(default=None, description="ADD: a constant number to add (negative "
                                  "subtracts); default 1 when no input gives it.")
    input: Name | None = Field(default=None, description="The pattern input that holds the new value (SET, "
                               "if_not_exists) or the number to add (ADD).")
    value: ConstantValue | None = Field(default=None, description="SET, if_not_exists: a constant new value "
                                        "(status: on_loan).")
    negate: bool = Field(default=False, description="ADD: subtract the input's value (a transfer's sender).")

    @model_validator(mode="after")
    def _fields_fit_action(self) -> AttributeUpdate:
        if self.action is UpdateAction.REMOVE and (self.amount is not None or self.input is not None
                                                   or self.value is not None):
            raise ValueError("REMOVE takes no value; remove `amount`, `input` and `value`")
        if self.action is not UpdateAction.ADD and (self.amount is not None or self.negate):
            raise ValueError(f"`amount` and `negate` belong to ADD, not {self.action.value}")
        if self.action is UpdateAction.ADD and self.value is not None:
            raise ValueError("ADD takes a constant `amount`, not `value`")
        if self.amount is not None and self.input is not None:
            raise ValueError("give ADD either a constant `amount` or an `input`, not both")
        if self.value is not None and self.input is not None:
            raise ValueError("give either a constant `value` or an `input`, not both")
        return self


class SoftDelete(_Frozen):
    """A delete that keeps the item: SET status and deletedAt (and the table's TTL attribute
    `expires_after_days` later), optionally with a copy put as an archive entity."""

    status_attribute: Name = "status"
    status_value: str = "DELETED"
    deleted_at_attribute: Name = "deletedAt"
    expires_after_days: Annotated[int, Field(ge=1, le=36_500)] | None = Field(
        default=None, description="Set the table's ttl_attribute to deletion time + this many days (epoch "
                                  "seconds); DynamoDB deletes the item some time after that.")
    archive_entity: Name | None = Field(default=None, description="An entity whose item (a copy of the deleted "
                                        "one) is put in the same transaction.")


class TransactAction(StrEnum):
    """TransactWriteItems member actions, spelled as AWS spells them."""

    PUT = "Put"
    UPDATE = "Update"
    DELETE = "Delete"
    CONDITION_CHECK = "ConditionCheck"


class TransactionMember(_Frozen):
    """One member of a transact_write pattern: which entity, what it does, under which condition. A Put
    member's `updates` (SET a `value` or `input`, REMOVE) say what the new item holds."""

    entity: Name
    action: TransactAction
    key_inputs: dict[Name, Name] = Field(default_factory=dict, description="Entity attribute -> the pattern "
                                         "input holding its value, where the names differ (studentId: "
                                         "fromStudentId).")
    condition: WriteCondition | None = None
    updates: tuple[AttributeUpdate, ...] = ()


class AuxiliaryKind(StrEnum):
    AGGREGATE = "aggregate"  # a count (or sum) item per parent, e.g. a post's like count
    EDGE_COPY = "edge_copy"  # the edge again under the other end's key (adjacency list)
    UNIQUENESS = "uniqueness"  # an item whose key is the unique value: EMAIL#{email}


class AuxiliaryItem(_Frozen):
    """An extra item every write of the entity keeps in step, in the same transaction (or batch)."""

    name: Name
    kind: AuxiliaryKind
    relationship: Name | None = Field(default=None, description="aggregate: the relationship (this entity the "
                                      "child) whose parent holds the count.")
    counter_attribute: Name = Field(default="count", description="aggregate: the Number attribute the "
                                    "aggregate item holds.")
    sum_of: Name | None = Field(default=None, description="aggregate: add this attribute's value instead of 1.")
    attributes: tuple[Name, ...] = Field(default=(), description="uniqueness: the attributes whose value "
                                         "(together) is unique.")
    partition_key: str | None = Field(default=None, description="The item's partition-key template; the "
                                      "design derives one when absent (edge_copy must give it).")
    sort_key: str | None = None

    @model_validator(mode="after")
    def _fields_fit_kind(self) -> AuxiliaryItem:
        if self.kind is AuxiliaryKind.AGGREGATE and self.relationship is None:
            raise ValueError("an aggregate item needs `relationship`: the one whose parent holds the count")
        if self.kind is AuxiliaryKind.UNIQUENESS and not self.attributes:
            raise ValueError("a uniqueness item needs `attributes`: the attributes whose value is unique")
        if self.kind is AuxiliaryKind.EDGE_COPY and self.partition_key is None:
            raise ValueError("an edge_copy needs `partition_key` (and `sort_key`): the templates of the copy "
                             "under the other end's key, e.g. USER#{followedId} / FOLLOWER#{followerId}")
        return self


# --- entities and relationships ------------------------------------------------------------------


class Attribute(_Frozen):
    name: AttributeName
    type: AttributeType = AttributeType.S
    required: bool = True
    unique: bool = False
    avg_size_bytes: Annotated[int, Field(ge=0, le=MAX_ATTRIBUTE_BYTES)] | None = None
    max_size_bytes: Annotated[int, Field(ge=0, le=MAX_ATTRIBUTE_BYTES)] | None = None
    generator: GeneratorSpec | None = None
    description: str = ""

    @model_validator(mode="after")
    def _sizes_ordered(self) -> Attribute:
        if (self.avg_size_bytes is not None and self.max_size_bytes is not None
                and self.avg_size_bytes > self.max_size_bytes):
            raise ValueError(
                f"avg_size_bytes ({self.avg_size_bytes}) is larger than max_size_bytes "
                f"({self.max_size_bytes}); the average cannot exceed the maximum")
        return self


class Entity(_Frozen):
    name: Name
    description: str = ""
    item_count: Annotated[int, Field(ge=0, le=MAX_ITEM_COUNT)]
    monthly_growth_percent: Annotated[float, Field(ge=-100.0, le=1000.0)] = 0.0
    identifiers: tuple[AttributeName, ...] = ()
    attributes: Annotated[tuple[Attribute, ...], Field(max_length=MAX_ATTRIBUTES_PER_ENTITY)] = ()
    auxiliary_items: tuple[AuxiliaryItem, ...] = Field(
        default=(), description="Extra items its writes keep in step: aggregates, edge copies, uniqueness items. "
                                "A `unique: true` attribute that is not the identity gets a uniqueness item "
                                "without being listed here.")

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)

    @property
    def identity(self) -> tuple[str, ...]:
        """What makes an item unique: its identifiers, else its one `unique` attribute, else nothing.

        Never a guess: an entity without either gets a validation error when a pattern uses it.
        """
        if self.identifiers:
            return self.identifiers
        unique = [a.name for a in self.attributes if a.unique]
        return (unique[0],) if len(unique) == 1 else ()


class Cardinality(_Frozen):
    """How many children one parent has (or partners, for many-to-many)."""

    mean: Annotated[float, Field(ge=0.0, le=MAX_CARDINALITY)]
    max: Annotated[int, Field(ge=0, le=MAX_CARDINALITY)] | None = None
    distribution: Distribution = UniformDistribution(kind="uniform")

    @model_validator(mode="after")
    def _max_covers_mean(self) -> Cardinality:
        if self.max is not None and self.max < self.mean:
            raise ValueError(f"max ({self.max}) is below mean ({self.mean})")
        return self


class Relationship(_Frozen):
    name: Name
    kind: RelationshipKind
    parent: Name
    child: Name
    child_attributes: tuple[AttributeName, ...] = Field(
        default=(), description="Attributes of the child that hold the parent's identifiers.")
    cardinality: Cardinality = Cardinality(mean=1.0)


# --- access patterns -----------------------------------------------------------------------------


class RangeCondition(_Frozen):
    attribute: AttributeName
    operator: RangeOperator


class AttributeFilter(_Frozen):
    """'Only items where attribute = value', e.g. status = UNPAID (a sparse-index candidate)."""

    attribute: AttributeName
    equals: str | int | float | bool


class Traffic(_Frozen):
    peak_requests_per_second: Annotated[float, Field(ge=0.0, le=MAX_REQUESTS_PER_SECOND)]
    average_requests_per_second: Annotated[float, Field(ge=0.0, le=MAX_REQUESTS_PER_SECOND)]

    @model_validator(mode="after")
    def _average_below_peak(self) -> Traffic:
        if self.average_requests_per_second > self.peak_requests_per_second:
            raise ValueError(
                f"average_requests_per_second ({self.average_requests_per_second:g}) is above "
                f"peak_requests_per_second ({self.peak_requests_per_second:g}); the peak is the "
                "highest rate, so raise it or lower the average")
        return self


class AccessPattern(_Frozen):
    name: PatternName
    description: str = ""
    kind: PatternKind
    entities: Annotated[tuple[Name, ...], Field(min_length=1)]
    inputs: tuple[AttributeName, ...] = ()
    range_condition: RangeCondition | None = None
    sort_order: SortOrder = SortOrder.ASCENDING
    filters: tuple[AttributeFilter, ...] = ()
    page_size: Annotated[int, Field(ge=1, le=10_000)] | None = None
    consistency: Consistency = Consistency.EVENTUAL
    expected_items: Annotated[float, Field(ge=0.0, le=MAX_ITEMS_PER_REQUEST)] = 1.0
    changed_attributes: tuple[AttributeName, ...] = Field(
        default=(), description="For updates: the attributes that change (decides index writes).")
    returns: tuple[AttributeName, ...] = Field(
        default=(), description="Attributes the application uses from each item; empty means the whole "
                                "item. Decides index projections.")
    traffic: Traffic
    condition: WriteCondition | None = Field(default=None, description="Writes: the ConditionExpression.")
    updates: tuple[AttributeUpdate, ...] = Field(default=(), description="Updates: how each attribute changes "
                                                 "(SET, ADD, REMOVE, if_not_exists).")
    soft_delete: SoftDelete | None = Field(default=None, description="Deletes: keep the item, mark it deleted.")
    members: tuple[TransactionMember, ...] = Field(default=(), description="transact_write: each member's "
                                                   "entity, action, key inputs, condition and updates.")

    @property
    def value_inputs(self) -> tuple[str, ...]:
        """Inputs that carry a value for a condition or an update (`amount`), not an item's attribute. A Put
        member's `SET memberId = :memberId` is the new item's attribute under its own name, as any input named
        like an attribute is: it is the same value the other members' keys take, not a value of its own."""
        conditions = [self.condition, *(m.condition for m in self.members)]
        updates = [*self.updates, *(u for m in self.members for u in m.updates
                                    if not (m.action is TransactAction.PUT and u.input == u.attribute))]
        names = [c.input for c in conditions if c is not None and c.input] + [u.input for u in updates if u.input]
        return tuple(dict.fromkeys(n for n in names if n in self.inputs))

    @property
    def changed(self) -> tuple[str, ...]:
        """Every attribute the write changes on existing items: changed_attributes, the updates (not a Put
        member's, which say what its new item holds), a version it increments and what a soft delete sets
        (decides index writes and key-change checks)."""
        names = [*self.changed_attributes, *(u.attribute for u in self.updates)]
        for member in self.members:
            if member.action is not TransactAction.PUT:  # a Put's updates are its new item, no existing one's change
                names += [u.attribute for u in member.updates]
            if member.condition is not None and member.condition.kind is ConditionKind.VERSION_MATCHES:
                names.append(member.condition.attribute or "")
        if self.condition is not None and self.condition.kind is ConditionKind.VERSION_MATCHES:
            names.append(self.condition.attribute or "")
        if self.soft_delete is not None:
            names += [self.soft_delete.status_attribute, self.soft_delete.deleted_at_attribute]
        return tuple(dict.fromkeys(n for n in names if n))


# --- table settings and traffic shape ------------------------------------------------------------


class TrafficProfile(_Frozen):
    """How traffic spreads over a day (UTC hours). Peak rates apply at the heaviest hour."""

    shape: TrafficShape = TrafficShape.FLAT
    hourly_weights: Annotated[tuple[Annotated[float, Field(ge=0.0)], ...], Field(
        min_length=24, max_length=24)] | None = None

    @model_validator(mode="after")
    def _custom_needs_weights(self) -> TrafficProfile:
        if self.shape is TrafficShape.CUSTOM and self.hourly_weights is None:
            raise ValueError("a custom traffic profile needs 24 hourly_weights (hour 0 to 23, UTC)")
        if self.shape is not TrafficShape.CUSTOM and self.hourly_weights is not None:
            raise ValueError(f"hourly_weights are only used with shape 'custom', not '{self.shape}'")
        if self.hourly_weights is not None and sum(self.hourly_weights) <= 0:
            raise ValueError("hourly_weights must not all be zero")
        return self


class TableSettings(_Frozen):
    name: TableName
    region: RegionName = "us-east-1"
    billing_mode: BillingMode = BillingMode.PAY_PER_REQUEST
    table_class: TableClass = TableClass.STANDARD
    point_in_time_recovery: bool = False
    stream_view_type: StreamViewType | None = None
    ttl_attribute: AttributeName | None = None
    replica_regions: tuple[RegionName, ...] = ()
    deletion_protection: bool = False


# --- optional explicit key design ----------------------------------------------------------------


class KeyAttribute(_Frozen):
    name: AttributeName
    type: KeyAttributeType = KeyAttributeType.S


class Projection(_Frozen):
    type: ProjectionType = ProjectionType.ALL
    non_key_attributes: tuple[AttributeName, ...] = ()

    @model_validator(mode="after")
    def _include_lists_attributes(self) -> Projection:
        if self.type is ProjectionType.INCLUDE and not self.non_key_attributes:
            raise ValueError("an INCLUDE projection needs non_key_attributes")
        if self.type is not ProjectionType.INCLUDE and self.non_key_attributes:
            raise ValueError(f"non_key_attributes are only allowed with INCLUDE, not {self.type}")
        return self


class SecondaryIndex(_Frozen):
    name: Annotated[str, Field(min_length=MIN_TABLE_NAME_CHARS, max_length=MAX_TABLE_NAME_CHARS,
                               pattern=TABLE_NAME_PATTERN)]
    partition_key: KeyAttribute
    sort_key: KeyAttribute | None = None
    projection: Projection = Projection()


class KeyTemplates(_Frozen):
    """Templates such as `CUSTOMER#{customerId}`: constants and `{attribute}` references."""

    partition_key: Annotated[str, Field(min_length=1)]
    sort_key: str | None = None
    only_when: tuple[AttributeFilter, ...] = Field(
        default=(), description="The item has these index keys only when every condition holds "
                                "(a sparse index). Only for index templates.")

    def memo_key(self) -> tuple[object, ...]:
        """The templates as plain values, for memo keys: a condition's value keeps its type (True, 1 and 1.0
        are equal in Python, and `status = True` is not `status = 1` in DynamoDB)."""
        return (self.partition_key, self.sort_key,
                tuple((c.attribute, type(c.equals).__name__, c.equals) for c in self.only_when))


class EntityKeys(_Frozen):
    entity: Name
    table: KeyTemplates
    indexes: dict[str, KeyTemplates] = Field(
        default_factory=dict,
        description="Index name -> templates for that index's key attributes. "
                    "An entity absent from an index does not appear in it (sparse index).")
    auxiliary: dict[str, KeyTemplates] = Field(
        default_factory=dict,
        description="Auxiliary item name -> its table key templates (EMAIL#{email}); derived when absent.")


class KeyDesign(_Frozen):
    partition_key: KeyAttribute = KeyAttribute(name="PK")
    sort_key: KeyAttribute | None = KeyAttribute(name="SK")
    global_secondary_indexes: tuple[SecondaryIndex, ...] = ()
    local_secondary_indexes: tuple[SecondaryIndex, ...] = ()
    entities: tuple[EntityKeys, ...] = ()


# --- the model -----------------------------------------------------------------------------------


class Model(_Frozen):
    """A DynamoDB design: what is stored, how it is read and written, and how much."""

    format: Literal["dynamodb-design-studio/model"] = FORMAT_NAME
    version: Literal[1] = FORMAT_VERSION
    name: Annotated[str, Field(min_length=1, max_length=200)]
    description: str = ""
    table: TableSettings
    traffic_profile: TrafficProfile = TrafficProfile()
    entities: Annotated[tuple[Entity, ...], Field(max_length=MAX_ENTITIES)] = ()
    relationships: Annotated[tuple[Relationship, ...], Field(max_length=MAX_RELATIONSHIPS)] = ()
    access_patterns: Annotated[tuple[AccessPattern, ...], Field(max_length=MAX_ACCESS_PATTERNS)] = ()
    key_design: KeyDesign | None = None

    def entity(self, name: str) -> Entity | None:
        return _by_name(self, "entities", self.entities).get(name)

    def access_pattern(self, name: str) -> AccessPattern | None:
        return _by_name(self, "access_patterns", self.access_patterns).get(name)

    def relationship(self, name: str) -> Relationship | None:
        return _by_name(self, "relationships", self.relationships).get(name)


_Named = TypeVar("_Named", Entity, AccessPattern, Relationship)


def _by_name(model: Model, field: str, values: tuple[_Named, ...]) -> dict[str, _Named]:
    """Name -> first value of a tuple field, built once per model (the first of a duplicated name wins, as a scan
    would; validation reports the duplicate). Lookups are made for every pattern, attribute and relationship, and
    a scan of the tuple each time made validation and the checks quadratic in the entities.

    Kept in the instance's __dict__ with the tuple it indexes: `model_copy(update=...)` copies the __dict__, so a
    cache whose tuple is not the model's own is stale and rebuilt.
    """
    cached = model.__dict__.get(f"_by_name_{field}")
    if cached is not None and cached[0] is values:
        found: dict[str, _Named] = cached[1]  # built below from this very tuple
        return found
    index: dict[str, _Named] = {}
    for value in values:
        index.setdefault(value.name, value)
    model.__dict__[f"_by_name_{field}"] = (values, index)
    return index


def derived_index(model: Model, key: str, fields: tuple[str, ...], build: Callable[[Model], _T]) -> _T:
    """A value built from some fields of a model (an index by name, a total), built once per model.

    The checks, the planner and the generator ask the same question for every pattern or entity; answering it
    by scanning the model each time made them quadratic in the entities. Kept like `_by_name`'s indexes: in the
    instance's __dict__ with the field values it was built from, rebuilt when `model_copy` changed any of them.
    """
    parts = tuple(getattr(model, f) for f in fields)
    cached = model.__dict__.get(f"_derived_{key}")
    if cached is None or any(a is not b for a, b in zip(cached[0], parts, strict=True)):
        cached = (parts, build(model))
        model.__dict__[f"_derived_{key}"] = cached
    return cached[1]


def child_relationships(model: Model, child: str) -> tuple[Relationship, ...]:
    """The relationships whose child is `child`, in model order (an index built once per model)."""
    def build(m: Model) -> dict[str, tuple[Relationship, ...]]:
        found: dict[str, list[Relationship]] = {}
        for relationship in m.relationships:
            found.setdefault(relationship.child, []).append(relationship)
        return {name: tuple(found_) for name, found_ in found.items()}
    return derived_index(model, "child_relationships", ("relationships",), build).get(child, ())


def patterns_on(model: Model, entity: str) -> tuple[AccessPattern, ...]:
    """The access patterns whose entities include `entity`, in model order (an index built once per model)."""
    def build(m: Model) -> dict[str, tuple[AccessPattern, ...]]:
        found: dict[str, list[AccessPattern]] = {}
        for pattern in m.access_patterns:
            for name in dict.fromkeys(pattern.entities):
                found.setdefault(name, []).append(pattern)
        return {name: tuple(found_) for name, found_ in found.items()}
    return derived_index(model, "patterns_on", ("access_patterns",), build).get(entity, ())


def parents_first(entities: tuple[Entity, ...], parents_of: Callable[[Entity], list[str]]) -> list[Entity]:
    """Entities in model order, except that every entity comes after the ones it depends on.

    `parents_of` names the entities one depends on (relationship parents, referenced entities);
    cycles are broken where they close, so every entity appears exactly once.
    """
    by_name = {e.name: e for e in entities}
    ordered: list[Entity] = []
    placed: set[int] = set()  # ids of the entities in `ordered`: a list membership test made this quadratic

    def visit(entity: Entity, path: tuple[str, ...]) -> None:
        if id(entity) in placed or entity.name in path:
            return
        for name in parents_of(entity):
            if name in by_name and name != entity.name:
                visit(by_name[name], (*path, entity.name))
        ordered.append(entity)
        placed.add(id(entity))

    for entity in entities:
        visit(entity, ())
    return ordered
