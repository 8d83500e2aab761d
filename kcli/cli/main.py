"""The root `kcli` command: global flags over the tools of kcli/cli/tools.py.

Each tool module owns its typer commands and exposes `register(app)`; the root group imports a tool's
module only when that tool is needed (kcli/cli/tools.py), and tool modules import nothing heavy at
the top (kio schemas, rich tables, pyspark, prompt_toolkit load inside command bodies), so
`kcli --help` and every command start fast.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from kcli.cli.argv import parsed_line, root_group_class
from kcli.cli.examples import epilog_for
from kcli.cli.version import VersionOpt
from kcli.env import Env

app = typer.Typer(
    name="kcli",
    cls=root_group_class(),
    help="Admin toolkit for Apache Kafka clusters in KRaft mode (mirrors the kafka-*.sh admin tools).",
    # the "Examples" and "Runbooks" sections of the root's --help; each tool's: kcli/cli/tools.py
    epilog=epilog_for(""),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,  # `kcli completion show|install` instead of typer's root options
)

# Set by the completion scripts (kcli/cli/docgen.py) when a shell asks kcli for candidates.
COMPLETE_VAR = "_KCLI_COMPLETE"


@app.callback()
def root(
    ctx: typer.Context,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show tracebacks and protocol detail on stderr.")
    ] = False,
    version: VersionOpt = False,
) -> None:
    # imported here, not at the top: `kcli --help` and `kcli --version` never get this far
    from kcli.cli.common import env_of

    env = env_of(ctx)
    # --debug may stand anywhere on the line; kcli.cli.argv takes it out wherever it was.
    env.debug = debug or parsed_line(ctx).debug or env.environ.get("KCLI_DEBUG", "") not in ("", "0")


def _register_completion_shells() -> None:
    registrar = typer.Typer(add_completion=True)

    @registrar.callback()
    def _root() -> None:
        """Never run: building this app is what registers the shells."""

    typer.main.get_command(registrar)


def main(argv: list[str] | None = None, env: Env | None = None) -> int:
    """Run kcli with `argv`, returning the exit code instead of exiting."""
    env = env or Env()
    if os.environ.get(COMPLETE_VAR):
        # typer's answers to its scripts' protocol: typer registers them when it builds an app with
        # add_completion, which kcli's root is not (`kcli completion` replaces typer's root options)
        _register_completion_shells()
    try:
        app(args=argv, prog_name="kcli", obj=env, standalone_mode=True)
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except Exception as error:  # the last edge: a bug still gets one line, not a traceback
        from kcli.cli.common import fail_internal, fail_output

        failed = fail_output(error, env)
        return failed if failed is not None else fail_internal(error, env)
    return 0
