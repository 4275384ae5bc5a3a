"""Hypothesis strategies that build valid `modeling.model.Model` values.

`models()` draws models that pass every error check in `modeling.validation`: names are unique and
every cross-reference points at something that exists (pattern -> entity, input -> attribute of one
of its entities, reference generator -> entity attribute, key template -> attribute of its entity,
entity keys -> declared index and sparse-index condition -> attribute, LSI -> the table's partition
key). Warnings may still occur.

Example:
    @given(models())
    def test_something(model: Model) -> None: ...
"""

from __future__ import annotations

import math
import string
from collections.abc import Sequence
from datetime import date, datetime

from hypothesis import strategies as st

from modeling.errors import ItemSizeError
from modeling.item_size import parse_number
from modeling.model import (
    AccessPattern,
    Attribute,
    AttributeFilter,
    AttributeType,
    BillingMode,
    BooleanGenerator,
    Cardinality,
    Consistency,
    ConstantGenerator,
    Entity,
    EntityKeys,
    EnumGenerator,
    FakerGenerator,
    FakerProvider,
    FloatRangeGenerator,
    HotValueDistribution,
    IntRangeGenerator,
    KeyAttribute,
    KeyAttributeType,
    KeyDesign,
    KeyTemplates,
    Model,
    PatternKind,
    Projection,
    ProjectionType,
    RangeCondition,
    RangeOperator,
    ReferenceGenerator,
    Relationship,
    RelationshipKind,
    SecondaryIndex,
    SequenceGenerator,
    SortOrder,
    StreamViewType,
    TableClass,
    TableSettings,
    TextGenerator,
    TimestampFormat,
    TimestampRangeGenerator,
    Traffic,
    TrafficProfile,
    TrafficShape,
    UniformDistribution,
    UuidGenerator,
    ZipfDistribution,
)

REGIONS = ("us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-gov-west-1")

LOWER, DIGITS = string.ascii_lowercase, string.digits
NAME_CHARACTERS = string.ascii_letters + DIGITS + "_.-"  # modeling.model.Name, TableName

names = st.builds(str.__add__, st.sampled_from(string.ascii_letters + "_"), st.text(NAME_CHARACTERS, max_size=11))
pattern_names = st.builds("{}{}_{}".format, st.sampled_from(LOWER), st.text(LOWER + DIGITS, max_size=7),
                          st.text(LOWER + DIGITS + "_", max_size=12))
table_names = st.text(NAME_CHARACTERS, min_size=3, max_size=24)
index_names = st.text(NAME_CHARACTERS, min_size=3, max_size=12)
# U+0085 (NEL) is left out: PyYAML writes it unescaped and reads it back as a line break, see
# test_model_file.py::test_yaml_keeps_a_next_line_character_in_text (a known bug, xfail).
characters = st.characters(codec="utf-8", exclude_characters="\x85")
texts = st.text(characters, max_size=24)
shares = st.floats(min_value=0.0, max_value=1.0)
scalars = st.one_of(texts, st.integers(-(10**12), 10**12), st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False))


def finite(low: float, high: float) -> st.SearchStrategy[float]:
    return st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)


def subsets(items: Sequence[str], min_size: int = 0) -> st.SearchStrategy[tuple[str, ...]]:
    """Distinct items in drawn order (order matters in the model, so it varies too)."""
    if not items:
        return st.just(())
    return st.lists(st.sampled_from(items), min_size=min_size, max_size=len(items), unique=True).map(tuple)


# --- distributions and generators ----------------------------------------------------------------

distributions = st.one_of(
    st.builds(UniformDistribution, kind=st.just("uniform")),
    st.builds(ZipfDistribution, kind=st.just("zipf"),
              exponent=st.floats(min_value=0.0, max_value=10.0, exclude_min=True)),
    st.builds(HotValueDistribution, kind=st.just("hot_value"), share=shares),
)


@st.composite
def ordered_pair(draw: st.DrawFn, values: st.SearchStrategy) -> tuple:
    return tuple(sorted(draw(st.tuples(values, values))))


