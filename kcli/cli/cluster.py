"""`kcli cluster`: every subcommand of kafka-cluster.sh (cluster-id, unregister, unregister-controller,
list-endpoints, api-versions) with the same output lines, and `doctor`.

Connection options go after the subcommand, as kafka-cluster.sh takes them (before it works too).
`kcli cluster-id` is also a command of its own (kcli/cli/cluster_id.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli import connection_options
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, java_int, run, run_admin, tool_group
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat, emit

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from kcli.client.admin import Admin
    from kcli.ops.doctor import ClusterFacts

app = tool_group(
    "cluster", "Cluster-wide operations (kafka-cluster.sh) and the cluster doctor.", connection=True
)


@app.command("cluster-id")
@guarded
def cluster_id(
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Print the cluster id, as kafka-cluster.sh cluster-id does (the same as `kcli cluster-id`)."""
    from kcli.cli import cluster_id as tool

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    tool.show(connection, output)


@app.command()
@guarded
def unregister(
    ctx: typer.Context,
    broker_id: Annotated[int, typer.Option("--id", "-i", help="Id of the (shut down) broker to unregister.")],
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Unregister a broker that is gone for good (UnregisterBroker)."""
    from kcli.client.api import cluster as wire
    from kcli.render import cluster as render

    java_int(broker_id, "--id/-i")
    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _unregister(
        ctx, output, connection, ("broker_id", broker_id), lambda admin: wire.unregister_broker(admin, broker_id),
        unsupported=render.UNREGISTER_UNSUPPORTED, done=render.unregister_line(broker_id),
    )  # fmt: skip


@app.command("unregister-controller")
@guarded
def unregister_controller(
    ctx: typer.Context,
    controller_id: Annotated[
        int,
        typer.Option(
            "--id", "-i", help="Id of the controller to unregister (already removed from the voters)."
        ),
    ],
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Unregister a controller that is gone for good (UnregisterController, KIP-1312, Kafka 4.4).

    Remove it from the voters first (kcli metadata-quorum remove-controller, which can unregister it
    in the same step with --unregister); the active controller cannot unregister itself.
    """
    from kcli.client.api import cluster as wire
    from kcli.render import cluster as render

    java_int(controller_id, "--id/-i")
    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _unregister(
        ctx, output, connection, ("controller_id", controller_id),
        lambda admin: wire.unregister_controller(admin, controller_id),
        unsupported=render.UNREGISTER_CONTROLLER_UNSUPPORTED, done=render.unregister_controller_line(controller_id),
    )  # fmt: skip


def _unregister(
    ctx: typer.Context,
    output: OutputFormat,
    connection: connection_options.ConnectionArgs,
    node: tuple[str, int],
    call: Callable[[Admin], Awaitable[None]],
    *,
    unsupported: str,
    done: str,
) -> None:
    """Unregister a broker or controller (`node`: its JSON key and id); a server without the API is
    reported on stdout with exit 0, as kafka-cluster.sh reports it."""
    from kcli.client.errors import UnsupportedByServer

    env = env_of(ctx)
    key, node_id = node
    try:
        run_admin(connection_options.client_config(connection, env), call)
    except UnsupportedByServer:
        emit(env, output, None, text=lambda _: [unsupported],
             json_value=lambda _: {key: node_id, "unregistered": False, "supported": False})  # fmt: skip
        return
    emit(env, output, None, text=lambda _: [done], json_value=lambda _: {key: node_id, "unregistered": True})


@app.command("list-endpoints")
@guarded
def list_endpoints(
    ctx: typer.Context,
    include_fenced_brokers: Annotated[
        bool, typer.Option("--include-fenced-brokers", help="Also list fenced brokers (DescribeCluster v2).")
    ] = False,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """List the brokers (or, with --bootstrap-controller, the controllers) and their endpoints."""
    from kcli.client.api import cluster as wire
    from kcli.client.errors import UnsupportedByServer
    from kcli.errors import UsageError
    from kcli.render import cluster as render

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    env = env_of(ctx)
    if include_fenced_brokers and connection.bootstrap_controller:
        raise UsageError(
            "The option --include-fenced-brokers is only supported with --bootstrap-server option"
        )
    config = connection_options.client_config(connection, env)
    try:
        result = run_admin(
            config, lambda admin: wire.list_endpoints(admin, include_fenced=include_fenced_brokers)
        )
    except UnsupportedByServer as error:
        # kafka-cluster.sh prints UnsupportedVersionException's message on stdout and exits 0.
        env.out(error.line())
        return
    emit(
        env,
        output,
        result,
        text=render.list_endpoints_lines,
        json_value=render.list_endpoints_json,
        table=render.list_endpoints_table,
    )


@app.command("api-versions")
@guarded
def api_versions(
    ctx: typer.Context,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Show the API versions each broker (or, with --bootstrap-controller, each controller) offers.

    Each API prints its version range and the version kcli would use with that node; a client API
    the node does not offer prints UNSUPPORTED. Exit 1 when a node could not be asked.
    """
    from kcli.client.api import cluster as wire
    from kcli.render import cluster as render

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    env = env_of(ctx)
    result = run_admin(connection_options.client_config(connection, env), wire.api_versions)
    emit(env, output, result, text=render.api_versions_lines, json_value=render.api_versions_json)
    exit_with(ExitCode.ERROR if any(node.error for node in result[1]) else ExitCode.OK)


@app.command()
@guarded
def doctor(
    ctx: typer.Context,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on", help="Exit 1 when a finding is at least this severe: info|low|medium|high|critical."
        ),
    ] = "high",
    timeout_ms: Annotated[
        int, typer.Option("--timeout-ms", min=100, help="Deadline for each endpoint probe and cluster call.")
    ] = 10000,
    max_transaction_timeout: Annotated[
        int | None,
        typer.Option(
            "--max-transaction-timeout",
            min=0,
            help="Report open transactions whose producer last wrote more than this many minutes ago "
            "(default: the brokers' transaction.max.timeout.ms).",
        ),
    ] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
    group: Annotated[
        list[str] | None,
        typer.Option(
            "--group",
            help="Also check this consumer group's lag (repeatable; brokers only).",
            rich_help_panel="Groups",
        ),
    ] = None,
    max_lag: Annotated[
        int | None,
        typer.Option(
            "--max-lag",
            min=0,
            help="With --group: a partition lagging more records is a high finding.",
            rich_help_panel="Groups",
        ),
    ] = None,
    max_time_lag: Annotated[
        str | None,
        typer.Option(
            "--max-time-lag",
            help="With --group: a partition further behind (30s, 5m, PT1H) is a high finding.",
            rich_help_panel="Groups",
        ),
    ] = None,
) -> None:
    """Check every advertised endpoint, node identity, the controller, quorum, fencing, metadata.version
    and hanging transactions.

    Both --bootstrap-server and --bootstrap-controller may be given to check brokers and controllers
    from both sides; --group adds the lag of consumer groups. Exit 0 healthy, 1 findings at or above
    --fail-on, 2 usage.
    """
    from kcli.kafka import Severity
    from kcli.ops.doctor import diagnose
    from kcli.render import doctor as render
    from kcli.workflows.doctor import collect_facts

    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    threshold = Severity.parse(fail_on)
    env = env_of(ctx)
    if connection.bootstrap_server and connection.bootstrap_controller:
        configs = [
            connection_options.client_config(replace(connection, bootstrap_controller=None), env),
            connection_options.client_config(replace(connection, bootstrap_server=None), env),
        ]
    else:
        configs = [connection_options.client_config(connection, env)]

    from kcli.cli.transactions import command_prefix

    groups = _group_check(group, max_lag, max_time_lag, connection)

    async def go() -> ClusterFacts:
        return await collect_facts(
            configs,
            timeout_ms=timeout_ms,
            abort_prefix=command_prefix(connection),
            max_transaction_ms=None if max_transaction_timeout is None else max_transaction_timeout * 60_000,
        )

    report = diagnose(run(go()), fail_on=threshold)
    if groups is not None:
        from kcli.ops.doctor_groups import with_group_findings
        from kcli.workflows.doctor_groups import group_findings_of

        found = run_admin(configs[0], lambda admin: group_findings_of(admin, groups, timeout_ms=timeout_ms))
        report = with_group_findings(report, found)
    emit(env, output, report, text=render.text_lines, json_value=render.json_value, table=render.table)
    exit_with(ExitCode.ERROR if report.failed else ExitCode.OK)


def _group_check(
    groups: list[str] | None,
    max_lag: int | None,
    max_time_lag: str | None,
    connection: connection_options.ConnectionArgs,
) -> Any:
    """The --group check's settings (GroupCheck), None without --group; refuses what it cannot do."""
    if not groups:
        if max_lag is not None or max_time_lag is not None:
            raise UsageError("--max-lag and --max-time-lag go with --group")
        return None
    if not connection.bootstrap_server:
        raise UsageError("--group needs --bootstrap-server: consumer groups live on the brokers")
    from kcli.ops.groups.lag import threshold_ms
    from kcli.workflows.doctor_groups import GroupCheck

    time_ms = threshold_ms(max_time_lag) if max_time_lag is not None else None
    return GroupCheck(groups=tuple(groups), max_lag=max_lag, max_time_lag_ms=time_ms)


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)
