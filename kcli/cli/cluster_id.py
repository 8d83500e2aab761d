"""`kcli cluster-id` (also `kcli cluster cluster-id`): print the cluster id, as `kafka-cluster.sh cluster-id` does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import typer

from kcli.cli import connection_options
from kcli.cli.common import OutputOpt, env_of, guarded, run
from kcli.render import OutputFormat, emit

if TYPE_CHECKING:
    from kcli.client.cluster import ClusterDescription
    from kcli.client.config import ClientConfig

NO_CLUSTER_ID = "No cluster ID found. The Kafka version is probably too old."


def text_lines(description: ClusterDescription) -> Iterator[str]:
    """kafka-cluster.sh's exact line."""
    if description.cluster_id is None:
        yield NO_CLUSTER_ID
    else:
        yield f"Cluster ID: {description.cluster_id}"


def json_value(description: ClusterDescription) -> dict[str, Any]:
    return {
        "cluster_id": description.cluster_id,
        "controller_id": description.controller_id if description.controller_id >= 0 else None,
        "endpoint_type": description.endpoint_type.label,
    }


async def describe(config: ClientConfig) -> ClusterDescription:
    """Bootstrap (DescribeCluster, or Metadata for old brokers) and return what the cluster said."""
    from kcli.client.admin import Admin

    async with Admin(config) as admin:
        assert admin.description is not None
        return admin.description


def show(args: connection_options.ConnectionArgs, output: OutputFormat) -> None:
    """The command body shared by `kcli cluster-id` and `kcli cluster cluster-id`."""
    from kcli.render.cluster import cluster_id_table

    env = env_of()
    description = run(describe(connection_options.client_config(args, env)))
    emit(env, output, description, text=text_lines, json_value=json_value, table=cluster_id_table)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("cluster-id")
    @guarded
    def cluster_id(
        bootstrap_server: connection_options.BootstrapServerOpt = None,
        bootstrap_controller: connection_options.BootstrapControllerOpt = None,
        command_config: connection_options.CommandConfigOpt = None,
        profile: connection_options.ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Print the cluster id (like kafka-cluster.sh cluster-id), from brokers or controllers."""
        connection = connection_options.connection_args(
            bootstrap_server, bootstrap_controller, command_config, profile
        )
        show(connection, output)