@st.composite
def enum_generators(draw: st.DrawFn) -> EnumGenerator:
    values = draw(st.lists(texts, min_size=1, max_size=5).map(tuple))
    weights = draw(st.none() | st.lists(finite(0.0, 1000.0), min_size=len(values), max_size=len(values))
                   .filter(lambda w: sum(w) > 0).map(tuple))
    return EnumGenerator(kind="enum", values=values, weights=weights, distribution=draw(distributions))


@st.composite
def timestamp_generators(draw: st.DrawFn) -> TimestampRangeGenerator:
    if draw(st.booleans()):
        start, end = (d.isoformat() for d in draw(ordered_pair(st.dates(date(1000, 1, 1)))))
    else:
        moments = ordered_pair(st.datetimes(datetime(1000, 1, 1)).map(lambda m: m.replace(microsecond=0)))
        start, end = (m.isoformat() + "Z" for m in draw(moments))
    return TimestampRangeGenerator(kind="timestamp_range", start=start, end=end,
                                   format=draw(st.sampled_from(TimestampFormat)), recent_bias=draw(shares))


def generators(attributes: Sequence[tuple[str, str]]) -> st.SearchStrategy:
    """Every generator kind; `reference` points at one of `attributes` (entity, attribute) pairs."""
    int_pair, float_pair = ordered_pair(st.integers()), ordered_pair(finite(-1e12, 1e12))
    return st.one_of(
        st.builds(UuidGenerator, kind=st.just("uuid"), prefix=texts),
        st.builds(SequenceGenerator, kind=st.just("sequence"), start=st.integers(),
                  width=st.integers(0, 38), prefix=texts),
        st.builds(FakerGenerator, kind=st.just("faker"), provider=st.sampled_from(FakerProvider)),
        enum_generators(),
        st.builds(lambda p, d: IntRangeGenerator(kind="int_range", min=p[0], max=p[1], distribution=d),
                  int_pair, distributions),
        st.builds(lambda p, n, d: FloatRangeGenerator(kind="float_range", min=p[0], max=p[1], decimals=n,
                                                      distribution=d), float_pair, st.integers(0, 10),
                  distributions),
        timestamp_generators(),
        st.builds(TextGenerator, kind=st.just("text"), length_bytes=st.integers(1, 400 * 1024)),
        st.builds(BooleanGenerator, kind=st.just("boolean"), true_share=shares),
        st.builds(ConstantGenerator, kind=st.just("constant"), value=scalars),
        st.sampled_from(attributes).flatmap(lambda target: st.builds(
            ReferenceGenerator, kind=st.just("reference"), entity=st.just(target[0]),
            attribute=st.just(target[1]), distribution=distributions)),
    )


# --- entities ------------------------------------------------------------------------------------


@st.composite
def sizes(draw: st.DrawFn) -> dict[str, int | None]:
    low, high = draw(ordered_pair(st.integers(0, 400 * 1024)))
    return draw(st.sampled_from([{}, {"avg_size_bytes": low}, {"max_size_bytes": high},
                                 {"avg_size_bytes": low, "max_size_bytes": high}]))


@st.composite
def entities(draw: st.DrawFn, columns: dict[str, tuple[str, ...]],
             types: dict[str, AttributeType]) -> tuple[Entity, ...]:
    targets = [(entity, attribute) for entity, attributes in columns.items() for attribute in attributes]
    result = []
    for entity, attributes in columns.items():
        kinds = {name: types.get(name) or draw(st.sampled_from(AttributeType)) for name in attributes}
        built = tuple(Attribute(
            name=name, type=kinds[name], required=draw(st.booleans()), unique=draw(st.booleans()),
            description=draw(texts), generator=draw(st.none() | generators(targets).filter(
                lambda g, kind=kinds[name]: _fits(kind, g))), **draw(sizes()),
        ) for name in attributes)
        # an entity that patterns use needs an identity (validation), so a valid model names one
        identifiers = draw(subsets(attributes)) or attributes[:1]
        result.append(Entity(
            name=entity, description=draw(texts), item_count=draw(st.integers(0, 10**15)),
            monthly_growth_percent=draw(finite(-100.0, 1000.0)), identifiers=identifiers,
            attributes=built))
    return tuple(result)


