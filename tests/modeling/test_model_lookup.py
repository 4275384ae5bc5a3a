"""Model.entity and Model.access_pattern look names up in an index built once per model (validation and the
checks were quadratic in the entities, issue 15 finding 13), and the index never outlives its tuple."""

from __future__ import annotations

from modeling.model import Model

TRAFFIC = {"peak_requests_per_second": 1, "average_requests_per_second": 1}


def _model() -> Model:
    return Model.model_validate({
        "name": "Lookup", "table": {"name": "lookup"},
        "entities": [{"name": name, "item_count": 1, "attributes": [{"name": "id"}]} for name in ("A", "B", "C")],
        "access_patterns": [{"name": "get_a", "kind": "read_one", "entities": ["A"], "traffic": TRAFFIC}]})


def test_lookups_find_each_name_and_nothing_else() -> None:
    model = _model()
    assert [model.entity(n).name for n in ("A", "B", "C")] == ["A", "B", "C"]
    assert model.entity("D") is None and model.access_pattern("get_b") is None
    assert model.access_pattern("get_a").entities == ("A",)


def test_a_copy_with_other_entities_does_not_use_the_originals_index() -> None:
    model = _model()
    assert model.entity("C") is not None  # builds the index
    copy = model.model_copy(update={"entities": model.entities[:1]})
    assert copy.entity("C") is None and copy.entity("A") is model.entities[0]
    assert model.entity("C") is model.entities[2]


def test_the_index_changes_neither_equality_nor_the_dump() -> None:
    model, fresh = _model(), _model()
    model.entity("A")
    assert model == fresh
    assert model.model_dump_json() == fresh.model_dump_json()


def test_access_paths_are_kept_with_their_design_and_rebuilt_for_a_copy() -> None:
    from modeling.design.generator import rule_based_designs
    from modeling.design.planner import access_paths

    model = Model.model_validate({
        "name": "Paths", "table": {"name": "paths"},
        "entities": [{"name": n, "item_count": 1, "identifiers": ["id"], "attributes": [{"name": "id"}]}
                     for n in ("A", "B")],
        "access_patterns": [{"name": f"get_{n.lower()}", "kind": "read_one", "entities": [n], "inputs": ["id"],
                             "traffic": TRAFFIC} for n in ("A", "B")]})
    key_design = rule_based_designs(model)[0].key_design
    first = access_paths(key_design)
    assert access_paths(key_design) == first and set(first[0].templates) == {"A", "B"}
    copy = key_design.model_copy(update={"entities": key_design.entities[:1]})
    assert set(access_paths(copy)[0].templates) == {key_design.entities[0].entity}
