"""A synthetic fleet of cluster snapshots, for tests and the benchmark.

Deterministic for a given seed. Clusters are healthy (rack-aware replicas of three, balanced leaders,
bounded retention, consistent configs) apart from a small, known share of injected problems, so an
audit of the fleet has findings of most built-in rules without drowning in them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kcli.audit.snapshot import SnapshotWriter, WrittenSnapshot, collected_at_label

TOPIC_CONFIG_DEFAULTS: dict[str, str] = {
    "min.insync.replicas": "2",
    "retention.ms": "604800000",
    "retention.bytes": "-1",
    "cleanup.policy": "delete",
    "unclean.leader.election.enable": "false",
    "segment.bytes": "1073741824",
    "max.message.bytes": "1048588",
    "compression.type": "producer",
}
BROKER_CONFIG_DEFAULTS: dict[str, str] = {
    "num.network.threads": "3",
    "num.io.threads": "8",
    "log.retention.hours": "168",
    "default.replication.factor": "3",
    "min.insync.replicas": "2",
    "unclean.leader.election.enable": "false",
    "auto.create.topics.enable": "false",
    "message.max.bytes": "1048588",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class FleetSpec:
    """How big the fleet is and how it is shaped."""

    clusters: int = 50
    partitions: int = 1_000_000  # in all clusters together
    brokers_per_cluster: int = 6
    racks: int = 3
    partitions_per_topic: int = 20
    seed: int = 7


def generate_fleet(out: Path, spec: FleetSpec, *, at: datetime | None = None) -> list[WrittenSnapshot]:
    """Write one snapshot per cluster under `out`; returns what was written."""
    moment = at or datetime(2026, 1, 1, tzinfo=UTC)
    label = collected_at_label(moment)
    rng = random.Random(spec.seed)
    per_cluster = max(spec.partitions // spec.clusters, 1)
    written = []
    for index in range(spec.clusters):
        partitions = per_cluster + (1 if index < spec.partitions - per_cluster * spec.clusters else 0)
        written.append(
            _write_cluster(out, spec, index, partitions, label, int(moment.timestamp() * 1000), rng)
        )
    return written


def cluster_name(index: int) -> str:
    return f"synthetic-{index:03d}"


def _write_cluster(
    out: Path, spec: FleetSpec, index: int, partitions: int, label: str, now_ms: int, rng: random.Random
) -> WrittenSnapshot:
    cluster_id = cluster_name(index)
    writer = SnapshotWriter(out, cluster_id=cluster_id, collected_at=label)
    broker_ids = list(range(1, spec.brokers_per_cluster + 1))
    writer.write(
        "brokers",
        {
            "broker_id": broker_ids,
            "host": [f"b{b}.{cluster_id}.example" for b in broker_ids],
            "port": [9092] * len(broker_ids),
            "rack": [f"rack-{(b - 1) % spec.racks}" for b in broker_ids],
            "fenced": [False] * len(broker_ids),
        },
    )
    controller_ids = [101, 102, 103]
    writer.write(
        "controllers",
        {
            "controller_id": controller_ids,
            "host": [f"c{c}.{cluster_id}.example" for c in controller_ids],
            "port": [9093] * 3,
            "rack": [None] * 3,
            "is_active": [c == 101 for c in controller_ids],
        },
    )
    writer.write(
        "quorum",
        {
            "replica_id": controller_ids,
            "role": ["leader", "follower", "follower"],
            "leader_id": [101] * 3,
            "leader_epoch": [5] * 3,
            "high_watermark": [1000] * 3,
            "log_end_offset": [1000] * 3,
            "lag": [0] * 3,
            "last_fetch_ms": [now_ms] * 3,
            "last_caught_up_ms": [now_ms] * 3,
        },
    )

    count = len(broker_ids)
    topics = max(partitions // spec.partitions_per_topic, 1)
    topic_names: list[str] = []
    p_topic: list[str] = []
    p_index: list[int] = []
    p_leader: list[int] = []
    p_replicas: list[list[int]] = []
    p_isr: list[list[int]] = []
    leaders_per_broker = dict.fromkeys(broker_ids, 0)
    produced = 0
    for t in range(topics):
        name = f"topic-{t:05d}"
        topic_names.append(name)
        size = spec.partitions_per_topic if t < topics - 1 else partitions - produced
        for p in range(size):
            first = (t + p) % count
            replicas = [broker_ids[(first + k) % count] for k in range(3)]
            isr = replicas
            leader = replicas[0]
            roll = rng.random()
            if roll < 0.001:  # under-replicated
                isr = replicas[:2]
            elif roll < 0.0012:  # offline
                leader = -1
                isr = []
            p_topic.append(name)
            p_index.append(p)
            p_leader.append(leader)
            p_replicas.append(replicas)
            p_isr.append(isr)
            if leader > 0:
                leaders_per_broker[leader] += 1
        produced += size
    empty: list[int] = []
    writer.write(
        "partitions",
        {
            "topic": p_topic,
            "partition": p_index,
            "leader": p_leader,
            "leader_epoch": [1] * len(p_topic),
            "replicas": p_replicas,
            "isr": p_isr,
            "elr": [empty] * len(p_topic),
            "last_known_elr": [empty] * len(p_topic),
            "offline_replicas": [empty] * len(p_topic),
        },
    )
    writer.write(
        "topics",
        {
            "topic": topic_names,
            "topic_id": [f"id-{cluster_id}-{t}" for t in range(topics)],
            "internal": [False] * topics,
            "partition_count": [spec.partitions_per_topic] * topics,
            "replication_factor": [3] * topics,
        },
    )
    c_topic: list[str] = []
    c_name: list[str] = []
    c_value: list[str] = []
    c_source: list[str] = []
    for t, name in enumerate(topic_names):
        for key, value in TOPIC_CONFIG_DEFAULTS.items():
            source = "DEFAULT_CONFIG"
            if t == 0 and index % 10 == 1 and key == "retention.ms":
                value, source = "-1", "DYNAMIC_TOPIC_CONFIG"  # unbounded retention
            if t == 1 and index % 10 == 2 and key == "min.insync.replicas":
                value, source = "1", "DYNAMIC_TOPIC_CONFIG"
            if t == 2 and index % 10 == 3 and key == "max.message.bytes":
                value, source = "5242880", "DYNAMIC_TOPIC_CONFIG"  # drifts from other clusters
            c_topic.append(name)
            c_name.append(key)
            c_value.append(value)
            c_source.append(source)
    rows = len(c_topic)
    writer.write(
        "topic_configs",
        {
            "topic": c_topic,
            "name": c_name,
            "value": c_value,
            "source": c_source,
            "is_default": [s == "DEFAULT_CONFIG" for s in c_source],
            "is_sensitive": [False] * rows,
            "read_only": [False] * rows,
        },
    )
    b_rows: list[dict[str, object]] = []
    for broker in broker_ids:
        for key, value in BROKER_CONFIG_DEFAULTS.items():
            if index % 10 == 4 and broker == broker_ids[-1] and key == "num.io.threads":
                value = "16"  # drift between brokers
            b_rows.append(
                {
                    "broker_id": broker,
                    "name": key,
                    "value": value,
                    "source": "STATIC_BROKER_CONFIG",
                    "is_default": False,
                    "is_sensitive": False,
                    "read_only": True,
                }
            )
        b_rows.append(
            {
                "broker_id": broker,
                "name": "broker.rack",
                "value": f"rack-{(broker - 1) % spec.racks}",
                "source": "STATIC_BROKER_CONFIG",
                "is_default": False,
                "is_sensitive": False,
                "read_only": True,
            }
        )
    writer.write("broker_configs", b_rows)
    acl_rows = [
        {
            "resource_type": "TOPIC",
            "resource_name": topic_names[0],
            "pattern_type": "LITERAL",
            "principal": "User:app",
            "host": "*",
            "operation": "READ",
            "permission_type": "ALLOW",
        }
    ]
    if index % 10 == 5:
        acl_rows.append({**acl_rows[0], "resource_name": "deleted-topic"})
    if index % 25 == 6:
        acl_rows.append({**acl_rows[0], "principal": "User:*", "operation": "ALL", "resource_name": "*"})
    writer.write("acls", acl_rows)
    writer.write(
        "client_quotas",
        [
            {
                "entity": "user=app",
                "user": "app",
                "client_id": None,
                "ip": None,
                "key": "producer_byte_rate",
                "value": 1048576.0,
            }
        ],
    )
    gib = 1 << 30
    writer.write(
        "log_dirs",
        {
            "broker_id": broker_ids,
            "log_dir": ["/var/lib/kafka/data"] * count,
            "error": [None] * count,
            "total_bytes": [2000 * gib] * count,
            "usable_bytes": [1000 * gib] * count,
            "partition_count": [partitions * 3 // count] * count,
            "partition_bytes": [
                (300 if index % 10 == 7 and b == broker_ids[0] else 100) * gib for b in broker_ids
            ],
        },
    )
    writer.write(
        "features",
        [
            {"feature": "metadata.version", "finalized_level": 25, "min_supported": 1, "max_supported": 25},
            {"feature": "kraft.version", "finalized_level": 1, "min_supported": 0, "max_supported": 1},
        ],
    )
    return writer.finish(
        {
            "bootstrap": f"b1.{cluster_id}.example:9092",
            "endpoint_type": "brokers",
            "controller_id": 101,
            "collected_ms": now_ms,
            "kcli_version": "synthetic",
        }
    )
