"""Benchmark: every page on every built-in example, first render and rerun after a typical widget change.

Each page file is run through Streamlit's AppTest as a deep link would run it, on a fresh workspace holding
one example, with every `st.cache_data` cleared first (a first visit of that model). Then one widget the
user typically touches on that page is changed and the page rerun. A bare Streamlit page (a title, a
selectbox, a slider) measured in the same process gives the baseline: the ratios say how much script time
the product adds to what Streamlit itself costs, whatever the machine.

Run: .venv/bin/python bench/page_latency.py [--pages layout.py,hot_partitions.py] [--examples slug,...]
     [--repeats 1] [--median] [--wall]
Target (issue 14): a rerun after a widget change under 300 ms of script time on every example, a first
visit under 1 s; explicit heavy actions (loading sample data, running every pattern, 10 million keys, the
report) are not timed here. Not a test: timings depend on the machine, so nothing here fails the suite.
Domain caches that live for the process (`functools.lru_cache`, `modeling.memo`) are cleared too, so "cold" is
a first visit of a model nothing has seen; "nav" is the first visit after another page (only the designs the
pickers list, `propose`, already computed: the design search's own cost, which every page pays first).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere in the repository

os.environ.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                   "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
                   "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"})

import logging  # noqa: E402

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from costs.design_ranking import propose  # noqa: E402
from modeling.examples import example_document, list_examples, load_example  # noqa: E402
from modeling.interop.infrastructure import IacFormat  # noqa: E402
from modeling.workspace.folder import Workspace  # noqa: E402

BARE_PAGE = '''
import streamlit as st
st.title("Bare page")
choice = st.selectbox("Pick", ["a", "b", "c"], key="bare.pick")
value = st.slider("Value", 1, 12, 4, key="bare.value")
st.write(choice, value)
'''


def _pick_other(key: str) -> Callable[[AppTest], object]:
    """Choose the next option of a selectbox (wrapping around)."""
    def change(at: AppTest) -> None:
        widget = at.selectbox(key=key)
        widget.select_index(((widget.index or 0) + 1) % len(widget.options))
    return change


def _next_radio(key: str) -> Callable[[AppTest], object]:
    def change(at: AppTest) -> None:
        widget = at.radio(key=key)
        values = list(IacFormat)
        widget.set_value(values[(values.index(IacFormat(str(widget.value))) + 1) % len(values)])
    return change


def _toggle(key: str) -> Callable[[AppTest], object]:
    def change(at: AppTest) -> None:
        widget = at.toggle(key=key)
        widget.set_value(not widget.value)
    return change


# page -> (what the user changes, how)
CHANGES: dict[str, tuple[str, Callable[[AppTest], object]]] = {
    "start.py": ("presenter view on", _toggle("sidebar.presenter")),
    "model.py": ("attributes of the next entity", _pick_other("model.attributes_entity")),
    "layout.py": ("items per entity 4 -> 6", lambda at: at.slider(key="layout.items").set_value(6)),
    "preview.py": ("seed 42 -> 7", lambda at: at.number_input(key="preview.seed").set_value(7)),
    "hot_partitions.py": ("write shards 1 -> 4", lambda at: at.slider(key="hot.shards").set_value(4)),
    "capacity_and_cost.py": ("target utilisation 0.7 -> 0.5", lambda at: at.slider(key="cost.target").set_value(0.5)),
    "report.py": ("target utilisation 0.7 -> 0.5", lambda at: at.slider(key="report.target").set_value(0.5)),
    "import_and_export.py": ("format: the next one", _next_radio("iac.format")),
    "lessons.py": ("next step", lambda at: at.button(key="lessons.next").click()),
}


WALL_CLOCK = False
STAT: Callable[[list[float]], float] = min


def quiet_streamlit() -> None:
    """AppTest's bare mode logs a line per run ("No runtime found…"); the table is what matters."""
    for name in ("streamlit", "streamlit.runtime.caching.storage.cache_storage_protocol"):
        logging.getLogger(name).setLevel(logging.ERROR)


def clear_caches() -> None:
    """Every cache a first visit would find cold: Streamlit's and the domain's process-wide memos, including
    the `functools.lru_cache`s of the domain packages (sample items, sizes, key templates: keyed by content, so
    a model nothing has seen finds them empty)."""
    st.cache_data.clear()
    from modeling.memo import clear_domain_caches
    clear_domain_caches()
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("modeling.", "costs.")):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                value.cache_clear()
    gc.collect()


