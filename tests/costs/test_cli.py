"""`python -m costs`: item-size, units, monthly; bad input gives one line on stderr, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from costs.__main__ import main
from modeling.examples import EXAMPLES_DIR
from tests.cli_runner import CliResult, run_main
from tests.golden_files import assert_matches_golden

MONTHLY = ["monthly", "--region", "us-east-1", "--reads-per-second", "100", "--read-item-bytes", "2000",
           "--read-consistency", "eventual", "--writes-per-second", "10", "--write-item-bytes", "900",
           "--storage-gb", "50"]


def run(*args: str) -> CliResult:
    return run_main(main, args)


def test_item_size_of_inline_json() -> None:
    # "id" (2) + "A1" (2) + "n" (1) + 101 (3) = 8
    result = run("item-size", '{"id": {"S": "A1"}, "n": {"N": "101"}}')
    assert result.returncode == 0 and json.loads(result.stdout) == {"bytes": 8}


def test_item_size_of_a_file(tmp_path: Path) -> None:
    # W19: shirt-color="R", shirt-size="M" = 23 bytes
    path = tmp_path / "item.json"
    path.write_text('{"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}}', encoding="utf-8")
    assert json.loads(run("item-size", str(path)).stdout) == {"bytes": 23}


@pytest.mark.parametrize(("args", "expected"), [
    (["--operation", "Query", "--item-bytes", "1536", "--items", "10", "--consistency", "strong"],
     {"read_units": 4, "write_units": 0}),  # W32: 15 KB -> 16 KB -> 4
    (["--operation", "BatchGetItem", "--item-bytes", "1536,6656"], {"read_units": 1.5, "write_units": 0}),  # W4/2
    (["--operation", "PutItem", "--item-bytes", "500", "--transactional", "--gsi-entry-bytes", "200"],
     {"read_units": 0, "write_units": 3}),  # 2 x 1 on the table + 1 GSI put (§2)
    (["--operation", "UpdateItem", "--item-bytes", "900,1100", "--gsi-entry-bytes", "100", "--gsi-key-change"],
     {"read_units": 0, "write_units": 4}),  # 1,100 B -> 2 + key change 2 x 1
], ids=["query-w32", "batch-get-eventual", "transactional-put-with-gsi", "update-with-gsi-key-change"])
def test_units_prints_read_and_write_units(args: list[str], expected: dict) -> None:
    result = run("units", *args)
    assert result.returncode == 0 and json.loads(result.stdout) == expected


def test_monthly_json_matches_its_golden_file(update_golden: bool) -> None:
    result = run(*MONTHLY)
    assert result.returncode == 0, result.stderr
    assert_matches_golden("costs/monthly_us_east_1.json", result.stdout, update_golden)


def test_monthly_prices_four_options_and_recommends_one() -> None:
    document = json.loads(run(*MONTHLY).stdout)
    # reads 100/s x 0.5 (eventual, 2,000 B) = 50 units/s; writes 10/s x 1 (900 B) = 10 units/s
    assert (document["read_units_per_second"], document["write_units_per_second"]) == (50, 10)
    assert [o["option"] for o in document["options"]] == ["on_demand", "provisioned_fixed", "reserved_1y",
                                                           "reserved_3y"]
    assert document["options"][0]["monthly_total_usd"] == "45.36"  # $16.43 + $16.43 + $12.50
    assert document["recommendation"]["option"] == "reserved_3y"


def test_monthly_text_format_lists_lines_and_assumptions() -> None:
    text = run(*MONTHLY, "--format", "text", "--table-class", "standard-ia").stdout
    assert "On-demand (Standard-IA)" in text and "(assumption)" in text and "730 hours" in text


BAD = [
    ("unknown-region", [*MONTHLY[:2], "mars-1", *MONTHLY[3:]]),
    ("negative-rate", [*MONTHLY[:4], "-5", *MONTHLY[5:]]),
    ("absurd-rate", [*MONTHLY[:4], "1e308", *MONTHLY[5:]]),
    ("target-as-percent", [*MONTHLY, "--target-utilization", "70"]),
    ("item-over-400kb", [*MONTHLY[:6], "500000", *MONTHLY[7:]]),
    ("unknown-operation", ["units", "--operation", "GetItems", "--item-bytes", "1"]),
    ("size-not-a-number", ["units", "--operation", "GetItem", "--item-bytes", "12kb"]),
    ("batch-write-26-items", ["units", "--operation", "BatchWriteItem", "--item-bytes", "1", "--items", "26"]),
    ("gsi-entry-on-a-read", ["units", "--operation", "GetItem", "--item-bytes", "1", "--gsi-entry-bytes", "5"]),
    ("bad-json", ["item-size", '{"a": {"S": }']),
    ("unknown-type", ["item-size", '{"a": {"STRING": "x"}}']),
    ("missing-file", ["item-size", "no/such/item.json"]),
    ("no-command", []),
]


@pytest.mark.parametrize("args", [a for _, a in BAD], ids=[i for i, _ in BAD])
def test_bad_input_is_one_line_on_stderr_and_a_nonzero_exit(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode != 0 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["item-size", "units", "monthly"])
def test_every_command_has_help(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0 and "usage:" in result.stdout


def test_estimate_of_a_design_the_model_does_not_have_says_so_instead_of_pricing_another() -> None:
    result = run("estimate", str(EXAMPLES_DIR / "ecommerce_orders.yaml"), "--design", "Nope")
    assert result.returncode != 0
    assert "no design of that name" in result.stderr and "Proposed" in result.stderr
    assert "Traceback" not in result.stderr
