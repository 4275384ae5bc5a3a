"""Which attributes a sample item carries, read from the model: its states, its soft deletes and its TTL.

Optional attributes used to be on every item, so an open loan had a `returnedAt` and a live member a
`deletedAt` and a TTL (issue 27.7). `entity_rules` reads, for one entity, what the model says about them:

- **Kept on every item** (`protected`): what names or keys an item, so a request or a key can always be built
  from it: identifiers, `unique` attributes, a relationship's child attributes, attributes other entities
  reference, the inputs, range conditions and filters of the patterns on the entity, attributes a write's
  condition reads (a version, `status = available`), auxiliary items' attributes and the attributes the model's
  own key design puts in a table key (`extra_keys`: the Preview's design). Required attributes are never removed.
- **A closing attribute** (`StateRule`): an optional attribute set when a status attribute reaches a state.
  From the model: a soft delete sets its `deleted_at_attribute` (and the table's TTL attribute when it has
  `expires_after_days`) with `status_value`; a write that SETs a status to a constant and in the same member
  SETs another attribute (or lists it in `changed_attributes`) sets it with that state; one that REMOVEs it
  in the same member clears it in that state. When the model names the states that set it, the attribute is
  on exactly the items in those states (the TTL of a live item would delete it). Else the naming heuristic:
  an optional attribute named for a closing event (`returnedAt`, `closedAt`, `deletedAt`, `paidAt`, ...) belongs
  to the entity's `status`/`state` attribute: it is on items whose state is that event (`RETURNED`), never on
  items in an open state (`OPEN`, `ACTIVE`, `AVAILABLE`, ... `_OPEN_STATES`), and optional in any other state.
- **Every other optional attribute** is absent from `OPTIONAL_ABSENT_SHARE` of the items.
- **States**: a string attribute without a generator takes the constants the model compares or sets it to
  (`available`, `on_loan`), plus `ACTIVE` when a soft delete's status value would be the only one.

Everything is read from sets and sorted, so the order of entities, attributes and patterns changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from modeling.data.default_values import name_words
from modeling.key_templates import KeyTemplate
from modeling.model import (
    AccessPattern,
    AttributeType,
    AttributeUpdate,
    ConditionKind,
    Entity,
    EntityKeys,
    KeyDesign,
    KeyTemplates,
    Model,
    ReferenceGenerator,
    Traffic,
    UpdateAction,
    WriteCondition,
    child_relationships,
    derived_index,
)

OPTIONAL_ABSENT_SHARE = 0.3  # an optional attribute is missing from about this share of the sample items
SOFT_DELETED_SHARE = 0.1  # of a status the model's constants make up, items soft-deleted
LIVE_STATE = "ACTIVE"  # the live state added when a soft delete's value is the only constant of its status
_CLOSING = re.compile(r"^(?P<event>closed|returned|deleted|cancell?ed|completed|resolved|ended|finished|archived|"
                      r"expired|revoked|removed|paid|shipped|delivered|refunded|terminated|deactivated|disabled)"
                      r"( (at|on|date|time|timestamp|ts))?$")
_OPEN_STATES = frozenset({"open", "active", "available", "pending", "new", "draft", "unpaid", "invited", "inprogress",
                          "onloan", "borrowed", "live", "enabled", "online", "created", "started", "current"})
_STATUS_NAME = re.compile(r"\b(status|state)$")


def state_word(value: object) -> str:
    """A state as a comparable word: `ON_LOAN`, `on-loan` and `OnLoan` are all `onloan`."""
    return re.sub(r"[^a-z0-9]", "", str(value).lower())


@dataclass(frozen=True)
class StateRule:
    """When `attribute` is on an item, by the item's `status`: on in `present`, off in `absent` (state words);
    `strict`: off in every other state too (the model says which states set it); `event`: the state the name
    says (`returned` for `returnedAt`), on when the model says nothing more."""

    attribute: str
    status: str
    present: frozenset[str] = frozenset()
    absent: frozenset[str] = frozenset()
    strict: bool = False
    event: str = ""

    def carried(self, state: object) -> bool | None:
        """True (on), False (off) or None (the optional share decides) for an item in `state`."""
        word = state_word(state) if state is not None else ""
        if word in self.present:
            return True
        if word in self.absent or word in _OPEN_STATES or self.strict or not word:
            return False
        return True if word == self.event else None


@dataclass(frozen=True)
class SoftDeleteTtl:
    """A soft delete that sets the TTL: it expires `days` after `deleted_at` (dynamodb-rules §6: epoch seconds)."""

    ttl_attribute: str
    deleted_at: str
    days: int


@dataclass(frozen=True)
class EntityRules:
    protected: frozenset[str] = frozenset()
    states: tuple[StateRule, ...] = ()
    constants: tuple[tuple[str, tuple[str, ...], tuple[float, ...]], ...] = ()  # attribute, values, weights
    soft_ttl: SoftDeleteTtl | None = None
    ttl_attribute: str | None = None
    removable: frozenset[str] = field(default=frozenset())  # optional attributes a share of items lacks
    # (attribute, parent entity, parent attribute): a relationship's child attribute the model gives no generator
    # holds an existing parent's identifier, as the relationship says (a meeting's memberId names a member)
    references: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class _Group:
    """What one write does to one entity's item: constants it SETs, other attributes it sets, what it REMOVEs."""

    entity: str
    constants: tuple[tuple[str, str], ...]
    sets: frozenset[str]
    removes: frozenset[str]


