"""Showing model problems next to what they concern. User text is rendered as text, never HTML."""

from __future__ import annotations

import streamlit as st

from modeling.errors import Problem, Severity


def show_problems(problems: list[Problem], *, empty_note: str | None = None) -> None:
    """One line per problem: path, what is wrong, how to fix it."""
    if not problems:
        if empty_note:
            st.caption(empty_note)
        return
    for problem in problems:
        text = f"`{problem.path or 'file'}` — {_escape(problem.message)}"
        if problem.suggestion:
            text += f"  \n→ {_escape(problem.suggestion)}"
        if problem.severity is Severity.ERROR:
            st.error(text, icon="⛔")
        else:
            st.warning(text, icon="⚠️")


def _escape(text: str) -> str:
    """Markdown-escape user text so names like `a*b*` or links show literally."""
    for character in "\\`*_[]<>#|":
        text = text.replace(character, "\\" + character)
    return text


def escape_markdown(text: str) -> str:
    """User text made safe to show inside Markdown (it is shown literally)."""
    return _escape(text)
