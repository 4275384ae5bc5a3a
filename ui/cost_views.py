"""Widgets of the Capacity & cost page: the estimate's tables and charts, and the quick calculator."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pandas as pd
import streamlit as st

from studio import charts
from studio.design import Operation, propose
from studio.errors import CostError, PriceListError
from studio.estimate import (
    HOW_TO_REFRESH,
    CapacityDimension,
    CapacityOption,
    EstimateRequest,
    ModelEstimate,
    PriceItem,
    UsageExtras,
    autoscaling_day,
    break_even_curve,
    break_even_utilization,
    cost_components,
    cost_text,
    credentials_available,
    estimate_csv,
    estimate_markdown,
    estimate_model,
    item_size_bytes,
    label,
    line_item_rows,
    parse_item_json,
    price_source_line,
    priced_regions,
    refresh,
    refreshed_sheet_stamp,
    request_units,
    result_lines,
)
from studio.model import Consistency, Model, TableClass
from ui import choices, session
from ui.tabs import KEEP
from ui.text import plain
from workshop.isolation import workshop_mode


def choice_widgets(model: Model, prefix: str = "cost") -> tuple[str, str, float, bool]:
    """Region, design, target utilisation and free tier: the model's choices (ui.choices), kept when the
    page is left and shared by the Capacity & cost and Report pages (`prefix` keys each page's widgets)
    and the URL."""
    regions = region_choices(model.table.region)
    designs = [d.name for d in propose(model)]
    chosen = choices.cost_choices(model.table.region, regions, designs)
    choices.seed_widgets(prefix, chosen)
    columns = st.columns([2, 3, 2, 1])
    region = columns[0].selectbox("Region", regions, key=session.model_key(f"{prefix}.region"))
    design = columns[1].selectbox("Design", designs, key=session.model_key(f"{prefix}.design"))
    target = columns[2].slider("Auto scaling target utilisation", *choices.TARGET_RANGE, step=0.05,
                               key=session.model_key(f"{prefix}.target"))
    free_tier = columns[3].toggle("Free tier", key=session.model_key(f"{prefix}.free_tier"),
                                  help="Per account and Region: off by default")
    choices.remember(choices.CostChoices(region, design, float(target), bool(free_tier)))
    return region, design, float(target), bool(free_tier)


def estimate(model: Model, design: str | None, region: str, target: float, free_tier: bool,
             overrides: tuple[tuple[str, str, str], ...], extras: UsageExtras | None = None) -> ModelEstimate:
    """The cached estimate, keyed also by the Region's refreshed price sheet so a refresh is seen at once."""
    return cached_estimate(model.model_dump_json(), design, region, target, free_tier, overrides, extras,
                           refreshed_sheet_stamp(region))


@st.cache_data(show_spinner="Estimating capacity and cost…", max_entries=32)
def cached_estimate(model_json: str, design: str | None, region: str, target: float, free_tier: bool,
                    overrides: tuple[tuple[str, str, str], ...], extras: UsageExtras | None = None,
                    prices_stamp: str = "") -> ModelEstimate:
    del prices_stamp  # part of the cache key only
    parsed = tuple((PriceItem(i), TableClass(c) if c else None, Decimal(v)) for i, c, v in overrides)
    return estimate_model(EstimateRequest(Model.model_validate_json(model_json), design, region, target,
                                          free_tier, parsed, extras=extras or UsageExtras()))


def region_choices(model_region: str) -> list[str]:
    """Priced Regions plus the model's own, so a model is never silently priced in another Region."""
    return sorted({*priced_regions(), model_region})


def region_notice(result: ModelEstimate) -> None:
    if result.region_message:
        st.warning(result.region_message, icon="⚠️")


_REFRESHED_KEY = "cost.prices_refreshed"  # the refresh's report, shown once after the rerun


@st.cache_data(ttl=300, show_spinner=False)
def _credentials_present() -> bool:
    """Looked up at most every five minutes: boto3's search can wait on a metadata service on every run."""
    return credentials_available()


def price_source(result: ModelEstimate) -> None:
    """Where the prices come from and when; "Refresh prices" when AWS credentials are present, otherwise how
    to refresh them from the command line or with an offer file."""
    region = result.price_sheet.region
    done = st.session_state.pop(_REFRESHED_KEY, None)
    if done:
        st.success(done, icon="✅")
    left, right = st.columns([5, 1])
    left.caption(price_source_line(result.price_sheet))
    if workshop_mode():
        return  # the sheets are the installation's, shared by every attendee: refreshed by its operator only
    if not _credentials_present():
        st.caption(f"To refresh them: {HOW_TO_REFRESH.replace('REGION', region)}.")
        return
    if right.button("Refresh prices", key="cost.refresh_prices",
                    help="Read this Region's DynamoDB prices from the AWS Price List (pricing:GetProducts)"):
        try:
            with st.spinner("Reading the AWS Price List…"):
                results = refresh([region])
        except PriceListError as exc:
            st.error(f"The prices were not refreshed: {plain(str(exc))}. The price sheet in use is unchanged.",
                     icon="⛔")
            return
        st.session_state[_REFRESHED_KEY] = " ".join(line for r in results for line in result_lines(r))
        st.rerun()  # the estimate above was made with the old sheet


def quota_findings(result: ModelEstimate) -> None:
    for finding in result.cost.quota_findings:
        st.warning(f"Quota: {finding}", icon="📈")


def usage_extras() -> UsageExtras:
    """Backups and stream reads, which the model does not describe."""
    with st.expander("Backups and stream reads (not in the model)"):
        left, right = st.columns(2)
        backup = left.number_input("On-demand backups kept (GB, average over the month)", 0.0, 1e9, 0.0,
                                   key=session.model_key("cost.backup_gb"))
        streams = right.number_input("Billable stream read requests per month", 0, 10**12, 0, step=100_000,
                                     key=session.model_key("cost.stream_reads"),
                                     help="GetRecords calls by Lambda triggers and global tables are free")
    return UsageExtras(Decimal(repr(backup)), int(streams))


def recommendation(result: ModelEstimate, table_class: TableClass) -> None:
    best = result.cost.recommendation
    if best is None:
        st.warning("No option has every price in this Region, so there is no recommendation; "
                   "see which prices are missing under Options.", icon="⚠️")
        return
    st.success(plain(best.reason), icon="💡")
    # st.metric cuts a long value off: the figure goes in the metric, its explanation in a caption below it
    columns = st.columns(4)
    columns[0].metric("Recommended, USD/month", cost_text.usd(best.monthly_cost_usd), f"{label(best.option)}, "
                      f"{label(best.table_class)}", delta_color="off", delta_arrow="off")
    if best.excluded_lines:
        columns[0].caption(f"Excludes {cost_text.missing_kinds(best.excluded_lines)}: no price in this Region.")
    figure, why = cost_text.option_figure(result.cost.option(CapacityOption.ON_DEMAND, table_class))
    columns[1].metric("On-demand, USD/month", figure)
    if why:
        columns[1].caption(plain(why[:1].upper() + why[1:] + "."))
    columns[2].metric("Saving vs on-demand, USD/month", cost_text.usd(best.saving_vs_on_demand_usd))
    if best.saving_vs_on_demand_usd is None:
        columns[2].caption("On-demand has no total to compare with.")
    reads = break_even_utilization(result.price_sheet, table_class, CapacityDimension.READ)
    columns[3].metric("Break-even utilisation (reads)", cost_text.percent(float(reads)) if reads
                      else cost_text.NOT_AVAILABLE)
    if not reads:
        columns[3].caption("Needs both the on-demand and the provisioned read price.")


def options_tab(result: ModelEstimate) -> None:
    st.plotly_chart(charts.cost_by_component(cost_components(result.cost)), key="cost.components")
    st.caption("An option's total leaves out lines without a price only when it says so; reads, writes or capacity "
               "without a price make it not available.")
    _table(cost_text.option_display_rows(result.cost), "cost.options")
    st.markdown("**Line items** (totals are the sums of these lines, each rounded to the cent)")
    _table(line_item_rows(result.cost), "cost.lines")
    left, right = st.columns(2)
    left.download_button("Download line items (CSV)", estimate_csv(result), "cost-line-items.csv", "text/csv",
                         key="cost.csv")
    right.download_button("Download estimate (Markdown)", estimate_markdown(result), "cost-estimate.md",
                          "text/markdown", key="cost.md")


def patterns_tab(result: ModelEstimate) -> None:
    st.plotly_chart(charts.cost_by_pattern(list(result.pattern_rows)), key="cost.patterns_chart")
    _table(list(result.pattern_rows), "cost.patterns")


def resources_tab(result: ModelEstimate) -> None:
    st.plotly_chart(charts.units_by_resource(list(result.resource_rows)), key="cost.resources_chart")
    _table(list(result.resource_rows), "cost.resources")
    _table([{"entity": s.entity, "average item bytes (used)": s.average_bytes,
             "sample average bytes": s.sample_average_bytes, "sample p95 bytes": s.sample_p95_bytes,
             "largest bytes (max hints)": s.maximum_bytes} for s in result.profile.entity_sizes], "cost.sizes")
    storage_growth(result)


def storage_growth(result: ModelEstimate) -> None:
    st.markdown("**Storage with growth** (table and indexes, compounding the model's monthly growth)")
    _table([{"table class": label(p.table_class), "after months": p.month, "storage GB": p.storage_gb,
             "monthly USD": p.monthly_cost_usd} for p in result.cost.storage_projections], "cost.growth")


def autoscaling_tab(result: ModelEstimate, target: float) -> None:
    resources = [r["resource"] for r in result.resource_rows if not r["kind"].startswith("LSI")]
    left, right = st.columns(2)
    resource = left.selectbox("Table or GSI", resources,
                              key=session.model_key("cost.scaling_resource"), persist_state=KEEP)
    dimension = right.radio("Capacity", ["read", "write"], horizontal=True,
                            key=session.model_key("cost.scaling_dimension"),
                            persist_state=KEEP)
    rows = autoscaling_day(result.usage, target, resource, CapacityDimension(dimension))
    st.plotly_chart(charts.autoscaling_curve(rows, f"Auto scaling of {resource} {dimension}s over a day "
                                                   f"(target {target:.0%})"), key="cost.scaling_chart")
    plans = [p for o in result.cost.options if o.option.value == "provisioned_autoscaling" for p in o.capacity
             if p.resource == resource and p.dimension.value == dimension][:1]
    for plan in plans:
        risk = plan.throttling
        st.caption(f"Average utilisation {plan.average_utilization:.1%}; throttling risk: demand above provisioned "
                   f"capacity {risk.minutes_over_capacity} minutes a day, by up to "
                   f"{risk.peak_excess_units_per_second:,.1f} units/s; burst capacity (up to 300 s of unused "
                   f"capacity, best effort) leaves {risk.throttled_unit_seconds_after_burst:,.0f} unit-seconds in "
                   f"{risk.minutes_throttled_after_burst} minutes unserved.")


def break_even_tab(result: ModelEstimate, table_class: TableClass) -> None:
    reads = break_even_utilization(result.price_sheet, table_class, CapacityDimension.READ)
    st.plotly_chart(charts.break_even(break_even_curve(result.usage, result.price_sheet, table_class),
                                      float(reads) * 100 if reads else None), key="cost.break_even")


def designs_tab(result: ModelEstimate) -> None:
    if not result.comparison:
        st.info("Only one design is proposed for this model, so there is nothing to compare.")
        return
    _table(list(result.comparison), "cost.designs")
    st.markdown("**Line items that differ (on-demand, Standard)**")
    deltas = [r for r in result.line_deltas if r["delta USD/month"] not in (None, Decimal(0))]
    _table(deltas, "cost.deltas")


def assumptions_tab(result: ModelEstimate) -> None:
    for assumption in result.cost.assumptions:
        st.markdown(f"- {plain(assumption)}")
    sheet = result.price_sheet
    st.markdown(f"**Prices for {sheet.region}**, effective {sheet.effective_date}, retrieved {sheet.retrieved_date}. "
                "Rows marked as assumptions are unconfirmed or third-party figures; AWS's current prices: "
                "[DynamoDB pricing](https://aws.amazon.com/dynamodb/pricing/).")
    _table(cost_text.price_display_rows(sheet), "cost.prices")


def quick_calculator() -> None:
    left, right = st.columns(2)
    with left.form("cost.item_size_form"):
        text = st.text_area("Item in DynamoDB JSON", '{"id": {"S": "A1"}, "n": {"N": "101"}}', key="cost.item")
        if st.form_submit_button("Item size"):
            try:
                st.success(f"{item_size_bytes(parse_item_json(text)):,} bytes")
            except CostError as exc:
                st.error(plain(exc))
    with right.form("cost.units_form"):
        operation = st.selectbox("Operation", [o.value for o in Operation], key="cost.operation")
        sizes = st.text_input("Item bytes (comma-separated)", "3500", key="cost.item_bytes")
        consistency = st.radio("Consistency", [c.value for c in Consistency], horizontal=True, key="cost.consistency")
        if st.form_submit_button("Units per request"):
            try:
                units = request_units(Operation(operation), _sizes(sizes), Consistency(consistency))
                st.success(f"{units.read_units} read units, {units.write_units} write units per request")
            except CostError as exc:
                st.error(plain(exc))


def _sizes(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CostError("item sizes must be whole numbers of bytes", "item bytes", text,
                        "write e.g. 3500 or 1500,6500") from None


def price_overrides() -> tuple[tuple[str, str, str], ...]:
    """Negotiated prices the user entered, kept for the session; each replaces one price of the sheet."""
    # an account's negotiated prices, not a model's: they stay when another model is opened
    overrides: list[tuple[str, str, str]] = st.session_state.setdefault("cost.overrides", [])
    with st.expander(f"Negotiated prices ({len(overrides)} override(s))"):
        with st.form("cost.override_form"):
            columns = st.columns([3, 2, 2])
            item = columns[0].selectbox("Price", [i.value for i in PriceItem],
                                        key=session.model_key("cost.override_item"))
            table_class = columns[1].selectbox("Table class", ["", *[c.value for c in TableClass]],
                                               key=session.model_key("cost.override_class"),
                                               help="Empty for class-independent prices")
            value = columns[2].number_input("USD (per the price's unit)", min_value=0.0, format="%.8f",
                                            key=session.model_key("cost.override_value"))
            if st.form_submit_button("Override this price"):
                overrides.append((item, table_class, repr(value)))
                st.rerun()
        for item, table_class, price in overrides:
            st.caption(f"{item} {table_class}: ${price} (user override)")
        if overrides and st.button("Remove all overrides", key="cost.override_clear"):
            overrides.clear()
            st.rerun()
    return tuple(overrides)


def _table(rows: list[dict[str, Any]], key: str) -> None:
    """Rows as a table: a column whose every cell is a number stays numeric (it sorts as numbers; money in
    dollars and cents, shares as percentages, counts with separators); a column with a missing value, and a
    unit price (every digit the sheet has), is text from `costs.cost_text`, so nothing shows None, NaN or $0."""
    columns = list(dict.fromkeys(c for row in rows for c in row))
    data: dict[str, list[Any]] = {}
    config: dict[str, Any] = {}
    for column in columns:
        values = [row.get(column) for row in rows]
        if "unit price" not in column and all(_is_number(v) for v in values):
            data[column] = [float(v) if isinstance(v, Decimal) else v for v in values]
            config[column] = _number_column(column)
        elif all(isinstance(v, str | bool) for v in values):
            data[column] = values
        else:
            data[column] = [cost_text.cell(column, v) for v in values]
    st.dataframe(pd.DataFrame(data), hide_index=True, width="stretch", key=key, column_config=config)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _number_column(column: str) -> Any:
    if column.startswith("share"):
        return st.column_config.ProgressColumn(column, format="percent", min_value=0.0, max_value=1.0)
    # "localized": thousands separators, at most three decimals (the browser's locale)
    return st.column_config.NumberColumn(column, format="dollar" if "USD" in column else "localized")