def _groups(pattern: AccessPattern) -> list[_Group]:
    def group(entity: str, updates: tuple[AttributeUpdate, ...], changed: tuple[str, ...] = ()) -> _Group:
        constants = tuple(sorted((u.attribute, str(u.value)) for u in updates if isinstance(u.value, str)
                                 and u.action in (UpdateAction.SET, UpdateAction.IF_NOT_EXISTS)))
        sets = {u.attribute for u in updates if u.action in (UpdateAction.SET, UpdateAction.IF_NOT_EXISTS)
                and not isinstance(u.value, str)} | set(changed)
        return _Group(entity, constants, frozenset(sets - {a for a, _ in constants}),
                      frozenset(u.attribute for u in updates if u.action is UpdateAction.REMOVE))
    if pattern.kind.is_read:
        return []
    if pattern.members:
        return [group(m.entity, m.updates) for m in pattern.members]
    return [group(e, pattern.updates, pattern.changed_attributes) for e in pattern.entities[:1]]


def _conditions(pattern: AccessPattern, entity: str) -> list[WriteCondition]:
    found = [m.condition for m in pattern.members if m.entity == entity and m.condition is not None]
    if pattern.condition is not None and pattern.entities[:1] == (entity,):
        found.append(pattern.condition)
    return found


def _patterns_on(model: Model, entity: str) -> tuple[AccessPattern, ...]:
    """The patterns on `entity` or with a member writing it, in model order (an index built once per model)."""
    def build(m: Model) -> dict[str, tuple[AccessPattern, ...]]:
        found: dict[str, list[AccessPattern]] = {}
        for pattern in m.access_patterns:
            for name in dict.fromkeys((*pattern.entities, *(member.entity for member in pattern.members))):
                found.setdefault(name, []).append(pattern)
        return {name: tuple(patterns) for name, patterns in found.items()}
    return derived_index(model, "patterns_touching", ("access_patterns",), build).get(entity, ())


def _referenced(model: Model) -> dict[str, set[str]]:
    """Entity -> its attributes other entities' reference generators read (built once per model)."""
    def build(m: Model) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for entity in m.entities:
            for attribute in entity.attributes:
                if isinstance(attribute.generator, ReferenceGenerator):
                    found.setdefault(attribute.generator.entity, set()).add(attribute.generator.attribute)
        return found
    return derived_index(model, "referenced_attributes", ("entities",), build)


