"""`kcli completion show|install`: the generated scripts, printed or put where each shell looks."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.cli.docgen import completion_script
from kcli.workflows.completion import SHELLS
from tests.conftest import REPO, invoke

# Where each shell's script goes under a home with no XDG variables set.
USER_PLACES = {
    "bash": ".local/share/bash-completion/completions/kcli",
    "zsh": ".local/share/zsh/site-functions/_kcli",
    "fish": ".config/fish/completions/kcli.fish",
}
CLEAN = {"XDG_DATA_HOME": None, "XDG_CONFIG_HOME": None, "BASH_COMPLETION_USER_DIR": None, "ZDOTDIR": None}


def _home(tmp_path: Path, **more: str | None) -> dict[str, str | None]:
    return {**CLEAN, "HOME": str(tmp_path), **more}


@pytest.mark.parametrize("shell", SHELLS)
def test_show_prints_the_committed_script(shell: str) -> None:
    result = invoke("completion", "show", shell)
    assert result.code == 0, result.stderr
    assert result.stdout == completion_script(shell)
    assert result.stdout == (REPO / "completions" / f"kcli.{shell}").read_text(encoding="utf-8")


def test_show_takes_the_shell_of_dollar_shell() -> None:
    result = invoke("completion", "show", environ={"SHELL": "/usr/local/bin/fish"})
    assert result.code == 0
    assert result.stdout == completion_script("fish")


@pytest.mark.parametrize(
    ("args", "shell", "message"),
    [
        (("tcsh",), "/bin/bash", "Error: no completion for shell 'tcsh'; kcli has them for bash, zsh, fish"),
        ((), "/bin/sh", "Error: name the shell (bash, zsh, fish): $SHELL is '/bin/sh'"),
        ((), None, "Error: name the shell (bash, zsh, fish): $SHELL is not set"),
    ],
)
def test_an_unknown_shell_is_a_usage_error(args: tuple[str, ...], shell: str | None, message: str) -> None:
    for command in ("show", "install"):
        result = invoke("completion", command, *args, environ={"SHELL": shell})
        assert (result.code, result.stdout, result.stderr.splitlines()) == (2, "", [message])


@pytest.mark.parametrize("shell", SHELLS)
def test_install_writes_where_the_shell_looks(shell: str, tmp_path: Path) -> None:
    result = invoke("completion", "install", shell, environ=_home(tmp_path))
    assert result.code == 0, result.stderr
    script = tmp_path / USER_PLACES[shell]
    assert script.read_text(encoding="utf-8") == completion_script(shell)
    assert result.lines[0] == f"Wrote the {shell} completion of kcli to {script}."
    rc_files = [path.name for path in tmp_path.iterdir() if path.is_file()]
    assert rc_files == ([".zshrc"] if shell == "zsh" else [])  # only zsh needs a start-up line


def test_zsh_install_adds_one_fpath_line_once(tmp_path: Path) -> None:
    zshrc = tmp_path / ".zshrc"
    zshrc.write_text("autoload -Uz compinit && compinit", encoding="utf-8")  # no final newline
    functions = tmp_path / ".local/share/zsh/site-functions"
    line = f"fpath=({functions} $fpath); autoload -Uz compinit && compinit"
    first = invoke("completion", "install", "zsh", environ=_home(tmp_path))
    assert first.lines[1] == f"Added to {zshrc}: {line}"
    again = invoke("completion", "install", "zsh", environ=_home(tmp_path))
    assert again.code == 0
    assert again.lines[:2] == [
        f"The zsh completion of kcli in {functions / '_kcli'} is up to date.",
        f"{zshrc} already has: {line}",
    ]
    assert zshrc.read_text(encoding="utf-8").splitlines() == [
        "autoload -Uz compinit && compinit",
        "# kcli completion",
        line,
    ]


def test_install_follows_the_xdg_and_shell_variables(tmp_path: Path) -> None:
    environ = _home(
        tmp_path / "home",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        ZDOTDIR=str(tmp_path / "zdot"),
    )
    (tmp_path / "zdot").mkdir()
    for shell in SHELLS:
        assert invoke("completion", "install", shell, environ=environ).code == 0
    found = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*") if path.is_file())
    assert found == [
        "config/fish/completions/kcli.fish",
        "data/bash-completion/completions/kcli",
        "data/zsh/site-functions/_kcli",
        "zdot/.zshrc",
    ]
    user_dir = tmp_path / "bash-user"
    environ["BASH_COMPLETION_USER_DIR"] = str(user_dir)
    assert invoke("completion", "install", "bash", environ=environ).code == 0
    assert (user_dir / "completions" / "kcli").is_file()


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    result = invoke("completion", "install", "zsh", "--dry-run", environ=_home(tmp_path))
    assert result.code == 0
    assert result.lines[0].startswith("Would write the zsh completion of kcli to ")
    assert result.lines[1].startswith(f"Would add to {tmp_path / '.zshrc'}: fpath=(")
    assert list(tmp_path.iterdir()) == []


def test_a_place_that_cannot_be_written_is_one_error_line(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where a directory must go", encoding="utf-8")
    result = invoke("completion", "install", "bash", environ=_home(tmp_path, XDG_DATA_HOME=str(blocker)))
    assert result.code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: cannot install the bash completion: {blocker}/bash-completion/completions/kcli: "
        "Not a directory (`kcli completion show` prints the script, to put where you choose)"
    ]


def test_the_root_has_no_second_way_to_install_completion() -> None:
    result = invoke("--install-completion")
    assert result.code == 2
    assert "No such option" in result.stderr
    assert "--install-completion" not in invoke("--help").stdout


def test_a_link_to_the_same_script_is_left_alone_and_a_stale_one_replaced(tmp_path: Path) -> None:
    # pipx links the scripts of the venvs it manages into these directories
    script = tmp_path / USER_PLACES["bash"]
    script.parent.mkdir(parents=True)
    managed = tmp_path / "venv-share" / "kcli"
    managed.parent.mkdir()
    managed.write_text(completion_script("bash"), encoding="utf-8")
    script.symlink_to(managed)
    result = invoke("completion", "install", "bash", environ=_home(tmp_path))
    assert result.lines[0] == f"The bash completion of kcli in {script} is up to date."
    assert script.is_symlink()
    managed.unlink()  # the venv is gone: the link dangles
    assert invoke("completion", "install", "bash", environ=_home(tmp_path)).code == 0
    assert not script.is_symlink() and script.read_text(encoding="utf-8") == completion_script("bash")
    assert not managed.exists()
