"""Reading and writing model files (JSON or YAML) safely, reporting every problem at once.

A file goes through three stages, and each stage reports problems with a readable path:
1. bytes -> document (a plain dict): size limit, text encoding, safe parsing (no YAML tags or
   aliases, no duplicate keys, bounded nesting);
2. document -> typed `Model` (pydantic): types, required fields, allowed values;
3. model -> cross-reference checks (`modeling.validation`).
The document stage matters to the UI: a document that does not validate is still kept, so nothing
the user typed is lost.
"""

from __future__ import annotations

import difflib
import json
import re
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Never

import yaml
from pydantic import ValidationError

from modeling.errors import ModelFileError, Problem, Severity, errors_only
from modeling.key_templates import ATTRIBUTE_NAME_PATTERN
from modeling.limits import FIXES, describe
from modeling.memo import ContentMemo, content_key
from modeling.model import FORMAT_NAME, FORMAT_VERSION, GENERATOR_KINDS, Model
from modeling.validation import semantic_problems

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_NESTING_DEPTH = 20  # a valid model nests about 9 levels deep


class FileFormat(StrEnum):
    JSON = "json"
    YAML = "yaml"

    @classmethod
    def from_filename(cls, filename: str) -> FileFormat | None:
        suffix = Path(filename).suffix.lower()
        return {".json": cls.JSON, ".yaml": cls.YAML, ".yml": cls.YAML}.get(suffix)


# --- stage 1: bytes -> document ------------------------------------------------------------------


def refuse_oversized(size_bytes: int) -> None:
    """Raise ModelFileError for a file over MAX_FILE_BYTES: callers that know the size check it before reading."""
    if size_bytes > MAX_FILE_BYTES:
        raise _file_error(f"the file is larger than {MAX_FILE_BYTES // 1024 // 1024} MB ({size_bytes:,} bytes)",
                          "a model file is normally a few kilobytes; check you chose the right file")


def parse_document(data: bytes, filename: str = "model.yaml") -> dict[str, Any]:
    """Parse the bytes of a model file into a plain document, or raise ModelFileError."""
    refuse_oversized(len(data))
    text = _decode_text(data)
    if not text.strip():
        raise _file_error("the file is empty", "choose a model file, or start from an example")
    fmt = FileFormat.from_filename(filename) or _sniff_format(text)
    try:
        document = _parse_json(text) if fmt is FileFormat.JSON else _parse_yaml(text)
    except RecursionError:
        raise _file_error("the file is nested too deeply to be a model",
                          f"a model nests at most {MAX_NESTING_DEPTH} levels") from None
    except ModelFileError:
        raise
    except ValueError:  # int() refuses numbers of more than 4,300 digits
        raise _file_error("a number in the file has too many digits to be a model value",
                          "DynamoDB numbers have at most 38 significant digits") from None
    if _has_surrogates(document):
        raise _file_error("the file contains an unpaired UTF-16 surrogate escape (such as \\ud800)",
                          "remove it; text in a model must be valid Unicode")
    if not isinstance(document, dict):
        raise _file_error(f"the top level of the file is a {_kind_of(document)}, not a mapping",
                          f"a model file starts with `format: {FORMAT_NAME}` and `version: "
                          f"{FORMAT_VERSION}`")
    depth = _nesting_depth(document)
    if depth > MAX_NESTING_DEPTH:
        raise _file_error(f"the file nests {depth} levels deep",
                          f"a model nests at most {MAX_NESTING_DEPTH} levels")
    return document


def _file_error(message: str, suggestion: str) -> ModelFileError:
    return ModelFileError([Problem("", message, suggestion)])


def _decode_text(data: bytes) -> str:
    if b"\x00" in data[:8192]:
        raise _file_error("the file is binary, not text",
                          "choose a .json or .yaml model file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _file_error(f"the file is not UTF-8 text (invalid byte at position {exc.start})",
                          "save the file as UTF-8") from None


def _sniff_format(text: str) -> FileFormat:
    return FileFormat.JSON if text.lstrip().startswith(("{", "[")) else FileFormat.YAML


