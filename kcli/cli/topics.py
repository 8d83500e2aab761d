"""`kcli topics`: kafka-topics.sh option for option (--list, --describe, --create, --alter, --delete).

kcli topics -b HOST:9092 --create --topic orders --partitions 6 --replication-factor 3 --config retention.ms=86400000
kcli topics -b HOST:9092 --create --topic orders --partitions 6 --dry-run   # configs with sources, placement
kcli topics -b HOST:9092 --alter --topic orders --partitions 12
kcli topics -b HOST:9092 --alter --topic orders --replication-factor 3     # a reassignment plan, no change
kcli topics -b HOST:9092 --describe --under-replicated-partitions           # nothing printed: all in sync
kcli topics -b HOST:9092 --delete --topic orders                            # names the groups with offsets

The checks and their order are kafka-topics.sh's (kcli.ops.topic_command); the reads and changes
are kcli.workflows.topics and kcli.workflows.topic_changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run_admin
from kcli.cli.connection_options import BootstrapServerOpt, NoControllerOpt, ProfileOpt, connection_args
from kcli.cli.version import VersionOpt
from kcli.errors import ExitCode, KcliError, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.cli.connection_options import ConnectionArgs
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.topic_command import TopicArgs

_A, _R, _C = "Actions", "Describe reports", "Create and alter"


def _flag(name: str, text: str, panel: str | None = None, metavar: str | None = None) -> Any:
    return typer.Option(name, help=text, rich_help_panel=panel, metavar=metavar)


ListOpt = Annotated[bool, _flag("--list", "List all available topics.", _A)]
DescribeOpt = Annotated[
    bool, _flag("--describe", "List details for the given topics (partitions, ISR, ELR, configs).", _A)
]
CreateOpt = Annotated[bool, _flag("--create", "Create a new topic.", _A)]
AlterOpt = Annotated[
    bool, _flag("--alter", "Add partitions (or, kcli: plan a replication-factor change).", _A)
]
DeleteOpt = Annotated[
    bool, _flag("--delete", "Delete topics (kcli names the groups with offsets on them).", _A)
]
TopicOpt = Annotated[str | None, _flag("--topic", "The topic; a regex (a,b = a|b) except with --create.")]
TopicIdOpt = Annotated[str | None, _flag("--topic-id", "The topic id to describe (kcli: or to delete).")]
PartitionsOpt = Annotated[
    str | None, _flag("--partitions", "Partition count to create or to grow to.", _C, "<int>")
]
FactorOpt = Annotated[
    str | None, _flag("--replication-factor", "Replicas per partition (with --alter: a plan).", _C, "<int>")
]
AssignmentOpt = Annotated[
    str | None, _flag("--replica-assignment", "Replicas per partition: 1:2,2:3,3:1.", _C)
]
ConfigOpt = Annotated[
    list[str] | None, _flag("--config", "A topic config name=value of --create (repeatable).", _C)
]
DeleteConfigOpt = Annotated[str | None, typer.Option("--delete-config", hidden=True)]
IfExistsOpt = Annotated[
    bool, _flag("--if-exists", "With --alter, --delete, --describe: only if the topic exists.")
]
IfNotExistsOpt = Annotated[
    bool, _flag("--if-not-exists", "With --create: no error when the topic exists.", _C)
]
ExcludeOpt = Annotated[
    bool, _flag("--exclude-internal", "Leave out internal topics (__consumer_offsets, ...).")
]
UnderReplicatedOpt = Annotated[
    bool, _flag("--under-replicated-partitions", "Only partitions with ISR < replicas.", _R)
]
UnavailableOpt = Annotated[
    bool, _flag("--unavailable-partitions", "Only partitions without a live leader.", _R)
]
UnderMinIsrOpt = Annotated[
    bool, _flag("--under-min-isr-partitions", "Only partitions below min.insync.replicas.", _R)
]
AtMinIsrOpt = Annotated[bool, _flag("--at-min-isr-partitions", "Only partitions at min.insync.replicas.", _R)]
OverridesOpt = Annotated[bool, _flag("--topics-with-overrides", "Only topics with a non-default config.", _R)]
LimitOpt = Annotated[
    str | None,
    _flag(
        "--partition-size-limit-per-response", "Partitions per DescribeTopicPartitions answer.", None, "<int>"
    ),
]
DryRunOpt = Annotated[
    bool, _flag("--dry-run", "Validate and show what --create/--alter/--delete would do; change nothing.")
]
# kafka-topics' --config is a topic config: the client file is --command-config only here.
CommandConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--command-config",
        help="Client .properties file (security, timeouts, ...).",
        rich_help_panel="Connection",
    ),
]


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("topics", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def topics(
        ctx: typer.Context,
        list_: ListOpt = False,
        describe: DescribeOpt = False,
        create: CreateOpt = False,
        alter: AlterOpt = False,
        delete: DeleteOpt = False,
        topic: TopicOpt = None,
        topic_id: TopicIdOpt = None,
        partitions: PartitionsOpt = None,
        replication_factor: FactorOpt = None,
        replica_assignment: AssignmentOpt = None,
        config: ConfigOpt = None,
        delete_config: DeleteConfigOpt = None,
        if_exists: IfExistsOpt = False,
        if_not_exists: IfNotExistsOpt = False,
        exclude_internal: ExcludeOpt = False,
        under_replicated: UnderReplicatedOpt = False,
        unavailable: UnavailableOpt = False,
        under_min_isr: UnderMinIsrOpt = False,
        at_min_isr: AtMinIsrOpt = False,
        with_overrides: OverridesOpt = False,
        partition_limit: LimitOpt = None,
        dry_run: DryRunOpt = False,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        bootstrap_controller: NoControllerOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Create, alter, delete, list and describe topics (kafka-topics.sh)."""
        from kcli.ops import topic_command as rules

        env = env_of(ctx)
        if bootstrap_controller is not None:
            raise UsageError(NO_CONTROLLERS)
        reports = {
            "under-replicated-partitions": under_replicated, "unavailable-partitions": unavailable,
            "under-min-isr-partitions": under_min_isr, "at-min-isr-partitions": at_min_isr,
        }  # fmt: skip
        args = rules.TopicArgs(
            topic=topic, topic_id=topic_id, partitions=partitions, replication_factor=replication_factor,
            replica_assignment=replica_assignment, configs=tuple(config or ()), if_exists=if_exists,
            if_not_exists=if_not_exists, exclude_internal=exclude_internal, with_overrides=with_overrides,
            reports=tuple(name for name, on in reports.items() if on), partition_limit=partition_limit,
            dry_run=dry_run,
        )  # fmt: skip
        given = {
            "list": list_, "describe": describe, "create": create, "alter": alter, "delete": delete,
            **reports, **rules.given_values(args),
        }  # fmt: skip
        action = rules.choose_action(given)
        if delete_config is not None:
            env.err(rules.DELETE_CONFIG_DEPRECATED)
        client = _client_config(connection_args(bootstrap_server, None, command_config, profile), env)
        for note in rules.check_options(action, given):
            env.out(note)
        refuse_stray(ctx.args)
        ACTIONS[action](env, output, client, args)


