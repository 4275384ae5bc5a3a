"""Small hand-written models for the evolution tests (not the built-in examples): a lending library.

`library()` is the OLD design; the helpers return documents with one change each, so a test states the
change it makes and the classification it expects.
"""

from __future__ import annotations

import copy
from typing import Any

from modeling.model import Model
from modeling.model_file import model_from_document


def library_document() -> dict[str, Any]:
    return {
        "format": "dynamodb-design-studio/model", "version": 1, "name": "Library",
        "table": {"name": "library", "region": "eu-west-1"},
        "entities": [
            {"name": "Member", "item_count": 10_000, "monthly_growth_percent": 2, "identifiers": ["memberId"],
             "attributes": [
                 {"name": "memberId", "type": "S", "unique": True, "avg_size_bytes": 10,
                  "generator": {"kind": "sequence", "prefix": "m", "width": 5}},
                 {"name": "branch", "type": "S", "avg_size_bytes": 6,
                  "generator": {"kind": "enum", "values": ["north", "south", "east"]}},
                 {"name": "name", "type": "S", "avg_size_bytes": 20,
                  "generator": {"kind": "faker", "provider": "name"}},
                 {"name": "joinedAt", "type": "S", "avg_size_bytes": 10,
                  "generator": {"kind": "timestamp_range", "start": "2020-01-01", "end": "2025-12-31",
                                "format": "date"}}]},
            {"name": "Loan", "item_count": 50_000, "monthly_growth_percent": 10, "identifiers": ["memberId", "loanId"],
             "attributes": [
                 {"name": "memberId", "type": "S", "avg_size_bytes": 10,
                  "generator": {"kind": "reference", "entity": "Member", "attribute": "memberId"}},
                 {"name": "loanId", "type": "S", "unique": True, "avg_size_bytes": 10,
                  "generator": {"kind": "sequence", "prefix": "l", "width": 6}},
                 {"name": "isbn", "type": "S", "avg_size_bytes": 13,
                  "generator": {"kind": "int_range", "min": 1000, "max": 1100}},
                 {"name": "dueDate", "type": "S", "avg_size_bytes": 10,
                  "generator": {"kind": "timestamp_range", "start": "2025-01-01", "end": "2025-12-31",
                                "format": "date"}}]}],
        "relationships": [{"name": "member_loans", "kind": "one_to_many", "parent": "Member", "child": "Loan",
                           "child_attributes": ["memberId"], "cardinality": {"mean": 5}}],
        "access_patterns": [
            {"name": "get_member", "kind": "read_one", "entities": ["Member"], "inputs": ["memberId"],
             "traffic": {"peak_requests_per_second": 50, "average_requests_per_second": 10}},
            {"name": "list_loans_by_member", "kind": "read_many", "entities": ["Loan"], "inputs": ["memberId"],
             "expected_items": 5, "traffic": {"peak_requests_per_second": 20, "average_requests_per_second": 5}},
            {"name": "create_loan", "kind": "write", "entities": ["Loan"], "inputs": ["memberId", "loanId"],
             "traffic": {"peak_requests_per_second": 10, "average_requests_per_second": 2}}],
        "key_design": {
            "partition_key": {"name": "PK"}, "sort_key": {"name": "SK"},
            "entities": [
                {"entity": "Member", "table": {"partition_key": "MEMBER#{memberId}", "sort_key": "PROFILE"}},
                {"entity": "Loan", "table": {"partition_key": "MEMBER#{memberId}", "sort_key": "LOAN#{loanId}"}}]},
    }


def library(document: dict[str, Any] | None = None) -> Model:
    return model_from_document(document if document is not None else library_document())


def with_loans_by_book() -> dict[str, Any]:
    """A new GSI `ByBook` on derived keys (BOOK#{isbn} / DUE#{dueDate}) and a pattern that reads it."""
    document = copy.deepcopy(library_document())
    document["key_design"]["global_secondary_indexes"] = [
        {"name": "ByBook", "partition_key": {"name": "GSI1PK"}, "sort_key": {"name": "GSI1SK"}}]
    document["key_design"]["entities"][1]["indexes"] = {
        "ByBook": {"partition_key": "BOOK#{isbn}", "sort_key": "DUE#{dueDate}"}}
    document["access_patterns"].append(
        {"name": "list_loans_by_book", "kind": "read_many", "entities": ["Loan"], "inputs": ["isbn"],
         "expected_items": 20, "traffic": {"peak_requests_per_second": 5, "average_requests_per_second": 1}})
    return document


def with_loan_sort_key_by_due_date() -> dict[str, Any]:
    """The Loan sort key becomes LOAN#{dueDate}#{loanId}: loans of a member sorted by due date."""
    document = copy.deepcopy(library_document())
    document["key_design"]["entities"][1]["table"]["sort_key"] = "LOAN#{dueDate}#{loanId}"
    return document


def with_branch_partition_key() -> dict[str, Any]:
    """The table's partition key attribute becomes `pk` (a new table); the Loans sort by due date; a new GSI
    `ByBranch` lists the members of a branch."""
    document = copy.deepcopy(library_document())
    design = document["key_design"]
    design["partition_key"] = {"name": "pk"}
    design["global_secondary_indexes"] = [
        {"name": "ByBranch", "partition_key": {"name": "GSI1PK"}, "sort_key": {"name": "GSI1SK"}}]
    design["entities"][0]["indexes"] = {"ByBranch": {"partition_key": "BRANCH#{branch}",
                                                     "sort_key": "MEMBER#{memberId}"}}
    design["entities"][1]["table"] = {"partition_key": "MEMBER#{memberId}", "sort_key": "LOAN#{dueDate}#{loanId}"}
    document["access_patterns"].append(
        {"name": "list_members_by_branch", "kind": "read_many", "entities": ["Member"], "inputs": ["branch"],
         "expected_items": 100, "traffic": {"peak_requests_per_second": 2, "average_requests_per_second": 1}})
    return document