def _fits(kind: AttributeType, generator: object) -> bool:
    """A Number's enum or constant text must be numbers (validation refuses `ff00aa` as N, issue 31.6)."""
    if kind not in (AttributeType.N, AttributeType.NS):
        return True
    values = generator.values if isinstance(generator, EnumGenerator) else \
        [generator.value] if isinstance(generator, ConstantGenerator) and isinstance(generator.value, str) else []
    try:
        return all(parse_number(v) is not None for v in values)
    except ItemSizeError:
        return False


@st.composite
def relationships(draw: st.DrawFn, columns: dict[str, tuple[str, ...]]) -> tuple[Relationship, ...]:
    entity_names = list(columns)
    result = []
    for name in draw(st.lists(names, max_size=3, unique=True)):
        child = draw(st.sampled_from(entity_names))
        mean = draw(finite(0.0, 1e6))
        cardinality = Cardinality(mean=mean, max=draw(st.none() | st.integers(math.ceil(mean), 10**7)),
                                  distribution=draw(distributions))
        result.append(Relationship(name=name, kind=draw(st.sampled_from(RelationshipKind)),
                                   parent=draw(st.sampled_from(entity_names)), child=child,
                                   child_attributes=draw(subsets(columns[child])), cardinality=cardinality))
    return tuple(result)


# --- access patterns -----------------------------------------------------------------------------


@st.composite
def access_patterns(draw: st.DrawFn, columns: dict[str, tuple[str, ...]]) -> tuple[AccessPattern, ...]:
    result = []
    for name in draw(st.lists(pattern_names, max_size=5, unique=True)):
        kind = draw(st.sampled_from(PatternKind))
        chosen = draw(subsets(list(columns), min_size=1))
        owned = sorted({a for entity in chosen for a in columns[entity]})
        shared = sorted(set.intersection(*(set(columns[entity]) for entity in chosen)))  # a filter's attribute
        range_condition = None
        if kind is PatternKind.READ_MANY and draw(st.booleans()):
            range_condition = RangeCondition(attribute=draw(st.sampled_from(owned)),
                                             operator=draw(st.sampled_from(RangeOperator)))
        peak, average = draw(ordered_pair(finite(0.0, 1e9)))[::-1]
        result.append(AccessPattern(
            name=name, description=draw(texts), kind=kind, entities=chosen, inputs=draw(subsets(owned)),
            range_condition=range_condition, sort_order=draw(st.sampled_from(SortOrder)),
            filters=tuple(AttributeFilter(attribute=a, equals=draw(scalars)) for a in draw(subsets(shared))),
            page_size=draw(st.none() | st.integers(1, 10_000)),
            consistency=draw(st.sampled_from(Consistency)) if kind.is_read else Consistency.EVENTUAL,
            expected_items=1.0 if kind is PatternKind.READ_ONE else draw(finite(0.0, 1e9)),
            changed_attributes=draw(subsets(owned, min_size=1 if kind is PatternKind.UPDATE else 0)),
            returns=draw(subsets(owned)),
            traffic=Traffic(peak_requests_per_second=peak, average_requests_per_second=average)))
    return tuple(result)


# --- table, traffic profile, key design ----------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn, ttl_attribute: str | None) -> TableSettings:
    region = draw(st.sampled_from(REGIONS))
    return TableSettings(
        name=draw(table_names), region=region, billing_mode=draw(st.sampled_from(BillingMode)),
        table_class=draw(st.sampled_from(TableClass)), point_in_time_recovery=draw(st.booleans()),
        stream_view_type=draw(st.none() | st.sampled_from(StreamViewType)), ttl_attribute=ttl_attribute,
        replica_regions=draw(subsets([r for r in REGIONS if r != region])),
        deletion_protection=draw(st.booleans()))


@st.composite
def traffic_profiles(draw: st.DrawFn) -> TrafficProfile:
    shape = draw(st.sampled_from(TrafficShape))
    if shape is not TrafficShape.CUSTOM:
        return TrafficProfile(shape=shape)
    weights = draw(st.lists(finite(0.0, 100.0), min_size=24, max_size=24).filter(lambda w: sum(w) > 0))
    return TrafficProfile(shape=shape, hourly_weights=tuple(weights))


