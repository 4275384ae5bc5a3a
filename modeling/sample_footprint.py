"""How much memory a draw of sample items holds, estimated from the model alone (issue 30).

`modeling.data.sample_data.generate_items` draws the items; validation refuses a model whose draw would not fit
`modeling.limits.MAX_SAMPLE_BYTES_PER_MODEL` even at the fewest items per entity, and the sizing keeps its cached
draws within a byte budget. Both need the estimate without drawing, so it lives in the core with the model.
"""

from __future__ import annotations

from collections.abc import Mapping

from modeling.limits import MAX_FAKER_TEXT_CHARS
from modeling.model import Attribute, Entity, Model, TextGenerator


def must_differ(entity: Entity, attribute: Attribute) -> bool:
    """Whether items need their own value: a unique attribute or an identifier (made distinct when repeated)."""
    return attribute.unique or attribute.name in entity.identifiers


# What one sample value and one item cost in memory beyond a text's characters: a Python object and its slot
# in the item's dict, measured with tracemalloc on the six examples' draws (60-90 B a value), rounded up.
SAMPLE_VALUE_BYTES = 100
SAMPLE_ITEM_BYTES = 200


def sample_item_bytes(entity: Entity) -> int:
    """Memory one sample item of `entity` holds (`sample_footprint_bytes`), shared long text left out."""
    return SAMPLE_ITEM_BYTES + sum(SAMPLE_VALUE_BYTES + _own_text_bytes(entity, a) for a in entity.attributes)


def shared_text_bytes(entity: Entity) -> int:
    """Memory of `entity`'s long filler texts drawn once and shared by all its items, whatever their number."""
    return sum(a.generator.length_bytes for a in entity.attributes if _is_shared_text(entity, a)
               and isinstance(a.generator, TextGenerator))


def sample_footprint_bytes(model: Model, items_per_entity: Mapping[str, int]) -> int:
    """About how much memory `generate_items(model, items_per_entity)` holds: every item's values and their text,
    and each shared long text once (issue 30: bounded by `modeling.limits.MAX_SAMPLE_BYTES_PER_MODEL`)."""
    return sum(items_per_entity.get(e.name, 0) * sample_item_bytes(e) + shared_text_bytes(e) for e in model.entities)


def attribute_text_bytes(entity: Entity, attribute: Attribute, items: int) -> int:
    """Text memory `attribute` takes in a draw of `items` items of `entity`: once if shared, else per item."""
    if _is_shared_text(entity, attribute):
        return attribute.generator.length_bytes if isinstance(attribute.generator, TextGenerator) else 0
    return items * _own_text_bytes(entity, attribute)


def _own_text_bytes(entity: Entity, attribute: Attribute) -> int:
    """Text characters an item holds for itself: the text generator's length unless the text is shared."""
    spec = attribute.generator
    if not isinstance(spec, TextGenerator) or _is_shared_text(entity, attribute):
        return 0
    return spec.length_bytes


def _is_shared_text(entity: Entity, attribute: Attribute) -> bool:
    spec = attribute.generator
    return (isinstance(spec, TextGenerator) and spec.length_bytes > MAX_FAKER_TEXT_CHARS
            and not must_differ(entity, attribute))
