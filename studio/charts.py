"""The figures the ui draws (plotly), from the domain's charts builders: cost and capacity (`costs.charts`),
hot partitions (`modeling.charts`). Kept in its own module so that no other studio module loads plotly."""

from costs.charts import (
    autoscaling_curve,
    break_even,
    cost_by_component,
    cost_by_pattern,
    review_chart_html,
    review_figure,
    units_by_resource,
)
from modeling.charts import (
    MAX_HEATMAP_PARTITIONS,
    key_traffic_histogram,
    partition_heatmap,
    skew_comparison,
    top_keys_bar,
)

__all__ = ["MAX_HEATMAP_PARTITIONS", "autoscaling_curve", "break_even", "cost_by_component", "cost_by_pattern",
           "key_traffic_histogram", "partition_heatmap", "review_chart_html", "review_figure", "skew_comparison",
           "top_keys_bar", "units_by_resource"]