NO_CONTROLLERS = (
    "bootstrap-controller is not a recognized option of kafka-topics: topics are read and changed "
    "through brokers; use --bootstrap-server"
)


def _client_config(connection: ConnectionArgs, env: Env) -> ClientConfig:
    from kcli.cli.connection_options import client_config
    from kcli.kafka import EndpointType
    from kcli.ops.topic_command import MISSING_BOOTSTRAP

    config = client_config(connection, env, missing_bootstrap=MISSING_BOOTSTRAP, config_alias=False)
    if config.endpoint_type is EndpointType.CONTROLLERS:
        raise UsageError(NO_CONTROLLERS)
    return config


def _list(env: Env, output: OutputFormat, config: ClientConfig, args: TopicArgs) -> None:
    from kcli.render import emit
    from kcli.render import topics as view
    from kcli.workflows.topics import list_topics

    names = run_admin(
        config, lambda admin: list_topics(admin, topic=args.topic, exclude_internal=args.exclude_internal)
    )
    emit(env, output, names, text=view.list_lines, json_value=view.list_json)


def _describe(env: Env, output: OutputFormat, config: ClientConfig, args: TopicArgs) -> None:
    from kcli.ops.topic_command import java_int
    from kcli.ops.topics import Report
    from kcli.render import emit
    from kcli.render import topics as view
    from kcli.workflows.topics import describe_topics

    topic_id = _topic_id(args.topic_id)
    limit = (
        None
        if args.partition_limit is None
        else java_int(args.partition_limit, "partition-size-limit-per-response")
    )
    described = run_admin(
        config,
        lambda admin: describe_topics(
            admin,
            topic=args.topic,
            exclude_internal=args.exclude_internal,
            reports=tuple(Report(r) for r in args.reports),
            with_overrides=args.with_overrides,
            require=not args.if_exists,
            topic_id=topic_id,
            partition_limit=limit,
        ),
    )
    emit(
        env,
        output,
        described,
        text=view.describe_lines,
        json_value=view.describe_json,
        table=view.describe_table,
    )


def _topic_id(text: str | None) -> str | None:
    """--topic-id as Kafka reads it (Uuid.fromString); the zero id means none."""
    from kcli.metadata.uuids import ZERO_UUID, kafka_uuid, parse_kafka_uuid

    if text is None:
        return None
    try:
        parsed = parse_kafka_uuid(text)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return None if parsed == ZERO_UUID else kafka_uuid(parsed)


