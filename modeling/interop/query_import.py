"""A schema's model plus the access patterns its query log shows, with traffic from the log's call counts.

Each logged SELECT, INSERT, UPDATE and DELETE becomes a proposed access pattern (`modeling.interop.query_patterns`)
named `verb_object_by_key` (`get_customer_by_id`, `list_orders_by_customer_id`); statements that propose the
same pattern (the same shape with other literals) are one pattern with their calls added. Traffic: average
requests per second = calls / the log's window in seconds; peak = average x the stated peak-to-average ratio.
Statements no access pattern can serve are listed with the reason, the DynamoDB alternative, their calls and
their share of the calls that read or write data (BEGIN, COMMIT and the like left out): among them stored
procedures and functions (`CALL proc(...)`, `SELECT func(...)`) and views that are more than one table; a
simple view is read through to its table (`modeling.interop.query_views`). Other statements (BEGIN, SET,
`SELECT @@session...`, catalog queries) are counted as skipped.

Items one read returns come from the log's rows per call when it has them (pg_stat_statements' `rows`,
MySQL's `SUM_ROWS_SENT`); for a read by a foreign key, rows per call also give the relationship's children
per parent when no row counts did (the planner reads the collection the relationship says).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from modeling.errors import ModelFileError, Problem
from modeling.interop.query_log import QueryLog
from modeling.interop.query_patterns import ALTERNATIVES, PROCEDURE, UNPARSED, Proposal, Unmappable, propose
from modeling.interop.query_rows import LoggedRead, log_cardinalities, log_counts, read_relationship
from modeling.interop.query_views import View, through_views
from modeling.interop.sql_import import SqlImport, singular, snake
from modeling.limits import MAX_ITEMS_PER_REQUEST, MAX_REQUESTS_PER_SECOND
from modeling.model import Model, PatternKind
from modeling.model_file import document_problems, model_from_document, model_to_document

DEFAULT_WINDOW_HOURS = 24.0
DEFAULT_PEAK_TO_AVERAGE = 2.0
DEFAULT_EXPECTED_ITEMS = 10.0
SYSTEM_SCHEMAS = frozenset({"pg_catalog", "information_schema", "performance_schema", "mysql", "sys"})
_DML = (exp.Select, exp.Insert, exp.Update, exp.Delete, exp.Union, exp.Intersect, exp.Except)
_CALL = re.compile(r"^\s*(?:CALL|EXEC|EXECUTE)\s+([`\"\w.$]+)", re.IGNORECASE)
# MySQL's digest writes `@@session.x` as @@`session` . `x`, which sqlglot does not read
_SESSION_VARIABLE = re.compile(r"@@\s*`?(\w+)`?(?:\s*\.\s*`?(\w+)`?)?")
_READS_SETTINGS = re.compile(r"^\s*SELECT\s+@@", re.IGNORECASE)
# functions of the database itself (not the application's): a call to one touches no data
_SYSTEM_FUNCTIONS = frozenset({"version", "current_setting", "set_config", "txid_current", "current_database",
                               "current_schema", "current_user", "session_user", "database", "connection_id",
                               "found_rows", "last_insert_id", "row_count", "sleep"})
_UNCOUNTED = frozenset({"people", "data", "media", "series", "news", "children", "staff", "equipment", "info"})


@dataclass(frozen=True)
class MappedStatement:
    pattern: str
    statement: str
    calls: int


@dataclass(frozen=True)
class UnmappedStatement:
    statement: str
    calls: int
    reason: str
    detail: str
    alternative: str
    traffic_share: float = 0.0  # calls / the calls of every statement that reads or writes data (0 to 1)


@dataclass(frozen=True)
class QueryImport:
    """The model with the proposed access patterns, and what was and was not mapped."""

    model: Model
    mapped: tuple[MappedStatement, ...]
    unmapped: tuple[UnmappedStatement, ...]
    skipped: tuple[str, ...]  # statements that read or write no table of the schema (BEGIN, SET, SELECT 1)
    inferred: tuple[str, ...]
    decisions: tuple[str, ...]
    window_hours: float
    peak_to_average: float


@dataclass
class _Group:
    proposal: Proposal
    statements: list[str]
    calls: int
    rows: float | None


def import_queries(schema: SqlImport, log: QueryLog, window_hours: float | None = None,
                   peak_to_average: float | None = None, views: Mapping[str, View] | None = None) -> QueryImport:
    """Propose access patterns from a query log; ModelFileError for a window or ratio that cannot be used.

    `views` are the schema's views (`modeling.interop.query_views.read_views`), by lower-case name."""
    inferred = list(schema.inferred)
    decisions = list(schema.decisions)
    window = _window(log, window_hours, inferred, decisions)
    ratio = _ratio(peak_to_average, decisions)
    tables = {t.name.lower(): t for t in schema.schema.tables}
    entity_of = dict(schema.entity_names)
    groups: dict[tuple[object, ...], _Group] = {}
    unmapped: list[UnmappedStatement] = []
    skipped: list[str] = []
    skipped_calls = 0
    for logged in sorted(log.statements, key=lambda s: (-s.calls, s.text)):
        statement = _parse(logged.text, log)
        if isinstance(statement, Unmappable):
            unmapped.append(UnmappedStatement(logged.text, logged.calls, statement.reason, statement.detail,
                                              statement.alternative))
            continue
        if statement is None or not isinstance(statement, _DML):
            skipped.append(logged.text)
            skipped_calls += logged.calls
            continue
        routine = _routine(statement)
        if routine is None and _touches_no_table(statement):
            skipped.append(logged.text)
            skipped_calls += logged.calls
            continue
        read = routine or through_views(statement, dict(views or {}))
        result = read if isinstance(read, Unmappable) else propose(read[0], tables, schema.model, entity_of)
        if isinstance(result, Unmappable):
            unmapped.append(UnmappedStatement(logged.text, logged.calls, result.reason, result.detail,
                                              result.alternative))
            continue
        assert not isinstance(read, Unmappable)
        result.notes += read[1]  # the views it reads through
        group = groups.setdefault(result.shape(), _Group(result, [], 0, None))
        if group.proposal is not result:  # the same pattern from another statement: keep what it says too
            group.proposal.notes += result.notes
            group.proposal.decisions += result.decisions
        group.statements.append(logged.text)
        group.calls += logged.calls
        if logged.rows is not None:
            group.rows = (group.rows or 0.0) + logged.rows
    named = _names(list(groups.values()), schema)
    patterns = [_pattern(name, group, schema, window, ratio, inferred, decisions) for name, group in named]
    reads = [LoggedRead(name, group.proposal, group.rows, group.calls) for name, group in named]
    cardinalities = log_cardinalities(reads, schema, inferred)
    model, dropped = _model(schema.model, patterns, cardinalities, log_counts(schema.model, cardinalities, inferred))
    mapped = []
    for name, group in named:
        if name in dropped:
            unmapped += [UnmappedStatement(s, group.calls, UNPARSED, dropped[name], ALTERNATIVES[UNPARSED])
                         for s in group.statements]
        else:
            mapped += [MappedStatement(name, s, group.calls) for s in group.statements]
    if any(p["kind"] in ("read_one", "read_many") for p in patterns):
        decisions.append("Reads are eventually consistent (half the read cost); mark strong the ones that must see "
                         "a write made just before (never on a GSI).")
    total_calls = sum(s.calls for s in log.statements) - skipped_calls  # the calls that read or write data
    shared = [replace(u, traffic_share=u.calls / total_calls if total_calls else 0.0) for u in unmapped]
    return QueryImport(model, tuple(mapped), tuple(shared), tuple(skipped), tuple(inferred), tuple(decisions),
                       window, ratio)


