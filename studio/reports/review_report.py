"""The cost-review report: one model's design, checks, hot partitions, capacity and cost, ready to sign off.

`build_review_report(ReviewRequest(...))` runs the engines once (the estimate, the design checks and the
hot-partition analysis) and assembles a `ReviewReport`: a header naming the exact model file (its SHA-256)
and sections of plain blocks (paragraphs, facts, tables, charts, the sign-off). `studio.reports.review_render`
turns it into Markdown or a self-contained HTML file. Charts are data here (`Chart` rows); the edges (the
CLI, the Report page) draw them with `studio.charts` and pass the HTML fragments in, so nothing in the
domain imports plotly.

>>> from datetime import UTC, datetime
>>> from modeling.examples import load_example
>>> model = load_example("student_platform")
>>> source = ModelSource.of_bytes("student.yaml", b"...")
>>> report = build_review_report(ReviewRequest(EstimateRequest(model), source, datetime(2026, 1, 2, tzinfo=UTC),
...                                            hot_key_values=10_000))
>>> [s.anchor for s in report.sections][:3]
['summary', 'purpose', 'key-design']
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from costs.estimate import (
    EstimateRequest,
    ModelEstimate,
    autoscaling_day,
    break_even_curve,
    cost_components,
    price_rows,
)
from costs.pricing import CapacityDimension, break_even_utilization, price_sheet_file, price_source_line
from costs.report_text import line_item_rows, option_rows
from costs.usage import CapacityOption, label
from modeling.design.checks import Finding, check_design
from modeling.design.design_report import (
    ENTITY_CHART_COLUMNS,
    PATTERN_CHART_COLUMNS,
    entity_chart,
    index_rows,
    pattern_chart,
)
from modeling.design.plans import Design
from modeling.errors import ModelFileError, Problem
from modeling.hot_partitions import PAGE_KEY_VALUES, HotPartitionReport, HotPartitionRequest, analyse_hot_partitions
from modeling.model import Model, TableClass
from modeling.model_file import MAX_FILE_BYTES, model_from_document, parse_document
from studio.estimate import estimate_model

DECISIONS = ("Approved", "Approved with conditions (write them below)", "Rejected (say why below)")
SIGN_OFF_FIELDS = ("Reviewer (name and role)", "Date", "Signature")
SKEW_COLUMNS = ("index", "key_values", "partitions", "top1_traffic_share", "busiest_key_utilisation",
                "largest_collection_bytes", "verdict")


@dataclass(frozen=True)
class ModelSource:
    """Which exact model file the report is about: its name and the SHA-256 of its bytes."""

    file_name: str
    sha256: str

    @classmethod
    def of_bytes(cls, file_name: str, data: bytes) -> ModelSource:
        return cls(file_name, hashlib.sha256(data).hexdigest())


@dataclass(frozen=True)
class ReviewRequest:
    estimate: EstimateRequest  # the model and the estimate's assumptions (Region, design, target, overrides)
    source: ModelSource
    generated_at: datetime  # passed in: the report never reads the clock
    hot_key_values: int = PAGE_KEY_VALUES  # key values simulated per template (the Hot partitions page's default)
    seed: int = 42


# --- the blocks a section is made of ------------------------------------------------------------------


class ReviewChart(StrEnum):
    """The charts of the report; `studio.charts.review_figure` draws each from its rows."""

    COST_BY_OPTION = "cost-by-option"
    COST_BY_PATTERN = "cost-by-pattern"
    UNITS_BY_RESOURCE = "units-by-resource"
    AUTOSCALING_DAY = "autoscaling-day"
    BREAK_EVEN = "break-even"


@dataclass(frozen=True)
class Paragraph:
    text: str
    lead: str = ""  # a bold lead-in ("Recommendation.")


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Facts:
    """Label/value pairs (a definition list)."""

    pairs: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Table:
    """Rows of raw values (Decimal, float, str...); renderers format them with `cell_text`."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    empty_note: str = "none"

    @classmethod
    def of_dicts(cls, title: str, rows: list[dict[str, Any]] | tuple[dict[str, Any], ...],
                 columns: tuple[str, ...] | None = None, empty_note: str = "none") -> Table:
        columns = columns or (tuple(rows[0]) if rows else ())
        return cls(title, columns, tuple(tuple(r.get(c) for c in columns) for r in rows), empty_note)


