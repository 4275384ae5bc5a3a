"""Text shown literally in Markdown: the one escaping rule for user text (model, entity, pattern and file
names, key templates, descriptions, error messages that quote them).

Two kinds of Markdown act on text. What the parser reads (emphasis, code, links and images, raw HTML,
headings, tables, maths `$`, strikethrough, a list marker at the start) is backslash-escaped. What is found
in the text after parsing (GFM's URL, `www.` and e-mail autolinks, Streamlit's `:material/…:` icons and
`:red[…]` colours) cannot be escaped that way, since escapes are gone by then: a WORD JOINER (U+2060,
invisible, no width) is put inside the trigger (`:⁠//`, `www⁠.`, `@⁠`, `:⁠material/`), which no longer matches.
Line breaks become spaces, so text cannot start a block of its own. Ordinary punctuation (parentheses,
dots, dashes, colons in times) stays as it is, so the source stays readable.
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"
_SPECIAL = "\\`*_{}[]<>#|$~!"
_FOUND_AFTER_PARSING = re.compile(r"(?i)(:)(?=//)|\b(www)(?=\.)|(@)|(:)(?=[a-z_]+[/\\[])")
_LEADING_MARKER = re.compile(r"^(\s*)([-+=](?=\s|$)|\d+(?=[.)](?:\s|$)))")


def markdown_literal(text: str) -> str:
    """`text` as Markdown that any renderer (GFM, Streamlit) shows as exactly these characters."""
    flat = " ".join(text.splitlines())
    escaped = "".join("\\" + c if c in _SPECIAL else c for c in flat)
    escaped = _FOUND_AFTER_PARSING.sub(lambda m: m.group(0) + WORD_JOINER, escaped)
    return _LEADING_MARKER.sub(lambda m: f"{m.group(1)}{m.group(2)}\\" if m.group(2)[0].isdigit()
                               else f"{m.group(1)}\\{m.group(2)}", escaped)
