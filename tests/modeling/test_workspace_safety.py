"""Workspace safety (issues #14.4 and #15.7): versioned saves, and only regular files are drafts."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from modeling.errors import WorkspaceConflictError, WorkspaceError
from modeling.workspace.folder import Workspace

DRAFT = {"format": "dynamodb-design-studio/model", "version": 1, "name": "Shop", "table": {"name": "shop"}}


def test_a_save_based_on_an_old_version_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    first = space.save("shop", DRAFT)
    second = space.save("shop", {**DRAFT, "name": "Shop (tab A)"}, expected_version=first)
    with pytest.raises(WorkspaceConflictError) as raised:
        space.save("shop", {**DRAFT, "name": "Shop (tab B)"}, expected_version=first)
    assert raised.value.found_version == second
    assert space.load("shop")["name"] == "Shop (tab A)"


def test_create_never_replaces_an_existing_draft(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    assert space.create(DRAFT) == "shop"
    assert space.create({**DRAFT, "description": "second"}) == "shop-2"
    assert "description" not in space.load("shop")


def test_concurrent_saves_from_one_version_let_exactly_one_through(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    base = space.save("shop", DRAFT)
    outcomes: list[str] = []

    def save(name: str) -> None:
        try:
            space.save("shop", {**DRAFT, "name": name}, expected_version=base)
            outcomes.append("saved")
        except WorkspaceConflictError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=save, args=(f"writer {i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict"] * 7 + ["saved"]


def test_folders_links_and_fifos_named_like_drafts_are_skipped_and_never_opened(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    space.save("shop", DRAFT)
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "broken.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "linked.json").symlink_to(tmp_path / "shop.json")
    os.mkfifo(tmp_path / "pipe.json")  # opening it for reading would block the app forever

    assert [d.slug for d in space.drafts()] == ["shop"]
    assert space.skipped() == ["broken.json", "folder.json", "linked.json", "pipe.json"]
    for slug in ("folder", "broken", "linked", "pipe"):
        assert not space.exists(slug)
        with pytest.raises(WorkspaceError, match="not a regular file"):
            space.load(slug)


def test_a_workspace_that_cannot_be_written_gives_a_workspace_error(tmp_path: Path) -> None:
    # root ignores permission bits, so the write is made to fail by the filesystem itself: the
    # workspace "folder" lies below a regular file
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(WorkspaceError, match="cannot save"):
        Workspace(blocker / "workspace").save("shop", DRAFT)


def test_the_number_of_drafts_is_capped_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_STUDIO_MAX_DRAFTS", "3")
    space = Workspace(tmp_path)
    for _ in range(3):
        space.create(DRAFT)
    with pytest.raises(WorkspaceError, match="limit"):
        space.create(DRAFT)
    assert len(space.drafts()) == 3
