"""Running a migration on an endpoint: parallel Scan segments, conditional writes, a checkpoint, a rate limit.

The generated script (`migration_script`) and the rehearsal call the same `run_migration`:
- the source table is read with a parallel Scan (`Segment`/`TotalSegments`), one thread per segment;
- every write is conditional, so a rerun (after an interruption, or twice by mistake) never loses or doubles
  an item: a backfill updates only an item that still exists (`attribute_exists`); a rewrite puts the new
  key only if absent and deletes the old only if present, in one TransactWriteItems (dynamodb-rules §2); a
  copy into a new table puts only if absent, so it never overwrites a newer dual write;
- after each page, every item the page migrated is read back with a strongly consistent read, and one not
  found in its NEW form is migrated again; only then does the segment's LastEvaluatedKey go to the checkpoint
  file (written whole, then renamed), so a resumed run starts every segment where its last *confirmed* page
  ended; a page cut short is read again and its conditional writes find the work done;
- a token bucket holds the writes to a chosen items-per-second rate;
- an optional overall deadline stops the run (resumable, like any interruption), and a progress callback
  hears the items scanned and written per segment at a steady interval.

Why the read-back (issue 30.5): a rewrite interrupted by a 400 s pause lost one item and left one OLD key.
botocore had re-sent TransactWriteItems requests that timed out on the paused endpoint; when it resumed, the
endpoint ran the stale copies too, and each copy after the first failed its conditions. A moto server rolls a
failed transaction back by restoring a copy of the whole table taken when that transaction began
(moto 5.2.5, DynamoDBBackend.transact_write_items), which also undoes every write other requests made
meanwhile: another segment's move, already answered "done", was undone, and the checkpoint moved past it, so
no later run looked at that item again. The embedded server applies writes one at a time, but a stand-alone
moto server (or any endpoint that loses an acknowledged write) does not; the checkpoint trusted the answers.
It now covers only what was read back.

Throttling and dropped connections are retried by botocore's standard mode (modeling.endpoint.adapter);
transaction conflicts and the dual-write queue by the one retry helper (modeling.endpoint.retry). The dual writer
and the consistency check rehearse phase 2 of a new-table migration.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import BotoCoreError, ClientError

from modeling.design.keys import KeyTemplateError
from modeling.endpoint.retry import RetriesExhausted, send_until_done
from modeling.errors import ModelingError
from modeling.limits import MAX_BATCH_GET_ITEMS  # BatchGetItem's largest request
from modeling.migration.plan import (
    Action,
    MigrationError,
    MigrationSpec,
    Mode,
    derived_key_names,
    entity_of,
    new_item,
    primary_key,
)
from modeling.model import KeyDesign, Model

DEFAULT_SEGMENTS = 4
DEFAULT_PAGE_ITEMS = 100
DEFAULT_ITEMS_PER_SECOND = 200.0
DEFAULT_PROGRESS_SECONDS = 10.0
# after a stop (the deadline, or a segment that failed), how long the others may take to finish their request
STOP_GRACE_SECONDS = 2.0
CHECKPOINT_FORMAT = "dynamodb-design-studio/migration-checkpoint"

_SERIALIZER = TypeSerializer()
_DESERIALIZER = TypeDeserializer()


class MigrationInterrupted(ModelingError):
    """The run stopped part-way (the endpoint went away); run again with the same checkpoint to resume."""

    def __init__(self, message: str, report: RunReport) -> None:
        super().__init__(message)
        self.report = report


class CheckpointMismatch(ModelingError):
    """The checkpoint belongs to another migration (other models, tables or segment count)."""


@dataclass(frozen=True)
class RunOptions:
    source_table: str
    target_table: str  # the source itself for a backfill or a rewrite
    segments: int = DEFAULT_SEGMENTS
    page_items: int = DEFAULT_PAGE_ITEMS
    items_per_second: float = DEFAULT_ITEMS_PER_SECOND
    checkpoint: Path | None = None
    # threads scanning segments at once: every segment by default; 1 for the embedded moto server, which shares
    # this process's GIL (docs/stack-notes.md §3) and is not safe with concurrent scans and writes on one table
    workers: int | None = None
    deadline_seconds: float | None = None  # the whole run; past it, MigrationInterrupted (resume from the checkpoint)
    progress_seconds: float = DEFAULT_PROGRESS_SECONDS  # how often `progress` hears the counts


@dataclass(frozen=True)
class SegmentProgress:
    segment: int
    scanned: int
    written: int
    done: bool


@dataclass(frozen=True)
class Progress:
    """The counts so far, per segment: what the script prints to stderr at a steady interval."""

    seconds: float
    segments: tuple[SegmentProgress, ...]

    @property
    def scanned(self) -> int:
        return sum(s.scanned for s in self.segments)

    @property
    def written(self) -> int:
        return sum(s.written for s in self.segments)


@dataclass(frozen=True)
class RunReport:
    scanned: int  # items read by the Scan (a page read twice after a resume counts twice)
    written: int  # items updated, moved or copied by this run
    already_done: int  # conditional writes that found the work done (a rerun, a newer dual write)
    skipped: int  # items of entities the migration leaves as they are
    unknown: int  # items no entity's OLD keys describe: left untouched, reported
    seconds: float
    complete: bool
    segments_done: int = 0
    redone: int = 0  # writes answered "done" that the read-back did not find, done again


# --- spec as JSON (the generated script carries it) -----------------------------------------------------


def spec_document(spec: MigrationSpec) -> dict[str, Any]:
    return {"old": spec.old.model_dump(mode="json", exclude_defaults=True),
            "new": spec.new.model_dump(mode="json", exclude_defaults=True),
            "old_keys": spec.old_keys.model_dump(mode="json", exclude_defaults=True),
            "new_keys": spec.new_keys.model_dump(mode="json", exclude_defaults=True),
            "mode": spec.mode.value, "actions": [[e, a.value] for e, a in spec.actions],
            "fills": [[e, a, str(v) if isinstance(v, Decimal) else v] for e, a, v in spec.fills]}


def spec_from_document(document: Mapping[str, Any]) -> MigrationSpec:
    new = Model.model_validate(document["new"])
    fills = []
    for entity, attribute, value in document["fills"]:
        found = new.entity(entity)
        declared = found.attribute(attribute) if found else None
        fills.append((entity, attribute, Decimal(str(value)) if declared and declared.type.value == "N" else value))
    return MigrationSpec(Model.model_validate(document["old"]), new, KeyDesign.model_validate(document["old_keys"]),
                         KeyDesign.model_validate(document["new_keys"]), Mode(document["mode"]),
                         tuple((e, Action(a)) for e, a in document["actions"]), tuple(fills))


def spec_fingerprint(spec: MigrationSpec) -> str:
    return hashlib.sha256(json.dumps(spec_document(spec), sort_keys=True).encode()).hexdigest()[:24]


# --- checkpoint ------------------------------------------------------------------------------------------


@dataclass
class _Checkpoint:
    path: Path | None
    header: dict[str, Any]
    segments: dict[int, dict[str, Any]]  # segment -> {"done": bool, "last_key": DynamoDB JSON or None}
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: bool = False  # the run has returned: a segment thread still waiting on a request writes nothing

    def save(self) -> None:
        if self.path is None:
            return
        document = {**self.header, "segments": {str(k): v for k, v in sorted(self.segments.items())}}
        partial = self.path.with_name(self.path.name + ".part")
        partial.write_text(json.dumps(document, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(partial, self.path)  # a crash mid-write leaves the previous checkpoint whole

    def page_done(self, segment: int, last_key: dict[str, Any] | None) -> None:
        with self.lock:
            if self.closed:
                return
            self.segments[segment] = {"done": last_key is None, "last_key": last_key}
            self.save()

    def close(self) -> None:
        with self.lock:
            self.closed = True


def _checkpoint(spec: MigrationSpec, options: RunOptions) -> _Checkpoint:
    header = {"format": CHECKPOINT_FORMAT, "spec": spec_fingerprint(spec), "source": options.source_table,
              "target": options.target_table, "segments_total": options.segments}
    fresh = _Checkpoint(options.checkpoint, header, {i: {"done": False, "last_key": None}
                                                     for i in range(options.segments)})
    if options.checkpoint is None or not options.checkpoint.is_file():
        return fresh
    try:
        saved = json.loads(options.checkpoint.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise CheckpointMismatch(f"{options.checkpoint} is not a readable checkpoint; move it away to start "
                                 "over") from None
    if {k: saved.get(k) for k in header} != header:
        raise CheckpointMismatch(f"{options.checkpoint} is the checkpoint of another migration (other models, "
                                 "tables or segment count); use another file, or move it away to start over")
    fresh.segments = {int(k): v for k, v in saved.get("segments", {}).items()}
    return fresh


# --- rate limit ------------------------------------------------------------------------------------------


class _TokenBucket:
    """At most `rate` writes per second on average, in bursts of at most one second's worth."""

    def __init__(self, rate: float) -> None:
        self.rate = max(rate, 0.001)
        self.tokens = min(self.rate, 1.0)
        self.updated = time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> None:
        while True:
            with self.lock:
                now = time.monotonic()
                self.tokens = min(self.rate, self.tokens + (now - self.updated) * self.rate)
                self.updated = now
                if self.tokens >= 1:
                    self.tokens -= 1
                    return
                wait = (1 - self.tokens) / self.rate
            time.sleep(wait)


