"""The dependency rules: the domain never imports streamlit, plotly only in charts.py, costs -> modeling only,
and workshop -> modeling and costs only (neither imports workshop); `editing` (the editor's document operations,
beside ui/) is domain code too. Inside `modeling`, the subpackages keep their direction: the model core, the key
design and sample data never reach an endpoint, and the endpoint adapter depends on the core alone."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOMAIN_MODULES = sorted([*(p for package in ("modeling", "costs", "workshop") for p in (ROOT / package).rglob("*.py")),
                         ROOT / "editing.py"])


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_top_levels(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", DOMAIN_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_domain_module_imports_no_ui_library(path: Path) -> None:
    imported = _imported_top_levels(path)
    assert "streamlit" not in imported
    if path.name != "charts.py":
        assert "plotly" not in imported
    package = path.relative_to(ROOT).parts[0]
    if package in ("modeling", "editing.py"):
        assert "costs" not in imported
    if package in ("modeling", "costs", "editing.py"):
        assert "workshop" not in imported
    if package in ("modeling", "costs", "workshop", "editing.py"):
        assert not {"ui", "pages"} & imported
    if package in ("modeling", "costs"):
        assert "editing" not in imported


def test_importing_every_domain_module_loads_no_streamlit() -> None:
    modules = [_module_name(p) for p in DOMAIN_MODULES if p.name not in ("__main__.py", "charts.py")]
    code = (f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
            "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('streamlit', 'plotly'))\n"
            "print(bad)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stdout.strip() == "[]"


# The command-line entry points are edges like the pages: they draw figures and pass them into the domain
# (`python -m costs report` hands the report's charts to `costs.review_render` as HTML fragments).
EDGE_MODULES = {"__main__.py"}


def _imports_a_charts_module(path: Path) -> bool:
    """Any spelling: `import costs.charts`, `from costs import charts`, `from .charts import x`."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[-1] == "charts" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and ((node.module or "").split(".")[-1] == "charts"
                                                 or any(a.name == "charts" for a in node.names)):
            return True
    return False


def test_charts_modules_are_imported_by_no_other_domain_module() -> None:
    for path in DOMAIN_MODULES:
        if path.name in EDGE_MODULES:
            continue
        source = path.read_text(encoding="utf-8")
        assert ".charts import" not in source and "import charts" not in source, path
        assert not _imports_a_charts_module(path), path


def test_pages_folder_holds_only_pages_not_named_after_packages() -> None:
    forbidden = {"costs", "modeling", "streamlit", "boto3", "pandas", "plotly", "moto", "ui"}
    for page in (ROOT / "pages").iterdir():
        assert page.suffix == ".py" or page.name == "__pycache__", page
        assert page.stem not in forbidden


# What each part of `modeling` may not import. The core is the model, its file format, validation, write
# semantics and DynamoDB's rules (modeling/*.py); `__main__.py` (the CLI, an edge) and `charts.py` are exempt.
_ENDPOINT_SIDE = {"endpoint", "preview", "interop", "workspace", "migration", "hot_partitions"}
FORBIDDEN_SUBPACKAGES = {
    "core": _ENDPOINT_SIDE,
    "design": _ENDPOINT_SIDE,
    "data": _ENDPOINT_SIDE,
    "endpoint": _ENDPOINT_SIDE - {"endpoint"} | {"design", "data"},
    "hot_partitions": _ENDPOINT_SIDE - {"hot_partitions"},
    "interop": {"preview", "workspace", "migration", "hot_partitions"},
}


def _modeling_part(path: Path) -> str:
    parts = path.relative_to(ROOT / "modeling").parts
    return parts[0] if len(parts) > 1 else "core"


def _imported_modeling_subpackages(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                   else [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                   else [])
        for module in modules:
            parts = module.split(".")
            if parts[0] == "modeling" and len(parts) > 2:
                names.add(parts[1])
    return names


MODELING_MODULES = sorted(p for p in (ROOT / "modeling").rglob("*.py")
                          if p.name not in ("__main__.py", "charts.py") or p.parent != ROOT / "modeling")


@pytest.mark.parametrize("path", MODELING_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_modeling_subpackages_keep_their_direction(path: Path) -> None:
    forbidden = FORBIDDEN_SUBPACKAGES.get(_modeling_part(path), set())
    assert not forbidden & _imported_modeling_subpackages(path)


def test_the_layout_has_the_subpackages_the_architecture_page_describes() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(p.parent.name for p in (ROOT / "modeling").glob("*/__init__.py"))
    assert packages == ["data", "design", "endpoint", "hot_partitions", "interop", "migration", "preview",
                        "workspace"]
    for package in packages:
        assert f"`modeling/{package}/`" in page, package
