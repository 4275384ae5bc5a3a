"""Break-it edits: each puts one classic mistake into a lesson's model document (a pure function).

The attendee then finds the mistake with the product's own checks and charts and fixes it on the real
pages; `workshop.verification` decides whether the fix holds. Every edit works on a deep copy.
"""

from __future__ import annotations

import copy
from typing import Any

from workshop.roles import document_index_serving

Document = dict[str, Any]


def _entity_keys(document: Document, entity: str) -> dict[str, Any]:
    return next(k for k in document["key_design"]["entities"] if k["entity"] == entity)


def _renamed(document: Document, suffix: str) -> Document:
    broken = copy.deepcopy(document)
    broken["name"] = f"{document.get('name', 'model')} · {suffix}"
    return broken


def unpad_leaderboard(document: Document) -> Document:
    """The leaderboard sort key writes xp without zero padding: 'XP#100' sorts before 'XP#20' (DDS104)."""
    broken = _renamed(document, "broken")
    for templates in _entity_keys(broken, "Student")["indexes"].values():
        if "{xp:" in (templates.get("sort_key") or ""):
            templates["sort_key"] = templates["sort_key"].replace("{xp:6}", "{xp}")
    return broken


def status_partition_key(document: Document) -> Document:
    """The roster index keyed by status alone: four values for every student (DDS101, DDS103)."""
    broken = _renamed(document, "broken")
    for templates in _entity_keys(broken, "Student")["indexes"].values():
        # labelled or not: a GSI holding one entity is keyed `{tenantId}#{status}`
        if "{status}" in templates["partition_key"]:
            templates["partition_key"] = "STATUS#{status}"
    return broken


def split_contact_collection(document: Document) -> Document:
    """Contact logs moved to their own partitions: a customer's history is no longer one Query (DDS201)."""
    broken = _renamed(document, "broken")
    _entity_keys(broken, "ContactLog")["table"] = {"partition_key": "CONTACT#{contactId}", "sort_key": "CONTACT"}
    return broken


def keys_only_roster(document: Document) -> Document:
    """The roster index projects keys only, but the roster shows names and levels (DDS205)."""
    return _roster_projected(_renamed(document, "broken"), {"type": "KEYS_ONLY"})


def all_roster(document: Document) -> Document:
    """The reference fix of `keys_only_roster`: the roster index projects ALL again. The adopted proposal may
    itself project the roster KEYS_ONLY (fetching the students after the query, when the search prices that
    cheaper: issue 28.3), so the fix is stated, not taken from the state before the mistake."""
    return _roster_projected(copy.deepcopy(document), {"type": "ALL"})


def _roster_projected(document: Document, projection: dict[str, Any]) -> Document:
    index = _entity_keys(document, "Student")["indexes"]
    roster = next(name for name, t in index.items() if "{status}" in t["partition_key"])
    for gsi in document["key_design"]["global_secondary_indexes"]:
        if gsi["name"] == roster:
            gsi["projection"] = projection
    return document


def drop_sparse_index(document: Document) -> Document:
    """The unpaid orders lose their index: the hourly report becomes Scan + filter (DDS201)."""
    broken = _renamed(document, "broken")
    sparse = document_index_serving(document, "list_unpaid_orders_by_date")  # by role, not by number
    _entity_keys(broken, "Order").get("indexes", {}).pop(sparse, None)
    return broken


def on_demand_for_steady_load(document: Document) -> Document:
    """The table switched to on-demand although its traffic is cheaper provisioned."""
    broken = _renamed(document, "broken")
    broken["table"]["billing_mode"] = "PAY_PER_REQUEST"
    return broken


def strong_read_on_gsi(document: Document) -> Document:
    """Sign-in asks for a strongly consistent read, but it reads a GSI (DDS203)."""
    broken = _renamed(document, "broken")
    pattern = next(p for p in broken["access_patterns"] if p["name"] == "get_student_by_email")
    pattern["consistency"] = "strong"
    return broken


def read_modify_write_counter(document: Document) -> Document:
    """The XP increment reads xp and SETs it one higher, with no condition: concurrent lessons lose XP (DDS308)."""
    broken = _renamed(document, "broken")
    pattern = next(p for p in broken["access_patterns"] if p["name"] == "increment_student_xp_by_id")
    pattern["updates"] = [{"attribute": "xp"}]
    pattern["inputs"] = [n for n in pattern["inputs"] if n != "points"]  # the new value comes from the read
    pattern.pop("condition", None)
    return broken