# --- the run ---------------------------------------------------------------------------------------------


@dataclass
class _Counts:
    scanned: int = 0
    written: int = 0
    already_done: int = 0
    skipped: int = 0
    unknown: int = 0
    redone: int = 0
    by_segment: dict[int, list[int]] = field(default_factory=dict)  # segment -> [scanned, written]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, segment: int | None = None, **values: int) -> None:
        with self.lock:
            for name, value in values.items():
                setattr(self, name, getattr(self, name) + value)
            if segment is not None:
                mine = self.by_segment.setdefault(segment, [0, 0])
                mine[0] += values.get("scanned", 0)
                mine[1] += values.get("written", 0) + values.get("redone", 0)

    def progress(self, seconds: float, segments: int, done: Callable[[int], bool]) -> Progress:
        with self.lock:
            mine = {i: self.by_segment.get(i, [0, 0]) for i in range(segments)}
            return Progress(seconds, tuple(SegmentProgress(i, mine[i][0], mine[i][1], done(i))
                                           for i in range(segments)))


def run_migration(client: Any, spec: MigrationSpec, options: RunOptions,
                  before_write: Callable[[], None] | None = None,
                  progress: Callable[[Progress], None] | None = None) -> RunReport:
    """Migrate every item of the source table once; MigrationInterrupted (resumable) when the endpoint fails
    or the deadline passes.

    `before_write` runs before the first write and after every page (the rehearsal checks there that both
    tables are still the product's own); whatever it raises stops the run. `progress` hears the counts every
    `options.progress_seconds` while the run goes on, and once at its end.
    """
    if spec.mode is Mode.NONE:
        return RunReport(0, 0, 0, 0, 0, 0.0, True, options.segments)
    if spec.mode is not Mode.NEW_TABLE and options.target_table != options.source_table:
        raise ModelingError("a backfill or a rewrite changes the items in their own table: give the same table")
    if spec.mode is Mode.NEW_TABLE and options.target_table == options.source_table:
        raise ModelingError("a new-table migration needs a target table other than the source")
    checkpoint = _checkpoint(spec, options)
    if before_write is not None:
        before_write()
    counts, bucket = _Counts(), _TokenBucket(options.items_per_second)
    started = time.perf_counter()
    pending = [s for s in range(options.segments) if not checkpoint.segments.get(s, {}).get("done")]
    failures: list[str] = []
    unexpected: list[Exception] = []
    stop = threading.Event()

    def segment(number: int) -> None:
        try:
            _run_segment(client, spec, options, number, checkpoint, counts, bucket, before_write, stop)
        except (ClientError, BotoCoreError, ModelingError) as exc:  # RetriesExhausted is a ModelingError
            failures.append(f"segment {number}: {_describe(exc)}")
            stop.set()
        except Exception as exc:  # a bug: raised again in the caller's thread, as the thread pool did
            unexpected.append(exc)
            stop.set()

    def is_done(number: int) -> bool:
        return bool(checkpoint.segments.get(number, {}).get("done"))

    def tell() -> None:
        if progress is not None:
            progress(counts.progress(time.perf_counter() - started, options.segments, is_done))

    deadline = None if options.deadline_seconds is None else started + options.deadline_seconds
    queue = list(pending)
    queue_lock = threading.Lock()

    def worker() -> None:
        while not stop.is_set():
            with queue_lock:
                if not queue:
                    return
                number = queue.pop(0)
            segment(number)

    # daemon threads: past the deadline the run returns although a request the endpoint holds still has a
    # thread waiting on it (it ends at its own request deadline, and the closed checkpoint ignores it)
    threads = [threading.Thread(target=worker, name=f"migration-{i}", daemon=True)
               for i in range(max(1, min(len(pending), options.workers or len(pending))))]
    for thread in threads:
        thread.start()
    interval = max(options.progress_seconds, 0.1)
    next_report, stopped_at = started + interval, None
    while alive := [t for t in threads if t.is_alive()]:
        now = time.perf_counter()
        if deadline is not None and now >= deadline and not stop.is_set():
            failures.insert(0, f"the deadline of {options.deadline_seconds:g} s passed")
            stop.set()  # every segment stops before its next request; its page is read again on resume
        if stop.is_set():
            stopped_at = stopped_at or now
            if now - stopped_at >= STOP_GRACE_SECONDS:
                break  # a request still held by the endpoint: leave it, the checkpoint is whole
        if now >= next_report:
            tell()
            next_report += interval
        wake = min(next_report, deadline if deadline is not None and not stop.is_set() else next_report)
        alive[0].join(timeout=max(0.01, min(wake - now, STOP_GRACE_SECONDS)))
    checkpoint.close()
    if unexpected:
        raise unexpected[0]
    tell()
    done = sum(1 for s in range(options.segments) if is_done(s))
    report = RunReport(counts.scanned, counts.written, counts.already_done, counts.skipped, counts.unknown,
                       time.perf_counter() - started, not failures and done == options.segments, done,
                       counts.redone)
    if failures:
        raise MigrationInterrupted(f"the migration stopped ({failures[0]}); {done} of {options.segments} segments "
                                   "are done. Nothing is lost: run it again with the same checkpoint to resume",
                                   report)
    return report


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return f"{error.get('Code', 'error')}: {error.get('Message', '')}"
    return str(exc)[:200]


