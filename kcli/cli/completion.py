"""`kcli completion`: the shell completion scripts, printed or put where each shell looks.

The scripts come from kcli/cli/docgen.py, the generator of completions/ and of the copies a
package install puts under share/; they ask kcli itself for the candidates (profiles, config
names, metadata-shell paths), so an installed script never goes stale.
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.common import env_of, guarded, tool_group

completion_app = tool_group(
    "completion", "Shell completion for bash, zsh and fish: print the script, or install it for your shell."
)


def _shells(incomplete: str) -> list[str]:
    from kcli.workflows.completion import SHELLS

    return [shell for shell in SHELLS if shell.startswith(incomplete)]


ShellArg = Annotated[
    str | None,
    typer.Argument(
        help="bash, zsh or fish (default: the shell named by $SHELL).",
        metavar="[bash|zsh|fish]",
        autocompletion=_shells,
        show_default=False,
    ),
]


def _shell(given: str | None) -> str:
    """The shell named on the line, else the login shell of $SHELL; a usage error when neither is known."""
    from kcli.errors import UsageError
    from kcli.workflows.completion import SHELLS

    supported = ", ".join(SHELLS)
    if given is not None:
        if given not in SHELLS:
            raise UsageError(f"no completion for shell {given!r}; kcli has them for {supported}")
        return given
    login = env_of().environ.get("SHELL", "")
    name = login.rsplit("/", 1)[-1]
    if name not in SHELLS:
        said = f"$SHELL is {login!r}" if login else "$SHELL is not set"
        raise UsageError(f"name the shell ({supported}): {said}")
    return name


@completion_app.command("show")
@guarded
def show_command(shell: ShellArg = None) -> None:
    """Print the completion script of a shell, to source it or save it where you choose."""
    from kcli.cli.docgen import completion_script

    env_of().stdout.write(completion_script(_shell(shell)))


@completion_app.command("install")
@guarded
def install_command(
    shell: ShellArg = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say where the script would go; write nothing.")
    ] = False,
) -> None:
    """Put the completion script where the shell looks for it; new shells then complete kcli.

    bash: bash-completion's user directory. zsh: ~/.local/share/zsh/site-functions, added to $fpath
    by one line in .zshrc. fish: its completions directory. XDG_DATA_HOME, XDG_CONFIG_HOME,
    BASH_COMPLETION_USER_DIR and ZDOTDIR move them as they move the shells' own."""
    from kcli.cli.docgen import completion_script
    from kcli.workflows.completion import install, installation

    env = env_of()
    name = _shell(shell)
    done = install(installation(name, env.environ), completion_script(name), dry_run=dry_run)
    place = done.installation
    if done.script_changed:
        env.out(f"{'Would write' if dry_run else 'Wrote'} the {name} completion of kcli to {place.script}.")
    else:
        env.out(f"The {name} completion of kcli in {place.script} is up to date.")
    if place.rc_file is not None and place.rc_line is not None:
        if done.rc_line_added:
            env.out(f"{'Would add' if dry_run else 'Added'} to {place.rc_file}: {place.rc_line}")
        else:
            env.out(f"{place.rc_file} already has: {place.rc_line}")
    if name == "bash":
        env.out(f"bash-completion loads it in new shells (without bash-completion: source {place.script}).")
    elif not dry_run:
        env.out(f"New {name} shells complete kcli commands.")


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    app.add_typer(completion_app)