def _create(env: Env, output: OutputFormat, config: ClientConfig, args: TopicArgs) -> None:
    from kcli.ops import topic_command as rules
    from kcli.render import emit
    from kcli.render import topic_changes as view
    from kcli.workflows.topic_changes import do_create

    assert args.topic is not None
    assignment = rules.parse_replica_assignment(args.replica_assignment) if args.replica_assignment else None
    configs = rules.parse_topic_configs(args.configs)
    text = output is OutputFormat.text
    if rules.has_collision_chars(args.topic):
        (env.out if text else env.err)(rules.COLLISION_WARNING)
    partitions = None if args.partitions is None else rules.java_int(args.partitions, "partitions")
    factor = (
        None
        if args.replication_factor is None
        else rules.java_int(args.replication_factor, "replication-factor")
    )
    rules.check_create_values(partitions, factor)
    new = rules.NewTopic(
        name=args.topic,
        partitions=-1 if partitions is None else partitions,
        replication_factor=-1 if factor is None else factor,
        assignment=assignment or None,
        configs=configs,
    )
    result = run_admin(
        config, lambda admin: do_create(admin, new, if_not_exists=args.if_not_exists, dry_run=args.dry_run)
    )
    import dataclasses

    shown = dataclasses.replace(result, collision_warning=False)  # printed above, before the request
    emit(env, output, shown, text=view.create_text, json_value=view.create_json, table=view.create_table)
    if result.failed:
        assert result.topic.error is not None
        raise KcliError(result.topic.error.line())


def _alter(env: Env, output: OutputFormat, config: ClientConfig, args: TopicArgs) -> None:
    from kcli.ops import topic_command as rules
    from kcli.render import emit
    from kcli.render import topic_changes as view
    from kcli.workflows.topic_changes import do_alter

    assert args.topic is not None
    if args.replication_factor is not None:
        _plan_replication_factor(env, output, config, args)
        return
    assignment = rules.parse_replica_assignment(args.replica_assignment) if args.replica_assignment else None
    assert args.partitions is not None
    count = rules.java_int(args.partitions, "partitions")
    topic = args.topic
    result = run_admin(
        config,
        lambda admin: do_alter(
            admin,
            topic=topic,
            partitions=count,
            assignment=assignment or None,
            if_exists=args.if_exists,
            dry_run=args.dry_run,
        ),
    )
    emit(env, output, result, text=view.alter_text, json_value=view.alter_json)
    failed = [(i.topic, i.error) for i in result.increases if i.error is not None]
    for topic, error in failed[1:]:
        env.err(f"Error: {topic}: {error.line()}")
    if failed:
        raise KcliError(failed[0][1].line())


def _plan_replication_factor(env: Env, output: OutputFormat, config: ClientConfig, args: TopicArgs) -> None:
    """--alter --replication-factor: Kafka's tool refuses it; kcli plans it with the minimal-movement
    planner (current replicas stay) and says how to apply the plan. Nothing is changed."""
    from kcli.ops.topic_command import java_int
    from kcli.render import emit
    from kcli.render import reassign as view
    from kcli.workflows.topic_changes import plan_replication_factor

    assert args.replication_factor is not None and args.topic is not None
    topic = args.topic
    factor = java_int(args.replication_factor, "replication-factor")
    if not 1 <= factor <= 32767:
        raise UsageError("The replication factor must be between 1 and 32767 inclusive")
    plan = run_admin(
        config,
        lambda admin: plan_replication_factor(
            admin,
            topic=topic,
            replication_factor=factor,
            if_exists=args.if_exists,
        ),
    )
    emit(env, output, plan, text=view.generate_text, json_value=view.generate_json, table=view.generate_table)
    env.err(
        "Nothing was changed: a replication factor changes by moving replicas. Save the proposed "
        "assignment above to a file and run: kcli reassign-partitions --execute --reassignment-json-file "
        "FILE --allow-replication-factor-change --wait"
    )


def _delete(env: Env, output: OutputFormat, config: ClientConfig, args: TopicArgs) -> None:
    from kcli.render import emit
    from kcli.render import topic_changes as view
    from kcli.workflows.topic_changes import do_delete

    topic_id = _topic_id(args.topic_id) if args.topic is None else None
    if args.topic is None and topic_id is None:
        raise UsageError('Missing required argument "[topic]"')
    result = run_admin(
        config,
        lambda admin: do_delete(
            admin, topic=args.topic, topic_id=topic_id, if_exists=args.if_exists, dry_run=args.dry_run
        ),
    )
    if result.groups and not result.dry_run:
        env.err(view.groups_line(result.groups))
    if result.groups_error:
        env.err(f"Warning: {result.groups_error}")
    emit(env, output, result, text=view.delete_text, json_value=view.delete_json)
    failed = [(t.name or t.topic_id, t.error) for t in result.topics if t.error is not None]
    for name, error in failed[1:]:
        env.err(f"Error: {name}: {error.line()}")
    if failed:
        raise KcliError(failed[0][1].line())
    exit_with(ExitCode.OK)


ACTIONS = {
    "list": _list,
    "describe": _describe,
    "create": _create,
    "alter": _alter,
    "delete": _delete,
}