def _parse_json(text: str) -> Any:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise _file_error(f"the key `{key}` appears twice in one object",
                                  "keep one of them; JSON objects need unique keys")
            result[key] = value
        return result

    def no_constants(name: str) -> Any:
        raise _file_error(f"`{name}` is not a valid number in a model file", "write a finite number")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constants)
    except json.JSONDecodeError as exc:
        raise _file_error(f"JSON syntax error at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                          "fix the JSON there (a missing comma, quote or bracket is typical), "
                          "or check the file is complete") from None


class _StrictConstructor(yaml.constructor.SafeConstructor):
    """Construction shared by both loaders: keys are text and unique in each mapping."""

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                raise _file_error(
                    f"the key `{key}` on line {key_node.start_mark.line + 1} is not text",
                    "quote it, e.g. \"on\": or \"1\":")
            if key in seen:
                raise _file_error(
                    f"the key `{key}` appears twice in one mapping (line {key_node.start_mark.line + 1})",
                    "keep one of them")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class _StrictSafeLoader(_StrictConstructor, yaml.SafeLoader):
    """SafeLoader without aliases (no billion-laughs), duplicate keys or implicit timestamps."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]  # types-PyYAML leaves it unannotated
            raise _file_error(
                f"YAML aliases (`*{event.anchor}`) are not allowed in model files "
                f"(line {event.start_mark.line + 1})", "write the values out in full")
        return super().compose_node(parent, index)


# libyaml's parser, when PyYAML has it: the pure-Python scanner took most of `check` on a 2,000-entity model
_HAS_LIBYAML = hasattr(yaml, "CSafeLoader")


class _YamlFallback(Exception):
    """The fast path cannot answer: parse again with the pure-Python loader, which words every error."""


def _fast_yaml(text: str) -> Any:
    """The document through libyaml, the same constructors and checks; _YamlFallback for anything unusual
    (a syntax error, an alias, libyaml missing), so messages stay those of `_StrictSafeLoader`."""
    if not _HAS_LIBYAML:
        raise _YamlFallback
    loader = _StrictFastLoader(text)
    try:
        try:
            node = loader.get_single_node()
            if node is not None and _has_alias(node):  # libyaml resolves aliases to the anchored node itself
                raise _YamlFallback
            return loader.construct_document(node) if node is not None else None
        except yaml.YAMLError:
            raise _YamlFallback from None
    finally:
        loader.dispose()


def _has_alias(root: Any) -> bool:
    """Whether a node appears twice in the graph (an alias); stops at the first repeat, so bombs stay cheap."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False


if _HAS_LIBYAML:
    class _StrictFastLoader(_StrictConstructor, yaml.CSafeLoader):
        """The strict constructor on libyaml's parser (aliases are refused after composing)."""


def _timestamp_as_text(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> str:
    return loader.construct_scalar(node)


def _refused(loader: yaml.SafeLoader, node: yaml.Node) -> Never:
    """SafeLoader's own refusal of an unknown tag (its `construct_undefined`)."""
    loader.construct_undefined(node)


for _loader in (_StrictSafeLoader, *([_StrictFastLoader] if _HAS_LIBYAML else [])):
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_as_text)
    for _tag in ("binary", "set", "omap", "pairs"):  # not plain data: refused like any other tag
        _loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refused)


