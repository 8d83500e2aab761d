"""`kcli metadata-quorum`: kafka-metadata-quorum.sh (describe, add-controller, remove-controller).

Connection options go before the subcommand, as kafka-metadata-quorum.sh takes them; they are
accepted after it too. Beyond the original: `describe --watch` refreshes the status in place.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from kcli.cli import connection_options
from kcli.cli.common import OutputOpt, env_of, guarded, java_int, run_admin, tool_group
from kcli.errors import KcliError, UsageError
from kcli.render import OutputFormat, emit

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.quorum import ControllerChange, QuorumInfo

V = TypeVar("V")

app = tool_group(
    "metadata-quorum",
    "Describe and change the KRaft metadata quorum (kafka-metadata-quorum.sh).",
    connection=True,
)

DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Show what would be done; send nothing.")]


def _check_properties_file(args: connection_options.ConnectionArgs) -> None:
    """A missing --command-config file is kafka-metadata-quorum's first check."""
    if args.command_config is not None and not args.command_config.exists():
        raise UsageError(f"Properties file {args.command_config} does not exists!")


@app.command()
@guarded
def describe(
    ctx: typer.Context,
    status: Annotated[
        bool, typer.Option("--status", help="Leader, epoch, high watermark, lag, voters, observers.")
    ] = False,
    replication: Annotated[
        bool, typer.Option("--replication", help="One row per voter and observer.")
    ] = False,
    human_readable: Annotated[
        bool, typer.Option("--human-readable", help="With --replication: timestamps as '<n> ms ago'.")
    ] = False,
    watch: Annotated[
        bool, typer.Option("--watch", "-w", help="Refresh the status in place until Ctrl-C (highlights lag).")
    ] = False,
    interval: Annotated[
        float, typer.Option("--interval", min=0.1, help="Seconds between --watch refreshes.")
    ] = 2.0,
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="With --watch: stop after this many refreshes.")
    ] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Describe the metadata quorum (DescribeCluster + DescribeQuorum)."""
    import time

    from kcli.ops.quorum import quorum_status, replication_rows
    from kcli.render import quorum as render

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _check_properties_file(connection)
    if watch and not replication:
        status = True
    if status and replication:
        raise UsageError(
            "Only one of --status or --replication should be specified with describe sub-command"
        )
    if not status and not replication:
        raise UsageError("One of --status or --replication must be specified with describe sub-command")
    if human_readable and not replication:
        raise UsageError("The option --human-readable is only supported along with --replication")

    env = env_of(ctx)
    config = connection_options.client_config(connection, env)
    if watch:
        _watch(env, config, replication=replication, interval=interval, count=count, output=output)
        return
    from kcli.client.api import quorum as wire

    info = run_admin(config, wire.describe)
    if status:
        emit(
            env,
            output,
            quorum_status(info),
            text=render.status_lines,
            json_value=render.status_json,
            table=render.status_table,
        )
        return
    rows = replication_rows(info)
    now_ms = int(time.time() * 1000) if human_readable else None
    emit(
        env,
        output,
        rows,
        text=lambda r: render.replication_lines(r, now_ms=now_ms),
        json_value=lambda r: render.replication_json(r, now_ms=now_ms),
        table=lambda r: render.replication_table(r, now_ms=now_ms),
    )


def _watch(
    env: Env,
    config: ClientConfig,
    *,
    replication: bool,
    interval: float,
    count: int | None,
    output: OutputFormat,
) -> None:
    """Refresh until Ctrl-C (or --count): rich Live on a terminal, one block per refresh otherwise."""
    import asyncio
    import time

    from kcli.client.api import quorum as wire
    from kcli.ops.quorum import quorum_status, replication_rows
    from kcli.render import console, write_json_line
    from kcli.render import quorum as render

    def view(item: QuorumInfo, of_replication: Callable[[Any], V], of_status: Callable[[Any], V]) -> V:
        """One refresh shown as --replication or --status asks."""
        return of_replication(replication_rows(item)) if replication else of_status(quorum_status(item))

    def renderable(item: QuorumInfo | KcliError, refreshed: str) -> object:
        from rich.console import Group
        from rich.text import Text

        if isinstance(item, KcliError):
            return Group(Text(f"{refreshed}  refresh failed: {item.line()}", style="red"))
        try:
            body = view(item, render.replication_table, render.status_table)
        except KcliError as error:
            return Group(Text(f"{refreshed}  {error.line()}", style="red"))
        return Group(Text(f"{refreshed}  (every {interval:g}s, Ctrl-C to stop)", style="dim"), body)

    def plain(item: QuorumInfo | KcliError) -> None:
        if isinstance(item, KcliError):
            if output is OutputFormat.json:
                write_json_line(env, {"error": item.line()})
            else:
                env.out(f"refresh failed: {item.line()}")
        else:
            try:
                if output is OutputFormat.json:
                    write_json_line(env, view(item, render.replication_json, render.status_json))
                else:
                    for line in view(item, render.replication_lines, render.status_lines):
                        env.out(line)
                    env.out()
            except KcliError as error:
                env.out(f"refresh failed: {error.line()}")
        env.stdout.flush()

    live_ui = env.stdout_isatty and output is not OutputFormat.json

    async def loop() -> None:
        refresh_ms = max(1000, min(config.request_timeout_ms, int(max(interval, 1.0) * 5000)))
        seen = 0
        stream = wire.watch(config, interval_s=interval, refresh_timeout_ms=refresh_ms)
        if live_ui:
            from rich.live import Live

            with Live(console=console(env), auto_refresh=False, transient=False) as live:
                async for item in stream:
                    live.update(renderable(item, time.strftime("%H:%M:%S")), refresh=True)  # type: ignore[arg-type]
                    seen += 1
                    if count is not None and seen >= count:
                        break
        else:
            async for item in stream:
                plain(item)
                seen += 1
                if count is not None and seen >= count:
                    break
        await stream.aclose()

    try:
        asyncio.run(loop())
    except KeyboardInterrupt:
        return


def _load_meta(path: Path) -> dict[str, str]:
    from kcli.files import read_text
    from kcli.properties import parse_properties

    return parse_properties(read_text(path, what="meta.properties"))


@app.command("add-controller")
@guarded
def add_controller(
    ctx: typer.Context,
    dry_run: DryRunOpt = False,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Add the controller whose server.properties is --command-config as a voter (AddRaftVoter)."""
    from kcli.ops.quorum import ControllerChange, controller_to_add
    from kcli.properties import read_properties_file

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    env = env_of(ctx)
    _check_properties_file(connection)
    if connection.command_config is None:
        raise UsageError(
            "You must supply the configuration file of the controller you are adding when using add-controller."
        )
    controller = controller_to_add(read_properties_file(connection.command_config), _load_meta)
    config = connection_options.client_config(connection, env)
    if not dry_run:
        from kcli.client.api import quorum as wire

        run_admin(config, lambda admin: wire.add_controller(admin, controller))
    change = ControllerChange(
        action="add",
        node_id=controller.node_id,
        directory_id=controller.directory_id,
        endpoints=controller.endpoints,
        dry_run=dry_run,
    )
    _emit_change(env, output, change)