def _window(log: QueryLog, window_hours: float | None, inferred: list[str], decisions: list[str]) -> float:
    if window_hours is not None:
        if not 0 < window_hours <= 24 * 366 * 10:
            raise ModelFileError([Problem("--window-hours", f"{window_hours:g} hours is not a time window",
                                          "give the hours the log covers (since pg_stat_statements_reset())")])
        return window_hours
    if log.window_hours:
        inferred.append(f"The log covers {log.window_hours:,.1f} hours (FIRST_SEEN to LAST_SEEN): traffic is calls "
                        "over that window.")
        return log.window_hours
    decisions.append(f"The log does not say how long it covers, so traffic assumes {DEFAULT_WINDOW_HOURS:g} hours; "
                     "give the hours it covers (--window-hours; since pg_stat_statements_reset()).")
    return DEFAULT_WINDOW_HOURS


def _ratio(peak_to_average: float | None, decisions: list[str]) -> float:
    if peak_to_average is None:
        decisions.append(f"Peak traffic assumes {DEFAULT_PEAK_TO_AVERAGE:g} x the average; give the ratio of your "
                         "busiest hour (--peak-to-average).")
        return DEFAULT_PEAK_TO_AVERAGE
    if not 1 <= peak_to_average <= 10_000:
        raise ModelFileError([Problem("--peak-to-average", f"{peak_to_average:g} is not a peak-to-average ratio",
                                      "give a number of at least 1 (the peak is never below the average)")])
    return peak_to_average


