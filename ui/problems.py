"""Showing model problems next to what they concern. User text is rendered as text, never HTML."""

from __future__ import annotations

import streamlit as st

from studio.errors import Problem, Severity
from ui.text import plain


def show_problems(problems: list[Problem], *, empty_note: str | None = None) -> None:
    """One line per problem: path, what is wrong, how to fix it (names in them are escaped, ui.text)."""
    if not problems:
        if empty_note:
            st.caption(empty_note)
        return
    for problem in problems:
        # the path holds user names (`entities[A`b]`), so it is escaped text in bold, not a code span it could close
        text = f"**{plain(problem.path or 'file')}** — {plain(problem.message)}"
        if problem.suggestion:
            text += f"  \n→ {plain(problem.suggestion)}"
        if problem.severity is Severity.ERROR:
            st.error(text, icon="⛔")
        else:
            st.warning(text, icon="⚠️")
