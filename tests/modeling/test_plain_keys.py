"""Plain attribute keys in a table of one item collection (issue 28.3), and where they are refused.

The expectations are worked out by hand from AWS's rules (docs/dynamodb-rules.md), never by the code under test.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from modeling.design.checks import check_design
from modeling.design.generator import COLLECTIONS, explicit_design, generate_design
from modeling.design.plan_units import read_units_per_request
from modeling.design.plans import Design
from modeling.design.sizing import design_sizes
from modeling.model import Model
from tests.expert_models.comparison import reversed_model
from tests.modeling.plain_key_models import sensors_model


def _labelled(readings: str = "READING#{at}", alarms: str | None = None) -> Model:
    """The sensors keyed as the generator labels them, or as a test writes them."""
    entities: list[dict[str, Any]] = [
        {"entity": "Sensor", "table": {"partition_key": "SENSOR#{sensorId}", "sort_key": "SENSOR"}},
        {"entity": "Reading", "table": {"partition_key": "SENSOR#{sensorId}", "sort_key": readings}}]
    if alarms is not None:
        entities.append({"entity": "Alarm", "table": {"partition_key": "SENSOR#{sensorId}", "sort_key": alarms}})
    return sensors_model({"entities": entities}, alarms=alarms is not None)


def _own(model: Model) -> Design:
    design = explicit_design(model)
    assert design is not None
    return design


def _sort_keys(design: Design) -> dict[str, str | None]:
    return {k.entity: k.table.sort_key for k in design.key_design.entities}


def _extra_items(model: Model, design: Design) -> set[str]:
    return {f.pattern or "" for f in check_design(model, design) if f.check_id == "DDS206"}


def test_plain_keys_save_23_bytes_a_reading_and_half_the_read_units_of_a_page_of_fifty() -> None:
    # dynamodb-rules §6: an item's size is, per attribute, the name's bytes plus the value's.
    # A reading's own attributes: sensorId 8 + 6 ("S00001"), at 2 + 20 ("2025-01-01T00:00:00Z"), state 5 + 7 = 48.
    # Labelled: + PK 2 + 13 ("SENSOR#S00001") + SK 2 + 28 ("READING#" + 20)            = 93 bytes
    # Plain: the partition key is sensorId itself (nothing added), + SK 2 + 20 ({at})   = 70 bytes: 23 saved
    # A sensor: 14 (sensorId) + SK 2 + 6 ("SENSOR") = 22 plain; + PK 15 = 37 labelled.
    # §1.2: a Query adds the items' sizes and rounds up to 4 KB once; §1.1: 0.5 unit per 4 KB, eventually consistent.
    # 50 labelled readings: 50 x 93 = 4,650 bytes -> 2 blocks -> 1.0; 50 plain: 50 x 70 = 3,500 bytes -> 1 block -> 0.5.
    labelled, plain_model = _labelled(), sensors_model()
    before, after = _own(labelled), generate_design(plain_model, COLLECTIONS)
    assert (after.key_design.partition_key.name, _sort_keys(after)) == (
        "sensorId", {"Reading": "{at}", "Sensor": "SENSOR"})
    sizes_before, sizes_after = design_sizes(labelled, before.key_design), design_sizes(plain_model, after.key_design)
    assert [sizes_before.item_bytes(e) for e in ("Reading", "Sensor")] == [93, 37]
    assert [sizes_after.item_bytes(e) for e in ("Reading", "Sensor")] == [70, 22]
    units = [read_units_per_request(model, design.key_design, plan, sizes)
             for model, design, sizes in ((labelled, before, sizes_before), (plain_model, after, sizes_after))
             if (plan := design.plan("list_latest_readings")) is not None]
    assert units == [Decimal("1.0"), Decimal("0.5")]


def test_the_newest_readings_query_is_bounded_to_the_digits_and_never_returns_the_sensor() -> None:
    # the sensor's sort key "SENSOR" sorts above every text starting with a digit (UTF-8 byte order), so
    # SK BETWEEN "0" AND "9\uffff" reads readings only (the AWS sample reads begins_with(SK, "2"))
    model = sensors_model()
    design = generate_design(model, COLLECTIONS)
    plan = design.plan("list_latest_readings")
    assert plan is not None and plan.key_condition == "sensorId = :pk AND SK BETWEEN :sk_from AND :sk_to"
    assert [name for name, _ in plan.entity_shares] == ["Reading"]
    assert _extra_items(model, design) == set()


def test_the_same_layout_whatever_order_the_file_lists_things_in() -> None:
    for model in (sensors_model(), sensors_model(alarms=True)):
        forward, backward = generate_design(model, COLLECTIONS), generate_design(reversed_model(model), COLLECTIONS)
        assert forward.key_design == backward.key_design


# --- refused where they would be ambiguous ---------------------------------------------------------------------


def test_two_children_keyed_by_digits_keep_one_label_to_tell_them_apart() -> None:
    # readings and alarms both sort by a timestamp: two plain `{at}` and `{raisedAt}` keys would interleave in the
    # sensor's partition, and a Query for one would return the other. Only the readings lose their label (the larger
    # saving: "READING#" is 8 bytes, "ALARM#" 6, on as many items); the alarms keep theirs, outside the digits.
    model = sensors_model(alarms=True)
    design = generate_design(model, COLLECTIONS)
    assert _sort_keys(design) == {"Alarm": "ALARM#{raisedAt}", "Reading": "{at}", "Sensor": "SENSOR"}
    assert _extra_items(model, design) == set()
    # written by hand with both plain, the product's own check sees the ambiguity
    both_plain = _labelled("{at}", "{raisedAt}")
    assert _extra_items(both_plain, _own(both_plain)) == {"list_latest_readings", "list_latest_alarms"}


def test_readings_keyed_by_a_value_that_may_start_with_a_letter_keep_their_labels() -> None:
    # a UUID may start with a-f or a digit: nothing bounds it away from "SENSOR" (or any other constant)
    design = generate_design(sensors_model(uuid_readings=True), COLLECTIONS)
    assert design.key_design.partition_key.name == "PK"
    assert _sort_keys(design) == {"Reading": "READING#{at}", "Sensor": "SENSOR"}


def test_a_table_with_a_second_root_keeps_its_labels() -> None:
    # sites have partitions of their own: plain `{siteId}` and `{sensorId}` values could be equal and share one
    design = generate_design(sensors_model(sites=True), COLLECTIONS)
    partitions = {k.entity: k.table.partition_key for k in design.key_design.entities}
    assert partitions == {"Reading": "SENSOR#{sensorId}", "Sensor": "SENSOR#{sensorId}", "Site": "SITE#{siteId}"}
