"""Small models whose reads share partitions with other entities (issue 28.4), for the DDS206 tests.

`books_model`: books and their titles share the ISBN's partition; `orders_model`: orders and their items share the
customer's partition, with the classic `ORDER#` / `ORDER#ITEM#` sort keys; `repo_model`: a repository with four
kinds of children in its partition. Each takes an optional key design so a test can state the layout it checks.
`small_models` draws models of that shape (a parent, children by a reference to it, reads by id, by parent and
of a parent with its children) for the hypothesis corpus.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from modeling.model import Model

_TRAFFIC = {"peak_requests_per_second": 20, "average_requests_per_second": 5}


def _uuid(name: str, unique: bool = True) -> dict[str, Any]:
    return {"name": name, "unique": unique, "avg_size_bytes": 12, "generator": {"kind": "uuid"}}


def _ref(name: str, entity: str, attribute: str) -> dict[str, Any]:
    return {"name": name, "avg_size_bytes": 12, "generator": {"kind": "reference", "entity": entity,
                                                               "attribute": attribute}}


def _text(name: str, size: int = 20) -> dict[str, Any]:
    return {"name": name, "avg_size_bytes": size, "generator": {"kind": "text", "length_bytes": size}}


def _read(name: str, kind: str, entities: list[str], inputs: list[str], expected: float = 1.0) -> dict[str, Any]:
    return {"name": name, "kind": kind, "entities": entities, "inputs": inputs, "expected_items": expected,
            "traffic": _TRAFFIC}


def _one_to_many(parent: str, child: str, attribute: str, mean: float, maximum: int) -> dict[str, Any]:
    return {"name": f"{parent.lower()}_{child.lower()}s", "kind": "one_to_many", "parent": parent, "child": child,
            "child_attributes": [attribute], "cardinality": {"mean": mean, "max": maximum}}


def _model(name: str, entities: list[dict[str, Any]], relationships: list[dict[str, Any]],
           patterns: list[dict[str, Any]], key_design: dict[str, Any] | None) -> Model:
    document: dict[str, Any] = {"name": name, "table": {"name": name.lower().replace(" ", "-")},
                                "entities": entities, "relationships": relationships, "access_patterns": patterns}
    if key_design is not None:
        document["key_design"] = key_design
    return Model.model_validate(document)


def books_model(key_design: dict[str, Any] | None = None) -> Model:
    """Books and their titles (one per language), both read by ISBN."""
    return _model("Books", [
        {"name": "Book", "item_count": 2000, "identifiers": ["isbn"],
         "attributes": [_uuid("isbn"), _text("author"), _text("publisher")]},
        {"name": "Title", "item_count": 6000, "identifiers": ["isbn", "language"],
         "attributes": [_ref("isbn", "Book", "isbn"),
                        {"name": "language", "avg_size_bytes": 2,
                         "generator": {"kind": "enum", "values": ["en", "fr", "de", "es"]}},
                        _text("title", 40)]},
    ], [_one_to_many("Book", "Title", "isbn", 3, 4)], [
        _read("get_book_detail_by_isbn", "read_one", ["Book"], ["isbn"]),
        _read("list_titles_by_isbn", "read_many", ["Title"], ["isbn"], 3),
    ], key_design)


def titles_model(title_sort_key: str) -> Model:
    """Books and their titles keyed by language and edition, where one language code starts another (`en`,
    `en-GB`); the titles of a book in one language are read by ISBN and language."""
    model = books_model(keyed({"Book": ("ISBN#{isbn}", "BOOK"), "Title": ("ISBN#{isbn}", title_sort_key)}))
    document = model.model_dump(mode="json", exclude_none=True)
    title = next(e for e in document["entities"] if e["name"] == "Title")
    title["identifiers"] = ["isbn", "language", "edition"]
    title["attributes"] = [_ref("isbn", "Book", "isbn"),
                           {"name": "language", "avg_size_bytes": 4,
                            "generator": {"kind": "enum", "values": ["en", "en-GB", "fr", "fr-CA"]}},
                           {"name": "edition", "avg_size_bytes": 1,
                            "generator": {"kind": "int_range", "min": 1, "max": 9}}, _text("title", 40)]
    document["access_patterns"].append(
        _read("list_titles_by_isbn_and_language", "read_many", ["Title"], ["isbn", "language"], 1))
    return Model.model_validate(document)


def orders_model(key_design: dict[str, Any] | None = None) -> Model:
    """Customers' orders and order items; orders listed by customer, items by order."""
    return _model("Orders", [
        {"name": "Customer", "item_count": 500, "identifiers": ["customerId"],
         "attributes": [_uuid("customerId"), _text("name")]},
        {"name": "Order", "item_count": 2000, "identifiers": ["orderId"],
         "attributes": [_uuid("orderId"), _ref("customerId", "Customer", "customerId"), _text("status", 8)]},
        {"name": "OrderItem", "item_count": 8000, "identifiers": ["orderId", "itemId"],
         "attributes": [_ref("orderId", "Order", "orderId"), _ref("customerId", "Customer", "customerId"),
                        _uuid("itemId", unique=False), _text("description")]},
    ], [_one_to_many("Customer", "Order", "customerId", 4, 12), _one_to_many("Order", "OrderItem", "orderId", 4, 8)], [
        _read("get_customer", "read_one", ["Customer"], ["customerId"]),
        _read("list_orders_by_customer", "read_many", ["Order"], ["customerId"], 4),
        _read("list_order_items_by_order_id", "read_many", ["OrderItem"], ["orderId"], 4),
    ], key_design)


