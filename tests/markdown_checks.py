"""Checks that a Markdown source shows a payload literally: shared by the Markdown-injection tests."""

from __future__ import annotations

import re

PAYLOADS = {
    "markdown": "Demo ![t](http://evil.example/b.png) [Session expired, log in](http://evil.example/phish) **b** `c`",
    "html": '<img src="http://evil.example/x.png" onerror="alert(1)"><script>alert(2)</script>',
    "link": "http://evil.example/phish www.evil.example x@evil.example :material/home: $x^2$ :red[red]",
}
WORD_JOINER = "\u2060"
# What a renderer would act on: an unescaped Markdown character (link, image, HTML, code span, maths), or a
# trigger GFM and Streamlit find in the text after parsing (URL, www. and e-mail autolinks, icons, colours).
_LIVE = re.compile(r"(?<!\\)[\[\]<>`!$]|://|(?i:\bwww\.)|@(?!\u2060)|:(?=[a-z_]+[/\\\[])")


def unescape(source: str) -> str:
    """The text a renderer shows: Markdown's backslash escapes undone, invisible word joiners dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", source).replace(WORD_JOINER, "")


def live_markdown(source: str) -> list[str]:
    """The parts of `source` that a Markdown renderer would turn into something other than text."""
    return _LIVE.findall(source)
