"""The dependency rules, read from every import statement of every module.

Layers, from the ground up (`LAYERS`): the core (the model, its file format, DynamoDB's limits and rules,
errors, validation, write semantics); data and design; the endpoint side (endpoint, preview, hot partitions,
interop, migration, workspace); costs; the application layer; the edges (ui, pages, the command lines, the
workshop). A module may import its own layer and the layers below it, never one above. Besides the layers:
the domain never imports streamlit, plotly only in a charts.py, and inside the endpoint side the endpoint
adapter, the hot-partition analysis and interop keep away from their neighbours.

The application layer (`studio/`) is the only door the edges (`ui`, the pages, `dds` and the workshop) have into
the domain: they import `studio`, their own package, `ui` (the pages only), the workshop (`ui` only: it draws the
lessons and honours the workshop's isolation), streamlit, the standard library and third-party libraries; never
`modeling`, `costs` or `editing` (`test_edges_reach_the_domain_only_through_studio`).

Imports are read with `ast` in every form: `import a.b`, `from a.b import c` (c may be a submodule: `from
modeling.preview import runner`), relative imports resolved against the importing module's package, and
imports inside functions and `if TYPE_CHECKING:` blocks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Layer:
    name: str
    modules: frozenset[str]  # a module belongs to the layer with the longest matching prefix


# The core is modeling's own modules, named one by one so that a new one is placed on purpose
# (`test_every_module_is_in_a_layer`). Each imports only other core modules: the model (`model`, `schema`,
# `model_file`, `examples`, `traffic`), DynamoDB's limits and rules (`limits`, `dynamodb_rules`, `item_size`,
# `key_templates`), `errors`, `validation`, `write_validation`, `write_semantics`, the sample draw's size
# (`sample_footprint`), and small shared helpers (`memo`, `markdown`, `number_text`, `code_literals`,
# `cli_exit`, `chart_lines`, `charts`).
CORE_MODULES = frozenset({
    "modeling", "modeling.chart_lines", "modeling.charts", "modeling.cli_exit", "modeling.code_literals",
    "modeling.dynamodb_rules", "modeling.errors", "modeling.examples", "modeling.item_size",
    "modeling.key_templates", "modeling.limits", "modeling.markdown", "modeling.memo", "modeling.model",
    "modeling.model_file", "modeling.number_text", "modeling.sample_footprint", "modeling.schema",
    "modeling.traffic", "modeling.validation", "modeling.write_semantics", "modeling.write_validation",
})
ENDPOINT_SIDE = frozenset({"modeling.endpoint", "modeling.preview", "modeling.hot_partitions", "modeling.interop",
                           "modeling.migration", "modeling.workspace"})
LAYERS = (
    Layer("core", CORE_MODULES),
    Layer("data and design", frozenset({"modeling.data", "modeling.design"})),
    Layer("endpoint side", ENDPOINT_SIDE),
    Layer("costs", frozenset({"costs"})),
    # The application layer (issue 29): `studio`, one module per use case group, delegating to the layers
    # below; `editing` (the editor's document operations, beside ui/) is use-case code the ui calls.
    Layer("application", frozenset({"studio", "editing"})),
    # The edges: the Streamlit app, and the command lines and the workshop, which call everything below.
    Layer("edges", frozenset({"app", "pages", "ui", "dds", "workshop", "modeling.__main__", "costs.__main__"})),
)

# Upward imports not fixed yet, as (importing module, imported module): reason. The list may only shrink:
# an entry no longer imported fails `test_known_upward_imports_still_exist`.
KNOWN_UPWARD_IMPORTS: dict[tuple[str, str], str] = {}

SOURCE_FOLDERS = ("modeling", "costs", "studio", "workshop", "dds", "ui", "pages")
ALL_MODULES = sorted([*(p for folder in SOURCE_FOLDERS for p in (ROOT / folder).rglob("*.py")),
                      ROOT / "editing.py", ROOT / "app.py"])
DOMAIN_MODULES = [p for p in ALL_MODULES if p.relative_to(ROOT).parts[0] in ("modeling", "costs", "studio",
                                                                               "workshop", "editing.py")]


# --- the import reader ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    line: int
    module: str  # absolute; for `from a import b`, both `a` and `a.b` (b may be a module or a name in a)


def module_name(path: Path) -> tuple[str, bool]:
    """The dotted name of a source file, and whether it is a package (`__init__.py`)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """`from ..x import y` in `module`: the package `level` steps up from the module's own, then `name`."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    if level > len(package):
        raise ValueError(f"{module}: a relative import of level {level} goes above the top-level package")
    base = package[:len(package) - level + 1]
    return ".".join([*base, *([name] if name else [])])


def imported_modules(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every import anywhere in `source` (module level, functions, `if TYPE_CHECKING:`), made absolute."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.level, node.module) if node.level else str(node.module)
            found.append(Import(node.lineno, base))
            found += [Import(node.lineno, f"{base}.{alias.name}") for alias in node.names if alias.name != "*"]
    return sorted(set(found), key=lambda i: (i.line, i.module))


@cache
def file_imports(path: Path) -> list[Import]:
    module, is_package = module_name(path)
    return imported_modules(path.read_text(encoding="utf-8"), module, is_package)


def layer_of(module: str) -> int | None:
    """Index in LAYERS of the layer whose longest prefix matches `module`; None outside the project."""
    best: tuple[int, int] | None = None
    for index, layer in enumerate(LAYERS):
        for prefix in layer.modules:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    return None if best is None else best[0]


def upward_imports(module: str, imports: list[Import]) -> Iterator[tuple[Import, int, int]]:
    """The imports of `module` that reach a layer above its own: (import, its layer, the imported layer)."""
    own = layer_of(module)
    for imported in imports:
        target = layer_of(imported.module)
        if own is not None and target is not None and target > own:
            yield imported, own, target


# --- the reader itself -------------------------------------------------------------------------------------

SYNTHETIC = textwrap.dedent("""\
    import os, modeling.preview.runner as r
    from modeling.preview import runner
    from . import sibling
    from ..design import keys
    from .. import limits
    from typing import TYPE_CHECKING
    if TYPE_CHECKING:
        from costs.units import RequestUnits
    def later():
        import streamlit
        from .sub.mod import name