@dataclass(frozen=True)
class Chart:
    """A chart as data: tidy rows for the figure builder, and a marker (the break-even %) where it has one."""

    chart: ReviewChart
    title: str
    rows: tuple[dict[str, Any], ...]
    marker: float | None = None


@dataclass(frozen=True)
class SignOff:
    fields: tuple[str, ...] = SIGN_OFF_FIELDS
    decisions: tuple[str, ...] = DECISIONS


Block = Paragraph | Bullets | Facts | Table | Chart | SignOff


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class ReviewReport:
    title: str
    model_name: str
    source: ModelSource
    generated_at: datetime
    header: Facts
    sections: tuple[Section, ...]
    estimate: ModelEstimate  # what every number in the report comes from

    def section(self, anchor: str) -> Section:
        return next(s for s in self.sections if s.anchor == anchor)

    @property
    def charts(self) -> tuple[Chart, ...]:
        return tuple(b for s in self.sections for b in s.blocks if isinstance(b, Chart))


# --- loading the exact file ---------------------------------------------------------------------------


def load_reviewed_model(path: Path) -> tuple[Model, ModelSource]:
    """The model in a file and the file's hash (of the bytes read, so the hash is of what was priced)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ModelFileError([Problem("", f"cannot read the file: {exc.strerror}",
                                      "check the path and permissions")], str(path)) from None
    try:
        model = model_from_document(parse_document(data, path.name), str(path))
    except ModelFileError as exc:
        raise ModelFileError(exc.problems, str(path)) from None
    return model, ModelSource.of_bytes(path.name, data)


# --- building -----------------------------------------------------------------------------------------


def build_review_report(request: ReviewRequest,
                        progress: Callable[[float, str], None] | None = None) -> ReviewReport:
    """Run the estimate, the checks and the hot-partition analysis for one model; assemble the report.

    `progress(fraction done, what comes next)` is told before each engine runs (the page's progress bar)."""
    say = progress or (lambda _fraction, _step: None)
    model = request.estimate.model
    say(0.0, "Estimating capacity and cost of every option and design")
    result = estimate_model(request.estimate)  # UnknownDesignError for a design the model does not have
    say(0.4, "Checking the design")
    findings = check_design(model, result.design)
    say(0.5, "Simulating the hot partitions")
    hot = analyse_hot_partitions(HotPartitionRequest(model=model, design=result.design,
                                                     max_key_values=request.hot_key_values, seed=request.seed))
    say(0.9, "Writing the sections")
    sections = (_summary(result, findings, hot), _purpose(request, result), _key_design(result.design),
                _checks(findings), _hot_partitions(request, hot), _capacity(result), _cost(request, result),
                _designs(result), _prices(result), _sign_off(request, model))
    say(1.0, "Done")
    return ReviewReport(f"Cost review: {model.name}", model.name, request.source, request.generated_at,
                        _header(request, result), sections, result)


def _header(request: ReviewRequest, result: ModelEstimate) -> Facts:
    sheet = result.price_sheet
    return Facts((("Model", request.estimate.model.name), ("Model file", request.source.file_name),
                  ("SHA-256 of the model file", request.source.sha256),
                  ("Generated", request.generated_at.strftime("%Y-%m-%d %H:%M UTC")),
                  ("Design priced", result.design.name),
                  ("Region", f"{sheet.region} (prices effective {sheet.effective_date})")))


def _severity_counts(severities: list[str]) -> str:
    counts = {s: severities.count(s) for s in ("error", "warning", "info")}
    return ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items())


