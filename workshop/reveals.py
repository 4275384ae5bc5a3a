"""Reveals: the answer to a lesson step's question, with every number computed live from the domain.

Each function takes the step's model and returns a `Reveal` whose text states figures from the planner,
the design checks, the hot-partition analysis or the cost engine, so a change to a rule or a price
changes the lesson's answer with it. `figures` repeats the numbers as text, for the page and the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from studio.design import Design, FindingSeverity, PatternPlan, check_design, plan_pattern, propose
from studio.estimate import (
    PARTITION_READ_UNITS,
    PARTITION_WRITE_UNITS,
    CapacityDimension,
    CapacityOption,
    EstimateRequest,
    ModelEstimate,
    batch_get_item_units,
    break_even_utilization,
    estimate_model,
    get_item_units,
    label,
    load_price_sheet,
    query_units,
)
from studio.hot_partitions import BurstScenario, HotPartitionRequest, analyse_hot_partitions
from studio.model import Consistency, KeyDesign, Model, TableClass, model_from_document
from workshop.roles import index_serving
from workshop.states import State, state_document
from workshop.verification import SEED, VERIFY_KEY_VALUES, busiest_key_utilisation

BURST_SIGN_UPS = 3700  # the sign-up burst of the issue: 3,700 sign-ups in 200 ms on one key value
BURST_SECONDS = 0.2
MYTH_ITEM_BYTES = 1024  # a 1 KB item for the myth calculations
MYTH_ITEMS = 10


@dataclass(frozen=True)
class Reveal:
    text: str  # Markdown built from fixed wording and computed numbers only (no user text)
    figures: tuple[str, ...]  # the computed numbers as shown in the text


RevealFunction = Callable[[Model], Reveal]


def _design(model: Model) -> Design:
    """The design the Layout page opens on (`propose`'s first), which the attendee is looking at."""
    return propose(model)[0]


def _estimate(model: Model) -> ModelEstimate:
    return estimate_model(EstimateRequest(model=model, compare_designs=False))


def _plan(design: Design, pattern: str) -> PatternPlan:
    """The plan of a pattern the lesson's model holds (each reveal names its own lesson's patterns)."""
    plan = design.plan(pattern)
    if plan is None:
        raise ValueError(f"the design has no plan for the access pattern {pattern!r}")
    return plan


def _key_design(model: Model) -> KeyDesign:
    """The key design of a lesson state's model (each state's document has one)."""
    if model.key_design is None:
        raise ValueError(f"the model {model.name} has no key design")
    return model.key_design


def _pattern_row(estimate: ModelEstimate, pattern: str) -> dict[str, Any]:
    return next(r for r in estimate.pattern_rows if r["access pattern"] == pattern)


def _usd(value: Decimal | None) -> str:
    return "not available" if value is None else f"${value:,.2f}"


def _units(value: Decimal) -> str:
    """Capacity units without trailing zeros: Decimal('5.0') -> '5', Decimal('1.5') -> '1.5'."""
    return f"{value.normalize():f}"


# --- lesson 1: access patterns first ------------------------------------------------------------------


def patterns_overview(model: Model) -> Reveal:
    busiest = max(model.access_patterns, key=lambda p: p.traffic.peak_requests_per_second)
    count, peak = str(len(model.access_patterns)), f"{busiest.traffic.peak_requests_per_second:,.0f}"
    return Reveal(f"The model lists **{count} access patterns** over {len(model.entities)} entities. The busiest "
                  f"is `{busiest.name}` at **{peak} requests/s** at peak: the keys are chosen for the patterns, "
                  "busiest first.", (count, peak))


def proposal_indexes(model: Model) -> Reveal:
    design = _design(model)
    gsis = str(len(design.key_design.global_secondary_indexes))
    uses = "; ".join(f"{c.index} serves {', '.join(f'`{p}`' for p in c.patterns)}" for c in design.index_reasons)
    table_reads = sum(1 for p in design.plans if p.index == "table" and not p.operation.is_write)
    return Reveal(f"The proposal needs **{gsis} GSIs**; {table_reads} reads run on the table's own keys. {uses}.",
                  (gsis, str(table_reads)))


def email_lookup_plan(model: Model) -> Reveal:
    plan = _plan(_design(model), "get_student_by_email")
    items = f"{plan.items_read_per_request:g}"
    return Reveal(f"`get_student_by_email` runs as a **{plan.operation.value} on {plan.index}** with "
                  f"`{plan.key_condition}`, reading **{items} item** per request: the index key is built from "
                  "the pattern's inputs (tenantId, email).", (plan.operation.value, plan.index, items))


# --- lesson 2: the hot partition ---------------------------------------------------------------------


def status_key_findings(model: Model) -> Reveal:
    findings = [f for f in check_design(model, _design(model)) if f.severity is FindingSeverity.ERROR]
    ids = sorted({f.check_id for f in findings})
    hot = next(f for f in findings if f.check_id == "DDS103")
    return Reveal(f"**{len(findings)} errors** ({', '.join(ids)}). The hot one: {hot.message}",
                  (str(len(findings)), *ids))


def status_key_hot_partition(model: Model) -> Reveal:
    design = _design(model)
    index = index_serving(design, "list_students_by_status")  # the status-keyed roster index
    report = analyse_hot_partitions(HotPartitionRequest(
        model=model, design=design, index=index, max_key_values=VERIFY_KEY_VALUES, seed=SEED,
        scenario=BurstScenario(pattern="create_student_by_tenant", requests=float(BURST_SIGN_UPS),
                               duration_seconds=BURST_SECONDS, resolution_seconds=0.1)))
    row = report.skew[report.skew["index"] == index].iloc[0]
    share, need = f"{row['top1_traffic_share']:.0%}", f"{row['busiest_key_utilisation']:.0%}"
    burst = f"{report.timeline['utilisation'].max():.0%}"
    return Reveal(f"On {index} the busiest key value takes **{share} of the traffic** and needs **{need} of one "
                  f"partition** at peak (3,000 RCU / 1,000 WCU). During {BURST_SIGN_UPS:,} sign-ups in "
                  f"{BURST_SECONDS * 1000:.0f} ms the busiest partition reaches **{burst}** of its capacity: "
                  "requests throttle, and a GSI short of writes throttles the table too.", (share, need, burst))


def tenant_status_key(model: Model) -> Reveal:
    design = _design(model)
    index = _plan(design, "list_students_by_status").index
    report = analyse_hot_partitions(HotPartitionRequest(model=model, design=design, index=index,
                                                        max_key_values=VERIFY_KEY_VALUES, seed=SEED))
    need = f"{busiest_key_utilisation(report, index):.1%}"
    row = report.skew[report.skew["index"] == index].iloc[0]
    keys = f"{row['key_values']:,.0f}"
    student = next(k for k in design.key_design.entities if k.entity == "Student")
    template = student.indexes[index].partition_key if index in student.indexes else "TENANT#{tenantId}#STATUS#{status}"
    return Reveal(f"With `{template}` the roster index {index} has **{keys} key values** "
                  f"and its busiest needs **{need}** of one partition at peak.", (keys, need))


# --- lesson 3: item collections and sort keys -------------------------------------------------------------


def customer_collection(model: Model) -> Reveal:
    keys = next(k for k in _key_design(model).entities if k.entity == "Customer")
    sharing = [k.entity for k in _key_design(model).entities if k.table.partition_key == keys.table.partition_key]
    plan = _plan(_design(model), "list_contact_logs_by_customer")
    return Reveal(f"{len(sharing)} entities share the partition `{keys.table.partition_key}`: {', '.join(sharing)}. "
                  f"One **{plan.operation.value}** on `PK = :pk` reads a customer with their contacts and tickets; "
                  f"the sort key's prefix tells them apart.", (str(len(sharing)), plan.operation.value))


def contact_window(model: Model) -> Reveal:
    plan = _plan(_design(model), "list_contact_logs_by_customer")
    row = _pattern_row(_estimate(model), "list_contact_logs_by_customer")
    items, units = f"{plan.items_read_per_request:g}", f"{row['read units per request']:g}"
    return Reveal(f"`{plan.key_condition}`: the ISO-8601 date in `CONTACT#{{contactedAt}}#…` sorts as text in time "
                  f"order, so BETWEEN selects a window. It reads **{items} items** for **{units} RCU** per request "
                  "(sizes added, then rounded up to 4 KB once).", (items, units))


def open_tickets_filter(model: Model) -> Reveal:
    plan = _plan(_design(model), "list_open_tickets_by_customer")
    read, returned = f"{plan.items_read_per_request:.1f}", f"{plan.items_returned_per_request:.1f}"
    return Reveal(f"`{plan.key_condition}` with the filter `{plan.filter_expression}`: about **{read} items read** "
                  f"to return **{returned}**. `begins_with(SK, 'TICKET#')` selects the tickets; the status is "
                  "filtered after the read, and you pay for what is read.", (read, returned))


# --- lesson 4: GSIs are copies you pay for --------------------------------------------------------------


def index_copies(model: Model) -> Reveal:
    estimate = _estimate(model)
    rows = [r for r in estimate.resource_rows if r["kind"] == "GSI"]
    table = next(r for r in estimate.resource_rows if r["kind"] == "table")
    copies = sum(r["storage GiB"] for r in rows)
    parts = ", ".join(f"{r['resource']} {r['storage GiB']:.2f} GiB" for r in rows)
    total, base = f"{copies:.2f} GiB", f"{table['storage GiB']:.2f} GiB"
    return Reveal(f"The table holds **{base}**; its GSIs hold another **{total}** ({parts}), each billed as "
                  "storage and each written on every change to its items.", (base, total))


def overloaded_indexes(model: Model) -> Reveal:
    """Which entities share each GSI: an overloaded index serves several patterns with one set of key attributes."""
    users = {gsi.name: [k.entity for k in _key_design(model).entities if gsi.name in k.indexes]
             for gsi in _key_design(model).global_secondary_indexes}
    shared = {name: entities for name, entities in users.items() if len(entities) > 1}
    listing = "; ".join(f"{name}: {', '.join(entities)}" for name, entities in users.items())
    count = f"{len(shared)} of {len(users)}"
    example = next((i for i in _key_design(model).global_secondary_indexes if i.name in shared),
                   _key_design(model).global_secondary_indexes[0])
    generic = ", ".join(k.name for k in (example.partition_key, example.sort_key) if k is not None)
    return Reveal(f"{listing}. **{count}** GSIs are overloaded: their generic key attributes ({generic}) "
                  "hold different entities' templates, so one index serves several access patterns instead of "
                  "one index each.", (count,))


def xp_write_amplification(model: Model) -> Reveal:
    row = _pattern_row(_estimate(model), "increment_student_xp_by_id")
    units, detail = f"{row['write units per request']:g}", row["index writes (units per request)"]
    usd = _usd(row["on-demand USD/month"])
    return Reveal(f"One `increment_student_xp_by_id` costs **{units} write units**: 1 on the table plus "
                  f"{detail}. The leaderboard index's key contains xp, so each change deletes the old entry and "
                  f"puts a new one (2 writes). On demand that is **{usd} a month** for this pattern alone.",
                  (units, usd))


# --- lesson 5: filters don't save money ----------------------------------------------------------------


def unpaid_report_scan(model: Model) -> Reveal:
    plan = _plan(_design(model), "list_unpaid_orders_by_date")
    row = _pattern_row(_estimate(model), "list_unpaid_orders_by_date")
    read, returned = f"{plan.items_read_per_request:,.0f}", f"{plan.items_returned_per_request:,.0f}"
    units = f"{row['read units per request']:,.1f}"
    return Reveal(f"The report is a **{plan.operation.value}** with `{plan.filter_expression}`: it reads "
                  f"**{read} items** to return **{returned}**, about **{units} RCU** per run. The filter runs "
                  "after the read, so it saves nothing.", (plan.operation.value, read, returned, units))


def unpaid_report_sparse(model: Model) -> Reveal:
    sparse = _pattern_row(_estimate(model), "list_unpaid_orders_by_date")
    scanning = _pattern_row(_estimate(model_from_document(state_document(State.SHOP_SCAN))),
                            "list_unpaid_orders_by_date")
    sparse_units, scan_units = sparse["read units per request"], scanning["read units per request"]
    ratio = f"{scan_units / sparse_units:,.0f}×"
    index = index_serving(_design(model), "list_unpaid_orders_by_date")
    return Reveal(f"With the sparse {index} the report is a Query reading only unpaid orders: "
                  f"**{sparse_units:,.1f} RCU** per run against **{scan_units:,.1f} RCU** for Scan + filter, "
                  f"**{ratio} fewer**. Paid orders have no {index} keys, so they cost no index writes "
                  "or storage.", (f"{sparse_units:,.1f}", f"{scan_units:,.1f}", ratio))


# --- lesson 6: choosing the capacity mode ---------------------------------------------------------------

_OPTIONS = (CapacityOption.ON_DEMAND, CapacityOption.PROVISIONED_FIXED, CapacityOption.PROVISIONED_AUTOSCALING,
            CapacityOption.RESERVED_1Y)


def capacity_options(model: Model) -> Reveal:
    cost = _estimate(model).cost
    totals = [(label(o), _usd(cost.option(o, TableClass.STANDARD).monthly_total_usd)) for o in _OPTIONS]
    best = cost.recommendation
    best_text = f"{label(best.option)} ({label(best.table_class)})" if best else "none"
    listing = "; ".join(f"{name} **{usd}**" for name, usd in totals)
    return Reveal(f"Monthly cost for this traffic shape: {listing}. Recommended: **{best_text}**. "
                  + (best.reason if best else ""), (*(usd for _, usd in totals), best_text))


# --- lesson 7: myth busting (dynamodb-rules §14, with the rules of §1 and prices of §9) ----------------------


def myth_batch_get(_: Model) -> Reveal:
    batch = _units(batch_get_item_units([MYTH_ITEM_BYTES] * MYTH_ITEMS).read_units)
    query = _units(query_units([MYTH_ITEM_BYTES] * MYTH_ITEMS).read_units)
    return Reveal(f"False. BatchGetItem rounds each of {MYTH_ITEMS} items of 1 KB up to 4 KB: **{batch} RCU** "
                  f"(eventual). A Query reading the same {MYTH_ITEMS} items adds the sizes first: **{query} RCU**.",
                  (batch, query))


def myth_filter(model: Model) -> Reveal:
    plan = _plan(_design(model), "list_open_tickets_by_customer")
    sizes = [MYTH_ITEM_BYTES] * round(plan.items_read_per_request)
    returned = round(plan.items_returned_per_request)
    paid = _units(query_units(sizes).read_units)
    if_free = _units(query_units([MYTH_ITEM_BYTES] * max(returned, 1)).read_units)
    return Reveal(f"False. DynamoDB filters after reading: `list_open_tickets_by_customer` reads {len(sizes)} items "
                  f"of 1 KB and pays **{paid} RCU** whatever it returns; if the filter saved capacity it would pay "
                  f"**{if_free} RCU** for the {returned} it returns.", (paid, if_free))


def myth_partition(_: Model) -> Reveal:
    reads, writes = f"{PARTITION_READ_UNITS:,}", f"{PARTITION_WRITE_UNITS:,}"
    return Reveal(f"False. A partition serves **{reads} RCU and {writes} WCU** per second (the design checks and "
                  "the Hot partitions page use these limits).", (reads, writes))


def myth_projection(_: Model) -> Reveal:
    whole = _units(get_item_units(8 * 1024, Consistency.STRONG).read_units)
    return Reveal(f"False. Consumption follows the whole item: a strongly consistent GetItem of an 8 KB item costs "
                  f"**{whole} RCU** whether you project one attribute or all.", (whole,))


def myth_on_demand_price(model: Model) -> Reveal:
    sheet = load_price_sheet(model.table.region)
    even = break_even_utilization(sheet, TableClass.STANDARD, CapacityDimension.WRITE)
    factor = f"{1 / even:.1f}×" if even else "n/a"
    percent = f"{even:.1%}" if even else "n/a"
    return Reveal(f"Outdated. With the {sheet.region} prices of {sheet.effective_date}, provisioned capacity used "
                  f"100 % of the time is **{factor}** cheaper than on-demand, and on-demand wins below "
                  f"**{percent}** utilisation (not 7×).", (factor, percent))


def myth_gsi_strong(model: Model) -> Reveal:
    design = _design(model)
    eventual = _plan(design, "get_student_by_email")
    pattern = next(p for p in model.access_patterns if p.name == "get_student_by_email")
    strong = plan_pattern(model, design.key_design, pattern.model_copy(update={"consistency": Consistency.STRONG}))
    read = f"{strong.items_read_per_request:,.0f}"
    return Reveal(f"False. GSIs are eventually consistent only. Eventually consistent, `get_student_by_email` is a "
                  f"{eventual.operation.value} on **{eventual.index}** reading {eventual.items_read_per_request:g} "
                  f"item. Asked to be strong, it must use the table's keys: a {strong.operation.value} on "
                  f"**{strong.index}** with the filter `{strong.filter_expression}`, reading **{read} items** per "
                  "request (checks DDS202/DDS203).", (eventual.index, strong.index, read))


# --- lesson 8: writes that stay correct under concurrency ---------------------------------------------

XP_PATTERN = "increment_student_xp_by_id"


def lost_update(model: Model) -> Reveal:
    found = [f for f in check_design(model, _design(model)) if f.check_id == "DDS308" and XP_PATTERN in f.path]
    plan = _design(model).plan(XP_PATTERN)
    expression = plan.write.members[0].update_expression if plan and plan.write else ""
    verdict = f"**DDS308** fires ({len(found)} finding)" if found else "no DDS308 finding (0 findings)"
    return Reveal(f"The increment sends `{expression}` with no condition: {verdict}. Two lessons finishing at once "
                  "both read the same xp and both write it one higher, so one increment is lost, silently.",
                  (expression, str(len(found))))


def version_condition(model: Model) -> Reveal:
    plan = _design(model).plan(XP_PATTERN)
    member = plan.write.members[0] if plan and plan.write else None
    condition = member.condition_expression if member else ""
    row = _pattern_row(_estimate(model), XP_PATTERN)
    reads = f"{row['read units per request']:g}"
    return Reveal(f"With `ConditionExpression {condition}` the write fails with ConditionalCheckFailedException when "
                  f"another client changed the item since it was read; the client reads again and retries. Every "
                  f"increment now also costs the read first (**{reads} RCU**), and a failed attempt still "
                  "consumes its write units (AWS: "
                  "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).",
                  (condition, reads))


def atomic_add(model: Model) -> Reveal:
    plan = _design(model).plan(XP_PATTERN)
    expression = plan.write.members[0].update_expression if plan and plan.write else ""
    row = _pattern_row(_estimate(model), XP_PATTERN)
    reads, writes = f"{row['read units per request']:g}", f"{row['write units per request']:g}"
    return Reveal(f"`{expression}` adds on the item itself: no read first (**{reads} RCU**), **{writes} write "
                  "units** per increment, and no update is ever lost, however many clients add at once.",
                  (expression, reads, writes))
