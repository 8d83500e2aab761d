"""A crafted fleet for the built-in rules: dirty clusters break every rule, clean clusters break none.

- dirty-a: one resource per snapshot rule that must fire (named after the rule), and a real KRaft
  metadata log (written with kcli.metadata's writer) with fence/unfence churn and a flapping leader.
  Broker 2 advertises broker 1's endpoint (a misroute); `rf1` has one replica and
  min.insync.replicas=1 (below the floor, but writable).
- dirty-b: shares topic `shared` with dirty-a under a different max.message.bytes (cross-cluster drift);
  broker 3's endpoint answers for another cluster.
- clean-a / clean-b: rack-aware, balanced, bounded retention, identical configs (they share the
  topic `clean-orders` with equal values), harmless ACLs, and a quiet metadata log.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from kcli.audit.snapshot import SnapshotWriter

COLLECTED_AT = "20260101T000000Z"
GIB = 1 << 30
HOUR_MS = 3_600_000
START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z

GOOD_TOPIC = {
    "min.insync.replicas": "2",
    "retention.ms": "604800000",
    "retention.bytes": "-1",
    "cleanup.policy": "delete",
    "unclean.leader.election.enable": "false",
    "max.message.bytes": "1048588",
}
GOOD_BROKER = {"num.io.threads": "8", "unclean.leader.election.enable": "false", "log.retention.hours": "168"}


def write_clean_fleet(snapshots: Path) -> Path:
    """Only the clean clusters: an audit of them has no finding and no warning."""
    for name in ("clean-a", "clean-b"):
        _clean(snapshots, name)
    return snapshots


def write_crafted_fleet(root: Path) -> tuple[Path, Path]:
    snapshots = root / "snapshots"
    logs = root / "logs"
    _dirty_a(snapshots)
    _dirty_b(snapshots)
    for name in ("clean-a", "clean-b"):
        _clean(snapshots, name)
    _dirty_log(logs / "dirty-a" / "node-1")
    _clean_log(logs / "clean-a" / "node-1")
    return snapshots, logs


def _partition(
    topic: str, index: int, leader: int, replicas: list[int], isr: list[int] | None = None
) -> dict[str, Any]:
    return {
        "topic": topic,
        "partition": index,
        "leader": leader,
        "leader_epoch": 1,
        "replicas": replicas,
        "isr": replicas if isr is None else isr,
        "elr": [],
        "last_known_elr": [],
        "offline_replicas": [],
    }


def _topic_configs(topic: str, **overrides: str) -> list[dict[str, Any]]:
    values = {**GOOD_TOPIC, **{key.replace("_", "."): value for key, value in overrides.items()}}
    return [
        {
            "topic": topic,
            "name": name,
            "value": value,
            "source": "DYNAMIC_TOPIC_CONFIG"
            if name in {k.replace("_", ".") for k in overrides}
            else "DEFAULT_CONFIG",
            "is_default": False,
            "is_sensitive": False,
            "read_only": False,
        }
        for name, value in values.items()
    ]


def _broker_configs(broker: int, rack: str, **overrides: str) -> list[dict[str, Any]]:
    values = {**GOOD_BROKER, "broker.id": str(broker), "broker.rack": rack, **overrides}
    return [
        {
            "broker_id": broker,
            "name": name.replace("_", "."),
            "value": value,
            "source": "STATIC_BROKER_CONFIG",
            "is_default": False,
            "is_sensitive": False,
            "read_only": True,
        }
        for name, value in values.items()
    ]


def _acl(name: str, principal: str, operation: str, *, resource_type: str = "TOPIC") -> dict[str, Any]:
    return {
        "resource_type": resource_type,
        "resource_name": name,
        "pattern_type": "LITERAL",
        "principal": principal,
        "host": "*",
        "operation": operation,
        "permission_type": "ALLOW",
    }


def _topics(partitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    names = sorted({p["topic"] for p in partitions})
    return [
        {
            "topic": name,
            "topic_id": f"id-{name}",
            "internal": False,
            "partition_count": sum(1 for p in partitions if p["topic"] == name),
            "replication_factor": next(len(p["replicas"]) for p in partitions if p["topic"] == name),
        }
        for name in names
    ]


def _log_dirs(sizes: dict[int, int]) -> list[dict[str, Any]]:
    return [
        {
            "broker_id": broker,
            "log_dir": "/data",
            "error": None,
            "total_bytes": 2000 * GIB,
            "usable_bytes": 1000 * GIB,
            "partition_count": 10,
            "partition_bytes": size * GIB,
        }
        for broker, size in sizes.items()
    ]


def _endpoint(
    node: int, host: str, *, served_by: int | None = None, cluster: str | None = None
) -> dict[str, Any]:
    """A broker endpoint as the collector records it: verified when served by its own node."""
    return {
        "role": "broker",
        "node_id": node,
        "host": host,
        "port": 9092,
        "answered": True,
        "identity": "unchecked" if served_by is None else ("verified" if served_by == node else "mismatch"),
        "served_by_node_id": served_by,
        "served_by_cluster_id": cluster,
        "error": None,
    }


def _group(group_id: str, state: str) -> dict[str, Any]:
    return {"group_id": group_id, "type": "Consumer", "protocol_type": "consumer", "state": state}


def _group_offset(
    group_id: str, topic: str, partition: int, *, committed: int, end: int | None, start: int | None = 0
) -> dict[str, Any]:
    return {
        "group_id": group_id,
        "topic": topic,
        "partition": partition,
        "committed_offset": committed,
        "leader_epoch": None,
        "log_start_offset": start,
        "log_end_offset": end,
        "lag": None if end is None else max(end - committed, 0),
    }


def _finish(writer: SnapshotWriter) -> None:
    writer.finish(
        {
            "bootstrap": f"{writer.cluster_id}:9092",
            "endpoint_type": "brokers",
            "controller_id": 100,
            "collected_ms": START_MS,
            "kcli_version": "test",
        }
    )


def _dirty_a(out: Path) -> None:
    writer = SnapshotWriter(out, cluster_id="dirty-a", collected_at=COLLECTED_AT)
    racks = {1: "r1", 2: "r1", 3: "r2", 4: "r2", 5: "r3"}
    writer.write(
        "brokers",
        [
            {
                "broker_id": b,
                "host": "b1" if b == 2 else f"b{b}",
                "port": 9092,
                "rack": rack,
                "fenced": b == 5,
            }
            for b, rack in racks.items()
        ],
    )
    writer.write(
        "endpoints",
        [_endpoint(b, "b1" if b == 2 else f"b{b}", served_by=1 if b == 2 else b) for b in racks if b != 5]
        + [
            {
                **_endpoint(5, "b5", served_by=5),
                "answered": False,
                "identity": "unchecked",
                "error": "refused",
            }
        ],
    )
    partitions = [
        _partition("rf1", 0, 3, [3]),
        _partition("unwritable", 0, 1, [1, 3]),
        _partition("lowisr", 0, 3, [3, 1, 5]),
        _partition("unclean", 0, 4, [4, 2, 5]),
        _partition("samerack", 0, 1, [1, 2, 3]),
        _partition("urp", 0, 3, [3, 4, 1], isr=[3, 4]),
        _partition("offline", 0, -1, [1, 3, 5], isr=[]),
        _partition("fencedleader", 0, 5, [5, 1, 3]),
        _partition("shared", 0, 4, [4, 1, 5]),
        _partition("forever", 0, 3, [3, 2, 5]),
    ]
    # Broker 1 leads and hosts every partition of `busy`: leader and replica skew.
    partitions += [_partition("busy", i, 1, [1, 3, 5]) for i in range(40)]
    writer.write("partitions", partitions)
    writer.write("topics", _topics(partitions))
    writer.write(
        "topic_configs",
        _topic_configs("rf1", min_insync_replicas="1")
        + _topic_configs("unwritable", min_insync_replicas="3")
        + _topic_configs("lowisr", min_insync_replicas="1")
        + _topic_configs("unclean", unclean_leader_election_enable="true")
        + _topic_configs("shared")
        + _topic_configs("forever", retention_ms="-1"),
    )
    writer.write(
        "broker_configs",
        [
            row
            for b, rack in racks.items()
            if b != 5
            for row in _broker_configs(b, rack, **({"num.io.threads": "16"} if b == 4 else {}))
        ],
    )
    writer.write(
        "acls",
        [_acl("*", "User:*", "ALL"), _acl("gone", "User:app", "READ"), _acl("shared", "User:app", "READ")],
    )
    writer.write("log_dirs", _log_dirs({1: 500, 2: 100, 3: 100, 4: 100}))
    writer.write(
        "groups",
        [_group("laggy", "Empty"), _group("behind", "Stable")],
    )
    writer.write(
        "group_offsets",
        [_group_offset("laggy", "busy", i, committed=0, end=20_000) for i in range(3)]
        + [_group_offset("laggy", "shared", 0, committed=90, end=100)]
        + [_group_offset("behind", "forever", 0, committed=10, end=900, start=500)],
    )
    _finish(writer)


def _dirty_b(out: Path) -> None:
    writer = SnapshotWriter(out, cluster_id="dirty-b", collected_at=COLLECTED_AT)
    writer.write(
        "brokers",
        [
            {"broker_id": b, "host": f"b{b}", "port": 9092, "rack": f"r{b}", "fenced": False}
            for b in (1, 2, 3)
        ],
    )
    writer.write(
        "endpoints",
        [
            _endpoint(1, "b1", served_by=1),
            _endpoint(2, "b2", served_by=2),
            _endpoint(3, "b3", cluster="elsewhere"),
        ],
    )
    partitions = [_partition("shared", 0, 1, [1, 2, 3])]
    writer.write("partitions", partitions)
    writer.write("topics", _topics(partitions))
    writer.write("topic_configs", _topic_configs("shared", max_message_bytes="5242880"))
    _finish(writer)


def _clean(out: Path, cluster_id: str) -> None:
    """Three brokers on three racks, 30 partitions with leaders and replicas spread evenly."""
    writer = SnapshotWriter(out, cluster_id=cluster_id, collected_at=COLLECTED_AT)
    brokers = (1, 2, 3)
    writer.write(
        "brokers",
        [{"broker_id": b, "host": f"b{b}", "port": 9092, "rack": f"r{b}", "fenced": False} for b in brokers],
    )
    writer.write("endpoints", [_endpoint(b, f"b{b}", served_by=b, cluster=cluster_id) for b in brokers])
    partitions = []
    for i in range(30):
        replicas = [brokers[(i + k) % 3] for k in range(3)]
        partitions.append(_partition("clean-orders", i, replicas[0], replicas))
    writer.write("partitions", partitions)
    writer.write("topics", _topics(partitions))
    writer.write("topic_configs", _topic_configs("clean-orders"))
    writer.write("broker_configs", [row for b in brokers for row in _broker_configs(b, f"r{b}")])
    writer.write(
        "acls",
        [
            _acl("clean-orders", "User:alice", "READ"),
            _acl("clean-orders", "User:*", "DESCRIBE"),
            _acl("kafka-cluster", "User:admin", "ALL", resource_type="CLUSTER"),
        ],
    )
    writer.write("log_dirs", _log_dirs({1: 100, 2: 110, 3: 95}))
    writer.write(
        "client_quotas",
        [
            {
                "entity": "user=alice",
                "user": "alice",
                "client_id": None,
                "ip": None,
                "key": "producer_byte_rate",
                "value": 1e6,
            }
        ],
    )
    writer.write(
        "features",
        [{"feature": "metadata.version", "finalized_level": 25, "min_supported": 1, "max_supported": 25}],
    )
    writer.write("groups", [_group("clean-app", "Stable")])
    writer.write(
        "group_offsets",
        [
            _group_offset("clean-app", "clean-orders", i, committed=1_000, end=1_000 + i, start=900)
            for i in range(30)
        ],
    )
    _finish(writer)


FLAPPY = uuid.UUID("00000000-0000-0000-0000-00000000f1a9")
STEADY = uuid.UUID("00000000-0000-0000-0000-0000000057ea")


def _dirty_log(directory: Path) -> None:
    """Broker 2 fenced and unfenced 4 times within an hour; `flappy-0` changes leader 12 times."""
    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    with MetadataLogWriter(directory, node_id=1, cluster_id="dirty-a") as log:
        log.append(
            [
                r.TopicRecordV0(name="flappy", topic_id=FLAPPY),
                r.PartitionRecordV0(
                    partition_id=0,
                    topic_id=FLAPPY,
                    replicas=(1, 2, 3),
                    isr=(1, 2, 3),
                    removing_replicas=(),
                    adding_replicas=(),
                    leader=1,
                ),
            ],
            epoch=1,
            timestamp_ms=START_MS,
        )
        for i in range(4):
            log.append(
                [r.FenceBrokerRecordV0(id=2, epoch=10 + i)], epoch=1, timestamp_ms=START_MS + i * 60_000
            )
            log.append(
                [r.UnfenceBrokerRecordV0(id=2, epoch=10 + i)],
                epoch=1,
                timestamp_ms=START_MS + i * 60_000 + 30_000,
            )
        for i in range(12):
            log.append(
                [r.PartitionChangeRecordV0(partition_id=0, topic_id=FLAPPY, leader=(i % 3) + 1)],
                epoch=1,
                timestamp_ms=START_MS + HOUR_MS + i * 1000,
            )


def _clean_log(directory: Path) -> None:
    """Brokers register and unfence once; `steady-0` is created and elects a leader twice."""
    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    with MetadataLogWriter(directory, node_id=1, cluster_id="clean-a") as log:
        for broker in (1, 2, 3):
            log.append(
                [r.UnfenceBrokerRecordV0(id=broker, epoch=1)], epoch=1, timestamp_ms=START_MS + broker * 1000
            )
        log.append(
            [
                r.TopicRecordV0(name="steady", topic_id=STEADY),
                r.PartitionRecordV0(
                    partition_id=0,
                    topic_id=STEADY,
                    replicas=(1, 2, 3),
                    isr=(1, 2, 3),
                    removing_replicas=(),
                    adding_replicas=(),
                    leader=1,
                ),
            ],
            epoch=1,
            timestamp_ms=START_MS + 10_000,
        )
        for leader in (2, 1):
            log.append(
                [r.PartitionChangeRecordV0(partition_id=0, topic_id=STEADY, leader=leader)],
                epoch=1,
                timestamp_ms=START_MS + 20_000 + leader,
            )
