"""One table of a NoSQL Workbench file -> a Design Studio model, with a list of what was inferred.

Entities come from facets; without facets, from a type attribute (`type`, `EntityType` ...), else from
the shape of the key values (`CUSTOMER#123` is the label `CUSTOMER` and a value), read with the key
grammar of `modeling.design.keys` that the live-table import shares. Key templates are
read back from the values: a segment equal to one of the item's attributes becomes `{attribute}`, a
label stays constant text, and any other value becomes a new identifier attribute named after the
facet's key alias, the key attribute or the label before it (`CUSTOMER#123` -> `customerId`). Facet
aliases that already are templates (`CUSTOMER#{customerId}`, as the exporter writes them) are used as
they are. Generators are inferred from the values seen. Workbench files hold no access patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from modeling.data.value_generators import generator_for
from modeling.design.keys import (
    VALUE,
    KeyTemplate,
    KeyTemplateError,
    is_label,
    key_shape,
    repeated_constants,
)
from modeling.errors import ModelFileError, ModelingError, Problem, errors_only
from modeling.interop.nosql_workbench.document import (
    Index,
    Table,
    WorkbenchFile,
    iter_items,
    plain_value,
    read_workbench,
)
from modeling.interop.nosql_workbench.templates import (
    GENERIC_KEY,
    KeyGroup,
    camel,
    infer_template,
    key_text,
    renamed_template,
    safe_name,
    template_from_alias,
    unique_name,
)
from modeling.limits import MAX_ITEM_BYTES, MAX_TABLE_NAME_CHARS, MIN_TABLE_NAME_CHARS
from modeling.model import (
    Attribute,
    AttributeType,
    BillingMode,
    Entity,
    EntityKeys,
    KeyAttribute,
    KeyAttributeType,
    KeyDesign,
    KeyTemplates,
    Model,
    Projection,
    ProjectionType,
    SecondaryIndex,
    TableSettings,
)
from modeling.model_file import document_problems, model_to_document

TYPE_ATTRIBUTES = ("type", "entitytype", "entity_type", "_type", "__typename", "recordtype", "record_type", "_et")
MAX_TYPE_VALUES = 30
TTL_NAMES = ("ttl", "expiresat", "expires_at", "expire_at", "expiration_ttl", "expiry")
# what an attribute name cannot hold (modeling.design.keys.ATTRIBUTE_NAME_PATTERN); `#` and the rest are kept
_INVALID_ATTRIBUTE_CHARS = re.compile(r"[{}:\s\x00-\x1f\x7f]")
# NoSQL Workbench 3.8+ sample-data formats (`SampleDataFormats`: attribute -> [category, format]) that map
# onto a generator; matched on the lower-cased format name.
SAMPLE_DATA_FORMATS: dict[str, dict[str, Any]] = {
    "email": {"kind": "faker", "provider": "email"}, "uuid": {"kind": "uuid"},
    "first name": {"kind": "faker", "provider": "first_name"}, "last name": {"kind": "faker", "provider": "last_name"},
    "full name": {"kind": "faker", "provider": "name"}, "phone number": {"kind": "faker", "provider": "phone_number"},
    "city": {"kind": "faker", "provider": "city"}, "country": {"kind": "faker", "provider": "country"},
    "url": {"kind": "faker", "provider": "url"}, "company name": {"kind": "faker", "provider": "company"},
}


@dataclass(frozen=True)
class WorkbenchImport:
    """A model made from one table of a Workbench file, and what the user should know about it."""

    model: Model
    table: str
    tables: tuple[str, ...]
    inferred: tuple[str, ...]  # one sentence per inference or loss, shown to the user
    unknown_keys: tuple[str, ...]  # kept in `source`; not part of the model
    source: WorkbenchFile


def import_workbench(data: bytes, table: str | None = None, filename: str = "model.json") -> WorkbenchImport:
    """Read a Workbench file and make a model of one table (the first by default)."""
    return import_workbench_file(read_workbench(data, filename), table)


def import_workbench_file(workbench: WorkbenchFile, table_name: str | None = None) -> WorkbenchImport:
    table = workbench.table(table_name)
    notes = list(workbench.notes)
    if len(workbench.tables) > 1:
        notes.append(f"The file has {len(workbench.tables)} tables ({', '.join(t.name for t in workbench.tables)}); "
                     f"a model holds one, so this is {table.name}. Import again to get the others.")
    try:
        model = _Builder(workbench, table, notes).model()
    except (ValidationError, ModelingError) as exc:  # a value the inference did not foresee: a problem, not a crash
        raise ModelFileError([Problem(f"DataModel[{table.name}]", f"no valid model could be made of this table: "
                                      f"{str(exc).splitlines()[0]}",
                                      "check the table's data in NoSQL Workbench")]) from None
    problems = errors_only(document_problems(model_to_document(model)))
    if problems:  # a bug in the inference, reported like any file problem rather than as a traceback
        raise ModelFileError(problems, f"the model inferred from table {table.name}")
    notes.append("NoSQL Workbench files hold no access patterns (nor traffic): add them on the Model page; "
                 "the key design checks and the cost estimate start from them.")
    unknown = workbench.unknown_keys()
    if unknown:
        notes.append("Kept but not part of the model (written back when the file is exported as 3.0): "
                     + ", ".join(unknown) + ".")
    return WorkbenchImport(model, table.name, tuple(t.name for t in workbench.tables), tuple(notes), unknown,
                           workbench)


# --- names ---------------------------------------------------------------------------------------


def attribute_name(text: str) -> str:
    """The Workbench attribute name as the model holds it: exactly, unless it has a character the key grammar
    reserves (`{ } :`) or a space, which become `_`."""
    return _INVALID_ATTRIBUTE_CHARS.sub("_", text.strip())[:255] or "attribute"


def _index_name(text: str) -> str:
    """DynamoDB's index naming rule: 3-255 of A-Z a-z 0-9 _ . -."""
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", text)[:MAX_TABLE_NAME_CHARS].ljust(MIN_TABLE_NAME_CHARS, "_")


