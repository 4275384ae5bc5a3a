"""Lessons page: guided lessons on the real pages, one step at a time, ending with a break-it exercise."""

import streamlit as st

from ui import lessons_view
from ui.frame import page_frame

page_frame("Lessons")
chosen = lessons_view.choose_lesson()
st.title(f"Lesson {chosen.number} · {chosen.title}")
st.caption(chosen.summary)
index = lessons_view.current_index(chosen)
lessons_view.step_buttons(chosen, index)
lessons_view.outline(chosen, index)
if index < len(chosen.steps):
    lessons_view.render_step(chosen, index)
else:
    lessons_view.render_break_it(chosen)
lessons_view.share_panel()
