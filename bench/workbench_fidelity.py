"""Fidelity run: import every table of every NoSQL Workbench file in a folder and compare with the file.

    .venv/bin/python bench/workbench_fidelity.py [FOLDER] [--save OUT.json] [--against BEFORE.json]
        [--timing] [--before CHECKOUT] [--scales 1,2,4,8] [--repeats 3]

For each table: the counts (GSIs, items, entities), the key attribute names in the model against the
file's (a rewritten `State#Date` is a loss), the file's declared attributes that are neither in the
model nor named in the notes, the notes, and an export of the model (20 items per entity): how many
primary keys are distinct and how many values disagree with their declared type. `--save` writes the
outputs (model documents and notes) so that a later run with `--against` says which files' output
changed and which notes are new. The comparison reads the original JSON itself (json.load), not the
importer's own reading of it. Not a test: it reports, it does not fail.

`--timing` times the import of larger files: every table is exported at 20 items per entity times each scale,
and the import of those files is timed (CPU time of this process, best of `--repeats`) against the baseline
of parsing the same bytes with `json.loads`, measured in the same run. A linear import keeps the same ratio
and the same time per item at every scale; a quadratic one grows with the scale (issue 31.6: a 3,287-item
export took minutes). `--before CHECKOUT` times another checkout's importer (say `git archive main`
unpacked) on the same files in a child process, so both columns come from one run on one machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# run from anywhere in the repository; `--code DIR` (the child process of `--before`) imports DIR's importer
sys.path.insert(0, next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--code"),
                        str(Path(__file__).resolve().parents[1])))

from modeling.errors import ModelFileError
from modeling.interop.nosql_workbench import export_workbench, import_workbench
from modeling.model_file import model_to_document

DEFAULT_FOLDER = Path("/work/shared/fixtures/nosql-workbench")
EXPORT_ITEMS = 20  # sample items per entity in the export check


def declared(table: dict[str, Any]) -> set[str]:
    names = {a["AttributeName"] for a in table.get("NonKeyAttributes", [])}
    for facet in table.get("TableFacets", []):
        names.update(facet.get("NonKeyAttributes", []))
    return names


def key_names(table: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for keys in [table["KeyAttributes"], *(i["KeyAttributes"] for i in table.get("GlobalSecondaryIndexes", []))]:
        names.update(k["AttributeName"] for k in (keys.get("PartitionKey"), keys.get("SortKey")) if k)
    return names


def items(table: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(table.get("TableData", []))
    for facet in table.get("TableFacets", []):
        found += [i for i in facet.get("TableData", []) if i not in found]
    return found


def run(folder: Path) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        raw = path.read_bytes()
        original = json.loads(raw)
        for table in original["DataModel"]:
            label = f"{path.name}:{table['TableName']}"
            try:
                result = import_workbench(raw, table["TableName"], path.name)
            except ModelFileError as exc:
                results[label] = {"error": str(exc)}
                continue
            model = result.model
            attributes = {a.name for e in model.entities for a in e.attributes}
            kd = model.key_design
            assert kd is not None  # the importer always writes the design it read
            model_keys = {k.name for k in (kd.partition_key, kd.sort_key) if k}
            model_keys |= {k.name for i in kd.global_secondary_indexes for k in (i.partition_key, i.sort_key) if k}
            notes = "\n".join(result.inferred)
            exported = export_workbench(model, items_per_entity=EXPORT_ITEMS).document["DataModel"][0]
            written = [i for f in exported.get("TableFacets", []) for i in f.get("TableData", [])]
            names = [k["AttributeName"] for k in exported["KeyAttributes"].values()]
            types = {a["AttributeName"]: a["AttributeType"] for a in exported["NonKeyAttributes"]}
            types.update({k["AttributeName"]: k["AttributeType"] for keys in [
                exported["KeyAttributes"], *(i["KeyAttributes"] for i in exported.get("GlobalSecondaryIndexes", []))]
                for k in keys.values()})
            document = json.dumps(model_to_document(model), sort_keys=True, default=str)
            results[label] = {
                "gsis": len(table.get("GlobalSecondaryIndexes", [])), "items": len(items(table)),
                "entities": len(model.entities), "model_gsis": len(kd.global_secondary_indexes),
                "model_items": sum(e.item_count for e in model.entities),
                "renamed_keys": sorted(key_names(table) - model_keys),
                "unaccounted": sorted(n for n in declared(table) - attributes - model_keys if f"`{n}`" not in notes),
                "notes": list(result.inferred),
                "export_items": len(written),
                "export_distinct_keys": len({tuple(json.dumps(i.get(n)) for n in names) for i in written}),
                "export_type_disagreements": sum(1 for i in written for n, v in i.items() if list(v) != [types[n]]),
                "digest": hashlib.sha256(document.encode()).hexdigest()[:12],
            }
    return results


TIMING_ITEMS = 20  # sample items per entity at scale 1


def timing_files(folder: Path, scales: list[int], out: Path) -> dict[int, list[Path]]:
    """Every table exported at TIMING_ITEMS x scale items per entity, written under `out`."""
    files: dict[int, list[Path]] = {}
    for path in sorted(folder.glob("*.json")):
        raw = path.read_bytes()
        for table in json.loads(raw)["DataModel"]:
            try:
                model = import_workbench(raw, table["TableName"], path.name).model
            except ModelFileError:
                continue
            for scale in scales:
                document = export_workbench(model, items_per_entity=TIMING_ITEMS * scale).document
                target = out / f"{scale}-{path.stem}-{len(files.get(scale, []))}.json"
                target.write_text(json.dumps(document))
                files.setdefault(scale, []).append(target)
    return files


def time_imports(files: dict[int, list[Path]], repeats: int) -> dict[int, dict[str, float]]:
    """Per scale: items, the import's CPU seconds and the json.loads baseline's, each the best of `repeats`."""
    results = {}
    for scale, paths in sorted(files.items()):
        data = [p.read_bytes() for p in paths]
        items = sum(len(f.get("TableData", [])) for d in data for t in json.loads(d)["DataModel"]
                    for f in t.get("TableFacets", []))
        parse = importing = float("inf")
        for _ in range(repeats):
            start = time.process_time()
            for raw in data:
                json.loads(raw)
            middle = time.process_time()
            for raw in data:
                import_workbench(raw, None, "model.json")
            end = time.process_time()
            parse, importing = min(parse, middle - start), min(importing, end - middle)
        results[scale] = {"items": items, "parse_s": parse, "import_s": importing}
    return results


def print_timing(label: str, timings: dict[int, dict[str, float]]) -> None:
    first = timings[min(timings)]
    print(f"{label}:")
    for scale, t in sorted(timings.items()):
        growth = t["import_s"] / max(first["import_s"], 1e-9)
        print(f"  x{scale}: {int(t['items']):,} items, import {t['import_s']:.2f} s CPU "
              f"({1e6 * t['import_s'] / max(t['items'], 1):.0f} us per item), json.loads {t['parse_s']:.3f} s: "
              f"import / parse {t['import_s'] / max(t['parse_s'], 1e-9):.1f}; {growth:.1f} x the x1 import "
              f"for {t['items'] / max(first['items'], 1):.1f} x the items")


def timing(folder: Path, scales: list[int], repeats: int, before: Path | None) -> None:
    with tempfile.TemporaryDirectory() as out:
        files = timing_files(folder, scales, Path(out))
        after = time_imports(files, repeats)
        if before is not None:  # the other checkout, on the same files, in this run
            listing = Path(out) / "files.json"
            listing.write_text(json.dumps({str(k): [str(p) for p in v] for k, v in files.items()}))
            child = subprocess.run([sys.executable, __file__, "--code", str(before), "--time-files", str(listing),
                                    "--repeats", str(repeats)], capture_output=True, text=True, check=True)
            print_timing(f"before ({before})", {int(k): v for k, v in json.loads(child.stdout).items()})
        print_timing("this checkout", after)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--against", type=Path)
    parser.add_argument("--timing", action="store_true", help="time the import of larger exports")
    parser.add_argument("--before", type=Path, help="another checkout whose importer is timed on the same files")
    parser.add_argument("--scales", default="1,2,4,8")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--time-files", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_files:  # the child process of --before: time its importer, print JSON
        listing = json.loads(args.time_files.read_text())
        timings = time_imports({int(k): [Path(p) for p in v] for k, v in listing.items()}, args.repeats)
        print(json.dumps(timings))
        return 0
    results = run(args.folder)
    before = json.loads(args.against.read_text()) if args.against else {}
    tables = len(results)
    print(f"{len({k.split(':')[0] for k in results})} files, {tables} tables, "
          f"{sum(r.get('gsis', 0) for r in results.values())} GSIs, "
          f"{sum(r.get('items', 0) for r in results.values())} items")
    changed = noted = 0
    for label, result in results.items():
        if "error" in result:
            print(f"  {label}: ERROR {result['error']}")
            continue
        line = (f"  {label}: {result['entities']} entities, {result['model_gsis']}/{result['gsis']} GSIs, "
                f"{result['model_items']}/{result['items']} items")
        line += (f", export {result['export_distinct_keys']}/{result['export_items']} distinct keys"
                 + (f", {result['export_type_disagreements']} values not of their declared type"
                    if result["export_type_disagreements"] else ""))
        if result["renamed_keys"]:
            line += f", key names not kept: {result['renamed_keys']}"
        if result["unaccounted"]:
            line += f", declared attributes lost silently: {result['unaccounted']}"
        if label in before:
            if before[label].get("digest") != result["digest"]:
                changed += 1
                line += " [output changed]"
            new_notes = [n for n in result["notes"] if n not in before[label].get("notes", [])]
            noted += bool(new_notes)
            for note in new_notes:
                line += f"\n      new note: {note}"
        print(line)
    if before:
        print(f"{changed} of {tables} tables changed model output; {noted} have new notes")
    if args.save:
        args.save.write_text(json.dumps(results, indent=1, sort_keys=True))
    if args.timing or args.before:
        timing(args.folder, [int(s) for s in args.scales.split(",")], args.repeats, args.before)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