def _run_segment(client: Any, spec: MigrationSpec, options: RunOptions, number: int, checkpoint: _Checkpoint,
                 counts: _Counts, bucket: _TokenBucket, before_write: Callable[[], None] | None,
                 stop: threading.Event) -> None:
    state = checkpoint.segments.get(number, {"done": False, "last_key": None})
    arguments: dict[str, Any] = {"TableName": options.source_table, "Segment": number,
                                 "TotalSegments": options.segments, "Limit": options.page_items}
    if state.get("last_key"):
        arguments["ExclusiveStartKey"] = state["last_key"]
    while not stop.is_set():
        page = client.scan(**arguments)
        migrated: list[dict[str, Any]] = []
        for raw in page.get("Items", []):
            if stop.is_set():
                return  # another segment failed, or the deadline passed: this page is read again on resume
            counts.add(number, scanned=1)
            item = from_dynamodb(raw)
            if _migrate_item(client, spec, options, item, counts, bucket, number):
                migrated.append(item)
        if stop.is_set():
            return
        # the checkpoint says "done up to here" only once the endpoint shows it (see the module's docstring)
        _confirm(client, spec, options, number, migrated, counts, bucket, stop)
        if stop.is_set():
            return
        last_key = page.get("LastEvaluatedKey")
        checkpoint.page_done(number, last_key)
        if before_write is not None:
            before_write()
        if not last_key:
            return
        arguments["ExclusiveStartKey"] = last_key


