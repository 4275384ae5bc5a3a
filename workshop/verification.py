"""Verification steps: named checks of an attendee's fix, run with the product's own analyses.

A break-it exercise lists `VerificationStep`s; `verify(document, steps)` validates the document with
`modeling.model_file` (an invalid model fails every step with its first problem) and runs each step
against the model's own design (or the first proposal when it has none), as the pages do. Steps use
the design checks (`modeling.design.checks`), the planner (`Design.plan`), the hot-partition analysis and the
cost engine, so "fixed" means what the Layout, Hot partitions and Capacity & cost pages show.

Adding a kind of step: a frozen dataclass with `name` and `run(subject) -> StepResult`.
`PatternPreviewPasses` runs the pattern for real, as the Preview page does: seeded sample data in the
endpoint (the attendee's own table, named by their session), the request built from the design, and
its answer compared with the oracle computed from the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from studio.design import Design, Finding, Operation, check_design, propose
from studio.errors import ModelFileError, ModelingError
from studio.estimate import CapacityOption, EstimateRequest, ModelEstimate, estimate_model
from studio.hot_partitions import HotPartitionReport, HotPartitionRequest, analyse_hot_partitions
from studio.model import BillingMode, Model, model_from_document
from studio.preview import (
    Endpoint,
    PreviewRun,
    WriteContext,
    already_loaded,
    check_preview_table,
    concurrent_increments,
    configured_endpoint,
    dynamodb_client,
    load_preview,
    preview_setup,
    run_preview,
)

# Key values simulated per template when a step asks the hot-partition analysis: enough for the
# busiest-key figures (which depend on the distributions, not on the population size) in well under a second.
VERIFY_KEY_VALUES = 100_000
SEED = 42
# Sample items a preview step loads: enough students per school for a leaderboard's order to show.
PREVIEW_SAMPLE_ITEMS = 1_000


@dataclass(frozen=True)
class PreviewPlace:
    """Where a preview step may load its sample data: the endpoint and whose table it is."""

    endpoint: Endpoint
    namespace: str = "local"
    model_slug: str = "lesson"


@dataclass
class Subject:
    """The model under verification, with its analyses computed once and shared by the steps."""

    model: Model
    preview_place: PreviewPlace | None = None

    @cached_property
    def design(self) -> Design:
        return propose(self.model)[0]

    @cached_property
    def findings(self) -> list[Finding]:
        return check_design(self.model, self.design)

    @cached_property
    def estimate(self) -> ModelEstimate:
        # the design the Capacity & cost page opens on (the ranking's first), as the attendee sees it there
        return estimate_model(EstimateRequest(model=self.model, compare_designs=False))

    def hot_report(self, index: str) -> HotPartitionReport:
        return analyse_hot_partitions(HotPartitionRequest(model=self.model, design=self.design, index=index,
                                                          max_key_values=VERIFY_KEY_VALUES, seed=SEED))


@dataclass(frozen=True)
class StepResult:
    name: str
    passed: bool
    detail: str


class VerificationStep(Protocol):
    @property
    def name(self) -> str: ...  # read-only: the steps are frozen dataclasses

    def run(self, subject: Subject) -> StepResult: ...


@dataclass(frozen=True)
class CheckPasses:
    """No finding of these design checks on paths containing `path_contains` (e.g. an entity or a pattern)."""

    name: str
    check_ids: tuple[str, ...]
    path_contains: str = ""

    def run(self, subject: Subject) -> StepResult:
        hits = [f for f in subject.findings if f.check_id in self.check_ids and self.path_contains in f.path]
        if not hits:
            return StepResult(self.name, True, f"{', '.join(self.check_ids)}: no finding")
        return StepResult(self.name, False, f"{hits[0].check_id} still reports: {hits[0].message}")


@dataclass(frozen=True)
class PatternServed:
    """The planner serves `pattern` with one of `operations` (e.g. a Query or GetItem, not a Scan)."""

    name: str
    pattern: str
    operations: tuple[Operation, ...] = (Operation.QUERY, Operation.GET_ITEM)

    def run(self, subject: Subject) -> StepResult:
        plan = subject.design.plan(self.pattern)
        if plan is None:
            return StepResult(self.name, False, f"the model has no access pattern `{self.pattern}` any more")
        how = f"{plan.operation.value} on {plan.index}" + (f" ({plan.key_condition})" if plan.key_condition else "")
        return StepResult(self.name, plan.served and plan.operation in self.operations, f"{self.pattern}: {how}")


@dataclass(frozen=True)
class HotKeyBelowLimit:
    """The busiest key value of the index serving `pattern` needs less than `limit` of one partition at peak."""

    name: str
    pattern: str
    limit: float = 1.0  # 1.0 = a whole partition's 3,000 RCU / 1,000 WCU (dynamodb-rules §7.1)

    def run(self, subject: Subject) -> StepResult:
        plan = subject.design.plan(self.pattern)
        if plan is None:
            return StepResult(self.name, False, f"the model has no access pattern `{self.pattern}` any more")
        utilisation = busiest_key_utilisation(subject.hot_report(plan.index), plan.index)
        return StepResult(self.name, utilisation < self.limit,
                          f"busiest key value on {plan.index}: {utilisation:.0%} of one partition at peak")


@dataclass(frozen=True)
class BillingModeMatchesRecommendation:
    """The table's billing mode is the one the cost engine recommends for this traffic."""

    name: str

    def run(self, subject: Subject) -> StepResult:
        recommended = subject.estimate.cost.recommendation
        if recommended is None:
            return StepResult(self.name, False, "no option could be priced")
        wanted = billing_mode_for(recommended.option)
        actual = subject.model.table.billing_mode
        return StepResult(self.name, actual is wanted,
                          f"recommended: {recommended.option.value} (${recommended.monthly_cost_usd:,.2f}/month), "
                          f"table billing mode: {actual.value}")


