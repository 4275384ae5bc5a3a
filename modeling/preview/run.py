"""Running the preview's access patterns and measuring what each one consumed.

The one entry point the Preview page calls after loading: executes the chosen patterns on the
preview table (modeling.preview.runner), checks their answers, and sets the capacity measured from
the data beside the model's estimate (modeling.preview.measured). The capacity units are the cost engine's:
they come in as `CapacityRules`, which the application layer (`studio.preview`) passes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from modeling.endpoint.adapter import dynamodb_client
from modeling.preview.code import cli_command, javascript_code, python_code
from modeling.preview.dataset import PreviewData
from modeling.preview.measured import CapacityRules, Estimate, MeasuredCapacity, measure
from modeling.preview.runner import PatternRun, RunContext, run_pattern
from modeling.preview.session import PreviewSetup, check_preview_table
from modeling.preview.write_runner import CONCURRENT_CLIENTS


@dataclass(frozen=True)
class PatternResult:
    run: PatternRun
    capacity: MeasuredCapacity
    python: str
    cli: str
    javascript: str


@dataclass(frozen=True)
class PreviewReport:
    results: tuple[PatternResult, ...]

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.run.passed)

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(r.run.pattern for r in self.results if not r.run.passed)

    def summary_rows(self) -> list[dict[str, Any]]:
        return [{"pattern": r.run.pattern, "result": "passed" if r.run.passed else "FAILED",
                 "operation": str(r.run.operation), "index": r.run.index, "items returned": r.run.returned_count,
                 "items read": r.capacity.items_read_measured, "pages": r.run.pages,
                 "measured units": float(r.capacity.measured.read_units + r.capacity.measured.write_units),
                 "estimated units": float(r.capacity.estimated.read_units + r.capacity.estimated.write_units),
                 "latency ms": r.run.latency_ms, "why": r.run.verdict} for r in self.results]


@dataclass(frozen=True)
class PreviewRun:
    setup: PreviewSetup
    data: PreviewData
    patterns: tuple[str, ...] = ()  # empty: every pattern
    inputs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def run_preview(request: PreviewRun, rules: CapacityRules,
                progress: Callable[[int, int], object] | None = None) -> PreviewReport:
    """Run the request's patterns in order, measuring each by `rules`; `progress(done, total)` after each (its
    result is ignored)."""
    setup = request.setup
    client = dynamodb_client(setup.endpoint)
    check_preview_table(setup, client)  # refuses (raises) before any request, read or write
    names: Sequence[str] = request.patterns or [p.name for p in setup.model.access_patterns]
    # the 20-client counter case (200 requests) runs when one pattern is run on its own, not in a run of all
    # patterns: thirty attendees' run-alls at once would send 6,000 of them to one embedded server
    concurrent = CONCURRENT_CLIENTS if len(names) == 1 else 0
    context = RunContext(setup.model, setup.design, request.data, setup.table.name, setup.seed, request.inputs,
                         before_write=lambda: check_preview_table(setup, client), concurrent_clients=concurrent)
    estimate = rules.estimates(setup.model, setup.design)
    results = []
    for done, name in enumerate(names, start=1):
        run = run_pattern(client, context, name)
        results.append(_result(run, estimate(run.pattern), setup, rules))
        if progress is not None:
            progress(done, len(names))
    return PreviewReport(tuple(results))


def _result(run: PatternRun, estimate: Estimate, setup: PreviewSetup, rules: CapacityRules) -> PatternResult:
    endpoint_url = setup.endpoint.url if setup.endpoint.url else None
    if run.request is None:
        return PatternResult(run, measure(run, estimate, setup.endpoint.kind, rules), "", "", "")
    keys = run.fetch_key_names
    first = run.first_request if run.first_request is not run.request else None  # no owner: only the first was sent
    fetched_keys = tuple({n: item[n] for n in keys if n in item} for item in run.fetched) if keys else None
    return PatternResult(run, measure(run, estimate, setup.endpoint.kind, rules),
                         python_code(run.request, first, keys, endpoint_url),
                         cli_command(run.request, endpoint_url, first, fetched_keys),
                         javascript_code(run.request, first, keys, endpoint_url))
