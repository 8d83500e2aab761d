"""Replica placement and leadership: which brokers hold a partition and which one leads it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from kcli.metadata import records as _records

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView


def assign(
    brokers: Sequence[int], partitions: int, replication_factor: int, start: int = 0
) -> list[list[int]]:
    """Round-robin replica lists (Kafka's rack-unaware placement, without the random start)."""
    count = len(brokers)
    out: list[list[int]] = []
    for p in range(partitions):
        first = (start + p) % count
        shift = p // count % max(count - 1, 1) + 1 if count > 1 else 0
        replicas = [brokers[first]]
        for r in range(1, replication_factor):
            replicas.append(brokers[(first + shift * r) % count] if count > 1 else brokers[0])
        # a shift that revisits a broker falls back to the next unused one
        seen: list[int] = []
        for broker in replicas:
            if broker in seen:
                broker = next(b for b in brokers if b not in seen)
            seen.append(broker)
        out.append(seen)
    return out


def directories(
    cluster: ClusterView, replicas: Sequence[int], topic_id: uuid.UUID, partition_id: int
) -> tuple[uuid.UUID, ...]:
    """The log directory id of each new replica (one of its broker's dirs; UNASSIGNED when unknown)."""
    from kcli.sandbox.emulator.logdirs import default_directory

    return tuple(default_directory(cluster, b, topic_id, partition_id) for b in replicas)


def partition_records(
    cluster: ClusterView, topic_id: uuid.UUID, assignment: Sequence[Sequence[int]], first_partition: int = 0
) -> list[Any]:
    """PartitionRecords for new partitions: ISR = live replicas, leader = first live replica."""
    live = set(cluster.live_broker_ids())
    out: list[Any] = []
    for index, replicas in enumerate(assignment):
        isr = [b for b in replicas if b in live]
        out.append(
            R.PartitionRecord(
                partition_id=first_partition + index,
                topic_id=topic_id,
                replicas=tuple(replicas),
                isr=tuple(isr),
                removing_replicas=(),
                adding_replicas=(),
                leader=isr[0] if isr else -1,
                leader_epoch=0,
                partition_epoch=0,
                directories=directories(cluster, replicas, topic_id, first_partition + index),
            )
        )
    return out


def bulk_topic_records(cluster: ClusterView, topics: int, partitions: int) -> Iterator[list[Any]]:
    """`--topics N --partitions P`: topics sandbox-topic-00000.. in chunks of records."""
    brokers = cluster.live_broker_ids()
    factor = cluster.settings.replication_factor or min(3, len(brokers))
    width = max(5, len(str(topics - 1)))
    chunk: list[Any] = []
    for index in range(topics):
        topic_id = uuid.uuid4()
        chunk.append(R.TopicRecord(name=f"sandbox-topic-{index:0{width}d}", topic_id=topic_id))
        chunk.extend(partition_records(cluster, topic_id, assign(brokers, partitions, factor, start=index)))
        if len(chunk) >= 20_000:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def leadership_after_loss(cluster: ClusterView, broker_id: int) -> list[Any]:
    """PartitionChangeRecords for a fenced broker: out of every ISR, leadership moves on."""
    out: list[Any] = []
    for topic in cluster.image.topics.values():
        for p in topic.partitions.values():
            if broker_id not in p.isr:
                continue
            isr = [b for b in p.isr if b != broker_id]
            if p.leader == broker_id:
                leader = isr[0] if isr else -1
                # Kafka keeps the last replica in the ISR when nothing else is left (ELR aside).
                out.append(
                    R.PartitionChangeRecord(
                        partition_id=p.partition_id,
                        topic_id=p.topic_id,
                        isr=tuple(isr or p.isr),
                        leader=leader,
                    )
                )
            else:
                out.append(
                    R.PartitionChangeRecord(partition_id=p.partition_id, topic_id=p.topic_id, isr=tuple(isr))
                )
    return out


def leadership_after_return(cluster: ClusterView, broker_id: int) -> list[Any]:
    """A returning broker rejoins the ISR of its partitions and leads the leaderless ones."""
    out: list[Any] = []
    for topic in cluster.image.topics.values():
        for p in topic.partitions.values():
            if broker_id not in p.replicas or (broker_id in p.isr and p.leader != -1):
                continue
            isr = [b for b in p.replicas if b in p.isr or b == broker_id]
            leader = p.leader if p.leader != -1 else broker_id
            out.append(
                R.PartitionChangeRecord(
                    partition_id=p.partition_id,
                    topic_id=p.topic_id,
                    isr=tuple(isr),
                    leader=leader if leader != p.leader else -2,
                )
            )
    return out


def remap_replicas(cluster: ClusterView, mapping: dict[int, int]) -> list[Any]:
    """Move every replica of an old broker id to its replacement (replace-brokers)."""
    out: list[Any] = []
    for topic in cluster.image.topics.values():
        for p in topic.partitions.values():
            replicas = tuple(mapping.get(b, b) for b in p.replicas)
            if list(replicas) == p.replicas:
                continue
            out.append(
                R.PartitionChangeRecord(
                    partition_id=p.partition_id,
                    topic_id=p.topic_id,
                    replicas=replicas,
                    isr=replicas,
                    leader=replicas[0],
                    directories=directories(cluster, replicas, p.topic_id, p.partition_id),
                )
            )
    return out