def _protected(model: Model, entity: Entity, extra_keys: KeyDesign | None) -> set[str]:
    names = {*entity.identifiers, *entity.identity, *(a.name for a in entity.attributes if a.unique)}
    for relationship in child_relationships(model, entity.name):
        names.update(relationship.child_attributes)
    names.update(_referenced(model).get(entity.name, ()))
    for aux in entity.auxiliary_items:
        names.update(aux.attributes)
        names.update(n for n in (aux.sum_of,) if n)
    for pattern in _patterns_on(model, entity.name):
        names.update(n for n in pattern.inputs if n not in pattern.value_inputs)
        names.update(f.attribute for f in pattern.filters)
        names.update(n for n in (pattern.range_condition.attribute if pattern.range_condition else None,) if n)
        names.update(m_key for m in pattern.members if m.entity == entity.name for m_key in m.key_inputs)
        names.update(c.attribute for c in _conditions(pattern, entity.name) if c.attribute)
    for design in (model.key_design, extra_keys):
        for keys in design.entities if design is not None else ():
            if keys.entity == entity.name:
                for template in (keys.table.partition_key, keys.table.sort_key):
                    names.update(KeyTemplate.parse(template).attribute_names if template else ())
    return names


def _state_rules(model: Model, entity: Entity, removable: set[str]) -> tuple[StateRule, ...]:
    present: dict[tuple[str, str], set[str]] = {}
    absent: dict[tuple[str, str], set[str]] = {}
    ttl = model.table.ttl_attribute
    for pattern in _patterns_on(model, entity.name):
        for group in _groups(pattern):
            if group.entity != entity.name:
                continue
            for status, value in group.constants:
                for name in group.sets - {status}:
                    present.setdefault((name, status), set()).add(state_word(value))
                for name in group.removes - {status}:
                    absent.setdefault((name, status), set()).add(state_word(value))
        soft = pattern.soft_delete
        if soft is not None and pattern.entities[:1] == (entity.name,):
            for name in (soft.deleted_at_attribute, *((ttl,) if ttl and soft.expires_after_days else ())):
                present.setdefault((name, soft.status_attribute), set()).add(state_word(soft.status_value))
    rules: dict[str, StateRule] = {}
    for (name, status) in sorted({*present, *absent}):
        if name in removable and name not in rules and entity.attribute(status) is not None:
            said = frozenset(present.get((name, status), ()))
            rules[name] = StateRule(name, status, said, frozenset(absent.get((name, status), ())), bool(said),
                                    _event(name))
    status_names = sorted(a.name for a in entity.attributes if _STATUS_NAME.search(name_words(a.name))
                          and a.type is AttributeType.S)
    for name in sorted(removable - set(rules)):
        event = _event(name)
        if event and status_names:
            rules[name] = StateRule(name, status_names[0], event=event)
    return tuple(rules[n] for n in sorted(rules))


def _event(name: str) -> str:
    found = _CLOSING.match(name_words(name))
    return state_word(found["event"]) if found else ""


