"""Command line: `python -m modeling validate FILE`, `schema`, `examples`.

Never prints a traceback for bad input: every problem goes to stdout with its path, and the exit
status says whether there was any error (1) or the command was misused (2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from modeling.errors import ModelFileError, Severity
from modeling.examples import list_examples
from modeling.model_file import document_problems, read_document_file
from modeling.schema import model_json_schema


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m modeling",
                                     description="DynamoDB Design Studio model tools")
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check a model file and print every problem")
    validate.add_argument("files", nargs="+", type=Path, metavar="FILE")
    commands.add_parser("schema", help="print the JSON Schema of the model format")
    commands.add_parser("examples", help="list the built-in example models")
    args = parser.parse_args(argv)
    if args.command == "validate":
        return max(_validate(path) for path in args.files)
    if args.command == "schema":
        print(json.dumps(model_json_schema(), indent=2))
        return 0
    for example in list_examples():
        print(f"{example.slug}\t{example.name}\t{example.path}")
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
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
