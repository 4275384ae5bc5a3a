"""A click on another page while a field is being edited goes to that page after the field's value has left.

A field (a text area, a text input, a grid cell in its iframe) sends its value when it loses the focus, and the
browser sends that value a moment after the click's own page change: React commits the blur's update, the
grid posts its message to the page. At a click as fast as a script's (press and release at once), the server
then had the page change first and the field's rerun of the Model page second: the Model page stayed (the click
seemed ignored), or the other page ran to its end first and Streamlit dropped the Model page's widgets, so the
value never reached the model (a stranger's session, 2026-12-03: 3 of 10 edits lost). A human click holds the
button long enough; this makes a fast one do the same: a click on a page link that starts while a field has the
focus is held back 250 ms (the field's value is sent in that time), then made again. The script is the product's
own text (no user text), run once per browser page.
"""

from __future__ import annotations

from typing import Final

import streamlit as st

DELAY_MS: Final = 250

_SCRIPT: Final = f"""
<script>
(function () {{
  if (window.__ddsNavGuard) return;
  window.__ddsNavGuard = true;
  const LINKS = '[data-testid="stSidebarNav"] a, a[data-testid="stPageLink-NavLink"]';
  let editing = false;
  document.addEventListener('mousedown', function () {{
    const active = document.activeElement;  // before the press moves the focus
    editing = !!active && ['INPUT', 'TEXTAREA', 'IFRAME'].includes(active.tagName);
  }}, true);
  document.addEventListener('click', function (event) {{
    const link = event.target instanceof Element ? event.target.closest(LINKS) : null;
    if (!link || !editing || !event.isTrusted) return;
    editing = false;
    event.preventDefault();
    event.stopImmediatePropagation();
    setTimeout(function () {{ link.click(); }}, {DELAY_MS});
  }}, true);
}})();
</script>
"""


def guard_page_links() -> None:
    """Install the guard in the browser page (idempotent there; drawn on every run, as the page may be new)."""
    st.html(_SCRIPT, unsafe_allow_javascript=True)