def timed_run(at: AppTest) -> float:
    """Seconds of one run: CPU time of this process (the script runs in one of its threads) by default, so a
    machine shared with other work does not inflate it; wall-clock time with --wall."""
    clock = time.perf_counter if WALL_CLOCK else time.process_time
    start = clock()
    at.run()
    elapsed = clock() - start
    if at.exception:
        raise SystemExit(f"the page raised: {at.exception[0].message}")
    return elapsed


def measure(page_path: Path, change: Callable[[AppTest], object] | None, repeats: int,
            slug: str | None = None) -> tuple[float, float, float]:
    """(cold first render, first render after another page, rerun after the change) in seconds, each the best
    of `repeats` (the median with --median). "After another page": every cache cleared but the designs the
    pickers list (`propose`), which any page visited before (the Start page first of all) has computed;
    it is the design search's own cost. Pricing every design (`rank_designs`) is left to the pages that show it."""
    firsts, navigated, reruns = [], [], []
    for _ in range(repeats):
        clear_caches()
        at = AppTest.from_file(str(page_path), default_timeout=300)
        firsts.append(timed_run(at))
        if change is not None:
            change(at)
        reruns.append(timed_run(at))
        if slug is not None:
            clear_caches()
            propose(load_example(slug))
            navigated.append(timed_run(AppTest.from_file(str(page_path), default_timeout=300)))
    return STAT(firsts), STAT(navigated) if navigated else STAT(firsts), STAT(reruns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="", help="comma-separated page files (default: every page)")
    parser.add_argument("--examples", default="", help="comma-separated example slugs (default: every example)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of the process's CPU time")
    parser.add_argument("--median", action="store_true", help="the median of the repeats instead of the best")
    args = parser.parse_args()
    global WALL_CLOCK, STAT
    WALL_CLOCK = args.wall
    STAT = statistics.median if args.median else min
    pages = [p for p in args.pages.split(",") if p] or sorted(p.name for p in (ROOT / "pages").glob("*.py"))
    slugs = [s for s in args.examples.split(",") if s] or [e.slug for e in list_examples()]
    repeats = max(1, args.repeats)
    quiet_streamlit()

    with tempfile.TemporaryDirectory() as scratch:
        bare = Path(scratch) / "bare_page.py"
        bare.write_text(BARE_PAGE, encoding="utf-8")
        measure(bare, None, 1)  # warm Streamlit's own imports before anything is timed
        os.environ["DESIGN_STUDIO_WORKSPACE"] = str(Path(scratch) / "warm")
        AppTest.from_file(str(ROOT / "pages" / "start.py"), default_timeout=300).run()  # warm the imports
        bare_first, _, bare_rerun = measure(bare, lambda at: at.slider(key="bare.value").set_value(6), 3)
        print(f"times: {'wall clock' if WALL_CLOCK else 'CPU time of the process (script time)'}")
        print(f"bare Streamlit page: first {bare_first * 1000:.0f} ms, rerun {bare_rerun * 1000:.0f} ms "
              f"({'median' if STAT is not min else 'best'} of 3)")
        print(f"{'page':<22}{'example':<26}{'cold ms':>8}{'x bare':>7}{'nav ms':>8}{'x bare':>7}"
              f"{'rerun ms':>9}{'x bare':>7}  change")
        worst_first = worst_nav = worst_rerun = 0.0
        for page in pages:
            what, change = CHANGES.get(page, ("rerun", lambda at: None))
            for slug in slugs:
                folder = Path(scratch) / f"{page}-{slug}"
                Workspace(folder).create(example_document(slug))
                os.environ["DESIGN_STUDIO_WORKSPACE"] = str(folder)
                first, nav, rerun = measure(ROOT / "pages" / page, change, repeats, slug)
                worst_first, worst_nav = max(worst_first, first), max(worst_nav, nav)
                worst_rerun = max(worst_rerun, rerun)
                print(f"{page:<22}{slug:<26}{first * 1000:>8.0f}{first / bare_first:>7.1f}{nav * 1000:>8.0f}"
                      f"{nav / bare_first:>7.1f}{rerun * 1000:>9.0f}{rerun / bare_rerun:>7.1f}  {what}", flush=True)
        print(f"worst first render {worst_first * 1000:.0f} ms cold, {worst_nav * 1000:.0f} ms after another page "
              f"(target < 1000 ms); worst rerun {worst_rerun * 1000:.0f} ms (target < 300 ms)")


if __name__ == "__main__":
    main()
