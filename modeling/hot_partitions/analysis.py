"""The one entry point of the Hot partitions page: `analyse_hot_partitions(request) -> HotPartitionReport`.

Builds every physical index's key population and peak load, places key values on partitions, runs the
burst scenario on the analysed index, applies the sharding what-if, compares alternative keys and
collects findings. Deterministic: the same request (seed included) gives the same frames. APPROXIMATE.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from modeling.design.checks.context import Context, build_context
from modeling.design.plans import TABLE, Design
from modeling.errors import ModelingError
from modeling.hot_partitions import findings as rules
from modeling.hot_partitions.columns import top_rows
from modeling.hot_partitions.frames import (
    ALTERNATIVE_COLUMNS,
    HOURLY_COLUMNS,
    KEY_COLUMNS,
    KEY_PROFILE_COLUMNS,
    MAX_KEY_VALUES,
    PARTITION_COLUMNS,
    PARTITION_READ_UNITS,
    PARTITION_WRITE_UNITS,
    SHARDING_COLUMNS,
    SKEW_COLUMNS,
)
from modeling.hot_partitions.load import (
    Contribution,
    IndexLoad,
    build_index_load,
    contributions,
    index_templates,
    seeded_rng,
)
from modeling.hot_partitions.metrics import skew_row
from modeling.hot_partitions.partitions import (
    BurstLoad,
    Placement,
    bin_fractions,
    extend,
    partition_count,
    partition_frame,
    place,
)
from modeling.hot_partitions.partitions import timeline_frame as build_timeline
from modeling.hot_partitions.population import row_label
from modeling.hot_partitions.whatifs import (
    alternative_row,
    default_alternatives,
    read_request_multiplier,
    shard,
    shard_burst,
    sharding_rows,
)
from modeling.limits import MAX_TIMELINE_CELLS
from modeling.memo import ContentMemo, content_key
from modeling.model import Model
from modeling.traffic import hourly_shares

SHARD_SWEEP = (1, 2, 4, 8, 16, 32)


class HotPartitionError(ModelingError):
    """A request the analysis cannot run: unknown index or pattern, or out-of-range numbers."""


@dataclass(frozen=True)
class BurstScenario:
    """Extra requests of one pattern for a while: a sign-up rush, a marketing send, a batch job."""

    pattern: str
    start_seconds: float = 1.0
    duration_seconds: float = 1.0
    requests: float | None = None  # requests in the whole burst (e.g. 3,700 sign-ups in 0.2 s) ...
    multiplier: float | None = None  # ... or the pattern's peak rate times this, while it lasts
    key_rank: int | None = 1  # all on the n-th busiest key value (1 = busiest); None: spread like normal traffic
    resolution_seconds: float = 1.0  # time bin (0.1 for 100 ms)
    window_seconds: float = 10.0

    def requests_per_second(self, peak_requests_per_second: float) -> float:
        if self.requests is not None:
            return self.requests / self.duration_seconds
        return (self.multiplier if self.multiplier is not None else 1.0) * peak_requests_per_second


# The key values per template the Hot partitions page opens at, and the review report and `dds review` use, so
# the two show the same findings (the report said 1,000,000 beside the page's 100 thousand): every change is
# answered at once at this scale; 1 and 10 million are a choice on the page and a flag of the CLI
PAGE_KEY_VALUES = 100_000


@dataclass(frozen=True)
class HotPartitionRequest:
    """Everything the page chooses; hashable apart from the model and design objects."""

    model: Model
    design: Design
    index: str = TABLE  # the index the timeline and the sharding what-if are about
    max_key_values: int = 1_000_000  # key values simulated per template (<= 10 million)
    seed: int = 42
    partition_count: int | None = None  # None: estimated from storage and throughput
    scenario: BurstScenario | None = None
    shard_count: int = 1  # >1: write-shard the hot key (or the burst's key) of `index`
    alternative_entity: str | None = None
    alternatives: tuple[str, ...] = ()  # partition-key templates; empty: default candidates
    top_keys: int = 20


@dataclass(frozen=True, eq=False)
class HotPartitionReport:
    """Tidy frames (columns in `frames`) and findings; every number is APPROXIMATE."""

    keys: pd.DataFrame  # KEY_COLUMNS
    key_profile: pd.DataFrame  # KEY_PROFILE_COLUMNS
    partitions: pd.DataFrame  # PARTITION_COLUMNS
    hourly: pd.DataFrame  # HOURLY_COLUMNS
    timeline: pd.DataFrame  # TIMELINE_COLUMNS
    skew: pd.DataFrame  # SKEW_COLUMNS
    sharding: pd.DataFrame  # SHARDING_COLUMNS
    alternatives: pd.DataFrame  # ALTERNATIVE_COLUMNS
    findings: tuple[rules.HotPartitionFinding, ...] = field(default=())


@dataclass(frozen=True, eq=False)
class _Populations:
    """What a what-if, a burst or another analysed index does not change: the context, the contributions
    and every physical index's key population and load (its arrays read-only, as they are shared)."""

    ctx: Any
    parts: list[Any]
    loads: dict[str, IndexLoad]
    # placements of the loads above by (index, partitions, salt, anchor row), kept with them
    placements: dict[tuple[str, int, int, int | None], Placement] = field(default_factory=dict)

    def placement(self, index: str, partitions: int, salt: int, anchor: int | None) -> Placement:
        key = (index, partitions, salt, anchor)
        if key not in self.placements:
            self.placements[key] = place(self.loads[index], partitions, salt, anchor)
        return self.placements[key]


