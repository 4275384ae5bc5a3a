"""Prepared model states: the model documents a lesson opens as the attendee's model.

Each state is derived from a built-in example (`modeling/examples/`) by a small pure edit, so the
lesson always starts from the same picture and the example files stay the single source of the models.
`state_document(State.X)` returns a fresh document (a deep copy the caller may edit).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from studio.design import adopt_key_design, propose
from studio.examples import example_document
from studio.model import model_from_document
from workshop.roles import document_index_serving, free_index_name

Document = dict[str, Any]


class State(StrEnum):
    STUDENT = "student"  # the Student platform example as shipped: patterns, no key design yet
    STUDENT_DESIGNED = "student_designed"  # ... with the proposal (the Layout page's first design) adopted
    STUDENT_MISTAKES = "student_mistakes"  # the "classic mistakes" example (email and status keys)
    CRM = "crm"  # the CRM single-table example with its explicit key design
    SHOP_SCAN = "shop_scan"  # E-commerce with a design that has no status index: the unpaid report scans
    SHOP_SPARSE = "shop_sparse"  # ... plus a sparse GSI holding only unpaid orders
    IOT_FLAT = "iot_flat"  # IoT telemetry: flat traffic all day
    IOT_SPIKY = "iot_spiky"  # the same totals squeezed into one busy hour a day
    STUDENT_LOST_UPDATE = "student_lost_update"  # designed, the XP increment a read-modify-write SET
    STUDENT_VERSIONED = "student_versioned"  # ... the same SET under a version condition (optimistic locking)


# The hour of the spike and the share of the busiest hour every other hour runs at (IOT_SPIKY).
SPIKE_HOUR_UTC = 14
QUIET_HOUR_WEIGHT = 0.05
UNPAID = "UNPAID"


def state_document(state: State) -> Document:
    """A fresh copy of the prepared document for `state`."""
    document = _BUILDERS[state]()
    document["name"] = f"{document['name']} · {_TITLES[state]}"
    return document


def _designed(slug: str) -> Document:
    """The example with its proposal (`propose`'s first, what the Layout page opens on) adopted as its own
    design, as an attendee who pressed "Adopt" has it."""
    document = example_document(slug)
    design = propose(model_from_document(document))[0]
    return adopt_key_design(document, design.key_design.model_dump(mode="json", exclude_defaults=True))


def _shop_scan() -> Document:
    """E-commerce, designed, with orders taken out of the status index (the unpaid report must Scan)."""
    document = _designed("ecommerce_orders")
    status_index = document_index_serving(document, "list_orders_by_status")  # by role, not by number
    for keys in document["key_design"]["entities"]:
        if keys["entity"] == "Order":
            keys.get("indexes", {}).pop(status_index, None)
    document["access_patterns"] = [p for p in document["access_patterns"] if p["name"] != "list_orders_by_status"]
    return document


def _shop_sparse() -> Document:
    """The scanning shop plus a sparse GSI: an order has its keys only while it is UNPAID (dynamodb-rules §4.1).

    The index takes the first `GSI<n>` name the design leaves free; lessons find it by its role (the index
    serving list_unpaid_orders_by_date), never by this name.
    """
    document = _shop_scan()
    design = document["key_design"]
    name = free_index_name(i["name"] for i in design.get("global_secondary_indexes", []))
    design.setdefault("global_secondary_indexes", []).append({
        "name": name, "partition_key": {"name": f"{name}PK", "type": "S"},
        "sort_key": {"name": f"{name}SK", "type": "S"}, "projection": {"type": "ALL"}})
    for keys in design["entities"]:
        if keys["entity"] == "Order":
            keys.setdefault("indexes", {})[name] = {
                "partition_key": "STATUS#{status}", "sort_key": "ORDER#{orderDate}#{orderId}",
                "only_when": [{"attribute": "status", "equals": UNPAID}]}
    return document


def _iot_spiky() -> Document:
    document = example_document("iot_telemetry")
    weights = [QUIET_HOUR_WEIGHT] * 24
    weights[SPIKE_HOUR_UTC] = 1.0
    document["traffic_profile"] = {"shape": "custom", "hourly_weights": weights}
    return document


XP_PATTERN = "increment_student_xp_by_id"


def _xp_increment(update: dict[str, Any] | None, versioned: bool) -> Document:
    """The designed Student platform with the XP increment written another way (lesson 8)."""
    document = _designed("student_platform")
    pattern = next(p for p in document["access_patterns"] if p["name"] == XP_PATTERN)
    pattern["updates"] = [update] if update else [{"attribute": "xp"}]  # SET xp = the value read + 1
    pattern["inputs"] = [n for n in pattern["inputs"] if n != "points"]  # the value comes from the read
    pattern.pop("condition", None)
    if versioned:
        pattern["condition"] = {"kind": "version_matches", "attribute": "version"}
    return document


_BUILDERS: dict[State, Callable[[], Document]] = {
    State.STUDENT: lambda: example_document("student_platform"),
    State.STUDENT_DESIGNED: lambda: _designed("student_platform"),
    State.STUDENT_MISTAKES: lambda: example_document("student_platform_mistakes"),
    State.CRM: lambda: example_document("crm_single_table"),
    State.SHOP_SCAN: _shop_scan,
    State.SHOP_SPARSE: _shop_sparse,
    State.IOT_FLAT: lambda: example_document("iot_telemetry"),
    State.IOT_SPIKY: _iot_spiky,
    State.STUDENT_LOST_UPDATE: lambda: _xp_increment(None, versioned=False),
    State.STUDENT_VERSIONED: lambda: _xp_increment(None, versioned=True),
}
_TITLES = {
    State.STUDENT: "lesson", State.STUDENT_DESIGNED: "designed", State.STUDENT_MISTAKES: "lesson",
    State.CRM: "lesson", State.SHOP_SCAN: "Scan + filter", State.SHOP_SPARSE: "sparse GSI",
    State.IOT_FLAT: "flat traffic", State.IOT_SPIKY: "spiky traffic",
    State.STUDENT_LOST_UPDATE: "read-modify-write", State.STUDENT_VERSIONED: "version condition",
}


def copy_document(document: Document) -> Document:
    return copy.deepcopy(document)
