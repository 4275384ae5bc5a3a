"""Hot-partition chart builders: trace types, axis titles and trace counts (AppTest cannot see inside plotly)."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from modeling.charts import key_traffic_histogram, partition_heatmap, skew_comparison, top_keys_bar
from modeling.design.generator import explicit_design
from modeling.design.plans import TABLE
from modeling.examples import load_example
from modeling.hot_partitions import BurstScenario, HotPartitionReport, HotPartitionRequest, analyse_hot_partitions


@pytest.fixture(scope="module")
def report() -> HotPartitionReport:
    model = load_example("student_platform_mistakes")
    scenario = BurstScenario("create_student_by_tenant", duration_seconds=0.2, requests=3700, resolution_seconds=0.1)
    return analyse_hot_partitions(HotPartitionRequest(model, explicit_design(model), scenario=scenario,
                                                      alternative_entity="Student", max_key_values=100_000))


def test_key_histogram_has_read_and_write_bars_on_log_axes_with_both_limit_lines(report: HotPartitionReport) -> None:
    figure = key_traffic_histogram(report.key_profile, "GSI1")
    assert [type(t) for t in figure.data] == [go.Bar, go.Bar]
    assert figure.layout.yaxis.type == "log" and figure.layout.yaxis.title.text == "Units per second (peak)"
    assert sorted(shape.y0 for shape in figure.layout.shapes) == [1000, 3000]


def test_partition_heatmap_is_one_heatmap_of_partitions_over_time(report: HotPartitionReport) -> None:
    figure = partition_heatmap(report.timeline)
    assert [type(t) for t in figure.data] == [go.Heatmap]
    assert (figure.layout.xaxis.title.text, figure.layout.yaxis.title.text) == ("Time (s)", "Partition")


def test_top_keys_bar_shows_the_busiest_keys_against_one_partition(report: HotPartitionReport) -> None:
    figure = top_keys_bar(report.keys, TABLE, top=5)
    assert [type(t) for t in figure.data] == [go.Bar] and len(figure.data[0].y) == 5
    assert figure.layout.xaxis.title.text == "Share of one partition (peak)"


@pytest.mark.parametrize("frame, x", [("sharding", "shard_count"), ("alternatives", "partition_key")],
                         ids=["sharding", "alternative-keys"])
def test_skew_comparison_has_a_bar_and_a_line_per_variant(report: HotPartitionReport, frame: str, x: str) -> None:
    data = getattr(report, frame)
    figure = skew_comparison(data, x)
    assert [type(t) for t in figure.data] == [go.Bar, go.Scatter]
    assert len(figure.data[0].x) == len(data) and figure.layout.yaxis.title.text == "Share"