def _constants(model: Model, entity: Entity) -> tuple[tuple[str, tuple[str, ...], tuple[float, ...]], ...]:
    """States of the string attributes without a generator: the constants the model compares or sets them to."""
    found: dict[str, set[str]] = {}
    deleted: dict[str, str] = {}
    for pattern in _patterns_on(model, entity.name):
        for group in _groups(pattern):
            for name, value in group.constants if group.entity == entity.name else ():
                found.setdefault(name, set()).add(value)
        for condition in _conditions(pattern, entity.name):
            if condition.kind is ConditionKind.COMPARE and isinstance(condition.value, str) and condition.attribute:
                found.setdefault(condition.attribute, set()).add(condition.value)
        found_filters = [(f.attribute, f.equals) for f in pattern.filters if isinstance(f.equals, str)]
        for name, value in found_filters:
            found.setdefault(name, set()).add(str(value))
        soft = pattern.soft_delete
        if soft is not None and pattern.entities[:1] == (entity.name,):
            found.setdefault(soft.status_attribute, set()).add(soft.status_value)
            deleted[soft.status_attribute] = soft.status_value
    result = []
    for name in sorted(found):
        attribute = entity.attribute(name)
        if attribute is None or attribute.generator is not None or attribute.type is not AttributeType.S:
            continue
        values = sorted(found[name])
        gone = deleted.get(name)
        if gone is not None and values == [gone]:
            values = sorted({LIVE_STATE, gone})
        live = [v for v in values if v != gone]
        share = SOFT_DELETED_SHARE if gone in values and live else 0.0
        weights = tuple(share if v == gone else (1.0 - share) / len(live) for v in values) if live else ()
        result.append((name, tuple(values), weights))
    return tuple(result)


def _soft_ttl(model: Model, entity: Entity) -> SoftDeleteTtl | None:
    ttl = model.table.ttl_attribute
    if ttl is None or entity.attribute(ttl) is None:
        return None
    found = sorted((p.soft_delete.deleted_at_attribute, p.soft_delete.expires_after_days)
                   for p in _patterns_on(model, entity.name) if p.soft_delete is not None
                   and p.soft_delete.expires_after_days and p.entities[:1] == (entity.name,))
    return SoftDeleteTtl(ttl, found[0][0], int(found[0][1] or 0)) if found else None


def entity_rules(model: Model, entity: Entity, extra_keys: KeyDesign | None = None) -> EntityRules:
    """What the model says about which attributes `entity`'s sample items carry (see the module docstring)."""
    protected = _protected(model, entity, extra_keys)
    removable = {a.name for a in entity.attributes if not a.required and a.name not in protected}
    ttl = model.table.ttl_attribute
    return EntityRules(frozenset(protected), _state_rules(model, entity, removable), _constants(model, entity),
                       _soft_ttl(model, entity), ttl if ttl and entity.attribute(ttl) is not None else None,
                       frozenset(removable), relationship_references(model, entity))


def relationship_references(model: Model, entity: Entity) -> tuple[tuple[str, str, str], ...]:
    """`EntityRules.references`: each child attribute of a relationship whose child is `entity`, without a
    generator of its own, paired with the parent's identifier at the same position (the first relationship
    naming it, by name: never the file's order)."""
    found: dict[str, tuple[str, str, str]] = {}
    for relationship in sorted(model.relationships, key=lambda r: r.name):
        parent = model.entity(relationship.parent)
        if relationship.child != entity.name or parent is None or relationship.parent == entity.name:
            continue
        for name, identifier in zip(relationship.child_attributes, parent.identifiers, strict=False):
            attribute = entity.attribute(name)
            if attribute is not None and attribute.generator is None and name not in found:
                found[name] = (name, parent.name, identifier)
    return tuple(found[name] for name in sorted(found))


_NO_TRAFFIC = Traffic(peak_requests_per_second=0.0, average_requests_per_second=0.0)


def generation_view(model: Model) -> Model:
    """The parts of `model` the generator reads, the rest cleared: a cache keyed by it is not emptied by an edit
    of traffic, descriptions, returned attributes or a secondary index (sizing draws once for many designs)."""
    patterns = tuple(p.model_copy(update={"traffic": _NO_TRAFFIC, "description": "", "returns": (),
                                          "expected_items": 1.0, "page_size": None})
                     for p in model.access_patterns if not p.kind.is_read or p.inputs or p.filters
                     or p.range_condition)
    design = model.key_design
    tables = None if design is None else KeyDesign(entities=tuple(
        EntityKeys(entity=k.entity, table=KeyTemplates(partition_key=k.table.partition_key,
                                                       sort_key=k.table.sort_key)) for k in design.entities))
    return model.model_copy(update={"access_patterns": patterns, "key_design": tables})

