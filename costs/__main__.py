"""Command line quick calculator: `python -m costs item-size | units | monthly`.

    python -m costs item-size '{"id": {"S": "A1"}, "n": {"N": "101"}}'      -> {"bytes": 8}
    python -m costs units --operation Query --item-bytes 1536 --items 10 --consistency strong
    python -m costs monthly --region us-east-1 --reads-per-second 100 --read-item-bytes 2000 \\
        --read-consistency eventual --writes-per-second 10 --write-item-bytes 900 --storage-gb 50

Library first: each command parses its arguments, calls one `costs` function and prints JSON (or text).
Bad input prints one line on stderr and exits 2 (usage) or 1 (rejected value); never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn

from costs.autoscaling import DEFAULT_TARGET_UTILIZATION, ScalingPolicy
from costs.errors import CostError, UsageError
from costs.item_size import ITEM_SIZE_LIMIT_BYTES, item_size_bytes, parse_item_json
from costs.monthly import CostEstimate, OptionEstimate, estimate_monthly_cost
from costs.pricing import CostLineItem, available_regions, load_price_sheet
from costs.units import Operation, get_item_units, put_item_units, request_units
from costs.usage import BYTES_PER_GB, CapacityOption, EstimateOptions, ResourceUsage, TableUsage, label
from modeling.model import Consistency, TableClass

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
        output = args.run(args)
    except CostError as exc:
        print(f"python -m costs {args.command}: error: {exc}", file=sys.stderr)
        return 1
    print(output)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m costs", description="DynamoDB capacity and cost quick calculator")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    size = commands.add_parser("item-size", help="bytes of an item in DynamoDB JSON (file or inline)")
    size.add_argument("item", metavar="ITEM", help="a file path, or the item as inline JSON")
    size.set_defaults(run=_item_size)
    _add_units(commands.add_parser("units", help="capacity units of one request"))
    _add_monthly(commands.add_parser("monthly", help="monthly cost of a table with flat traffic"))
    # --- `estimate MODEL` (issue 3): the lead adds this subcommand here. Register its parser like the
    # --- ones above, set `run=` to a function that reads the model, builds a TableUsage per table and
    # --- prints `estimate_monthly_cost(...)` with `_estimate_json` / `_estimate_text`.
    return parser


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
    monthly.add_argument("--region", required=True, type=_choice({r: r for r in available_regions()}, "region"))
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
            raise UsageError("item is larger than DynamoDB's 400 KB limit", field, size, "dynamodb-facts §6")
    read_units = get_item_units(args.read_item_bytes, args.read_consistency).read_units
    reads = Decimal(repr(args.reads_per_second)) * read_units
    writes = Decimal(repr(args.writes_per_second)) * put_item_units(args.write_item_bytes).write_units
    table = ResourceUsage.flat("main", float(reads), float(writes),
                               storage_bytes=round(Decimal(repr(args.storage_gb)) * BYTES_PER_GB))
    options = EstimateOptions(capacity_options=QUICK_OPTIONS, table_classes=(args.table_class,),
                              scaling_policy=ScalingPolicy(target_utilization=args.target_utilization),
                              reserved_basis=CapacityOption.PROVISIONED_FIXED)
    estimate = estimate_monthly_cost(TableUsage(table=table, table_class=args.table_class, free_tier=args.free_tier),
                                     load_price_sheet(args.region), options)
    header = {"read_units_per_second": _number(reads), "write_units_per_second": _number(writes)}
    return _estimate_text(estimate, header) if args.format == "text" else _estimate_json(estimate, header)


# --- output --------------------------------------------------------------------------------------------


def _estimate_json(estimate: CostEstimate, header: dict[str, Any]) -> str:
    options = [{**_plain(dataclasses.asdict(o)), "monthly_total_usd": _plain(o.monthly_total_usd),
                "priced_subtotal_usd": _plain(o.priced_subtotal_usd), "is_complete": o.is_complete}
               for o in estimate.options]
    document = {"region": estimate.region, "price_sheet_effective_date": estimate.price_sheet_effective_date,
                **header, "options": options, "recommendation": estimate.recommendation,
                "storage_projections": estimate.storage_projections, "assumptions": estimate.assumptions}
    return json.dumps(_plain(document), indent=2, ensure_ascii=False)


def _estimate_text(estimate: CostEstimate, header: dict[str, Any]) -> str:
    lines = [f"Region {estimate.region} (prices effective {estimate.price_sheet_effective_date}); "
             + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in header.items())]
    for option in estimate.options:
        lines += ["", _option_title(option)]
        lines += [_line_text(item) for item in option.line_items]
    best = estimate.recommendation
    lines += ["", f"Recommendation: {best.reason}" if best else "No recommendation: no option has every price."]
    return "\n".join([*lines, "", "Assumptions:", *(f"  - {a}" for a in estimate.assumptions)])


def _line_text(item: CostLineItem) -> str:
    if item.monthly_cost_usd is None:
        return f"  {item.name}: {item.quantity.normalize():,f} x {item.unit}: price not available"
    flag = " (assumption)" if item.is_assumption else ""
    return (f"  {item.name}: {item.quantity.normalize():,f} x {item.unit} @ ${item.unit_price_usd}"
            f" = ${item.monthly_cost_usd:,}{flag}")


def _option_title(option: OptionEstimate) -> str:
    title = f"{label(option.option)} ({label(option.table_class)})"
    if option.unavailable_reason:
        return f"{title}: not available, {option.unavailable_reason}"
    if option.monthly_total_usd is None:
        return f"{title}: incomplete, some prices not available (priced lines: ${option.priced_subtotal_usd:,})"
    return f"{title}: ${option.monthly_total_usd:,} a month"


def _plain(value: Any) -> Any:
    """JSON-ready: Decimals as exact strings, enums as their values, dates as ISO text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal | date):
        return str(value)
    return value


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


# --- argument types: each raises ArgumentTypeError, which argparse turns into one line -----------------


def _choice(choices: dict[str, Any], what: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"unknown {what} {text!r}; choose one of {', '.join(choices)}")
        return choices[text]
    return parse


def _whole(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.strip().isdigit() or int(text) < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= {minimum}")
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


def _read_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError("ITEM is neither inline JSON nor a readable file", "item", str(path),
                         f"{type(exc).__name__}: pass the JSON in quotes or a path to a .json file") from None


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
