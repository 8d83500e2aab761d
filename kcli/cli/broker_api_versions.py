"""`kcli broker-api-versions`: kafka-broker-api-versions.sh, every broker's ApiVersions.

kcli broker-api-versions -b HOST:9092

Kafka 4.4 deprecates the tool for `kafka-cluster.sh api-versions` (KIP-1220), which is `kcli cluster
api-versions`, the one that also asks controllers (--bootstrap-controller). Each API prints its
version range and the version kcli would use with that broker; a client API the broker lacks prints
UNSUPPORTED, a broker that could not be asked `ERROR: ...` (then exit 1).
"""

from __future__ import annotations

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat

ONLY_BROKERS = (
    "kafka-broker-api-versions asks brokers: for the controllers' API versions use "
    "`kcli cluster api-versions --bootstrap-controller HOST:PORT`"
)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("broker-api-versions", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def broker_api_versions(
        ctx: typer.Context,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Show the API versions every broker offers (kafka-broker-api-versions.sh)."""
        from kcli.client.api import cluster as wire
        from kcli.render import cluster as view
        from kcli.render import emit

        connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
        env = env_of(ctx)
        if connection.bootstrap_controller:
            raise UsageError(ONLY_BROKERS)
        refuse_stray(ctx.args)
        config = client_config(
            connection, env, missing_bootstrap='Missing required argument "[bootstrap-server]"'
        )
        result = run_admin(config, wire.api_versions)
        emit(env, output, result, text=view.api_versions_lines, json_value=view.api_versions_json)
        exit_with(ExitCode.ERROR if any(node.error for node in result[1]) else ExitCode.OK)