def _has_surrogates(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in node):
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _parse_yaml(text: str) -> Any:
    try:
        return _fast_yaml(text)
    except _YamlFallback:
        pass
    try:
        return yaml.load(text, Loader=_StrictSafeLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.constructor.ConstructorError as exc:
        where = f" at line {exc.problem_mark.line + 1}" if exc.problem_mark else ""
        raise _file_error(f"unsupported YAML content{where}: {exc.problem}",
                          "model files hold plain mappings, lists, text and numbers; "
                          "remove YAML tags such as !!python/object") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise _file_error(f"YAML syntax error{where}: {problem}",
                          "check the indentation and quoting there, or that the file is complete"
                          ) from None


def _nesting_depth(value: Any) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def _kind_of(value: Any) -> str:
    return {list: "list", str: "text", int: "number", float: "number", bool: "boolean"}.get(
        type(value), type(value).__name__)


# --- stage 2 and 3: document -> model ------------------------------------------------------------


def document_problems(document: dict[str, Any]) -> list[Problem]:
    """Every problem of a document: format header, types and values, then cross-references."""
    header = _header_problems(document)
    if header:
        return header
    try:
        model = Model.model_validate(document)
    except ValidationError as exc:
        problems = [_problem_from_pydantic(error, document) for error in exc.errors()]
        return _first_per_path(problems)
    return semantic_problems(model)


def _first_per_path(problems: list[Problem]) -> list[Problem]:
    """One problem per path: a value of the wrong type in a union field fails once per member type."""
    seen: set[str] = set()
    kept = []
    for problem in problems:
        if problem.path not in seen:
            seen.add(problem.path)
            kept.append(problem)
    return kept


def model_from_document(document: dict[str, Any], source: str = "") -> Model:
    """The validated model of a document, or ModelFileError listing every error."""
    problems = errors_only(document_problems(document))
    if problems:
        raise ModelFileError(problems, source)
    return Model.model_validate(document)


def load_model_file(path: Path) -> Model:
    """Read, parse and validate a model file (JSON or YAML)."""
    return model_from_document(read_document_file(path), source=str(path))


def read_document_file(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)  # enough to tell it is too big
    except OSError as exc:
        raise ModelFileError([Problem("", f"cannot read the file: {exc.strerror}",
                                      "check the path and permissions")], str(path)) from None
    try:
        return parse_document(data, path.name)
    except ModelFileError as exc:
        raise ModelFileError(exc.problems, str(path)) from None


def _header_problems(document: dict[str, Any]) -> list[Problem]:
    fmt, version = document.get("format"), document.get("version")
    if fmt != FORMAT_NAME:
        if "DataModel" in document or "ModelName" in document:
            return [Problem("format", "this is a NoSQL Workbench model file, not a Design Studio model",
                            "Design Studio model files start with "
                            f"`format: {FORMAT_NAME}`; import it with Import a NoSQL Workbench file on the Model "
                            "page's File tab, or `python -m modeling import-workbench FILE -o model.yaml`")]
        found = "is missing" if fmt is None else f"is `{fmt}`"
        return [Problem("format", f"the format name {found}",
                        f"start the file with `format: {FORMAT_NAME}` and `version: {FORMAT_VERSION}`")]
    if version is None:
        return [Problem("version", "`version` is missing", f"add `version: {FORMAT_VERSION}` after the format line")]
    if isinstance(version, bool) or not isinstance(version, int):
        return [Problem("version", f"the format version must be a whole number, got {version!r}",
                        f"write `version: {FORMAT_VERSION}`")]
    if version > FORMAT_VERSION:
        return [Problem("version", f"the file was written by a newer Design Studio (format version "
                                   f"{version}); this one reads version {FORMAT_VERSION}",
                        "upgrade Design Studio to open it")]
    if version < 1:
        return [Problem("version", f"there is no format version {version}",
                        f"write `version: {FORMAT_VERSION}`")]
    return []


def _problem_from_pydantic(error: Any, document: dict[str, Any]) -> Problem:
    path, value_found, value = readable_path(error["loc"], document)
    kind = error["type"]
    message = str(error["msg"]).removeprefix("Value error, ")
    last = next((str(p) for p in reversed(error["loc"]) if isinstance(p, str)), "")
    suggestion = ""
    if kind == "missing":
        message, suggestion = f"`{last}` is missing", "add it; it is required"
    elif kind == "extra_forbidden":
        close = difflib.get_close_matches(last, _known_field_names(), n=1)
        message = f"unknown field `{last}`"
        suggestion = f"did you mean `{close[0]}`?" if close else "remove it"
    elif kind == "union_tag_invalid":
        message = f"unknown kind `{error.get('ctx', {}).get('tag', '')}`"
        suggestion = "use one of: " + ", ".join(_kinds_for(last))
    elif kind == "union_tag_not_found":
        message, suggestion = "`kind` is missing", "add `kind:` with one of: " + ", ".join(_kinds_for(last))
    elif kind == "string_pattern_mismatch":
        noun, suggestion = _PATTERN_HINTS.get(error.get("ctx", {}).get("pattern", ""), ("value", ""))
        message = f"{value!r} is not a valid {noun}"
    elif kind in ("int_parsing", "float_parsing", "int_type", "float_type", "int_from_float"):
        suggestion = "write a plain number, e.g. 1000"
    elif kind in ("enum", "literal_error"):
        suggestion = "values are case-sensitive"
    elif kind in _LIMIT_KINDS:
        message, suggestion = _limit_problem(error, value, _field_names(error["loc"]))
    if (value_found and kind not in ("missing", "string_pattern_mismatch", *_LIMIT_KINDS)
            and _is_short_scalar(value)):
        message = f"{message} (found {value!r})"
    return Problem(path, message, suggestion, Severity.ERROR)


_LIMIT_KINDS = frozenset({"too_long", "less_than_equal", "greater_than_equal", "less_than", "greater_than"})


def _field_names(loc: tuple[Any, ...]) -> tuple[str, str]:
    """The last two names of a location (`cardinality`, `max`), list positions left out."""
    names = [str(p) for p in loc if isinstance(p, str)]
    return (names[-2] if len(names) > 1 else "", names[-1] if names else "")


def _limit_problem(error: Any, value: Any, names: tuple[str, str]) -> tuple[str, str]:
    """Message and fix for a value beyond a bound of `modeling.limits`: the value, the limit, what to do."""
    ctx = error.get("ctx", {})
    parent, last = names
    fix = FIXES.get(f"{parent}.{last}") or FIXES.get(last) or "enter a value within the limit"
    if error["type"] == "too_long":
        return (f"`{last}` has {describe(ctx.get('actual_length', 0))} entries, more than the limit of "
                f"{describe(ctx.get('max_length', 0))}", fix)
    bound = next((ctx[k] for k in ("le", "ge", "lt", "gt") if k in ctx), None)
    if bound is None or not isinstance(value, int | float) or isinstance(value, bool):
        return str(error["msg"]), fix
    if error["type"].startswith("less"):
        return f"`{last}` is {describe(value)}, more than the limit of {describe(bound)}", fix
    return f"`{last}` is {describe(value)}, below the minimum of {describe(bound)}", fix


_PATTERN_HINTS = {
    r"^[a-z][a-z0-9_]*$": ("name", "access patterns are named verb_object_by_key in snake_case, "
                                   "e.g. list_orders_by_customer"),
    r"^[A-Za-z_][A-Za-z0-9_.\-]*$": ("name", "use letters, digits, _ . or -, starting with a letter"),
    r"^[A-Za-z0-9_.\-]+$": ("name", "use 3 to 255 letters, digits, _ . or - (DynamoDB's naming rule)"),
    ATTRIBUTE_NAME_PATTERN: ("name", "an attribute name may hold any character but spaces, { } : and control "
                                     "characters"),
    r"^[a-z]{2}(-gov)?-[a-z]+-\d$": ("region", "use an AWS Region code such as us-east-1 or eu-west-1"),
}


def _is_short_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) and len(str(value)) <= 60


