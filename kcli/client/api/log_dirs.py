"""Log directories: DescribeLogDirs (35) for sizes and placement, AlterReplicaLogDirs (34) for moves.

Behavior:
- describe_log_dirs fans out to the brokers concurrently (each reports its own directories); a
  broker that cannot be reached, or that does not support the API, is returned as an error value
  so a plan can still be printed without sizes.
- alter_replica_log_dirs sends one request to the broker that hosts the replicas.
- every dir a broker reports, errors included, is kept in the broker's order (BrokerLogDirs.dirs):
  kafka-log-dirs prints them in an order that depends on it (kcli.ops.log_dirs).
Version notes: DescribeLogDirs v1-v5 (v3 adds the top-level error code, v4 total/usable bytes, v5
the cordoned flag of Kafka 4.4, KIP-1066), AlterReplicaLogDirs v1-v2.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.log_dirs import LogDirReport, ReplicaEntry
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicaDir:
    """One replica as a broker's log dir reports it."""

    log_dir: str
    size: int
    offset_lag: int
    is_future: bool  # the destination copy of an intra-broker move


@dataclass(frozen=True, kw_only=True)
class BrokerLogDirs:
    """What one broker reported: every dir in the broker's order, the offline and the live ones."""

    broker_id: int
    dirs: tuple[LogDirReport, ...] = ()
    offline_dirs: tuple[str, ...] = ()
    live_dirs: tuple[str, ...] = ()

    @functools.cached_property
    def replicas(self) -> dict[TopicPartition, list[ReplicaDir]]:
        """The replicas of the live dirs by partition (built when asked: `log-dirs` never asks)."""
        replicas: dict[TopicPartition, list[ReplicaDir]] = {}
        for report in self.dirs:
            if report.error_code:
                continue
            for r in report.replicas:
                replicas.setdefault(TopicPartition(r.topic, r.partition), []).append(
                    ReplicaDir(log_dir=report.path, size=r.size, offset_lag=r.offset_lag, is_future=r.is_future)
                )
        return replicas


async def describe_log_dirs(
    admin: Admin, brokers: Iterable[int], partitions: Sequence[TopicPartition] | None = None
) -> dict[int, BrokerLogDirs | KcliError]:
    """DescribeLogDirs on each broker (all partitions, or only those named)."""
    from kcli.client.api.wire import make, nested, request_cls
    from kcli.client.errors import KafkaError

    grouped: dict[str, list[int]] = {}
    for tp in partitions or ():
        grouped.setdefault(tp.topic, []).append(tp.partition)

    def build(node_id: int, version: int) -> Any:
        cls = request_cls("describe_log_dirs", version)
        topic_cls = nested(cls, "DescribableLogDirTopic")
        topics = (
            None
            if partitions is None
            else tuple(make(topic_cls, topic=t, partitions=tuple(ps)) for t, ps in grouped.items())
        )
        return make(cls, topics=topics)

    from kcli.ops.java_errors import exception_class

    raw = await admin.call_each(list(brokers), ApiKey.DESCRIBE_LOG_DIRS, build, versions=(1, 5))
    out: dict[int, BrokerLogDirs | KcliError] = {}
    for broker, response in raw.items():
        if isinstance(response, KcliError):
            out[broker] = response
            continue
        code = int(getattr(response, "error_code", 0) or 0)
        if code:
            out[broker] = KafkaError(code, None, what="DescribeLogDirs", node=f"broker {broker}")
            continue
        offline: list[str] = []
        live: list[str] = []
        reports: list[LogDirReport] = []
        for result in response.results:
            code = int(result.error_code)
            reports.append(
                LogDirReport(
                    path=str(result.log_dir),
                    error_code=code,
                    error_class=exception_class(code),
                    total_bytes=int(getattr(result, "total_bytes", -1)),
                    usable_bytes=int(getattr(result, "usable_bytes", -1)),
                    cordoned=bool(getattr(result, "is_cordoned", False)),
                    replicas=tuple(
                        ReplicaEntry(
                            topic=str(topic.name),
                            partition=int(p.partition_index),
                            size=int(p.partition_size),
                            offset_lag=int(p.offset_lag),
                            is_future=bool(p.is_future_key),
                        )
                        for topic in result.topics
                        for p in topic.partitions
                    ),
                )
            )
            (offline if code else live).append(str(result.log_dir))
        out[broker] = BrokerLogDirs(
            broker_id=broker, dirs=tuple(reports), offline_dirs=tuple(offline), live_dirs=tuple(live)
        )
    return out


def partition_sizes(described: Mapping[int, BrokerLogDirs | KcliError]) -> dict[TopicPartition, int]:
    """The size of each partition: the largest current (non-future) replica anywhere."""
    sizes: dict[TopicPartition, int] = {}
    for report in described.values():
        if isinstance(report, KcliError):
            continue
        for tp, dirs in report.replicas.items():
            for d in dirs:
                if not d.is_future and d.size > sizes.get(tp, -1):
                    sizes[tp] = d.size
    return sizes


def replica_log_dirs(
    described: Mapping[int, BrokerLogDirs | KcliError], assignment: Mapping[TopicPartition, tuple[int, ...]]
) -> dict[TopicPartition, tuple[str, ...]]:
    """The log dir of each replica of `assignment` where known, "any" elsewhere (Kafka 4.2 --generate)."""
    out: dict[TopicPartition, tuple[str, ...]] = {}
    for tp, replicas in assignment.items():
        dirs: list[str] = []
        for b in replicas:
            report = described.get(b)
            found = "any"
            if isinstance(report, BrokerLogDirs):
                current = [d for d in report.replicas.get(tp, ()) if not d.is_future]
                if current:
                    found = current[0].log_dir
            dirs.append(found)
        out[tp] = tuple(dirs)
    return out


async def alter_replica_log_dirs(
    admin: Admin, broker: int, moves: Mapping[TopicPartition, str]
) -> dict[TopicPartition, ResourceError | None]:
    """Ask `broker` to move its replicas of `moves` to the given log dirs."""
    from kcli.client.admin import Target
    from kcli.client.api.wire import make, nested, request_cls, resource_error

    by_dir: dict[str, dict[str, list[int]]] = {}
    for tp, path in moves.items():
        by_dir.setdefault(path, {}).setdefault(tp.topic, []).append(tp.partition)

    def build(version: int) -> Any:
        cls = request_cls("alter_replica_log_dirs", version)
        dir_cls = nested(cls, "AlterReplicaLogDir")
        topic_cls = nested(cls, "AlterReplicaLogDirTopic")
        return make(
            cls,
            dirs=tuple(
                dir_cls(
                    path=path,
                    topics=tuple(topic_cls(name=t, partitions=tuple(ps)) for t, ps in topics.items()),
                )
                for path, topics in by_dir.items()
            ),
        )

    response = await admin.call(
        ApiKey.ALTER_REPLICA_LOG_DIRS, build, versions=(1, 2), target=Target.node(broker)
    )
    out: dict[TopicPartition, ResourceError | None] = {}
    for topic in response.results:
        for p in topic.partitions:
            out[TopicPartition(str(topic.topic_name), int(p.partition_index))] = resource_error(
                int(p.error_code), None
            )
    return out
