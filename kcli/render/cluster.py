"""Output of `kcli cluster-id`, `kcli cluster unregister` and `kcli cluster list-endpoints` (kafka-cluster.sh shapes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.client.api.cluster import ClusterEndpoints
    from kcli.client.cluster import ClusterDescription


def cluster_id_table(description: ClusterDescription) -> RenderableType:
    """One row: the cluster id, the active controller's id and which kind of node answered."""
    from rich.table import Table

    table = Table()
    for column in ("Cluster ID", "Controller ID", "Endpoint type"):
        table.add_column(column)
    table.add_row(
        description.cluster_id or "none (the Kafka version is probably too old)",
        str(description.controller_id) if description.controller_id >= 0 else "-",
        description.endpoint_type.label,
    )
    return table


def list_endpoints_lines(result: ClusterEndpoints) -> list[str]:
    """ClusterTool's printf table: `%-10s %-Hs %-10s %-Rs %-10s %-15s` (no STATE column for controllers).

    H is the longest host (100 when there are no nodes), R the longest rack among nodes that have one
    (10 when none); a node without rack prints `null`.
    """
    nodes = result.nodes
    host_width = max((len(n.host) for n in nodes), default=100)
    rack_width = max((len(n.rack) for n in nodes if n.rack is not None), default=10)
    controllers = result.endpoint_type == "controller"

    def row(cells: Sequence[str]) -> str:
        widths: tuple[int, ...] = (10, host_width, 10, rack_width) + ((15,) if controllers else (10, 15))
        return " ".join(f"{cell:<{width}}" for cell, width in zip(cells, widths, strict=True))

    header = ["ID", "HOST", "PORT", "RACK"] + ([] if controllers else ["STATE"]) + ["ENDPOINT_TYPE"]
    lines = [row(header)]
    for node in nodes:
        cells = [str(node.node_id), node.host, str(node.port), node.rack if node.rack is not None else "null"]
        if not controllers:
            cells.append("fenced" if node.fenced else "unfenced")
        cells.append(result.endpoint_type)
        lines.append(row(cells))
    return lines


def list_endpoints_json(result: ClusterEndpoints) -> dict[str, Any]:
    return {
        "cluster_id": result.cluster_id,
        "endpoint_type": result.endpoint_type,
        "nodes": [
            {"id": n.node_id, "host": n.host, "port": n.port, "rack": n.rack, "fenced": n.fenced}
            for n in result.nodes
        ],
    }


def list_endpoints_table(result: ClusterEndpoints) -> RenderableType:
    from rich.table import Table

    table = Table(title=f"{result.endpoint_type.capitalize()}s of cluster {result.cluster_id}")
    for column in ("ID", "HOST", "PORT", "RACK", "STATE"):
        table.add_column(column)
    for n in result.nodes:
        state = "[red]fenced[/]" if n.fenced else "unfenced"
        table.add_row(
            str(n.node_id),
            n.host,
            str(n.port),
            n.rack or "-",
            state if result.endpoint_type == "broker" else "-",
        )
    return table


def unregister_line(broker_id: int) -> str:
    return f"Broker {broker_id} is no longer registered."


UNREGISTER_UNSUPPORTED = "The target cluster does not support the broker unregistration API."