def readable_path(loc: tuple[Any, ...], document: Any) -> tuple[str, bool, Any]:
    """`('entities', 2, 'attributes', 0)` -> `entities[Order].attributes[total]`.

    Also returns whether the location exists in the document, and the value found there.
    """
    text, node, found = "", document, True
    previous: str | int | None = None
    for part in loc:
        if isinstance(part, int):
            if isinstance(node, list) and 0 <= part < len(node):
                text += f"[{_label(node[part], part)}]"
                node = node[part]
            else:
                text, found, node = text + f"[{part}]", False, None
            previous = part
            continue
        if isinstance(node, dict) and part in node:
            # keys of free-form mappings (index names) are written like list items
            text = f"{text}[{part}]" if previous == "indexes" else (f"{text}.{part}" if text else str(part))
            node, previous = node[part], part
            continue
        if isinstance(node, dict) and node.get("kind") == part:
            continue  # pydantic adds the tag of a tagged union; readers know it from `kind`
        if "[" in str(part) or part in ("int", "float", "str", "bool"):
            continue  # pydantic names union members and validators in locations
        text = f"{text}.{part}" if text else str(part)
        found, node, previous = False, None, part
    return text, found, node


def _label(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("name", "entity", "attribute"):
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                return value
    return str(index)


def _kinds_for(field: str) -> tuple[str, ...]:
    if field == "distribution":
        return ("uniform", "zipf", "hot_value")
    return GENERATOR_KINDS


@lru_cache(maxsize=1)
def _known_field_names() -> tuple[str, ...]:
    names: set[str] = set()
    schema = Model.model_json_schema()
    for definition in [schema, *schema.get("$defs", {}).values()]:
        names.update(definition.get("properties", {}))
    return tuple(sorted(names))


# --- writing -------------------------------------------------------------------------------------


def model_to_document(model: Model) -> dict[str, Any]:
    """The model as a plain document, defaults left out, header first."""
    body = model.model_dump(mode="json", exclude_defaults=True)
    body.pop("format", None)
    body.pop("version", None)
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, **body}