def _parse(text: str, log: QueryLog) -> exp.Expression | Unmappable | None:
    call = _CALL.match(text)
    if call:  # sqlglot reads CALL as an opaque command (and warns): the procedure's name is all there is
        name = call.group(1).replace("`", "").replace('"', "")
        return Unmappable(PROCEDURE, f"CALL {name} runs a stored procedure inside the database")
    # MySQL digests write a list of values as `(...)`: one placeholder keeps it parseable
    normalised = text.replace("(...)", "(?)") if log.dialect.value == "mysql" else text
    normalised = _SESSION_VARIABLE.sub(lambda m: "@@" + ".".join(g for g in m.groups() if g), normalised)
    try:
        statements = [s for s in sqlglot.parse(normalised, read=log.dialect.value) if isinstance(s, exp.Expression)]
    except (SqlglotError, RecursionError) as exc:
        if _READS_SETTINGS.match(text) and not re.search(r"\bFROM\b", text, re.IGNORECASE):
            return None  # a driver reading session settings: no data
        return Unmappable(UNPARSED, f"sqlglot cannot parse it: {str(exc).splitlines()[0][:120]}")
    statements = [s for s in statements if not isinstance(s, exp.Semicolon)]
    if len(statements) > 1:
        return Unmappable(UNPARSED, f"one entry holds {len(statements)} statements; log them one by one")
    if not statements:
        return None
    return statements[0]


def _routine(statement: exp.Expression) -> Unmappable | None:
    """A stored function the statement calls: `SELECT func($1)` or `SELECT * FROM func($1)`."""
    sources = [t.this for t in statement.find_all(exp.Table) if isinstance(t.this, exp.Func)]
    if not sources and not any(t.name for t in statement.find_all(exp.Table)):
        sources = [f for f in statement.find_all(exp.Anonymous) if not _is_system_function(f.name)]
    if not sources:
        return None
    name = sources[0].name if isinstance(sources[0], exp.Anonymous) else sources[0].sql_name()
    return Unmappable(PROCEDURE, f"{name}(...) is a function stored in the database: what it reads or writes is "
                                 "not in the log")


def _is_system_function(name: str) -> bool:
    lower = name.lower()
    return lower in _SYSTEM_FUNCTIONS or lower.startswith(("pg_", "current_"))


def _touches_no_table(statement: exp.Expression) -> bool:
    tables = list(statement.find_all(exp.Table))
    return not tables or all(t.db.lower() in SYSTEM_SCHEMAS or t.name.lower().startswith("pg_") for t in tables)


def _names(groups: list[_Group], schema: SqlImport) -> list[tuple[str, _Group]]:
    """`verb_object_by_key`; a name two different shapes would share gets `_2`, `_3` (busiest first)."""
    taken: dict[str, int] = {}
    named = []
    for group in sorted(groups, key=lambda g: (-g.calls, g.statements[0])):
        base = _base_name(group.proposal, schema)[:250]
        count = taken.get(base, 0) + 1
        taken[base] = count
        named.append((base if count == 1 else f"{base}_{count}", group))
    return named


def _base_name(proposal: Proposal, schema: SqlImport) -> str:
    entity = schema.entity_of(proposal.tables[0]) or proposal.tables[0]
    if len(proposal.tables) > 1:
        obj = f"{snake(entity)}_with_{_plural(snake(proposal.tables[1]))}"
    elif proposal.kind in (PatternKind.READ_MANY, PatternKind.BATCH_READ, PatternKind.BATCH_WRITE):
        obj = _plural(snake(proposal.tables[0]))  # get_films_by_id, whether the table is film or films
    else:
        obj = snake(entity)
    if proposal.kind is PatternKind.UPDATE and 1 <= len(proposal.changed) <= 2:
        obj += "_" + "_".join(snake(c) for c in proposal.changed)
    keys = [snake(k) for k in proposal.inputs or [name for name, _ in proposal.filters]]
    own_key = f"{snake(entity)}_id"  # get_customer_by_id, not get_customer_by_customer_id
    keys = ["id" if k == own_key and len(proposal.tables) == 1 else k for k in keys]
    name = f"{proposal.verb}_{obj}"
    return name + ("_by_" + "_and_".join(keys) if keys else "")


def _plural(name: str) -> str:
    """`film` -> `films`, `category` -> `categories`; a name already plural (`order_items`) stays."""
    *first, last = name.split("_")
    if singular(last) != last or last in _UNCOUNTED or not last:
        return name
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "es" if last.endswith(("s", "x", "z", "ch", "sh")) else "s"
    return "_".join([*first, last])