# Keyed by the model's and design's content, the cap and the seed: a page rerun after a what-if or burst
# change reuses the populations (10 million rows each at most, so only a few are kept).
_POPULATIONS: ContentMemo[_Populations] = ContentMemo("hot-partition populations", 4)


def _populations(request: HotPartitionRequest, cap: int) -> _Populations:
    def build() -> _Populations:
        ctx = build_context(request.model, request.design)
        parts = contributions(ctx)
        loads = {i: build_index_load(ctx, i, t, parts, cap, request.seed) for i, t in index_templates(ctx).items()}
        return _Populations(ctx, parts, loads)  # the loads' columns are read-only once built (LazyColumns)
    return _POPULATIONS.get(populations_key(request, cap), build)


def populations_key(request: HotPartitionRequest, cap: int) -> str:
    return content_key(request.model.model_dump_json(), repr(request.design), str(cap), str(request.seed))


# The sweep (1 to 32 shards of the hot key) does not depend on the shard count chosen, only on the index
# and the burst: memoised with the metrics generator's state after it, so the draws that follow (skew,
# alternatives) are the same whether the sweep was computed or remembered.
_SWEEPS: ContentMemo[tuple[pd.DataFrame, Mapping[str, Any]]] = ContentMemo("hot-partition sharding sweeps", 32)


def _sharding(request: HotPartitionRequest, cap: int, analysed: IndexLoad,
              burst: BurstLoad | None, hot_row: int, sweep: tuple[int, ...], rng: np.random.Generator) -> pd.DataFrame:
    def compute() -> tuple[pd.DataFrame, Mapping[str, Any]]:
        rows = pd.DataFrame(sharding_rows(analysed, burst, hot_row, sweep, rng), columns=list(SHARDING_COLUMNS))
        return rows, rng.bit_generator.state
    key = (populations_key(request, cap), request.index, repr(request.scenario), sweep, hot_row)
    frame, state = _SWEEPS.get(key, compute)
    rng.bit_generator.state = state
    return frame.copy()


