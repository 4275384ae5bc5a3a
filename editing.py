"""Editing a model document through tables: sections flattened to rows and edits applied back.

The Model page shows entities, attributes, relationships and access patterns as editable tables.
These functions turn a section of the document into rows (one flat dict per row, the columns the
table shows) and apply a table's edits (`edited_rows`, `added_rows`, `deleted_rows`, the shape
Streamlit's data editor reports) back onto the document. They work on plain documents, valid or
not, so a value that fails validation is kept and shown with its problem, never dropped.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Collection
from typing import Any

from modeling.model import FORMAT_NAME, FORMAT_VERSION

Row = dict[str, Any]
Document = dict[str, Any]

ENTITY_COLUMNS = ("name", "description", "item_count", "monthly_growth_percent")
ATTRIBUTE_COLUMNS = ("name", "type", "identifier", "required", "unique", "avg_size_bytes",
                     "max_size_bytes", "generator", "description")
RELATIONSHIP_COLUMNS = ("name", "kind", "parent", "child", "child_attributes", "cardinality_mean",
                        "cardinality_max", "cardinality_distribution", "distribution_parameter")
PATTERN_COLUMNS = ("name", "kind", "entities", "inputs", "range_attribute", "range_operator",
                   "sort_order", "filters", "page_size", "consistency", "expected_items",
                   "changed_attributes", "peak_requests_per_second", "average_requests_per_second",
                   "description")

# What a new grid row starts with in its select cells, so a row is never held back for an empty
# required cell (the grid would drop it silently). A row holding only these is not yet content.
ATTRIBUTE_TYPE_DEFAULT = "S"
RELATIONSHIP_KIND_DEFAULT = "one_to_many"
PATTERN_KIND_DEFAULT = "read_one"
INDEX_KIND_DEFAULT = "GSI"
UPDATE_ACTION_DEFAULT = "SET"
CONDITION_KIND_DEFAULT = "compare"
MEMBER_ACTION_DEFAULT = "Update"
_PRESET_CELLS: dict[str, Collection[object]] = {"type": {ATTRIBUTE_TYPE_DEFAULT}, "required": {True},
                 "kind": {RELATIONSHIP_KIND_DEFAULT, PATTERN_KIND_DEFAULT, INDEX_KIND_DEFAULT, CONDITION_KIND_DEFAULT},
                 "action": {UPDATE_ACTION_DEFAULT, MEMBER_ACTION_DEFAULT}}


def starter_document(model_name: str, entity_name: str, id_attribute: str, item_count: int,
                     peak_requests_per_second: float) -> Document:
    """A first model from four answers: one entity with its id, and the pattern that reads it by id.

    Defaults a new user can keep: average traffic a fifth of the peak, the id a string.
    """
    document = new_document(model_name, slug_name(model_name))
    document["entities"] = [{"name": entity_name, "item_count": item_count, "identifiers": [id_attribute],
                             "attributes": [{"name": id_attribute, "type": ATTRIBUTE_TYPE_DEFAULT}]}]
    document["access_patterns"] = [{
        "name": f"get_{snake_name(entity_name)}_by_{snake_name(id_attribute)}", "kind": PATTERN_KIND_DEFAULT,
        "entities": [entity_name], "inputs": [id_attribute],
        "traffic": {"peak_requests_per_second": peak_requests_per_second,
                    "average_requests_per_second": round(peak_requests_per_second / 5, 3)}}]
    return document


def slug_name(text: str) -> str:
    """A table name from a model name: 'Support desk' -> 'support-desk'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "model"


def snake_name(text: str) -> str:
    """'OrderItem' -> 'order_item', 'ticket id' -> 'ticket_id'."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text.strip())
    return re.sub(r"[^a-zA-Z0-9]+", "_", spaced).strip("_").lower() or "item"


def new_document(name: str, table_name: str) -> Document:
    """The smallest valid model: a name and a table."""
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "name": name,
            "table": {"name": table_name, "region": "us-east-1"}, "entities": [],
            "relationships": [], "access_patterns": []}


# --- cell values ---------------------------------------------------------------------------------


def clean_cell(value: Any) -> Any:
    """None for empty cells (None, NaN, blank text); whole floats become ints; text is stripped."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if hasattr(value, "tolist"):  # numpy scalars and arrays from the data editor
        return clean_cell(value.tolist())
    if isinstance(value, list | tuple):
        return [v for v in (clean_cell(item) for item in value) if v is not None]
    return value


def _set(target: dict[str, Any], key: str, value: Any) -> None:
    """Set a field, or remove it when the cell is empty (so the default applies)."""
    value = clean_cell(value)
    if value is None or value == []:
        target.pop(key, None)
    else:
        target[key] = value


# --- applying table edits ------------------------------------------------------------------------


