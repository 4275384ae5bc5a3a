"""The table as a modeller draws it: sample items grouped by partition key, viewed through any index.

`layout_rows` gives one row per item with its key attributes first, sorted as DynamoDB stores them
(partition key, then sort key); viewed through an index, items without that index's keys are left out
and listed by `absent_items`, which is how a sparse index looks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from modeling.data.sample_data import generate_items, key_renderer
from modeling.design.checks import Finding, check_design
from modeling.design.design_report import design_summary, entity_chart, index_rows, pattern_chart
from modeling.design.plans import TABLE, Design
from modeling.errors import ModelingError
from modeling.model import KeyDesign, Model

ENTITY_COLUMN = "entity"


@dataclass(frozen=True)
class LayoutView:
    index: str
    partition_key: str
    sort_key: str | None
    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]
    absent: tuple[dict[str, Any], ...]  # items not in this index (sparse), with their table keys


def access_path_names(design: KeyDesign) -> list[str]:
    indexes = (*design.global_secondary_indexes, *design.local_secondary_indexes)
    return [TABLE, *(i.name for i in indexes)]


def layout_view(model: Model, design: KeyDesign, index: str = TABLE, items_per_entity: int = 4,
                seed: int = 42) -> LayoutView:
    """Sample items through one access path, sorted like DynamoDB stores them."""
    partition, sort = _key_names(design, index)
    table_keys = [design.partition_key.name, *([design.sort_key.name] if design.sort_key else [])]
    present: list[dict[str, Any]] = []
    absent: list[dict[str, Any]] = []
    for entity, items in generate_items(model, sample_counts(model, items_per_entity), seed, design).items():
        keys_of = key_renderer(design, entity)  # the design looked up once per entity, not per item
        for item in items:
            keys = keys_of(item)
            row = {**keys, ENTITY_COLUMN: entity, **{k: _shown(v) for k, v in item.items()}}
            (present if partition in keys else absent).append(row)
    present.sort(key=lambda r: (str(r.get(partition, "")), str(r.get(sort, "")) if sort else ""))
    key_columns = [partition, *([sort] if sort else [])]
    other_keys = [k for k in _all_key_names(design) if k not in key_columns]
    attributes = [a.name for e in model.entities for a in e.attributes]
    columns = tuple(dict.fromkeys([*key_columns, ENTITY_COLUMN, *attributes, *other_keys]))
    absent_rows = tuple({**{k: r.get(k) for k in table_keys}, ENTITY_COLUMN: r[ENTITY_COLUMN]} for r in absent)
    return LayoutView(index, partition, sort, columns, tuple(present), absent_rows)


def sample_counts(model: Model, items_per_parent: int, max_children_per_parent: int = 3) -> dict[str, int]:
    """Items per entity for a small picture: children scale with their relationship's mean cardinality."""
    counts: dict[str, int] = {}
    for entity in model.entities:
        parents = [r for r in model.relationships if r.child == entity.name and r.parent != entity.name]
        per_parent = max((min(r.cardinality.mean, max_children_per_parent) for r in parents), default=1.0)
        counts[entity.name] = max(1, round(items_per_parent * per_parent))
    return counts


def _key_names(design: KeyDesign, index: str) -> tuple[str, str | None]:
    if index == TABLE:
        return design.partition_key.name, design.sort_key.name if design.sort_key else None
    for candidate in (*design.global_secondary_indexes, *design.local_secondary_indexes):
        if candidate.name == index:
            return candidate.partition_key.name, candidate.sort_key.name if candidate.sort_key else None
    raise KeyError(index)


def _all_key_names(design: KeyDesign) -> list[str]:
    names = [design.partition_key.name, *([design.sort_key.name] if design.sort_key else [])]
    for index in (*design.global_secondary_indexes, *design.local_secondary_indexes):
        names += [index.partition_key.name, *([index.sort_key.name] if index.sort_key else [])]
    return list(dict.fromkeys(names))


def _shown(value: Any) -> Any:
    """Decimals as plain numbers, and a string set as its members in order, for display tables."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return value


# --- the Layout page's one call ------------------------------------------------------------------


@dataclass(frozen=True)
class LayoutRequest:
    model: Model
    # the candidates, the default first: `studio.design.propose` / `DesignRanking.designs` (modeling
    # cannot price them itself, and a second source of designs would answer "what design?" differently)
    designs: tuple[Design, ...]
    design_name: str | None = None  # None: the first candidate
    index: str = TABLE
    items_per_entity: int = 4
    seed: int = 42
    # the ranking's comparison rows when the caller has priced the candidates (`costs.design_ranking.ranking_rows`);
    # empty: the candidates are compared by their structural figures alone
    comparison: tuple[dict[str, Any], ...] = ()
    search_note: str = ""  # how good the search's answer is (`DesignRanking.search_note`), "" when unknown


@dataclass(frozen=True)
class LayoutResult:
    designs: tuple[Design, ...]
    design: Design
    view: LayoutView
    entity_chart: tuple[dict[str, Any], ...]
    pattern_chart: tuple[dict[str, Any], ...]
    comparison: tuple[dict[str, Any], ...]
    index_rows: tuple[dict[str, Any], ...]
    findings: tuple[Finding, ...]
    search_note: str = ""


def analyse_layout(request: LayoutRequest) -> LayoutResult:
    """Candidate designs, the chosen one's sample table through one access path, and its charts."""
    designs = request.designs
    if not designs:
        raise ModelingError("there is no design to lay out: add an entity with its identifier first")
    design = next((d for d in designs if d.name == request.design_name), designs[0])
    paths = access_path_names(design.key_design)
    index = request.index if request.index in paths else TABLE
    return LayoutResult(
        designs=designs, design=design,
        view=layout_view(request.model, design.key_design, index, request.items_per_entity, request.seed),
        entity_chart=tuple(entity_chart(design)), pattern_chart=tuple(pattern_chart(design)),
        comparison=request.comparison or tuple(comparison_rows(designs)),
        index_rows=tuple(index_rows(design.key_design)),
        findings=tuple(check_design(request.model, design)), search_note=request.search_note)


def finding_rows(result: LayoutResult, finding: Finding) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The entity-chart and access-pattern-chart rows a finding concerns (for highlighting)."""
    entities = set(re.findall(r"entities\[([^\]]+)\]", finding.path))
    indexes = set(re.findall(r"indexes\[([^\]]+)\]", finding.path)) | ({finding.index} if finding.index else set())
    patterns = set(re.findall(r"access_patterns\[([^\]]+)\]", finding.path))
    patterns |= {finding.pattern} if finding.pattern else set()
    entity_rows = [r for r in result.entity_chart if r["entity"] in entities
                   and (not indexes or r["index"] in indexes or (r["index"] == TABLE and ".table." in finding.path))]
    pattern_rows = [r for r in result.pattern_chart if r["pattern"] in patterns
                    or (indexes and r["index"] in indexes and not patterns)]
    return entity_rows, pattern_rows


def comparison_rows(designs: tuple[Design, ...]) -> list[dict[str, Any]]:
    """Candidates side by side: indexes, scans, total index writes per write and items read per read."""
    rows = []
    for design in designs:
        figures = design_summary(design)
        writes = sum(figures["index_writes_per_write"].values())
        reads = sum(figures["items_read_per_read"].values())
        rows.append({"design": design.name, "indexes": figures["indexes"], "scans": figures["scans"],
                     "index writes per request (all write patterns)": round(writes, 3),
                     "items read per request (all read patterns)": round(reads, 3), "summary": design.summary})
    return rows
