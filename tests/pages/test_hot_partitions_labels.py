"""Issue 14 item 9: the Hot partitions tables speak the product's language, and no flat chart goes unexplained.

The page's tables used the analysis's machine columns (snake_case headers, shares as raw fractions such as
0.0000004); they now show labels with units and percentages. Without a burst the "Partitions over time" tab
draws no heatmap (every second at peak is the same) and says why; with a burst the heatmap is drawn.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.pages.model_page import scoped

ROOT = Path(__file__).resolve().parents[2]
SNAKE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$")
# a fraction printed as it is: 0.0000004, 4e-07, 0.12345 (a share shown unconverted)
RAW_FRACTION = re.compile(r"^-?0\.\d{4,}$|^-?\d(\.\d+)?e-\d+$")


def _hot_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "hot_partitions.py"), default_timeout=120)
    at.run()
    at.session_state[scoped(at, "hot.scale")] = "10 thousand"  # the labels do not depend on the scale: keep it fast
    at.run()
    assert not at.exception, at.exception
    return at


def _headers_and_cells(at: AppTest) -> tuple[list[str], list[str]]:
    headers, cells = [], []
    for frame in at.dataframe:
        headers += [str(c) for c in frame.value.columns]
        cells += [str(v) for column in frame.value.columns for v in frame.value[column].tolist()
                  if isinstance(v, str)]
    return headers, cells


def test_tables_show_labels_units_and_percentages_not_machine_columns() -> None:
    at = _hot_page()
    headers, cells = _headers_and_cells(at)
    assert headers, "the page shows its tables"
    assert not [h for h in headers if SNAKE.match(h)], headers
    assert "Busiest key (% of one partition)" in headers and "Share of the index's traffic" in headers
    assert not [c for c in cells if RAW_FRACTION.match(c)]
    shares = [c for c in cells if c.endswith("%")]
    assert shares and all(re.fullmatch(r"(< )?[\d,]+(\.\d\d)?%", s) for s in shares), shares[:5]
    # a whole key column reads as text with units: sizes carry B/KB/MB/GB
    top = next(f.value for f in at.dataframe if "Partition-key value" in f.value.columns)
    assert all(re.fullmatch(r"[\d,.]+ (B|KB|MB|GB)", s) for s in top["Item collection"]), top["Item collection"]


def test_partitions_over_time_without_a_burst_explains_itself_and_draws_no_flat_heatmap() -> None:
    at = _hot_page()
    assert any("Without one, every second at peak carries the same load" in i.value for i in at.info)
    charts = at.get("plotly_chart")
    assert charts, "the other tabs' charts are drawn"
    assert not [c for c in charts if "Partition load over time" in str(c.proto)]


def test_a_burst_draws_the_heatmap_and_the_note_goes() -> None:
    at = _hot_page()
    pattern = at.selectbox(key=scoped(at, "hot.burst_pattern")).options[1]
    at.selectbox(key=scoped(at, "hot.burst_pattern")).select(pattern).run()
    assert not at.exception, at.exception
    assert not any("Without one, every second" in i.value for i in at.info)
    assert any("Partition load over time" in str(c.proto) for c in at.get("plotly_chart"))
