"""The workspace keeps drafts on disk: atomic saves, safe names, newest first, damaged files skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from editing import new_document
from modeling.errors import ModelFileError, WorkspaceError
from modeling.workspace.folder import Workspace, slugify


def test_invalid_draft_is_saved_and_read_back_unchanged(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    draft = {**new_document("Shop", "shop"), "entities": [{"name": "Order", "item_count": "lots"}]}
    space.save("shop", draft)
    assert space.load("shop") == draft
    # no temporary file left behind (the lock file serialises compare-and-write and stays)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "shop.json"]


@pytest.mark.parametrize("slug", ["../etc/passwd", "a/b", "", "UPPER", "x" * 80, ".hidden"])
def test_unsafe_slugs_are_refused(tmp_path: Path, slug: str) -> None:
    with pytest.raises(WorkspaceError):
        Workspace(tmp_path).save(slug, new_document("x", "xyz"))


def test_create_picks_a_fresh_slug_from_the_name(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    first = space.create(new_document("E-commerce orders (v2)", "shop"))
    second = space.create(new_document("E-commerce orders (v2)", "shop"))
    assert (first, second) == ("e-commerce-orders-v2", "e-commerce-orders-v2-2")


def test_drafts_list_newest_first_and_skip_damaged_files(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    space.save("older", new_document("Older", "old"))
    space.save("newer", new_document("Newer", "new"))
    os.utime(tmp_path / "older.json", ns=(1, 1))
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    assert [d.slug for d in space.drafts()] == ["newer", "older"]
    assert space.most_recent() == "newer"
    with pytest.raises(ModelFileError):
        space.load("broken")


def test_delete_removes_the_draft(tmp_path: Path) -> None:
    space = Workspace(tmp_path)
    space.save("gone", new_document("Gone", "gone"))
    space.delete("gone")
    assert not space.exists("gone") and space.drafts() == []


def test_unwritable_folder_gives_a_workspace_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(WorkspaceError, match="DESIGN_STUDIO_WORKSPACE"):
        Workspace(blocker / "inside").save("x1", new_document("x", "xyz"))


def test_slugify_keeps_only_safe_characters() -> None:
    assert slugify("Chat: messages & rooms!") == "chat-messages-rooms"
    assert slugify("###") == "model"
