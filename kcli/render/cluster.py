"""Output of `kcli cluster-id` and `kcli cluster` unregister, unregister-controller, list-endpoints and
api-versions (kafka-cluster.sh shapes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.client.api.cluster import ApiEntry, ClusterEndpoints, NodeApiVersions
    from kcli.client.cluster import ClusterDescription, NodeInfo


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


def unregister_controller_line(controller_id: int) -> str:
    return f"Controller {controller_id} is no longer registered."


UNREGISTER_CONTROLLER_UNSUPPORTED = "The target cluster does not support the controller unregistration API."


def node_text(node: NodeInfo) -> str:
    """Kafka's Node.toString: `host:port (id: 1 rack: null isFenced: false)`."""
    rack = node.rack if node.rack is not None else "null"
    return f"{node.host}:{node.port} (id: {node.node_id} rack: {rack} isFenced: {str(node.fenced).lower()})"


def api_entry_text(entry: ApiEntry) -> str:
    """One API as Kafka's NodeApiVersions.toString(true) prints it: `Metadata(3): 0 to 13 [usable: 13]`.

    The request header version kcli would use is in `-o json` only: Kafka's line has no such field.
    """
    label = f"{entry.name}({entry.api_key})" if entry.name is not None else f"UNKNOWN({entry.api_key})"
    if entry.min_version is None or entry.max_version is None:
        return f"{label}: UNSUPPORTED"
    if entry.min_version == entry.max_version:
        text = f"{label}: {entry.min_version}"
    else:
        text = f"{label}: {entry.min_version} to {entry.max_version}"
    if entry.unusable is not None:
        return f"{text} [unusable: {entry.unusable}]"
    if entry.usable is not None:
        return f"{text} [usable: {entry.usable}]"
    return text


def api_versions_lines(result: tuple[str, tuple[NodeApiVersions, ...]]) -> list[str]:
    """Per node `<node> -> (`, one tab-indented line per API (comma-terminated but the last), `)`."""
    lines: list[str] = []
    for node in result[1]:
        if node.error is not None:
            lines.append(f"{node_text(node.node)} -> ERROR: {node.error}")
            continue
        lines.append(f"{node_text(node.node)} -> (")
        texts = [api_entry_text(entry) for entry in node.entries]
        lines += [f"\t{text}," for text in texts[:-1]] + [f"\t{text}" for text in texts[-1:]]
        lines.append(")")
    return lines


def api_versions_json(result: tuple[str, tuple[NodeApiVersions, ...]]) -> dict[str, Any]:
    return {
        "endpoint_type": result[0],
        "nodes": [
            {
                "id": node.node.node_id,
                "host": node.node.host,
                "port": node.node.port,
                "error": node.error,
                "apis": [
                    {
                        "api_key": e.api_key,
                        "name": e.name,
                        "min_version": e.min_version,
                        "max_version": e.max_version,
                        "usable_version": e.usable,
                        "request_header_version": e.request_header,
                        "unusable": e.unusable,
                    }
                    for e in node.entries
                ],
            }
            for node in result[1]
        ],
    }
