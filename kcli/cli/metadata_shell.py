"""`kcli metadata-shell`: browse KRaft metadata (log, snapshot or live) like kafka-metadata-shell.sh."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcli.cli.common import OutputOpt, env_of, exit_with, guarded
from kcli.cli.completers import metadata_shell_words
from kcli.cli.connection_options import BootstrapControllerOpt, CommandConfigOpt, ProfileOpt, connection_args
from kcli.render import OutputFormat


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command(
        "metadata-shell",
        context_settings={
            "allow_extra_args": True,
            "ignore_unknown_options": True,
            "allow_interspersed_args": False,
        },
    )
    @guarded
    def metadata_shell(
        directory: Annotated[
            Path | None,
            typer.Option(
                "--directory",
                "-d",
                help="A log dir (or its __cluster_metadata-0): newest snapshot, then the log.",
            ),
        ] = None,
        snapshot: Annotated[
            Path | None,
            typer.Option("--snapshot", "-s", help="One snapshot (.checkpoint) or segment (.log) file."),
        ] = None,
        skip_corrupt: Annotated[
            bool, typer.Option("--skip-corrupt", help="Report corrupt batches/records, read on, and exit 1.")
        ] = False,
        dump: Annotated[
            bool, typer.Option("--dump", help="Print every record instead of opening the shell.")
        ] = False,
        types: Annotated[
            list[str] | None,
            typer.Option("--type", help="With --dump: only these record types (repeatable)."),
        ] = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        command: Annotated[
            list[str] | None,
            typer.Argument(
                help="A command to run once (ls, cat, find, tree, history PATH).",
                autocompletion=metadata_shell_words,
            ),
        ] = None,
    ) -> None:
        """Browse KRaft metadata as kafka-metadata-shell does: interactively, one command, or a script on stdin."""
        connection = connection_args(
            bootstrap_controller=bootstrap_controller, command_config=command_config, profile=profile
        )
        env = env_of()
        words = tuple(command or ())
        if connection.bootstrap_controller is not None:
            if directory is not None or snapshot is not None or dump:
                from kcli.errors import UsageError

                raise UsageError(
                    "--bootstrap-controller reads live metadata: drop --directory/--snapshot/--dump"
                )
            from kcli.cli.connection_options import client_config
            from kcli.shell.live import run_live

            exit_with(run_live(client_config(connection, env), words, env))
            return
        from kcli.shell.log_reading import SessionRequest, run

        request = SessionRequest(
            directory=directory,
            snapshot=snapshot,
            skip_corrupt=skip_corrupt,
            dump=dump,
            types=tuple(types or ()),
            json=output is OutputFormat.json,
            words=words,
        )
        exit_with(run(request, env))
