"""`kcli get-offsets`: kafka-get-offsets.sh (GetOffsetShell), the offsets of partitions at a time.

kcli get-offsets -b HOST:9092 --topic orders
kcli get-offsets -b HOST:9092 --topic-partitions 'orders:0-3,audit' --time earliest
kcli get-offsets -b HOST:9092 --topic orders --time 1714521600000 -o json
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

TopicPartitionsOpt = Annotated[
    str | None,
    typer.Option(
        "--topic-partitions",
        help="Comma list of TOPIC-REGEX[:N | :N-M | :N- | :-M] (M exclusive; an empty regex is any topic).",
    ),
]
TopicOpt = Annotated[str | None, typer.Option("--topic", help="Topic regex (default: every topic).")]
PartitionsOpt = Annotated[
    str | None, typer.Option("--partitions", help="Comma list of partition ids (default: all).")
]
TimeOpt = Annotated[
    str,
    typer.Option(
        "--time",
        help="latest (-1), earliest (-2), max-timestamp (-3), earliest-local (-4), latest-tiered (-5), "
        "earliest-pending-upload (-6), or epoch milliseconds.",
    ),
]
ExcludeInternalOpt = Annotated[
    bool,
    typer.Option("--exclude-internal-topics", help="Leave out internal topics (__consumer_offsets, ...)."),
]
TIMEOUT_MS = 30000


def register(app: typer.Typer) -> None:
    """Add this tool's command to the root app."""

    @app.command("get-offsets", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def get_offsets(
        ctx: typer.Context,
        topic_partitions: TopicPartitionsOpt = None,
        topic: TopicOpt = None,
        partitions: PartitionsOpt = None,
        time: TimeOpt = "latest",
        exclude_internal_topics: ExcludeInternalOpt = False,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        version: VersionOpt = False,
    ) -> None:
        """Print the offsets of partitions at a time: latest, earliest, ... (kafka-get-offsets.sh)."""
        from kcli.ops.get_offsets import offset_spec, rules
        from kcli.render import emit
        from kcli.render import get_offsets as view
        from kcli.workflows.get_offsets import get_offsets as fetch

        env = env_of(ctx)
        connection = connection_args(bootstrap_server, None, command_config, profile)
        config = client_config(
            connection, env, missing_bootstrap='Missing required argument "[bootstrap-server]"'
        )
        refuse_stray(ctx.args)
        if topic_partitions is not None and (topic is not None or partitions is not None):
            raise UsageError("--topic-partitions cannot be used with --topic or --partitions")
        timestamp = offset_spec(time)
        chosen = rules(topic=topic, partitions=partitions, topic_partitions=topic_partitions)
        result = run_admin(
            config,
            lambda admin: fetch(
                admin, chosen, timestamp, exclude_internal=exclude_internal_topics, timeout_ms=TIMEOUT_MS
            ),
        )
        for line in view.skipped_lines(result):
            env.err(line)
        emit(env, output, result, text=view.lines, json_value=view.as_json, table=view.table)
