"""Where each shell looks for a user's completion script for kcli, and putting it there.

bash-completion loads `completions/kcli` from its user directory on first use, fish loads
`completions/kcli.fish` from its config directory; zsh has no user directory of its own, so the
script goes to the XDG data directory's `zsh/site-functions` and one line in .zshrc adds that
directory to $fpath. A package install puts the same scripts under the environment's share/
(pyproject.toml), where the shells of a system install look already; pipx links them into the
same user directories for bash, zsh and fish.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kcli.errors import KcliError
from kcli.files import read_text

SHELLS = ("bash", "zsh", "fish")


@dataclass(frozen=True, slots=True, kw_only=True)
class Installation:
    """Where the completion script of one shell goes, and the start-up line it needs, if any."""

    shell: str
    script: Path
    rc_file: Path | None = None  # a shell start-up file that must name the script's directory
    rc_line: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Installed:
    """What `install` did (or, for a dry run, would do)."""

    installation: Installation
    script_changed: bool  # the script file was missing or held other text
    rc_line_added: bool  # the start-up line was missing from rc_file


def installation(shell: str, environ: Mapping[str, str]) -> Installation:
    """The user-level place of `shell`'s completion script, from the environment's directories."""
    home = Path(environ.get("HOME") or Path.home())
    data = Path(environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    if shell == "bash":
        user_dir = environ.get("BASH_COMPLETION_USER_DIR")
        base = Path(user_dir) if user_dir else data / "bash-completion"
        return Installation(shell=shell, script=base / "completions" / "kcli")
    if shell == "zsh":
        functions = data / "zsh" / "site-functions"
        return Installation(
            shell=shell,
            script=functions / "_kcli",
            rc_file=Path(environ.get("ZDOTDIR") or home) / ".zshrc",
            # compinit again after the directory joins $fpath, wherever the line lands in .zshrc
            rc_line=f"fpath=({functions} $fpath); autoload -Uz compinit && compinit",
        )
    if shell == "fish":
        config = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
        return Installation(shell=shell, script=config / "fish" / "completions" / "kcli.fish")
    raise ValueError(f"no completion for shell {shell!r}; kcli has them for {', '.join(SHELLS)}")


def install(place: Installation, script: str, *, dry_run: bool = False) -> Installed:
    """Write `script` where `place` says and add its start-up line if missing; a dry run only looks."""
    try:
        return _install(place, script, dry_run=dry_run)
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        raise KcliError(
            f"cannot install the {place.shell} completion:{where}: {error.strerror or error}",
            hint="`kcli completion show` prints the script, to put where you choose",
        ) from None


def _install(place: Installation, script: str, *, dry_run: bool) -> Installed:
    from kcli.writes import make_directories, open_append, write_file

    script_changed = _read(place.script, "completion script") != script
    rc_text = _read(place.rc_file, "shell start-up file") if place.rc_file is not None else None
    rc_line_added = place.rc_line is not None and not any(
        line.strip() == place.rc_line for line in (rc_text or "").splitlines()
    )
    if not dry_run:
        if script_changed:
            make_directories(place.script.parent, what="the completion directory")
            if place.script.is_symlink():  # e.g. pipx's link into an older or removed venv: not ours to write
                place.script.unlink()
            write_file(place.script, script, what="the completion script")
        if rc_line_added and place.rc_file is not None:
            text = rc_text or ""
            separator = "" if not text or text.endswith("\n") else "\n"
            with open_append(place.rc_file, what="the shell start-up file", binary=False) as rc:
                rc.write(f"{separator}# kcli completion\n{place.rc_line}\n")
    return Installed(installation=place, script_changed=script_changed, rc_line_added=rc_line_added)


def _read(path: Path, what: str) -> str | None:
    try:
        return read_text(path, what=what)
    except FileNotFoundError:
        return None
