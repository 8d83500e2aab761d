"""Partition reassignments that take time: new replicas copy the partition's records at a throttled rate.

Behavior:
- Starting a reassignment writes a PartitionChangeRecord with replicas = target + old replicas
  that leave, adding = target - old, removing = old - target (as Kafka's controller does).
- Every tick, each adding replica copies the leader's batches (kcli.sandbox.emulator.data.copies),
  `rate * elapsed` bytes' worth (a token bucket: a batch may be copied on credit, and the next
  waits until it is paid). The rate is bounded by leader.replication.throttled.rate /
  follower.replication.throttled.rate (dynamic broker configs) when the topic lists the partition
  in its throttled-replicas configs (or `*`), else it is UNTHROTTLED_RATE.
- When every adding replica holds the leader's log, a PartitionChangeRecord completes it:
  replicas = target, ISR = the live target replicas, the leader moves into the target if needed;
  the replicas that leave are deleted by their brokers.
- Cancelling restores the original replicas (the partial copies are deleted). After a restart the
  copies resume from what the adding replicas hold on disk; DIR/replica-progress.json
  (kcli.sandbox.emulator.progress) keeps the bytes copied so far for the progress shown.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from kcli.kafka import ConfigResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.copying import UNTHROTTLED_RATE, Copy, broker_setting, tick_forever
from kcli.sandbox.emulator.image import Partition
from kcli.sandbox.emulator.logdirs import directories_for

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView


class Reassignments:
    """Ongoing reassignments and the task that advances them."""

    def __init__(self, cluster: ClusterView) -> None:
        self.cluster = cluster
        self.copies: dict[tuple[uuid.UUID, int], Copy] = {}

    def restore(self, saved: dict[tuple[uuid.UUID, int], float]) -> None:
        """Resume copies saved before a restart, for the partitions the log says are still moving."""
        for (topic_id, partition_id), copied in saved.items():
            topic = self.cluster.image.topics.get(topic_id)
            partition = topic.partitions.get(partition_id) if topic is not None else None
            if topic is not None and partition is not None and partition.adding_replicas:
                self.copies[(topic_id, partition_id)] = Copy(copied=copied)

    def start_records(self, partition: Partition, target: list[int]) -> list[Any]:
        """Records that start moving `partition` to `target` (or nothing when it is there already)."""
        current = partition.replicas
        original = (
            [b for b in current if b not in partition.adding_replicas]
            if partition.adding_replicas
            else current
        )
        if target == original and not partition.adding_replicas:
            return []
        adding = [b for b in target if b not in original]
        removing = [b for b in original if b not in target]
        if not adding:
            # only removals or a reorder: nothing to copy, finish at once
            live = set(self.cluster.live_broker_ids())
            isr = [b for b in target if b in partition.isr or b in live]
            leader = partition.leader if partition.leader in target else (isr[0] if isr else -1)
            return [self._settled(partition, target, isr, leader)]
        replicas = target + [b for b in original if b not in target]
        return [
            self._change(
                partition, replicas, removing_replicas=tuple(removing), adding_replicas=tuple(adding)
            )
        ]

    def cancel_records(self, partition: Partition) -> list[Any]:
        """Records that stop a reassignment and restore the original replicas."""
        original = [b for b in partition.replicas if b not in partition.adding_replicas]
        isr = [b for b in partition.isr if b in original]
        leader = partition.leader if partition.leader in original else (isr[0] if isr else -1)
        self.copies.pop((partition.topic_id, partition.partition_id), None)
        return [self._settled(partition, original, isr or original, leader)]

    def rate(self, topic_name: str, partition: Partition) -> float:
        """Bytes per second the adding replicas of `partition` copy."""
        configs = self.cluster.image.configs
        topic_configs = configs.get((ConfigResourceType.TOPIC, topic_name), {})
        throttled = False
        for key in ("leader.replication.throttled.replicas", "follower.replication.throttled.replicas"):
            value = topic_configs.get(key, "")
            entries = {e.strip() for e in value.split(",") if e.strip()}
            if "*" in entries or any(e.split(":")[0] == str(partition.partition_id) for e in entries):
                throttled = True
        if not throttled:
            return UNTHROTTLED_RATE
        rates = [float(UNTHROTTLED_RATE)]
        for broker_id, key in [(partition.leader, "leader.replication.throttled.rate")] + [
            (b, "follower.replication.throttled.rate") for b in partition.adding_replicas
        ]:
            configured = broker_setting(configs, broker_id, key)
            if configured is not None:
                rates.append(float(configured))
        return max(min(rates), 1.0)

    async def run(self) -> None:
        """Advance every ongoing reassignment each tick until cancelled."""
        await tick_forever(self.tick, "reassignment progress")

    async def tick(self, elapsed: float) -> None:
        """Copy `elapsed` seconds' worth of data and complete the reassignments that are done."""
        done: list[Any] = []
        live = set(self.cluster.live_broker_ids())
        copies = self.cluster.partition_logs.copies
        for topic in self.cluster.image.topics.values():
            for partition in topic.partitions.values():
                if not partition.adding_replicas:
                    continue
                key = (partition.topic_id, partition.partition_id)
                copy = self.copies.get(key)
                if copy is None:
                    copy = self.copies[key] = Copy()
                if not all(b in live for b in partition.adding_replicas):
                    continue  # a target broker is down: the copy waits for it
                if not copy.size:
                    copy.size = self.cluster.partition_logs.replicas.replica_size(*key, partition.leader)
                rate = self.rate(topic.name, partition)
                copy.credit = min(copy.credit + rate * elapsed, rate)
                if copy.credit > 0:
                    spent = max(
                        copies.copy_to(*key, b, int(copy.credit) + 1) for b in partition.adding_replicas
                    )
                    copy.credit -= spent
                    copy.copied += spent
                if all(copies.caught_up(*key, b) for b in partition.adding_replicas):
                    done.extend(self._complete(partition, live))
                    del self.copies[key]
        if done:
            await self.cluster.commit(done)

    def _complete(self, partition: Partition, live: set[int]) -> list[Any]:
        target = [b for b in partition.replicas if b not in partition.removing_replicas]
        isr = [b for b in target if b in live]
        leader = (
            partition.leader
            if partition.leader in target and partition.leader in live
            else (isr[0] if isr else -1)
        )
        return [self._settled(partition, target, isr or target, leader)]

    def _settled(self, partition: Partition, replicas: list[int], isr: list[int], leader: int) -> Any:
        """The record that ends a reassignment (completed, cancelled, or one that moves no data) with
        these replicas; an unchanged leader is written as -2 (no change). A completed or cancelled
        one is given the replicas as its ISR when none of them is in sync."""
        return self._change(
            partition,
            replicas,
            isr=tuple(isr),
            leader=leader if leader != partition.leader else -2,
            removing_replicas=(),
            adding_replicas=(),
        )

    def _change(self, partition: Partition, replicas: list[int], **changes: Any) -> Any:
        """A PartitionChangeRecord giving `partition` these replicas (in their log dirs) and `changes`."""
        return R.PartitionChangeRecord(
            partition_id=partition.partition_id,
            topic_id=partition.topic_id,
            replicas=tuple(replicas),
            directories=directories_for(self.cluster, partition, replicas),
            **changes,
        )
