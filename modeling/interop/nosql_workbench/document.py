"""NoSQL Workbench model files (versions 1.0, 2.0, 3.0) read into frozen values and written as 3.0.

The reader is lossless for what a Workbench file means (tables, key and non-key attributes, GSIs with
projections, facets with their key aliases and data, table data, billing) and keeps every key it does
not know in `extras`, so writing a file back keeps them. It tolerates the quirks of real files
(docs/nosql-workbench.md, "Reading a file"): data only inside facets, untyped or double-wrapped nested
values, duplicated non-key attributes, any key order. Bytes are parsed by `modeling.model_file.parse_document` (size
limit, no duplicate keys, bounded nesting); a structural problem is a ModelFileError with a path.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from modeling.errors import ModelFileError, Problem
from modeling.model_file import parse_document

Item = dict[str, Any]  # DynamoDB JSON: attribute name -> {"S": "..."} and the like
TYPE_KEYS = ("S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS")
KNOWN_VERSIONS = ("1.0", "2.0", "3.0")
WRITTEN_VERSION = "3.0"
AWS_SERVICE = "Amazon DynamoDB"
# What NoSQL Workbench writes for a provisioned table it was given no figures for (every 3.0 fixture).
_SCALING = {"ScalableTargetRequest": {"MinCapacity": 1, "MaxCapacity": 10,
                                      "ServiceRole": "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable"},
            "ScalingPolicyConfiguration": {"TargetValue": 70}}
DEFAULT_PROVISIONED_SETTINGS: Mapping[str, Any] = {
    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
    "AutoScalingRead": _SCALING, "AutoScalingWrite": _SCALING,
}

_FILE_KEYS = {"ModelName", "ModelMetadata", "DataModel"}
_METADATA_KEYS = {"Author", "DateCreated", "DateLastModified", "Description", "AWSService", "Version"}
_TABLE_KEYS = {"TableName", "KeyAttributes", "NonKeyAttributes", "TableFacets", "GlobalSecondaryIndexes",
               "TableData", "DataAccess", "BillingMode", "ProvisionedCapacitySettings", "SampleDataFormats",
               "TimeToLiveAttribute"}
_FACET_KEYS = {"FacetName", "KeyAttributeAlias", "TableData", "NonKeyAttributes", "DataAccess"}
_INDEX_KEYS = {"IndexName", "KeyAttributes", "Projection"}


@dataclass(frozen=True)
class KeyAttr:
    name: str
    type: str = "S"


@dataclass(frozen=True)
class Index:
    name: str
    partition_key: KeyAttr
    sort_key: KeyAttr | None
    projection_type: str = "ALL"
    projected: tuple[str, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Facet:
    """A named view of a table: one item type, with display names (aliases) for the table's keys."""

    name: str
    partition_key_alias: str
    sort_key_alias: str | None
    non_key_attributes: tuple[str, ...]
    items: tuple[Item, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    name: str
    partition_key: KeyAttr
    sort_key: KeyAttr | None
    non_key_attributes: tuple[KeyAttr, ...] = ()
    indexes: tuple[Index, ...] = ()
    facets: tuple[Facet, ...] = ()
    items: tuple[Item, ...] = ()  # table-level TableData (often empty when facets hold the data)
    billing_mode: str | None = None
    provisioned: Mapping[str, Any] | None = None
    sample_data_formats: Mapping[str, Any] | None = None
    ttl_attribute: str | None = None  # `TimeToLiveAttribute`: the attribute whose epoch seconds expire an item
    extras: Mapping[str, Any] = field(default_factory=dict)

    def all_items(self) -> tuple[Item, ...]:
        """Table data and facet data together, each item once (docs/nosql-workbench.md, "Reading a file")."""
        return tuple(_once([*self.items, *(i for f in self.facets for i in f.items)], lambda item: item))

    def attribute_type(self, name: str) -> str | None:
        for attribute in (self.partition_key, self.sort_key, *self.non_key_attributes):
            if attribute is not None and attribute.name == name:
                return attribute.type
        return None


@dataclass(frozen=True)
class WorkbenchFile:
    name: str
    version: str
    metadata: Mapping[str, Any]  # Author, DateCreated, DateLastModified, Description and unknown keys
    tables: tuple[Table, ...]
    extras: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # what reading changed: typed nested values, dropped duplicates

    def table(self, name: str | None) -> Table:
        """The named table (the first when None), or ModelFileError naming the tables there are."""
        if name is None:
            return self.tables[0]
        found = next((t for t in self.tables if t.name == name), None)
        if found is None:
            raise ModelFileError([Problem("table", f"the file has no table `{name}`",
                                          "choose one of: " + ", ".join(t.name for t in self.tables))])
        return found

    def unknown_keys(self) -> tuple[str, ...]:
        """Paths of the keys this reader does not interpret (kept and written back)."""
        paths = [k for k in self.extras] + [f"ModelMetadata.{k}" for k in self.metadata if k not in _METADATA_KEYS]
        for table in self.tables:
            base = f"DataModel[{table.name}]"
            paths += [f"{base}.{k}" for k in table.extras]
            paths += [f"{base}.TableFacets[{f.name}].{k}" for f in table.facets for k in f.extras]
            paths += [f"{base}.GlobalSecondaryIndexes[{i.name}].{k}" for i in table.indexes for k in i.extras]
        return tuple(paths)


# --- reading -------------------------------------------------------------------------------------


def read_workbench(data: bytes, filename: str = "model.json") -> WorkbenchFile:
    """Parse the bytes of a NoSQL Workbench file, or raise ModelFileError listing every problem."""
    document = parse_document(data, filename if filename.lower().endswith(".json") else "model.json")
    return workbench_from_document(document)


def workbench_from_document(document: dict[str, Any]) -> WorkbenchFile:
    reader = _Reader()
    result = reader.file(document)
    if reader.problems:
        raise ModelFileError(reader.problems)
    assert result is not None
    return result


class _Reader:
    """Collects every structural problem, each with a path, instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.value_changes: Counter[str] = Counter()

    def problem(self, path: str, message: str, suggestion: str = "") -> None:
        self.problems.append(Problem(path, message, suggestion))

    def file(self, document: dict[str, Any]) -> WorkbenchFile | None:
        if "format" in document and "DataModel" not in document:
            self.problem("format", "this is a Design Studio model file, not a NoSQL Workbench file",
                         "open it with Open a model file (or `python -m modeling validate`)")
            return None
        if "DataModel" not in document:
            self.problem("DataModel", "`DataModel` is missing, so this is not a NoSQL Workbench model file",
                         "export the model from NoSQL Workbench (File, Export model) and upload that JSON")
            return None
        metadata = document.get("ModelMetadata", {})
        if not isinstance(metadata, dict):
            self.problem("ModelMetadata", "`ModelMetadata` must be an object")
            metadata = {}
        version = str(metadata.get("Version", ""))
        if version not in KNOWN_VERSIONS:
            self.notes.append(f"The file's version is {version or 'missing'}, not one of "
                              f"{', '.join(KNOWN_VERSIONS)}; it was read as {WRITTEN_VERSION}.")
        tables_raw = document["DataModel"]
        if not isinstance(tables_raw, list) or not tables_raw:
            self.problem("DataModel", "`DataModel` must be a list with at least one table")
            return None
        tables = tuple(t for t in (self.table(raw, f"DataModel[{i}]") for i, raw in enumerate(tables_raw))
                       if t is not None)
        names = [t.name for t in tables]
        for name in sorted({n for n in names if names.count(n) > 1}):
            self.problem(f"DataModel[{name}]", f"two tables are named `{name}`", "rename one in NoSQL Workbench")
        name = document.get("ModelName", "")
        self.notes += [f"{count} attribute value(s): {change}." for change, count in self.value_changes.items()]
        return WorkbenchFile(
            name=name if isinstance(name, str) and name.strip() else "NoSQL Workbench model",
            version=version, metadata=dict(metadata), tables=tables,
            extras={k: v for k, v in document.items() if k not in _FILE_KEYS}, notes=tuple(self.notes))

    def table(self, raw: Any, path: str) -> Table | None:
        if not isinstance(raw, dict):
            self.problem(path, "a table must be an object")
            return None
        name = raw.get("TableName")
        if not isinstance(name, str) or not name:
            self.problem(f"{path}.TableName", "`TableName` is missing or not text")
            return None
        path = f"DataModel[{name}]"
        keys = self.key_attributes(raw.get("KeyAttributes"), f"{path}.KeyAttributes")
        if keys is None:
            return None
        non_key = self.non_key_attributes(raw.get("NonKeyAttributes", []), f"{path}.NonKeyAttributes", name)
        indexes = tuple(i for i in (self.index(r, f"{path}.GlobalSecondaryIndexes[{n}]")
                                    for n, r in enumerate(self.list_of(raw, "GlobalSecondaryIndexes", path)))
                        if i is not None)
        facets = tuple(f for f in (self.facet(r, f"{path}.TableFacets[{n}]")
                                   for n, r in enumerate(self.list_of(raw, "TableFacets", path))) if f is not None)
        billing = raw.get("BillingMode")
        if billing is not None and billing not in ("PROVISIONED", "PAY_PER_REQUEST"):
            self.problem(f"{path}.BillingMode", f"unknown billing mode {billing!r}",
                         "use PROVISIONED or PAY_PER_REQUEST")
            billing = None
        return Table(
            name=name, partition_key=keys[0], sort_key=keys[1], non_key_attributes=non_key, indexes=indexes,
            facets=facets, items=self.items(self.list_of(raw, "TableData", path), f"{path}.TableData"),
            billing_mode=billing, provisioned=self.mapping_or_none(raw, "ProvisionedCapacitySettings", path),
            sample_data_formats=self.mapping_or_none(raw, "SampleDataFormats", path),
            ttl_attribute=self.ttl_attribute(raw.get("TimeToLiveAttribute"), f"{path}.TimeToLiveAttribute"),
            extras={k: v for k, v in raw.items() if k not in _TABLE_KEYS})

    def ttl_attribute(self, raw: Any, path: str) -> str | None:
        """The attribute's name, written as text or as `{"AttributeName": ..., "Enabled": ...}` (the shape of
        DynamoDB's TimeToLiveSpecification); a specification that is not enabled sets none."""
        if isinstance(raw, dict) and raw.get("Enabled", True) is not False:
            raw = raw.get("AttributeName")
        elif isinstance(raw, dict):
            return None
        if raw is None or raw == "":
            return None
        if not isinstance(raw, str):
            self.problem(path, "`TimeToLiveAttribute` must be an attribute's name", "write the name as text")
            return None
        return raw

    def list_of(self, raw: dict[str, Any], key: str, path: str) -> list[Any]:
        value = raw.get(key, [])
        if not isinstance(value, list):
            self.problem(f"{path}.{key}", f"`{key}` must be a list")
            return []
        return value

    def mapping_or_none(self, raw: dict[str, Any], key: str, path: str) -> Mapping[str, Any] | None:
        value = raw.get(key)
        if value is not None and not isinstance(value, dict):
            self.problem(f"{path}.{key}", f"`{key}` must be an object")
            return None
        return value

    def key_attributes(self, raw: Any, path: str) -> tuple[KeyAttr, KeyAttr | None] | None:
        if not isinstance(raw, dict) or "PartitionKey" not in raw:
            self.problem(f"{path}.PartitionKey", "the partition key is missing",
                         "every table and index has a PartitionKey with AttributeName and AttributeType")
            return None
        partition = self.key_attr(raw["PartitionKey"], f"{path}.PartitionKey")
        sort = self.key_attr(raw["SortKey"], f"{path}.SortKey") if raw.get("SortKey") else None
        return (partition, sort) if partition is not None else None

    def key_attr(self, raw: Any, path: str) -> KeyAttr | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("AttributeName"), str) or not raw["AttributeName"]:
            self.problem(f"{path}.AttributeName", "`AttributeName` is missing or not text")
            return None
        kind = raw.get("AttributeType", "S")
        if kind not in TYPE_KEYS:
            self.problem(f"{path}.AttributeType", f"unknown attribute type {kind!r}",
                         "use one of: " + ", ".join(TYPE_KEYS))
            return None
        return KeyAttr(raw["AttributeName"], kind)

    def non_key_attributes(self, raw: Any, path: str, table: str) -> tuple[KeyAttr, ...]:
        if not isinstance(raw, list):
            self.problem(path, "`NonKeyAttributes` must be a list")
            return ()
        found: list[KeyAttr] = []
        for n, entry in enumerate(raw):
            attribute = self.key_attr(entry, f"{path}[{n}]")
            if attribute is not None and all(a.name != attribute.name for a in found):
                found.append(attribute)
        if len(found) < len(raw):
            self.notes.append(f"Table {table}: {len(raw) - len(found)} repeated non-key attribute entries were "
                              "read once (web-modeler files repeat them).")
        return tuple(found)

    def index(self, raw: Any, path: str) -> Index | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("IndexName"), str):
            self.problem(f"{path}.IndexName", "`IndexName` is missing or not text")
            return None
        path = path.rsplit("[", 1)[0] + f"[{raw['IndexName']}]"
        keys = self.key_attributes(raw.get("KeyAttributes"), f"{path}.KeyAttributes")
        projection = raw.get("Projection", {"ProjectionType": "ALL"})
        kind = projection.get("ProjectionType", "ALL") if isinstance(projection, dict) else None
        if kind not in ("ALL", "KEYS_ONLY", "INCLUDE"):
            self.problem(f"{path}.Projection.ProjectionType", f"unknown projection {kind!r}",
                         "use ALL, KEYS_ONLY or INCLUDE")
            return None
        projected = projection.get("NonKeyAttributes", [])
        if keys is None or not isinstance(projected, list) or not all(isinstance(p, str) for p in projected):
            if keys is not None:
                self.problem(f"{path}.Projection.NonKeyAttributes", "must be a list of attribute names")
            return None
        return Index(raw["IndexName"], keys[0], keys[1], kind, tuple(dict.fromkeys(projected)),
                     {k: v for k, v in raw.items() if k not in _INDEX_KEYS})

    def facet(self, raw: Any, path: str) -> Facet | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("FacetName"), str) or not raw["FacetName"]:
            self.problem(f"{path}.FacetName", "`FacetName` is missing or not text")
            return None
        path = path.rsplit("[", 1)[0] + f"[{raw['FacetName']}]"
        alias = raw.get("KeyAttributeAlias", {})
        alias = alias if isinstance(alias, dict) else {}
        names = raw.get("NonKeyAttributes", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            self.problem(f"{path}.NonKeyAttributes", "a facet's `NonKeyAttributes` must be a list of names")
            names = []
        return Facet(raw["FacetName"], str(alias.get("PartitionKeyAlias", "")),
                     str(alias["SortKeyAlias"]) if alias.get("SortKeyAlias") is not None else None,
                     tuple(dict.fromkeys(names)), self.items(self.list_of(raw, "TableData", path),
                                                              f"{path}.TableData"),
                     {k: v for k, v in raw.items() if k not in _FACET_KEYS})

    def items(self, raw: list[Any], path: str) -> tuple[Item, ...]:
        items = []
        for n, item in enumerate(raw):
            if not isinstance(item, dict):
                self.problem(f"{path}[{n}]", "an item must be an object of attribute values")
                continue
            items.append({name: self.value(value, f"{path}[{n}].{name}") for name, value in item.items()})
        return tuple(items)

    def value(self, value: Any, path: str) -> Any:
        typed, changed = normalised_value(value)
        for change in filter(None, changed.split("; ")):
            self.value_changes[change] += 1
        return typed


# --- attribute values ----------------------------------------------------------------------------


def is_typed(value: Any) -> bool:
    """A DynamoDB JSON value: one type key with a payload of the right shape."""
    if not isinstance(value, dict) or len(value) != 1:
        return False
    (kind, payload), = value.items()
    checks = {"S": lambda p: isinstance(p, str), "N": lambda p: isinstance(p, str | int | float) and
              not isinstance(p, bool), "B": lambda p: isinstance(p, str), "BOOL": lambda p: isinstance(p, bool),
              "NULL": lambda p: p is True, "M": lambda p: isinstance(p, dict), "L": lambda p: isinstance(p, list),
              "SS": _list_of_text, "NS": _list_of_text, "BS": _list_of_text}
    return kind in checks and checks[kind](payload)


def _list_of_text(payload: Any) -> bool:
    return isinstance(payload, list) and all(isinstance(p, str | int | float) and not isinstance(p, bool)
                                             for p in payload)


def normalised_value(value: Any) -> tuple[Any, str]:
    """Canonical DynamoDB JSON for a value as found in a Workbench file, and what was changed ("" if nothing).

    Real files put raw JSON inside "M" (ConnectedVehicles) or wrap a map twice, {"M": {"M": {...}}}
    (GamePlayerProfiles); numbers may be JSON numbers instead of text.
    """
    if not is_typed(value):
        return typed_from_plain(value), "an untyped value was typed from its JSON"
    (kind, payload), = value.items()
    if kind == "M":
        changes = []
        if len(payload) == 1 and "M" in payload and isinstance(payload["M"], dict) and not is_typed(payload["M"]):
            payload, changes = payload["M"], ["a map wrapped twice ({\"M\": {\"M\": ...}}) was unwrapped"]
        members = {}
        for name, member in payload.items():
            members[name], change = normalised_value(member)
            if change and change not in changes:
                changes.append(change)
        return {"M": members}, "; ".join(changes)
    if kind == "L":
        results = [normalised_value(v) for v in payload]
        changes = sorted({c for _, c in results if c})
        return {"L": [v for v, _ in results]}, "; ".join(changes)
    if kind == "N" and not isinstance(payload, str):
        return {"N": _number_text(payload)}, "a JSON number was written as DynamoDB number text"
    if kind == "NS" and not all(isinstance(p, str) for p in payload):
        return {"NS": [_number_text(p) for p in payload]}, "JSON numbers were written as DynamoDB number text"
    return value, ""


def _number_text(number: Any) -> str:
    return str(number) if isinstance(number, str) else format(Decimal(str(number)), "f")


def typed_from_plain(value: Any) -> Any:
    """DynamoDB JSON for a plain JSON/Python value (text S, numbers N, lists L, objects M)."""
    if isinstance(value, bool):
        return {"BOOL": value}
    if value is None:
        return {"NULL": True}
    if isinstance(value, int | float | Decimal):
        return {"N": _number_text(value)}
    if isinstance(value, dict):
        return {"M": {k: (v if is_typed(v) else typed_from_plain(v)) for k, v in value.items()}}
    if isinstance(value, list | tuple):
        return {"L": [typed_from_plain(v) for v in value]}
    if isinstance(value, set | frozenset):
        return {"SS": sorted(str(v) for v in value)}
    return {"S": str(value)}


def plain_value(value: Any) -> Any:
    """The Python value of DynamoDB JSON (numbers as Decimal), for inference."""
    (kind, payload), = value.items()
    if kind == "N":
        try:
            number = Decimal(payload)
        except InvalidOperation:
            return payload
        # a DynamoDB Number has up to 38 significant digits (dynamodb-rules §6) and a magnitude from 1E-130
        # to about 1E+126 (AWS "Supported data types"); anything else stays text, so that "1E+999999999"
        # never becomes a billion-digit string
        return number if number.is_finite() and -131 <= number.adjusted() <= 126 else payload
    if kind == "M":
        return {k: plain_value(v) for k, v in payload.items()}
    if kind == "L":
        return [plain_value(v) for v in payload]
    if kind == "NULL":
        return None
    return payload


# --- writing -------------------------------------------------------------------------------------


def workbench_document(workbench: WorkbenchFile) -> dict[str, Any]:
    """The file as NoSQL Workbench 3.0 writes it: its key order, DataAccess placeholders, unknown keys kept."""
    metadata = {"Author": workbench.metadata.get("Author", ""),
                "DateCreated": workbench.metadata.get("DateCreated", ""),
                "DateLastModified": workbench.metadata.get("DateLastModified", ""),
                "Description": workbench.metadata.get("Description", ""),
                "AWSService": AWS_SERVICE, "Version": WRITTEN_VERSION,
                **{k: v for k, v in workbench.metadata.items() if k not in _METADATA_KEYS}}
    return {"ModelName": workbench.name, "ModelMetadata": metadata,
            "DataModel": [_table_document(t) for t in workbench.tables], **workbench.extras}


def _table_document(table: Table) -> dict[str, Any]:
    document: dict[str, Any] = {"TableName": table.name, "KeyAttributes": _keys_document(table.partition_key,
                                                                                          table.sort_key),
                                "NonKeyAttributes": [_attr_document(a) for a in table.non_key_attributes]}
    if table.facets:
        document["TableFacets"] = [_facet_document(f) for f in table.facets]
    if table.indexes:
        document["GlobalSecondaryIndexes"] = [_index_document(i) for i in table.indexes]
    if table.items:
        document["TableData"] = list(table.items)
    document["DataAccess"] = {"MySql": {}}
    if table.billing_mode:
        document["BillingMode"] = table.billing_mode
        if table.billing_mode == "PROVISIONED":
            document["ProvisionedCapacitySettings"] = dict(table.provisioned or DEFAULT_PROVISIONED_SETTINGS)
    if table.sample_data_formats:
        document["SampleDataFormats"] = dict(table.sample_data_formats)
    if table.ttl_attribute:
        document["TimeToLiveAttribute"] = table.ttl_attribute
    return {**document, **table.extras}


def _attr_document(attribute: KeyAttr) -> dict[str, str]:
    return {"AttributeName": attribute.name, "AttributeType": attribute.type}


def _keys_document(partition: KeyAttr, sort: KeyAttr | None) -> dict[str, Any]:
    keys = {"PartitionKey": _attr_document(partition)}
    if sort is not None:
        keys["SortKey"] = _attr_document(sort)
    return keys


def _facet_document(facet: Facet) -> dict[str, Any]:
    alias = {"PartitionKeyAlias": facet.partition_key_alias}
    if facet.sort_key_alias is not None:
        alias["SortKeyAlias"] = facet.sort_key_alias
    document: dict[str, Any] = {"FacetName": facet.name, "KeyAttributeAlias": alias}
    if facet.items:
        document["TableData"] = list(facet.items)
    document["NonKeyAttributes"] = list(facet.non_key_attributes)
    document["DataAccess"] = {"MySql": {}}
    return {**document, **facet.extras}


def _index_document(index: Index) -> dict[str, Any]:
    projection: dict[str, Any] = {"ProjectionType": index.projection_type}
    if index.projection_type == "INCLUDE":
        projection["NonKeyAttributes"] = list(index.projected)
    return {"IndexName": index.name, "KeyAttributes": _keys_document(index.partition_key, index.sort_key),
            "Projection": projection, **index.extras}


def workbench_date(moment: datetime) -> str:
    """NoSQL Workbench's metadata date style, e.g. `Jun 16, 2023, 04:27 PM`."""
    return moment.strftime("%b %d, %Y, %I:%M %p")


def iter_items(table: Table) -> Iterator[tuple[str | None, Item]]:
    """Every item with the facet it came from (None for table-level data), each item once."""
    pairs: list[tuple[str | None, Item]] = [(f.name, i) for f in table.facets for i in f.items]
    yield from _once([*pairs, *((None, i) for i in table.items)], lambda pair: pair[1])


def _once(entries: list[Any], item_of: Any) -> Iterator[Any]:
    """The entries whose item was not seen before, in order. Items are compared by their canonical JSON (the
    same test as `==` for DynamoDB JSON), in a set: a list of the items seen made the import quadratic (a
    3,287-item file took minutes, issue 31.6)."""
    seen: set[str] = set()
    for entry in entries:
        key = json.dumps(item_of(entry), sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            yield entry