def analyse_hot_partitions(request: HotPartitionRequest) -> HotPartitionReport:
    """Key populations, per-key and per-partition load, burst timeline, what-ifs and findings."""
    _validate(request)
    cap = min(request.max_key_values, MAX_KEY_VALUES)
    populations = _populations(request, cap)
    ctx, parts, loads = populations.ctx, populations.parts, dict(populations.loads)
    analysed = loads[request.index]
    burst, burst_row = _burst(request, analysed)
    hot_row = burst_row if burst_row is not None else int(np.argmax(analysed.per_key))
    rng = seeded_rng(request.seed, "metrics")
    sweep = tuple(sorted({*SHARD_SWEEP, request.shard_count}))
    sharding = _sharding(request, cap, analysed, burst, hot_row, sweep, rng)
    loads[request.index] = shard(analysed, hot_row, request.shard_count)
    burst = shard_burst(burst, hot_row, request.shard_count)
    placements = {}
    for i, load in loads.items():
        # the partition count comes from storage and throughput, which sharding leaves as they are
        base = populations.placement(i, partition_count(populations.loads[i], request.partition_count),
                                     _salt(request.seed, i), hot_row if i == request.index else None)
        placements[i] = base if load is populations.loads[i] else extend(base, load)
    tops = {i: p.load.busiest_rows(request.top_keys) for i, p in placements.items()}
    labels = {i: _labels(p, tops[i]) for i, p in placements.items()}
    timeline = _timeline(request, placements[request.index], burst)
    findings = _findings(request, placements, labels, timeline, burst, burst_row, hot_row)
    return HotPartitionReport(
        keys=_concat([_key_frame(p, labels[i], tops[i]) for i, p in placements.items()], KEY_COLUMNS),
        key_profile=_concat([_profile(p.load) for p in placements.values()], KEY_PROFILE_COLUMNS),
        partitions=_concat([partition_frame(p) for p in placements.values()], PARTITION_COLUMNS),
        hourly=_hourly(request.model, placements), timeline=timeline,
        skew=pd.DataFrame([skew_row(p, rng) for p in placements.values()], columns=list(SKEW_COLUMNS)),
        sharding=sharding, alternatives=_alternatives(request, ctx, parts, cap, rng), findings=tuple(findings))


def _validate(request: HotPartitionRequest) -> None:
    indexes = {TABLE, *(i.name for i in request.design.key_design.global_secondary_indexes)}
    if request.index not in indexes:
        raise HotPartitionError(f"index {request.index!r} is not a physical index of the design; "
                                f"index={request.index}; choose one of {', '.join(sorted(indexes))}")
    if not 1 <= request.max_key_values <= MAX_KEY_VALUES or request.shard_count < 1:
        raise HotPartitionError(f"max_key_values must be 1..{MAX_KEY_VALUES:,} and shard_count >= 1; "
                                f"max_key_values={request.max_key_values}, shard_count={request.shard_count}")
    scenario = request.scenario
    if scenario is not None and scenario.window_seconds / max(scenario.resolution_seconds, 1e-9) > MAX_TIMELINE_CELLS:
        raise HotPartitionError(f"the burst timeline would have more than {MAX_TIMELINE_CELLS:,} time bins; "
                                f"window_seconds={scenario.window_seconds}, resolution_seconds="
                                f"{scenario.resolution_seconds}; use a shorter window or a coarser resolution")
    if scenario is not None and request.design.plan(scenario.pattern) is None:
        raise HotPartitionError(f"the burst names an unknown access pattern; pattern={scenario.pattern}; "
                                "pick one of the model's access patterns")
    if scenario is not None and (scenario.duration_seconds <= 0 or scenario.resolution_seconds <= 0):
        raise HotPartitionError("a burst needs a positive duration and resolution; "
                                f"duration_seconds={scenario.duration_seconds}, "
                                f"resolution_seconds={scenario.resolution_seconds}")


def _salt(seed: int, index: str) -> int:
    return int(seeded_rng(seed, "partitions", index).integers(0, 2**63))