# The Model page shows the open model as YAML on every run, and PyYAML's emitter is pure Python (a tenth of a
# Model page run): an unchanged document's text is looked up instead (8 MB at most, a hostile file's included).
_YAML_TEXTS: ContentMemo[str] = ContentMemo("model file YAML", max_entries=32, max_bytes=8_000_000, weigh=len)


def dump_document(document: dict[str, Any], fmt: FileFormat) -> str:
    """Text of a document in JSON or YAML, stable (same document, same bytes)."""
    if fmt is FileFormat.JSON:
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    # repr is the document exactly: its order, and its types (1, 1.0, True and "1" differ); it escapes lone
    # surrogates, so it always encodes
    key = content_key(repr(document))
    return _YAML_TEXTS.get(key, lambda: yaml.dump(document, Dumper=_text_dumper(document), sort_keys=False,
                                                  allow_unicode=True, width=100))


# Characters libyaml's emitter escapes although PyYAML's writes them as typed (an emoji: "\U0001F600"), and lone
# surrogates, which it cannot encode: a document holding any is written by the pure-Python emitter
_NOT_FOR_LIBYAML = re.compile("[\ud800-\udfff\U00010000-\U0010ffff]")


def _text_dumper(document: dict[str, Any]) -> type[yaml.SafeDumper] | type[Any]:
    """libyaml's emitter where it writes the same text as PyYAML's, four times faster (the Model page writes the
    open model's YAML after every edit; tests/modeling/test_yaml_fast_path.py compares the two emitters)."""
    if _CSafeTextDumper is None or _NOT_FOR_LIBYAML.search(json.dumps(document, ensure_ascii=False, default=str)):
        return _SafeTextDumper
    return _CSafeTextDumper


class _SafeTextDumper(yaml.SafeDumper):
    """SafeDumper that double-quotes text PyYAML would otherwise write in a form it reads back changed."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    if any(c in text for c in "\x85\u2028\u2029"):  # line breaks YAML folds into spaces when unquoted
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
    return dumper.represent_str(text)


_SafeTextDumper.add_representer(str, _represent_text)
_CSafeTextDumper: type[Any] | None = None
if getattr(yaml, "__with_libyaml__", False):  # a PyYAML built without libyaml writes every document in Python
    _CSafeTextDumper = type("_CSafeTextDumper", (yaml.CSafeDumper,), {"__doc__": _SafeTextDumper.__doc__})
    _CSafeTextDumper.add_representer(str, _represent_text)


def dump_model(model: Model, fmt: FileFormat) -> str:
    return dump_document(model_to_document(model), fmt)