""")


def test_the_reader_sees_every_import_form() -> None:
    # Written out by hand for a module `modeling.data.sample_data` (its package is modeling.data).
    expected = [
        Import(1, "modeling.preview.runner"), Import(1, "os"),
        Import(2, "modeling.preview"), Import(2, "modeling.preview.runner"),  # `runner` is a submodule
        Import(3, "modeling.data"), Import(3, "modeling.data.sibling"),  # `.` is modeling.data
        Import(4, "modeling.design"), Import(4, "modeling.design.keys"),  # `..` is modeling
        Import(5, "modeling"), Import(5, "modeling.limits"),
        Import(6, "typing"), Import(6, "typing.TYPE_CHECKING"),
        Import(8, "costs.units"), Import(8, "costs.units.RequestUnits"),  # inside `if TYPE_CHECKING:`
        Import(10, "streamlit"),  # inside a function
        Import(11, "modeling.data.sub.mod"), Import(11, "modeling.data.sub.mod.name"),
    ]
    assert imported_modules(SYNTHETIC, "modeling.data.sample_data") == expected


def test_a_package_resolves_relative_imports_against_itself() -> None:
    # In modeling/design/__init__.py, `.` is modeling.design itself, not modeling.
    imports = imported_modules("from . import plans\nfrom .checks import catalogue\n", "modeling.design", True)
    assert [i.module for i in imports] == ["modeling.design", "modeling.design.plans", "modeling.design.checks",
                                           "modeling.design.checks.catalogue"]
    with pytest.raises(ValueError, match="above the top-level package"):
        imported_modules("from ... import x\n", "modeling.data.sample_data")


def test_an_upward_import_is_found_whatever_its_form() -> None:
    # The core importing design three ways, and data importing the endpoint side from a function.
    core = imported_modules("from modeling.design import keys\nfrom .design.plans import Operation\n",
                            "modeling.model")
    assert [(i.line, i.module, LAYERS[t].name) for i, _, t in upward_imports("modeling.model", core)] == [
        (1, "modeling.design", "data and design"), (1, "modeling.design.keys", "data and design"),
        (2, "modeling.design.plans", "data and design"), (2, "modeling.design.plans.Operation", "data and design")]
    data = imported_modules("def f():\n    from ..preview import runner\n", "modeling.data.sample_data")
    assert {LAYERS[t].name for _, _, t in upward_imports("modeling.data.sample_data", data)} == {"endpoint side"}
    # Down and sideways are allowed: design importing the core, costs importing modeling.
    assert not list(upward_imports("modeling.design.planner", imported_modules(
        "from modeling.key_templates import KeyTemplate\nfrom modeling.data import sample_data\n",
        "modeling.design.planner")))
    assert not list(upward_imports("costs.units", imported_modules("from modeling import dynamodb_rules\n",
                                                                   "costs.units")))


# --- the layers ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_is_in_a_layer(path: Path) -> None:
    module, _ = module_name(path)
    assert layer_of(module) is not None, f"{module} is in no layer: add it to LAYERS (or CORE_MODULES)"


@pytest.mark.parametrize("path", ALL_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_layer_above_its_own(path: Path) -> None:
    module, _ = module_name(path)
    problems = [f"{path.relative_to(ROOT)}:{imported.line}: {module} ({LAYERS[own].name}) imports "
                f"{imported.module} ({LAYERS[target].name}), a higher layer"
                for imported, own, target in upward_imports(module, file_imports(path))
                if (module, _owning_module(imported.module)) not in KNOWN_UPWARD_IMPORTS]
    assert not problems, "\n".join(problems)


def _owning_module(name: str) -> str:
    """The module an imported name lives in: `modeling.design.keys.KeyTemplate` -> `modeling.design.keys`."""
    parts = name.split(".")
    while len(parts) > 1 and not (ROOT.joinpath(*parts).with_suffix(".py").exists()
                                  or (ROOT.joinpath(*parts) / "__init__.py").exists()):
        parts.pop()
    return ".".join(parts)


def test_known_upward_imports_still_exist() -> None:
    for (importer, imported), reason in KNOWN_UPWARD_IMPORTS.items():
        path = ROOT.joinpath(*importer.split(".")).with_suffix(".py")
        assert reason and any(_owning_module(i.module) == imported for i in file_imports(path)), (
            f"{importer} no longer imports {imported}: remove it from KNOWN_UPWARD_IMPORTS")


# Inside the endpoint side, which neighbours a part may not import (the layer allows sideways imports).
SIDEWAYS_FORBIDDEN = {
    "modeling.endpoint": ENDPOINT_SIDE - {"modeling.endpoint"} | {"modeling.design", "modeling.data"},
    "modeling.hot_partitions": ENDPOINT_SIDE - {"modeling.hot_partitions"},
    "modeling.interop": {"modeling.preview", "modeling.workspace", "modeling.migration", "modeling.hot_partitions"},
}


@pytest.mark.parametrize("path", sorted((ROOT / "modeling").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_endpoint_side_parts_keep_away_from_their_neighbours(path: Path) -> None:
    module, _ = module_name(path)
    part = ".".join(module.split(".")[:2])
    forbidden = SIDEWAYS_FORBIDDEN.get(part, set())
    reached = [f"{path.relative_to(ROOT)}:{i.line}: {i.module}" for i in file_imports(path)
               if ".".join(i.module.split(".")[:2]) in forbidden]
    assert not reached, "\n".join(reached)


# --- the libraries -------------------------------------------------------------------------------------------


def _top_levels(path: Path) -> set[str]:
    return {i.module.split(".")[0] for i in file_imports(path)}


@pytest.mark.parametrize("path", DOMAIN_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_domain_module_imports_no_ui_library(path: Path) -> None:
    imported = _top_levels(path)
    assert "streamlit" not in imported
    if path.name != "charts.py":
        assert "plotly" not in imported
    package = path.relative_to(ROOT).parts[0]
    if package in ("modeling", "editing.py"):
        assert "costs" not in imported
    if package in ("modeling", "costs", "studio", "editing.py"):
        assert "workshop" not in imported
    assert not {"ui", "pages"} & imported
    if package in ("modeling", "costs"):
        assert "editing" not in imported


def test_importing_every_domain_module_loads_no_streamlit() -> None:
    modules = [module_name(p)[0] for p in DOMAIN_MODULES if p.name not in ("__main__.py", "charts.py")]
    code = (f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
            "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('streamlit', 'plotly'))\n"
            "print(bad)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stdout.strip() == "[]"


# The command-line entry points are edges like the pages: they draw figures and pass them into the domain
# (`python -m costs report` hands the report's charts to `studio.reports.review_render` as HTML fragments).
EDGE_MODULES = {"__main__.py"}
# studio's own charts.py re-exports the domain's charts builders, so that ui draws its figures through studio, and
# draws the cost-review report's figures with them; it is the one studio module that loads plotly.
CHARTS_REEXPORT = ROOT / "studio" / "charts.py"


def test_charts_modules_are_imported_by_no_other_domain_module() -> None:
    for path in DOMAIN_MODULES:
        if path.name in EDGE_MODULES or path == CHARTS_REEXPORT:
            continue
        charts = [i for i in file_imports(path) if "charts" in i.module.split(".")]
        assert not charts, (path, charts)


def test_pages_folder_holds_only_pages_not_named_after_packages() -> None:
    forbidden = {"costs", "modeling", "streamlit", "boto3", "pandas", "plotly", "moto", "ui"}
    for page in (ROOT / "pages").iterdir():
        assert page.suffix == ".py" or page.name == "__pycache__", page
        assert page.stem not in forbidden


def test_the_layout_has_the_subpackages_the_architecture_page_describes() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(p.parent.name for p in (ROOT / "modeling").glob("*/__init__.py"))
    assert packages == ["data", "design", "endpoint", "hot_partitions", "interop", "migration", "preview",
                        "workspace"]
    for package in packages:
        assert f"`modeling/{package}/`" in page, package


# --- the application layer is the edges' only door into the domain -------------------------------------------

# The project's own top-level packages and modules; anything else an edge imports is the standard library or a
# third-party library (streamlit, boto3, ...), which the rule allows.
PROJECT_PACKAGES = frozenset({"modeling", "costs", "editing", "studio", "ui", "pages", "dds", "workshop", "app"})
# What each edge may import of the project: studio, its own package, (the pages only) ui, and (ui only) the
# workshop: ui draws the lessons, share links and session isolation the workshop defines, and studio may not
# import the workshop (`test_domain_module_imports_no_ui_library`), so that door cannot be studio.
EDGE_ALLOWED = {"pages": {"studio", "ui", "pages"}, "dds": {"studio", "dds"}, "workshop": {"studio", "workshop"},
                "ui": {"studio", "ui", "workshop"}}
EDGE_FILES = [p for p in ALL_MODULES if p.relative_to(ROOT).parts[0] in EDGE_ALLOWED]

# Imports not routed through studio yet, as (importing module, imported module): reason. The list may only
# shrink: an entry no longer imported fails `test_known_edge_imports_still_exist`.
KNOWN_EDGE_IMPORTS: dict[tuple[str, str], str] = {
    ("dds.cli", "costs.__main__"): "dds hands its arguments to `python -m costs`, an edge kept as an alias for one "
                                   "release; its parser moves under dds when the alias goes",
    ("dds.cli", "modeling.__main__"): "dds hands its arguments to `python -m modeling`, an edge kept as an alias "
                                      "for one release; its parser moves under dds when the alias goes",
    ("dds.cli_reference", "costs.__main__"): "the CLI reference captures `python -m costs`'s quick-calculator "
                                             "help, the parser dds dispatches to",
}


def edge_violations(module: str, imports: list[Import]) -> list[Import]:
    """The imports of an edge module (`ui.x`, `pages.x`, `dds.x`, `workshop.x`) that reach a project package other
    than studio, its own, ui for a page or the workshop for ui: `modeling`, `costs`, `editing`, or another edge."""
    allowed = EDGE_ALLOWED[module.split(".")[0]]
    return [i for i in imports if i.module.split(".")[0] in PROJECT_PACKAGES - allowed]


def test_the_edge_rule_sees_every_import_form() -> None:
    # Written out by hand: each line below but the first three reaches the domain (or another edge) its own way.
    source = textwrap.dedent("""\
        import streamlit as st, boto3
        from studio.design import propose
        from ui import session
        import costs.units
        from modeling.errors import Severity
        import editing
        from workshop import lessons
        def later():
            from costs import estimate
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from modeling.model import Model
    """)
    found = sorted({(i.line, i.module.split(".")[0])
                    for i in edge_violations("pages.x", imported_modules(source, "pages.x"))})
    assert found == [(4, "costs"), (5, "modeling"), (6, "editing"), (7, "workshop"), (9, "costs"), (12, "modeling")]
    # ui is a page's own glue, not dds's or the workshop's; a package's relative import stays in the package.
    from_ui = imported_modules("from ui import session\n", "dds.cli")
    assert [i.module for i in edge_violations("dds.cli", from_ui)] == ["ui", "ui.session"]
    # ui may reach the workshop it draws, never the domain nor the pages.
    in_ui = imported_modules("from workshop.isolation import workshop_mode\nimport editing\nimport pages.x\n",
                             "ui.session")
    assert [i.module for i in edge_violations("ui.session", in_ui)] == ["editing", "pages.x"]
    assert not edge_violations("workshop.roles", imported_modules("from . import states\n", "workshop.roles"))


@pytest.mark.parametrize("path", EDGE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_edges_reach_the_domain_only_through_studio(path: Path) -> None:
    module, _ = module_name(path)
    problems = [f"{path.relative_to(ROOT)}:{i.line}: {module} imports {i.module}; import it from studio (add a "
                f"use case or a re-export there if it has none)"
                for i in edge_violations(module, file_imports(path))
                if (module, _owning_module(i.module)) not in KNOWN_EDGE_IMPORTS]
    assert not problems, "\n".join(problems)


def test_known_edge_imports_still_exist() -> None:
    for (importer, imported), reason in KNOWN_EDGE_IMPORTS.items():
        path = ROOT.joinpath(*importer.split(".")).with_suffix(".py")
        assert reason and any(_owning_module(i.module) == imported for i in file_imports(path)), (
            f"{importer} no longer imports {imported}: remove it from KNOWN_EDGE_IMPORTS")
