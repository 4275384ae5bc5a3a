"""Workshop mode's browser binding: the cookie that makes a session token usable only in its own browser.

Streamlit reads cookies (`st.context.cookies`, those sent when the browser session connected) but has no
call to set one, so a tiny component sets it from the page (`st.components.v2`, whose JavaScript runs in
the app page). The cookie holds the token and the server's HMAC of it (`workshop.isolation.browser_proof`);
it is SameSite=Strict, so no other site's page sends it. A refresh, a new tab or a share link opened in the
same browser then finds the attendee's own session, and a copied `?ws=` link in another browser does not.
"""

from __future__ import annotations

import streamlit as st

from workshop.isolation import BINDING_COOKIE, BINDING_MAX_AGE_SECONDS

_SET_COOKIE_JS = """
export default function (component) {
  const { data } = component;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${data.name}=${data.value}; Path=/; Max-Age=${data.max_age}; SameSite=Strict${secure}`;
}
"""
_cookie_setter = st.components.v2.component("dds_workshop_binding", js=_SET_COOKIE_JS)


def browser_cookie() -> str | None:
    """The binding cookie this browser sent when its session connected, if any."""
    try:
        return st.context.cookies.get(BINDING_COOKIE)
    except (AttributeError, RuntimeError):  # no browser behind this run (AppTest, bare mode)
        return None


def set_browser_cookie(value: str) -> None:
    """Ask the browser to keep the binding cookie (a value of hex digits and a dot: nothing to escape)."""
    _cookie_setter(key="workshop.binding", data={"name": BINDING_COOKIE, "value": value,
                                                  "max_age": BINDING_MAX_AGE_SECONDS})
