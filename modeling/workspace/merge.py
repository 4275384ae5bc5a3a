"""Three-way merge of model documents, for two editors who saved the same model from the same base.

`base` is the document both started from, `mine` the one this editor wants to save, `theirs` the one
already saved. A change made on one side only is taken; the same change on both sides is taken once;
different changes to the same value are a conflict, kept as `theirs` in the merged document and
listed, so the caller can show them and never drops one side silently.

Lists of dicts (entities, attributes, relationships, access patterns, indexes) merge item by item by
name, so two people adding different access patterns both keep theirs. Items without a name yet (new
rows) do not stop that: they merge together as one value, `entities[*]`, after the named ones. A list
where a name is used twice, and other lists, are values: they merge whole.

`resolve_conflicts(result, choices)` builds the document from the user's answer for each conflict
("mine" or "theirs"); every change that did not overlap is kept either way.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from modeling.errors import ModelingError

_ABSENT = object()
REST = "*"  # the step, and the path suffix `[*]`, of a list's items without a name of their own
Step = tuple[Literal["key", "item"], str]  # a dict key, or a list item by name (REST: the unnamed ones)
Side = Literal["mine", "theirs"]


@dataclass(frozen=True)
class MergeConflict:
    path: str
    mine: Any  # None when that side deleted it (see mine_deleted)
    theirs: Any
    steps: tuple[Step, ...] = ()  # where it is, for resolve_conflicts
    mine_deleted: bool = False
    theirs_deleted: bool = False


class MergeChoiceError(ModelingError):
    """A choice names no conflict of the merge, or is neither "mine" nor "theirs"."""


@dataclass(frozen=True)
class MergeResult:
    document: dict[str, Any]
    conflicts: tuple[MergeConflict, ...]

    @property
    def clean(self) -> bool:
        return not self.conflicts


def three_way_merge(base: dict[str, Any], mine: dict[str, Any], theirs: dict[str, Any]) -> MergeResult:
    conflicts: list[MergeConflict] = []
    merged = _merge(base, mine, theirs, "", (), conflicts)
    return MergeResult(merged if isinstance(merged, dict) else dict(theirs), tuple(conflicts))


def resolve_conflicts(result: MergeResult, choices: Mapping[str, Side]) -> dict[str, Any]:
    """The merged document with each conflict (by path) settled as chosen; a conflict not in `choices` keeps
    theirs, as `result.document` does. Raises MergeChoiceError for a path that is not a conflict."""
    by_path = {c.path: c for c in result.conflicts}
    unknown = sorted(set(choices) - set(by_path))
    if unknown:
        raise MergeChoiceError(f"no conflict at {', '.join(unknown)}; the conflicts are at: "
                               f"{', '.join(by_path) or 'none'}")
    document = copy.deepcopy(result.document)
    for path, side in choices.items():
        if side not in ("mine", "theirs"):
            raise MergeChoiceError(f"choose \"mine\" or \"theirs\" for {path}, not {side!r}")
        conflict = by_path[path]
        if side == "mine" and conflict.steps:
            _put(document, conflict.steps, _ABSENT if conflict.mine_deleted else copy.deepcopy(conflict.mine))
        elif side == "mine":  # the whole document (a side that is not a dict never reaches here)
            document = copy.deepcopy(conflict.mine)
    return document


def changed_paths(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Readable paths of what differs between two documents (for 'what the other side changed')."""
    paths: list[str] = []
    _diff(before, after, "", paths)
    return paths


def _merge(base: Any, mine: Any, theirs: Any, path: str, steps: tuple[Step, ...],
           conflicts: list[MergeConflict]) -> Any:
    if _same(mine, theirs) or _same(mine, base):
        return theirs
    if _same(theirs, base):
        return mine
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return _merge_dicts(base if isinstance(base, dict) else {}, mine, theirs, path, steps, conflicts)
    if _item_list(mine) and _item_list(theirs):
        return _merge_item_lists(base if _item_list(base) else [], mine, theirs, path, steps, conflicts)
    return _conflict(mine, theirs, path, steps, conflicts)


