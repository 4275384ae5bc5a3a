"""User text in Streamlit's Markdown: shown literally, never as a link, an image, HTML or formatting.

Titles, headers, captions, alerts, toasts, expander, tab, radio and widget labels all render Markdown,
with Streamlit's extras: `:red[…]` colours, `:material/…:` icons, `$…$` maths, and bare URLs turned into
links. A model name such as `Demo ![t](http://host/b.png)` made the browser fetch the image. Everything a
user typed or a file or link carried (model, entity, attribute, index and pattern names, key templates,
file names, and error messages that quote them) goes through `plain` before it reaches a Markdown element;
the rule itself is `modeling.markdown.markdown_literal`, which the Markdown report uses too.
"""

from __future__ import annotations

from studio.model import markdown_literal


def plain(value: object) -> str:
    """The value as Markdown that shows exactly its text (never inside a code span: escapes show there)."""
    return markdown_literal(str(value))