def _pattern(name: str, group: _Group, schema: SqlImport, window: float, ratio: float, inferred: list[str],
             decisions: list[str]) -> dict[str, Any]:
    proposal = group.proposal
    entities = [schema.entity_of(t) or t for t in proposal.tables]
    average = min(MAX_REQUESTS_PER_SECOND, float(f"{group.calls / (window * 3600):.4g}"))
    peak = min(MAX_REQUESTS_PER_SECOND, float(f"{average * ratio:.4g}"))
    shown = group.statements[0] if len(group.statements[0]) <= 300 else group.statements[0][:297] + "..."
    more = f" and {len(group.statements) - 1} more like it" if len(group.statements) > 1 else ""
    pattern: dict[str, Any] = {
        "name": name, "kind": proposal.kind.value, "entities": entities, "inputs": list(proposal.inputs),
        "description": f"From the query log ({group.calls:,} calls{more}): {shown}",
        "traffic": {"peak_requests_per_second": peak, "average_requests_per_second": average}}
    if proposal.range_attribute and proposal.kind is PatternKind.READ_MANY:
        pattern["range_condition"] = {"attribute": proposal.range_attribute,
                                      "operator": (proposal.range_operator or "equals").__str__()}
    if proposal.sort_order.value != "ascending" and proposal.kind is PatternKind.READ_MANY:
        pattern["sort_order"] = proposal.sort_order.value
    if proposal.filters:
        pattern["filters"] = [{"attribute": a, "equals": v} for a, v in proposal.filters]
    if proposal.page_size and proposal.kind is PatternKind.READ_MANY:
        pattern["page_size"] = proposal.page_size
    if proposal.changed:
        pattern["changed_attributes"] = list(dict.fromkeys(proposal.changed))
    expected = _expected_items(proposal, group, schema, name, inferred, decisions)
    if expected is not None:
        pattern["expected_items"] = expected
    inferred += [f"{name}: {note}." for note in dict.fromkeys(proposal.notes)]
    decisions += [f"{name}: {note}." for note in dict.fromkeys(proposal.decisions)]
    return pattern


def _expected_items(proposal: Proposal, group: _Group, schema: SqlImport, name: str, inferred: list[str],
                    decisions: list[str]) -> float | None:
    kind = proposal.kind
    if kind not in (PatternKind.READ_MANY, PatternKind.BATCH_READ, PatternKind.BATCH_WRITE):
        return None
    per_call = group.rows / group.calls if group.rows is not None and group.calls else None
    estimate = per_call if per_call else proposal.batch_items or _children(proposal, schema)
    if per_call:
        inferred.append(f"{name}: the log returns {per_call:,.3g} rows per call ({group.rows or 0:,.0f} rows / "
                        f"{group.calls:,} calls): it expects that many items per request.")
    if estimate is None:
        estimate = float(proposal.page_size or DEFAULT_EXPECTED_ITEMS)
        decisions.append(f"{name}: the log gives no rows per call, so it expects {estimate:g} items per request; "
                         "set expected_items.")
    if proposal.page_size and kind is PatternKind.READ_MANY:
        estimate = min(estimate, float(proposal.page_size))
    return min(MAX_ITEMS_PER_REQUEST, float(f"{max(estimate, 0.0):.4g}"))


def _children(proposal: Proposal, schema: SqlImport) -> float | None:
    """Children per parent when the inputs are a relationship's foreign key (from the row counts)."""
    relationship = read_relationship(proposal, schema)
    if relationship is None or "cardinality" not in relationship.model_fields_set:
        return None
    extra = 1.0 if len(proposal.tables) > 1 else 0.0  # an item-collection read returns the parent too
    return relationship.cardinality.mean + extra


def _model(base: Model, patterns: list[dict[str, Any]], cardinalities: dict[str, float],
           counts: dict[str, int]) -> tuple[Model, dict[str, str]]:
    """The model with the patterns that validate; the others are returned with their first problem."""
    document = model_to_document(base)
    for entity in document.get("entities", []):
        entity["item_count"] = counts.get(entity["name"], entity["item_count"])
    for relationship in document.get("relationships", []):
        if relationship["name"] in cardinalities:
            cardinality = {**relationship.get("cardinality", {}), "mean": cardinalities[relationship["name"]]}
            if (cardinality.get("max") or float("inf")) < cardinality["mean"]:
                cardinality.pop("max")
            relationship["cardinality"] = cardinality
    dropped: dict[str, str] = {}
    while True:
        document["access_patterns"] = [p for p in patterns if p["name"] not in dropped]
        problems = [p for p in document_problems(document) if p.severity.value == "error"]
        bad = {p.path.split("]")[0].removeprefix("access_patterns["): p for p in problems
               if p.path.startswith("access_patterns[")}
        if not problems:
            return model_from_document(document), dropped
        if not bad or not set(bad) - set(dropped):
            raise ModelFileError(problems, "the model proposed from the query log")
        for name, problem in bad.items():
            dropped.setdefault(name, f"the proposed pattern is not valid: {problem.message}")
