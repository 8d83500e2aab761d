"""Output of `kcli metadata-quorum`: kafka-metadata-quorum.sh lines, rich tables and JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kcli.metadata.uuids import ZERO_UUID, kafka_uuid
from kcli.ops.quorum import (
    ControllerChange,
    QuorumEndpoint,
    QuorumStatus,
    ReplicaState,
    ReplicationRow,
    relative_time_ms,
)

if TYPE_CHECKING:
    from rich.console import RenderableType

# Lag (in offsets) from which a follower is shown in red rather than yellow.
LAG_RED = 1000


def _replica_object(replica: ReplicaState, nodes: Mapping[int, tuple[QuorumEndpoint, ...]]) -> str:
    # Kafka 4.1+: a zero directory id is omitted, endpoints only when the node has some.
    parts = [f'"id": {replica.replica_id}']
    if replica.directory_id is not None and replica.directory_id != ZERO_UUID:
        parts.append(f'"directoryId": "{kafka_uuid(replica.directory_id)}"')
    endpoints = nodes.get(replica.replica_id, ())
    if endpoints:
        parts.append('"endpoints": [' + ", ".join(f'"{e}"' for e in endpoints) + "]")
    return "{" + ", ".join(parts) + "}"


def replica_list(replicas: Sequence[ReplicaState], nodes: Mapping[int, tuple[QuorumEndpoint, ...]]) -> str:
    """`[{"id": 1, ...}, {...}]` on one line, as describe --status prints voters and observers."""
    return "[" + ", ".join(_replica_object(r, nodes) for r in replicas) + "]"


def status_lines(status: QuorumStatus) -> list[str]:
    """The eight `Label:<pad to 24>value` lines of describe --status."""
    values = (
        ("ClusterId", status.cluster_id),
        ("LeaderId", status.leader_id),
        ("LeaderEpoch", status.leader_epoch),
        ("HighWatermark", status.high_watermark),
        ("MaxFollowerLag", status.max_follower_lag),
        ("MaxFollowerLagTimeMs", status.max_follower_lag_time_ms),
        ("CurrentVoters", replica_list(status.voters, status.nodes)),
        ("CurrentObservers", replica_list(status.observers, status.nodes)),
    )
    return [f"{label + ':':<24}{value}" for label, value in values]


def _replica_json(replica: ReplicaState, nodes: Mapping[int, tuple[QuorumEndpoint, ...]]) -> dict[str, Any]:
    return {
        "id": replica.replica_id,
        "directory_id": kafka_uuid(replica.directory_id) if replica.directory_id else None,
        "log_end_offset": replica.log_end_offset,
        "last_fetch_timestamp": replica.last_fetch_timestamp,
        "last_caught_up_timestamp": replica.last_caught_up_timestamp,
        "endpoints": [str(e) for e in nodes.get(replica.replica_id, ())],
    }


def status_json(status: QuorumStatus) -> dict[str, Any]:
    return {
        "cluster_id": status.cluster_id,
        "leader_id": status.leader_id,
        "leader_epoch": status.leader_epoch,
        "high_watermark": status.high_watermark,
        "max_follower_lag": status.max_follower_lag,
        "max_follower_lag_time_ms": status.max_follower_lag_time_ms,
        "voters": [_replica_json(v, status.nodes) for v in status.voters],
        "observers": [_replica_json(o, status.nodes) for o in status.observers],
    }


def _lag_style(lag: int) -> str:
    if lag <= 0:
        return ""
    return "red" if lag >= LAG_RED else "yellow"


def status_table(status: QuorumStatus) -> RenderableType:
    """A summary grid plus one row per voter and observer (lag coloured)."""
    from rich.console import Group
    from rich.table import Table

    summary = Table.grid(padding=(0, 2))
    summary.add_column(style="bold")
    summary.add_column()
    lag_style = _lag_style(status.max_follower_lag)
    for label, value in (
        ("ClusterId", status.cluster_id),
        ("LeaderId", status.leader_id),
        ("LeaderEpoch", status.leader_epoch),
        ("HighWatermark", status.high_watermark),
        (
            "MaxFollowerLag",
            f"[{lag_style}]{status.max_follower_lag}[/]" if lag_style else status.max_follower_lag,
        ),
        ("MaxFollowerLagTimeMs", status.max_follower_lag_time_ms),
    ):
        summary.add_row(label, str(value))
    leader = next((v for v in status.voters if v.replica_id == status.leader_id), None)
    leader_leo = leader.log_end_offset if leader else None
    members = Table(title="Quorum members")
    for column in ("NodeId", "Role", "DirectoryId", "LogEndOffset", "Lag", "Endpoints"):
        members.add_column(column)
    for replicas, role in ((status.voters, "Voter"), (status.observers, "Observer")):
        for replica in replicas:
            lag = leader_leo - replica.log_end_offset if leader_leo is not None else 0
            style = _lag_style(lag)
            shown_role = "Leader" if replica.replica_id == status.leader_id else role
            members.add_row(
                str(replica.replica_id),
                shown_role,
                kafka_uuid(replica.directory_id),
                str(replica.log_end_offset),
                f"[{style}]{lag}[/]" if style else str(lag),
                ", ".join(str(e) for e in status.nodes.get(replica.replica_id, ())),
            )
    return Group(summary, members)


REPLICATION_HEADERS = (
    "NodeId",
    "DirectoryId",
    "LogEndOffset",
    "Lag",
    "LastFetchTimestamp",
    "LastCaughtUpTimestamp",
    "Status",
)


def _timestamp(value: int | None, human: bool, now_ms: int | None, what: str) -> str:
    if value is None:
        return "-1"
    if not human:
        return str(value)
    assert now_ms is not None
    return f"{relative_time_ms(value, now_ms, what)} ms ago"


def replication_cells(rows: Sequence[ReplicationRow], *, now_ms: int | None = None) -> list[list[str]]:
    """The table cells; with `now_ms`, timestamps are `<n> ms ago` (--human-readable)."""
    human = now_ms is not None
    return [
        [
            str(row.node_id),
            kafka_uuid(row.directory_id),
            str(row.log_end_offset),
            str(row.lag),
            _timestamp(row.last_fetch_timestamp, human, now_ms, "last fetch"),
            _timestamp(row.last_caught_up_timestamp, human, now_ms, "last caught up"),
            row.status,
        ]
        for row in rows
    ]


def pretty_table_lines(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """ToolsUtils.prettyPrintTable: cells left-justified to the column width, each followed by a TAB."""
    widths = [len(h) for h in headers]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))
    return ["".join(f"{cell:<{widths[i]}}\t" for i, cell in enumerate(line)) for line in (headers, *rows)]


def replication_lines(rows: Sequence[ReplicationRow], *, now_ms: int | None = None) -> list[str]:
    return pretty_table_lines(REPLICATION_HEADERS, replication_cells(rows, now_ms=now_ms))


def replication_json(rows: Sequence[ReplicationRow], *, now_ms: int | None = None) -> list[dict[str, Any]]:
    result = []
    for row in rows:
        item: dict[str, Any] = {
            "node_id": row.node_id,
            "directory_id": kafka_uuid(row.directory_id),
            "log_end_offset": row.log_end_offset,
            "lag": row.lag,
            "last_fetch_timestamp": row.last_fetch_timestamp,
            "last_caught_up_timestamp": row.last_caught_up_timestamp,
            "status": row.status,
        }
        if now_ms is not None:
            item["last_fetch_ms_ago"] = (
                None if row.last_fetch_timestamp is None else now_ms - row.last_fetch_timestamp
            )
            item["last_caught_up_ms_ago"] = (
                None if row.last_caught_up_timestamp is None else now_ms - row.last_caught_up_timestamp
            )
        result.append(item)
    return result


def replication_table(rows: Sequence[ReplicationRow], *, now_ms: int | None = None) -> RenderableType:
    from rich.table import Table

    table = Table(title="Metadata replication")
    for header in REPLICATION_HEADERS:
        table.add_column(header)
    for row, cells in zip(rows, replication_cells(rows, now_ms=now_ms), strict=True):
        style = _lag_style(row.lag)
        if style:
            cells[3] = f"[{style}]{cells[3]}[/]"
        table.add_row(*cells)
    return table


# ------------------------------------------------------------------------- add/remove-controller


def controller_change_line(change: ControllerChange) -> str:
    """add-controller's or remove-controller's line (Kafka 4.4's: 4.0-4.3 put two spaces before KRaft)."""
    directory = kafka_uuid(change.directory_id)
    if change.action == "add":
        head = "DRY RUN of adding" if change.dry_run else "Added"
        endpoints = ", ".join(str(e) for e in change.endpoints)
        return f"{head} controller {change.node_id} with directory id {directory} and endpoints: {endpoints}"
    head = "DRY RUN of removing" if change.dry_run else "Removed"
    return f"{head} KRaft controller {change.node_id} with directory id {directory}"


def unregister_line(change: ControllerChange) -> str:
    """remove-controller --unregister's second line."""
    head = "DRY RUN of unregistering" if change.dry_run else "Unregistered"
    return f"{head} KRaft controller {change.node_id}"


def controller_change_lines(change: ControllerChange) -> list[str]:
    """The lines of a change: remove-controller --unregister adds one once the registration is gone."""
    lines = [controller_change_line(change)]
    if change.unregister and (change.dry_run or change.unregistered):
        lines.append(unregister_line(change))
    return lines


def controller_change_json(change: ControllerChange) -> dict[str, Any]:
    return {
        "action": change.action,
        "dry_run": change.dry_run,
        "controller_id": change.node_id,
        "directory_id": kafka_uuid(change.directory_id),
        "endpoints": [str(e) for e in change.endpoints],
        **({"unregistered": change.unregistered} if change.unregister else {}),
    }