def _percent(fraction: Any) -> str:
    return "n/a" if fraction is None else f"{float(fraction) * 100:.1f} %"


def _summary(result: ModelEstimate, findings: list[Finding], hot: HotPartitionReport) -> Section:
    best = result.cost.recommendation
    counts = (("Design checks", _severity_counts([f.severity.value for f in findings])),
              ("Hot-partition findings", _severity_counts([f.severity.value for f in hot.findings])))
    if best is None:
        return Section("summary", "Summary", (Paragraph("No option has every price in this Region, so there is "
                                                        "no recommendation; see the options below.",
                                                        "No recommendation."), Facts(counts)))
    facts = [("Recommended option", f"{label(best.option)} ({label(best.table_class)})"),
             ("Monthly cost (USD)", best.monthly_cost_usd), ("Runner-up", best.runner_up),
             ("Saving vs the runner-up (USD/month)", best.saving_usd),
             ("Saving vs on-demand (USD/month)", best.saving_vs_on_demand_usd),
             ("Break-even utilisation of provisioned reads", _percent(best.break_even_read_utilization)), *counts]
    if best.excluded_lines:
        facts.append(("Not in the total (no price, same for every option)", "; ".join(best.excluded_lines)))
    return Section("summary", "Summary", (Paragraph(best.reason, "Recommendation."), Facts(tuple(facts))))


def _purpose(request: ReviewRequest, result: ModelEstimate) -> Section:
    model, estimate = request.estimate.model, request.estimate
    table = model.table
    settings = (("Table", table.name), ("Region", table.region),
                ("Billing mode in the model", table.billing_mode.value), ("Table class", table.table_class.value),
                ("Point-in-time recovery", table.point_in_time_recovery),
                ("Stream", table.stream_view_type.value if table.stream_view_type else "off"),
                ("Global-table replicas", ", ".join(table.replica_regions) or "none"),
                ("Daily traffic profile", model.traffic_profile.shape.value))
    overrides = "; ".join(f"{i.value} {c.value if c else ''} = {v} USD" for i, c, v in estimate.price_overrides)
    inputs = (("Region priced", result.price_sheet.region),
              ("Auto scaling target utilisation", estimate.target_utilization),
              ("Free tier applied", estimate.free_tier), ("Negotiated price overrides", overrides or "none"),
              ("On-demand backups kept (GB)", estimate.extras.on_demand_backup_gb),
              ("Billable stream read requests per month", estimate.extras.stream_read_requests_per_month),
              ("Hot-partition simulation", f"{request.hot_key_values:,} key values per template, seed {request.seed}"))
    entities = [{"entity": e.name, "description": e.description, "items": e.item_count,
                 "monthly growth %": e.monthly_growth_percent} for e in model.entities]
    patterns = [{"access pattern": p.name, "description": p.description, "kind": p.kind.value,
                 "entities": ", ".join(p.entities), "peak requests/s": p.traffic.peak_requests_per_second,
                 "average requests/s": p.traffic.average_requests_per_second, "consistency": p.consistency.value}
                for p in model.access_patterns]
    purpose = model.description or "The model states no purpose; add a description to the model file."
    return Section("purpose", "Purpose and assumptions", (
        Paragraph(purpose, "Purpose."), Table("Table settings (from the model)", ("setting", "value"), settings),
        Table.of_dicts("Entities and their sizes", entities), Table.of_dicts("Access patterns and traffic", patterns),
        Table("Inputs of this estimate", ("input", "value"), inputs),
        Paragraph("The estimate rests on these assumptions:"), Bullets(result.cost.assumptions)))


def _key_design(design: Design) -> Section:
    key = design.key_design
    why = {c.index: c.reason for c in design.index_reasons}
    indexes = [{**row, "why": why.get(row["index"], "")} for row in index_rows(key)]
    return Section("key-design", "Key design and why", (
        Paragraph(design.summary, f"{design.name}."),
        Facts((("Partition key attribute", key.partition_key.name),
               ("Sort key attribute", key.sort_key.name if key.sort_key else "none"))),
        Table.of_dicts("Entity chart", entity_chart(design), ENTITY_CHART_COLUMNS),
        Table.of_dicts("Secondary indexes", indexes, empty_note="no secondary indexes"),
        Table.of_dicts("Access-pattern chart", pattern_chart(design), PATTERN_CHART_COLUMNS)))


