"""DDS312 (issue 27.3): a write whose inputs cannot build each written item's full primary key is an error,
is priced with the read that must find the key, and is never shown as served.

PutItem, UpdateItem and DeleteItem take the full primary key (AWS, WorkingWithItems.html): every attribute of
the table's partition and sort key templates. A put mints its uuid or sequence id and its timestamps itself.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from costs.capacity import capacity_profile
from modeling.design.checks import FindingSeverity, check_design
from modeling.design.generator import explicit_design
from modeling.design.plans import Operation
from modeling.model import Model

_TRAFFIC = {"peak_requests_per_second": 20, "average_requests_per_second": 5}


def _attribute(name: str, generator: dict[str, Any], size: int = 12, **extra: Any) -> dict[str, Any]:
    return {"name": name, "avg_size_bytes": size, "max_size_bytes": size, "generator": generator, **extra}


# The example: a library's copies, keyed by book and then by branch and copy.
LIBRARY: dict[str, Any] = {
    "name": "Library", "table": {"name": "library"},
    "entities": [{"name": "Copy", "item_count": 50_000, "identifiers": ["isbn", "branchId", "copyId"], "attributes": [
        _attribute("isbn", {"kind": "sequence", "prefix": "978-"}, 17),
        _attribute("branchId", {"kind": "enum", "values": ["north", "south", "east"]}, 5),
        _attribute("copyId", {"kind": "uuid"}, 36),
        _attribute("status", {"kind": "enum", "values": ["ON_SHELF", "ON_LOAN"]}, 8)]}],
    "access_patterns": [
        {"name": "get_copy_by_id", "kind": "read_one", "entities": ["Copy"], "inputs": ["copyId"],
         "traffic": _TRAFFIC},
        {"name": "update_copy_status_by_id", "kind": "update", "entities": ["Copy"], "inputs": ["copyId"],
         "changed_attributes": ["status"], "traffic": _TRAFFIC}],
    "key_design": {"entities": [
        {"entity": "Copy", "table": {"partition_key": "ISBN#{isbn}", "sort_key": "COPY#{branchId}#{copyId}"}}]},
}


def library(**pattern_changes: Any) -> Model:
    document = copy.deepcopy(LIBRARY)
    document["access_patterns"][1].update(pattern_changes)
    return Model.model_validate(document)


def _dds312(model: Model) -> list:
    return [f for f in check_design(model, explicit_design(model)) if f.check_id == "DDS312"]


def test_an_update_by_copy_id_alone_is_an_error_naming_the_missing_key_attributes() -> None:
    model = library()
    [finding] = _dds312(model)
    assert finding.severity is FindingSeverity.ERROR
    assert finding.path == "access_patterns[update_copy_status_by_id]" and finding.pattern == "update_copy_status_by_id"
    assert "isbn, branchId" in finding.message and "Scan" in finding.message
    assert finding.fix.startswith("Add isbn, branchId to update_copy_status_by_id's inputs, or key Copy")
    plan = explicit_design(model).plan("update_copy_status_by_id")
    assert plan is not None and not plan.served
    assert "the inputs give each item's primary key" not in plan.reason and "isbn, branchId" in plan.reason


def test_the_unaddressable_update_is_priced_with_the_scan_the_read_by_copy_id_needs() -> None:
    """Not 1 write unit: the application must find the key first, with the Scan DDS201 prices for
    get_copy_by_id (same inputs, same table): 50,000 items read, and the write on top."""
    model = library()
    design = explicit_design(model)
    profile = {c.pattern: c for c in capacity_profile(model, design).patterns}
    read, write = profile["get_copy_by_id"], profile["update_copy_status_by_id"]
    assert design.plan("get_copy_by_id").operation is Operation.SCAN  # DDS201's case
    assert write.items_read_per_request == read.items_read_per_request == 50_000
    assert write.read_units_per_request == read.read_units_per_request > 1
    assert write.write_units_per_request == 1  # the UpdateItem itself: a Copy is well under 1 KB (§1.2)
    assert write.units_per_request > 1


def test_giving_the_missing_inputs_fixes_it() -> None:
    model = library(inputs=["isbn", "branchId", "copyId"])
    assert _dds312(model) == []
    plan = explicit_design(model).plan("update_copy_status_by_id")
    assert plan is not None and plan.served and plan.reason.startswith("UpdateItem on the table; the inputs give")
    profile = {c.pattern: c for c in capacity_profile(model, explicit_design(model)).patterns}
    assert profile["update_copy_status_by_id"].units_per_request == 1  # one item under 1 KB (§1.2)


def test_deletes_and_conditional_updates_are_checked_too() -> None:
    assert [f.path for f in _dds312(library(kind="delete", changed_attributes=[]))] == \
        ["access_patterns[update_copy_status_by_id]"]
    assert len(_dds312(library(condition="attribute_exists", updates=[{"attribute": "status"}]))) == 1


def test_a_put_sends_its_whole_item_so_its_key_is_always_known() -> None:
    # PutItem carries the new item: isbn, branchId and copyId are in it whatever the pattern lists as inputs
    assert _dds312(library(kind="write", inputs=["branchId"], changed_attributes=[])) == []
    assert _dds312(library(kind="write", inputs=[], changed_attributes=[])) == []


def test_each_transaction_member_is_checked_with_its_key_inputs() -> None:
    members = [{"entity": "Copy", "action": "Update", "key_inputs": {"copyId": "fromCopyId"},
                "updates": [{"attribute": "status"}]},
               {"entity": "Copy", "action": "Update", "key_inputs": {"copyId": "toCopyId", "branchId": "toBranch"},
                "updates": [{"attribute": "status"}]}]
    model = library(kind="transact_write", inputs=["isbn", "branchId", "fromCopyId", "toCopyId", "toBranch"],
                    changed_attributes=[], members=members)
    assert _dds312(model) == []
    model = library(kind="transact_write", inputs=["isbn", "fromCopyId", "toCopyId", "toBranch"],
                    changed_attributes=[], members=members)
    [finding] = _dds312(model)  # the first member's branchId is no input; the second's comes from toBranch
    assert finding.path == "access_patterns[update_copy_status_by_id].members[0]"
    assert "do not give branchId," in finding.message


_NAMES = ("a", "b", "c", "d")


@settings(max_examples=30, deadline=None)
@given(partition=st.lists(st.sampled_from(_NAMES), min_size=1, max_size=2, unique=True),
       sort=st.lists(st.sampled_from(_NAMES), max_size=3, unique=True),
       inputs=st.lists(st.sampled_from(_NAMES), max_size=4, unique=True),
       kind=st.sampled_from(["update", "delete"]))
def test_the_finding_fires_iff_some_key_attribute_is_not_an_input(partition: list[str], sort: list[str],
                                                                   inputs: list[str], kind: str) -> None:
    """Templates P#{a}#{b} / S#{c}: an update or delete is addressable exactly when every referenced
    attribute is an input, whichever order and split the templates use."""
    document = {
        "name": "Property", "table": {"name": "property"},
        "entities": [{"name": "Thing", "item_count": 100, "identifiers": list(_NAMES), "attributes": [
            *(_attribute(n, {"kind": "enum", "values": ["x", "y"]}) for n in _NAMES),
            _attribute("note", {"kind": "enum", "values": ["n"]})]}],
        "access_patterns": [{"name": "change_thing", "kind": kind, "entities": ["Thing"], "inputs": inputs,
                             "changed_attributes": ["note"] if kind == "update" else [], "traffic": _TRAFFIC}],
        "key_design": {"entities": [{"entity": "Thing", "table": {
            "partition_key": "P" + "".join(f"#{{{n}}}" for n in partition),
            "sort_key": "S" + "".join(f"#{{{n}}}" for n in sort)}}]},
    }
    model = Model.model_validate(document)
    missing = [n for n in (*partition, *sort) if n not in inputs]
    found = _dds312(model)
    assert bool(found) == bool(missing)
    if found:
        assert f"do not give {', '.join(dict.fromkeys(missing))}," in found[0].message
