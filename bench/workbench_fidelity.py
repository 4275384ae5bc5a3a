"""Fidelity run: import every table of every NoSQL Workbench file in a folder and compare with the file.

    .venv/bin/python bench/workbench_fidelity.py [FOLDER] [--save OUT.json] [--against BEFORE.json]

For each table: the counts (GSIs, items, entities), the key attribute names in the model against the
file's (a rewritten `State#Date` is a loss), the file's declared attributes that are neither in the
model nor named in the notes, the notes, and an export of the model (20 items per entity): how many
primary keys are distinct and how many values disagree with their declared type. `--save` writes the
outputs (model documents and notes) so that a later run with `--against` says which files' output
changed and which notes are new. The comparison reads the original JSON itself (json.load), not the
importer's own reading of it. Not a test: it reports, it does not fail.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the repository

from modeling.errors import ModelFileError
from modeling.interop.nosql_workbench import export_workbench, import_workbench
from modeling.model_file import model_to_document

DEFAULT_FOLDER = Path("/work/shared/fixtures/nosql-workbench")
EXPORT_ITEMS = 20  # sample items per entity in the export check


def declared(table: dict) -> set[str]:
    names = {a["AttributeName"] for a in table.get("NonKeyAttributes", [])}
    for facet in table.get("TableFacets", []):
        names.update(facet.get("NonKeyAttributes", []))
    return names


def key_names(table: dict) -> set[str]:
    names: set[str] = set()
    for keys in [table["KeyAttributes"], *(i["KeyAttributes"] for i in table.get("GlobalSecondaryIndexes", []))]:
        names.update(k["AttributeName"] for k in (keys.get("PartitionKey"), keys.get("SortKey")) if k)
    return names


def items(table: dict) -> list[dict]:
    found = list(table.get("TableData", []))
    for facet in table.get("TableFacets", []):
        found += [i for i in facet.get("TableData", []) if i not in found]
    return found


def run(folder: Path) -> dict[str, dict]:
    results: dict[str, dict] = {}
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