def _burst(request: HotPartitionRequest, load: IndexLoad) -> tuple[BurstLoad | None, int | None]:
    """The scenario's extra utilisation per row of the analysed index, and the row of its one key value."""
    scenario = request.scenario
    pattern = next((p for p in request.model.access_patterns if scenario and p.name == scenario.pattern), None)
    if scenario is None or pattern is None:
        return None, None
    rate = scenario.requests_per_second(pattern.traffic.peak_requests_per_second)
    utilisation = np.zeros(len(load.key_values))
    mine = [p for p in load.parts if p.pattern == scenario.pattern and p.requests_per_second > 0]
    primary = next((p for p in mine if p.read_units_per_second > 0 or p.index == TABLE), None)
    for part in mine:
        per_request = (part.read_units_per_second / PARTITION_READ_UNITS
                       + part.write_units_per_second / PARTITION_WRITE_UNITS) / part.requests_per_second
        segment = next(s for s in load.segments if s.template == part.template)
        rows = segment.layout_of(part.entity)
        window = slice(segment.start, segment.start + rows.rows)
        utilisation[window] += load.share_vectors.get(part.share_key(rows), rows) * per_request * rate
    row = None
    if scenario.key_rank is not None and primary is not None:
        segment = next(s for s in load.segments if s.template == primary.template)
        window = slice(segment.start, segment.start + segment.rows)
        # only single key values (not grouped cold ranks) can be the burst's one key
        per_key = np.where(load.key_values[window] == 1, load.utilisation[window], -1.0)
        rank = min(scenario.key_rank, int((per_key >= 0).sum())) - 1
        row = segment.start + int(top_rows(per_key, max(rank, 0) + 1)[max(rank, 0)])
        total = utilisation[segment.start:segment.start + segment.rows].sum()
        utilisation[segment.start:segment.start + segment.rows] = 0.0
        utilisation[row] = total
    return BurstLoad(utilisation, scenario.start_seconds, scenario.duration_seconds), row


def _burst_key_utilisation(load: IndexLoad, burst: BurstLoad, scenario: BurstScenario) -> float:
    """The busiest single key value's share of one partition in the burst's busiest time bin."""
    bins = max(1, int(np.ceil(scenario.window_seconds / scenario.resolution_seconds - 1e-9)))
    fraction = float(bin_fractions(burst, scenario.resolution_seconds, bins).max())
    return float(((load.utilisation + burst.utilisation * fraction) / load.key_values).max())


def _timeline(request: HotPartitionRequest, placement: Placement, burst: BurstLoad | None) -> pd.DataFrame:
    scenario = request.scenario
    resolution = scenario.resolution_seconds if scenario else 1.0
    window = scenario.window_seconds if scenario else 10.0
    return build_timeline(placement, burst, resolution, window)


def _labels(placement: Placement, top: np.ndarray) -> dict[int, str]:
    """Readable key values of the busiest rows (and the hot row of a sharded key)."""
    load = placement.load
    rows = set(top.tolist())
    hot_row = load.sharded[0]
    rows |= {hot_row} if hot_row >= 0 else set()
    return {row: _label(load, row) for row in sorted(rows)}


def _label(load: IndexLoad, row: int) -> str:
    hot_row, shards = load.sharded
    if row >= load.base_rows:
        return f"{_label(load, hot_row)}#{row - load.base_rows + 1}"
    segment = load.segment_at(row)
    text = row_label(max((lay for _, lay in segment.layouts), key=lambda lay: lay.rows), row - segment.start)
    return f"{text}#0" if row == hot_row and shards > 1 else text


def _key_frame(placement: Placement, labels: dict[int, str], rows: np.ndarray) -> pd.DataFrame:
    """KEY_COLUMNS for the busiest key values of one index (per key value, not per grouped row)."""
    load = placement.load
    per_key = load.per_key
    kv = load.key_values[rows]
    total = float(load.utilisation.sum()) or 1.0
    return pd.DataFrame({
        "index": load.index, "key_rank": np.arange(1, len(rows) + 1),
        "key_value": [labels.get(int(r)) or _label(load, int(r)) for r in rows],
        "template": [load.segment_at(min(int(r), load.base_rows - 1)).template for r in rows],
        "items": load.items[rows] / kv, "collection_bytes": load.collection_bytes[rows] / kv,
        "read_units_per_second": load.read_units[rows] / kv, "write_units_per_second": load.write_units[rows] / kv,
        "utilisation": per_key[rows], "traffic_share": per_key[rows] / total,
        "partition": placement.row_numbers(rows),
        "top_pattern": rules.top_patterns(load, rows)})


