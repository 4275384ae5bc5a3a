"""Widgets of the Model page: one function per tab. Edits go through `editing` and autosave.

Tables use `ui.grid`, an editable grid that reports its edits as st.data_editor does. Each table's key
carries a version number: when a table reports edits, they are applied to the document and saved before
anything renders, and the version moves on, so the next editor starts from the saved document and an
edit is never applied twice.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from studio import editing
from studio.errors import Problem, problems_under
from studio.model import (
    GENERATOR_KINDS,
    AttributeType,
    AuxiliaryKind,
    BillingMode,
    ComparisonOperator,
    ConditionKind,
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
    TransactAction,
    UpdateAction,
)
from ui import grid, session
from ui.problems import show_problems
from ui.text import plain

Edit = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
NamedEdit = Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]]  # edits of one entity's or pattern's rows


ATTRIBUTES_OF = "attributes_entity"  # the Model page's "Attributes of" selector (a per-model key)
WRITES_OF = "writes_pattern"  # the Access patterns tab's "Write semantics of" selector (a per-model key)


def attributes_of() -> Any:
    """The entity "Attributes of" shows (read before the selector is drawn, to apply its grid's edits)."""
    return st.session_state.get(session.model_key(ATTRIBUTES_OF))


def writes_of() -> Any:
    """The pattern "Write semantics of" shows (read before the selector is drawn, to apply its grids' edits)."""
    return st.session_state.get(session.model_key(WRITES_OF))


def write_grids(pattern: str) -> tuple[tuple[str, NamedEdit], ...]:
    """The write-semantics grids of a pattern: grid name -> the edit that applies its rows (editing)."""
    return ((f"writes.{pattern}.members", editing.edit_write_members),
            (f"writes.{pattern}.conditions", editing.edit_write_conditions),
            (f"writes.{pattern}.updates", editing.edit_write_updates),
            (f"writes.{pattern}.soft_delete", editing.edit_soft_delete))




def pending_grids() -> list[tuple[str, Edit]]:
    """Every grid of the open model that may hold edits, with the edit that applies its rows (editing): the
    Model page's (the attribute and write grids of the entity and pattern its selectors show) and the Layout
    page's."""
    grids: list[tuple[str, Edit]] = [("entities", editing.edit_entities),
                                     ("relationships", editing.edit_relationships),
                                     ("patterns", editing.edit_patterns)]
    entity = attributes_of()
    if isinstance(entity, str) and entity:
        grids += [(f"attributes.{entity}", lambda doc, edits: editing.edit_attributes(doc, entity, edits)),
                  (f"auxiliary.{entity}", lambda doc, edits: editing.edit_auxiliary_items(doc, entity, edits))]
    pattern = writes_of()
    if isinstance(pattern, str):
        grids += [(name, _for_pattern(edit, pattern)) for name, edit in write_grids(pattern)]
    return [*grids, ("layout.templates", editing.edit_key_templates),
            ("layout.indexes", editing.edit_index_definitions)]


def _for_pattern(edit: NamedEdit, pattern: str) -> Edit:
    """One pattern's edit as a grid's edit (bound here: a lambda in the loop would see the last one)."""
    return lambda doc, edits: edit(doc, pattern, edits)


def apply_pending_edits() -> None:
    """Save what the user typed into the open model's grids and table settings, at the start of every run,
    whatever page it shows (app.py, and ui.frame for a page run without it).

    A cell typed into and left by a click on another page in the sidebar is committed when the grid loses
    the focus, and its value reaches the server only with that commit's rerun of the Model page: the
    sidebar click's rerun carries only the sidebar's widgets, and Streamlit drops every other widget's state
    before it runs the new page. The click stops the Model page's run at its next step, so an edit applied
    part-way down that page was lost (a stranger's session). Applied first thing, it is saved before the
    click can stop the run; the same holds for a table setting (Table & traffic tab).
    """
    if not session.has_open_model():
        return  # nothing drawn yet, so nothing typed; and no first model is created here
    for name, edit in pending_grids():
        apply_pending(name, edit)
    apply_table_fields()
DISTRIBUTIONS = ["uniform", "zipf", "hot_value"]
REGIONS = ["us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "eu-west-1", "eu-west-2",
           "eu-west-3", "eu-central-1", "eu-north-1", "eu-south-1", "ap-northeast-1", "ap-northeast-2",
           "ap-southeast-1", "ap-southeast-2", "ap-south-1", "sa-east-1"]


def _values(enum: Any) -> list[str]:
    return [member.value for member in enum]


# --- table editors that keep their state while the user types -------------------------------------
#
# A grid is drawn from a snapshot of the document and keeps its key while only its own edits change
# the document: Streamlit reports its edits cumulatively against that snapshot, and re-creating the
# grid after each commit dropped the keys typed in the meantime and the selection. The grid is drawn
# anew (its version moves on) only when something else changed the document: another grid, a form,
# another tab, a merge.


@dataclass(frozen=True)
class _Saving:
    edits: dict[str, Any] | None  # the grid's cumulative edits being saved
    document: dict[str, Any]  # the document they give


@dataclass(frozen=True)
class _Snapshot:
    drawn: dict[str, Any]  # the document the grid's rows were built from
    last: session.OpenDraft  # the open model as this grid's edits last left it (its scope: the grid's model)
    applied: dict[str, Any] | None = None  # the grid's cumulative edits as last applied
    saving: _Saving | None = None  # a save of this grid's edits that a stopped run may not have recorded
    shape: str | None = None  # the columns it shows, for a grid drawn anew when they change (table_editor)


def _edits_of(value: Any) -> dict[str, Any] | None:
    """The grid's cumulative edits, or None when it reports none."""
    if isinstance(value, dict) and any(value.get(k) for k in ("edited_rows", "added_rows", "deleted_rows")):
        return copy.deepcopy(value)
    return None


def editor_key(name: str) -> str:
    return session.model_key(f"{name}.editor.{st.session_state.get(_version_key(name), 0)}")


def _version_key(name: str) -> str:
    return session.model_key(f"{name}.version")


def _snapshot_key(name: str) -> str:
    return session.model_key(f"{name}.snapshot")


def _redraw(name: str) -> None:
    """Give the grid a new key: it is drawn without edits, from the document as it is now."""
    st.session_state[_version_key(name)] = st.session_state.get(_version_key(name), 0) + 1


def apply_pending(name: str, edit: Edit) -> None:
    """Apply a table's edits (before anything renders) to the document it was drawn from, and save.

    Edits are positions in the rows the table showed, so the save names the version the table last
    saved: if another tab saved since, the save is refused and the page offers a merge by name
    instead of applying a row number to other rows. A new row holding only preset cells changes
    nothing, so it stays in the grid for the user to type into.
    """
    snapshot = _settled_snapshot(name)
    key = editor_key(name)
    if snapshot is not None and _left_undrawn(snapshot, key):
        st.session_state.pop(_snapshot_key(name), None)
        _redraw(name)
        return
    edits = _edits_of(st.session_state.get(key))
    # only a change in this grid's own edits acts: another grid's save in this run leaves this one's
    # snapshot behind until it is drawn again, and re-applying old edits to it would undo that save
    if snapshot is None or edits == snapshot.applied:
        return
    after = edit(snapshot.drawn, edits or {})
    if after == snapshot.last.document:
        st.session_state[_snapshot_key(name)] = replace(snapshot, applied=edits)
        return
    # noted first: Streamlit may stop this run (a newer rerun is waiting) at any session-state access,
    # also after the save and before its record below; the next run then finds the note
    st.session_state[_snapshot_key(name)] = replace(snapshot, saving=_Saving(edits, after))
    saved = session.save_document(after, snapshot.last.scope, based_on=snapshot.last)
    st.session_state[_snapshot_key(name)] = replace(snapshot, last=session.open_draft(), applied=edits)
    if not saved:
        st.rerun()  # the edit is held in the session; the frame at the top says why it is not saved


def _left_undrawn(snapshot: _Snapshot, key: str) -> bool:
    """Whether a grid with edits applied was not drawn in the last run (the page showed another entity's
    attributes, or another page ran), so Streamlit dropped its edits: they are in the model already, and
    reading "no edits" now would undo them. Before, this saved the document the grid was drawn from into
    whatever model was open: a false conflict whose merge lost data (26.2), or another model overwritten
    after a switch (26.1)."""
    return snapshot.applied is not None and key not in st.session_state


def _settled_snapshot(name: str) -> _Snapshot | None:
    """The grid's snapshot, with a save that a stopped run did not record settled: recorded when the
    open model is what that save gave (written, or held as a conflict), else dropped, so its edits are
    applied again. Without this, the next edit's save named the version before its own last save and
    was refused as if another tab had saved (issue 14.2, typing at 0 ms a key)."""
    snapshot = st.session_state.get(_snapshot_key(name))
    if not isinstance(snapshot, _Snapshot):
        return None
    if snapshot.saving is not None:
        held = session.open_draft()
        if held.document == snapshot.saving.document:
            snapshot = replace(snapshot, last=held, applied=snapshot.saving.edits, saving=None)
        else:
            snapshot = replace(snapshot, saving=None)
        st.session_state[_snapshot_key(name)] = snapshot
    return snapshot


def table_editor(name: str, rows_of: Callable[[dict[str, Any]], list[dict[str, Any]]], columns: tuple[str, ...],
                 column_config: dict[str, Any], *, follow_columns: bool = False) -> None:
    """`follow_columns`: the grid is drawn anew when the columns it shows change (a transaction's grids have a
    member column). A select's options follow in place (ui/grid_frontend), with no new grid."""
    snapshot = _settled_snapshot(name)
    held = session.open_draft()
    shape = ",".join(columns) if follow_columns else None
    if snapshot is None:
        snapshot = _Snapshot(held.document, held, shape=shape)
    elif snapshot.last.document != held.document or snapshot.shape != shape:
        if snapshot.shape != shape or not _can_rebase(snapshot, held.document, rows_of):
            _redraw(name)  # a grid without the old edits (they are saved)
        snapshot = _Snapshot(held.document, held, shape=shape)
    st.session_state[_snapshot_key(name)] = snapshot
    key = editor_key(name)
    grid.editable_grid(editing.rows_for_text_cells(rows_of(snapshot.drawn)), columns, column_config, key,
                       st.session_state.get(key))


def _can_rebase(snapshot: _Snapshot, document: dict[str, Any],
                rows_of: Callable[[dict[str, Any]], list[dict[str, Any]]]) -> bool:
    """Whether a grid can keep its key (and so its selection, its open cell and what is being typed
    into it) while something else changed the document: it has no edits of its own applied, so its
    cumulative edits start from nothing, and it would show exactly the same rows. Re-drawing every
    grid of the page after each commit in one of them mounted three new grids in the browser, and
    the keys typed into the next cell meanwhile were lost on a busy machine (issue 14, item 2)."""
    return snapshot.applied is None and rows_of(document) == rows_of(snapshot.drawn)


def _number_column(label: str, help_text: str = "") -> Any:
    """A number typed into a text cell (see editing.NUMBER_COLUMNS for why)."""
    return st.column_config.TextColumn(label, help=(help_text + " A number, e.g. 1500 or 1,500.").strip())


# --- Table & traffic tab -------------------------------------------------------------------------


def _table_form_fields(document: dict[str, Any]) -> dict[str, Any]:
    """The table settings form's values for a document, as the widgets show them."""
    table = found if isinstance(found := document.get("table"), dict) else {}
    profile = found if isinstance(found := document.get("traffic_profile"), dict) else {}
    def chosen(options: list[str], value: Any) -> str:  # what a select box shows for the value
        return options[_index(options, value)]

    streams = ["(none)", *_values(StreamViewType)]
    return {
        "name": str(document.get("name", "")), "description": str(document.get("description", "")),
        "table_name": str(table.get("name", "")), "region": chosen(REGIONS, table.get("region", "us-east-1")),
        "billing_mode": chosen(_values(BillingMode), table.get("billing_mode")),
        "table_class": chosen(_values(TableClass), table.get("table_class")),
        "stream": chosen(streams, table.get("stream_view_type")), "ttl": str(table.get("ttl_attribute") or ""),
        "pitr": bool(table.get("point_in_time_recovery")),
        "replicas": [r for r in table.get("replica_regions") or [] if r in REGIONS],
        "shape": chosen(_values(TrafficShape), profile.get("shape")),
        "weights": ", ".join(str(w) for w in profile.get("hourly_weights") or []),
    }


_TOP_FIELDS = {"name": "name", "description": "description"}  # form field -> document field
_TABLE_FIELDS = {"table_name": "name", "region": "region", "billing_mode": "billing_mode",
                 "table_class": "table_class", "ttl": "ttl_attribute", "stream": "stream_view_type",
                 "pitr": "point_in_time_recovery", "replicas": "replica_regions"}


def _with_table_form_fields(document: dict[str, Any], changed: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """The document with the fields the user changed in the form, and only those: a field the form shows
    with a default (a select box's first option for a setting the model leaves out) is never written."""
    updated = editing.with_fields(document, None, {_TOP_FIELDS[f]: v for f, v in changed.items() if f in _TOP_FIELDS})
    table = {_TABLE_FIELDS[f]: v for f, v in changed.items() if f in _TABLE_FIELDS}
    if "stream" in changed:
        table["stream_view_type"] = None if changed["stream"] == "(none)" else changed["stream"]
    if "pitr" in changed:
        table["point_in_time_recovery"] = changed["pitr"] or None
    if table:
        updated = editing.with_fields(updated, "table", table)
    if "shape" in changed or "weights" in changed:
        values = {**now, **changed}
        updated = editing.with_fields(updated, "traffic_profile", editing.traffic_profile_fields(
            values["shape"], values["weights"]))
    return updated


# the form's widget keys, each put in the open model's scope (session.model_key) when drawn
_TABLE_FORM_KEYS = {"name": "table_form.name", "description": "table_form.description",
                    "table_name": "table_form.table_name", "region": "table_form.region",
                    "billing_mode": "table_form.billing_mode", "table_class": "table_form.table_class",
                    "stream": "table_form.stream", "ttl": "table_form.ttl", "pitr": "table_form.pitr",
                    "replicas": "table_form.replicas", "shape": "table_form.traffic_shape",
                    "weights": "table_form.hourly_weights"}


@dataclass(frozen=True)
class _FormBase:
    shown: dict[str, Any]  # the form's fields as last set from the model
    draft: session.OpenDraft  # the open model they were set from


def table_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    """Table settings, saved as each field is left (apply_table_fields, at the start of the next run). They
    were a form, whose fields never leave the browser until its button is pressed: a description typed and
    left for another page was lost without a word (a stranger's session).

    The fields show the model as it is: a field another save changed is set to its newer value. A save
    writes only the fields the user changed, onto the model the fields were set from, and names that
    version: another tab's save in between is merged, or asked about where both changed a field."""
    now = _table_form_fields(document)
    scope = session.current_scope()
    base_key = scope.key("table_form.base")
    held = session.open_draft()
    base = st.session_state.get(base_key)
    if not isinstance(base, _FormBase):
        base = _FormBase(now, held)
        _show_in_form(scope, now, list(now))
    elif base.draft.document != held.document and not _typed_in_form(scope, base):
        newer = [field for field in now if now[field] != base.shown[field]]
        _show_in_form(scope, now, newer)
        if newer:
            st.caption("Updated from a newer save of the model: " + ", ".join(newer) + ".")
        base = _FormBase(now, held)
    # a field Streamlit forgot (the page was left, so its widgets were not drawn) is set again, never left blank
    _show_in_form(scope, base.shown, [f for f in base.shown if scope.key(_TABLE_FORM_KEYS[f]) not in st.session_state])
    _resend_to_browser(scope)
    st.session_state[base_key] = base
    with st.container(key="table_form"):
        st.caption("Saved as you go: a field is saved when you leave it with Tab, Enter or a click elsewhere, "
                   "another page in the sidebar included.")
        _table_form_widgets(scope)
    show_problems(problems_under(problems, "table") + problems_under(problems, "traffic_profile")
                  + problems_under(problems, "name") + problems_under(problems, "format")
                  + problems_under(problems, "version"))


def apply_table_fields() -> None:
    """Save the table settings the user changed since they were set from the model (see table_tab)."""
    scope = session.current_scope()
    base_key = scope.key("table_form.base")
    base = st.session_state.get(base_key)
    if not isinstance(base, _FormBase):
        return
    changed = {field: st.session_state[key] for field, key in
               ((field, scope.key(name)) for field, name in _TABLE_FORM_KEYS.items())
               if key in st.session_state and st.session_state[key] != base.shown[field]}
    if not changed:
        return
    session.save_document(_with_table_form_fields(base.draft.document, changed, base.shown), scope,
                          based_on=base.draft)
    # set from what was saved (or is held, refused): a save stopped before this line is made again next
    # run, and found to be this session's own write (session._rebase_over_own_writes)
    st.session_state[base_key] = _FormBase({**base.shown, **changed}, session.open_draft())


def _typed_in_form(scope: session.ModelScope, base: _FormBase) -> bool:
    """Whether the fields hold values the user typed that differ from what they were set to (a save refused,
    or not yet made): then they keep them and their base, and the save names the version they were set
    from, so a field another tab saved meanwhile is merged or asked about, never overwritten or dropped."""
    return any(st.session_state.get(scope.key(name), base.shown[field]) != base.shown[field]
               for field, name in _TABLE_FORM_KEYS.items())


def _resend_to_browser(scope: session.ModelScope) -> None:
    """Send every field's value to the browser on every run, not only those set this run. A click on another
    page at the instant a field was left races the field's save: the browser asks for the other page, then the
    save's run of this page arrives second and is the one shown, and the browser, having dropped the fields it
    drew, showed Model name, Description and Table name blank though the model held them (a stranger's
    session; typing into a blank field would then have overwritten the model). A value assigned through the
    session state is one Streamlit sends with the widget (`set_value`); one the browser sent is not."""
    for name in _TABLE_FORM_KEYS.values():
        key = scope.key(name)
        st.session_state[key] = st.session_state[key]


def _show_in_form(scope: session.ModelScope, fields: dict[str, Any], names: list[str]) -> None:
    """Set these fields of the form (before it is drawn): the browser shows them, whatever it showed before."""
    for name in names:
        st.session_state[scope.key(_TABLE_FORM_KEYS[name])] = fields[name]


def _table_form_widgets(scope: session.ModelScope) -> dict[str, Any]:
    """The table settings' widgets; their values are set through the session state (_show_in_form), never a
    default, and saved by apply_table_fields."""
    keys = {field: scope.key(name) for field, name in _TABLE_FORM_KEYS.items()}
    values: dict[str, Any] = {"name": st.text_input("Model name", key=keys["name"]),
                               "description": st.text_area("Description", key=keys["description"])}
    left, right = st.columns(2)
    values["table_name"] = left.text_input("Table name", key=keys["table_name"])
    values["region"] = right.selectbox("Region", REGIONS, key=keys["region"])
    billing, classes, shapes = _values(BillingMode), _values(TableClass), _values(TrafficShape)
    values["billing_mode"] = left.selectbox("Billing mode", billing, key=keys["billing_mode"])
    values["table_class"] = right.selectbox("Table class", classes, key=keys["table_class"])
    values["stream"] = left.selectbox("Stream", ["(none)", *_values(StreamViewType)], key=keys["stream"])
    values["ttl"] = right.text_input("TTL attribute", key=keys["ttl"])
    values["pitr"] = left.checkbox("Point-in-time recovery", key=keys["pitr"])
    values["replicas"] = right.multiselect("Replica Regions (global table)", REGIONS, key=keys["replicas"])
    values["shape"] = left.selectbox("Daily traffic profile", shapes, key=keys["shape"],
                                     help="How traffic spreads over the day (UTC).")
    values["weights"] = right.text_input("Custom hourly weights (24 numbers, hour 0-23 UTC)", key=keys["weights"])
    return values


def _index(options: list[str], value: Any) -> int:
    return options.index(value) if value in options else 0


# --- Entities tab --------------------------------------------------------------------------------


def entities_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    st.markdown("**Entities** — one row per kind of item; expected item count drives storage and partitions.")
    table_editor("entities", lambda doc: [editing.entity_to_row(e) for e in doc.get("entities") or []
                                          if isinstance(e, dict)], editing.ENTITY_COLUMNS, {
        "name": st.column_config.TextColumn("Entity"),
        "description": st.column_config.TextColumn("Description"),
        "item_count": _number_column("Items"),
        "monthly_growth_percent": _number_column("Growth %/month"),
    })
    aux_shown = problems_under(problems, f"entities[{attributes_of()}].auxiliary_items")  # shown under its grid
    show_problems([p for p in problems_under(problems, "entities") if ".attributes" not in p.path
                   and p not in aux_shown])
    names = editing.entity_names(document)
    if not names:
        st.info("Add an entity in the table above to give it attributes.")
        return
    entity = st.selectbox("Attributes of", names, key=session.model_key(ATTRIBUTES_OF))
    table_editor(f"attributes.{entity}", lambda doc: editing.attribute_rows(doc, entity),
                 editing.ATTRIBUTE_COLUMNS, {
        "name": st.column_config.TextColumn("Attribute"),
        "type": st.column_config.SelectboxColumn("Type", options=_values(AttributeType),
                                                 default=editing.ATTRIBUTE_TYPE_DEFAULT),
        "identifier": st.column_config.CheckboxColumn("Identifier", help="Part of what identifies an item"),
        "required": st.column_config.CheckboxColumn("Required", default=True),  # as an attribute without it
        "unique": st.column_config.CheckboxColumn("Unique"),
        "avg_size_bytes": _number_column("Avg bytes"),
        "max_size_bytes": _number_column("Max bytes"),
        "generator": st.column_config.TextColumn("Sample data", disabled=True,
                                                 help="Edit with the form below the table"),
        "description": st.column_config.TextColumn("Description"),
    })
    show_problems(problems_under(problems, f"entities[{entity}].attributes")
                  + problems_under(problems, f"entities[{entity}].identifiers"))
    generator_form(document, entity)
    auxiliary_items_editor(document, entity)
    show_problems(problems_under(problems, f"entities[{entity}].auxiliary_items"))


def generator_form(document: dict[str, Any], entity: str) -> None:
    attributes = editing.attribute_names(document, [entity])
    if not attributes:
        return
    st.markdown("**Sample-data generator**")
    scope = session.current_scope()
    attribute = st.selectbox("Attribute", attributes, key=scope.key(f"generator_attribute.{entity}"))
    spec = editing.attribute_generator(document, entity, attribute)
    current = editing.generator_form_values(spec)
    kind = st.selectbox("Generator", GENERATOR_KINDS, index=_index(list(GENERATOR_KINDS), current.get("kind")),
                        key=scope.key(f"generator_kind.{entity}.{attribute}"))
    # each field's key names its entity, attribute and kind: one attribute's typing never shows in another's
    form = f"generator_form.{entity}.{attribute}.{kind}"
    with st.form(scope.key(form)):
        fields = {field: _generator_field(field, current.get(field), document, scope.key(f"{form}.{field}"))
                  for field in editing.GENERATOR_FORM_FIELDS[kind]}
        if st.form_submit_button("Save generator"):
            session.save_document(editing.set_generator(document, entity, attribute,
                                                         editing.generator_from_form(kind, fields)), scope)
            st.rerun()


def _generator_field(field: str, value: Any, document: dict[str, Any], key: str) -> Any:
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
    table_editor("relationships", lambda doc: [editing.relationship_to_row(r) for r in doc.get("relationships") or []
                                               if isinstance(r, dict)], editing.RELATIONSHIP_COLUMNS, {
        "name": st.column_config.TextColumn("Relationship"),
        "kind": st.column_config.SelectboxColumn("Kind", options=_values(RelationshipKind),
                                                 default=editing.RELATIONSHIP_KIND_DEFAULT),
        "parent": st.column_config.SelectboxColumn("Parent", options=entities),
        "child": st.column_config.SelectboxColumn("Child", options=entities),
        "child_attributes": st.column_config.MultiselectColumn(
            "Child attributes", options=editing.attribute_names(document)),
        "cardinality_mean": _number_column("Children per parent (mean)"),
        "cardinality_max": _number_column("Max"),
        "cardinality_distribution": st.column_config.SelectboxColumn("Distribution", options=DISTRIBUTIONS),
        "distribution_parameter": _number_column("Zipf exponent / hot share",
                                                 "zipf: exponent (e.g. 1.2); hot_value: share 0-1"),
    })
    show_problems(problems_under(problems, "relationships"))


def patterns_tab(document: dict[str, Any], problems: list[Problem]) -> None:
    st.markdown("**Access patterns** — name them `verb_object_by_key`; traffic in requests per second.")
    attributes = editing.attribute_names(document)
    table_editor("patterns", lambda doc: [editing.pattern_to_row(p) for p in doc.get("access_patterns") or []
                                          if isinstance(p, dict)], editing.PATTERN_COLUMNS, {
        "name": st.column_config.TextColumn("Access pattern"),
        "kind": st.column_config.SelectboxColumn("Kind", options=_values(PatternKind),
                                                 default=editing.PATTERN_KIND_DEFAULT),
        "entities": st.column_config.MultiselectColumn("Entities", options=editing.entity_names(document)),
        "inputs": st.column_config.MultiselectColumn("Inputs", options=attributes),
        "range_attribute": st.column_config.SelectboxColumn("Range on", options=attributes),
        "range_operator": st.column_config.SelectboxColumn("Range condition", options=_values(RangeOperator)),
        "sort_order": st.column_config.SelectboxColumn("Order", options=_values(SortOrder)),
        "filters": st.column_config.TextColumn("Only items where", help="e.g. status=UNPAID; archived=false"),
        "page_size": _number_column("Page size"),
        "consistency": st.column_config.SelectboxColumn("Consistency", options=_values(Consistency)),
        "expected_items": _number_column("Items returned"),
        "changed_attributes": st.column_config.MultiselectColumn("Changes (updates)", options=attributes),
        "peak_requests_per_second": _number_column("Peak req/s"),
        "average_requests_per_second": _number_column("Average req/s"),
        "description": st.column_config.TextColumn("Description"),
    })
    shown = writes_of()
    held_back = write_problems(problems, shown) if isinstance(shown, str) else []
    show_problems([p for p in problems_under(problems, "access_patterns") if p not in held_back])
    with st.container(key="write_semantics"):  # one place on the page (browser tests find its grids in it)
        write_semantics(document, problems)


# --- write semantics of a write pattern (issue 27.6) ----------------------------------------------
#
# Each list is a grid with its own key under the pattern's name, saved as it is edited like the attribute
# grids: switching to another pattern and back finds every row as it was left. A transaction's conditions
# and updates name their member by its number in the members grid.


def write_semantics(document: dict[str, Any], problems: list[Problem]) -> None:
    st.markdown("**Write semantics** — a write's condition, how it changes attributes, a transaction's members, "
                "soft delete. The same fields as the YAML (File tab), with the same checks.")
    names = editing.write_pattern_names(document)
    if not names:
        st.info("Add a write pattern (kind write, update, delete, transact_write or batch_write) to give it a "
                "condition and updates.")
        return
    pattern = st.selectbox("Write semantics of", names, key=session.model_key(WRITES_OF))
    kind = editing.pattern_kind(document, pattern)
    transaction = editing.is_transaction(document, pattern)
    attributes = editing.write_semantics_attributes(document, pattern)
    inputs = editing.pattern_inputs(document, pattern)
    members = [row["number"] for row in editing.write_member_rows(document, pattern)]
    member = {"member": st.column_config.SelectboxColumn(
        "Member", options=members, help="The transaction member (its number above); empty: the pattern itself")}
    if transaction:
        st.markdown("**Transaction members** — every item the transaction puts, updates, deletes or checks.")
        table_editor(f"writes.{pattern}.members", lambda doc: editing.write_member_rows(doc, pattern),
                     editing.MEMBER_COLUMNS, {
            "number": st.column_config.TextColumn("Member", disabled=True),
            "entity": st.column_config.SelectboxColumn("Entity", options=editing.entity_names(document)),
            "action": st.column_config.SelectboxColumn("Action", options=_values(TransactAction),
                                                       default=editing.MEMBER_ACTION_DEFAULT),
            "key_inputs": st.column_config.TextColumn(
                "Key inputs", help="Where an attribute of the key comes from an input of another name, e.g. "
                                   "studentId=fromStudentId; empty: the inputs of the same names"),
        }, follow_columns=True)
    value_help = "A constant: on_loan, 1, true; in double quotes to keep digits as text (\"1\")"
    if kind != "batch_write" or editing.has_write_field(document, pattern, "condition"):
        st.markdown("**Condition** — the write happens only if it holds (ConditionExpression).")
        table_editor(f"writes.{pattern}.conditions", lambda doc: editing.write_condition_rows(doc, pattern),
                     editing.CONDITION_COLUMNS if transaction else editing.CONDITION_COLUMNS[1:], {
            **member,
            "kind": st.column_config.SelectboxColumn(
                "Condition", options=_values(ConditionKind), default=editing.CONDITION_KIND_DEFAULT,
                help="attribute_not_exists: create only; version_matches: optimistic locking (the version read "
                     "is current, and the write adds 1 to it); compare: attribute operator a value or input"),
            "attribute": st.column_config.SelectboxColumn("Attribute", options=attributes),
            "operator": st.column_config.SelectboxColumn("Operator", options=_values(ComparisonOperator)),
            "value": st.column_config.TextColumn("Value", help=value_help),
            "input": st.column_config.SelectboxColumn("Input", options=inputs,
                                                      help="Compare with this input of the pattern"),
        }, follow_columns=True)
    if transaction or kind == "update" or editing.has_write_field(document, pattern, "updates"):
        st.markdown("**Updates** — SET a constant or an input, if_not_exists, ADD (atomic counters), REMOVE. "
                    "A Put member's updates say what the new item holds.")
        table_editor(f"writes.{pattern}.updates", lambda doc: editing.write_update_rows(doc, pattern),
                     editing.UPDATE_COLUMNS if transaction else editing.UPDATE_COLUMNS[1:], {
            **member,
            "attribute": st.column_config.SelectboxColumn("Attribute", options=attributes),
            "action": st.column_config.SelectboxColumn("Action", options=_values(UpdateAction),
                                                       default=editing.UPDATE_ACTION_DEFAULT),
            "value": st.column_config.TextColumn("Value", help=value_help),
            "input": st.column_config.SelectboxColumn("Input", options=inputs,
                                                      help="The input holding the new value or the number to add"),
            "amount": st.column_config.TextColumn("Add", help="ADD: a constant number (default 1), e.g. 1 or -1"),
            "negate": st.column_config.CheckboxColumn("Subtract", help="ADD: subtract the input's value"),
        }, follow_columns=True)
    if kind == "delete" or editing.has_write_field(document, pattern, "soft_delete"):
        soft_delete_editor(document, pattern)
    show_problems(write_problems(problems, pattern))


def soft_delete_editor(document: dict[str, Any], pattern: str) -> None:
    ttl = (document.get("table") or {}).get("ttl_attribute") if isinstance(document.get("table"), dict) else None
    st.markdown("**Soft delete** — one row keeps the item and marks it deleted; no row deletes it.")
    st.caption(f"TTL: the table's TTL attribute is {plain(ttl)} (Table & traffic tab); 'Expires after days' sets "
               "it." if ttl else "TTL: set the table's TTL attribute on the Table & traffic tab for "
               "'Expires after days' to set it.")
    attributes = editing.write_semantics_attributes(document, pattern)
    table_editor(f"writes.{pattern}.soft_delete", lambda doc: editing.soft_delete_rows(doc, pattern),
                 editing.SOFT_DELETE_COLUMNS, {
        "status_attribute": st.column_config.SelectboxColumn("Status attribute", options=attributes,
                                                             default="status"),
        "status_value": st.column_config.TextColumn("Deleted status", default="DELETED"),
        "deleted_at_attribute": st.column_config.SelectboxColumn("Deleted at", options=attributes,
                                                                 default="deletedAt"),
        "expires_after_days": st.column_config.TextColumn("Expires after days",
                                                          help="Sets the table's TTL attribute; empty: never"),
        "archive_entity": st.column_config.SelectboxColumn("Archive copy as", options=editing.entity_names(document),
                                                           help="An entity the deleted item is copied to"),
    }, follow_columns=True)


_WRITE_FIELDS = ("condition", "updates", "members", "soft_delete")


def write_problems(problems: list[Problem], pattern: str) -> list[Problem]:
    """The problems of a pattern's write-semantics fields (and its members')."""
    base = f"access_patterns[{pattern}]"
    return [p for field in _WRITE_FIELDS for p in problems_under(problems, f"{base}.{field}")]


def auxiliary_items_editor(document: dict[str, Any], entity: str) -> None:
    """Extra items every write of the entity keeps in step: uniqueness, aggregates (counts), edge copies."""
    st.markdown("**Items kept in step with its writes** — a `unique` attribute gets its uniqueness item without a "
                "row here; add one for a combination of attributes, an aggregate count or an edge copy.")
    attributes = editing.attribute_names(document, [entity])
    relationships = [str(r.get("name")) for r in document.get("relationships") or []
                     if isinstance(r, dict) and r.get("name")]
    table_editor(f"auxiliary.{entity}", lambda doc: editing.auxiliary_rows(doc, entity), editing.AUXILIARY_COLUMNS, {
        "name": st.column_config.TextColumn("Item"),
        "kind": st.column_config.SelectboxColumn("Kind", options=_values(AuxiliaryKind)),
        "relationship": st.column_config.SelectboxColumn("Relationship", options=relationships,
                                                         help="aggregate: the relationship whose parent holds it"),
        "counter_attribute": st.column_config.TextColumn("Counter", help="aggregate: the count's attribute"),
        "sum_of": st.column_config.SelectboxColumn("Sum of", options=attributes,
                                                   help="aggregate: add this attribute instead of 1"),
        "attributes": st.column_config.MultiselectColumn("Unique together", options=attributes),
        "partition_key": st.column_config.TextColumn("Partition key", help="e.g. USER#{followedId}"),
        "sort_key": st.column_config.TextColumn("Sort key"),
    }, follow_columns=True)