def _checks(findings: list[Finding]) -> Section:
    rows = [{"severity": f.severity.value, "check": f.check_id, "title": f.title, "where": f.path,
             "finding": f.message, "fix": f.fix, "documentation": f.doc_url} for f in findings]
    return Section("checks", "Design checks", (
        Paragraph(f"{_severity_counts([f.severity.value for f in findings])}, most severe first. "
                  "Throughput figures in the checks are approximations for spotting problems; the cost "
                  "sections below use the exact rules."),
        Table.of_dicts("Design-check findings", rows, empty_note="no findings")))


def _hot_partitions(request: ReviewRequest, hot: HotPartitionReport) -> Section:
    rows = [{"severity": f.severity.value, "index": f.index, "access pattern": f.pattern or "",
             "key value": f.key_value, "finding": f.message, "fix": f.fix} for f in hot.findings]
    skew = hot.skew[list(SKEW_COLUMNS)].to_dict("records")
    return Section("hot-partitions", "Hot partitions", (
        Paragraph(f"APPROXIMATE: each access pattern's peak traffic spread over {request.hot_key_values:,} "
                  f"simulated key values per key template (seed {request.seed}), hashed onto estimated physical "
                  "partitions and compared with 3,000 RCU / 1,000 WCU / 10 GB per partition."),
        Table.of_dicts("Hot-partition findings", rows,
                       empty_note="no key value or partition goes over DynamoDB's limits at peak"),
        Table.of_dicts("Skew per index", skew, SKEW_COLUMNS)))


def _capacity(result: ModelEstimate) -> Section:
    sizes = [{"entity": s.entity, "average item bytes (used)": s.average_bytes,
              "sample p95 bytes": s.sample_p95_bytes, "largest bytes (max hints)": s.maximum_bytes}
             for s in result.profile.entity_sizes]
    return Section("capacity", "Capacity per access pattern", (
        Chart(ReviewChart.COST_BY_PATTERN, "On-demand cost per access pattern", result.pattern_rows),
        Table.of_dicts("Capacity and on-demand cost per access pattern", result.pattern_rows),
        Chart(ReviewChart.UNITS_BY_RESOURCE, "Average capacity units per second, table and indexes",
              result.resource_rows),
        Table.of_dicts("Table and indexes", result.resource_rows),
        Table.of_dicts("Item sizes", sizes)))


def _throttling_rows(cost: Any) -> list[dict[str, Any]]:
    """Per provisioned option, table or GSI and dimension: minutes over capacity and what burst leaves."""
    rows = []
    for option in cost.options:
        if option.table_class is not TableClass.STANDARD or option.option not in (
                CapacityOption.PROVISIONED_FIXED, CapacityOption.PROVISIONED_AUTOSCALING):
            continue
        for plan in option.capacity:
            risk = plan.throttling
            rows.append({"option": label(option.option), "resource": plan.resource, "capacity": plan.dimension.value,
                         "busiest minute units/s": round(plan.peak_demand_units_per_second, 2),
                         "highest capacity": plan.peak_capacity_units,
                         "minutes over capacity": risk.minutes_over_capacity if risk else None,
                         "largest excess units/s": round(risk.peak_excess_units_per_second, 2) if risk else None,
                         "unit-seconds unserved after burst": round(risk.throttled_unit_seconds_after_burst)
                         if risk else None})
    return rows


