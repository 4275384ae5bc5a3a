"""Cross-reference checks on a typed model: names that must exist, be unique, or agree.

Type and value checks happen when the document is parsed (`modeling.model_file`); this module
checks what a schema cannot: an access pattern naming an entity that exists, a key template naming
attributes of its entity, DynamoDB's index quotas. Every problem carries a readable path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from modeling.errors import ItemSizeError, Problem, Severity
from modeling.item_size import parse_number
from modeling.key_templates import KeyTemplate, KeyTemplateError
from modeling.limits import (
    MAX_GSIS_PER_TABLE,
    MAX_LSIS_PER_TABLE,
    MAX_PROJECTED_NON_KEY_ATTRIBUTES,
    MAX_SAMPLE_BYTES_PER_MODEL,
    MIN_SAMPLE_ITEMS_PER_ENTITY,
)
from modeling.model import (
    AccessPattern,
    Attribute,
    AttributeType,
    ConstantGenerator,
    Entity,
    EntityKeys,
    EnumGenerator,
    KeyDesign,
    Model,
    PatternKind,
    ProjectionType,
    ReferenceGenerator,
    SecondaryIndex,
)
from modeling.sample_footprint import attribute_text_bytes, must_differ, sample_footprint_bytes
from modeling.write_validation import write_problems

_WRITE_KINDS = {PatternKind.WRITE, PatternKind.UPDATE, PatternKind.DELETE, PatternKind.TRANSACT_WRITE,
                PatternKind.BATCH_WRITE}


def semantic_problems(model: Model) -> list[Problem]:
    """Every cross-reference problem of a model, errors and warnings, in document order."""
    return [
        *_duplicates("entities", (e.name for e in model.entities)),
        *(p for e in model.entities for p in _entity_problems(model, e)),
        *_duplicates("relationships", (r.name for r in model.relationships)),
        *_relationship_problems(model),
        *_duplicates("access_patterns", (p.name for p in model.access_patterns)),
        *(p for ap in model.access_patterns for p in _pattern_problems(model, ap)),
        *_table_problems(model),
        *(_key_design_problems(model, model.key_design) if model.key_design else ()),
        *_coverage_warnings(model),
        *_identity_problems(model),
        *_sample_size_problems(model),
        *write_problems(model),
    ]


def _duplicates(path: str, names: Iterable[str]) -> Iterator[Problem]:
    for name, count in Counter(names).items():
        if count > 1:
            yield Problem(f"{path}[{name}]", f"the name `{name}` is used {count} times",
                          "names must be unique; rename or remove the copies")


def _missing_entity(model: Model, path: str, name: str) -> Iterator[Problem]:
    if model.entity(name) is None:
        known = ", ".join(e.name for e in model.entities) or "none yet"
        yield Problem(path, f"there is no entity `{name}`", f"use one of: {known}")


def _missing_attribute(entity: Entity, path: str, name: str) -> Iterator[Problem]:
    if entity.attribute(name) is None:
        known = ", ".join(a.name for a in entity.attributes) or "none yet"
        yield Problem(path, f"entity `{entity.name}` has no attribute `{name}`",
                      f"add it to {entity.name}, or use one of: {known}")


# --- entities ------------------------------------------------------------------------------------


def _entity_problems(model: Model, entity: Entity) -> Iterator[Problem]:
    base = f"entities[{entity.name}]"
    yield from _duplicates(f"{base}.attributes", (a.name for a in entity.attributes))
    for name in entity.identifiers:
        yield from _missing_attribute(entity, f"{base}.identifiers", name)
    for attribute in entity.attributes:
        generator = attribute.generator
        yield from _number_text_problems(base, attribute)
        if isinstance(generator, ReferenceGenerator):
            path = f"{base}.attributes[{attribute.name}].generator"
            target = model.entity(generator.entity)
            if target is None:
                yield from _missing_entity(model, f"{path}.entity", generator.entity)
            else:
                yield from _missing_attribute(target, f"{path}.attribute", generator.attribute)
    if not entity.attributes:
        yield Problem(base, "the entity has no attributes",
                      "add at least the attributes that identify an item", Severity.WARNING)


def _number_text_problems(base: str, attribute: Attribute) -> Iterator[Problem]:
    """A Number attribute whose generator makes text that is no number (`ff00aa`, issue 31.6): DynamoDB refuses
    the item (dynamodb-rules §6: a Number is digits, sign, point and exponent, at most 38 significant digits)."""
    if attribute.type not in (AttributeType.N, AttributeType.NS):
        return
    generator = attribute.generator
    values = list(generator.values) if isinstance(generator, EnumGenerator) else \
        [generator.value] if isinstance(generator, ConstantGenerator) and isinstance(generator.value, str) else []
    wrong = [v for v in values if not _is_number_text(v)]
    if wrong:
        shown = ", ".join(wrong[:3]) + (", ..." if len(wrong) > 3 else "")
        yield Problem(f"{base}.attributes[{attribute.name}].type",
                      f"`{attribute.name}` is a Number, but its generator makes text that is no number ({shown}): "
                      "DynamoDB refuses such an item",
                      "make the attribute S (hex codes and other text are strings), or give the generator numbers")


def _is_number_text(value: str) -> bool:
    try:
        parse_number(value)
    except ItemSizeError:
        return False
    return True


def _identity_problems(model: Model) -> Iterator[Problem]:
    """An entity that a pattern reads or writes needs what makes its items unique (its primary key)."""
    used = {name for pattern in model.access_patterns for name in pattern.entities}
    for entity in model.entities:
        if entity.name in used and not entity.identity and entity.attributes:
            yield Problem(f"entities[{entity.name}].identifiers",
                          f"`{entity.name}` has no identifier, so its items have no unique primary key",
                          _identifier_suggestion(model, entity))


def _sample_size_problems(model: Model) -> Iterator[Problem]:
    """A model whose sample data would not fit MAX_SAMPLE_BYTES_PER_MODEL even at the fewest sample items per
    entity cannot be sized or previewed (issue 30): name the biggest text generator, which is what makes it so."""
    fewest = {e.name: MIN_SAMPLE_ITEMS_PER_ENTITY for e in model.entities}
    footprint = sample_footprint_bytes(model, fewest)
    if footprint <= MAX_SAMPLE_BYTES_PER_MODEL:
        return
    parts = [(attribute_text_bytes(e, a, MIN_SAMPLE_ITEMS_PER_ENTITY), e, a)
             for e in model.entities for a in e.attributes]
    size, entity, attribute = max(parts, key=lambda part: part[0], default=(0, None, None))
    message = (f"the model's sample data would take {_megabytes(footprint)} even at {MIN_SAMPLE_ITEMS_PER_ENTITY} "
               f"items per entity, more than the limit of {_megabytes(MAX_SAMPLE_BYTES_PER_MODEL)}")
    if entity is None or attribute is None or size == 0:
        yield Problem("entities", message, "split the model: one model per table or service")
        return
    per_item = " (unique or an identifier, so every item holds its own)" if must_differ(entity, attribute) else ""
    yield Problem(f"entities[{entity.name}].attributes[{attribute.name}].generator.length_bytes",
                  f"{message}; the largest part is this text{per_item}: {_megabytes(size)}",
                  "shorten the text generators' length_bytes (give the size as avg_size_bytes instead: capacity "
                  "uses it without drawing the text), or keep long texts off unique and identifier attributes "
                  "(a key is at most 2,048 bytes)")


def _megabytes(size_bytes: int) -> str:
    return f"{size_bytes / 1024**2:,.1f} MB"


def _identifier_suggestion(model: Model, entity: Entity) -> str:
    likely = likely_identifier(model, entity)
    if likely:
        return f"tick Identifier on `{likely}` (or on the attributes that together identify one item)"
    return "add an attribute that identifies one item (e.g. an id) and tick Identifier on it"


_ID_SUFFIXES = ("id", "ref", "key", "uuid", "code", "number")


def likely_identifier(model: Model, entity: Entity) -> str | None:
    """The attribute most likely meant as the id, only as a suggestion: the one input of a read_one
    pattern of the entity, else `id` or `<entity>Id`, else the one attribute named like an id."""
    names = {a.name for a in entity.attributes}
    lookups = sorted({p.inputs[0] for p in model.access_patterns if p.kind is PatternKind.READ_ONE
                      and entity.name in p.entities and len(p.inputs) == 1 and p.inputs[0] in names})
    if len(lookups) == 1:
        return lookups[0]
    wanted = {"id", f"{entity.name}id".lower(), f"{entity.name}_id".lower()}
    exact = sorted(n for n in names if n.lower() in wanted)
    if exact:
        return exact[0]
    named = sorted(n for n in names if n.lower().endswith(_ID_SUFFIXES) and n.lower() not in _ID_SUFFIXES[1:])
    return named[0] if len(named) == 1 else None


def _relationship_problems(model: Model) -> Iterator[Problem]:
    for relationship in model.relationships:
        base = f"relationships[{relationship.name}]"
        yield from _missing_entity(model, f"{base}.parent", relationship.parent)
        yield from _missing_entity(model, f"{base}.child", relationship.child)
        child = model.entity(relationship.child)
        if child is not None:
            for name in relationship.child_attributes:
                yield from _missing_attribute(child, f"{base}.child_attributes", name)


# --- access patterns -----------------------------------------------------------------------------


def _pattern_problems(model: Model, pattern: AccessPattern) -> Iterator[Problem]:
    base = f"access_patterns[{pattern.name}]"
    entities = [e for e in (model.entity(n) for n in pattern.entities) if e is not None]
    for name in pattern.entities:
        yield from _missing_entity(model, f"{base}.entities", name)
    if entities:
        named = [("inputs", n) for n in pattern.inputs if n not in pattern.value_inputs]
        named += [("filters", f.attribute) for f in pattern.filters]
        named += [("changed_attributes", n) for n in pattern.changed_attributes]
        named += [("returns", n) for n in pattern.returns]
        if pattern.range_condition:
            named.append(("range_condition.attribute", pattern.range_condition.attribute))
        for field, name in named:
            if not any(e.attribute(name) for e in entities):
                owners = " or ".join(e.name for e in entities)
                yield Problem(f"{base}.{field}", f"`{name}` is not an attribute of {owners}",
                              "add the attribute to the entity, or correct the name")
        # a filter keeps only items holding the value: an entity without the attribute would return nothing, and
        # a sparse index keyed on it would hold none of that entity's items (it was priced as a guessed 10%)
        for condition in pattern.filters:
            lacking = [e.name for e in entities if not e.attribute(condition.attribute)]
            if lacking and len(lacking) < len(entities):
                yield Problem(f"{base}.filters", f"`{condition.attribute}` is not an attribute of "
                              f"{' or '.join(lacking)}, so the filter would return none of its items",
                              "add the attribute to every entity the pattern reads, or read those entities in "
                              "a pattern of their own")
    yield from _pattern_kind_problems(base, pattern)


def _pattern_kind_problems(base: str, pattern: AccessPattern) -> Iterator[Problem]:
    if pattern.kind is PatternKind.UPDATE and not pattern.changed:
        yield Problem(f"{base}.changed_attributes", "an update must say which attributes it changes",
                      "list them; they decide which indexes the update writes to")
    if pattern.range_condition and pattern.kind is not PatternKind.READ_MANY:
        yield Problem(f"{base}.range_condition",
                      f"a range condition only applies to read_many patterns, not {pattern.kind}",
                      "remove it, or change the kind to read_many")
    if pattern.kind in _WRITE_KINDS and pattern.consistency.value == "strong":
        yield Problem(f"{base}.consistency", "writes have no read consistency setting",
                      "leave consistency at eventual for writes", Severity.WARNING)
    if pattern.kind is PatternKind.READ_ONE and pattern.expected_items > 1:
        yield Problem(f"{base}.expected_items",
                      f"a read_one pattern returns one item, not {pattern.expected_items:g}",
                      "use read_many for patterns that return several items", Severity.WARNING)
    if pattern.name.count("_") < 1:
        yield Problem(f"{base}.name", f"`{pattern.name}` does not say what it reads or writes",
                      "name patterns verb_object_by_key, e.g. get_order_by_id", Severity.WARNING)


# --- table ---------------------------------------------------------------------------------------


def _table_problems(model: Model) -> Iterator[Problem]:
    table = model.table
    if table.ttl_attribute:
        owners = [e for e in model.entities if e.attribute(table.ttl_attribute)]
        if not owners:
            yield Problem("table.ttl_attribute", f"no entity has the attribute `{table.ttl_attribute}`",
                          "add it (type N, epoch seconds) to the entities that expire")
        for entity in owners:
            attribute = entity.attribute(table.ttl_attribute)
            if attribute is not None and attribute.type is not AttributeType.N:
                yield Problem(f"entities[{entity.name}].attributes[{attribute.name}].type",
                              f"the TTL attribute must be a Number (epoch seconds), not {attribute.type}",
                              "change its type to N")
    if table.region in table.replica_regions:
        yield Problem("table.replica_regions", f"{table.region} is the table's own Region",
                      "list only the other Regions that hold replicas")
    yield from _duplicates("table.replica_regions", table.replica_regions)


# --- key design ----------------------------------------------------------------------------------


def _key_design_problems(model: Model, design: KeyDesign) -> Iterator[Problem]:
    base = "key_design"
    gsis, lsis = design.global_secondary_indexes, design.local_secondary_indexes
    yield from _duplicates(f"{base}.indexes", (i.name for i in (*gsis, *lsis)))
    if len(gsis) > MAX_GSIS_PER_TABLE:
        yield Problem(f"{base}.global_secondary_indexes",
                      f"{len(gsis)} GSIs; DynamoDB allows {MAX_GSIS_PER_TABLE} per table by default",
                      "overload GSIs (GSI1PK/GSI1SK shared by several entities) or request a quota increase")
    if len(lsis) > MAX_LSIS_PER_TABLE:
        yield Problem(f"{base}.local_secondary_indexes",
                      f"{len(lsis)} LSIs; DynamoDB allows at most {MAX_LSIS_PER_TABLE} per table",
                      "use GSIs for the other alternate sort orders")
    for lsi in lsis:
        yield from _lsi_problems(design, lsi)
    yield from _projection_problems(base, (*gsis, *lsis))
    yield from _key_type_problems(design)
    yield from _duplicates(f"{base}.entities", (k.entity for k in design.entities))
    for keys in design.entities:
        yield from _entity_keys_problems(model, design, keys)


def _lsi_problems(design: KeyDesign, lsi: SecondaryIndex) -> Iterator[Problem]:
    path = f"key_design.local_secondary_indexes[{lsi.name}]"
    if lsi.partition_key.name != design.partition_key.name:
        yield Problem(f"{path}.partition_key",
                      f"an LSI shares the table's partition key `{design.partition_key.name}`, "
                      f"not `{lsi.partition_key.name}`", "use the table's partition key, or make it a GSI")
    if lsi.sort_key is None:
        yield Problem(f"{path}.sort_key", "an LSI needs its own sort key", "add a sort_key")
    if design.sort_key is None:
        yield Problem(path, "LSIs need a table with a sort key", "add a sort key to the table")


def _projection_problems(base: str, indexes: tuple[SecondaryIndex, ...]) -> Iterator[Problem]:
    projected = sum(len(i.projection.non_key_attributes) for i in indexes
                    if i.projection.type is ProjectionType.INCLUDE)
    if projected > MAX_PROJECTED_NON_KEY_ATTRIBUTES:
        yield Problem(f"{base}.indexes", f"{projected} projected non-key attributes across indexes; "
                      f"DynamoDB allows {MAX_PROJECTED_NON_KEY_ATTRIBUTES}",
                      "project ALL, or fewer attributes")


def _key_type_problems(design: KeyDesign) -> Iterator[Problem]:
    declared: dict[str, str] = {}
    key_attributes = [("key_design.partition_key", design.partition_key)]
    if design.sort_key:
        key_attributes.append(("key_design.sort_key", design.sort_key))
    for kind, indexes in (("global_secondary_indexes", design.global_secondary_indexes),
                          ("local_secondary_indexes", design.local_secondary_indexes)):
        for index in indexes:
            key_attributes.append((f"key_design.{kind}[{index.name}].partition_key", index.partition_key))
            if index.sort_key:
                key_attributes.append((f"key_design.{kind}[{index.name}].sort_key", index.sort_key))
    for path, attribute in key_attributes:
        previous = declared.setdefault(attribute.name, attribute.type)
        if previous != attribute.type:
            yield Problem(f"{path}.type", f"`{attribute.name}` is declared as {previous} elsewhere "
                          f"and {attribute.type} here", "a key attribute has one type in the whole table")


def _entity_keys_problems(model: Model, design: KeyDesign, keys: EntityKeys) -> Iterator[Problem]:
    path = f"key_design.entities[{keys.entity}]"
    entity = model.entity(keys.entity)
    if entity is None:
        yield from _missing_entity(model, f"{path}.entity", keys.entity)
        return
    yield from _template_problems(entity, f"{path}.table.partition_key", keys.table.partition_key)
    if design.sort_key is not None and keys.table.sort_key is None:
        yield Problem(f"{path}.table.sort_key", f"the table has the sort key `{design.sort_key.name}`, "
                      "so every item needs one", "add a sort_key template (a constant such as `PROFILE` works)")
    if design.sort_key is None and keys.table.sort_key is not None:
        yield Problem(f"{path}.table.sort_key", "the table has no sort key",
                      "remove this template, or add a sort_key to the table")
    if keys.table.sort_key is not None:
        yield from _template_problems(entity, f"{path}.table.sort_key", keys.table.sort_key)
    if keys.table.only_when:
        yield Problem(f"{path}.table.only_when", "every item has its table keys; only index keys can be conditional",
                      "move the condition to an index template (a sparse index)")
    indexes = {i.name: i for i in (*design.global_secondary_indexes, *design.local_secondary_indexes)}
    for index_name, templates in keys.indexes.items():
        index_path = f"{path}.indexes[{index_name}]"
        index = indexes.get(index_name)
        if index is None:
            yield Problem(index_path, f"there is no index `{index_name}` in the key design",
                          "declare it under global_secondary_indexes or local_secondary_indexes")
            continue
        yield from _template_problems(entity, f"{index_path}.partition_key", templates.partition_key)
        for condition in templates.only_when:
            yield from _missing_attribute(entity, f"{index_path}.only_when", condition.attribute)
        if templates.sort_key is not None:
            yield from _template_problems(entity, f"{index_path}.sort_key", templates.sort_key)
        elif index.sort_key is not None:
            yield Problem(f"{index_path}.sort_key", f"index `{index_name}` has a sort key, so entries need one",
                          "add a sort_key template")


def _template_problems(entity: Entity, path: str, source: str) -> Iterator[Problem]:
    try:
        template = KeyTemplate.parse(source)
    except KeyTemplateError as exc:
        yield Problem(path, str(exc), "write constants and {attribute} references, e.g. ORDER#{orderId}")
        return
    for name in template.attribute_names:
        yield from _missing_attribute(entity, path, name)


# --- coverage ------------------------------------------------------------------------------------


def _coverage_warnings(model: Model) -> Iterator[Problem]:
    if model.entities and not model.access_patterns:
        yield Problem("access_patterns", "the model has no access patterns",
                      "list how the application reads and writes; the key design starts from them",
                      Severity.WARNING)
        return
    used = {name for pattern in model.access_patterns for name in pattern.entities}
    for entity in model.entities:
        if entity.name not in used:
            yield Problem(f"entities[{entity.name}]", "no access pattern reads or writes this entity",
                          "add its access patterns, or remove it", Severity.WARNING)
