"""Workshop mode's session namespaces: random, well-formed, and unable to leave the workspace folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from workshop.isolation import is_session_token, new_session_token, session_workspace_dir, workshop_mode


def test_tokens_are_random_and_well_formed() -> None:
    tokens = {new_session_token() for _ in range(1000)}
    assert len(tokens) == 1000 and all(is_session_token(t) for t in tokens)


@pytest.mark.parametrize("value", ["", "local", "../../etc", "A" * 32, "0" * 31, None, 42])
def test_anything_else_is_not_a_token(value: object) -> None:
    assert not is_session_token(value)


def test_a_session_folder_stays_inside_the_workspace(tmp_path: Path) -> None:
    token = new_session_token()
    assert session_workspace_dir(tmp_path, token).parent.parent == tmp_path
    with pytest.raises(ValueError):
        session_workspace_dir(tmp_path, "../outside")


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("true", True), ("0", False), ("", False)])
def test_workshop_mode_follows_the_environment(value: str, expected: bool) -> None:
    assert workshop_mode({"DESIGN_STUDIO_WORKSHOP": value}) is expected
