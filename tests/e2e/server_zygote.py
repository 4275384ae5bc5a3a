"""A warm parent for the browser tests' Streamlit servers: it imports the libraries once, then forks a server
per request (as gunicorn's `--preload` does), so a test's server answers in a fraction of a second instead of
paying for streamlit, pandas, plotly, boto3 and moto again (about 1.5 s of CPU and several seconds of wall clock
per server on a busy two-core machine, and the browser tests start about fifty of them).

The child is the same server `python -m streamlit run app.py` starts: Streamlit's own command line with the
test's arguments, environment, working folder and log file. Nothing of the application is imported here, so
every setting the app reads from the environment (workspace, workshop mode, table workspace) is read in the
child, from the request's environment. Run as `python -m tests.e2e.server_zygote` from the repository root; it
reads one JSON request per line on stdin and answers each with the child's process id.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

# What `streamlit run app.py` imports before the first page is drawn, third-party only (see above)
PRELOADED = ("streamlit.web.cli", "streamlit.web.bootstrap", "pandas", "numpy", "plotly.graph_objects",
             "plotly.express", "boto3", "botocore.session", "moto.server", "faker", "pydantic", "yaml")


def _preload() -> None:
    for name in PRELOADED:
        __import__(name)


def _serve(request: dict[str, Any]) -> None:
    """In the forked child: become the server the request describes; never returns."""
    code = 1
    try:
        os.setsid()  # its own session and process group, like a subprocess started on its own
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["streamlit", *request["args"]]
        from streamlit.web.cli import main

        main(prog_name="streamlit")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # the traceback goes to the server's log, as `python -m streamlit` would print it
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    _preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps finished servers: no zombies
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _serve(request)
        print(pid, flush=True)


if __name__ == "__main__":
    main()
