"""The docstring examples of modeling/, costs/, studio/ and workshop/ run through `--doctest-modules` (pyproject's
testpaths), which imports every module of those packages: importing them must do nothing but define things.
pages/, ui/ and app.py stay out of the doctest run: importing a page runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCTEST_PACKAGES = ("modeling", "costs", "studio", "workshop")
DOCTEST_MODULES = ("editing.py",)  # domain modules outside a package


def _module_names() -> list[str]:
    names = [Path(module).stem for module in DOCTEST_MODULES]
    for package in DOCTEST_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] != "__main__":  # pytest's doctest collection skips __main__.py too
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_pytest_collects_doctests_from_the_domain_packages_only() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in options["addopts"].split()
    assert set(options["testpaths"]) == {"tests", *DOCTEST_PACKAGES, *DOCTEST_MODULES}  # never pages/, ui/ or app.py


def test_importing_every_domain_module_starts_nothing_writes_nothing_and_changes_no_setting(tmp_path: Path) -> None:
    code = (
        "import importlib, json, os, sys, threading\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "before = dict(os.environ)\n"
        f"for name in {_module_names()!r}: importlib.import_module(name)\n"
        "print(json.dumps({'threads': sorted(t.name for t in threading.enumerate()),\n"
        "                  'environment': sorted(k for k in set(os.environ) | set(before)\n"
        "                                        if os.environ.get(k) != before.get(k)),\n"
        "                  'files': sorted(os.listdir('.'))}))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                            timeout=180, check=True)
    effects = json.loads(result.stdout)
    assert effects == {"threads": ["MainThread"], "environment": [], "files": []}