def _emit_change(env: Env, output: OutputFormat, change: ControllerChange) -> None:
    from kcli.render import quorum as render_quorum

    emit(
        env,
        output,
        change,
        text=render_quorum.controller_change_lines,
        json_value=render_quorum.controller_change_json,
    )


@app.command("remove-controller")
@guarded
def remove_controller(
    ctx: typer.Context,
    controller_id: Annotated[
        int, typer.Option("--controller-id", "-i", help="Id of the controller to remove.")
    ],
    controller_directory_id: Annotated[
        str, typer.Option("--controller-directory-id", "-d", help="Its metadata directory id (base64 Uuid).")
    ],
    dry_run: DryRunOpt = False,
    unregister: Annotated[
        bool,
        typer.Option(
            "--unregister",
            help="Then unregister it from the cluster metadata too (UnregisterController, Kafka 4.4).",
        ),
    ] = False,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Remove a voter from the metadata quorum (RemoveRaftVoter), and with --unregister its registration."""
    from kcli.ops.quorum import ControllerChange, parse_kafka_uuid

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _check_properties_file(connection)
    java_int(controller_id, "--controller-id/-i")
    if controller_id < 0:
        raise UsageError(f"Invalid negative --controller-id: {controller_id}")
    directory_id = parse_kafka_uuid(controller_directory_id)
    env = env_of(ctx)
    config = connection_options.client_config(connection, env)
    change = ControllerChange(
        action="remove",
        node_id=controller_id,
        directory_id=directory_id,
        dry_run=dry_run,
        unregister=unregister,
    )
    if not dry_run:
        _remove_voter(config, change)
        if unregister:
            change = _unregister(env, output, config, change)
    _emit_change(env, output, change)


def _retry_hint(controller_id: int) -> str:
    return f"to unregister the controller from the cluster, run `kcli cluster unregister-controller --id {controller_id}`"


def _remove_voter(config: ClientConfig, change: ControllerChange) -> None:
    """RemoveRaftVoter; with --unregister, a voter that is not there (or no API) says how to unregister it."""
    from kcli.client.api import quorum as wire
    from kcli.client.errors import KafkaError, UnsupportedByServer

    try:
        run_admin(config, lambda admin: wire.remove_controller(admin, change.node_id, change.directory_id))
    except (KafkaError, UnsupportedByServer) as error:
        voter_missing = isinstance(error, UnsupportedByServer) or error.name in (
            "VOTER_NOT_FOUND",
            "UNSUPPORTED_VERSION",
        )
        if not change.unregister or not voter_missing:
            raise
        cause = error.server_message if isinstance(error, KafkaError) and error.server_message else str(error)
        raise KcliError(
            f"Failed to remove KRaft voter {change.node_id}: {cause}", hint=_retry_hint(change.node_id)
        ) from None


def _unregister(
    env: Env, output: OutputFormat, config: ClientConfig, change: ControllerChange
) -> ControllerChange:
    """UnregisterController after the removal; a failure still reports the removal first (it happened)."""
    from dataclasses import replace

    from kcli.client.api import cluster as wire
    from kcli.client.errors import KafkaError

    try:
        run_admin(config, lambda admin: wire.unregister_controller(admin, change.node_id))
    except KcliError as error:
        _emit_change(env, output, change)
        cause = (
            error.server_message if isinstance(error, KafkaError) and error.server_message else error.message
        )
        raise KcliError(
            f"Failed to unregister controller {change.node_id}: {cause}", hint=_retry_hint(change.node_id)
        ) from None
    return replace(change, unregistered=True)


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)
