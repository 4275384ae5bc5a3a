"""Three-way merge of model documents, for two editors who saved the same model from the same base.

`base` is the document both started from, `mine` the one this editor wants to save, `theirs` the one
already saved. A change made on one side only is taken; the same change on both sides is taken once;
different changes to the same value are a conflict, kept as `theirs` in the merged document and
listed, so the caller can show them and never drops one side silently.

Lists of named items (entities, attributes, relationships, access patterns, indexes) merge item by
item by name, so two people adding different access patterns both keep theirs. Other lists are
values: they merge whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_ABSENT = object()


@dataclass(frozen=True)
class MergeConflict:
    path: str
    mine: Any
    theirs: Any


@dataclass(frozen=True)
class MergeResult:
    document: dict[str, Any]
    conflicts: tuple[MergeConflict, ...]

    @property
    def clean(self) -> bool:
        return not self.conflicts


def three_way_merge(base: dict[str, Any], mine: dict[str, Any], theirs: dict[str, Any]) -> MergeResult:
    conflicts: list[MergeConflict] = []
    merged = _merge(base, mine, theirs, "", conflicts)
    return MergeResult(merged if isinstance(merged, dict) else dict(theirs), tuple(conflicts))


def changed_paths(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Readable paths of what differs between two documents (for 'what the other side changed')."""
    paths: list[str] = []
    _diff(before, after, "", paths)
    return paths


def _merge(base: Any, mine: Any, theirs: Any, path: str, conflicts: list[MergeConflict]) -> Any:
    if _same(mine, theirs):
        return theirs
    if _same(mine, base):
        return theirs
    if _same(theirs, base):
        return mine
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return _merge_dicts(base if isinstance(base, dict) else {}, mine, theirs, path, conflicts)
    if _named_list(mine) and _named_list(theirs):
        return _merge_named_lists(base if _named_list(base) else [], mine, theirs, path, conflicts)
    conflicts.append(MergeConflict(path or "(the whole model)", _plain(mine), _plain(theirs)))
    return theirs


def _merge_dicts(base: dict[str, Any], mine: dict[str, Any], theirs: dict[str, Any], path: str,
                 conflicts: list[MergeConflict]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for key in [*theirs, *(k for k in mine if k not in theirs)]:
        value = _merge(base.get(key, _ABSENT), mine.get(key, _ABSENT), theirs.get(key, _ABSENT),
                       f"{path}.{key}" if path else str(key), conflicts)
        if value is not _ABSENT:
            merged[key] = value
    return merged


def _merge_named_lists(base: list[dict[str, Any]], mine: list[dict[str, Any]], theirs: list[dict[str, Any]],
                       path: str, conflicts: list[MergeConflict]) -> list[dict[str, Any]]:
    by_name = {side: {item["name"]: item for item in items}
               for side, items in (("base", base), ("mine", mine), ("theirs", theirs))}
    names = [*(i["name"] for i in theirs), *(i["name"] for i in mine if i["name"] not in by_name["theirs"])]
    merged = []
    for name in names:
        value = _merge(by_name["base"].get(name, _ABSENT), by_name["mine"].get(name, _ABSENT),
                       by_name["theirs"].get(name, _ABSENT), f"{path}[{name}]", conflicts)
        if value is not _ABSENT:
            merged.append(value)
    return merged


def _named_list(value: Any) -> bool:
    if not isinstance(value, list) or not all(isinstance(i, dict) and isinstance(i.get("name"), str)
                                              for i in value):
        return False
    names = [i["name"] for i in value]
    return len(names) == len(set(names))


def _same(left: Any, right: Any) -> bool:
    return left is right or (left is not _ABSENT and right is not _ABSENT and left == right)


def _plain(value: Any) -> Any:
    return None if value is _ABSENT else value


def _diff(before: Any, after: Any, path: str, paths: list[str]) -> None:
    if before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            _diff(before.get(key), after.get(key), f"{path}.{key}" if path else str(key), paths)
    elif _named_list(before) and _named_list(after):
        old, new = {i["name"]: i for i in before}, {i["name"]: i for i in after}
        for name in [*old, *(n for n in new if n not in old)]:
            _diff(old.get(name), new.get(name), f"{path}[{name}]", paths)
    else:
        paths.append(path or "(the whole model)")
