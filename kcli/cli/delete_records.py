"""`kcli delete-records`: kafka-delete-records.sh, with every partition checked before anything is
deleted, and a --dry-run showing each partition's offsets and what would go.

kcli delete-records -b HOST:9092 --offset-json-file offsets.json
kcli delete-records -b HOST:9092 --offset-json-file offsets.json --dry-run
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapServerOpt,
    CommandConfigOpt,
    NoControllerOpt,
    ProfileOpt,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import KcliError, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.cli.connection_options import ConnectionArgs
    from kcli.client.config import ClientConfig
    from kcli.env import Env

NO_CONTROLLERS = (
    "bootstrap-controller is not a recognized option of kafka-delete-records: records are deleted by "
    "the partitions' leaders (brokers); use --bootstrap-server"
)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("delete-records", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def delete_records(
        ctx: typer.Context,
        offset_json_file: Annotated[
            Path | None,
            typer.Option(
                "--offset-json-file",
                help='Offsets per partition: {"partitions": [{"topic": "foo", "partition": 1, "offset": 1}], '
                '"version": 1} (offset -1: everything up to the high watermark).',
            ),
        ] = None,
        dry_run: Annotated[
            bool,
            typer.Option(
                "--dry-run", help="Show each partition's offsets and what would be deleted; delete nothing."
            ),
        ] = False,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        bootstrap_controller: NoControllerOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Delete the records of partitions below an offset (kafka-delete-records.sh)."""
        from kcli.ops.delete_records import EXECUTING, parse_offset_file
        from kcli.render import delete_records as view
        from kcli.render import emit
        from kcli.workflows.delete_records import delete, ranges

        env = env_of(ctx)
        if bootstrap_controller is not None:
            raise UsageError(NO_CONTROLLERS)
        config = _config(connection_args(bootstrap_server, None, command_config, profile), env)
        if offset_json_file is None:
            raise UsageError('Missing required argument "[offset-json-file]"')
        refuse_stray(ctx.args)
        offsets = parse_offset_file(_read(offset_json_file), str(offset_json_file))
        if dry_run:
            found = run_admin(config, lambda admin: ranges(admin, offsets))
            emit(env, output, found, text=view.dry_run_lines, json_value=view.dry_run_json)
            return

        def starting() -> None:
            if output is OutputFormat.text:
                env.out(EXECUTING)
                env.stdout.flush()

        results = run_admin(config, lambda admin: delete(admin, offsets, on_start=starting))
        emit(env, output, results, text=view.text_lines, json_value=view.json_value)
        failed = [r for r in results if r.error is not None]
        if failed:
            raise KcliError(f"{len(failed)} of {len(results)} partition(s) could not be deleted")


def _read(path: Path) -> str:
    from kcli.files import DOCUMENT_LIMIT, read_text

    try:
        return read_text(path, what="offset JSON file", limit=DOCUMENT_LIMIT)
    except OSError as error:
        raise UsageError(f"Unable to read file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"Unable to read file {path}: not UTF-8 text") from None


def _config(args: ConnectionArgs, env: Env) -> ClientConfig:
    from kcli.cli.connection_options import client_config
    from kcli.kafka import EndpointType

    config = client_config(
        args, env, missing_bootstrap='Missing required argument "[bootstrap-server]"'
    )
    if config.endpoint_type is EndpointType.CONTROLLERS:
        raise UsageError(NO_CONTROLLERS)
    return config
