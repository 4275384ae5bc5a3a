"""Every command line exits quietly when its reader goes away (issue 15, finding 14): no traceback, and the
conventional status 141 (128 + SIGPIPE) or 0, with real subprocesses and real pipes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from modeling.cli_exit import EXIT_READER_GONE

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "modeling" / "examples" / "ecommerce_orders.yaml"

COMMANDS = [
    ("costs", "estimate", str(EXAMPLE), "--format", "text"),
    ("costs", "report", str(EXAMPLE)),
    ("costs", "check", str(EXAMPLE)),
    ("costs", "design", str(EXAMPLE)),
    ("modeling", "schema"),
    ("dds", "check", str(EXAMPLE)),  # the one command: it dispatches to the others, and must end as quietly
    ("dds", "schema"),
]


def _run_with_reader_gone(arguments: tuple[str, ...]) -> tuple[int, str]:
    """Start the CLI with stdout on a pipe whose read end is closed before it writes anything."""
    process = subprocess.Popen([sys.executable, "-m", *arguments], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone: the first write fails with EPIPE
    _, stderr = process.communicate(timeout=300)
    return process.returncode, stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("arguments", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_a_cli_whose_reader_is_gone_exits_quietly(arguments: tuple[str, ...]) -> None:
    code, stderr = _run_with_reader_gone(arguments)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr[-2000:]
    assert code in (0, EXIT_READER_GONE)


def test_piping_into_head_prints_one_line_and_no_traceback() -> None:
    # the reported case, through a real shell pipeline; schema is long enough (38 KB) to outlast head's read
    completed = subprocess.run(f"{sys.executable} -m modeling schema | head -1; echo \"status ${{PIPESTATUS[0]}}\"",
                               shell=True, executable="/bin/bash", cwd=ROOT, capture_output=True, text=True,
                               timeout=300, check=False)
    lines = completed.stdout.splitlines()
    assert lines[0] == "{"
    assert lines[-1] in ("status 0", f"status {EXIT_READER_GONE}")
    assert "Traceback" not in completed.stderr and "BrokenPipe" not in completed.stderr, completed.stderr