def apply_table_edits(items: list[dict[str, Any]], edits: dict[str, Any],
                      to_row: Callable[[dict[str, Any]], Row],
                      from_row: Callable[[Row, dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply data-editor edits to a list of document items.

    `edited_rows` maps a row position to changed cells, `deleted_rows` lists positions and
    `added_rows` lists new rows. Fields a table does not show (an entity's attributes) survive.
    """
    result = [copy.deepcopy(item) for item in items]
    for position, changes in (edits.get("edited_rows") or {}).items():
        index = int(position)
        if 0 <= index < len(result):
            result[index] = from_row(number_cells({**to_row(result[index]), **changes}), result[index])
    deleted = {int(p) for p in edits.get("deleted_rows") or []}
    result = [item for index, item in enumerate(result) if index not in deleted]
    for added in edits.get("added_rows") or []:
        if has_content(added):
            result.append(from_row(number_cells(dict(added)), {}))
    return result


# Numbers are typed into text cells: the grid's number editor drops the keystrokes typed while it opens
# (typing "1500" fast into a selected cell saved 500, or nothing; text cells keep every key). The text
# is read here; text that is not a number is kept as typed, and validation says what is wrong.
NUMBER_COLUMNS = frozenset({
    "item_count", "monthly_growth_percent", "avg_size_bytes", "max_size_bytes", "cardinality_mean",
    "cardinality_max", "distribution_parameter", "page_size", "expected_items", "peak_requests_per_second",
    "average_requests_per_second"})
_NUMBER_TEXT = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def number_cell(value: Any) -> Any:
    """'1,500' -> 1500, '2.5' -> 2.5, '' -> None; numbers pass; other text is returned as typed."""
    if not isinstance(value, str):
        return value
    text = value.strip().replace(",", "").replace("_", "").replace(" ", "")
    if not text:
        return None
    if not _NUMBER_TEXT.match(text):
        return value.strip()
    number = float(text)
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def number_cells(row: Row) -> Row:
    return {column: number_cell(value) if column in NUMBER_COLUMNS else value for column, value in row.items()}


def number_text(value: Any) -> str | None:
    """How a text cell shows a number: 6000000 -> '6,000,000', 0.5 -> '0.5', None -> None."""
    value = clean_cell(value)
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return format(value, ",.15g")
    return str(value)


def rows_for_text_cells(rows: list[Row]) -> list[Row]:
    """Rows with their number columns as text, for a grid that shows them in text cells."""
    return [{column: number_text(value) if column in NUMBER_COLUMNS else value for column, value in row.items()}
            for row in rows]


def _mapping(entry: dict[str, Any], key: str) -> dict[str, Any]:
    """entry[key] itself when it is a mapping (a hand-edited file may hold anything there), else an empty one."""
    value = entry.get(key)
    return value if isinstance(value, dict) else {}


def has_content(row: Row) -> bool:
    """Whether a new row holds anything the user typed (not only empty cells and preset defaults)."""
    return any(clean_cell(value) not in (None, [], False) and clean_cell(value) not in _PRESET_CELLS.get(column, ())
               for column, value in row.items())


def edit_section(document: Document, section: str, edits: dict[str, Any],
                 to_row: Callable[[dict[str, Any]], Row],
                 from_row: Callable[[Row, dict[str, Any]], dict[str, Any]]) -> Document:
    """A new document whose list `section` has the edits applied."""
    updated = copy.deepcopy(document)
    items = [i for i in updated.get(section) or [] if isinstance(i, dict)]
    updated[section] = apply_table_edits(items, edits, to_row, from_row)
    return updated


# --- entities ------------------------------------------------------------------------------------


def entity_to_row(entity: dict[str, Any]) -> Row:
    return {column: entity.get(column) for column in ENTITY_COLUMNS}


def entity_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    entity = copy.deepcopy(original)
    entity.setdefault("attributes", [])
    for column in ENTITY_COLUMNS:
        _set(entity, column, row.get(column))
    return entity


def edit_entities(document: Document, edits: dict[str, Any]) -> Document:
    return edit_section(document, "entities", edits, entity_to_row, entity_from_row)


def entity_names(document: Document) -> list[str]:
    return [str(e["name"]) for e in _items(document, "entities") if e.get("name")]


def attribute_names(document: Document, entities: list[str] | None = None) -> list[str]:
    """Attribute names of the given entities (all when None), in order, without repeats."""
    names: list[str] = []
    for entity in _items(document, "entities"):
        if entities is None or entity.get("name") in entities:
            for attribute in entity.get("attributes") or []:
                if isinstance(attribute, dict) and attribute.get("name") and attribute["name"] not in names:
                    names.append(str(attribute["name"]))
    return names


# --- attributes ----------------------------------------------------------------------------------


def attribute_rows(document: Document, entity_name: str) -> list[Row]:
    entity = _entity(document, entity_name)
    identifiers = set(entity.get("identifiers") or []) if entity else set()
    return [attribute_to_row(a, identifiers) for a in _attributes(entity)]


def attribute_to_row(attribute: dict[str, Any], identifiers: set[str] | None = None) -> Row:
    row = {column: attribute.get(column) for column in ATTRIBUTE_COLUMNS}
    row["type"] = attribute.get("type", "S")
    row["required"] = attribute.get("required", True)
    row["unique"] = attribute.get("unique", False)
    row["identifier"] = attribute.get("name") in (identifiers or set())
    row["generator"] = describe_generator(attribute.get("generator"))
    return row


def attribute_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    attribute = copy.deepcopy(original)
    for column in ("name", "type", "avg_size_bytes", "max_size_bytes", "description"):
        _set(attribute, column, row.get(column))
    for column, default in (("required", True), ("unique", False)):
        value = clean_cell(row.get(column))
        if value is None or bool(value) == default:
            attribute.pop(column, None)
        else:
            attribute[column] = bool(value)
    return attribute


def edit_attributes(document: Document, entity_name: str, edits: dict[str, Any]) -> Document:
    """Apply attribute-table edits to one entity, including its identifier checkboxes."""
    updated = copy.deepcopy(document)
    entity = _entity(updated, entity_name)
    if entity is None:
        return updated
    identifiers = set(entity.get("identifiers") or [])
    old = _attributes(entity)
    rows_before = [attribute_to_row(a, identifiers) for a in old]
    entity["attributes"] = apply_table_edits(old, edits, lambda a: attribute_to_row(a, identifiers),
                                             attribute_from_row)
    rows_after = _rows_after(rows_before, edits)
    chosen = [r.get("name") for r in rows_after if clean_cell(r.get("identifier")) and clean_cell(r.get("name"))]
    _set(entity, "identifiers", [clean_cell(n) for n in chosen])
    return updated


def _rows_after(rows: list[Row], edits: dict[str, Any]) -> list[Row]:
    result = [dict(r) for r in rows]
    for position, changes in (edits.get("edited_rows") or {}).items():
        if 0 <= int(position) < len(result):
            result[int(position)].update(changes)
    deleted = {int(p) for p in edits.get("deleted_rows") or []}
    return [r for i, r in enumerate(result) if i not in deleted] + list(edits.get("added_rows") or [])


def set_generator(document: Document, entity_name: str, attribute_name: str,
                  generator: dict[str, Any] | None) -> Document:
    updated = copy.deepcopy(document)
    for attribute in _attributes(_entity(updated, entity_name)):
        if attribute.get("name") == attribute_name:
            _set(attribute, "generator", generator)
    return updated


def describe_generator(spec: Any) -> str:
    """One line for a generator spec, e.g. `enum(OPEN, CLOSED; zipf 1.2)`."""
    if not isinstance(spec, dict):
        return ""
    kind = str(spec.get("kind", "?"))
    details = [f"{k}={v}" for k, v in spec.items() if k not in ("kind", "distribution", "values")]
    if isinstance(spec.get("values"), list):
        details.insert(0, ", ".join(map(str, spec["values"][:6])) + (" ..." if len(spec["values"]) > 6 else ""))
    distribution = spec.get("distribution")
    if isinstance(distribution, dict) and distribution.get("kind", "uniform") != "uniform":
        parameter = distribution.get("exponent", distribution.get("share", ""))
        details.append(f"{distribution['kind']} {parameter}".strip())
    return f"{kind}({'; '.join(details)})" if details else kind


# --- relationships -------------------------------------------------------------------------------


def relationship_to_row(relationship: dict[str, Any]) -> Row:
    cardinality = relationship.get("cardinality") or {}
    distribution = cardinality.get("distribution") or {}
    return {
        "name": relationship.get("name"), "kind": relationship.get("kind"),
        "parent": relationship.get("parent"), "child": relationship.get("child"),
        "child_attributes": list(relationship.get("child_attributes") or []),
        "cardinality_mean": cardinality.get("mean"), "cardinality_max": cardinality.get("max"),
        "cardinality_distribution": distribution.get("kind", "uniform"),
        "distribution_parameter": distribution.get("exponent", distribution.get("share")),
    }


def relationship_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    relationship = copy.deepcopy(original)
    for column in ("name", "kind", "parent", "child", "child_attributes"):
        _set(relationship, column, row.get(column))
    cardinality = dict(relationship.get("cardinality") or {})
    _set(cardinality, "mean", row.get("cardinality_mean"))
    _set(cardinality, "max", row.get("cardinality_max"))
    _set(cardinality, "distribution", distribution_from_cells(
        row.get("cardinality_distribution"), row.get("distribution_parameter")))
    _set(relationship, "cardinality", cardinality or None)
    return relationship


def distribution_from_cells(kind: Any, parameter: Any) -> dict[str, Any] | None:
    """(`zipf`, 1.2) -> {kind: zipf, exponent: 1.2}; uniform or empty -> None (the default)."""
    kind, parameter = clean_cell(kind), clean_cell(parameter)
    if kind in (None, "uniform"):
        return None
    field = {"zipf": "exponent", "hot_value": "share"}.get(str(kind))
    if isinstance(parameter, str):
        parameter = _typed(parameter)
    return {"kind": kind, field: parameter} if field and parameter is not None else {"kind": kind}


def edit_relationships(document: Document, edits: dict[str, Any]) -> Document:
    return edit_section(document, "relationships", edits, relationship_to_row, relationship_from_row)


# --- access patterns -----------------------------------------------------------------------------


def pattern_to_row(pattern: dict[str, Any]) -> Row:
    traffic = pattern.get("traffic") or {}
    condition = pattern.get("range_condition") or {}
    return {
        "name": pattern.get("name"), "kind": pattern.get("kind"),
        "entities": list(pattern.get("entities") or []), "inputs": list(pattern.get("inputs") or []),
        "range_attribute": condition.get("attribute"), "range_operator": condition.get("operator"),
        "sort_order": pattern.get("sort_order", "ascending"),
        "filters": format_filters(pattern.get("filters") or []),
        "page_size": pattern.get("page_size"), "consistency": pattern.get("consistency", "eventual"),
        "expected_items": pattern.get("expected_items", 1),
        "changed_attributes": list(pattern.get("changed_attributes") or []),
        "peak_requests_per_second": traffic.get("peak_requests_per_second"),
        "average_requests_per_second": traffic.get("average_requests_per_second"),
        "description": pattern.get("description"),
    }


def pattern_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    pattern = copy.deepcopy(original)
    for column in ("name", "kind", "entities", "inputs", "page_size", "changed_attributes", "description"):
        _set(pattern, column, row.get(column))
    for column, default in (("sort_order", "ascending"), ("consistency", "eventual"), ("expected_items", 1)):
        value = clean_cell(row.get(column))
        # a default shown in the table is not written back unless the document had it already
        _set(pattern, column, None if value == default and column not in original else value)
    condition = {"attribute": row.get("range_attribute"), "operator": row.get("range_operator")}
    # a half-filled condition is kept, so validation says what is missing
    _set(pattern, "range_condition", {k: v for k, v in condition.items() if clean_cell(v)} or None)
    _set(pattern, "filters", parse_filters(row.get("filters")))
    traffic = dict(pattern.get("traffic") or {})
    _set(traffic, "peak_requests_per_second", row.get("peak_requests_per_second"))
    _set(traffic, "average_requests_per_second", row.get("average_requests_per_second"))
    pattern["traffic"] = traffic
    return pattern


def edit_patterns(document: Document, edits: dict[str, Any]) -> Document:
    return edit_section(document, "access_patterns", edits, pattern_to_row, pattern_from_row)


def format_filters(filters: list[dict[str, Any]]) -> str:
    """[{attribute: status, equals: UNPAID}] -> 'status=UNPAID'."""
    return "; ".join(f"{f.get('attribute')}={f.get('equals')}" for f in filters if isinstance(f, dict))


def parse_filters(text: Any) -> list[dict[str, Any]]:
    """'status=UNPAID; archived=false' -> filters; numbers and booleans keep their type."""
    text = clean_cell(text)
    if not isinstance(text, str):
        return []
    filters = []
    for part in (p.strip() for p in text.split(";")):
        if part:
            attribute, _, value = part.partition("=")
            filters.append({"attribute": attribute.strip(), "equals": _typed(value.strip())})
    return filters


def _typed(value: str) -> Any:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    try:
        return int(value)
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        return value
    return number if math.isfinite(number) else value


# --- whole-document settings ---------------------------------------------------------------------


def with_fields(document: Document, section: str | None, fields: dict[str, Any]) -> Document:
    """Set top-level fields (section None) or fields of a mapping section such as `table`."""
    updated = copy.deepcopy(document)
    if section is None:
        target = updated
    else:
        target = updated.setdefault(section, {})
        if not isinstance(target, dict):
            target = updated[section] = {}
    for key, value in fields.items():
        _set(target, key, value)
    return updated


def _items(document: Document, section: str) -> list[dict[str, Any]]:
    items = document.get(section) or []
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _entity(document: Document, name: str) -> dict[str, Any] | None:
    return next((e for e in _items(document, "entities") if e.get("name") == name), None)


def _attributes(entity: dict[str, Any] | None) -> list[dict[str, Any]]:
    if entity is None or not isinstance(entity.get("attributes"), list):
        return []
    return [a for a in entity["attributes"] if isinstance(a, dict)]


# --- generator specs from a form -----------------------------------------------------------------

# Which form fields each generator kind uses, in display order.
GENERATOR_FORM_FIELDS: dict[str, tuple[str, ...]] = {
    "uuid": ("prefix",),
    "sequence": ("prefix", "start", "width"),
    "faker": ("provider",),
    "enum": ("values", "weights", "distribution", "distribution_parameter"),
    "int_range": ("min", "max", "distribution", "distribution_parameter"),
    "float_range": ("min", "max", "decimals", "distribution", "distribution_parameter"),
    "timestamp_range": ("start", "end", "format", "recent_bias"),
    "text": ("length_bytes",),
    "boolean": ("true_share",),
    "constant": ("value",),
    "reference": ("entity", "attribute", "distribution", "distribution_parameter"),
}


def generator_from_form(kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    """A generator spec from form fields; lists are typed as comma-separated text."""
    spec: dict[str, Any] = {"kind": kind}
    for field in GENERATOR_FORM_FIELDS.get(kind, ()):
        value = clean_cell(fields.get(field))
        if field in ("distribution", "distribution_parameter"):
            continue
        if field in ("values", "weights") and isinstance(value, str):
            items = [item.strip() for item in value.split(",") if item.strip()]
            value = items if field == "values" else [_typed(item) for item in items]
        elif isinstance(value, str) and _is_numeric_field(kind, field):
            value = _typed(value)  # typed text stays text when it is not a number: validation says so
        _set(spec, field, value)
    if "distribution" in GENERATOR_FORM_FIELDS.get(kind, ()):
        _set(spec, "distribution", distribution_from_cells(fields.get("distribution"),
                                                           fields.get("distribution_parameter")))
    return spec


_NUMERIC_FORM_FIELDS = {"min", "max", "width", "decimals", "length_bytes", "true_share", "recent_bias",
                        "value"}


def _is_numeric_field(kind: str, field: str) -> bool:
    return field in _NUMERIC_FORM_FIELDS or (kind == "sequence" and field == "start")


def attribute_generator(document: Document, entity_name: str, attribute_name: str) -> Any:
    return next((a.get("generator") for a in _attributes(_entity(document, entity_name))
                 if a.get("name") == attribute_name), None)


def traffic_profile_fields(shape: str, hourly_weights_text: str) -> dict[str, Any]:
    """Fields of `traffic_profile` from the form; weights are typed as comma-separated numbers."""
    weights = [_typed(w.strip()) for w in hourly_weights_text.split(",") if w.strip()]
    return {"shape": shape, "hourly_weights": weights if shape == "custom" else None}


def generator_form_values(spec: Any) -> dict[str, Any]:
    """The form fields that show an existing spec (the inverse of generator_from_form)."""
    if not isinstance(spec, dict):
        return {"kind": "uuid"}
    values = {k: v for k, v in spec.items() if k != "distribution"}
    for field in ("values", "weights"):
        if isinstance(values.get(field), list):
            values[field] = ", ".join(str(v) for v in values[field])
    distribution = spec.get("distribution") or {}
    values["distribution"] = distribution.get("kind", "uniform")
    values["distribution_parameter"] = distribution.get("exponent", distribution.get("share"))
    return values


# --- key design overrides ------------------------------------------------------------------------

TEMPLATE_COLUMNS = ("entity", "index", "partition_key", "sort_key", "only_when")
INDEX_COLUMNS = ("name", "kind", "partition_key", "sort_key", "projection", "non_key_attributes")
TABLE_PATH = "table"


def adopt_key_design(document: Document, key_design: dict[str, Any]) -> Document:
    """The document with this key design as its own (the user then overrides what they like)."""
    updated = copy.deepcopy(document)
    updated["key_design"] = copy.deepcopy(key_design)
    return updated


def drop_key_design(document: Document) -> Document:
    updated = copy.deepcopy(document)
    updated.pop("key_design", None)
    return updated


def _key_design(document: Document) -> dict[str, Any]:
    design = document.get("key_design")
    return design if isinstance(design, dict) else {}


def key_template_rows(document: Document) -> list[Row]:
    rows = []
    for keys in _key_design(document).get("entities") or []:
        if not isinstance(keys, dict):
            continue
        table = _mapping(keys, "table")
        rows.append({"entity": keys.get("entity"), "index": TABLE_PATH, "partition_key": table.get("partition_key"),
                     "sort_key": table.get("sort_key"), "only_when": ""})
        for index, templates in (keys.get("indexes") or {}).items():
            templates = templates if isinstance(templates, dict) else {}
            rows.append({"entity": keys.get("entity"), "index": index,
                         "partition_key": templates.get("partition_key"), "sort_key": templates.get("sort_key"),
                         "only_when": format_filters(templates.get("only_when") or [])})
    return rows


def edit_key_templates(document: Document, edits: dict[str, Any]) -> Document:
    """Apply template-table edits and rebuild `key_design.entities` from the rows. Lossless: what the table
    does not show (an entity's uniqueness items under `auxiliary`, say) is kept as it was; the stateful test
    (tests/pages/test_session_stateful.py) found a sort-key edit dropping `auxiliary`."""
    rows = apply_table_edits(key_template_rows(document), edits, dict, lambda row, original: {**original, **row})
    before = {keys.get("entity"): keys for keys in _key_design(document).get("entities") or []
              if isinstance(keys, dict)}
    entities: dict[str, dict[str, Any]] = {}
    for row in rows:
        entity = clean_cell(row.get("entity"))
        if entity is None:
            continue
        original = before.get(entity) or {}
        keys = entities.setdefault(entity, {**{k: copy.deepcopy(v) for k, v in original.items()
                                               if k not in ("table", "indexes")}, "entity": entity, "table": {}})
        index = clean_cell(row.get("index")) or TABLE_PATH
        shown = original.get("table") if index == TABLE_PATH else (original.get("indexes") or {}).get(index)
        templates: dict[str, Any] = copy.deepcopy(shown) if isinstance(shown, dict) else {}
        _set(templates, "partition_key", row.get("partition_key"))
        _set(templates, "sort_key", row.get("sort_key"))
        _set(templates, "only_when", parse_filters(row.get("only_when")))
        if index == TABLE_PATH:
            keys["table"] = templates
        else:
            keys.setdefault("indexes", {})[index] = templates
    updated = copy.deepcopy(document)
    updated.setdefault("key_design", {})["entities"] = list(entities.values())
    return updated


def index_definition_rows(document: Document) -> list[Row]:
    design = _key_design(document)
    rows = []
    for kind, section in (("GSI", "global_secondary_indexes"), ("LSI", "local_secondary_indexes")):
        for index in design.get(section) or []:
            if not isinstance(index, dict):
                continue
            projection = _mapping(index, "projection")
            rows.append({"name": index.get("name"), "kind": kind,
                         "partition_key": (index.get("partition_key") or {}).get("name"),
                         "sort_key": (index.get("sort_key") or {}).get("name"),
                         "projection": projection.get("type", "ALL"),
                         "non_key_attributes": list(projection.get("non_key_attributes") or [])})
    return rows


def edit_index_definitions(document: Document, edits: dict[str, Any]) -> Document:
    """Apply index-table edits; key attribute types are kept from before (S for new indexes)."""
    before = {str(i.get("name")): i for section in ("global_secondary_indexes", "local_secondary_indexes")
              for i in _key_design(document).get(section) or [] if isinstance(i, dict)}
    rows = apply_table_edits(index_definition_rows(document), edits, dict, lambda row, original: {**original, **row})
    sections: dict[str, list[dict[str, Any]]] = {"global_secondary_indexes": [], "local_secondary_indexes": []}
    for row in rows:
        name = clean_cell(row.get("name"))
        if name is None:
            continue
        old = before.get(name, {})
        index: dict[str, Any] = {"name": name}
        for key in ("partition_key", "sort_key"):
            attribute = clean_cell(row.get(key))
            if attribute is not None:
                index[key] = {**(old.get(key) or {}), "name": attribute}
        projection: dict[str, Any] = {"type": clean_cell(row.get("projection")) or "ALL"}
        _set(projection, "non_key_attributes", row.get("non_key_attributes"))
        index["projection"] = projection
        section = "local_secondary_indexes" if clean_cell(row.get("kind")) == "LSI" else "global_secondary_indexes"
        sections[section].append(index)
    updated = copy.deepcopy(document)
    design = updated.setdefault("key_design", {})
    for section, indexes in sections.items():
        _set(design, section, indexes)
    return updated


# --- write semantics (issue 27.6) ----------------------------------------------------------------
#
# A write pattern's condition, updates, transaction members and soft delete, and an entity's auxiliary items,
# as grid rows. A transaction keeps a condition and updates per member: their grids hold them all, each row
# naming its member by number ("1" is the first member, blank the pattern itself), and the rows go back to
# where they name. Values are kept as typed: one that fails validation is saved as it is and explained.

WRITE_KINDS = ("write", "update", "delete", "transact_write", "batch_write")
MEMBER_COLUMNS = ("number", "entity", "action", "key_inputs")
CONDITION_COLUMNS = ("member", "kind", "attribute", "operator", "value", "input")
UPDATE_COLUMNS = ("member", "attribute", "action", "value", "input", "amount", "negate")
SOFT_DELETE_COLUMNS = ("status_attribute", "status_value", "deleted_at_attribute", "expires_after_days",
                       "archive_entity")
AUXILIARY_COLUMNS = ("name", "kind", "relationship", "counter_attribute", "sum_of", "attributes",
                     "partition_key", "sort_key")
_SHORTHAND_CONDITIONS = ("attribute_not_exists", "attribute_exists")
_CONDITION_FIELDS = ("attribute", "operator", "input")


def write_pattern_names(document: Document) -> list[str]:
    """The patterns that write (their kind is a write kind), in model order."""
    return [str(p["name"]) for p in _items(document, "access_patterns")
            if p.get("name") and str(p.get("kind")) in WRITE_KINDS]


def is_transaction(document: Document, pattern_name: str) -> bool:
    """Whether the pattern's conditions and updates belong to members (a transact_write, or members given)."""
    pattern = _pattern(document, pattern_name)
    return pattern is not None and (pattern.get("kind") == "transact_write" or bool(_member_list(pattern)))


def constant_text(value: Any) -> str | None:
    """How a cell shows a constant: available, 1, 2.5, true; text that would read as another type or has
    outer spaces in double quotes ("1", "true"), so that what is shown reads back as the same value."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    plain_text = text == text.strip() and text != "" and not text.startswith('"')
    return text if plain_text and _typed(text) == text and isinstance(_typed(text), str) else json.dumps(text)


def constant_value(text: Any) -> Any:
    """A constant from its cell: "1" (quoted) is text, 1 a number, true a boolean, other text itself."""
    if not isinstance(text, str):
        return clean_cell(text)
    stripped = text.strip()
    if len(stripped) >= 2 and stripped.startswith('"') and stripped.endswith('"'):
        try:
            loaded = json.loads(stripped)
        except ValueError:
            return stripped[1:-1]
        return loaded if isinstance(loaded, str) else stripped
    return _typed(stripped) if stripped else None


def _set_constant(target: dict[str, Any], key: str, cell: Any) -> None:
    value = constant_value(cell)
    if value is None:
        target.pop(key, None)
    else:
        target[key] = value


def format_key_inputs(key_inputs: Any) -> str | None:
    """{studentId: fromStudentId} -> 'studentId=fromStudentId'."""
    if not isinstance(key_inputs, dict) or not key_inputs:
        return None
    return "; ".join(f"{attribute}={source}" for attribute, source in key_inputs.items())


def parse_key_inputs(text: Any) -> dict[str, str]:
    """'studentId=fromStudentId; courseId=toCourseId' -> a mapping; a name without '=' maps to nothing (kept,
    so validation says what is missing)."""
    text = clean_cell(text)
    if not isinstance(text, str):
        return {}
    pairs = {}
    for part in (p.strip() for p in re.split(r"[;,]", text)):
        if part:
            attribute, _, source = part.partition("=")
            pairs[attribute.strip()] = source.strip()
    return pairs


def _pattern(document: Document, name: str) -> dict[str, Any] | None:
    return next((p for p in _items(document, "access_patterns") if p.get("name") == name), None)


def _member_list(pattern: dict[str, Any]) -> list[Any]:
    members = pattern.get("members")
    return members if isinstance(members, list) else []


def _held(value: Any) -> list[Any]:
    """A field that holds one condition (or soft delete) as a list of them: none, one, or the several a grid was
    given (saved as a list, which validation refuses with its own message, so no row typed is dropped)."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _hold(target: dict[str, Any], key: str, values: list[Any]) -> None:
    if not values:
        target.pop(key, None)
    else:
        target[key] = values[0] if len(values) == 1 else values


def _targets(pattern: dict[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
    """Where conditions and updates live: the pattern (label None), then each member ("1", "2" ...)."""
    return [(None, pattern), *((str(i + 1), m) for i, m in enumerate(_member_list(pattern)) if isinstance(m, dict))]


def _entries(pattern: dict[str, Any], field: str) -> list[dict[str, Any]]:
    entries = []
    for label, target in _targets(pattern):
        entries += [{"member": label, "value": value} for value in _held(target.get(field))]
    return entries


def _regroup(pattern: dict[str, Any], field: str, entries: list[dict[str, Any]]) -> None:
    """Put each entry back where its member label says (an unknown label: on the pattern, never dropped)."""
    targets = dict(_targets(pattern))
    grouped: dict[str | None, list[Any]] = {label: [] for label in targets}
    for entry in entries:
        label = clean_cell(entry.get("member"))
        label = str(label) if label is not None else None
        grouped[label if label in targets else None].append(entry["value"])
    for label, target in targets.items():
        if field == "condition":
            _hold(target, field, grouped[label])
        elif grouped[label]:
            target[field] = grouped[label]
        else:
            target.pop(field, None)


def _edit_pattern(document: Document, pattern_name: str, change: Callable[[dict[str, Any]], None]) -> Document:
    updated = copy.deepcopy(document)
    pattern = _pattern(updated, pattern_name)
    if pattern is not None:
        change(pattern)
    return updated


# members

def write_semantics_attributes(document: Document, pattern_name: str) -> list[str]:
    """Attributes a condition or update of the pattern may name: its entities' and its members' entities'."""
    pattern = _pattern(document, pattern_name) or {}
    entities = [str(e) for e in pattern.get("entities") or [] if isinstance(e, str)]
    entities += [str(m.get("entity")) for m in _member_list(pattern) if isinstance(m, dict) and m.get("entity")]
    return attribute_names(document, entities)


def pattern_inputs(document: Document, pattern_name: str) -> list[str]:
    pattern = _pattern(document, pattern_name) or {}
    inputs = pattern.get("inputs")
    return [str(i) for i in inputs if isinstance(i, str)] if isinstance(inputs, list) else []


def pattern_kind(document: Document, pattern_name: str) -> str:
    return str((_pattern(document, pattern_name) or {}).get("kind", ""))


def has_write_field(document: Document, pattern_name: str, field: str) -> bool:
    """Whether the pattern or one of its members holds `field` (a grid for it is shown whatever the kind)."""
    pattern = _pattern(document, pattern_name) or {}
    return any(field in target for _, target in _targets(pattern))


def write_member_rows(document: Document, pattern_name: str) -> list[Row]:
    pattern = _pattern(document, pattern_name)
    return [member_to_row(m, i) for i, m in enumerate(_member_list(pattern) if pattern else [])]


def member_to_row(member: Any, index: int) -> Row:
    member = member if isinstance(member, dict) else {}
    return {"number": str(index + 1), "entity": member.get("entity"), "action": member.get("action"),
            "key_inputs": format_key_inputs(member.get("key_inputs"))}


def member_from_row(row: Row, original: Any) -> dict[str, Any]:
    member = copy.deepcopy(original) if isinstance(original, dict) else {}
    _set(member, "entity", row.get("entity"))
    _set(member, "action", row.get("action"))
    pairs = parse_key_inputs(row.get("key_inputs"))
    if pairs:
        member["key_inputs"] = pairs
    else:
        member.pop("key_inputs", None)
    return member


def edit_write_members(document: Document, pattern_name: str, edits: dict[str, Any]) -> Document:
    def change(pattern: dict[str, Any]) -> None:
        # the number is shown, never typed (a member's number is its place), so edits are read without it
        pattern["members"] = apply_table_edits(_member_list(pattern), edits, lambda m: member_to_row(m, 0),
                                               member_from_row)
        if not pattern["members"]:
            pattern.pop("members")
    return _edit_pattern(document, pattern_name, change)


# conditions

def write_condition_rows(document: Document, pattern_name: str) -> list[Row]:
    pattern = _pattern(document, pattern_name)
    return [condition_to_row(e) for e in (_entries(pattern, "condition") if pattern else [])]


def condition_to_row(entry: dict[str, Any]) -> Row:
    condition = entry.get("value")
    row: Row = {"member": entry.get("member"), "kind": None, "attribute": None, "operator": None, "value": None,
                "input": None}
    if isinstance(condition, str):
        row["kind"] = condition
    elif isinstance(condition, dict):
        row.update({field: condition.get(field) for field in _CONDITION_FIELDS})
        row["kind"] = condition.get("kind", CONDITION_KIND_DEFAULT)
        row["value"] = constant_text(condition.get("value"))
    return row


def condition_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    """A condition as a file writes it: `attribute_not_exists` alone, `{kind: version_matches, attribute:
    version}`, or the compare form without its kind (`{attribute: status, operator: '=', value: available}`)."""
    before = original.get("value")
    kind = clean_cell(row.get("kind"))
    condition: dict[str, Any] = {k: v for k, v in before.items() if k not in ("kind", "value", *_CONDITION_FIELDS)} \
        if isinstance(before, dict) else {}
    if kind is not None and (kind != CONDITION_KIND_DEFAULT or (isinstance(before, dict) and "kind" in before)):
        condition["kind"] = kind
    for field in _CONDITION_FIELDS:
        _set(condition, field, row.get(field))
    _set_constant(condition, "value", row.get("value"))
    value: Any = condition
    if kind in _SHORTHAND_CONDITIONS and list(condition) == ["kind"] and not isinstance(before, dict):
        value = kind
    return {"member": clean_cell(row.get("member")), "value": value}


def edit_write_conditions(document: Document, pattern_name: str, edits: dict[str, Any]) -> Document:
    return _edit_member_field(document, pattern_name, "condition", edits, condition_to_row, condition_from_row)


def _edit_member_field(document: Document, pattern_name: str, field: str, edits: dict[str, Any],
                       to_row: Callable[[dict[str, Any]], Row],
                       from_row: Callable[[Row, dict[str, Any]], dict[str, Any]]) -> Document:
    """A grid's edits to a field the pattern and its members both hold (`condition`, `updates`), regrouped."""
    def change(pattern: dict[str, Any]) -> None:
        _regroup(pattern, field, apply_table_edits(_entries(pattern, field), edits, to_row, from_row))
    return _edit_pattern(document, pattern_name, change)


# updates

def write_update_rows(document: Document, pattern_name: str) -> list[Row]:
    pattern = _pattern(document, pattern_name)
    return [update_to_row(e) for e in (_entries(pattern, "updates") if pattern else [])]


def update_to_row(entry: dict[str, Any]) -> Row:
    update = _mapping(entry, "value")
    amount = update.get("amount")
    return {"member": entry.get("member"), "attribute": update.get("attribute"),
            "action": update.get("action", UPDATE_ACTION_DEFAULT), "value": constant_text(update.get("value")),
            "input": update.get("input"), "amount": None if amount is None else str(amount),
            "negate": bool(update.get("negate", False))}


def update_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    before = _mapping(original, "value")
    update = copy.deepcopy(before)
    _set(update, "attribute", row.get("attribute"))
    action = clean_cell(row.get("action"))
    _set(update, "action", None if action == UPDATE_ACTION_DEFAULT and "action" not in before else action)
    _set_constant(update, "value", row.get("value"))
    _set(update, "input", row.get("input"))
    _set(update, "amount", number_cell(clean_cell(row.get("amount"))))
    if clean_cell(row.get("negate")):
        update["negate"] = True
    elif "negate" in before:
        update["negate"] = False  # kept as the file wrote it
    else:
        update.pop("negate", None)
    return {"member": clean_cell(row.get("member")), "value": update}


def edit_write_updates(document: Document, pattern_name: str, edits: dict[str, Any]) -> Document:
    return _edit_member_field(document, pattern_name, "updates", edits, update_to_row, update_from_row)


# soft delete (the TTL it sets is the table's ttl_attribute, on the Table & traffic tab)

def soft_delete_rows(document: Document, pattern_name: str) -> list[Row]:
    pattern = _pattern(document, pattern_name)
    return [soft_delete_to_row(s) for s in (_held(pattern.get("soft_delete")) if pattern else [])]


def soft_delete_to_row(soft_delete: Any) -> Row:
    soft = soft_delete if isinstance(soft_delete, dict) else {}
    row = {column: soft.get(column) for column in SOFT_DELETE_COLUMNS}
    row["expires_after_days"] = None if soft.get("expires_after_days") is None else str(soft["expires_after_days"])
    return row


def soft_delete_from_row(row: Row, original: Any) -> dict[str, Any]:
    soft = copy.deepcopy(original) if isinstance(original, dict) else {}
    for column in SOFT_DELETE_COLUMNS:
        _set(soft, column, number_cell(row.get(column)) if column == "expires_after_days" else row.get(column))
    return soft


def edit_soft_delete(document: Document, pattern_name: str, edits: dict[str, Any]) -> Document:
    def change(pattern: dict[str, Any]) -> None:
        _hold(pattern, "soft_delete", apply_table_edits(_held(pattern.get("soft_delete")), edits,
                                                        soft_delete_to_row, soft_delete_from_row))
    return _edit_pattern(document, pattern_name, change)


# auxiliary items of an entity (uniqueness, aggregates, edge copies)

def auxiliary_rows(document: Document, entity_name: str) -> list[Row]:
    entity = _entity(document, entity_name)
    items = entity.get("auxiliary_items") if entity else None
    return [auxiliary_to_row(a) for a in (items if isinstance(items, list) else []) if isinstance(a, dict)]


def auxiliary_to_row(item: dict[str, Any]) -> Row:
    row = {column: item.get(column) for column in AUXILIARY_COLUMNS}
    row["attributes"] = list(item.get("attributes") or [])
    return row


def auxiliary_from_row(row: Row, original: dict[str, Any]) -> dict[str, Any]:
    item = copy.deepcopy(original)
    for column in AUXILIARY_COLUMNS:
        _set(item, column, row.get(column))
    return item


def edit_auxiliary_items(document: Document, entity_name: str, edits: dict[str, Any]) -> Document:
    updated = copy.deepcopy(document)
    entity = _entity(updated, entity_name)
    if entity is not None:
        items = entity.get("auxiliary_items")
        kept = [a for a in items if isinstance(a, dict)] if isinstance(items, list) else []
        _set(entity, "auxiliary_items", apply_table_edits(kept, edits, auxiliary_to_row, auxiliary_from_row))
    return updated
