"""The user's cost choices per model (Region, design, target utilisation, free tier), kept across pages.

Streamlit forgets a widget's value when its page is left, so the Capacity & cost page's choices were lost
and the Report used the defaults. They are kept here per model in the session and mirrored in the URL
(`?region=&design=&target=&free=`), so a refresh or a shared link keeps them too; both pages read and
write the same choices.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import streamlit as st

from ui import session

TARGET_RANGE = (0.2, 0.9)
_PARAMS = {"region": "region", "design": "design", "target_utilization": "target", "free_tier": "free"}


@dataclass(frozen=True)
class CostChoices:
    region: str
    design: str | None
    target_utilization: float = 0.7
    free_tier: bool = False


def _key() -> str:
    return f"choices.cost.{session.current_slug()}"


def cost_choices(home_region: str, regions: list[str], designs: list[str]) -> CostChoices:
    """This model's choices: the URL's, else the session's, else the model's Region and the first design."""
    held = st.session_state.get(_key())
    choices = held if isinstance(held, CostChoices) else CostChoices(home_region, None)
    params = st.query_params
    if params.get("region") in regions:
        choices = replace(choices, region=params["region"])
    if params.get("design") in designs:
        choices = replace(choices, design=params["design"])
    target = _number(params.get("target"))
    if target is not None and TARGET_RANGE[0] <= target <= TARGET_RANGE[1]:
        choices = replace(choices, target_utilization=target)
    if params.get("free") in ("0", "1"):
        choices = replace(choices, free_tier=params["free"] == "1")
    if choices.region not in regions:
        choices = replace(choices, region=home_region if home_region in regions else regions[0])
    if choices.design not in designs:
        choices = replace(choices, design=designs[0] if designs else None)
    return choices


def remember(choices: CostChoices) -> None:
    st.session_state[_key()] = choices
    for field, param in _PARAMS.items():
        value = asdict(choices)[field]
        text = ("1" if value else "0") if isinstance(value, bool) else ("" if value is None else str(value))
        if st.query_params.get(param) != text:
            st.query_params[param] = text


def seed_widgets(prefix: str, choices: CostChoices) -> None:
    """Give a page's widgets the model's choices when they are created (before they render)."""
    for field, value in (("region", choices.region), ("design", choices.design),
                         ("target", choices.target_utilization), ("free_tier", choices.free_tier)):
        # the widgets are the open model's (session.model_key): another model's choice never shows here
        st.session_state.setdefault(session.model_key(f"{prefix}.{field}"), value)


def _number(text: Any) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None
