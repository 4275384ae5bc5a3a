"""What every rule reads: the `Context` computed once per `check_design` call, and shared rule helpers.

`build_context` gathers the lookups (access paths, entity keys, indexes, plans), item sizes and the
approximate peak load per partition-key template (see `estimates`). The helpers below it are shared by
the rule modules: severity from a load, entity and template lookups, and wording for messages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from modeling.design.checks.catalogue import ERROR, INFO, WARNING, Finding, FindingSeverity
from modeling.design.checks.estimates import (
    BUSY_PARTITION_SHARE,
    HOT_PARTITION_SHARE,
    Load,
    parse_template,
    peak_loads,
)
from modeling.design.planner import AccessPath, access_paths
from modeling.design.plans import TABLE, Design, PatternPlan
from modeling.design.sizing import Sizes, design_sizes
from modeling.model import AccessPattern, Entity, EntityKeys, Model, PatternKind, SecondaryIndex


@dataclass(frozen=True)
class KeyOwner:
    """One entity's partition-key template on the table or one GSI, with its readable path."""

    entity: Entity
    template: str
    path: str
    index: str | None


@dataclass(frozen=True)
class Context:
    """What every rule needs, computed once per `check_design` call; rules only read it."""

    model: Model
    design: Design
    paths: dict[str, AccessPath]
    keys: dict[str, EntityKeys]
    indexes: dict[str, SecondaryIndex]
    item_bytes: dict[str, float]
    plans_by_pattern: dict[str, PatternPlan]
    owners: dict[tuple[str, str], tuple[KeyOwner, ...]]  # (TABLE or GSI name, template) -> owners
    loads: dict[tuple[str, str], Load]
    sizes: Sizes  # item and entry sizes (modeling.design.sizing), shared with the cost engine

    def entity(self, name: str) -> Entity | None:
        """The model's entity of that name, or None."""
        return self.model.entity(name)

    def plans(self) -> Iterator[tuple[AccessPattern, PatternPlan]]:
        """Each access pattern with its plan, in model order (patterns the design did not plan are skipped)."""
        for pattern in self.model.access_patterns:
            plan = self.plans_by_pattern.get(pattern.name)
            if plan is not None:
                yield pattern, plan


def build_context(model: Model, design: Design) -> Context:
    """Lookups, item sizes and per-key peak loads, computed once per `check_design` call."""
    key_design = design.key_design
    indexes = {i.name: i for i in (*key_design.global_secondary_indexes, *key_design.local_secondary_indexes)}
    sizes = design_sizes(model, key_design)
    ctx = Context(model, design, {p.name: p for p in access_paths(key_design)},
                  {k.entity: k for k in key_design.entities}, indexes,
                  {e.name: float(sizes.item_bytes(e.name)) for e in model.entities},
                  {p.pattern: p for p in design.plans}, {}, {}, sizes)
    ctx = replace(ctx, owners=_owners(ctx))
    return replace(ctx, loads=peak_loads(ctx))


def _owners(ctx: Context) -> dict[tuple[str, str], tuple[KeyOwner, ...]]:
    """Partition-key templates on the table and each GSI, with the entities using them (LSIs share the table's)."""
    owners: dict[tuple[str, str], list[KeyOwner]] = {}
    for keys in ctx.design.key_design.entities:
        entity = ctx.entity(keys.entity)
        if entity is None:
            continue
        base = f"key_design.entities[{entity.name}]"
        found: list[tuple[str, str, str, str | None]] = [(TABLE, keys.table.partition_key,
                                                          f"{base}.table.partition_key", None)]
        found += [(name, t.partition_key, f"{base}.indexes[{name}].partition_key", name)
                  for name, t in keys.indexes.items() if name in ctx.paths and ctx.paths[name].is_global]
        for physical, template, path, index in found:
            owners.setdefault((physical, template), []).append(KeyOwner(entity, template, path, index))
    return {key: tuple(found) for key, found in owners.items()}


def load_severity(utilisation: float) -> FindingSeverity:
    """Error from half a partition, warning from a tenth, else info (product thresholds in `estimates`)."""
    if utilisation >= HOT_PARTITION_SHARE:
        return ERROR
    return WARNING if utilisation >= BUSY_PARTITION_SHARE else INFO


def where(physical: str) -> str:
    """`the table` or `index GSI1`, for messages."""
    return "the table" if physical == TABLE else f"index {physical}"


def owner_names(owners: tuple[KeyOwner, ...]) -> str:
    """The entity names sharing one key template, in design order."""
    return ", ".join(dict.fromkeys(o.entity.name for o in owners))


def existing_entities(ctx: Context, names: tuple[str, ...]) -> list[Entity]:
    """The named entities that exist (validation reports the others)."""
    return [e for e in (ctx.entity(n) for n in names) if e is not None]


def changed_attributes(ctx: Context, pattern: AccessPattern) -> list[tuple[Entity, set[str]]]:
    """(entity, attributes it changes) for update-like patterns."""
    if pattern.kind not in (PatternKind.UPDATE, PatternKind.TRANSACT_WRITE):
        return []
    return [(e, changed) for e in existing_entities(ctx, pattern.entities)
            if (changed := {a for a in pattern.changed if e.attribute(a) is not None})]


def template_names(*sources: str | None) -> set[str]:
    """Attribute names referenced by any of the given key templates."""
    return {n for source in sources if source for n in parse_template(source).attribute_names}


# A rule: reads the context, yields its findings.
Rule = Callable[[Context], Iterator[Finding]]
