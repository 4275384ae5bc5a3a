"""Widgets of the Model page: one function per tab. Edits go through `modeling.editing` and autosave.

Tables use `st.data_editor`. Each table's key carries a version number: when a table reports edits,
they are applied to the document and saved before anything renders, and the version moves on, so
the next editor starts from the saved document and an edit is never applied twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from modeling import editing
from modeling.errors import Problem, problems_under
from modeling.model import (
    GENERATOR_KINDS,
    AttributeType,
    BillingMode,
    Consistency,
    FakerProvider,
    PatternKind,
    RangeOperator,
    RelationshipKind,
    SortOrder,
    StreamViewType,
    TableClass,
    TimestampFormat,
    TrafficShape,
)
from ui import session
from ui.problems import show_problems

Edit = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
DISTRIBUTIONS = ["uniform", "zipf", "hot_value"]
REGIONS = ["us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "eu-west-1", "eu-west-2",
           "eu-west-3", "eu-central-1", "eu-north-1", "eu-south-1", "ap-northeast-1", "ap-northeast-2",
           "ap-southeast-1", "ap-southeast-2", "ap-south-1", "sa-east-1"]


def _values(enum: Any) -> list[str]:
    return [member.value for member in enum]


# --- versioned table editors ---------------------------------------------------------------------


def editor_key(name: str) -> str:
    return f"model.{name}.editor.{st.session_state.get(f'model.{name}.version', 0)}"


def apply_pending(name: str, edit: Edit) -> None:
    """Apply the edits a table reported in the last interaction (before anything renders)."""
    edits = st.session_state.get(editor_key(name))
    if isinstance(edits, dict) and any(edits.get(k) for k in ("edited_rows", "added_rows", "deleted_rows")):
        session.save_document(edit(session.current_document(), edits))
        st.session_state[f"model.{name}.version"] = st.session_state.get(f"model.{name}.version", 0) + 1


def table_editor(name: str, rows: list[dict[str, Any]], columns: tuple[str, ...],
                 column_config: dict[str, Any]) -> None:
    frame = pd.DataFrame(rows, columns=list(columns))
    st.data_editor(frame, key=editor_key(name), column_config=column_config, num_rows="dynamic",
                   hide_index=True, width="stretch")


# --- Table & traffic tab -------------------------------------------------------------------------


def table_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    table = document.get("table") if isinstance(document.get("table"), dict) else {}
    profile = document.get("traffic_profile") if isinstance(document.get("traffic_profile"), dict) else {}
    with st.form("model.table_form"):
        name = st.text_input("Model name", str(document.get("name", "")), key="model.name")
        description = st.text_area("Description", str(document.get("description", "")), key="model.description")
        left, right = st.columns(2)
        table_name = left.text_input("Table name", str(table.get("name", "")), key="model.table_name")
        region = right.selectbox("Region", REGIONS, index=_index(REGIONS, table.get("region", "us-east-1")),
                                 key="model.region")
        billing = left.selectbox("Billing mode", _values(BillingMode), key="model.billing_mode",
                                 index=_index(_values(BillingMode), table.get("billing_mode")))
        table_class = right.selectbox("Table class", _values(TableClass), key="model.table_class",
                                      index=_index(_values(TableClass), table.get("table_class")))
        streams = ["(none)", *_values(StreamViewType)]
        stream = left.selectbox("Stream", streams, index=_index(streams, table.get("stream_view_type")),
                                key="model.stream")
        ttl = right.text_input("TTL attribute", str(table.get("ttl_attribute") or ""), key="model.ttl")
        pitr = left.checkbox("Point-in-time recovery", bool(table.get("point_in_time_recovery")), key="model.pitr")
        replicas = right.multiselect("Replica Regions (global table)", REGIONS, key="model.replicas",
                                     default=[r for r in table.get("replica_regions") or [] if r in REGIONS])
        shapes = _values(TrafficShape)
        shape = left.selectbox("Daily traffic profile", shapes, index=_index(shapes, profile.get("shape")),
                               key="model.traffic_shape", help="How traffic spreads over the day (UTC).")
        weights = right.text_input("Custom hourly weights (24 numbers, hour 0-23 UTC)",
                                   ", ".join(str(w) for w in profile.get("hourly_weights") or []),
                                   key="model.hourly_weights")
        if st.form_submit_button("Save table settings"):
            updated = editing.with_fields(document, None, {"name": name, "description": description})
            updated = editing.with_fields(updated, "table", {
                "name": table_name, "region": region, "billing_mode": billing, "table_class": table_class,
                "stream_view_type": None if stream == "(none)" else stream, "ttl_attribute": ttl,
                "point_in_time_recovery": pitr or None, "replica_regions": replicas})
            updated = editing.with_fields(updated, "traffic_profile", editing.traffic_profile_fields(
                shape, weights))
            session.save_document(updated)
            st.rerun()
    show_problems(problems_under(problems, "table") + problems_under(problems, "traffic_profile")
                  + problems_under(problems, "name") + problems_under(problems, "format")
                  + problems_under(problems, "version"))


def _index(options: list[str], value: Any) -> int:
    return options.index(value) if value in options else 0


# --- Entities tab --------------------------------------------------------------------------------


def entities_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    st.markdown("**Entities** — one row per kind of item; expected item count drives storage and partitions.")
    table_editor("entities", [editing.entity_to_row(e) for e in document.get("entities") or []
                              if isinstance(e, dict)], editing.ENTITY_COLUMNS, {
        "name": st.column_config.TextColumn("Entity", required=True),
        "description": st.column_config.TextColumn("Description"),
        "item_count": st.column_config.NumberColumn("Items", min_value=0, step=1, format="localized"),
        "monthly_growth_percent": st.column_config.NumberColumn("Growth %/month", step=0.5),
    })
    show_problems([p for p in problems_under(problems, "entities") if ".attributes" not in p.path])
    names = editing.entity_names(document)
    if not names:
        st.info("Add an entity in the table above to give it attributes.")
        return
    entity = st.selectbox("Attributes of", names, key="model.attributes_entity")
    table_editor(f"attributes.{entity}", editing.attribute_rows(document, entity),
                 editing.ATTRIBUTE_COLUMNS, {
        "name": st.column_config.TextColumn("Attribute", required=True),
        "type": st.column_config.SelectboxColumn("Type", options=_values(AttributeType), required=True),
        "identifier": st.column_config.CheckboxColumn("Identifier", help="Part of what identifies an item"),
        "required": st.column_config.CheckboxColumn("Required"),
        "unique": st.column_config.CheckboxColumn("Unique"),
        "avg_size_bytes": st.column_config.NumberColumn("Avg bytes", min_value=0, step=1, format="%d"),
        "max_size_bytes": st.column_config.NumberColumn("Max bytes", min_value=0, step=1, format="%d"),
        "generator": st.column_config.TextColumn("Sample data", disabled=True,
                                                 help="Edit with the form below the table"),
        "description": st.column_config.TextColumn("Description"),
    })
    show_problems(problems_under(problems, f"entities[{entity}].attributes")
                  + problems_under(problems, f"entities[{entity}].identifiers"))
    generator_form(document, entity)


def generator_form(document: dict[str, Any], entity: str) -> None:
    attributes = editing.attribute_names(document, [entity])
    if not attributes:
        return
    st.markdown("**Sample-data generator**")
    attribute = st.selectbox("Attribute", attributes, key="model.generator_attribute")
    spec = editing.attribute_generator(document, entity, attribute)
    current = editing.generator_form_values(spec)
    kind = st.selectbox("Generator", GENERATOR_KINDS, index=_index(list(GENERATOR_KINDS), current.get("kind")),
                        key=f"model.generator_kind.{entity}.{attribute}")
    with st.form(f"model.generator_form.{entity}.{attribute}.{kind}"):
        fields = {field: _generator_field(field, current.get(field), document)
                  for field in editing.GENERATOR_FORM_FIELDS[kind]}
        if st.form_submit_button("Save generator"):
            session.save_document(editing.set_generator(document, entity, attribute,
                                                         editing.generator_from_form(kind, fields)))
            st.rerun()


def _generator_field(field: str, value: Any, document: dict[str, Any]) -> Any:
    key = f"model.generator.{field}"
    choices = {"provider": _values(FakerProvider), "format": _values(TimestampFormat),
               "distribution": DISTRIBUTIONS, "entity": editing.entity_names(document),
               "attribute": editing.attribute_names(document)}
    label = _FIELD_LABELS.get(field, field.replace("_", " "))
    if field in choices:
        options = choices[field]
        return st.selectbox(label, options, index=_index(options, value), key=key)
    # text inputs keep exactly what was typed; the domain types numbers and validation explains mistakes
    return st.text_input(label, "" if value is None else str(value), key=key)


_FIELD_LABELS = {
    "values": "Values (comma-separated)", "weights": "Weights (comma-separated, one per value)",
    "distribution_parameter": "Zipf exponent (e.g. 1.2) or hot-value share (0-1)",
    "length_bytes": "Length (bytes)", "true_share": "Share of true (0-1)",
    "recent_bias": "Bias towards recent (0-1)", "start": "Start", "end": "End",
}


# --- Relationships and access patterns tabs ------------------------------------------------------


def relationships_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    entities = editing.entity_names(document)
    table_editor("relationships", [editing.relationship_to_row(r) for r in document.get("relationships") or []
                                   if isinstance(r, dict)], editing.RELATIONSHIP_COLUMNS, {
        "name": st.column_config.TextColumn("Relationship", required=True),
        "kind": st.column_config.SelectboxColumn("Kind", options=_values(RelationshipKind), required=True),
        "parent": st.column_config.SelectboxColumn("Parent", options=entities, required=True),
        "child": st.column_config.SelectboxColumn("Child", options=entities, required=True),
        "child_attributes": st.column_config.MultiselectColumn(
            "Child attributes", options=editing.attribute_names(document)),
        "cardinality_mean": st.column_config.NumberColumn("Children per parent (mean)", min_value=0),
        "cardinality_max": st.column_config.NumberColumn("Max", min_value=0, step=1, format="%d"),
        "cardinality_distribution": st.column_config.SelectboxColumn("Distribution", options=DISTRIBUTIONS),
        "distribution_parameter": st.column_config.NumberColumn(
            "Zipf exponent / hot share", help="zipf: exponent (e.g. 1.2); hot_value: share 0-1"),
    })
    show_problems(problems_under(problems, "relationships"))


def patterns_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    st.markdown("**Access patterns** — name them `verb_object_by_key`; traffic in requests per second.")
    attributes = editing.attribute_names(document)
    table_editor("patterns", [editing.pattern_to_row(p) for p in document.get("access_patterns") or []
                              if isinstance(p, dict)], editing.PATTERN_COLUMNS, {
        "name": st.column_config.TextColumn("Access pattern", required=True),
        "kind": st.column_config.SelectboxColumn("Kind", options=_values(PatternKind), required=True),
        "entities": st.column_config.MultiselectColumn("Entities", options=editing.entity_names(document)),
        "inputs": st.column_config.MultiselectColumn("Inputs", options=attributes),
        "range_attribute": st.column_config.SelectboxColumn("Range on", options=attributes),
        "range_operator": st.column_config.SelectboxColumn("Range condition", options=_values(RangeOperator)),
        "sort_order": st.column_config.SelectboxColumn("Order", options=_values(SortOrder)),
        "filters": st.column_config.TextColumn("Only items where", help="e.g. status=UNPAID; archived=false"),
        "page_size": st.column_config.NumberColumn("Page size", min_value=1, step=1, format="%d"),
        "consistency": st.column_config.SelectboxColumn("Consistency", options=_values(Consistency)),
        "expected_items": st.column_config.NumberColumn("Items returned", min_value=0),
        "changed_attributes": st.column_config.MultiselectColumn("Changes (updates)", options=attributes),
        "peak_requests_per_second": st.column_config.NumberColumn("Peak req/s", min_value=0),
        "average_requests_per_second": st.column_config.NumberColumn("Average req/s", min_value=0),
        "description": st.column_config.TextColumn("Description"),
    })
    show_problems(problems_under(problems, "access_patterns"))
