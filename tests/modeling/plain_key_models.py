"""A small item-collection model for the plain-key tests (issue 28.3): sensors and their timestamped readings.

Every value has a fixed length, so item sizes can be worked out by hand: `sensorId` is a sequence `S00001` (6 bytes),
`at` an ISO-8601 timestamp `2025-01-01T00:00:00Z` (20 bytes), `state` an enum of one 7-byte value. Options change
what makes plain keys ambiguous: a second digit-led child (alarms), readings keyed by a value that may start with any
character (a UUID), or a second root with its own partitions (sites).
"""

from __future__ import annotations

from typing import Any

from modeling.model import Model

_TRAFFIC = {"peak_requests_per_second": 20, "average_requests_per_second": 5}
_AT = {"kind": "timestamp_range", "start": "2025-01-01T00:00:00Z", "end": "2025-12-31T23:59:59Z"}


def _reference(name: str, entity: str, attribute: str, size: int = 6) -> dict[str, Any]:
    return {"name": name, "avg_size_bytes": size,
            "generator": {"kind": "reference", "entity": entity, "attribute": attribute}}


def _child(name: str, sort_attribute: str, generator: dict[str, Any], size: int = 20) -> dict[str, Any]:
    return {"name": name, "item_count": 1_000_000, "identifiers": ["sensorId", sort_attribute], "attributes": [
        _reference("sensorId", "Sensor", "sensorId"),
        {"name": sort_attribute, "avg_size_bytes": size, "generator": generator},
        {"name": "state", "avg_size_bytes": 7, "generator": {"kind": "enum", "values": ["NORMAL1"]}}]}


def _readings_of(child: str) -> list[dict[str, Any]]:
    return [
        {"name": f"list_latest_{child.lower()}s", "kind": "read_many", "entities": [child], "inputs": ["sensorId"],
         "sort_order": "descending", "page_size": 50, "expected_items": 50, "traffic": _TRAFFIC},
        {"name": f"add_{child.lower()}", "kind": "write", "entities": [child], "traffic": _TRAFFIC,
         "inputs": ["sensorId", "at" if child == "Reading" else "raisedAt"]}]


def sensors_model(key_design: dict[str, Any] | None = None, uuid_readings: bool = False, alarms: bool = False,
                  sites: bool = False) -> Model:
    """Sensors (1,000) with 1,000 readings each on average, read newest first, 50 at a time."""
    reading_key = {"kind": "uuid"} if uuid_readings else _AT
    entities = [
        {"name": "Sensor", "item_count": 1000, "identifiers": ["sensorId"], "attributes": [
            {"name": "sensorId", "avg_size_bytes": 6,
             "generator": {"kind": "sequence", "start": 1, "width": 5, "prefix": "S"}}]},
        _child("Reading", "at", reading_key, 36 if uuid_readings else 20)]
    relationships = [_one_to_many("Reading")]
    patterns = [{"name": "get_sensor", "kind": "read_one", "entities": ["Sensor"], "inputs": ["sensorId"],
                 "traffic": _TRAFFIC}, *_readings_of("Reading")]
    if alarms:
        entities.append(_child("Alarm", "raisedAt", _AT))
        relationships.append(_one_to_many("Alarm"))
        patterns += _readings_of("Alarm")
    if sites:
        entities.append({"name": "Site", "item_count": 50, "identifiers": ["siteId"], "attributes": [
            {"name": "siteId", "avg_size_bytes": 6,
             "generator": {"kind": "sequence", "start": 1, "width": 5, "prefix": "T"}}]})
        patterns.append({"name": "get_site", "kind": "read_one", "entities": ["Site"], "inputs": ["siteId"],
                         "traffic": _TRAFFIC})
    document: dict[str, Any] = {"name": "Sensors", "table": {"name": "sensors"}, "entities": entities,
                                "relationships": relationships, "access_patterns": patterns}
    if key_design is not None:
        document["key_design"] = key_design
    return Model.model_validate(document)


def _one_to_many(child: str) -> dict[str, Any]:
    return {"name": f"sensor_{child.lower()}s", "kind": "one_to_many", "parent": "Sensor", "child": child,
            "child_attributes": ["sensorId"], "cardinality": {"mean": 1000, "max": 5000}}