def keyed(entities: dict[str, tuple[str, str]], gsis: dict[str, dict[str, tuple[str, str]]] | None = None,
          key_names: dict[str, tuple[str, str]] | None = None) -> dict[str, Any]:
    """A key design: entity -> (PK, SK) templates on the table, and per GSI entity -> (PK, SK); a GSI's key
    attributes are named GSI1PK / GSI1SK unless `key_names` names them (plain attributes: `customerId`)."""
    gsis, key_names = gsis or {}, key_names or {}
    return {
        "partition_key": {"name": "PK"}, "sort_key": {"name": "SK"},
        "global_secondary_indexes": [{"name": name, "partition_key": {"name": key_names.get(name, (f"{name}PK",))[0]},
                                      "sort_key": {"name": key_names.get(name, ("", f"{name}SK"))[1]}}
                                     for name in gsis],
        "entities": [{"entity": entity, "table": {"partition_key": pk, "sort_key": sk},
                      "indexes": {name: {"partition_key": on[entity][0], "sort_key": on[entity][1]}
                                  for name, on in gsis.items() if entity in on}}
                     for entity, (pk, sk) in entities.items()],
    }


@st.composite
def small_models(draw: st.DrawFn) -> Model:
    """A parent with one to three child kinds (each keyed by its own id and a reference to the parent), read by
    id, by parent, and as a parent with one kind of child; sizes and counts small enough to load in a Preview."""
    kinds = ["Comment", "Like", "Tag", "PostTag", "PostLike", "Share"]  # PostTag: a label that extends POST
    children = draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3, unique=True))
    parent = draw(st.sampled_from(["Post", "Album", "Project"]))
    pid = f"{parent.lower()}Id"
    parents = draw(st.integers(20, 60))
    entities = [{"name": parent, "item_count": parents, "identifiers": [pid],
                 "attributes": [_uuid(pid), _text("title")]}]
    relationships, patterns = [], [_read(f"get_{parent.lower()}", "read_one", [parent], [pid])]
    for child in children:
        cid = f"{child.lower()}Id"
        mean = draw(st.integers(1, 4))
        entities.append({"name": child, "item_count": parents * mean, "identifiers": [cid],
                         "attributes": [_uuid(cid), _ref(pid, parent, pid), _text("body")]})
        relationships.append(_one_to_many(parent, child, pid, mean, mean * 3))
        patterns.append(_read(f"get_{child.lower()}", "read_one", [child], [cid]))
        if draw(st.booleans()):
            patterns.append(_read(f"list_{child.lower()}s_by_{parent.lower()}", "read_many", [child], [pid], mean))
    together = draw(st.sampled_from(children))
    patterns.append(_read(f"get_{parent.lower()}_with_{together.lower()}s", "read_many", [parent, together], [pid],
                          1 + mean))
    return _model(f"{parent} corpus", entities, relationships, patterns, None)


def repo_model(key_design: dict[str, Any] | None = None) -> Model:
    """A repository with issues, pull requests and stars in its partition; each read with the repository."""
    children = {"Issue": "issueNumber", "PullRequest": "prNumber", "Star": "username"}
    entities = [{"name": "Repo", "item_count": 40, "identifiers": ["repoName"],
                 "attributes": [_uuid("repoName"), _text("description")]}]
    relationships, patterns = [], []
    for child, cid in children.items():
        entities.append({"name": child, "item_count": 160, "identifiers": ["repoName", cid],
                         "attributes": [_ref("repoName", "Repo", "repoName"), _uuid(cid, unique=False), _text("body")]})
        relationships.append(_one_to_many("Repo", child, "repoName", 4, 10))
        patterns.append(_read(f"get_repo_with_{child.lower()}s", "read_many", ["Repo", child], ["repoName"], 5))
    return _model("Repos", entities, relationships, patterns, key_design)
