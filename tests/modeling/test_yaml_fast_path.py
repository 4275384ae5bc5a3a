"""The libyaml fast path reads every model exactly as the pure-Python strict loader does, and leaves every
refusal (aliases, duplicate keys, tags, syntax) to the strict loader's wording (issue 15, finding 13)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from modeling.errors import ModelFileError
from modeling.model_file import _fast_yaml, _StrictSafeLoader, _YamlFallback, parse_document

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "modeling" / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_fast_path_reads_each_example_as_the_strict_loader_does(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _fast_yaml(text) == yaml.load(text, Loader=_StrictSafeLoader)


@pytest.mark.parametrize(("text", "words"), [
    ("a: &x [1, 2]\nb: *x\n", "aliases"),
    ("a: 1\na: 2\n", "appears twice"),
    ("a: !!python/object:os.system {}\n", "unsupported YAML content"),
    ("a: [1, 2\n", "YAML syntax error"),
])
def test_refusals_keep_the_strict_loaders_message(text: str, words: str) -> None:
    with pytest.raises(ModelFileError) as caught:
        parse_document(text.encode(), "model.yaml")
    assert words in str(caught.value)


def test_an_alias_is_never_expanded_by_the_fast_path() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + n)}: &{chr(98 + n)} [*{chr(97 + n)}, *{chr(97 + n)}, *{chr(97 + n)}]\n" for n in range(20))
    with pytest.raises(_YamlFallback):
        _fast_yaml(bomb)


# --- writing: libyaml's emitter where it writes PyYAML's text ----------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from modeling.model_file import FileFormat, _SafeTextDumper, dump_document  # noqa: E402

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                       max_leaves=12)


def _pure_python(document: dict) -> str:
    return yaml.dump(document, Dumper=_SafeTextDumper, sort_keys=False, allow_unicode=True, width=100)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_TEXT, _VALUES, max_size=6))
def test_any_written_document_reads_back_equal(document: dict) -> None:
    """The Model page writes the open model's YAML after every edit with libyaml's emitter (an emoji or a lone
    surrogate keeps PyYAML's, which writes them as typed). Its text may differ from PyYAML's on odd keys (an empty
    key is `? ''`), never in what it reads back as."""
    text = dump_document(document, FileFormat.YAML)
    assert yaml.load(text, Loader=_StrictSafeLoader) == document


@pytest.mark.parametrize("path", [*EXAMPLES, *sorted((Path(__file__).resolve().parents[1] / "expert_models").glob(
    "*/*.yaml"))], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_example_is_written_as_the_pure_python_emitter_writes_it(path: Path) -> None:
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=_StrictSafeLoader)
    assert dump_document(document, FileFormat.YAML) == _pure_python(document)


def test_an_emoji_in_a_description_is_written_as_typed() -> None:
    assert "Book club 📚" in dump_document({"name": "Book club 📚"}, FileFormat.YAML)
