"""Command line: `python -m modeling validate FILE`, `schema`, `examples`,
`import-workbench FILE -o MODEL`, `export-workbench MODEL -o FILE`, `import-table --table NAME -o MODEL`,
`migrate FILE` (the format upgrade) and `migrate OLD NEW` (the changes; `python -m costs migrate` prices them).
`import-sql SCHEMA.sql [-o MODEL]`, `import-queries LOG.csv --schema SCHEMA.sql -o MODEL`.

`design` and `check` moved to `dds design` / `dds check` (`python -m costs design|check`): the designs they
show are the cost-based search's ranking, which `modeling` cannot compute (`costs` sits above it);
here they say where to go instead of answering with another design than the pages show.

Never prints a traceback for bad input: every problem goes to stdout with its path, and the exit
status says whether there was any error (1) or the command was misused (2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from modeling.cli_exit import load_listing_problems, run_cli
from modeling.endpoint.adapter import configured_endpoint
from modeling.errors import EndpointError, ModelFileError, ModelingError, Severity
from modeling.examples import list_examples
from modeling.interop.live_import import DEFAULT_SAMPLE_ITEMS, ImportRequest, import_live_table
from modeling.interop.nosql_workbench import export_workbench, import_workbench_file
from modeling.interop.nosql_workbench.document import workbench_from_document
from modeling.interop.nosql_workbench.export import DEFAULT_ITEMS_PER_ENTITY, MAX_ITEMS_PER_ENTITY
from modeling.interop.sql_cli import Proposer, add_sql_commands, run_sql_command
from modeling.model_file import (
    FileFormat,
    document_problems,
    dump_document,
    dump_model,
    read_document_file,
)
from modeling.schema import model_json_schema

# Commands whose answer is the ranked design (`studio.design.propose`), and where they live now.
MOVED_COMMANDS = {"design": "dds design", "check": "dds check"}


def main(argv: list[str] | None = None, propose: Proposer | None = None) -> int:
    """`propose`: the ranked designs (`studio.design.propose`), which `dds` passes in (the search's pricing
    sits above modeling) for `export-workbench`'s design and the one-line design summary of
    `import-sql`/`import-queries`."""
    words = sys.argv[1:] if argv is None else list(argv)
    if words and words[0] in MOVED_COMMANDS:
        print(f"python -m modeling {words[0]}: moved to `{MOVED_COMMANDS[words[0]]}` (or `python -m costs "
              f"{words[0]}`), which shows the designs the pages show, ranked by the cost-based search",
              file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="python -m modeling",
                                     description="DynamoDB Design Studio model tools")
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check a model file and print every problem")
    validate.add_argument("files", nargs="+", type=Path, metavar="FILE")
    for name, moved_to in MOVED_COMMANDS.items():
        commands.add_parser(name, help=f"moved: use `{moved_to}`", add_help=False)
    import_nwb = commands.add_parser("import-workbench", help="make a model from a NoSQL Workbench model file")
    import_nwb.add_argument("file", type=Path, metavar="FILE")
    import_nwb.add_argument("--table", default=None, help="which table of the file (default: the first)")
    import_nwb.add_argument("-o", "--output", type=Path, required=True, help="the model file to write (.yaml or .json)")
    export_nwb = commands.add_parser("export-workbench", help="write a model as a NoSQL Workbench 3.0 file")
    export_nwb.add_argument("file", type=Path, metavar="MODEL")
    export_nwb.add_argument("-o", "--output", type=Path, required=True, help="the NoSQL Workbench file to write")
    export_nwb.add_argument("--seed", type=int, default=42, help="sample-data seed (same seed, same items)")
    export_nwb.add_argument("--items", type=int, default=DEFAULT_ITEMS_PER_ENTITY,
                            help=f"sample items per entity (0 to {MAX_ITEMS_PER_ENTITY})")
    imports = commands.add_parser("import-table", help="describe a live table, read a bounded sample and write "
                                                       "a model with its entities and key design (read-only)")
    imports.add_argument("--table", required=True, metavar="NAME")
    imports.add_argument("--endpoint", metavar="URL", help="an endpoint URL, or `aws` (default: the configured "
                                                           "endpoint, see DESIGN_STUDIO_ENDPOINT; the embedded "
                                                           "server of a command-line run starts empty)")
    imports.add_argument("--region", help="the Region (default: DESIGN_STUDIO_REGION, AWS_REGION or the profile's)")
    imports.add_argument("--sample-items", type=int, default=DEFAULT_SAMPLE_ITEMS, metavar="N",
                         help=f"read at most N items with Scan (default {DEFAULT_SAMPLE_ITEMS})")
    imports.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="model file (.yaml or .json)")
    migrate = commands.add_parser(
        "migrate", help="FILE: upgrade a model file's format (not yet needed); OLD NEW: list every change from OLD "
                        "to NEW and what a live table needs for it (`python -m costs migrate OLD NEW` prices the plan)")
    migrate.add_argument("files", nargs="+", type=Path, metavar="FILE", help="one model file, or OLD and NEW")
    migrate.add_argument("--format", choices=["json", "text"], default="text")
    migrate.add_argument("--script", type=Path, metavar="FILE", help="write the migration script (OLD NEW only)")
    add_sql_commands(commands)
    commands.add_parser("schema", help="print the JSON Schema of the model format")
    commands.add_parser("examples", help="list the built-in example models")
    args = parser.parse_args(words)
    if args.command == "validate":
        return max(_validate(path) for path in args.files)
    if args.command == "import-workbench":
        return _import_workbench(args.file, args.table, args.output)
    if args.command == "export-workbench":
        return _export_workbench(args.file, args.output, args.seed, args.items, propose)
    if args.command == "import-table":
        return _import_table(args)
    if args.command == "migrate":
        return _migrate(args.files, args.format, args.script)
    if args.command in ("import-sql", "import-queries"):
        return run_sql_command(args, propose)
    if args.command == "schema":
        print(json.dumps(model_json_schema(), indent=2))
        return 0
    for example in list_examples():
        print(f"{example.slug}\t{example.name}\t{example.path}")
    return 0


def _import_workbench(path: Path, table: str | None, output: Path) -> int:
    """Write the model of one table; what was inferred goes to stderr. Exit 1 on any problem."""
    try:
        result = import_workbench_file(workbench_from_document(read_document_file(path)), table)
    except ModelFileError as exc:
        for problem in exc.problems:
            print(f"{path}: {problem}", file=sys.stderr)
        return 1
    fmt = FileFormat.from_filename(output.name) or FileFormat.YAML
    if not _write(output, dump_model(result.model, fmt)):
        return 1
    print(f"{path}: table {result.table} of {', '.join(result.tables)} -> {output}", file=sys.stderr)
    for note in result.inferred:
        print(f"inferred: {note}", file=sys.stderr)
    return 0


def _export_workbench(path: Path, output: Path, seed: int, items: int, propose: Proposer | None) -> int:
    if not 0 <= items <= MAX_ITEMS_PER_ENTITY:
        print(f"--items must be between 0 and {MAX_ITEMS_PER_ENTITY}, not {items}", file=sys.stderr)
        return 2
    model = load_listing_problems(path)
    if model is None:
        return 1
    try:
        designs = propose(model) if propose is not None else ()
        exported = export_workbench(model, seed=seed, items_per_entity=items, design=next(iter(designs), None))
    except ModelingError as exc:
        print(f"{path}: cannot export the sample data: {exc}", file=sys.stderr)
        return 1
    if not _write(output, json.dumps(exported.document, indent=2, ensure_ascii=False) + "\n"):
        return 1
    print(f"{path}: wrote {output} (NoSQL Workbench 3.0, {exported.item_count} sample items for "
          f"{len(exported.items_written)} entities, seed {seed})", file=sys.stderr)
    for note in exported.notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _write(path: Path, text: str) -> bool:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"{path}: cannot write: {exc.strerror}", file=sys.stderr)
        return False
    return True
def _import_table(args: argparse.Namespace) -> int:
    """Write the imported model and print what was inferred; exit 1 with one line on any failure."""
    settings = dict(os.environ)
    if args.endpoint:
        settings["DESIGN_STUDIO_ENDPOINT"] = args.endpoint
    if args.region:
        settings["DESIGN_STUDIO_REGION"] = args.region
    try:
        endpoint = configured_endpoint(settings)
        result = import_live_table(endpoint, ImportRequest(args.table, args.sample_items))
    except EndpointError as exc:
        print(f"python -m modeling import-table: error: {exc}", file=sys.stderr)
        return 1
    fmt = FileFormat.from_filename(args.output.name) or FileFormat.YAML
    try:
        args.output.write_text(dump_document(result.document, fmt), encoding="utf-8")
    except OSError as exc:
        print(f"{args.output}: cannot write the model: {exc.strerror}", file=sys.stderr)
        return 1
    for line in result.inferred:
        print(f"inferred: {line}", file=sys.stderr)
    print(f"{args.output}: wrote the model of {args.table}; add its access patterns and traffic next")
    return 0


FORMAT_UPGRADE_MESSAGE = (
    "migrate: not yet available. The model format has one version (1), so no model file needs it yet; a NoSQL "
    "Workbench 1.0 or 2.0 file can be rewritten as 3.0 in Python, see docs/nosql-workbench.md (Round trips). "
    "To plan a change of design, give two files: migrate OLD NEW.")


def _migrate(paths: list[Path], output_format: str, script: Path | None) -> int:
    """One file: the format upgrade (not yet needed, exit 2). Two: every change, classified (exit 0)."""
    from modeling.migration.evolution import changes_json, compare_models, overall
    from modeling.migration.plan import migration_spec
    from modeling.migration.script import migration_script

    if len(paths) == 1:
        print(f"python -m modeling {FORMAT_UPGRADE_MESSAGE}", file=sys.stderr)
        return 2
    if len(paths) != 2:
        print("python -m modeling migrate: error: give one model file, or two (OLD NEW)", file=sys.stderr)
        return 2
    old, new = load_listing_problems(paths[0]), load_listing_problems(paths[1])
    if old is None or new is None:
        return 1
    changes = compare_models(old, new)
    if output_format == "json":
        print(json.dumps({"overall": overall(changes).value, "changes": changes_json(changes)}, indent=2,
                         sort_keys=True))
    else:
        print(f"{paths[0]} -> {paths[1]}: {len(changes)} change(s); the live table {overall(changes).label}")
        for c in changes:
            print(f"{c.classification.label}: {c.subject.value} {c.kind.value} {c.path}: "
                  f"{c.before or '-'} -> {c.after or '-'}\n  why: {c.reason}\n  see: {c.source}")
    if script is not None:
        spec, _ = migration_spec(old, new)
        if not _write(script, migration_script(spec)):
            return 1
        print(f"{script}: wrote the migration script ({spec.mode.value})", file=sys.stderr)
    return 0


def _validate(path: Path) -> int:
    try:
        problems = document_problems(read_document_file(path))
    except ModelFileError as exc:
        problems = exc.problems
    prefix = f"{path}: " if path else ""
    if not problems:
        print(f"{prefix}ok")
        return 0
    for problem in problems:
        print(f"{prefix}{problem}")
    return 1 if any(p.severity is Severity.ERROR for p in problems) else 0


if __name__ == "__main__":
    run_cli(main)
