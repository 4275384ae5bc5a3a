"""`dds SUBCOMMAND ...`: one command by task, dispatching to the command lines that do the work.

    dds validate FILE...            dds design MODEL            dds check MODEL
    dds estimate MODEL              dds report MODEL            dds export MODEL --format F
    dds import workbench FILE -o M  dds import table --table T -o M
    dds import sql SCHEMA.sql [-o M]  dds import queries LOG.csv --schema SCHEMA.sql -o M
    dds migrate FILE                dds migrate OLD NEW         dds examples
    dds schema                      dds prices refresh [--region R ...] [--offer-file FILE]
    dds serve [STREAMLIT OPTIONS]
    dds loadtest MODEL --format locust|k6 [-o FILE]

Each subcommand hands its arguments, unparsed, to the existing parser (`python -m modeling` or
`python -m costs`), so options, messages and exit statuses have one home; those two stay as aliases for
one release. `design` and `check` go to `costs`: their designs are `costs.design_ranking.propose`'s, the
ones every page shows. argparse, not Typer: the parsers it dispatches to are argparse already, and the standard
library adds no dependency.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from costs.__main__ import main as costs_main
from modeling.__main__ import main as modeling_main
from studio.commands import refresh_prices, run_cli
from studio.design import propose

APP_PATH = Path(__file__).resolve().parents[1] / "app.py"
WORKBENCH_FORMAT = "workbench"

Runner = Callable[[list[str]], int]


def _to(main: Runner, *command: str) -> Runner:
    return lambda rest: main([*command, *rest])


def _export(rest: list[str]) -> int:
    """`--format workbench` writes a NoSQL Workbench file; the other formats are infrastructure as code."""
    if _format_of(rest) == WORKBENCH_FORMAT:
        return modeling_main(["export-workbench", *_without_format(rest)], propose)  # keyed as the pages show
    return costs_main(["export-iac", *rest])


def _format_of(rest: list[str]) -> str | None:
    for index, arg in enumerate(rest):
        if arg == "--format" and index + 1 < len(rest):
            return rest[index + 1]
        if arg.startswith("--format="):
            return arg.split("=", 1)[1]
    return None


def _without_format(rest: list[str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for arg in rest:
        if skip:
            skip = False
        elif arg == "--format":
            skip = True
        elif not arg.startswith("--format="):
            kept.append(arg)
    return kept


def _import(rest: list[str]) -> int:
    sources = {"workbench": "import-workbench", "table": "import-table", "sql": "import-sql",
               "queries": "import-queries"}
    if not rest or rest[0] not in sources:
        print("dds import: error: say what to import from: `dds import workbench FILE -o MODEL`, "
              "`dds import table --table NAME -o MODEL`, `dds import sql SCHEMA.sql -o MODEL` or "
              "`dds import queries LOG.csv --schema SCHEMA.sql -o MODEL`", file=sys.stderr)
        return 2
    return modeling_main([sources[rest[0]], *rest[1:]], propose)  # the summary names the ranked design


def _migrate(rest: list[str]) -> int:
    """`dds migrate FILE`: the format upgrade (not yet needed, says so); `dds migrate OLD NEW`: the priced plan."""
    files = [arg for arg in rest if not arg.startswith("-")]
    if len(files) <= 1 and not any(arg in ("-h", "--help") for arg in rest):
        print("dds migrate: not yet available. The model format has one version (1), so no model file needs it "
              "yet; a NoSQL Workbench 1.0 or 2.0 file can be rewritten as 3.0 in Python, see "
              "docs/nosql-workbench.md (Round trips). To plan a change of design: dds migrate OLD NEW.",
              file=sys.stderr)
        return 2
    return costs_main(["migrate", *rest])


def _serve(rest: list[str]) -> int:
    """Start the app on 127.0.0.1 (pass `--server.address 0.0.0.0` knowingly for a workshop room)."""
    if not APP_PATH.is_file():
        print(f"dds serve: error: {APP_PATH} not found; run `dds serve` from a source checkout "
              "(pip install -e .)", file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "streamlit", "run", str(APP_PATH), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false", *rest]
    return subprocess.call(command, cwd=APP_PATH.parent)  # noqa: S603 (our own interpreter and app)


# name -> (what it does, how it runs)
SUBCOMMANDS: dict[str, tuple[str, Runner]] = {
    "validate": ("check model files and print every problem", _to(modeling_main, "validate")),
    "design": ("propose key designs for a model (the designs every page shows, ranked by the cost-based search) "
               "and explain every choice", _to(costs_main, "design")),
    "check": ("check a model's key design against the rules that break designs", _to(costs_main, "check")),
    "estimate": ("capacity and monthly cost of a model; --budget-usd gates a launch", _to(costs_main, "estimate")),
    "report": ("the cost-review report of a model (HTML or Markdown)", _to(costs_main, "report")),
    "export": ("the table as CloudFormation, Terraform, create-table JSON, or a NoSQL Workbench file "
               "(--format workbench)", _export),
    "loadtest": ("a load test (Locust or k6) following the access patterns' traffic mix",
                 _to(costs_main, "export-loadtest")),
    "import": ("a model from a NoSQL Workbench file (workbench), a live table (table), a SQL schema (sql) or a "
               "query log (queries)", _import),
    "migrate": ("FILE: upgrade a model file's format (not yet available); OLD NEW: the changes and the priced "
                "migration plan (--format json, --script FILE)", _migrate),
    "examples": ("list the built-in example models", _to(modeling_main, "examples")),
    "schema": ("print the JSON Schema of the model format", _to(modeling_main, "schema")),
    "prices": ("refresh: dated price sheets from the AWS Price List (AWS credentials, or --offer-file FILE), "
               "written into the workspace and preferred over the shipped ones", refresh_prices),
    "serve": ("start the app on http://127.0.0.1:8501", _serve),
}


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="dds", description="DynamoDB Design Studio: design DynamoDB tables from "
                                   "access patterns. `dds SUBCOMMAND --help` shows a subcommand's options.")
    commands = root.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    for name, (summary, _) in SUBCOMMANDS.items():
        commands.add_parser(name, help=summary, description=summary, add_help=False)
    return root


def run() -> NoReturn:
    """The `dds` console script: `main`, ending quietly when its reader goes away or on Ctrl-C (no traceback)."""
    run_cli(main)


def main(argv: list[str] | None = None) -> int:
    """Dispatch on the first word; everything after it (`--help` too) goes to the subcommand untouched."""
    words = sys.argv[1:] if argv is None else list(argv)
    if words and words[0] in SUBCOMMANDS:
        _, run = SUBCOMMANDS[words[0]]
        return run(words[1:])
    parser().parse_args(words)  # --help, or a usage error naming the subcommands (exit 2)
    return 2
