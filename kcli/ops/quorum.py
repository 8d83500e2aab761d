"""The KRaft metadata quorum: status and replication models, lag, relative times, controller configs.

Pure functions over values built from DescribeQuorum responses (by kcli.client.api.quorum) and over
a controller's server.properties (for add-controller, as kafka-metadata-quorum.sh reads it).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kcli.errors import KcliError, UsageError
from kcli.kafka import host_port
from kcli.metadata import uuids
from kcli.metadata.uuids import KAFKA_UUID_LENGTH


def parse_kafka_uuid(text: str) -> uuid.UUID:
    """Kafka's base64 form (`AAAAAAAAAAAAAAAAAAAAAA`), or the usual hex form as a convenience.

    Anything else is refused with Uuid.fromString's reason, as kafka-metadata-quorum words it.
    """
    text = text.strip()
    if len(text) != KAFKA_UUID_LENGTH:
        try:
            return uuid.UUID(text)
        except ValueError:
            pass
    try:
        return uuids.parse_kafka_uuid(text)
    except ValueError as error:
        raise UsageError(f"Failed to parse --controller-directory-id: {error}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class QuorumEndpoint:
    """A listener of a voter: `NAME://host:port` (IPv6 hosts in brackets)."""

    listener: str
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.listener}://{host_port(self.host, self.port)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicaState:
    """One voter or observer of the metadata partition. Timestamps are epoch ms, None when unknown."""

    replica_id: int
    directory_id: uuid.UUID | None = None
    log_end_offset: int
    last_fetch_timestamp: int | None = None
    last_caught_up_timestamp: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class QuorumInfo:
    """DescribeQuorum's view of __cluster_metadata-0, plus the cluster id from DescribeCluster."""

    cluster_id: str | None
    leader_id: int
    leader_epoch: int
    high_watermark: int
    voters: tuple[ReplicaState, ...]
    observers: tuple[ReplicaState, ...] = ()
    nodes: Mapping[int, tuple[QuorumEndpoint, ...]] = field(default_factory=dict)

    @property
    def leader(self) -> ReplicaState | None:
        return next((v for v in self.voters if v.replica_id == self.leader_id), None)


def _leader_or_fail(info: QuorumInfo) -> ReplicaState:
    leader = info.leader
    if leader is None:
        raise KcliError(
            f"The quorum has no leader among its voters (LeaderId {info.leader_id})",
            hint="an election may be in progress; retry in a few seconds",
        )
    return leader


def _max_lag_voter(info: QuorumInfo) -> ReplicaState:
    # The first voter with the smallest log end offset, in response order (as Java's Stream.min).
    smallest = info.voters[0]
    for voter in info.voters[1:]:
        if voter.log_end_offset < smallest.log_end_offset:
            smallest = voter
    return smallest


def max_follower_lag(info: QuorumInfo) -> int:
    """Leader LEO minus the smallest voter LEO."""
    return _leader_or_fail(info).log_end_offset - _max_lag_voter(info).log_end_offset


def max_follower_lag_time_ms(info: QuorumInfo) -> int:
    """0 when the leader is the laggiest voter, else the caught-up time difference (-1 when unknown)."""
    leader = _leader_or_fail(info)
    laggiest = _max_lag_voter(info)
    if laggiest is leader:
        return 0
    if leader.last_caught_up_timestamp is not None and laggiest.last_caught_up_timestamp is not None:
        return leader.last_caught_up_timestamp - laggiest.last_caught_up_timestamp
    return -1


@dataclass(frozen=True, slots=True, kw_only=True)
class QuorumStatus:
    """What `describe --status` shows."""

    cluster_id: str | None
    leader_id: int
    leader_epoch: int
    high_watermark: int
    max_follower_lag: int
    max_follower_lag_time_ms: int
    voters: tuple[ReplicaState, ...]
    observers: tuple[ReplicaState, ...]
    nodes: Mapping[int, tuple[QuorumEndpoint, ...]]