def _profile(load: IndexLoad, exact: int = 200, points: int = 100, sample: int = 100_000) -> pd.DataFrame:
    """KEY_PROFILE_COLUMNS: per-key load at the top ranks exactly, then at log-spaced ranks estimated from an
    evenly spaced sample of rows (ranks count rows; a grouped cold row counts once)."""
    per_key, count = load.per_key, len(load.key_values)
    top = load.busiest_rows(exact)
    step = max(1, count // sample)
    sampled = np.arange(0, count, step)
    sampled = sampled[np.argsort(-per_key[sampled], kind="stable")]
    ranks = np.unique(np.geomspace(len(top) + 1, count, points).astype(int)) if count > len(top) else np.array([], int)
    tail = sampled[np.minimum((ranks - 1) // step, len(sampled) - 1)]
    rows = np.concatenate([top, tail]).astype(np.int64)
    kv = load.key_values[rows]
    return pd.DataFrame({"index": load.index, "key_rank": np.concatenate([np.arange(1, len(top) + 1), ranks]),
                         "read_units_per_second": load.read_units[rows] / kv,
                         "write_units_per_second": load.write_units[rows] / kv, "utilisation": per_key[rows]})


def _hourly(model: Model, placements: dict[str, Placement]) -> pd.DataFrame:
    """HOURLY_COLUMNS: peak load scaled by each hour's share of the busiest hour (modeling.traffic)."""
    shares = np.asarray(hourly_shares(model.traffic_profile))
    factors = shares / shares.max()
    frames = []
    for index, placement in placements.items():
        load = placement.load
        frames.append(pd.DataFrame({
            "index": index, "hour": np.arange(24), "read_units_per_second": load.read_units.sum() * factors,
            "write_units_per_second": load.write_units.sum() * factors,
            "busiest_key_utilisation": (load.per_key).max() * factors,
            "busiest_partition_utilisation": placement.sums(load.utilisation).max() * factors}))
    return _concat(frames, HOURLY_COLUMNS)


def _findings(request: HotPartitionRequest, placements: dict[str, Placement], labels: dict[str, dict[int, str]],
              timeline: pd.DataFrame, burst: BurstLoad | None, burst_row: int | None,
              hot_row: int) -> list[rules.HotPartitionFinding]:
    found = [f for i, p in placements.items() for f in rules.peak_findings(request.model, p.load, p, labels[i])]
    found += [rules.sampling_finding(p) for p in placements.values() if p.sampled]
    load = placements[request.index].load
    if request.scenario is not None and burst is not None and not burst.utilisation.any():
        found.append(rules.burst_elsewhere_finding(request.scenario.pattern, request.index))
    elif request.scenario is not None and burst is not None:
        key = _label(load, burst_row) if burst_row is not None else "(spread over its keys)"
        found += rules.burst_findings(timeline, request.scenario.pattern, request.index, key,
                                      _burst_key_utilisation(load, burst, request.scenario))
    if request.shard_count > 1:
        multiplier = read_request_multiplier(load, hot_row, request.shard_count)
        found.append(rules.sharding_finding(request.index, _label(load, hot_row), request.shard_count, multiplier))
    return found


def _alternatives(request: HotPartitionRequest, ctx: Context, parts: list[Contribution], cap: int,
                  rng: np.random.Generator) -> pd.DataFrame:
    name = request.alternative_entity
    entity = ctx.entity(name) if name is not None else None
    if entity is None:
        return pd.DataFrame(columns=list(ALTERNATIVE_COLUMNS))
    templates = request.alternatives or default_alternatives(ctx, entity)
    rows = [alternative_row(ctx, entity.name, t, parts, cap, request.seed, rng) for t in templates]
    return pd.DataFrame(rows, columns=list(ALTERNATIVE_COLUMNS))


def _concat(frames: list[pd.DataFrame], columns: tuple[str, ...]) -> pd.DataFrame:
    frames = [f for f in frames if not f.empty]
    return pd.concat(frames, ignore_index=True)[list(columns)] if frames else pd.DataFrame(columns=list(columns))
