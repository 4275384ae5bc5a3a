"""The preview's items: seeded sample data with every table and index key rendered from the design.

The preview set is small on purpose (moto's Query reads the whole table, docs/stack-notes.md §2): a total
is shared between entities in proportion to their item counts, with a floor so that every entity
and relationship shows up. Items whose primary key collides with an earlier item's are dropped and
counted, since DynamoDB would keep only one of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from modeling.data.sample_data import Item, generate_items, item_keys
from modeling.design.keys import KeyTemplateError
from modeling.errors import ModelingError
from modeling.interop.iac_request import key_attributes
from modeling.model import KeyAttributeType, KeyDesign, Model

DEFAULT_PREVIEW_ITEMS = 1_000
MAX_PREVIEW_ITEMS = 5_000  # moto's Query cost grows with table size (docs/stack-notes.md §2)
MIN_ITEMS_PER_ENTITY = 10
SPARE_ITEMS = 25  # per entity, not loaded: new items for write patterns (a BatchWriteItem holds 25)

_SERIALIZER = TypeSerializer()
_DESERIALIZER = TypeDeserializer()


class PreviewDataError(ModelingError):
    """The preview data cannot be generated (e.g. a key template refers to a missing attribute)."""


@dataclass(frozen=True)
class StoredItem:
    """One item as stored: its entity, its generated attributes and its key attributes."""

    entity: str
    attributes: Item  # the entity's attributes as generated (Decimal numbers)
    keys: dict[str, Any]  # table and index key attributes, rendered from the design's templates

    @property
    def full_item(self) -> Item:
        return {**self.attributes, **self.keys}


@dataclass(frozen=True)
class PreviewData:
    model_name: str
    seed: int
    items: tuple[StoredItem, ...]
    dropped_duplicates: int  # items whose primary key an earlier item already had
    requested_counts: tuple[tuple[str, int], ...] = ()  # the items per entity asked of the generator
    spares: tuple[StoredItem, ...] = ()  # further items, not loaded: what write patterns put
    # uniqueness items of the loaded items that reads go through (modeling.preview.through_reads), loaded with them
    auxiliary: tuple[Item, ...] = ()

    def spares_of(self, entity: str) -> list[StoredItem]:
        return [item for item in self.spares if item.entity == entity]

    def of(self, entity: str) -> list[StoredItem]:
        return [item for item in self.items if item.entity == entity]

    @property
    def counts(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for item in self.items:
            result[item.entity] = result.get(item.entity, 0) + 1
        return result


def preview_counts(model: Model, total_items: int = DEFAULT_PREVIEW_ITEMS) -> dict[str, int]:
    """Items per entity for a preview of about `total_items`, in proportion to the model's counts."""
    if not 1 <= total_items <= MAX_PREVIEW_ITEMS:
        raise PreviewDataError(f"a preview holds 1 to {MAX_PREVIEW_ITEMS:,} items, not {total_items:,}; "
                               "larger sets make every Query on the embedded endpoint slow")
    entities = [e for e in model.entities]
    if not entities:
        return {}
    # sqrt compresses the ratios (36 M order lines vs 50 k products) so small entities still appear
    weights = [math.sqrt(max(e.item_count, 1)) for e in entities]
    floor = min(MIN_ITEMS_PER_ENTITY, max(1, total_items // len(entities)))
    spare = max(total_items - floor * len(entities), 0)
    return {e.name: floor + int(spare * w / sum(weights)) for e, w in zip(entities, weights, strict=True)}


def build_preview_data(model: Model, key_design: KeyDesign, counts: dict[str, int], seed: int) -> PreviewData:
    """The items to load and, generated in the same pass, spare items of each entity for write patterns.

    The generator draws every column as one seeded stream, so asking for SPARE_ITEMS more items per
    entity leaves the first ones unchanged: the spares are simply the next items the model would have.
    """
    generated = generate_items(model, {name: count + SPARE_ITEMS for name, count in counts.items()}, seed,
                               key_design)
    stored: list[StoredItem] = []
    spares: list[StoredItem] = []
    seen: set[tuple[str, ...]] = set()
    dropped = 0
    key_names = primary_key_names(key_design)
    for entity in model.entities:
        for position, attributes in enumerate(generated[entity.name]):
            try:
                keys = item_keys(key_design, entity.name, attributes)
            except KeyTemplateError as exc:
                raise PreviewDataError(f"cannot render the keys of a {entity.name} item: {exc}") from None
            keys = _typed(key_design, keys)
            if not all(name in keys for name in key_names):
                continue  # an entity without table keys in the design is not stored
            identity = tuple(keys[name] for name in key_names)
            is_spare = position >= counts.get(entity.name, 0)
            if identity in seen:
                dropped += 0 if is_spare else 1
                continue
            seen.add(identity)
            (spares if is_spare else stored).append(StoredItem(entity.name, attributes, keys))
    return PreviewData(model.name, seed, tuple(stored), dropped, tuple(counts.items()), tuple(spares))


def _typed(key_design: KeyDesign, keys: dict[str, str]) -> dict[str, Any]:
    """Number key attributes (type N) as Decimals; the templates render text."""
    numeric = number_key_names(key_design)
    return {name: key_value(name, value, numeric) for name, value in keys.items()}


def number_key_names(key_design: KeyDesign) -> frozenset[str]:
    """The key attributes of the table and its indexes that are Numbers (type N)."""
    return frozenset(a.name for a in key_attributes(key_design) if a.type is KeyAttributeType.N)


def key_value(name: str, text: str, number_keys: frozenset[str]) -> Any:
    """A rendered key value as the key attribute holds it: a Decimal for a Number key, else the text.

    Items and requests alike: a Number key compared with a string is refused (moto answers 500).
    """
    if name not in number_keys:
        return text
    try:
        return Decimal(text)
    except InvalidOperation:
        raise PreviewDataError(f"the key attribute {name} is a Number, but its template renders text ({text!r}); "
                               "make its template a single numeric attribute or change its type to S") from None


def primary_key_names(key_design: KeyDesign) -> tuple[str, ...]:
    names = [key_design.partition_key.name]
    if key_design.sort_key is not None:
        names.append(key_design.sort_key.name)
    return tuple(names)


def to_dynamodb_json(item: Item) -> dict[str, Any]:
    """An item in DynamoDB JSON (`{"S": ...}`), through boto3's serializer rather than by hand."""
    return {name: _SERIALIZER.serialize(value) for name, value in item.items()}


def from_dynamodb_json(item: dict[str, Any]) -> Item:
    return {name: _DESERIALIZER.deserialize(value) for name, value in item.items()}


def json_value(value: Any) -> Any:
    """`json.dumps(default=...)` for item values: numbers as JSON numbers, sets as sorted lists."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    if isinstance(value, bytes):
        return value.decode("latin-1")
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
