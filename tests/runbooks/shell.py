"""Run a runbook's steps in bash, one step at a time, as an operator pasting them into one shell would.

Each step runs in `bash` with `set -euo pipefail`, kcli on PATH from this interpreter's environment,
in the runbook's work directory. The variables a step sets reach the next steps: every step starts
from the environment the previous one ended with (`set -a` exports what a step assigns, and
`export -p` saves it). Each step has a deadline; its output is kept beside it (step-N.out, .err).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from kcli.processes import kill_child
from tests.runbooks.markdown import Step

STEP_DEADLINE_S = 900.0  # a rolling restart of real nodes on a busy 2-core machine
STATE = "runbook-env.sh"


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRun:
    code: int
    stdout: str
    stderr: str
    seconds: float

    def tail(self, lines: int = 25) -> str:
        out = "\n".join(self.stdout.splitlines()[-lines:])
        err = "\n".join(self.stderr.splitlines()[-lines:])
        return f"--- stdout (tail) ---\n{out}\n--- stderr (tail) ---\n{err}"


class Shell:
    """The state of one runbook's run: its work directory and the environment its steps left."""

    def __init__(self, work: Path, variables: dict[str, str]) -> None:
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        venv_bin = str(Path(sys.executable).parent)
        env = {
            "PATH": f"{venv_bin}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": os.environ.get("HOME", str(work)),
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            "COLUMNS": "200",
            "KCLI_CONFIG": str(work / "kcli-config.toml"),  # no profile of the machine leaks in
            "XDG_STATE_HOME": str(work / "state"),
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
        }
        for name in ("JAVA_HOME",):
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(variables)
        self._state = work / STATE
        self._state.write_text(
            "".join(f"export {name}={_quoted(value)}\n" for name, value in sorted(env.items())),
            encoding="utf-8",
        )

    def variables(self) -> dict[str, str]:
        """The variables as the last step left them (read back from the saved environment)."""
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-c", f'set -a; source "{self._state}"; env -0'],
            capture_output=True,
            env={},
            timeout=30,
            check=True,
        )
        pairs = (item.split(b"=", 1) for item in done.stdout.split(b"\0") if b"=" in item)
        return {k.decode(): v.decode() for k, v in pairs}

    def run(self, step: Step, *, deadline_s: float = STEP_DEADLINE_S) -> StepRun:
        script = (
            f'set -a\nsource "{self._state}"\nset -euo pipefail\n'
            f"{step.script}\n"
            f'export -p > "{self._state}.next"\n'
        )
        started = time.monotonic()
        out = self.work / f"step-{step.number}.out"
        err = self.work / f"step-{step.number}.err"
        with out.open("w", encoding="utf-8") as stdout, err.open("w", encoding="utf-8") as stderr:
            process = subprocess.Popen(
                ["bash", "--noprofile", "--norc", "-c", script],
                cwd=self.work,
                stdout=stdout,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
                env={},
                start_new_session=True,  # the step's children are killed with it at the deadline
            )
            try:
                code = process.wait(timeout=deadline_s)
            except subprocess.TimeoutExpired:
                kill_child(process, group=True)
                process.wait(timeout=30)
                code = -1
                stderr.write(f"\n[the runner stopped the step after {deadline_s:.0f} s]\n")
        seconds = time.monotonic() - started
        if code == 0:
            Path(f"{self._state}.next").replace(self._state)
        return StepRun(
            code=code,
            stdout=out.read_text(encoding="utf-8", errors="replace"),
            stderr=err.read_text(encoding="utf-8", errors="replace"),
            seconds=seconds,
        )


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "'\"'\"'") + "'"
