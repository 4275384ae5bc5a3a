"""The key-design search's candidate source for reads through uniqueness items (issue 28.3).

The generator builds a GSI for a read by a unique attribute (`get_customer_by_email`), like for any read the
table keys do not serve. When the entity keeps a uniqueness item for that attribute, the read can instead be
two GetItems through it (`modeling.design.uniqueness_reads`): this module gives, for a candidate design, the
same design without the GSI entries only such reads use. The search (`modeling.design.search`) prices both under
its objective, the recommended option's total, and keeps the cheaper: two GetItems' read units per read against
the index's write units on every write of the entity and its storage.
"""

from __future__ import annotations

import re

from modeling.design.planner import plan_patterns
from modeling.design.plans import Design, IndexChoice
from modeling.design.uniqueness_reads import readable_through_uniqueness
from modeling.model import KeyAttribute, KeyDesign, Model


def lookup_indexes_dropped(model: Model, design: Design) -> Design | None:
    """The design with the GSI entries used only by reads a uniqueness item can serve left out, and those reads
    planned through it; None when no read of the design can be.

    An entity's templates on an index are left out only when every plan reading that entity on that index is
    such a read; an index left with no entity is dropped. The reads are planned again on the new keys (the
    planner reads through the uniqueness item where no key or index serves them)."""
    readable = readable_through_uniqueness(model)
    if not readable:
        return None
    key_design = design.key_design
    gsis = {i.name for i in key_design.global_secondary_indexes}
    droppable: dict[tuple[str, str], bool] = {}
    for plan in design.plans:
        if plan.index not in gsis or plan.operation.is_write:
            continue
        through = plan.through is None and plan.pattern in readable
        for entity in plan.entities:
            droppable[(entity, plan.index)] = droppable.get((entity, plan.index), True) and through
    dropped = {pair for pair, ok in droppable.items() if ok}
    if not dropped:
        return None
    entities = tuple(k.model_copy(update={"indexes": {i: t for i, t in k.indexes.items()
                                                      if (k.entity, i) not in dropped}})
                     if any((k.entity, i) in dropped for i in k.indexes) else k for k in key_design.entities)
    used = {i for k in entities for i in k.indexes}
    kept_gsis = tuple(i for i in key_design.global_secondary_indexes if i.name in used)
    new_keys, names = renumbered_gsis(key_design.model_copy(update={"entities": entities,
                                                                    "global_secondary_indexes": kept_gsis}))
    plans = plan_patterns(model, new_keys)
    served = {p.pattern for p in plans if p.through is not None}
    moved = {p.pattern for p in design.plans if (p.entities and (p.entities[0], p.index) in dropped)}
    if not moved <= served:
        return None  # a read lost its index without a uniqueness item to read through: not this candidate
    kept = {i.name for i in (*kept_gsis, *key_design.local_secondary_indexes)}
    reasons = tuple(IndexChoice(names.get(c.index, c.index), _renamed(c.reason, names),
                                tuple(p for p in c.patterns if p not in moved))
                    for c in design.index_reasons if c.index in kept)
    summary = (f"{_renamed(design.summary, names)} Reads by a unique attribute ({', '.join(sorted(moved))}) go "
               "through its uniqueness item: two GetItems, no index.")
    entity_reasons = tuple((entity, _renamed(reason, names)) for entity, reason in design.entity_reasons)
    return Design(design.name, summary, new_keys, plans, entity_reasons, reasons)


_GENERATED_INDEX = re.compile(r"GSI([1-9][0-9]*)")
_NAME_IN_TEXT = re.compile(r"\bGSI[1-9][0-9]*(?=PK\b|SK\b|\b)")


def renumbered_gsis(key_design: KeyDesign) -> tuple[KeyDesign, dict[str, str]]:
    """The key design with the generator's GSIs numbered GSI1, GSI2, ... again after some were dropped (an expert
    draws no GSI2 without a GSI1), their key attributes (GSI3PK -> GSI2PK) too; and the names changed. Left as
    it is when an index is not the generator's (a name other than GSI<n>)."""
    gsis = key_design.global_secondary_indexes
    if not all(_GENERATED_INDEX.fullmatch(g.name) for g in gsis):
        return key_design, {}
    names = {g.name: f"GSI{number}" for number, g in enumerate(gsis, start=1) if g.name != f"GSI{number}"}
    if not names:
        return key_design, {}
    attributes = {f"{old}{part}": f"{new}{part}" for old, new in names.items() for part in ("PK", "SK")}

    def key(attribute: KeyAttribute | None) -> KeyAttribute | None:
        return None if attribute is None else attribute.model_copy(
            update={"name": attributes.get(attribute.name, attribute.name)})

    renamed = tuple(g.model_copy(update={"name": names.get(g.name, g.name), "partition_key": key(g.partition_key),
                                         "sort_key": key(g.sort_key), "projection": g.projection.model_copy(update={
                                             "non_key_attributes": tuple(attributes.get(a, a) for a in
                                                                         g.projection.non_key_attributes)})})
                    for g in gsis)
    entities = tuple(k.model_copy(update={"indexes": {names.get(i, i): t for i, t in k.indexes.items()}})
                     for k in key_design.entities)
    return key_design.model_copy(update={"global_secondary_indexes": renamed, "entities": entities}), names


def _renamed(text: str, names: dict[str, str]) -> str:
    """Index and key attribute names in a reason, as renumbered (all at once: GSI3 -> GSI2 never meets GSI2)."""
    return _NAME_IN_TEXT.sub(lambda m: names.get(m.group(0), m.group(0)), text) if names else text