def _cost(request: ReviewRequest, result: ModelEstimate) -> Section:
    best, cost = result.cost.recommendation, result.cost
    table_class = TableClass(request.estimate.model.table.table_class)
    reads = break_even_utilization(result.price_sheet, table_class, CapacityDimension.READ)
    options = [{**row, "status": o.status, "recommended": best is not None and
                o.option is best.option and o.table_class is best.table_class}
               for row, o in zip(option_rows(cost), cost.options, strict=True)]
    notices = tuple(Paragraph(text, label_text) for text, label_text in (
        *((result.region_message, "Region not priced."),) * bool(result.region_message),
        *((f, "Quota.") for f in cost.quota_findings)))
    lines = [{k: v for k, v in row.items() if k != "source"} for row in line_item_rows(cost)]
    growth = [{"table class": label(p.table_class), "after months": p.month, "storage GB": p.storage_gb,
               "monthly USD": p.monthly_cost_usd} for p in cost.storage_projections]
    return Section("cost", "Monthly cost of each option", (
        *notices,
        Paragraph(best.reason if best else "No option has every price, so there is no recommendation.",
                  "Recommendation."),
        Chart(ReviewChart.COST_BY_OPTION, "Monthly cost by option and component", tuple(cost_components(cost))),
        Table.of_dicts("Options (USD per month; a month is 730 hours)", options),
        Table.of_dicts("Line items (each rounded to the cent; totals are their sums)", lines),
        Table.of_dicts("Throttling risk over a day (Standard; burst capacity keeps up to 300 s of unused capacity, "
                       "best effort)", _throttling_rows(cost), empty_note="no provisioned option"),
        Chart(ReviewChart.AUTOSCALING_DAY, f"Auto scaling of the table's reads over a day (target "
                                           f"{request.estimate.target_utilization:.0%})",
              tuple(autoscaling_day(result.usage, request.estimate.target_utilization))),
        Chart(ReviewChart.BREAK_EVEN, "Throughput cost: on-demand vs provisioned",
              tuple(break_even_curve(result.usage, result.price_sheet, table_class)),
              float(reads) * 100 if reads else None),
        Table.of_dicts("Storage with growth", growth)))


def _designs(result: ModelEstimate) -> Section:
    if not result.comparison:
        return Section("designs", "Design comparison", (
            Paragraph("Only one design is proposed for this model, so there is nothing to compare."),))
    deltas = [r for r in result.line_deltas if r["delta USD/month"] not in (None, 0)]
    return Section("designs", "Design comparison", (
        Bullets(tuple(f"{d.name}: {d.summary}" for d in result.designs)),
        Table.of_dicts("Candidates priced with the same assumptions", result.comparison),
        Table.of_dicts("Line items that differ (on-demand, Standard)", deltas, empty_note="no line item differs")))


def _prices(result: ModelEstimate) -> Section:
    sheet = result.price_sheet
    assumed = sorted({f"{i.name}: {i.note or i.source}" for o in result.cost.options for i in o.line_items
                      if i.is_assumption})
    return Section("prices", "Price sources", (
        Table("Price sheet", ("field", "value"), (
            ("Region", sheet.region), ("Source", price_source_line(sheet)), ("Effective", sheet.effective_date),
            ("Retrieved", sheet.retrieved_date), ("Currency", sheet.currency), ("File", price_sheet_file(sheet)),
            ("Notes", sheet.notes))),
        Paragraph("Prices marked as assumptions are UNCONFIRMED or third-party figures: check them before "
                  "relying on the options that use them.", "Assumptions."),
        Bullets(tuple(assumed) or ("No line item of this estimate uses an assumed price.",)),
        Table.of_dicts("Every price, with its source and confidence", price_rows(sheet))))


def _sign_off(request: ReviewRequest, model: Model) -> Section:
    return Section("sign-off", "Sign-off", (
        Paragraph(f"This review covers the model \u201c{model.name}\u201d in the file {request.source.file_name} "
                  f"with SHA-256 {request.source.sha256}, priced on "
                  f"{request.generated_at:%Y-%m-%d} with the prices and assumptions above. A changed model file "
                  "has a different hash and needs a new review."),
        SignOff()))
