"""`kcli groups`: kafka-groups.sh (GroupsCommand), the groups of every type.

kcli groups -b HOST:9092 --list
kcli groups -b HOST:9092 --list --share
kcli groups -b HOST:9092 --list --group-type classic --protocol consumer
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapServerOpt,
    CommandConfigOpt,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import UsageError
from kcli.render import OutputFormat

_F = "Filters"
ListOpt = Annotated[bool, typer.Option("--list", help="List the groups.", rich_help_panel="Actions")]
GroupTypeOpt = Annotated[
    str | None,
    typer.Option(
        "--group-type",
        help="Only groups of this type: classic, consumer, share or streams.",
        rich_help_panel=_F,
    ),
]
ProtocolOpt = Annotated[
    str | None, typer.Option("--protocol", help="Only groups of this protocol type.", rich_help_panel=_F)
]
ConsumerOpt = Annotated[
    bool,
    typer.Option(
        "--consumer",
        help="Every kind of consumer group (consumer; classic and simple ones).",
        rich_help_panel=_F,
    ),
]
ShareOpt = Annotated[bool, typer.Option("--share", help="Only share groups.", rich_help_panel=_F)]
StreamsOpt = Annotated[bool, typer.Option("--streams", help="Only streams groups.", rich_help_panel=_F)]


def register(app: typer.Typer) -> None:
    """Add this tool's command to the root app."""

    @app.command("groups", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def groups(
        ctx: typer.Context,
        list_: ListOpt = False,
        group_type: GroupTypeOpt = None,
        protocol: ProtocolOpt = None,
        consumer: ConsumerOpt = False,
        share: ShareOpt = False,
        streams: StreamsOpt = False,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        version: VersionOpt = False,
    ) -> None:
        """List the groups of every type: consumer, classic, share, streams (kafka-groups.sh)."""
        from kcli.client.api.groups import list_groups
        from kcli.ops.groups.listing import group_filter, group_lines
        from kcli.render import emit
        from kcli.render.consumer_groups import list_json

        env = env_of(ctx)
        connection = connection_args(bootstrap_server, None, command_config, profile)
        config = client_config(
            connection, env, missing_bootstrap="Missing required option(s) [bootstrap-server]"
        )
        if not list_:
            raise UsageError("Command must include exactly one action: --list.")
        chosen = group_filter(
            group_type=group_type, protocol=protocol, consumer=consumer, share=share, streams=streams
        )
        refuse_stray(ctx.args)
        listed = run_admin(config, lambda admin: list_groups(admin))
        shown = [g for g in listed if chosen.allows(g)]
        emit(env, output, shown, text=group_lines, json_value=list_json)
