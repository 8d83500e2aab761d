"""`kcli transactions`: kafka-transactions.sh (list, describe, describe-producers, abort, find-hanging,
forceTerminateTransaction).

Connection options go before the subcommand, as kafka-transactions.sh takes them; they are accepted
after it too. Transactions live on brokers (each coordinates the ids of its __transaction_state
partitions), so --bootstrap-controller is refused, as Kafka's tool has no such option.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli.common import OutputOpt, env_of, guarded, run_admin, tool_group
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ConnectionArgs,
    ProfileOpt,
    client_config,
    connection_args,
    group_connection_options,
)
from kcli.cli.version import print_version
from kcli.errors import UsageError
from kcli.render import OutputFormat, emit

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.transactions import OpenTransaction

HELP = (
    "Analyze the transactional state of producers and recover from hanging transactions "
    "(kafka-transactions.sh)."
)
app = tool_group("transactions", HELP)

TopicOpt = Annotated[str, typer.Option("--topic", help="Topic name.")]
PartitionOpt = Annotated[int, typer.Option("--partition", help="Partition number.")]
ONLY_BROKERS = (
    "kafka-transactions works through brokers (each broker coordinates transactions): use "
    "--bootstrap-server, not --bootstrap-controller"
)


@app.callback()
def _connection(
    ctx: typer.Context,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-v", callback=print_version, is_eager=True, help="Show kcli's version and exit."
        ),
    ] = False,
) -> None:
    group_connection_options(ctx, bootstrap_server, bootstrap_controller, command_config, profile)


def _config(connection: ConnectionArgs, env: Env) -> ClientConfig:
    if connection.bootstrap_controller:
        raise UsageError(ONLY_BROKERS)
    return client_config(connection, env, missing_bootstrap="argument --bootstrap-server is required")


@app.command("list")
@guarded
def list_(
    ctx: typer.Context,
    duration_filter: Annotated[
        int | None,
        typer.Option(
            "--duration-filter",
            help="Only transactions running longer than this many milliseconds (below 0: all).",
        ),
    ] = None,
    transactional_id_pattern: Annotated[
        str | None,
        typer.Option(
            "--transactional-id-pattern",
            help="Only transactional ids matching this regular expression (Kafka 4.1+ brokers).",
        ),
    ] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """List the transactions of every coordinator (ListTransactions)."""
    from kcli.render import transactions as view
    from kcli.workflows import transactions as flow

    env = env_of(ctx)
    config = _config(connection_args(bootstrap_server, bootstrap_controller, command_config, profile), env)
    listings = run_admin(
        config,
        lambda admin: flow.list_transactions(
            admin, duration_ms=duration_filter, pattern=transactional_id_pattern
        ),
    )
    emit(env, output, listings, text=view.list_lines, json_value=view.list_json, table=view.list_table)


@app.command()
@guarded
def describe(
    ctx: typer.Context,
    transactional_id: Annotated[str, typer.Option("--transactional-id", help="Transactional id.")],
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Describe the state of an active transactional-id (DescribeTransactions at its coordinator)."""
    from kcli.render import transactions as view
    from kcli.workflows import transactions as flow

    env = env_of(ctx)
    config = _config(connection_args(bootstrap_server, bootstrap_controller, command_config, profile), env)
    result = run_admin(config, lambda admin: flow.describe(admin, transactional_id))
    emit(
        env,
        output,
        result,
        text=view.describe_lines,
        json_value=view.describe_json,
        table=view.describe_table,
    )