def quorum_status(info: QuorumInfo) -> QuorumStatus:
    return QuorumStatus(
        cluster_id=info.cluster_id,
        leader_id=info.leader_id,
        leader_epoch=info.leader_epoch,
        high_watermark=info.high_watermark,
        max_follower_lag=max_follower_lag(info),
        max_follower_lag_time_ms=max_follower_lag_time_ms(info),
        voters=info.voters,
        observers=info.observers,
        nodes=info.nodes,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicationRow:
    """One row of `describe --replication`: Status is Leader, Follower or Observer."""

    node_id: int
    directory_id: uuid.UUID | None
    log_end_offset: int
    lag: int
    last_fetch_timestamp: int | None
    last_caught_up_timestamp: int | None
    status: str


def replication_rows(info: QuorumInfo) -> tuple[ReplicationRow, ...]:
    """The leader first, then the other voters, then observers, each in response order."""
    leader = _leader_or_fail(info)

    def row(replica: ReplicaState, status: str) -> ReplicationRow:
        return ReplicationRow(
            node_id=replica.replica_id,
            directory_id=replica.directory_id,
            log_end_offset=replica.log_end_offset,
            lag=leader.log_end_offset - replica.log_end_offset,
            last_fetch_timestamp=replica.last_fetch_timestamp,
            last_caught_up_timestamp=replica.last_caught_up_timestamp,
            status=status,
        )

    rows = [row(leader, "Leader")]
    rows.extend(row(v, "Follower") for v in info.voters if v.replica_id != info.leader_id)
    rows.extend(row(o, "Observer") for o in info.observers)
    return tuple(rows)


def relative_time_ms(timestamp_ms: int, now_ms: int, what: str) -> int:
    """How long ago `timestamp_ms` was; a timestamp at/before the epoch or in the future is a clock problem."""
    if not 0 < timestamp_ms <= now_ms:
        raise KcliError(
            "Error while computing relative time, possible drift in system clock. "
            f"Current timestamp is {now_ms}, {what} timestamp is {timestamp_ms}"
        )
    return now_ms - timestamp_ms


# ----------------------------------------------------------------------------------- add-controller


@dataclass(frozen=True, slots=True, kw_only=True)
class ControllerToAdd:
    """A new voter as described by its own server.properties and meta.properties."""

    node_id: int
    directory_id: uuid.UUID
    endpoints: tuple[QuorumEndpoint, ...]

    def endpoints_text(self) -> str:
        return ", ".join(str(e) for e in self.endpoints)


_NOT_A_CONTROLLER = "Is this a valid controller configuration file?"


def _listener_map(text: str) -> dict[str, tuple[str | None, int]]:
    """`NAME://host:port,...` -> {NAME: (host or None, port)}; IPv6 hosts may be in brackets."""
    result: dict[str, tuple[str | None, int]] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, rest = item.partition("://")
        if not sep:
            raise KcliError(f"Unable to parse {item} to a broker endpoint")
        host, _, port_text = rest.rpartition(":")
        host = host.strip("[]")
        try:
            port = int(port_text)
        except ValueError:
            raise KcliError(f"Unable to parse {item} to a broker endpoint") from None
        result[name.strip().upper()] = (host or None, port)
    return result


def metadata_directory(props: Mapping[str, str]) -> str:
    """metadata.log.dir, else the first of log.dirs (log.dir)."""
    if "metadata.log.dir" in props:
        return props["metadata.log.dir"].strip()
    for key in ("log.dirs", "log.dir"):
        if key in props:
            dirs = [d.strip() for d in props[key].strip().split(",") if d.strip()]
            if dirs:
                return dirs[0]
    raise KcliError(f"Neither metadata.log.dir nor log.dirs were found. {_NOT_A_CONTROLLER}")


def controller_to_add(
    props: Mapping[str, str], load_meta: Callable[[Path], Mapping[str, str]]
) -> ControllerToAdd:
    """Read what AddRaftVoter needs from a controller's config, as kafka-metadata-quorum.sh does.

    `load_meta(path)` parses a meta.properties file (raising KcliError when it cannot be read).
    """
    if "node.id" not in props:
        raise KcliError(f"node.id not found in configuration file. {_NOT_A_CONTROLLER}")
    try:
        node_id = int(props["node.id"].strip())
    except ValueError:
        raise KcliError(f"node.id is not a number in configuration file. {_NOT_A_CONTROLLER}") from None
    if node_id < 0:
        raise KcliError(f"node.id was negative in configuration file. {_NOT_A_CONTROLLER}")
    if "controller" not in props.get("process.roles", ""):
        raise KcliError(
            f"process.roles did not contain 'controller' in configuration file. {_NOT_A_CONTROLLER}"
        )

    directory = metadata_directory(props)
    meta_path = Path(directory) / "meta.properties"
    try:
        meta = load_meta(meta_path)
    except OSError:
        raise KcliError(f"Unable to read meta.properties from {directory}") from None
    directory_text = meta.get("directory.id")
    if not directory_text:
        raise KcliError(f"No directory id found in {directory}")
    try:
        directory_id = parse_kafka_uuid(directory_text)
    except UsageError:
        raise KcliError(f"Invalid directory.id {directory_text} in {meta_path}") from None

    listeners = _listener_map(props.get("listeners", ""))
    listeners.update(_listener_map(props.get("advertised.listeners", "")))
    if "controller.listener.names" not in props:
        raise KcliError(f"controller.listener.names was not found. {_NOT_A_CONTROLLER}")
    endpoints: list[QuorumEndpoint] = []
    for raw_name in props["controller.listener.names"].split(","):
        name = raw_name.strip().upper()
        if not name:
            continue
        if name not in listeners:
            raise KcliError(f"Cannot find information about controller listener name: {name}")
        host, port = listeners[name]
        endpoint = QuorumEndpoint(listener=name, host=host or "localhost", port=port)
        if endpoint not in endpoints:
            endpoints.append(endpoint)
    return ControllerToAdd(node_id=node_id, directory_id=directory_id, endpoints=tuple(endpoints))


@dataclass(frozen=True, slots=True, kw_only=True)
class ControllerChange:
    """The outcome of add-controller or remove-controller."""

    action: str  # "add" | "remove"
    node_id: int
    directory_id: uuid.UUID
    endpoints: tuple[QuorumEndpoint, ...] = ()
    dry_run: bool = False
    unregister: bool = False  # remove-controller --unregister (KIP-1312): also drop its registration
    unregistered: bool = False  # the registration is gone (False on a dry run, or when that step failed)
