"""The committed completion scripts (completions/), each sourced in its own shell, complete through
the real program: the script's half of the protocol and typer's half still fit together."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "completions"

# Each shell sources the script and asks for the completions of `kcli conf` (configs alone: consumer-groups also starts with con), printing them one a line.
PROBES = {
    "bash": (
        ["bash", "--norc", "--noprofile", "-c"],
        f"source {SCRIPTS / 'kcli.bash'}; COMP_WORDS=(kcli conf); COMP_CWORD=1; _kcli_completion kcli; "
        'printf "%s\\n" "${COMPREPLY[@]}"',
        "configs",
    ),
    "zsh": (
        # outside an interactive completion, _arguments (what the script evals) just prints its spec
        ["zsh", "-f", "-c"],
        f"compdef() {{ :; }}; _arguments() {{ print -r -- $@; }}; source {SCRIPTS / 'kcli.zsh'}; "
        "words=(kcli conf); CURRENT=2; _kcli_completion",
        '*: :(("configs":"Describe, alter or compare configs of..."))',
    ),
    "fish": (
        ["fish", "--no-config", "-c"],
        f"source {SCRIPTS / 'kcli.fish'}; complete -C 'kcli conf'",
        "configs\tDescribe, alter or compare configs of...",
    ),
}


@pytest.mark.parametrize("shell", sorted(PROBES))
def test_the_script_completes_through_the_program(shell: str) -> None:
    argv, script, expected = PROBES[shell]
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed")
    # `kcli` on PATH is this interpreter's console script
    environ = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    environ.pop("KCLI_CONFIG", None)
    done = subprocess.run(
        [*argv, script], capture_output=True, text=True, env=environ, timeout=60, check=False, cwd=ROOT
    )
    assert (done.returncode, done.stdout.splitlines()) == (0, [expected]), done.stderr
