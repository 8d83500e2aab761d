"""`kcli topics`: kafka-topics.sh --list and --describe (with its partition reports), read only.

kcli topics -b HOST:9092 --list
kcli topics -b HOST:9092 --describe --topic orders
kcli topics -b HOST:9092 --describe --under-replicated-partitions    # nothing printed: all in sync

Creating, altering and deleting topics stay with kafka-topics.sh; a topic's configs are `kcli configs`'s,
its replicas `kcli reassign-partitions`'s.
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.errors import UsageError
from kcli.render import OutputFormat

_F = "Describe reports"
READ_ONLY = (
    "kcli topics lists and describes topics; create, alter and delete them with kafka-topics.sh "
    "(a topic's configs: kcli configs, its replicas: kcli reassign-partitions)"
)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("topics", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def topics(
        ctx: typer.Context,
        list_: Annotated[
            bool, typer.Option("--list", help="List the topics.", rich_help_panel="Actions")
        ] = False,
        describe: Annotated[
            bool,
            typer.Option(
                "--describe",
                help="Describe the topics: partitions, leaders, replicas, ISR, ELR, non-default configs.",
                rich_help_panel="Actions",
            ),
        ] = False,
        create: Annotated[bool, typer.Option("--create", hidden=True)] = False,
        alter: Annotated[bool, typer.Option("--alter", hidden=True)] = False,
        delete: Annotated[bool, typer.Option("--delete", hidden=True)] = False,
        topic: Annotated[
            str | None,
            typer.Option(
                "--topic", help="Topics to show: a regex matched against the whole name (a,b = a|b)."
            ),
        ] = None,
        exclude_internal: Annotated[
            bool,
            typer.Option("--exclude-internal", help="Leave out internal topics (__consumer_offsets, ...)."),
        ] = False,
        if_exists: Annotated[
            bool, typer.Option("--if-exists", help="With --describe --topic: no error when no topic matches.")
        ] = False,
        under_replicated: Annotated[
            bool,
            typer.Option(
                "--under-replicated-partitions",
                help="Only partitions whose ISR is smaller than their replicas.",
                rich_help_panel=_F,
            ),
        ] = False,
        unavailable: Annotated[
            bool,
            typer.Option(
                "--unavailable-partitions",
                help="Only partitions without a leader, or whose leader is not a live broker.",
                rich_help_panel=_F,
            ),
        ] = False,
        under_min_isr: Annotated[
            bool,
            typer.Option(
                "--under-min-isr-partitions",
                help="Only partitions whose ISR is below min.insync.replicas.",
                rich_help_panel=_F,
            ),
        ] = False,
        at_min_isr: Annotated[
            bool,
            typer.Option(
                "--at-min-isr-partitions",
                help="Only partitions whose ISR is exactly min.insync.replicas.",
                rich_help_panel=_F,
            ),
        ] = False,
        with_overrides: Annotated[
            bool,
            typer.Option(
                "--topics-with-overrides",
                help="Only the topic lines of topics with a non-default config.",
                rich_help_panel=_F,
            ),
        ] = False,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """List and describe topics (like kafka-topics.sh --list / --describe; read only)."""
        from kcli.kafka import EndpointType
        from kcli.ops.topics import Report
        from kcli.render import emit
        from kcli.render import topics as view

        connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
        env = env_of(ctx)
        if create or alter or delete:
            raise UsageError(READ_ONLY)
        if list_ + describe != 1:
            raise UsageError("Command must include exactly one action: --list or --describe")
        reports = tuple(
            report
            for report, on in (
                (Report.UNDER_REPLICATED, under_replicated),
                (Report.UNAVAILABLE, unavailable),
                (Report.UNDER_MIN_ISR, under_min_isr),
                (Report.AT_MIN_ISR, at_min_isr),
            )
            if on
        )
        if list_:
            given = [f"--{r.value}" for r in reports] + ["--topics-with-overrides"] * with_overrides
            given += ["--if-exists"] * if_exists
            if given:
                raise UsageError(f"{given[0]} goes with --describe, not --list")
        if with_overrides and reports:
            raise UsageError(
                f"--topics-with-overrides and --{reports[0].value} are different reports: give one"
            )
        refuse_stray(ctx.args)
        config = client_config(connection, env)
        if config.endpoint_type is EndpointType.CONTROLLERS:
            raise UsageError(
                "topics come from brokers (Metadata): use --bootstrap-server, not --bootstrap-controller"
            )
        if list_:
            from kcli.workflows.topics import list_topics

            names = run_admin(
                config, lambda admin: list_topics(admin, topic=topic, exclude_internal=exclude_internal)
            )
            emit(env, output, names, text=view.list_lines, json_value=view.list_json)
            return
        from kcli.workflows.topics import describe_topics

        described = run_admin(
            config,
            lambda admin: describe_topics(
                admin,
                topic=topic,
                exclude_internal=exclude_internal,
                reports=reports,
                with_overrides=with_overrides,
                require=not if_exists,
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