def templates(attributes: Sequence[str]) -> st.SearchStrategy[str]:
    """Key templates such as `ORDER#{order_id}`: constants and references to `attributes`."""
    constant = st.builds(str.__add__, st.text(string.ascii_uppercase + DIGITS + "_", min_size=1, max_size=8),
                         st.sampled_from(["", "#"]))
    reference = st.sampled_from(attributes).map(lambda a: "{" + a + "}")
    return st.lists(constant | reference, min_size=1, max_size=4).map("".join)


def key_attributes(name: str) -> st.SearchStrategy[KeyAttribute]:
    return st.builds(KeyAttribute, name=st.just(name), type=st.sampled_from(KeyAttributeType))


@st.composite
def projections(draw: st.DrawFn, attribute_names: Sequence[str]) -> Projection:
    kind = draw(st.sampled_from(ProjectionType))
    if kind is not ProjectionType.INCLUDE:
        return Projection(type=kind)
    return Projection(type=kind, non_key_attributes=draw(subsets(attribute_names, min_size=1)))


@st.composite
def key_designs(draw: st.DrawFn, columns: dict[str, tuple[str, ...]]) -> KeyDesign:
    partition_key = draw(key_attributes("PK"))
    sort_key = draw(st.none() | key_attributes("SK"))
    all_attributes = sorted({a for attributes in columns.values() for a in attributes})
    index_list = draw(st.lists(index_names, max_size=5, unique=True))
    lsi_count = draw(st.integers(0, min(2, len(index_list)))) if sort_key else 0
    gsis = tuple(SecondaryIndex(name=name, partition_key=draw(key_attributes(f"GSI{i}PK")),
                                sort_key=draw(st.none() | key_attributes(f"GSI{i}SK")),
                                projection=draw(projections(all_attributes)))
                 for i, name in enumerate(index_list[lsi_count:]))
    lsis = tuple(SecondaryIndex(name=name, partition_key=partition_key,
                                sort_key=draw(key_attributes(f"LSI{i}SK")),
                                projection=draw(projections(all_attributes)))
                 for i, name in enumerate(index_list[:lsi_count]))
    keys = []
    for entity in draw(subsets(list(columns))):
        attributes = columns[entity]
        indexes = {index.name: KeyTemplates(
            partition_key=draw(templates(attributes)),
            sort_key=draw(templates(attributes)) if index.sort_key else None,
            only_when=tuple(AttributeFilter(attribute=a, equals=draw(scalars)) for a in draw(subsets(attributes))))
            for index in draw(st.lists(st.sampled_from((*gsis, *lsis)), unique_by=lambda i: i.name))
        } if gsis or lsis else {}
        table = KeyTemplates(partition_key=draw(templates(attributes)),
                             sort_key=draw(templates(attributes)) if sort_key else None)
        keys.append(EntityKeys(entity=entity, table=table, indexes=indexes))
    return KeyDesign(partition_key=partition_key, sort_key=sort_key, global_secondary_indexes=gsis,
                     local_secondary_indexes=lsis, entities=tuple(keys))


# --- the model -----------------------------------------------------------------------------------


@st.composite
def models(draw: st.DrawFn) -> Model:
    """A valid model: every generator kind and distribution, optional key design."""
    entity_names = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    columns = {e: tuple(draw(st.lists(names, min_size=1, max_size=5, unique=True))) for e in entity_names}
    all_attributes = sorted({a for attributes in columns.values() for a in attributes})
    ttl_attribute = draw(st.none() | st.sampled_from(all_attributes))
    types = {ttl_attribute: AttributeType.N} if ttl_attribute else {}
    return Model(
        name=draw(st.text(characters, min_size=1, max_size=40)), description=draw(texts),
        table=draw(tables(ttl_attribute)), traffic_profile=draw(traffic_profiles()),
        entities=draw(entities(columns, types)),
        relationships=draw(relationships(columns)),
        access_patterns=draw(access_patterns(columns)),
        key_design=draw(st.none() | key_designs(columns)),
    )