@app.command("describe-producers")
@guarded
def describe_producers(
    ctx: typer.Context,
    topic: TopicOpt,
    partition: PartitionOpt,
    broker_id: Annotated[
        int | None,
        typer.Option(
            "--broker-id", help="Describe the producer state on this replica (default: the leader)."
        ),
    ] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Describe the states of the active producers of a topic partition (DescribeProducers)."""
    from kcli.ops.reassign.model import TopicPartition
    from kcli.render import transactions as view
    from kcli.workflows import transactions as flow

    env = env_of(ctx)
    config = _config(connection_args(bootstrap_server, bootstrap_controller, command_config, profile), env)
    result = run_admin(
        config,
        lambda admin: flow.describe_producers(admin, TopicPartition(topic, partition), broker_id=broker_id),
    )
    emit(
        env,
        output,
        result,
        text=view.producers_lines,
        json_value=view.producers_json,
        table=view.producers_table,
    )


@app.command()
@guarded
def abort(
    ctx: typer.Context,
    topic: TopicOpt,
    partition: PartitionOpt,
    start_offset: Annotated[
        int | None,
        typer.Option(
            "--start-offset",
            help="Start offset of the transaction to abort (brokers 3.0 and above need only this).",
            rich_help_panel="Brokers on versions 3.0 and above",
        ),
    ] = None,
    producer_id: Annotated[
        int | None,
        typer.Option(
            "--producer-id", help="Producer id.", rich_help_panel="Brokers on versions older than 3.0"
        ),
    ] = None,
    producer_epoch: Annotated[
        int | None,
        typer.Option(
            "--producer-epoch", help="Producer epoch.", rich_help_panel="Brokers on versions older than 3.0"
        ),
    ] = None,
    coordinator_epoch: Annotated[
        int | None,
        typer.Option(
            "--coordinator-epoch",
            help="Coordinator epoch.",
            rich_help_panel="Brokers on versions older than 3.0",
        ),
    ] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Abort a hanging transaction: write an abort marker on the partition (WriteTxnMarkers).

    Needs administrative privileges (CLUSTER_ACTION). Identify the transaction by --start-offset
    (find-hanging lists it), or by --producer-id, --producer-epoch and --coordinator-epoch.
    """
    from kcli.ops import transactions as rules
    from kcli.ops.reassign.model import TopicPartition
    from kcli.render import transactions as view
    from kcli.workflows import transactions as flow

    env = env_of(ctx)
    config = _config(connection_args(bootstrap_server, bootstrap_controller, command_config, profile), env)
    rules.check_abort_identified(start_offset, producer_id)
    where = TopicPartition(topic, partition)
    spec = None
    if start_offset is None:
        assert producer_id is not None
        spec = rules.abort_spec_from_ids(
            where, producer_id=producer_id, producer_epoch=producer_epoch, coordinator_epoch=coordinator_epoch
        )
    done = run_admin(config, lambda admin: flow.abort(admin, where, start_offset=start_offset, spec=spec))
    if output is OutputFormat.json:
        emit(env, output, done, text=lambda _: [], json_value=view.abort_json)
    else:
        env.err(view.aborted_line(done))  # kafka-transactions prints nothing on stdout


@app.command("find-hanging")
@guarded
def find_hanging(
    ctx: typer.Context,
    broker_id: Annotated[
        int | None, typer.Option("--broker-id", help="Broker id to search for hanging transactions.")
    ] = None,
    max_transaction_timeout: Annotated[
        int,
        typer.Option(
            "--max-transaction-timeout",
            help="Maximum transaction timeout in minutes: only transactions whose producer last wrote longer "
            "ago are candidates.",
        ),
    ] = 15,
    topic: Annotated[
        str | None,
        typer.Option("--topic", help="Topic name to limit the search to (needed with --partition)."),
    ] = None,
    partition: Annotated[int | None, typer.Option("--partition", help="Partition number.")] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Find hanging transactions: open in a partition's log, but closed or unknown at their coordinator.

    With -o json each one carries the `kcli transactions ... abort` command that ends it.
    """
    from kcli.ops import transactions as rules
    from kcli.render import transactions as view
    from kcli.workflows import transactions as flow

    env = env_of(ctx)
    connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
    config = _config(connection, env)
    rules.check_find_hanging_scope(broker_id, topic, partition)
    report = run_admin(
        config,
        lambda admin: flow.find_hanging(
            admin,
            broker_id=broker_id,
            topic=topic,
            partition=partition,
            max_timeout_minutes=max_transaction_timeout,
        ),
    )

    def command(transaction: OpenTransaction) -> str:
        return abort_command(connection, transaction)

    emit(
        env,
        output,
        report,
        text=view.hanging_lines,
        json_value=lambda r: view.hanging_json(r, command),
        table=view.hanging_table,
    )


def command_prefix(connection: ConnectionArgs) -> tuple[str, ...]:
    """`kcli transactions` with the connection options given (brokers only), before a subcommand."""
    argv = ["kcli", "transactions"]
    if connection.bootstrap_server:
        argv += ["--bootstrap-server", connection.bootstrap_server]
    if connection.command_config is not None:
        argv += ["--command-config", str(connection.command_config)]
    if connection.profile:
        argv += ["--profile", connection.profile]
    return tuple(argv)


def abort_command(connection: ConnectionArgs, transaction: OpenTransaction) -> str:
    """The kcli command line that aborts `transaction`, through the connection it was found with."""
    import shlex

    tp = transaction.partition
    start = transaction.producer.txn_start_offset
    argv = [*command_prefix(connection), "abort", "--topic", tp.topic, "--partition", str(tp.partition)]
    return shlex.join([*argv, "--start-offset", str(start)])


@app.command("forceTerminateTransaction")
@guarded
def force_terminate(
    ctx: typer.Context,
    transactional_id: Annotated[str, typer.Option("--transactionalId", help="Transactional id.")],
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Force abort the ongoing transaction of a transactional id (Kafka 4.4; needs administrative privileges).

    Its producer is fenced (InitProducerId bumps its epoch), so that producer cannot commit. An id
    the cluster does not know is refused (Kafka's tool would create it).
    """
    from kcli.render import transactions as view
    from kcli.workflows import transactions as flow

    env = env_of(ctx)
    config = _config(connection_args(bootstrap_server, bootstrap_controller, command_config, profile), env)
    fenced = run_admin(
        config,
        lambda admin: flow.force_terminate(admin, transactional_id, timeout_ms=config.request_timeout_ms),
    )
    if output is OutputFormat.json:
        emit(
            env,
            output,
            fenced,
            text=lambda _: [],
            json_value=lambda f: view.terminate_json(transactional_id, f),
        )
    else:
        env.err(view.terminated_line(transactional_id, fenced))  # Kafka's tool prints nothing


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)