def _entity_name(text: str) -> str:
    name = safe_name(text, "Item")
    return name[:1].upper() + name[1:]


# --- entity groups -------------------------------------------------------------------------------


class _Builder:
    def __init__(self, workbench: WorkbenchFile, table: Table, notes: list[str]) -> None:
        self.workbench, self.table, self.notes = workbench, table, notes
        self.key_names = {table.partition_key.name, *(k.name for k in (table.sort_key,) if k)}
        self.index_key_names = {k.name for i in table.indexes for k in (i.partition_key, i.sort_key) if k}
        self.generic = {n for n in self.key_names | self.index_key_names if GENERIC_KEY.match(n) or "#" in n}
        self.names: dict[str, str] = {}  # Workbench attribute name -> model name
        self.mapped_formats: set[str] = set()
        self.fragments: list[str] = []  # what was inferred for the entity being built
        self.taken_names: set[str] = set()
        self.flagged: set[str] = set()  # attributes whose declared type disagrees with their values (said once)
        self.values_of: dict[str, list[Any]] = {}  # attribute -> its typed values in the items, read once
        for item in table.all_items():
            for name, value in item.items():
                self.values_of.setdefault(name, []).append(value)

    # names of attributes across the table: one Workbench name, one model name
    def name_of(self, original: str) -> str:
        if original not in self.names:
            name = unique_name(attribute_name(original), self.taken_names)
            if name != original:
                self.notes.append(f"Attribute `{original}` is named `{name}` in the model (attribute names hold no "
                                  "spaces, `{`, `}` or `:`, which key templates use).")
            self.names[original] = name
        return self.names[original]

    def model(self) -> Model:
        groups = self.groups()
        self.keep_declared_attributes(groups)
        entities, entity_keys = [], []
        entity_names: set[str] = set()
        for group in groups:
            group.name = unique_name(_entity_name(group.name), entity_names)
            entity, keys = self.entity(group)
            entities.append(entity)
            entity_keys.append(keys)
        table = self.table
        key_design = KeyDesign(
            partition_key=self.key_attribute(table.partition_key.name, table.partition_key.type),
            sort_key=self.key_attribute(table.sort_key.name, table.sort_key.type) if table.sort_key else None,
            global_secondary_indexes=tuple(self.index(i) for i in table.indexes), entities=tuple(entity_keys))
        description = str(self.workbench.metadata.get("Description", "") or "").strip()
        origin = f"Imported from the NoSQL Workbench model '{self.workbench.name}', table {table.name}."
        name = self.workbench.name if len(self.workbench.tables) == 1 else f"{self.workbench.name} · {table.name}"
        return Model(name=name[:200], description=f"{description}\n\n{origin}".strip(), table=self.settings(entities),
                     entities=tuple(entities), key_design=key_design)

    def keep_declared_attributes(self, groups: list[KeyGroup]) -> None:
        """The table's declared non-key attributes that no item carries and no facet lists: on the one entity
        when there is one, else named in the notes (nothing says which entity has them)."""
        carried = self.key_names | self.index_key_names
        carried |= {n for g in groups for n in g.facet_attributes} | {n for g in groups for i in g.items for n in i}
        missing = tuple(a.name for a in self.table.non_key_attributes if a.name not in carried)
        if not missing:
            return
        shown = ", ".join(f"`{n}`" for n in missing)
        if len(groups) == 1:
            groups[0].facet_attributes += missing
            self.notes.append(f"{shown}: declared on the table but in no item, kept on {groups[0].name} as optional "
                              "attributes (their generators are guesses from the declared type).")
        else:
            self.notes.append(f"{shown}: declared on the table but in no item and in no facet, so nothing says which "
                              f"of the {len(groups)} entities has them; they are not in the model: add them on the "
                              "Model page to the entity they belong to.")

    def observed_type(self, name: str) -> str | None:
        """The one type of the attribute's values across the table's items (None: no values, or several)."""
        kinds = {_type_of([plain_value(value)]) for value in self.values_of.get(name, [])}
        return kinds.pop() if len(kinds) == 1 else None

    def declared_type(self, name: str) -> str | None:
        """The file's declared type, unless the values cannot be of it (a Number whose values are hex text):
        then the values' type, and the disagreement is said (once per attribute)."""
        declared = self.table.attribute_type(name)
        observed = self.observed_type(name)
        values = self.values_of.get(name, [])
        # a value typed N whose text is no number (`{"N": "ff00aa"}`): DynamoDB refuses the item
        not_numbers = [v["N"] for v in values if "N" in v and not isinstance(plain_value(v), Decimal)]
        wrong = declared in ("N", "BOOL") and observed is not None and observed != declared
        if (wrong or not_numbers) and name not in self.flagged:
            self.flagged.add(name)
            examples = ", ".join(str(plain_value(v)) for v in values[:3])
            stated = f"declared {declared} in the file" if declared else "typed N in the items"
            self.notes.append(f"`{name}` is {stated}, but its values are {observed or 'S'} ({examples}): "
                              f"DynamoDB would refuse them as {declared or 'N'}, so the model types it "
                              f"{observed or 'S'}. Fix the type in NoSQL Workbench if numbers were meant.")
        if wrong:
            return observed
        return "S" if not_numbers and declared in (None, "N") else declared

    def settings(self, entities: list[Entity]) -> TableSettings:
        table = self.table
        name = re.sub(r"[^A-Za-z0-9_.\-]", "_", table.name)[:MAX_TABLE_NAME_CHARS].ljust(MIN_TABLE_NAME_CHARS, "_")
        if name != table.name:
            self.notes.append(f"The table is named `{name}` (DynamoDB table names are 3-255 of A-Z a-z 0-9 _ . -).")
        billing = BillingMode(table.billing_mode) if table.billing_mode else BillingMode.PAY_PER_REQUEST
        if not table.billing_mode:
            self.notes.append("The file has no billing mode (versions 1.0 and 2.0 have none): on-demand assumed.")
        if table.provisioned:
            throughput = table.provisioned.get("ProvisionedThroughput")
            throughput = throughput if isinstance(throughput, dict) else {}
            self.notes.append(
                f"Provisioned capacity in the file ({throughput.get('ReadCapacityUnits', '?')} RCU / "
                f"{throughput.get('WriteCapacityUnits', '?')} WCU and its auto scaling settings) is not part of a "
                "model: the Capacity & cost page works capacity out from the access patterns.")
        ttl = self.ttl_attribute(entities)
        return TableSettings(name=name, billing_mode=billing, ttl_attribute=ttl)

    def ttl_attribute(self, entities: list[Entity]) -> str | None:
        if self.table.ttl_attribute:
            return self.declared_ttl(entities, self.table.ttl_attribute)
        found = {a.name: a.type for e in entities for a in e.attributes if a.name.lower() in TTL_NAMES}
        for name, kind in found.items():
            owners = [a for e in entities if (a := e.attribute(name)) is not None]
            if kind is AttributeType.N and all(a.type is AttributeType.N for a in owners):
                self.notes.append(f"`{name}` (a Number) is taken as the table's time-to-live attribute.")
                return name
        return None

    def declared_ttl(self, entities: list[Entity], original: str) -> str | None:
        """The file's `TimeToLiveAttribute`, when the model can hold it: an attribute of the entities, a Number
        (DynamoDB deletes an item only when its TTL attribute is a Number of epoch seconds, docs/checks.md)."""
        name = self.name_of(original)
        owners = [a for e in entities for a in e.attributes if a.name == name]
        if not owners:
            self.notes.append(f"The file's time-to-live attribute `{original}` is on no item and in no facet, so the "
                              "model has no TTL: add the attribute (a Number of epoch seconds) to the entities "
                              "that expire, then set it as the table's TTL attribute.")
            return None
        if any(a.type is not AttributeType.N for a in owners):
            kinds = ", ".join(sorted({a.type.value for a in owners}))
            self.notes.append(f"The file's time-to-live attribute `{original}` is {kinds}, not a Number: DynamoDB "
                              "deletes an item only when it holds epoch seconds as a Number, so the model has no "
                              "TTL; make it N and set it as the table's TTL attribute.")
            return None
        self.notes.append(f"`{name}` is the table's time-to-live attribute (TimeToLiveAttribute in the file).")
        return name

    def key_attribute(self, name: str, kind: str) -> KeyAttribute:
        kind = self.declared_type(name) or kind
        if kind not in ("S", "N", "B"):
            self.notes.append(f"Key attribute `{name}` has type {kind}; keys are S, N or B, so S is used.")
            kind = "S"
        return KeyAttribute(name=self.name_of(name), type=KeyAttributeType(kind))

    def index(self, index: Index) -> SecondaryIndex:
        name = _index_name(index.name)
        projected = tuple(self.name_of(a) for a in index.projected)
        projection = Projection(type=ProjectionType(index.projection_type),
                                non_key_attributes=projected if index.projection_type == "INCLUDE" else ())
        if index.projection_type == "INCLUDE" and not projected:
            projection = Projection(type=ProjectionType.KEYS_ONLY)
        return SecondaryIndex(
            name=name, partition_key=self.key_attribute(index.partition_key.name, index.partition_key.type),
            sort_key=self.key_attribute(index.sort_key.name, index.sort_key.type) if index.sort_key else None,
            projection=projection)

    # --- grouping items into entities

    def groups(self) -> list[KeyGroup]:
        groups: list[KeyGroup] = []
        loose: list[dict[str, Any]] = []
        by_facet: dict[str, KeyGroup] = {}
        for facet in self.table.facets:
            by_facet[facet.name] = KeyGroup(facet.name, f"facet {facet.name}", [], facet.non_key_attributes,
                                          facet.partition_key_alias, facet.sort_key_alias)
            groups.append(by_facet[facet.name])
        everything = []
        for facet_name, item in iter_items(self.table):
            plain = {k: plain_value(v) for k, v in item.items()}
            everything.append(plain)
            if facet_name is None:
                loose.append(plain)
            else:
                by_facet[facet_name].items.append(plain)
        self.constants = self.repeated_sort_values(everything)
        self.varying = self.varying_values(everything)
        if self.table.facets:
            self.notes.append(f"Entities {', '.join(f.name for f in self.table.facets)} come from the file's facets.")
        if loose:
            groups += self.loose_groups(loose)
        if not groups:
            groups.append(KeyGroup(self.table.name, "the table (it has no data)"))
            self.notes.append(f"The table has no data and no facets: one entity, {self.table.name}, with its keys.")
        for group in groups:
            shapes = {self.shape(item, self.constants) for item in group.items}
            if not group.shapes and len(shapes) == 1:
                partition, sort = shapes.pop()
                group.shapes = {self.table.partition_key.name: partition}
                if self.table.sort_key is not None:
                    group.shapes[self.table.sort_key.name] = sort
        return groups

    def loose_groups(self, items: list[dict[str, Any]]) -> list[KeyGroup]:
        discriminator = self.type_attribute(items)
        if discriminator is not None:
            groups: dict[str, KeyGroup] = {}
            for item in items:
                value = str(item[discriminator])
                groups.setdefault(value, KeyGroup(value, f"{discriminator} = {value}")).items.append(item)
            self.notes.append(f"Entities {', '.join(groups)} come from the values of the `{discriminator}` "
                              "attribute.")
            return list(groups.values())
        return self.shape_groups(items)

    def type_attribute(self, items: list[dict[str, Any]]) -> str | None:
        """A `type`-like attribute every item has as text, with few values (Hospital's `type`)."""
        for name in items[0]:
            if (name.lower() in TYPE_ATTRIBUTES and all(isinstance(i.get(name), str) for i in items)
                    and len({i[name] for i in items}) <= MAX_TYPE_VALUES):
                return name
        return None

    def shape_groups(self, items: list[dict[str, Any]]) -> list[KeyGroup]:
        """Group by the labels in the key values (`CUSTOMER#*`, `*#ORDER#*`), then merge same-shaped groups."""
        constants = self.constants
        for (key, _, _, label), words in self.varying_values(items).items():
            shown = ", ".join(sorted(words)[:3]) + (", ..." if len(words) > 3 else "")
            self.notes.append(f"`{key}`: the words after `{label}` ({shown}) vary between items, so they are read "
                              "as values of one kind of item, not as labels of entities of their own.")
        shaped: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        for item in items:
            shaped.setdefault(self.shape(item, constants), []).append(item)
        merged: list[tuple[tuple[Any, ...], list[dict[str, Any]]]] = []
        for shape, members in shaped.items():
            attributes = {frozenset(m) for m in members}
            twin = next((g for g in merged if g[0][0] == shape[0] and len(g[0][1]) == len(shape[1])
                         and len(g[0][1]) > 1 and {frozenset(m) for m in g[1]} == attributes), None)
            if twin is None:
                merged.append((shape, list(members)))
            else:
                twin[1].extend(members)
                common = tuple(a if a == b else "*" for a, b in zip(twin[0][1], shape[1], strict=True))
                merged[merged.index(twin)] = ((twin[0][0], common), twin[1])
        names = [self.shape_name(shape) for shape, _ in merged]
        groups = []
        for (shape, members), name in zip(merged, names, strict=True):
            if names.count(name) > 1 and shape[1] and shape[1][-1] != "*":
                name = f"{name}_{shape[1][-1]}"
            group = KeyGroup(name, "the labels in its key values", members)
            group.shapes = {self.table.partition_key.name: shape[0]}
            if self.table.sort_key is not None:
                group.shapes[self.table.sort_key.name] = shape[1]
            groups.append(group)
        if len(groups) > 1 or groups[0].name != self.table.name:
            self.notes.append(f"Entities {', '.join(g.name for g in groups)} are inferred from the labels in the "
                              "key values (e.g. `CUSTOMER#` in `CUSTOMER#123`); rename them on the Model page.")
        return groups

    def repeated_sort_values(self, items: list[dict[str, Any]]) -> set[str]:
        """Whole sort-key values that appear in several item collections (`meta`, `#META#`): constants."""
        if self.table.sort_key is None:
            return set()
        sort, partition = self.table.sort_key.name, self.table.partition_key.name
        return repeated_constants((str(item.get(partition)), key_text(item.get(sort))) for item in items)

    def varying_values(self, items: list[dict[str, Any]]) -> dict[tuple[str, int, int, str], set[str]]:
        """Places where a word after a label varies between items (`USER#alice`, `USER#bob`): values, not labels.

        Each is (key attribute, segments, position, the label before it). A label is shared by many items of
        one kind; a word that takes several values after the same label is what the label labels.
        """
        seen: dict[tuple[str, int, int, str], set[str]] = {}
        for key in (k.name for k in (self.table.partition_key, self.table.sort_key) if k):
            for item in items:
                value = key_text(item.get(key))
                if value is None:
                    continue
                shape = key_shape(value)
                for position in range(1, len(shape)):
                    if shape[position] not in (VALUE, "") and shape[position - 1] not in (VALUE, ""):
                        seen.setdefault((key, len(shape), position, shape[position - 1]), set()).add(shape[position])
        return {place: words for place, words in seen.items() if len(words) > 1}

    def shape(self, item: dict[str, Any], constants: set[str]) -> tuple[Any, ...]:
        def of(name: str | None, whole_constants: set[str]) -> tuple[str, ...]:
            value = key_text(item.get(name)) if name else None
            if value is None:
                return ()
            shape = key_shape(value, whole_constants)
            return tuple(VALUE if position and (name, len(shape), position, shape[position - 1]) in self.varying
                         else part for position, part in enumerate(shape))

        sort = self.table.sort_key.name if self.table.sort_key else None
        return of(self.table.partition_key.name, set()), of(sort, constants)

    def shape_name(self, shape: tuple[tuple[str, ...], tuple[str, ...]]) -> str:
        partition, sort = shape
        partition_labels = [s for s in partition if s != "*" and s]
        sort_labels = [s for s in sort if s != "*" and s]
        if len(partition) > 1 and partition[-1] != "*" and partition[-1]:
            return partition[-1]  # u#123#follower: the follower collection of a user
        if sort_labels and not (len(sort) == 1 and partition_labels):
            return sort_labels[0]
        if partition_labels:
            return partition_labels[0]
        return sort_labels[0] if sort_labels else self.table.name

    # --- one entity

    def entity(self, group: KeyGroup) -> tuple[Entity, EntityKeys]:
        values: dict[str, list[Any]] = {}
        for item in group.items:
            for name, value in item.items():
                if name not in self.generic:
                    values.setdefault(name, []).append(value)
        for name in group.facet_attributes:
            if name not in self.generic:
                values.setdefault(name, [])
        table = self.table
        self.fragments = []
        partition = self.template(group, table.partition_key.name, group.partition_alias, values)
        sort = self.template(group, table.sort_key.name, group.sort_alias, values) if table.sort_key else None
        indexes: dict[str, KeyTemplates] = {}
        own = {table.partition_key.name: partition, **({table.sort_key.name: sort} if table.sort_key and sort else {})}
        for index in table.indexes:
            templates = self.index_templates(group, index, values, own)
            if templates is not None:
                indexes[_index_name(index.name)] = templates
        identifiers = [n for t in (partition, sort) if t for n in KeyTemplate.parse(t).attribute_names]
        attributes = tuple(self.attribute(group, name, found, name in identifiers)
                           for name, found in values.items())
        entity = Entity(name=group.name, item_count=len(group.items), identifiers=tuple(dict.fromkeys(identifiers)),
                        attributes=attributes, description=f"Imported from {group.source}.")
        keys = EntityKeys(entity=group.name, table=KeyTemplates(partition_key=partition, sort_key=sort),
                          indexes=indexes)
        self.notes.append(f"{group.name} ({len(group.items)} item(s)): " + "; ".join(self.fragments) + ".")
        return entity, keys

    def index_templates(self, group: KeyGroup, index: Index, values: dict[str, list[Any]],
                        own: dict[str, str]) -> KeyTemplates | None:
        """The entity's templates on one index; `own` are its table key templates (an index keyed on a table key,
        as an inverted index is, holds the same value, so the same template)."""
        keys = [k for k in (index.partition_key, index.sort_key) if k]
        having = [i for i in group.items if all(k.name in i for k in keys)]
        listed = set(group.facet_attributes) | set(own)  # every item has the table's keys
        if not having and not (not group.items and all(k.name in listed for k in keys)):
            return None  # an empty facet that lists the index's keys is in the index: its items will have them
        if len(having) < len(group.items):
            self.notes.append(f"{group.name}: {len(having)} of {len(group.items)} items have {index.name}'s keys "
                              "(a sparse index); the condition is not inferred, so add only_when if it has one.")
        subgroup = KeyGroup(group.name, group.source, having)
        partition = own.get(index.partition_key.name) or self.template(subgroup, index.partition_key.name, "", values)
        sort = (own.get(index.sort_key.name) or self.template(subgroup, index.sort_key.name, "", values)) \
            if index.sort_key else None
        return KeyTemplates(partition_key=partition, sort_key=sort)

    def template(self, group: KeyGroup, key: str, alias: str | None, values: dict[str, list[Any]]) -> str:
        """The key template of one key attribute for a group, adding new identifier attributes to `values`."""
        given = self.alias_template(alias, values)
        if given is not None:
            self.fragments.append(f"`{key}` = `{given}` (its facet alias)")
            return given
        texts = {key_text(i.get(key)) for i in group.items}
        if alias and "{" not in alias and key in self.generic and texts == {alias} and is_label(alias):
            # the exporter writes a constant key as its alias (`ORDER`): with one item nothing else says so
            self.fragments.append(f"`{key}` = `{alias}` (its facet alias, the value of every item)")
            return alias
        if key not in self.generic:  # the key is an attribute of its own (customerId, CreatedAt)
            values.setdefault(key, [i[key] for i in group.items if key in i])
            self.fragments.append(f"`{key}` = `{{{self.name_of(key)}}}`")
            return f"{{{self.name_of(key)}}}"
        found = infer_template(group, key, alias or "", self.generic, set(values), self.key_names)
        named = template_from_alias(alias, key) if found is None else None
        if named is not None:  # no data, but the facet's alias names the parts (`USER#userId`)
            template, attributes = named
            for name in attributes:
                values.setdefault(name, [])
            template = renamed_template(template, self.name_of)
            self.fragments.append(f"`{key}` = `{template}` (no data for it; from its facet alias `{alias}`)")
            return template
        if found is None:  # no data: a table key is the entity's id, an index key an attribute named after it
            name = unique_name(camel(group.name) + "Id" if key in self.key_names else camel(key), set(values))
            values[name] = []
            self.fragments.append(f"`{key}` = `{{{name}}}` (no data for it)")
            return f"{{{self.name_of(name)}}}"
        for name, new_values in found.new_attributes.items():
            values[name] = list(new_values)
        template = renamed_template(found.source, self.name_of)
        fits = f" (fits {found.followers} of {found.total} items)" if found.followers < found.total else ""
        guessed = f" (guessed: {'; '.join(found.guesses)})" if found.guesses else ""
        self.fragments.append(f"`{key}` = `{template}`{fits}{guessed}")
        return template

    def alias_template(self, alias: str | None, values: dict[str, list[Any]]) -> str | None:
        """A facet alias written as a template (`CUSTOMER#{customerId}`), when its attributes are known."""
        if not alias or "{" not in alias:
            return None
        try:
            names = KeyTemplate.parse(alias).attribute_names
        except KeyTemplateError:
            return None
        if names and all(n in values for n in names):
            return renamed_template(alias, self.name_of)
        return None

    def attribute(self, group: KeyGroup, name: str, found: list[Any], identifier: bool) -> Attribute:
        kind = self.declared_type(name) or _type_of(found)
        present = sum(1 for i in group.items if name in i)
        text = [v for v in found if isinstance(v, str)]
        unique = identifier and len(found) > 1 and len(set(map(str, found))) == len(found)
        # validated from a dict: the generator is a spec (a dict) that pydantic turns into its GeneratorSpec model
        return Attribute.model_validate({
            "name": self.name_of(name), "type": AttributeType(kind),
            "required": not group.items or present == len(group.items) or identifier, "unique": unique,
            "generator": self.sample_format(name, kind) or generator_for(kind, found), "avg_size_bytes": (
                min(MAX_ITEM_BYTES, round(sum(len(t.encode()) for t in text) / len(text))) if text else None)})


    def sample_format(self, name: str, kind: str) -> dict[str, Any] | None:
        """The generator for the attribute's NoSQL Workbench sample-data format, when it has a known one."""
        setting = (self.table.sample_data_formats or {}).get(name)
        if kind != "S" or not isinstance(setting, list) or len(setting) != 2:
            return None
        generator = SAMPLE_DATA_FORMATS.get(str(setting[1]).lower())
        if generator is not None and name not in self.mapped_formats:
            self.mapped_formats.add(name)
            self.notes.append(f"`{name}` generates {generator.get('provider', generator['kind'])} values, from "
                              f"its NoSQL Workbench sample-data format {setting[1]!r}.")
        return generator


def _type_of(values: list[Any]) -> str:
    kinds = {("BOOL" if isinstance(v, bool) else "N" if isinstance(v, Decimal) else "M" if isinstance(v, dict)
              else "L" if isinstance(v, list) else "NULL" if v is None else "S") for v in values}
    return kinds.pop() if len(kinds) == 1 else "S"
