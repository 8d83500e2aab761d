"""Run `kcli ARGS` in a fresh interpreter and report what it loaded: the start-up tests' one probe."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import contextlib, io, json, sys
sys.modules["hypothesis"] = None  # as the console entry point does
from kcli.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps([code, out.getvalue(), sorted(sys.modules)]))
"""


def run_fresh(*args: str) -> tuple[int, str, set[str]]:
    """(exit code, stdout, the modules loaded when it ended) of `kcli ARGS` in a new interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        # plain help, as the console entry point chooses off a terminal (rich help lists every tool)
        env={"TYPER_USE_RICH": "0", "KCLI_CONFIG": "/nonexistent/kcli.toml", "PATH": ""},
    )
    code, out, modules = json.loads(done.stdout)
    return code, out, set(modules)
