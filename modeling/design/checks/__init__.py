"""Design checks (lint): what a key design gets wrong for one model, explained for a workshop.

`check_design(model, design)` runs every rule against a planned `Design` and returns `Finding`s, most
severe first, then by check id, path and message, so the same input always gives the same list. Each
rule is a small pure function. `CHECKS` lists every check with its explanation, fix and AWS
documentation link, so the docs and the UI can show them all. Ids are grouped by theme, one module
each: `keys` DDS1xx keys and partitions, `reads` DDS2xx reads, `writes` DDS301-303 writes and indexes,
`amplification` DDS304-307 and DDS313 index writes, redundant indexes and ALL projections rewritten by
counters, `write_safety` DDS308-312 writes that stay correct (lost updates, uniqueness, hot counters, TTL
values, writes that cannot name their item),
`limits` DDS4xx limits and quotas and DDS5xx names. `catalogue` holds the checks' texts, `estimates`
the AWS numbers and the approximate sizes, units and loads, `context` what every rule reads.

Throughput figures here are a labelled APPROXIMATION for spotting problems, not the bill (the cost
engine does the exact maths): item size = attribute names + `avg_size_bytes` (plus the key
attributes); reads ceil(size / 4 KB) x 0.5 eventual or x 1 strong per item, Query and Scan adding the
sizes first; writes ceil(size / 1 KB); transactions x 2. The share of traffic on the busiest key value
comes from the key attributes' sample-data generators (enum weights, zipf, hot_value; uniform keys
spread over their values).

>>> from modeling.examples import load_example
>>> from modeling.design.generator import explicit_design
>>> model = load_example("student_platform_mistakes")
>>> "DDS101" in {f.check_id for f in check_design(model, explicit_design(model))}
True
"""

from __future__ import annotations

from modeling.design.checks import amplification, keys, limits, reads, results, write_safety, writes
from modeling.design.checks.catalogue import CHECKS, SEVERITY_RANK, Check, Finding, FindingSeverity
from modeling.design.checks.context import Rule, build_context
from modeling.design.checks.limits import reserved_words
from modeling.design.plans import Design
from modeling.model import Model

__all__ = ["CHECKS", "RULES", "Check", "Finding", "FindingSeverity", "check_design", "reserved_words", "wrong_results"]

# Every rule, in theme order (keys, reads, writes, limits and names).
RULES: tuple[Rule, ...] = (*keys.RULES, *reads.RULES, *results.RULES, *writes.RULES, *amplification.RULES,
                          *write_safety.RULES, *limits.RULES)


def check_design(model: Model, design: Design) -> list[Finding]:
    """Every finding of every check for a model and one of its planned designs, most severe first.

    Sorted by severity, then check id, then path (then message), so the same input always gives the
    same list. Example: `check_design(model, generate_design(model))`.
    """
    ctx = build_context(model, design)
    findings = [finding for rule in RULES for finding in rule(ctx)]
    return sorted(findings, key=lambda f: (SEVERITY_RANK[f.severity], f.check_id, f.path, f.message))


def wrong_results(model: Model, design: Design) -> list[Finding]:
    """The findings of the checks that say a design returns wrong results (DDS206), which no caller may excuse:
    the key-design search never keeps such a layout as its best."""
    ctx = build_context(model, design)
    return [finding for rule in results.RULES for finding in rule(ctx)]
