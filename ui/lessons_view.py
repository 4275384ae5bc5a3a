"""Widgets of the Lessons page: lesson choice, one step at a time, reveals, break-it and sharing.

Every step of a lesson opens its prepared model into the lesson's one model (`session.place_model`;
what the attendee typed into it is kept as a copy first) and switches to the real page; reveals are
computed by the domain (`workshop.reveals`) and cached per step.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from studio.errors import EndpointError
from studio.model import FileFormat, dump_document
from studio.preview import configured_endpoint
from ui import session
from ui.presenter import presenter_on
from ui.text import plain
from workshop.lessons import LESSONS, Lesson, lesson
from workshop.reveals import Reveal
from workshop.sharing import MAX_SHARE_CHARS, SHARE_PARAMETER, encode_share
from workshop.verification import PreviewPlace, Verification

_LESSON_KEY = "lessons.lesson"
_BROKEN_KEY = "lessons.broken"  # slug of the lesson whose break-it model this session opened


@st.cache_data(show_spinner="Computing the answer…", max_entries=64)
def cached_reveal(slug: str, index: int) -> Reveal:
    return lesson(slug).steps[index].compute_reveal()


def choose_lesson() -> Lesson:
    """The lesson chosen in this session (kept outside widget state, which other pages' runs clear)."""
    slugs = [item.slug for item in LESSONS]
    current = st.session_state.get(_LESSON_KEY)
    if current not in slugs:
        requested = st.query_params.get("lesson", "")
        current = requested if requested in slugs else slugs[0]
    titles = {item.slug: f"{item.number}. {item.title}" for item in LESSONS}
    slug = st.selectbox("Lesson", slugs, index=slugs.index(current), format_func=titles.__getitem__)
    st.session_state[_LESSON_KEY] = slug
    if st.query_params.get("lesson") != slug:
        st.query_params["lesson"] = slug
    return lesson(slug)


def current_index(chosen: Lesson) -> int:
    """The step shown (0-based); the break-it exercise is the step after the last."""
    key = f"lessons.step.{chosen.slug}"
    return min(max(int(st.session_state.get(key, 0)), 0), len(chosen.steps))


def step_buttons(chosen: Lesson, index: int) -> None:
    key, last = f"lessons.step.{chosen.slug}", len(chosen.steps)
    left, middle, right = st.columns([1, 3, 1])
    if left.button("◀ Previous", key="lessons.previous", disabled=index == 0, width="stretch"):
        st.session_state[key] = index - 1
        st.rerun()
    middle.progress((index + 1) / (last + 1), text=f"Step {index + 1} of {last + 1}")
    if right.button("Next ▶", key="lessons.next", disabled=index == last, width="stretch"):
        st.session_state[key] = index + 1
        st.rerun()


def outline(chosen: Lesson, index: int) -> None:
    if presenter_on():
        return  # presenter view: one step at a time, no outline
    with st.expander("All steps of this lesson"):
        for number, step in enumerate(chosen.steps):
            marker = "▶ " if number == index else ""
            st.markdown(f"{marker}{number + 1}. {step.title} — {step.page.title} page")
        st.markdown(f"{'▶ ' if index == len(chosen.steps) else ''}{len(chosen.steps) + 1}. Break it: "
                    f"{chosen.break_it.title}")


def open_in_lesson_model(chosen: Lesson, document: dict[str, Any]) -> str:
    return session.place_model(chosen.model_slug, chosen.placed(document), chosen.is_untouched)


def reset_button(chosen: Lesson, index: int) -> None:
    """Put the shown step's prepared model back into the lesson's model (edits kept as a copy)."""
    document = chosen.steps[index].document() if index < len(chosen.steps) else chosen.break_it.broken_document()
    if st.button("Reset this lesson's model", key="lessons.reset",
                 help="Puts this step's model back into the lesson's model; your edits are kept as a copy."):
        open_in_lesson_model(chosen, document)
        st.rerun()


def render_step(chosen: Lesson, index: int) -> None:
    step = chosen.steps[index]
    st.header(f"Step {index + 1}: {step.title}")
    st.markdown(f"**Page:** {step.page.title} · **Look at:** {step.look_at}")
    left, right = st.columns(2)
    if left.button(f"Open this step's model and go to {step.page.title}", key="lessons.open", type="primary",
                   width="stretch"):
        open_in_lesson_model(chosen, step.document())
        st.switch_page(step.page.value)
    # A button, not st.page_link: a link is resolved while drawing, which fails when this page runs as the
    # entry script (a deep link on a fresh server, or the per-page smoke test); switch_page resolves on click.
    if right.button(f"Go to the {step.page.title} page (keep my model)", key="lessons.go", width="stretch"):
        st.switch_page(step.page.value)
    if session.current_slug() == chosen.model_slug:
        reset_button(chosen, index)
    st.info(f"**Question:** {step.question}", icon="❓")
    reveal_key = f"lessons.revealed.{chosen.slug}.{index}"
    if st.button("Reveal the answer", key="lessons.reveal"):
        st.session_state[reveal_key] = True
    if st.session_state.get(reveal_key):
        st.success(cached_reveal(chosen.slug, index).text, icon="💡")


def render_break_it(chosen: Lesson) -> None:
    exercise = chosen.break_it
    st.header(f"Break it: {exercise.title}")
    st.markdown(exercise.brief)
    broken = st.session_state.get(_BROKEN_KEY) == chosen.slug
    # No widget key: the toggle's state must survive visits to other pages, so it lives in _BROKEN_KEY.
    wanted = st.toggle("Introduce the mistake (opens a broken copy of the lesson's model)", value=broken)
    if wanted != broken:
        if wanted:
            open_in_lesson_model(chosen, exercise.broken_document())
            st.session_state[_BROKEN_KEY] = chosen.slug
        else:
            st.session_state.pop(_BROKEN_KEY, None)
        st.rerun()
    if not broken:
        return
    st.markdown(f"**Find it:** {exercise.hint}")
    reset_button(chosen, len(chosen.steps))
    st.caption("Fix it on the real pages (your edits are saved as you go), then come back and check.")
    if st.button("Check my fix", key="lessons.check", type="primary"):
        place = lesson_preview_place()
        with st.spinner("Checking (the preview step loads sample data into your own table)…"):
            show_verification(exercise.check(session.current_document(), place))
    with st.expander("Show the fix"):
        st.markdown(exercise.fix)
        if st.button("Open the reference fix as my model", key="lessons.open_fix"):
            open_in_lesson_model(chosen, exercise.fixed_document())
            st.rerun()


def lesson_preview_place() -> PreviewPlace | None:
    """The attendee's own corner of the endpoint; None (the embedded server) if it is not usable."""
    try:
        return PreviewPlace(configured_endpoint(), session.table_namespace(), session.current_slug())
    except EndpointError:
        return None


def show_verification(result: Verification) -> None:
    if result.problem:
        st.error(f"Not yet: {plain(result.problem)}. Fix the errors on the Model page first.", icon="⛔")
        return
    for step in result.results:
        icon = "✅" if step.passed else "❌"
        st.markdown(f"{icon} **{plain(step.name)}** — {plain(step.detail)}")
    if result.passed:
        st.success("Fixed: every verification step passes.", icon="🎉")
    else:
        st.warning("Not fixed yet: the steps marked ❌ still fail.", icon="🔧")


def share_panel() -> None:
    """A link (or a file) that opens the open model in anyone's own session."""
    with st.expander("Share the open model with the room"):
        document = session.current_document()
        token = encode_share(document)
        if token is None:
            st.caption(f"This model is too big for a link (over {MAX_SHARE_CHARS:,} characters): share the file.")
        else:
            base = (st.context.url or "").removesuffix("/lessons").rstrip("/")
            st.caption("Anyone opening this link gets a copy as a new model of their own session.")
            st.code(f"{base}/model?{SHARE_PARAMETER}={token}", language=None, wrap_lines=True)
        st.download_button("Download the model file (JSON)", dump_document(document, FileFormat.JSON),
                           file_name="shared-model.json", mime="application/json", key="lessons.share_file")
