"""The installed completion scripts complete kcli commands in the real shells.

bash always (it runs the test suite); zsh and fish when installed, else skipped with the reason.
Each shell finds the script where `kcli completion install` put it and asks this venv's kcli.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import invoke

BIN = Path(sys.executable).parent  # the `kcli` console script of this environment
BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")


def _installed(shell: str, home: Path) -> None:
    unset = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "ZDOTDIR", "BASH_COMPLETION_USER_DIR")
    environ: dict[str, str | None] = {"HOME": str(home), **dict.fromkeys(unset)}
    assert invoke("completion", "install", shell, environ=environ).code == 0


def _environ(home: Path) -> dict[str, str]:
    drop = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "ZDOTDIR", "BASH_COMPLETION_USER_DIR")
    environ = {k: v for k, v in os.environ.items() if k not in drop}
    return {**environ, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{environ.get('PATH', '')}"}


def _run(argv: list[str], home: Path) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, env=_environ(home), cwd=home, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


# The bash script's function asked as bash-completion asks it, candidates one a line.
BASH_ASK = (
    'COMP_WORDS=(kcli {words}); COMP_CWORD={cword}; _kcli_completion kcli; printf "%s\\n" "${{COMPREPLY[@]}}"'
)


def test_bash_completes_from_the_installed_script(tmp_path: Path) -> None:
    _installed("bash", tmp_path)
    script = tmp_path / ".local/share/bash-completion/completions/kcli"
    ask = BASH_ASK.format(words="metadata-", cword=1)
    answer = _run(["bash", "-c", f"source {script}; {ask}"], tmp_path)
    assert sorted(answer.split()) == ["metadata-quorum", "metadata-shell"]


@pytest.mark.skipif(not BASH_COMPLETION.exists(), reason="bash-completion is not installed")
def test_bash_completion_loads_it_from_the_user_directory(tmp_path: Path) -> None:
    _installed("bash", tmp_path)
    ask = BASH_ASK.format(words="completion ins", cword=2)
    loaded = _run(["bash", "-c", f"source {BASH_COMPLETION}; __load_completion kcli; {ask}"], tmp_path)
    assert loaded.split() == ["install"]


ZSH_DRIVE = r"""
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z "PS1='%% '; bindkey -e; $SETUP"
for word in metadata-s reassign-p; do
  # Tab, then turn the completed line into a print of it (^A: start of line); the quotes keep the
  # typed text from matching what the print outputs
  zpty -w -n z "kcli $word"$'\t'$'\x01'"print -r -- 'COMP''LETED' "$'\n'
done
zpty -w z "print 'FINI''SHED'"
zpty -r z out '*FINISHED*'
print -r -- "$out" | tr -d '\r' | grep -a '^COMPLETED' | cut -d' ' -f3
zpty -d z
"""


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
@pytest.mark.parametrize(
    "setup",
    [
        "fpath=($HOME/.local/share/zsh/site-functions $fpath); autoload -Uz compinit; compinit -u -D",
        "autoload -Uz compinit; compinit -u -D; source <(kcli completion show zsh)",
    ],
    ids=["from-fpath", "sourced"],
)
def test_zsh_completes_on_the_first_tab(setup: str, tmp_path: Path) -> None:
    # typer's own script only registers its function when zsh autoloads it: the first Tab did nothing
    _installed("zsh", tmp_path)
    driver = tmp_path / "drive.zsh"
    driver.write_text(ZSH_DRIVE.replace("$SETUP", setup.replace('"', '\\"')), encoding="utf-8")
    assert _run(["zsh", "-f", str(driver)], tmp_path).split() == ["metadata-shell", "reassign-partitions"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_from_its_completions_directory(tmp_path: Path) -> None:
    _installed("fish", tmp_path)
    answer = _run(["fish", "-c", 'complete -C "kcli metadata-s"'], tmp_path)
    assert [line.split("\t")[0] for line in answer.splitlines()] == ["metadata-shell"]
