"""A design as data and as text: the entity chart, the access-pattern chart, JSON and Markdown.

The entity chart lists each entity's key templates per index (how DynamoDB modellers draw a single
table); the access-pattern chart lists each pattern's operation, index, key condition, items read and
why. Both are plain rows so the Layout page, the CSV/Markdown downloads and the CLI share them.
"""

from __future__ import annotations

import json
from typing import Any

from modeling.design.plans import TABLE, Design
from modeling.model import KeyDesign, Model

ENTITY_CHART_COLUMNS = ("entity", "index", "partition_key", "sort_key", "only_when", "why")
PATTERN_CHART_COLUMNS = ("pattern", "operation", "index", "key_condition", "filter", "items_read",
                         "items_read_p99", "pages", "items_returned", "index_writes", "served", "why",
                         "items_read_how")


def entity_chart(design: Design) -> list[dict[str, Any]]:
    """One row per entity and access path (table, then each index it appears in)."""
    reasons = dict(design.entity_reasons)
    index_reasons = {c.index: c.reason for c in design.index_reasons}
    rows = []
    for keys in design.key_design.entities:
        rows.append({"entity": keys.entity, "index": TABLE, "partition_key": keys.table.partition_key,
                     "sort_key": keys.table.sort_key or "", "only_when": "", "why": reasons.get(keys.entity, "")})
        for index, templates in keys.indexes.items():
            rows.append({"entity": keys.entity, "index": index, "partition_key": templates.partition_key,
                         "sort_key": templates.sort_key or "", "only_when": "; ".join(
                             f"{c.attribute} = {c.equals}" for c in templates.only_when),
                         "why": index_reasons.get(index, "")})
        for name, templates in keys.auxiliary.items():
            rows.append({"entity": keys.entity, "index": TABLE, "partition_key": templates.partition_key,
                         "sort_key": templates.sort_key or "", "only_when": "",
                         "why": f"Auxiliary item `{name}`: written in the same request as every {keys.entity} "
                                "write that it keeps in step (an extra write)."})
    return rows


def pattern_chart(design: Design) -> list[dict[str, Any]]:
    return [{"pattern": p.pattern, "operation": p.operation.value, "index": p.index,
             "key_condition": p.key_condition, "filter": p.filter_expression,
             "items_read": round(p.items_read_per_request, 3), "items_read_p99": round(p.items_read_p99, 3),
             "pages": round(p.pages_per_request, 3), "items_returned": round(p.items_returned_per_request, 3),
             "index_writes": round(p.index_writes_per_request, 3), "served": p.served, "why": p.reason,
             "items_read_how": p.items_read_derivation}
            for p in design.plans]


def index_rows(key_design: KeyDesign) -> list[dict[str, Any]]:
    rows = []
    for kind, indexes in (("GSI", key_design.global_secondary_indexes), ("LSI", key_design.local_secondary_indexes)):
        for index in indexes:
            rows.append({"index": index.name, "kind": kind, "partition_key": index.partition_key.name,
                         "sort_key": index.sort_key.name if index.sort_key else "",
                         "projection": index.projection.type.value,
                         "non_key_attributes": ", ".join(index.projection.non_key_attributes)})
    return rows


def design_summary(design: Design) -> dict[str, Any]:
    """Structural figures for comparing candidates: indexes, index writes per write, items read per read."""
    writes = [p for p in design.plans if p.operation.is_write]
    reads = [p for p in design.plans if not p.operation.is_write]
    return {"design": design.name, "indexes": design.index_count,
            "scans": len(design.scan_patterns),
            "index_writes_per_write": {p.pattern: round(p.index_writes_per_request, 3) for p in writes},
            "items_read_per_read": {p.pattern: round(p.items_read_per_request, 3) for p in reads}}


def design_document(design: Design) -> dict[str, Any]:
    """Everything about one design as a JSON-ready dict (stable key order)."""
    return {"name": design.name, "summary": design.summary,
            "key_design": design.key_design.model_dump(mode="json", exclude_defaults=True),
            "indexes": [{"index": c.index, "why": c.reason, "patterns": list(c.patterns)}
                        for c in design.index_reasons],
            "entity_chart": entity_chart(design), "access_pattern_chart": pattern_chart(design),
            "figures": design_summary(design)}


def designs_json(designs: tuple[Design, ...]) -> str:
    return json.dumps([design_document(d) for d in designs], indent=2, ensure_ascii=False) + "\n"


def markdown_table(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> str:
    """A GitHub Markdown table; pipes and newlines in cells are escaped."""
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    header = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
    return header + "".join("| " + " | ".join(cell(row.get(c, "")) for c in columns) + " |\n" for row in rows)


def designs_markdown(model: Model, designs: tuple[Design, ...]) -> str:
    parts = [f"# Key designs for {model.name}\n"]
    for design in designs:
        parts.append(f"\n## {design.name}\n\n{design.summary}\n")
        parts.append("\n### Entity chart\n\n" + markdown_table(entity_chart(design), ENTITY_CHART_COLUMNS))
        if design.index_reasons:
            parts.append("\n### Indexes\n\n" + "".join(
                f"- **{c.index}**: {c.reason}\n" for c in design.index_reasons))
        parts.append("\n### Access-pattern chart\n\n" + markdown_table(pattern_chart(design), PATTERN_CHART_COLUMNS))
    return "".join(parts)
