"""The Changes page's glue: choosing what the open model becomes, the plan's inputs, and its rendering."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import streamlit as st

from studio.design import propose
from studio.errors import ModelFileError, ModelingError
from studio.migration import (
    DEFAULT_GREY_PERIOD_DAYS,
    DEFAULT_WRITE_RATE_ITEMS_PER_SECOND,
    MigrationRequest,
    PlanOptions,
    PricedPlan,
    migration_script,
    plan_json_text,
    plan_markdown,
    plan_migration,
)
from studio.model import KeyDesign, Model, model_from_document, parse_document, refuse_oversized
from ui import session
from ui.problems import show_problems
from ui.text import plain

SOURCES = ("another design of this model", "a saved model of the workspace", "an uploaded model file")


@dataclass(frozen=True)
class Choice:
    """OLD and NEW as the user chose them (NEW None until it is chosen)."""

    new: Model | None
    old_keys: KeyDesign | None = None
    new_keys: KeyDesign | None = None
    label: str = ""


def choose(model: Model, slug: str) -> Choice:
    source = st.radio("Compare the open model (OLD, as it is live) with", SOURCES,
                      key=session.model_key("changes.source"),
                      horizontal=True)
    if source == SOURCES[0]:
        return _designs(model)
    if source == SOURCES[1]:
        return _saved(slug)
    return _uploaded()


def _designs(model: Model) -> Choice:
    designs = propose(model)
    names = [d.name for d in designs]
    if len(names) < 2:
        st.info("This model has one design only: compare it with a saved model or an uploaded file.", icon="ℹ️")
        return Choice(None)
    left, right = st.columns(2)
    old_name = left.selectbox("OLD design", names, index=0, key=session.model_key("changes.old_design"))
    new_name = right.selectbox("NEW design", names, index=1, key=session.model_key("changes.new_design"))
    by_name = {d.name: d.key_design for d in designs}
    return Choice(model, by_name[old_name], by_name[new_name], f"design {new_name}")


def _saved(slug: str) -> Choice:
    drafts = [d for d in session.workspace().drafts() if d.slug != slug]
    if not drafts:
        st.info("The workspace has no other model: save one (Model page, File tab), or upload a file.", icon="ℹ️")
        return Choice(None)
    labels = {d.slug: f"{d.name} ({d.slug})" for d in drafts}
    chosen = st.selectbox("NEW model", list(labels), format_func=lambda s: labels[s],
                          key=session.model_key("changes.saved"))
    try:
        return Choice(model_from_document(session.workspace().load(chosen)), label=labels[chosen])
    except ModelFileError as exc:
        st.error(f"The model {plain(labels[chosen])} has problems; fix them on the Model page first.", icon="⛔")
        show_problems(exc.problems)
        return Choice(None)
    except ModelingError as exc:
        st.error(f"The model cannot be read: {plain(exc)}", icon="⛔")
        return Choice(None)


def _uploaded() -> Choice:
    upload = st.file_uploader("NEW model file", type=["json", "yaml", "yml"], key=session.model_key("changes.upload"))
    if upload is None:
        return Choice(None)
    try:
        refuse_oversized(upload.size)
        return Choice(model_from_document(parse_document(upload.getvalue(), upload.name)), label=upload.name)
    except ModelFileError as exc:
        st.error(f"{plain(upload.name)} is not a valid model file:", icon="⛔")
        show_problems(exc.problems)
        return Choice(None)


def options(model: Model, new: Model) -> PlanOptions:
    left, middle, right = st.columns(3)
    rate = left.number_input("Write rate (items per second)", min_value=1, max_value=1_000_000,
                             value=DEFAULT_WRITE_RATE_ITEMS_PER_SECOND, step=100, key=session.model_key("changes.rate"))
    grey = middle.number_input("Grey period (days of dual writes)", min_value=0, max_value=365,
                               value=DEFAULT_GREY_PERIOD_DAYS, key=session.model_key("changes.grey"))
    fills_text = right.text_input("Values for old items (Entity.attribute=value, comma-separated)",
                                  key=session.model_key("changes.fills"), placeholder="Student.schoolYear=2026")
    fills = {}
    for part in filter(None, (p.strip() for p in fills_text.split(","))):
        path, sep, value = part.partition("=")
        if sep and "." in path:
            fills[path.strip()] = value.strip()
        else:
            st.warning(f"{plain(part)} is not Entity.attribute=value; it is left out", icon="⚠️")
    del model, new
    return PlanOptions(float(rate), int(grey), fills)


@st.cache_data(max_entries=16, show_spinner="Comparing and pricing...")
def cached_plan(old_json: str, new_json: str, old_keys_json: str | None, new_keys_json: str | None,
                rate: float, grey: int, fills: tuple[tuple[str, str], ...]) -> PricedPlan:
    def keys(text: str | None) -> KeyDesign | None:
        return None if text is None else KeyDesign.model_validate_json(text)
    request = MigrationRequest(Model.model_validate_json(old_json), Model.model_validate_json(new_json),
                               keys(old_keys_json), keys(new_keys_json), PlanOptions(rate, grey, dict(fills)))
    return plan_migration(request)


def plan(model: Model, choice: Choice, chosen: PlanOptions) -> PricedPlan:
    assert choice.new is not None
    return cached_plan(model.model_dump_json(), choice.new.model_dump_json(),
                       choice.old_keys.model_dump_json() if choice.old_keys else None,
                       choice.new_keys.model_dump_json() if choice.new_keys else None,
                       chosen.write_rate_items_per_second, chosen.grey_period_days,
                       tuple(sorted((k, str(v)) for k, v in chosen.fills.items())))


def _usd(value: Decimal | None) -> str:
    return "not available" if value is None else f"${value:,.2f}"


def render(priced: PricedPlan) -> None:
    spec = priced.plan.spec
    summary = st.columns(4)
    summary[0].metric("Live table needs", spec.mode.value.replace("_", " "))
    summary[1].metric("Changes", len(priced.plan.changes))
    summary[2].metric("One-time, on-demand", _usd(priced.one_time_usd(False)))
    summary[3].metric("One-time, provisioned", _usd(priced.one_time_usd(True)))
    if priced.sheet_note:
        st.warning(plain(priced.sheet_note), icon="⚠️")
    if priced.plan.needs_values:
        st.warning("Old items lack attributes the NEW keys read: " + plain(", ".join(priced.plan.needs_values))
                   + ". Give each a value above, or those items stay out of the new keys.", icon="⚠️")
    st.subheader("Changes")
    rows: list[dict[str, Any]] = [{"needs": c.classification.label, "change": f"{c.subject.value} {c.kind.value}",
                                   "path": c.path, "before": c.before, "after": c.after, "why": c.reason,
                                   "source": c.source} for c in priced.plan.changes]
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.success("No change: OLD and NEW describe the same table.", icon="✅")
    st.subheader("Plan")
    st.dataframe([{"#": s.step.number, "phase": s.step.phase or "-", "step": s.step.title,
                   "items": s.units.items, "one-time on-demand": _usd(s.one_time_on_demand_usd),
                   "one-time provisioned": _usd(s.one_time_provisioned_usd),
                   "hours": float(s.duration_hours), "extra per month (on-demand)": _usd(s.extra_monthly_on_demand_usd),
                   "checks": "; ".join(s.step.checks), "risk": s.step.risk, "roll back": s.step.rollback}
                  for s in priced.steps], hide_index=True, width="stretch")


def downloads(priced: PricedPlan) -> None:
    left, middle, right = st.columns(3)
    left.download_button("Download the plan (Markdown)", plan_markdown(priced), file_name="migration-plan.md",
                         mime="text/markdown", key="changes.download_md")
    middle.download_button("Download the plan (JSON)", plan_json_text(priced), file_name="migration-plan.json",
                           mime="application/json", key="changes.download_json")
    right.download_button("Download the migration script (Python)", migration_script(priced.plan.spec),
                          file_name="migrate.py", mime="text/x-python", key="changes.download_script")
