"""The workspace: model files kept in a folder or a DynamoDB table, and concurrent edits merged."""

from modeling.workspace.folder import Workspace, default_workspace_dir, document_bytes
from modeling.workspace.merge import MergeConflict, Side, changed_paths, resolve_conflicts, three_way_merge
from modeling.workspace.store import WorkspaceStore, workspace_table_name
from modeling.workspace.table import open_table_workspace

__all__ = ["MergeConflict", "Side", "Workspace", "WorkspaceStore", "changed_paths", "default_workspace_dir",
           "document_bytes", "open_table_workspace", "resolve_conflicts", "three_way_merge", "workspace_table_name"]
