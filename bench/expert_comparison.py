"""Print how the key-design proposal compares with published expert designs (issue 12, "Tests and done").

For every use case under tests/expert_models/: the proposal's monthly cost for model.yaml, the expert
design's monthly cost (expert.yaml: the same model plus the published key design), both priced by the
cost engine of the Capacity & cost page on the same traffic, their ratio, and whether listing the
entities, relationships and access patterns in reverse order changes the proposal (its keys, index names
and projections, and how each pattern runs) or its cost; both are shown, since a renamed or reordered index
changes the design a user sees even when the cost stays.
The regression test (tests/test_expert_models.py) asserts ratio <= 1.02 and order independence.

Run: .venv/bin/python bench/expert_comparison.py [--markdown]
Not a test: nothing here fails; it shows the integrator the state of the generator.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the repository

from tests.expert_models.comparison import TOLERANCE, ComparisonRow, compare, use_cases

HEADERS = ("model", "proposal on-demand $/mo", "expert on-demand $/mo", "ratio",
           "proposal recommended $/mo", "expert recommended $/mo", "ratio", f"<= {TOLERANCE}",
           "order-independent", "reversed: design", "reversed: cost", "reversed on-demand $/mo")


def _cells(row: ComparisonRow) -> tuple[str, ...]:
    return (row.use_case, f"{row.proposal.on_demand_usd:,.2f}", f"{row.expert.on_demand_usd:,.2f}",
            f"{row.on_demand_ratio:.3f}", f"{row.proposal.recommended_usd:,.2f}",
            f"{row.expert.recommended_usd:,.2f}", f"{row.recommended_ratio:.3f}",
            "yes" if row.within_tolerance else "NO", "yes" if row.order_independent else "NO",
            "same" if row.same_design_reversed else "differs", "same" if row.same_cost_reversed else "differs",
            f"{row.reversed_proposal.on_demand_usd:,.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    started = time.perf_counter()
    compared = [compare(case) for case in use_cases()]
    rows = [_cells(row) for row in compared]
    if args.markdown:
        print("| " + " | ".join(HEADERS) + " |")
        print("|" + "---|" * len(HEADERS))
        for cells in rows:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADERS)]
        print("  ".join(h.ljust(w) for h, w in zip(HEADERS, widths, strict=True)))
        for cells in rows:
            print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)))
    passed = sum(1 for r in rows if r[7] == "yes" and r[8] == "yes")
    print(f"\n{passed} of {len(rows)} use cases within {TOLERANCE}x of the expert and order-independent "
          f"({time.perf_counter() - started:.1f} s)")
    cheaper = sum(1 for r in compared if r.on_demand_ratio < 1 and r.recommended_ratio < 1)
    print(f"{cheaper} of {len(compared)} proposals cheaper than the expert, on-demand and recommended")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
