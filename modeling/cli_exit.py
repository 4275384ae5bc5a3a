"""How both command lines (`python -m modeling`, `python -m costs`) end: quietly when their reader goes away;
and how both read a model file, listing its problems instead of raising.

`python -m costs estimate model.yaml --format text | head -1` closes the pipe after one line; the next write
raises BrokenPipeError, and without care Python prints a traceback (or "Exception ignored ... BrokenPipeError"
when it flushes stdout at exit). The convention of Unix tools is to stop at once, print nothing and exit with
128 + SIGPIPE (13) = 141, the status a shell shows for a process killed by SIGPIPE.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from modeling.errors import ModelFileError
from modeling.model import Model
from modeling.model_file import load_model_file

EXIT_READER_GONE = 141  # 128 + SIGPIPE: what `sh` reports for a writer whose reader went away
EXIT_INTERRUPTED = 130  # 128 + SIGINT


def run_cli(main: Callable[[], int]) -> NoReturn:
    """Run a CLI's `main` and exit with its status; a closed stdout or Ctrl-C ends it without a traceback."""
    try:
        code = main()
        sys.stdout.flush()  # inside the try: a pipe closed after the last print fails here, not at exit
    except BrokenPipeError:
        code = _reader_gone()
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    sys.exit(code)


def _reader_gone() -> int:
    """Point stdout at /dev/null so that the interpreter's own flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout without a file descriptor (already closed, or replaced)
        pass
    return EXIT_READER_GONE


def load_listing_problems(path: Path) -> Model | None:
    """The valid model in a file, or None after printing every problem on stderr (one per line)."""
    try:
        return load_model_file(path)
    except ModelFileError as exc:
        for problem in exc.problems:
            print(f"{path}: {problem}", file=sys.stderr)
        return None