def _merge_whole(base: Any, mine: Any, theirs: Any, path: str, steps: tuple[Step, ...],
                 conflicts: list[MergeConflict]) -> Any:
    """A value merged as one: either side's change, or a conflict."""
    if _same(mine, theirs) or _same(mine, base):
        return theirs
    if _same(theirs, base):
        return mine
    return _conflict(mine, theirs, path, steps, conflicts)


def _conflict(mine: Any, theirs: Any, path: str, steps: tuple[Step, ...], conflicts: list[MergeConflict]) -> Any:
    conflicts.append(MergeConflict(path or "(the whole model)", _plain(mine), _plain(theirs), steps,
                                   mine is _ABSENT, theirs is _ABSENT))
    return theirs


def _merge_dicts(base: dict[str, Any], mine: dict[str, Any], theirs: dict[str, Any], path: str,
                 steps: tuple[Step, ...], conflicts: list[MergeConflict]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for key in [*theirs, *(k for k in mine if k not in theirs)]:
        value = _merge(base.get(key, _ABSENT), mine.get(key, _ABSENT), theirs.get(key, _ABSENT),
                       f"{path}.{key}" if path else str(key), (*steps, ("key", key)), conflicts)
        if value is not _ABSENT:
            merged[key] = value
    return merged


def _merge_item_lists(base: list[dict[str, Any]], mine: list[dict[str, Any]], theirs: list[dict[str, Any]],
                      path: str, steps: tuple[Step, ...], conflicts: list[MergeConflict]) -> list[dict[str, Any]]:
    """Named items by name (theirs' order, then mine's new ones), then the items without a name of their own."""
    (base_named, base_rest), (mine_named, mine_rest), (theirs_named, theirs_rest) = (
        _split(base), _split(mine), _split(theirs))
    merged = []
    for name in [*theirs_named, *(n for n in mine_named if n not in theirs_named)]:
        value = _merge(base_named.get(name, _ABSENT), mine_named.get(name, _ABSENT),
                       theirs_named.get(name, _ABSENT), f"{path}[{name}]", (*steps, ("item", name)), conflicts)
        if value is not _ABSENT:
            merged.append(value)
    rest = _merge_whole(base_rest, mine_rest, theirs_rest, f"{path}[{REST}]", (*steps, ("item", REST)), conflicts)
    return [*merged, *rest]


def _item_list(value: Any) -> bool:
    """A list of dicts whose names are unique (items without a name allowed; the empty list too): merged item
    by item, named items by name."""
    if not isinstance(value, list) or not all(isinstance(i, dict) for i in value):
        return False
    names = [i["name"] for i in value if isinstance(i.get("name"), str)]
    return len(names) == len(set(names))


def _split(items: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The named items by name; the others (no name yet), in order."""
    named = {i["name"]: i for i in items if isinstance(i.get("name"), str)}
    return named, [i for i in items if not isinstance(i.get("name"), str)]


def _put(document: dict[str, Any], steps: tuple[Step, ...], value: Any) -> None:
    """Set (or delete, for _ABSENT) the value at `steps`; every container above it is in the merged document."""
    parent: Any = document
    for kind, key in steps[:-1]:
        parent = parent[key] if kind == "key" else _split(parent)[0][key]
    kind, key = steps[-1]
    if kind == "key":
        if value is _ABSENT:
            parent.pop(key, None)
        else:
            parent[key] = value
        return
    named, _ = _split(parent)
    if key == REST:
        parent[:] = [*named.values(), *([] if value is _ABSENT else value)]
    elif key in named:
        index = next(i for i, item in enumerate(parent) if item is named[key])
        parent[index:index + 1] = [] if value is _ABSENT else [value]
    elif value is not _ABSENT:
        parent.insert(len(named), value)  # after the named items, before those without a name of their own


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
    elif _item_list(before) and _item_list(after):
        (old, old_rest), (new, new_rest) = _split(before), _split(after)
        for name in [*old, *(n for n in new if n not in old)]:
            _diff(old.get(name), new.get(name), f"{path}[{name}]", paths)
        _diff(old_rest, new_rest, f"{path}[{REST}]", paths)
    else:
        paths.append(path or "(the whole model)")
