"""Run a command line's `main(argv)` in this process, with its output captured, as a subprocess would see it.

Starting `python -m ...` costs about a second of imports per call; the CLI tests call `main` directly and a
few smoke tests in tests/test_cli_smoke.py still start the real programs. An uncaught exception is not turned
into a result: it fails the test with its traceback, which is what "no traceback for bad input" forbids.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class CliResult:
    returncode: int
    stdout: str
    stderr: str


def run_main(main: Callable[[list[str]], int], args: Sequence[object], cwd: Path = ROOT) -> CliResult:
    """Call `main` with `args` as strings from `cwd`; argparse's exits (usage errors, --help) become the code."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(arg) for arg in args])
        except SystemExit as exc:
            code = _exit_code(exc.code)
    return CliResult(code, out.getvalue(), err.getvalue())


def _exit_code(code: object) -> int:
    """sys.exit's argument as the process's exit status: None is 0, a message is 1 (printed to stderr)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