def _confirm(client: Any, spec: MigrationSpec, options: RunOptions, number: int, migrated: list[dict[str, Any]],
             counts: _Counts, bucket: _TokenBucket, stop: threading.Event) -> None:
    """Read back every item the page wrote and migrate again any not in its NEW form, until all are;
    MigrationError (the run stops, the checkpoint stays before this page) if one never is."""
    def send(left: list[dict[str, Any]]) -> list[dict[str, Any]]:
        unsettled = _unsettled(client, spec, options, left)
        for current in unsettled:
            if stop.is_set():
                return []  # the caller sees the stop and leaves the checkpoint where it is
            _migrate_item(client, spec, options, current, counts, bucket, number, redo=True)
        return unsettled

    if not migrated:
        return
    try:
        send_until_done(send, migrated, what=f"segment {number}: the read-back")
    except RetriesExhausted as exc:
        raise MigrationError(f"{len(exc.left)} item(s) of segment {number} were written {exc.attempts} times and "
                             "still not found in their NEW form when read back (the endpoint does not keep what "
                             "it answers, or the application changes them meanwhile); their page stays out of "
                             "the checkpoint: run again") from None


def _unsettled(client: Any, spec: MigrationSpec, options: RunOptions,
               items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items (as they are now, in their OLD form) that still need the migration, by strongly consistent
    reads: still under their OLD key (a move), lacking the NEW attributes (a backfill), or absent from the NEW
    table while still in the OLD one (a copy). An item deleted meanwhile needs nothing."""
    current = _read_items(client, options.source_table, spec.old_keys,
                          [primary_key(spec.old_keys, item) for item in items])
    left: list[dict[str, Any]] = []
    copies: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (the OLD item, its NEW key)
    for item in items:
        now = current.get(key_text(primary_key(spec.old_keys, item)))
        entity = entity_of(spec, now) if now is not None else None
        if now is None or entity is None:
            continue
        try:
            target = new_item(spec, entity, now)
        except KeyTemplateError:
            left.append(now)  # changed meanwhile so that it lacks a NEW key's value: _migrate_item says so
            continue
        action = spec.action(entity)
        if action is Action.COPY:
            copies.append((now, primary_key(spec.new_keys, target)))
        elif action is Action.MOVE and primary_key(spec.new_keys, target) != primary_key(spec.old_keys, now):
            left.append(now)  # still under its OLD key
        elif action is not Action.SKIP and target != now:
            left.append(now)  # updated in place, but not (or no longer) to its NEW form
    if copies:
        found = _read_items(client, options.target_table, spec.new_keys, [key for _, key in copies])
        left += [item for item, key in copies if key_text(key) not in found]
    return left


def _read_items(client: Any, table: str, keys_design: KeyDesign, keys: list[dict[str, Any]]) -> dict[str, Any]:
    """The items under `keys` that exist, by key_text, read with BatchGetItem's strongly consistent reads."""
    found: dict[str, dict[str, Any]] = {}
    unique = list({key_text(key): key for key in keys}.values())  # BatchGetItem refuses a key twice
    for start in range(0, len(unique), MAX_BATCH_GET_ITEMS):
        def send(left: list[dict[str, Any]]) -> list[dict[str, Any]]:
            answer = client.batch_get_item(RequestItems={table: {"Keys": [to_dynamodb(k) for k in left],
                                                                 "ConsistentRead": True}})
            for raw in answer.get("Responses", {}).get(table, []):
                item = from_dynamodb(raw)
                found[key_text(primary_key(keys_design, item))] = item
            return [from_dynamodb(k) for k in answer.get("UnprocessedKeys", {}).get(table, {}).get("Keys", [])]

        send_until_done(send, unique[start:start + MAX_BATCH_GET_ITEMS], what=f"reading back items of {table}")
    return found


def from_dynamodb(item: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _DESERIALIZER.deserialize(value) for name, value in item.items()}


def to_dynamodb(item: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _SERIALIZER.serialize(value) for name, value in item.items()}


def _migrate_item(client: Any, spec: MigrationSpec, options: RunOptions, item: dict[str, Any], counts: _Counts,
                  bucket: _TokenBucket, segment: int | None = None, redo: bool = False) -> bool:
    """Migrate one item; True if a write was sent for it (then it is read back before the checkpoint).
    `redo`: the read-back found it not done although a write said so; counted as `redone` when written again."""
    entity = entity_of(spec, item)
    if entity is None:
        # already in the NEW form (a rewrite sees the items it moved), else an item no model describes
        moved = spec.mode is Mode.REWRITE and entity_of(spec, item, spec.new_keys, spec.new) is not None
        counts.add(segment, **({"already_done": 1} if moved else {"unknown": 1}))
        return False
    action = spec.action(entity)
    if action is Action.SKIP:
        counts.add(segment, skipped=1)
        return False
    try:
        target = new_item(spec, entity, item)
    except KeyTemplateError as exc:  # never guess a key: stop here, the checkpoint keeps what is done
        raise MigrationError(f"a {entity} item cannot get its NEW key ({exc}); give the attribute a value "
                             "(--fill Entity.attribute=value), then run again") from None
    if action is Action.UPDATE and target == item:
        counts.add(segment, already_done=1)
        return False  # nothing written: nothing to read back
    bucket.take()
    done = {Action.UPDATE: _update, Action.MOVE: _move, Action.COPY: _copy}[action](client, spec, options, item,
                                                                                  target)
    counts.add(segment, **({"already_done": 1} if not done else {"redone": 1} if redo else {"written": 1}))
    return True


def _condition_failed(exc: ClientError) -> bool:
    return bool(exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException")


def _update(client: Any, spec: MigrationSpec, options: RunOptions, item: dict[str, Any],
            target: dict[str, Any]) -> bool:
    """SET what changed, REMOVE old derived keys the new item lacks; only while the item exists."""
    key = primary_key(spec.old_keys, item)
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets, removes = [], []
    for position, (name, value) in enumerate(sorted(target.items())):
        if name in key or item.get(name) == value:
            continue
        names[f"#s{position}"] = name
        values[f":s{position}"] = _SERIALIZER.serialize(value)
        sets.append(f"#s{position} = :s{position}")
    for position, name in enumerate(sorted(set(item) - set(target) - set(key))):
        names[f"#r{position}"] = name
        removes.append(f"#r{position}")
    names["#pk"] = spec.old_keys.partition_key.name
    expression = " ".join(part for part in (f"SET {', '.join(sets)}" if sets else "",
                                            f"REMOVE {', '.join(removes)}" if removes else "") if part)
    if not expression:
        return False  # nothing differs but the key attributes' order: the item is in its NEW form already
    arguments: dict[str, Any] = {"TableName": options.target_table, "Key": to_dynamodb(key),
                                 "UpdateExpression": expression, "ConditionExpression": "attribute_exists(#pk)",
                                 "ExpressionAttributeNames": names}
    if values:
        arguments["ExpressionAttributeValues"] = values
    try:
        client.update_item(**arguments)
    except ClientError as exc:
        if _condition_failed(exc):
            return False  # deleted by the application meanwhile: nothing to backfill
        raise
    return True


def _move(client: Any, spec: MigrationSpec, options: RunOptions, item: dict[str, Any], target: dict[str, Any]) -> bool:
    """Put under the new key (only if absent) and delete the old key (only if present), atomically."""
    old_key, new_key = primary_key(spec.old_keys, item), primary_key(spec.new_keys, target)
    if old_key == new_key:
        return _update(client, spec, options, item, target)
    pk = spec.new_keys.partition_key.name
    actions = [{"Put": {"TableName": options.target_table, "Item": to_dynamodb(target),
                        "ConditionExpression": "attribute_not_exists(#pk)", "ExpressionAttributeNames": {"#pk": pk}}},
               {"Delete": {"TableName": options.target_table, "Key": to_dynamodb(old_key),
                           "ConditionExpression": "attribute_exists(#pk)",
                           "ExpressionAttributeNames": {"#pk": spec.old_keys.partition_key.name}}}]
    outcome: dict[str, bool] = {}

    def send(left: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        try:
            client.transact_write_items(TransactItems=left)
        except ClientError as exc:
            reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
            if "TransactionConflict" in reasons:
                return left  # another writer held the item: send again after a backoff
            if "ConditionalCheckFailed" in reasons:
                outcome["done_before"] = True
                return None
            raise
        return None

    send_until_done(send, actions, what=f"moving an item of {options.target_table}")
    if outcome.get("done_before"):
        _delete_if_moved(client, spec, options, old_key, new_key)
        return False
    return True


def _delete_if_moved(client: Any, spec: MigrationSpec, options: RunOptions, old_key: dict[str, Any],
                     new_key: dict[str, Any]) -> None:
    """The new key exists already (a rerun, or the application wrote it): the old copy goes, never the new."""
    found = client.get_item(TableName=options.target_table, Key=to_dynamodb(new_key), ConsistentRead=True)
    if "Item" not in found:
        return  # the old item was deleted meanwhile, nothing exists under the new key: nothing to do
    try:
        client.delete_item(TableName=options.target_table, Key=to_dynamodb(old_key),
                           ConditionExpression="attribute_exists(#pk)",
                           ExpressionAttributeNames={"#pk": spec.old_keys.partition_key.name})
    except ClientError as exc:
        if not _condition_failed(exc):
            raise


def _copy(client: Any, spec: MigrationSpec, options: RunOptions, item: dict[str, Any], target: dict[str, Any]) -> bool:
    try:
        client.put_item(TableName=options.target_table, Item=to_dynamodb(target),
                        ConditionExpression="attribute_not_exists(#pk)",
                        ExpressionAttributeNames={"#pk": spec.new_keys.partition_key.name})
    except ClientError as exc:
        if _condition_failed(exc):
            return False  # copied by an earlier run, or a newer dual write is there: never overwritten
        raise
    return True


# --- phase 2: dual writes and the consistency check ----------------------------------------------------


@dataclass
class DualWriter:
    """The application's writes during a new-table migration: to the OLD table, then through a retrying queue to
    the NEW one. A queued write that fails is sent again with backoff (modeling.endpoint.retry), never dropped."""

    client: Any
    spec: MigrationSpec
    source_table: str
    target_table: str
    queue: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # ("put" | "delete", item or key)
    sent: int = 0
    retries: int = 0

    def put(self, entity: str, attributes: Mapping[str, Any]) -> None:
        """Write an item as the OLD design stores it, and queue it for the NEW table."""
        from modeling.data.sample_data import item_keys
        old_form = {**attributes, **_typed_keys(self.spec.old_keys, item_keys(self.spec.old_keys, entity,
                                                                              dict(attributes)))}
        self.client.put_item(TableName=self.source_table, Item=to_dynamodb(old_form))
        self.queue.append(("put", new_item(self.spec, entity, old_form)))

    def delete(self, entity: str, attributes: Mapping[str, Any]) -> None:
        from modeling.data.sample_data import item_keys
        old_form = {**attributes, **_typed_keys(self.spec.old_keys, item_keys(self.spec.old_keys, entity,
                                                                              dict(attributes)))}
        self.client.delete_item(TableName=self.source_table, Key=to_dynamodb(primary_key(self.spec.old_keys,
                                                                                          old_form)))
        self.queue.append(("delete", primary_key(self.spec.new_keys, new_item(self.spec, entity, old_form))))

    def drain(self, sleep: Callable[[float], None] = time.sleep) -> int:
        """Send every queued write to the NEW table; returns the sends it took (RetriesExhausted if it cannot)."""
        def send(left: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
            failed = []
            for kind, value in left:
                try:
                    if kind == "put":
                        self.client.put_item(TableName=self.target_table, Item=to_dynamodb(value))
                    else:
                        self.client.delete_item(TableName=self.target_table, Key=to_dynamodb(value))
                    self.sent += 1
                except (ClientError, BotoCoreError):
                    failed.append((kind, value))
            self.retries += len(failed)
            return failed

        if not self.queue:
            return 0
        rounds = send_until_done(send, list(self.queue), what="the dual-write queue", sleep=sleep)
        self.queue.clear()
        return rounds


def _typed_keys(key_design: KeyDesign, keys: Mapping[str, str]) -> dict[str, Any]:
    from modeling.interop.iac_request import key_attributes
    numeric = {a.name for a in key_attributes(key_design) if a.type.value == "N"}
    return {n: Decimal(v) if n in numeric else v for n, v in keys.items()}


@dataclass(frozen=True)
class Consistency:
    """OLD (transformed to the NEW form) against NEW, item by item, by primary key."""

    source_items: int
    target_items: int
    missing: tuple[str, ...]  # keys in OLD, not in NEW
    extra: tuple[str, ...]  # keys in NEW, not in OLD
    different: tuple[str, ...]  # same key, other attributes

    @property
    def consistent(self) -> bool:
        return not (self.missing or self.extra or self.different)


def scan_all(client: Any, table: str) -> Iterator[dict[str, Any]]:
    arguments: dict[str, Any] = {"TableName": table}
    while True:
        page = client.scan(**arguments)
        for raw in page.get("Items", []):
            yield from_dynamodb(raw)
        if not page.get("LastEvaluatedKey"):
            return
        arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def key_text(key: Mapping[str, Any]) -> str:
    """A primary key as stable text, for counting items by key."""
    return json.dumps({k: str(v) for k, v in sorted(key.items())})


def check_consistency(client: Any, spec: MigrationSpec, source_table: str, target_table: str,
                      shown: int = 20) -> Consistency:
    expected: dict[str, dict[str, Any]] = {}
    source_count = 0
    for item in scan_all(client, source_table):
        source_count += 1
        entity = entity_of(spec, item)
        if entity is not None and spec.action(entity) is not Action.SKIP:
            transformed = new_item(spec, entity, item)
            expected[key_text(primary_key(spec.new_keys, transformed))] = transformed
    found: dict[str, dict[str, Any]] = {}
    for item in scan_all(client, target_table):
        found[key_text(primary_key(spec.new_keys, item))] = item
    missing = sorted(set(expected) - set(found))
    extra = sorted(set(found) - set(expected))
    different = sorted(k for k in set(expected) & set(found) if expected[k] != found[k])
    return Consistency(source_count, len(found), tuple(missing[:shown]), tuple(extra[:shown]),
                       tuple(different[:shown]))


def keys_by_form(client: Any, spec: MigrationSpec, table: str, keys: KeyDesign, model: Model) -> list[str]:
    """Every item's primary key under `keys`, as text (duplicates kept): what the rehearsal counts."""
    del model  # the key names suffice; kept for symmetry with entity_of
    return [key_text(primary_key(keys, item)) for item in scan_all(client, table)]


def old_derived_names(spec: MigrationSpec) -> set[str]:
    return derived_key_names(spec.old_keys, spec.old)


# --- in-place index changes (UpdateTable), for the rehearsal's own tables ---------------------------------


def apply_index_changes(client: Any, table: str, spec: MigrationSpec, billing_mode: str,
                        provisioned_units: int = 10, wait_seconds: float = 60.0) -> tuple[str, ...]:
    """Create the GSIs NEW adds or changes and delete those it drops or changes, one UpdateTable each (AWS allows
    one index creation or deletion per UpdateTable); returns what was done. The request comes from the one
    CreateTable builder (modeling.interop.iac_request.table_request)."""
    from modeling.interop.iac_request import table_request, uniform_capacity
    from modeling.model import BillingMode

    old = {i.name: i for i in spec.old_keys.global_secondary_indexes}
    new = {i.name: i for i in spec.new_keys.global_secondary_indexes}
    provisioned = billing_mode == BillingMode.PROVISIONED.value
    capacity = uniform_capacity(spec.new_keys, provisioned_units) if provisioned else None
    request = table_request(table, BillingMode(billing_mode), spec.new_keys, capacity)
    definitions = {d["AttributeName"]: d for d in request["AttributeDefinitions"]}
    done: list[str] = []
    for name in sorted(n for n in old if old[n] != new.get(n)):
        client.update_table(TableName=table, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": name}}])
        _wait_active(client, table, wait_seconds)
        done.append(f"deleted {name}")
    for name in sorted(n for n in new if old.get(n) != new[n]):
        index = next(i for i in request["GlobalSecondaryIndexes"] if i["IndexName"] == name)
        used = {k["AttributeName"] for k in index["KeySchema"]}
        client.update_table(TableName=table, AttributeDefinitions=[definitions[a] for a in sorted(used)],
                            GlobalSecondaryIndexUpdates=[{"Create": index}])
        _wait_active(client, table, wait_seconds)
        done.append(f"created {name}")
    return tuple(done)


def _wait_active(client: Any, table: str, wait_seconds: float) -> None:
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        described = client.describe_table(TableName=table)["Table"]
        statuses = [described.get("TableStatus")] + [i.get("IndexStatus") for i in
                                                     described.get("GlobalSecondaryIndexes", [])]
        if all(s == "ACTIVE" for s in statuses):
            return
        time.sleep(0.2)
    raise ModelingError(f"the table {table} is not ACTIVE after {wait_seconds:g} s; wait, then run again")
