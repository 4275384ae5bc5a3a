"""A read through a uniqueness item on the preview table: two GetItems, and the uniqueness items they need.

The planner serves a read by a unique attribute (`get_customer_by_email`) through the entity's uniqueness item
when no key or index does (`modeling.design.uniqueness_reads`): a GetItem on the uniqueness item
(`EMAIL#{email}`), which carries the owner's table key attributes, then a GetItem on the owner's item. Here both
requests are built for concrete inputs, and the preview data gets the uniqueness item of every loaded item of
such an entity, as the entity's writes would have put it (`modeling.preview.write_requests`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from modeling.data.sample_data import Item
from modeling.design.keys import KeyTemplate, KeyTemplateError, render_key
from modeling.design.planner import plan_patterns
from modeling.design.plans import Operation, ReadThrough
from modeling.model import KeyDesign, Model
from modeling.preview.dataset import PreviewData, StoredItem, key_value, number_key_names, primary_key_names
from modeling.preview.requests import PatternRequest, ReadShape, RequestBuildError


def read_throughs(model: Model, key_design: KeyDesign) -> dict[str, tuple[ReadThrough, ...]]:
    """Entity -> the uniqueness items the design's reads go through (by item name: never the file's order)."""
    found: dict[str, dict[str, ReadThrough]] = {}
    for plan in plan_patterns(model, key_design):
        if plan.through is not None:
            found.setdefault(plan.entities[0], {})[plan.through.item] = plan.through
    return {entity: tuple(items[name] for name in sorted(items)) for entity, items in sorted(found.items())}


def uniqueness_key(through: ReadThrough, key_design: KeyDesign, values: Item) -> dict[str, Any]:
    """The uniqueness item's table key for these values (`EMAIL#{email}` rendered, typed as the key holds it)."""
    names = primary_key_names(key_design)
    numbers = number_key_names(key_design)
    templates = [through.partition_key, *([through.sort_key] if through.sort_key and len(names) > 1 else [])]
    try:
        return {name: key_value(name, render_key(KeyTemplate.parse(template), values), numbers)
                for name, template in zip(names, templates, strict=False)}
    except KeyTemplateError as exc:
        raise RequestBuildError(f"the uniqueness item's key: {exc}; give a value for every input") from None


def uniqueness_item(through: ReadThrough, entity: str, key_design: KeyDesign, owner: Item) -> Item:
    """The uniqueness item an entity's put writes: its keys, the owner's key attributes, and whose it is."""
    return {**{a: owner[a] for a in through.carries if a in owner}, **uniqueness_key(through, key_design, owner),
            "auxiliaryOf": entity, "auxiliaryItem": through.item}


def first_request(shape: ReadShape, table_name: str, inputs: dict[str, Any],
                  key_design: KeyDesign) -> PatternRequest:
    """The GetItem on the uniqueness item, which answers with the owner's key attributes."""
    through = shape.plan.through
    assert through is not None  # only a read planned through a uniqueness item is sent this way
    params: dict[str, Any] = {"TableName": table_name, "Key": uniqueness_key(through, key_design, inputs)}
    if shape.plan.consistent_read:
        params["ConsistentRead"] = True
    return PatternRequest(shape.pattern.name, Operation.GET_ITEM, params, (dict(inputs),))


def owner_inputs(through: ReadThrough, found: Item | None) -> dict[str, Any] | None:
    """The owner's key attributes the uniqueness item carries; None when there is no such item (no owner)."""
    if found is None or not all(a in found for a in through.carries):
        return None
    return {a: found[a] for a in through.carries}


def with_uniqueness_items(model: Model, key_design: KeyDesign, data: PreviewData) -> PreviewData:
    """The data with the uniqueness item of every loaded item whose entity a read goes through.

    An item whose unique value an earlier item (loaded or spare) already holds is dropped and counted as a
    duplicate: its put would fail on the uniqueness item's condition, so DynamoDB would never hold both."""
    throughs = read_throughs(model, key_design)
    if not throughs:
        return data
    names = primary_key_names(key_design)
    seen = {tuple(item.keys[n] for n in names) for item in (*data.items, *data.spares)}
    loaded: list[StoredItem] = []
    spares: list[StoredItem] = []
    auxiliary: list[Item] = []
    dropped = data.dropped_duplicates
    for spare, items in ((False, data.items), (True, data.spares)):
        for item in items:
            extra = [uniqueness_item(t, item.entity, key_design, item.attributes)
                     for t in throughs.get(item.entity, ())]
            identities = [tuple(x[n] for n in names) for x in extra]
            if any(i in seen for i in identities) or len(set(identities)) < len(identities):
                dropped += 0 if spare else 1
                continue
            seen.update(identities)
            (spares if spare else loaded).append(item)
            if not spare:
                auxiliary.extend(extra)
    return replace(data, items=tuple(loaded), spares=tuple(spares), dropped_duplicates=dropped,
                   auxiliary=tuple(auxiliary))
