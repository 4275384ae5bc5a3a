"""Command line: `python -m costs design MODEL | check MODEL | item-size | units | monthly | estimate MODEL |
export-iac | export-loadtest MODEL`.

    python -m costs design model.yaml --format json     (the designs `propose` ranks, the default first)
    python -m costs check model.yaml --design Proposed

    python -m costs item-size '{"id": {"S": "A1"}, "n": {"N": "101"}}'      -> {"bytes": 8}
    python -m costs units --operation Query --item-bytes 1536 --items 10 --consistency strong
    python -m costs monthly --region us-east-1 --reads-per-second 100 --read-item-bytes 2000 \\
        --read-consistency eventual --writes-per-second 10 --write-item-bytes 900 --storage-gb 50
    python -m costs report model.yaml -o review.html       (or -o review.md; the cost-review report)
    python -m costs export-iac model.yaml --format cloudformation -o template.yaml
    python -m costs export-loadtest model.yaml --format locust -o locustfile.py

Library first: each command parses its arguments, calls one `costs` function and prints JSON (or text).
This module is an edge like the pages: `report` draws the charts with `costs.charts` and passes them in.
Bad input prints one line on stderr and exits 2 (usage) or 1 (rejected value); never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from costs.autoscaling import DEFAULT_TARGET_UTILIZATION, ScalingPolicy
from costs.design_ranking import chosen_design, proposal_refusal, propose, search_note
from costs.errors import CostError, ModelInputError, UnknownDesignError, UsageError
from costs.estimate import REGION_NAME, EstimateRequest
from costs.item_size import item_size_bytes, parse_item_json
from costs.monthly import estimate_monthly_cost
from costs.pricing import available_regions, price_sheet_for, priced_regions
from costs.report_text import (
    cost_estimate_json,
    cost_estimate_text,
    estimate_csv,
    estimate_json,
    estimate_markdown,
    estimate_text,
)
from costs.units import get_item_units, put_item_units, request_units
from costs.usage import BYTES_PER_GB, CapacityOption, EstimateOptions, ResourceUsage, TableUsage
from modeling.cli_exit import load_listing_problems, run_cli
from modeling.design.checks import FindingSeverity, check_design
from modeling.design.design_report import designs_json, designs_markdown
from modeling.design.generator import replace_key_design
from modeling.design.plans import Operation
from modeling.errors import ModelFileError, ModelingError
from modeling.hot_partitions import PAGE_KEY_VALUES
from modeling.hot_partitions.frames import MAX_KEY_VALUES
from modeling.interop.infrastructure import LABELS, IacFormat, parse_tags
from modeling.item_size import ITEM_SIZE_LIMIT_BYTES
from modeling.model import Consistency, KeyDesign, Model, TableClass
from modeling.model_file import FileFormat, dump_model, load_model_file
from modeling.preview.dataset import DEFAULT_PREVIEW_ITEMS, MAX_PREVIEW_ITEMS
from modeling.preview.loadtest import LoadTestFormat
from studio import charts
from studio.estimate import estimate_model
from studio.iac.infrastructure import InfrastructureRequest, export_infrastructure
from studio.iac.monitoring import MonitoringOptions
from studio.load_test import export_load_test
from studio.reports.review_render import review_html, review_markdown
from studio.reports.review_report import ReviewRequest, build_review_report, load_reviewed_model

if TYPE_CHECKING:  # imported where used: the migration modules load only for `migrate`
    from studio.migration import PricedPlan

TABLE_CLASSES = {"standard": TableClass.STANDARD, "standard-ia": TableClass.STANDARD_INFREQUENT_ACCESS}
QUICK_OPTIONS = (CapacityOption.ON_DEMAND, CapacityOption.PROVISIONED_FIXED, CapacityOption.RESERVED_1Y,
                 CapacityOption.RESERVED_3Y)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2) instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        output: str | tuple[str | None, int] | None = args.run(args)
    except CostError as exc:
        print(f"python -m costs {args.command}: error: {exc}", file=sys.stderr)
        return 1
    output, code = output if isinstance(output, tuple) else (output, 0)
    if output is not None:  # None: the command printed what it had to say itself
        print(output)
    return code


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m costs", description="DynamoDB capacity and cost quick calculator")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_design(commands.add_parser("design", help="propose key designs for a model (the cost-based search's "
                                                   "ranking, as on every page) and explain every choice"))
    _add_check(commands.add_parser("check", help="check a model's key design against the rules that break designs"))
    size = commands.add_parser("item-size", help="bytes of an item in DynamoDB JSON (file or inline)")
    size.add_argument("item", metavar="ITEM", help="a file path, or the item as inline JSON")
    size.set_defaults(run=_item_size)
    _add_units(commands.add_parser("units", help="capacity units of one request"))
    _add_monthly(commands.add_parser("monthly", help="monthly cost of a table with flat traffic"))
    _add_estimate(commands.add_parser("estimate", help="capacity and monthly cost of a model file; "
                                                     "--budget-usd exits 3 when the recommendation exceeds it"))
    _add_report(commands.add_parser("report", help="the cost-review report of a model file, as one self-contained "
                                                   "HTML file or Markdown, with a sign-off block"))
    _add_export_iac(commands.add_parser("export-iac", help="the model's table as CloudFormation, Terraform or "
                                                          "create-table JSON, sized by the cost engine"))
    _add_migrate(commands.add_parser("migrate", help="the changes from OLD to NEW and the priced, ordered migration "
                                                     "plan (Markdown or JSON); --script writes the migration script"))
    _add_export_loadtest(commands.add_parser("export-loadtest", help="a Locust file or k6 script from the "
                                                                    "access patterns' traffic mix"))
    return parser


def _add_design(design: argparse.ArgumentParser) -> None:
    design.add_argument("file", type=Path, metavar="MODEL")
    design.add_argument("--format", choices=["json", "md"], default="md")
    design.add_argument("--write", action="store_true",
                        help="write the first design into the model file (YAML comments are not kept)")
    design.set_defaults(run=_design)


def _design(args: argparse.Namespace) -> tuple[str | None, int]:
    """The designs every page offers (`propose`), the default first; --write adopts the first."""
    model = load_listing_problems(args.file)
    if model is None:
        return None, 1
    designs = propose(model)
    if not designs:
        chosen_design(designs, None, proposal_refusal(model))  # every candidate failed the checks: says why
        raise ModelInputError("the model has no design yet", "MODEL", str(args.file),
                              "add an entity with its identifier, then the access patterns that use it")
    text = designs_json(designs) if args.format == "json" else designs_markdown(model, designs)
    print(text, end="")
    if note := search_note(model):
        print(note, file=sys.stderr)  # stdout stays the designs (JSON stays parseable)
    if args.write:
        chosen = replace_key_design(model, designs[0].key_design)
        fmt = FileFormat.from_filename(args.file.name) or FileFormat.YAML
        try:
            args.file.write_text(dump_model(chosen, fmt), encoding="utf-8")
        except OSError as exc:
            print(f"{args.file}: cannot write the design: {exc.strerror}", file=sys.stderr)
            return None, 1
        print(f"{args.file}: wrote the design '{designs[0].name}' into key_design", file=sys.stderr)
    return None, 0


def _add_check(check: argparse.ArgumentParser) -> None:
    check.add_argument("file", type=Path, metavar="MODEL")
    check.add_argument("--format", choices=["json", "text"], default="text")
    check.add_argument("--design", default=None, help="which design to check (default: the model's own, "
                                                      "else the first proposal)")
    check.set_defaults(run=_check)


def _check(args: argparse.Namespace) -> tuple[str | None, int]:
    """Print the findings; exit 1 when any has severity error (2 for an unknown design name)."""
    model = load_listing_problems(args.file)
    if model is None:
        return None, 1
    designs = propose(model)
    try:
        design = chosen_design(designs, args.design, proposal_refusal(model))
    except UnknownDesignError:
        print(f"{args.file}: no design named {args.design!r}; choose one of: "
              + ", ".join(d.name for d in designs), file=sys.stderr)
        return None, 2
    findings = check_design(model, design)
    if args.format == "json":
        print(json.dumps({"design": design.name, "findings": [asdict(f) for f in findings]}, indent=2))
    else:
        print(f"{args.file}: design '{design.name}': {len(findings)} finding(s)")
        for f in findings:
            print(f"{f.severity}: {f.check_id} {f.path}: {f.message}\n  fix: {f.fix}\n  see: {f.doc_url}")
    return None, 1 if any(f.severity is FindingSeverity.ERROR for f in findings) else 0


def _add_migrate(migrate: argparse.ArgumentParser) -> None:
    migrate.add_argument("old", type=Path, metavar="OLD", help="the model as it is live (JSON or YAML)")
    migrate.add_argument("new", type=Path, metavar="NEW", help="the model it becomes (the same file for two designs)")
    migrate.add_argument("--format", choices=["md", "json"], default="md")
    migrate.add_argument("--old-design", help="the OLD design's name (default: the model's own, else the first "
                                              "proposal); with --new-design, compares two designs of one model")
    migrate.add_argument("--new-design", help="the NEW design's name (default as for --old-design)")
    migrate.add_argument("--rate", type=float, default=None, metavar="ITEMS_PER_SECOND",
                         help="write rate the durations assume (default 500 items/s)")
    migrate.add_argument("--grey-days", type=int, default=None, help="days of dual writes before the cut-over "
                                                                    "(new-table migrations; default 7)")
    migrate.add_argument("--fill", action="append", default=[], metavar="ENTITY.ATTRIBUTE=VALUE",
                         help="a value for old items that lack an attribute the NEW keys read (repeatable)")
    migrate.add_argument("--script", type=Path, metavar="FILE", help="also write the migration script here")
    migrate.add_argument("--rehearse", action="store_true",
                         help="also rehearse it on the preview endpoint (DESIGN_STUDIO_ENDPOINT, else the embedded "
                              "one): sample data loaded with OLD, migrated, counted by key, NEW patterns checked; "
                              "exit 1 when the rehearsal fails. Its tables are deleted afterwards")
    migrate.add_argument("--items", type=int, default=300, help="sample items of the rehearsal (default 300)")
    migrate.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the plan here (default: stdout)")
    migrate.set_defaults(run=_migrate)


def _migrate(args: argparse.Namespace) -> tuple[str, int]:
    from modeling.migration.plan import DEFAULT_GREY_PERIOD_DAYS, DEFAULT_WRITE_RATE_ITEMS_PER_SECOND, PlanOptions
    from modeling.migration.script import migration_script
    from studio.migration import MigrationRequest, plan_json_text, plan_markdown, plan_migration

    old, new = _load_model(args.old), _load_model(args.new)

    def keys(model: Model, name: str | None) -> KeyDesign | None:
        if name is None:
            return None
        designs = propose(model)
        found = next((d for d in designs if d.name == name), None)
        if found is None:
            raise UsageError("no design of that name", "design", name, "choose one of: "
                             + ", ".join(d.name for d in designs))
        return found.key_design

    fills = {}
    for text in args.fill:
        path, sep, value = text.partition("=")
        if not sep or "." not in path:
            raise UsageError("a fill is ENTITY.ATTRIBUTE=VALUE", "fill", text, "e.g. --fill Student.schoolYear=2026")
        fills[path] = value
    rate = args.rate if args.rate is not None else DEFAULT_WRITE_RATE_ITEMS_PER_SECOND
    if not 0 < rate <= 1_000_000:
        raise UsageError("the write rate is out of range", "rate", rate, "give 1 to 1,000,000 items per second")
    grey = args.grey_days if args.grey_days is not None else DEFAULT_GREY_PERIOD_DAYS
    if not 0 <= grey <= 365:
        raise UsageError("the grey period is out of range", "grey-days", grey, "give 0 to 365 days")
    try:
        priced = plan_migration(MigrationRequest(old, new, keys(old, args.old_design), keys(new, args.new_design),
                                                 PlanOptions(rate, grey, fills)))
    except ModelingError as exc:
        raise UsageError("the migration cannot be planned", "fill", args.fill, str(exc)) from None
    text = plan_json_text(priced) if args.format == "json" else plan_markdown(priced)
    code = _rehearse(args, old, new, priced, fills) if args.rehearse else 0
    if args.script is not None:
        _write(args.script, migration_script(priced.plan.spec))
        print(f"{args.script}: wrote the migration script ({priced.plan.spec.mode.value})", file=sys.stderr)
    if args.output is None:
        return text.rstrip("\n"), code
    _write(args.output, text)
    return f"{args.output}: wrote the migration plan ({priced.plan.spec.mode.value}, {len(priced.steps)} steps)", code


def _rehearse(args: argparse.Namespace, old: Model, new: Model, priced: PricedPlan, fills: dict[str, str]) -> int:
    """Run the rehearsal; its results go to stderr (the plan stays alone on stdout). Exit 1 when it fails."""
    import tempfile

    from modeling.endpoint.adapter import configured_endpoint
    from modeling.errors import EndpointError
    from modeling.migration.rehearsal import report_lines
    from modeling.preview.dataset import MAX_PREVIEW_ITEMS
    from studio.migration import MigrationRequest, RehearsalRequest, rehearse_migration

    if not 1 <= args.items <= MAX_PREVIEW_ITEMS:
        raise UsageError("the rehearsal's sample is out of range", "items", args.items,
                         f"give 1 to {MAX_PREVIEW_ITEMS:,} items")
    spec = priced.plan.spec
    try:
        with tempfile.TemporaryDirectory() as folder:
            report = rehearse_migration(RehearsalRequest(
                MigrationRequest(old, new, spec.old_keys, spec.new_keys), configured_endpoint(), "cli", "rehearsal",
                Path(folder) / "checkpoint.json", fills, args.items))
    except (EndpointError, ModelingError) as exc:
        print(f"rehearsal: could not run: {exc}", file=sys.stderr)
        return 1
    for line in report_lines(report):
        print(line, file=sys.stderr)
    return 0 if report.passed else 1


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError("cannot write the output file", "output", str(path), exc.strerror or "") from None


def _add_export_loadtest(export: argparse.ArgumentParser) -> None:
    export.add_argument("model", type=Path, metavar="MODEL", help="a model file (JSON or YAML)")
    export.add_argument("--format", required=True, type=_choice({f.value: f for f in LoadTestFormat}, "format"))
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (default: standard output)")
    export.add_argument("--design", help="which design (default: the model's own, else the first proposal)")
    export.add_argument("--items", type=_whole(1, MAX_PREVIEW_ITEMS), default=DEFAULT_PREVIEW_ITEMS, metavar="N",
                        help="sample items the requests' keys come from, as on the Preview page (default 1000)")
    export.add_argument("--seed", type=_whole(0), default=42, help="seed of the sample data (default 42)")
    export.set_defaults(run=_export_loadtest)


def _export_loadtest(args: argparse.Namespace) -> str:
    model = _load_model(args.model)
    result = export_load_test(model, args.format, args.design, args.items, args.seed)
    for load in result.patterns:
        print(f"note: {load.pattern}: {load.share:.2%} of the requests ({load.operation}, weight {load.weight})",
              file=sys.stderr)
    for pattern, reason in result.skipped:
        print(f"note: {pattern} is left out: {reason}", file=sys.stderr)
    if args.output is None:
        return result.text.rstrip("\n")
    try:
        args.output.write_text(result.text, encoding="utf-8")
    except OSError as exc:
        raise UsageError("cannot write the output file", "output", str(args.output), exc.strerror or "") from None
    return f"{args.output}: wrote the {args.format.value} load test ({len(result.patterns)} access patterns)"


def _add_export_iac(export: argparse.ArgumentParser) -> None:
    export.add_argument("model", type=Path, metavar="MODEL", help="a model file (JSON or YAML)")
    export.add_argument("--format", required=True, type=_choice({f.value: f for f in IacFormat}, "format"))
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (default: standard output)")
    export.add_argument("--design", help="which design to export (default: the model's own, else the first proposal)")
    export.add_argument("--fixed-capacity", action="store_true",
                        help="provisioned tables: fixed capacity instead of auto scaling")
    export.add_argument("--target-utilization", type=_fraction, default=DEFAULT_TARGET_UTILIZATION,
                        help="auto scaling target, and the utilisation fixed capacity is sized for (default 0.7)")
    export.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE", help="a table tag (repeatable)")
    export.add_argument("--no-alarms", action="store_true", help="leave out the CloudWatch alarms")
    export.add_argument("--no-account-alarms", action="store_true",
                        help="leave out UserErrors and the account utilisation alarms (keep them in one stack "
                             "per account and Region)")
    export.add_argument("--no-dashboard", action="store_true", help="leave out the CloudWatch dashboard")
    export.add_argument("--alarm-topic-arn", default="", metavar="ARN",
                        help="the SNS topic the alarms notify (the template's parameter default; empty: none)")
    export.set_defaults(run=_export_iac)


def _export_iac(args: argparse.Namespace) -> str:
    model = _load_model(args.model)
    try:
        tags = parse_tags("\n".join(args.tag))
    except ModelingError as exc:
        raise UsageError("a tag is not allowed", "tag", args.tag, str(exc)) from None
    monitoring = MonitoringOptions(not args.no_alarms, not args.no_account_alarms, not args.no_dashboard,
                                   args.alarm_topic_arn)
    result = export_infrastructure(InfrastructureRequest(model, args.format, args.design, not args.fixed_capacity,
                                                         args.target_utilization, tags=tags, monitoring=monitoring))
    for note in result.code.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.output is None:
        return result.code.text.rstrip("\n")
    try:
        args.output.write_text(result.code.text, encoding="utf-8")
    except OSError as exc:
        raise UsageError("cannot write the output file", "output", str(args.output), exc.strerror or "") from None
    return f"{args.output}: wrote {LABELS[args.format]} for the design '{result.design.name}'"


def _load_model(path: Path) -> Model:
    try:
        return load_model_file(path)
    except ModelFileError as exc:
        raise ModelInputError("the model file has problems", "MODEL", str(path),
                              "; ".join(str(p) for p in exc.problems[:5])) from None


def _add_estimate(estimate: argparse.ArgumentParser) -> None:
    estimate.add_argument("model", type=Path, metavar="MODEL", help="a model file (JSON or YAML)")
    estimate.add_argument("--region", type=_region, help="price in this Region (default: the model's table Region); "
                          "a Region without a price sheet prices nothing and says so")
    estimate.add_argument("--design", help="which design to price (default: the model's own, else the first proposal)")
    estimate.add_argument("--format", choices=("json", "md", "csv", "text"), default="json")
    estimate.add_argument("--budget-usd", type=_money, metavar="N", help="exit 3 when the recommended option "
                                                                           "costs more than N USD a month")
    estimate.add_argument("--target-utilization", type=_fraction, default=DEFAULT_TARGET_UTILIZATION)
    estimate.add_argument("--free-tier", action="store_true", help="apply the account's always-free allowances")
    estimate.set_defaults(run=_estimate)


def _estimate(args: argparse.Namespace) -> tuple[str, int]:
    model = _load_model(args.model)
    result = estimate_model(EstimateRequest(model, args.design, args.region, args.target_utilization, args.free_tier))
    output = {"json": estimate_json, "md": estimate_markdown, "csv": estimate_csv, "text": estimate_text}[args.format]
    if result.region_message:
        print(f"python -m costs estimate: {result.region_message}", file=sys.stderr)
    best = result.cost.recommendation
    over = best is not None and args.budget_usd is not None and best.monthly_cost_usd > args.budget_usd
    if best is not None and over:
        print(f"python -m costs estimate: over budget: the recommended option costs ${best.monthly_cost_usd:,} "
              f"a month, more than the budget of ${args.budget_usd:,}", file=sys.stderr)
    return output(result), 3 if over else 0


REPORT_FORMATS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md"}


def _add_report(report: argparse.ArgumentParser) -> None:
    report.add_argument("model", type=Path, metavar="MODEL", help="a model file (JSON or YAML)")
    report.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write the report to FILE (.html or .md); without it, Markdown goes to stdout")
    report.add_argument("--format", choices=("html", "md"), help="default: from the output file's suffix")
    report.add_argument("--region", type=_region, help="price in this Region (default: the model's table Region); "
                        "a Region without a price sheet prices nothing and says so")
    report.add_argument("--design", help="which design to price (default: the model's own, else the first proposal)")
    report.add_argument("--target-utilization", type=_fraction, default=DEFAULT_TARGET_UTILIZATION)
    report.add_argument("--free-tier", action="store_true", help="apply the account's always-free allowances")
    report.add_argument("--hot-key-values", type=_whole(1, MAX_KEY_VALUES), default=PAGE_KEY_VALUES, metavar="N",
                        help="key values simulated per key template for the hot-partition findings (<= 10 million)")
    report.add_argument("--seed", type=_whole(0), default=42, help="seed of the hot-partition simulation")
    report.set_defaults(run=_report)


def _report(args: argparse.Namespace) -> str:
    fmt = args.format or (REPORT_FORMATS.get(args.output.suffix.lower()) if args.output else "md")
    if fmt is None:
        raise UsageError("cannot tell the format from the output file's suffix", "output", str(args.output),
                         "name it .html or .md, or pass --format html|md")
    try:
        model, source = load_reviewed_model(args.model)
    except ModelFileError as exc:
        problems = "\n".join(f"  {p}" for p in exc.problems)
        raise ModelInputError(f"the model file has {len(exc.problems)} problem(s)", "MODEL", str(args.model),
                              f"fix them and run again:\n{problems}") from None
    request = ReviewRequest(EstimateRequest(model, args.design, args.region, args.target_utilization,
                                            args.free_tier), source, datetime.now(UTC), args.hot_key_values,
                            args.seed)
    try:
        report = build_review_report(request)
    except ModelingError as exc:
        raise ModelInputError("the report could not be made", "MODEL", str(args.model), str(exc)) from None
    text = review_html(report, charts.review_chart_html(report)) if fmt == "html" else review_markdown(report)
    if args.output is None:
        return text
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError("cannot write the report", "output", str(args.output), exc.strerror or "") from None
    return (f"wrote {args.output} ({fmt}, {len(text.encode()):,} bytes) for {source.file_name}, "
            f"SHA-256 {source.sha256}")


def _add_units(units: argparse.ArgumentParser) -> None:
    units.add_argument("--operation", required=True, type=_choice({o.value: o for o in Operation}, "operation"))
    units.add_argument("--item-bytes", required=True, type=_byte_list, metavar="N[,N...]",
                       help="item sizes; UpdateItem: before,after; PutItem: new[,replaced]")
    units.add_argument("--items", type=_whole(1), metavar="K", help="K items of the given size")
    units.add_argument("--consistency", default="eventual", type=_choice(
        {c.value: c for c in Consistency}, "consistency"))
    units.add_argument("--transactional", action="store_true", help="a one-item transaction (2x)")
    units.add_argument("--gsi-entry-bytes", type=_whole(0), metavar="N", help="maintain one GSI entry of N bytes")
    units.add_argument("--gsi-key-change", action="store_true", help="the write changes the GSI key (2 writes)")
    units.set_defaults(run=_units)


def _add_monthly(monthly: argparse.ArgumentParser) -> None:
    monthly.add_argument("--region", required=True, type=_choice({r: r for r in priced_regions()}, "region"))
    monthly.add_argument("--reads-per-second", required=True, type=_rate)
    monthly.add_argument("--read-item-bytes", required=True, type=_whole(0))
    monthly.add_argument("--read-consistency", required=True, type=_choice({c.value: c for c in Consistency},
                                                                             "consistency"))
    monthly.add_argument("--writes-per-second", required=True, type=_rate)
    monthly.add_argument("--write-item-bytes", required=True, type=_whole(0))
    monthly.add_argument("--storage-gb", required=True, type=_rate, help="billed storage, per-item overhead included")
    monthly.add_argument("--table-class", default="standard", type=_choice(TABLE_CLASSES, "table class"))
    monthly.add_argument("--target-utilization", type=float, default=DEFAULT_TARGET_UTILIZATION, metavar="U",
                         help="fraction used to size provisioned capacity: ceil(units/s / U); default 0.7")
    monthly.add_argument("--free-tier", action="store_true", help="apply the account's always-free allowances")
    monthly.add_argument("--format", choices=("json", "text"), default="json")
    monthly.set_defaults(run=_monthly)


# --- commands ----------------------------------------------------------------------------------------


def _item_size(args: argparse.Namespace) -> str:
    path = Path(args.item)
    text = args.item if args.item.lstrip().startswith("{") else _read_file(path)
    return json.dumps({"bytes": item_size_bytes(parse_item_json(text))})


def _units(args: argparse.Namespace) -> str:
    sizes = args.item_bytes
    if args.items is not None:
        if len(sizes) not in (1, args.items):
            raise UsageError("--items does not match the number of sizes", "items", args.items,
                             "give one size with --items K, or K sizes without it")
        sizes = sizes * args.items if len(sizes) == 1 else sizes
    units = request_units(args.operation, sizes, args.consistency, args.transactional, args.gsi_entry_bytes,
                          args.gsi_key_change)
    return json.dumps({"read_units": _number(units.read_units), "write_units": _number(units.write_units)})


def _monthly(args: argparse.Namespace) -> str:
    for size, field in ((args.read_item_bytes, "read_item_bytes"), (args.write_item_bytes, "write_item_bytes")):
        if size > ITEM_SIZE_LIMIT_BYTES:
            raise UsageError("item is larger than DynamoDB's 400 KB limit", field, size,
                             "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html")
    read_units = get_item_units(args.read_item_bytes, args.read_consistency).read_units
    reads = Decimal(repr(args.reads_per_second)) * read_units
    writes = Decimal(repr(args.writes_per_second)) * put_item_units(args.write_item_bytes).write_units
    table = ResourceUsage.flat("main", float(reads), float(writes),
                               storage_bytes=round(Decimal(repr(args.storage_gb)) * BYTES_PER_GB))
    options = EstimateOptions(capacity_options=QUICK_OPTIONS, table_classes=(args.table_class,),
                              scaling_policy=ScalingPolicy(target_utilization=args.target_utilization),
                              reserved_basis=CapacityOption.PROVISIONED_FIXED)
    estimate = estimate_monthly_cost(TableUsage(table=table, table_class=args.table_class, free_tier=args.free_tier),
                                     price_sheet_for(args.region), options)  # a refreshed sheet first
    header = {"read_units_per_second": _number(reads), "write_units_per_second": _number(writes)}
    return cost_estimate_text(estimate, header) if args.format == "text" else cost_estimate_json(estimate, header)


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


# --- argument types: each raises ArgumentTypeError, which argparse turns into one line -----------------


def _region(text: str) -> str:
    """Any AWS Region name; those without a price sheet are priced as "not available", never as another."""
    if not REGION_NAME.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an AWS Region name; priced Regions: "
                                         f"{', '.join(available_regions())}")
    return text


def _choice(choices: dict[str, Any], what: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"unknown {what} {text!r}; choose one of {', '.join(choices)}")
        return choices[text]
    return parse


def _whole(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.strip().isdigit() or int(text) < minimum or (maximum is not None and int(text) > maximum):
            bounds = f">= {minimum}" if maximum is None else f"from {minimum:,} to {maximum:,}"
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {bounds}")
        return int(text)
    return parse


def _byte_list(text: str) -> list[int]:
    return [_whole(0)(part) for part in text.split(",")]


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number >= 0")
    return value


def _money(text: str) -> Decimal:
    return Decimal(repr(_rate(text)))


def _fraction(text: str) -> float:
    """A target utilisation, refused while parsing the arguments (before seconds of design search)."""
    value = _rate(text)
    try:
        ScalingPolicy(target_utilization=value)  # the one home of AWS's 20-90 % range (§11.1)
    except CostError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _read_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError("ITEM is neither inline JSON nor a readable file", "item", str(path),
                         f"{type(exc).__name__}: pass the JSON in quotes or a path to a .json file") from None


if __name__ == "__main__":
    run_cli(main)