@dataclass(frozen=True)
class PatternPreviewPasses:
    """`pattern` runs on the endpoint with seeded sample data and returns what the data says it should."""

    name: str
    pattern: str
    sample_items: int = PREVIEW_SAMPLE_ITEMS

    def run(self, subject: Subject) -> StepResult:
        try:
            place = subject.preview_place or PreviewPlace(configured_endpoint())
            setup = preview_setup(subject.model, subject.design, place.endpoint, place.namespace,
                                  f"{place.model_slug}-check", self.sample_items, SEED)
            data = already_loaded(setup) or load_preview(setup)[0]
            result = run_preview(PreviewRun(setup, data, (self.pattern,))).results[0].run
        except ModelingError as exc:  # endpoint down, a foreign table, data that cannot be generated
            return StepResult(self.name, False, f"the preview could not run: {exc}")
        return StepResult(self.name, result.passed, f"{self.pattern} on {setup.table.name}: {result.verdict}")


@dataclass(frozen=True)
class ConcurrentIncrementsExact:
    """`pattern` adds 1 from 20 concurrent clients 10 times each on the endpoint: it must end exactly 200 higher
    (the Preview's concurrent-clients case, `modeling.preview.write_runner.concurrent_increments`)."""

    name: str
    pattern: str
    sample_items: int = PREVIEW_SAMPLE_ITEMS

    def run(self, subject: Subject) -> StepResult:
        plan = subject.design.plan(self.pattern)
        if plan is None or plan.write is None:
            return StepResult(self.name, False, f"{self.pattern} says nothing about how it writes (no updates)")
        try:
            place = subject.preview_place or PreviewPlace(configured_endpoint())
            setup = preview_setup(subject.model, subject.design, place.endpoint, place.namespace,
                                  f"{place.model_slug}-check", self.sample_items, SEED)
            data = already_loaded(setup) or load_preview(setup)[0]
            check_preview_table(setup, dynamodb_client(setup.endpoint))  # refuses a table it did not make
            context = WriteContext(dynamodb_client(setup.endpoint), subject.model, subject.design.key_design, data,
                                   setup.table.name, SEED)
            result = concurrent_increments(context, self.pattern, plan.write)
        except (ModelingError, ClientError, BotoCoreError) as exc:  # never a traceback on the page
            return StepResult(self.name, False, f"the preview could not run: {exc}")
        return StepResult(self.name, result.passed, f"{self.pattern} on {setup.table.name}: {result.detail}")


@dataclass(frozen=True)
class Verification:
    results: tuple[StepResult, ...] = field(default=())
    problem: str = ""  # set when the document is not a valid model

    @property
    def passed(self) -> bool:
        return not self.problem and all(r.passed for r in self.results)


def verify(document: dict[str, Any], steps: Sequence[VerificationStep],
           preview_place: PreviewPlace | None = None) -> Verification:
    """Run every step on the document's model; an invalid document fails with its first problem."""
    try:
        model = model_from_document(document)
    except ModelFileError as exc:
        first = exc.problems[0] if exc.problems else None
        return Verification(problem=f"the model has errors ({first.path}: {first.message})" if first else str(exc))
    subject = Subject(model, preview_place)
    return Verification(tuple(step.run(subject) for step in steps))


def busiest_key_utilisation(report: HotPartitionReport, index: str) -> float:
    """Share of one partition the busiest key value of `index` needs at peak (1.0 = at the limit)."""
    rows = report.skew[report.skew["index"] == index]
    return float(rows["busiest_key_utilisation"].iloc[0]) if len(rows) else 0.0


def billing_mode_for(option: CapacityOption) -> BillingMode:
    """On-demand is PAY_PER_REQUEST; every provisioned and reserved option is PROVISIONED."""
    return BillingMode.PAY_PER_REQUEST if option is CapacityOption.ON_DEMAND else BillingMode.PROVISIONED
