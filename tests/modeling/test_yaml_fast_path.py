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
