"""The sandbox's own state, read on its loop, in the shapes AdminPeer.java reports the Java client's view.

These are the expected values of the fidelity tests: what the sandbox holds (its metadata image, quorum
and log dirs), independent of how its handlers encode answers.
"""

from __future__ import annotations

from typing import Any

from kcli.metadata.uuids import kafka_uuid

# Kafka's enum ids as the Java client names them (ResourceType, PatternType, AclOperation,
# AclPermissionType, ConfigResource.Type): facts from org.apache.kafka.common.*.
RESOURCE_TYPES = {
    2: "TOPIC",
    3: "GROUP",
    4: "CLUSTER",
    5: "TRANSACTIONAL_ID",
    6: "DELEGATION_TOKEN",
    7: "USER",
}
PATTERN_TYPES = {3: "LITERAL", 4: "PREFIXED"}
OPERATIONS = {
    2: "ALL", 3: "READ", 4: "WRITE", 5: "CREATE", 6: "DELETE", 7: "ALTER", 8: "DESCRIBE",
    9: "CLUSTER_ACTION", 10: "DESCRIBE_CONFIGS", 11: "ALTER_CONFIGS", 12: "IDEMPOTENT_WRITE",
    13: "CREATE_TOKENS", 14: "DESCRIBE_TOKENS",
}  # fmt: skip
PERMISSIONS = {2: "DENY", 3: "ALLOW"}
SCRAM_MECHANISMS = {1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}
TOPIC_RESOURCE, BROKER_RESOURCE = 2, 4


def cluster_view(sb: Any, *, controllers: bool) -> dict[str, Any]:
    """describeCluster as the Java client should see it through brokers or through controllers."""

    def read(c: Any) -> dict[str, Any]:
        if controllers:
            nodes = [
                {"id": n.node_id, "host": n.host, "port": n.port, "rack": None}
                for n in c.controllers()
                if n.running
            ]
            controller = c.active_controller_id
        else:
            nodes = []
            for b in c.image.brokers.values():
                if not b.fenced:
                    host, port = c.advertised(b.broker_id)
                    nodes.append({"id": b.broker_id, "host": host, "port": port, "rack": b.rack})
            controller = c.client_controller_id()
        nodes.sort(key=lambda n: n["id"])
        return {
            "clusterId": c.cluster_id,
            "controller": next(n for n in nodes if n["id"] == controller),
            "nodes": nodes,
        }

    return sb.run(read)  # type: ignore[no-any-return]


def quorum_view(sb: Any) -> dict[str, Any]:
    """The Raft quorum: leader, epoch, high watermark, voters and observers with offsets and timestamps."""

    def read(c: Any) -> dict[str, Any]:
        def replica(node_id: int) -> dict[str, Any]:
            node = c.nodes[node_id]
            directory = c.voters.get(node_id) or node.directory_id
            return {
                "replicaId": node_id,
                "replicaDirectoryId": kafka_uuid(directory),
                "logEndOffset": node.log_end_offset,
                "lastFetchTimestamp": node.last_fetch_ms,
                "lastCaughtUpTimestamp": node.last_caught_up_ms,
            }

        observers = [
            n.node_id
            for n in sorted(c.nodes.values(), key=lambda n: n.node_id)
            if n.node_id not in c.voters and (n.running or n.log_end_offset > 0)
        ]
        return {
            "leaderId": c.active_controller_id,
            "leaderEpoch": c.leader_epoch,
            "highWatermark": c.metalog.end_offset,
            "voters": [replica(v) for v in sorted(c.voters)],
            "observers": [replica(o) for o in observers],
            "nodes": {
                str(v): [{"name": "CONTROLLER", "host": c.nodes[v].host, "port": c.nodes[v].port}]
                for v in sorted(c.voters)
            },
        }

    return sb.run(read)  # type: ignore[no-any-return]


def features_view(sb: Any) -> dict[str, Any]:
    """Finalized levels (non-zero, kraft.version from the quorum), their epoch, and supported ranges."""
    from kcli.sandbox.emulator.features import supported_features

    def read(c: Any) -> dict[str, Any]:
        levels = {**c.image.features, "kraft.version": c.kraft_version}
        return {
            "finalized": {k: {"min": v, "max": v} for k, v in sorted(levels.items()) if v > 0},
            "finalizedEpoch": c.image.features_epoch,
            "supported": {f.name: {"min": f.min_level, "max": f.max_level} for f in supported_features()},
        }

    return sb.run(read)  # type: ignore[no-any-return]


def topics_view(sb: Any) -> dict[str, dict[str, Any]]:
    """Every topic: id and partitions (leader, replicas, ISR, adding/removing replicas)."""

    def read(c: Any) -> dict[str, dict[str, Any]]:
        out = {}
        for t in c.image.topics.values():
            out[t.name] = {
                "topicId": kafka_uuid(t.topic_id),
                "partitions": [
                    {
                        "partition": p.partition_id,
                        "leader": None if p.leader < 0 else p.leader,
                        "replicas": list(p.replicas),
                        "isr": list(p.isr),
                        "adding": list(p.adding_replicas),
                        "removing": list(p.removing_replicas),
                    }
                    for p in sorted(t.partitions.values(), key=lambda p: p.partition_id)
                ],
            }
        return out

    return sb.run(read)  # type: ignore[no-any-return]


def dynamic_configs(sb: Any, resource_type: int, name: str) -> dict[str, str]:
    """The configs set dynamically on one resource (ConfigRecords in the metadata log)."""
    return sb.run(lambda c: dict(c.image.configs.get((resource_type, name), {})))  # type: ignore[no-any-return]


def acls_view(sb: Any) -> list[dict[str, Any]]:
    def read(c: Any) -> list[dict[str, Any]]:
        return [
            {
                "resourceType": RESOURCE_TYPES[a.resource_type],
                "name": a.resource_name,
                "patternType": PATTERN_TYPES[a.pattern_type],
                "principal": a.principal,
                "host": a.host,
                "operation": OPERATIONS[a.operation],
                "permission": PERMISSIONS[a.permission_type],
            }
            for a in c.image.acls.values()
        ]

    return sorted(sb.run(read), key=acl_key)


def acl_key(binding: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(binding[k]) for k in ("resourceType", "name", "patternType", "principal", "host",
                                          "operation", "permission"))  # fmt: skip


def scram_view(sb: Any) -> dict[str, list[dict[str, Any]]]:
    def read(c: Any) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for (user, mechanism), cred in sorted(c.image.scram.items()):
            out.setdefault(user, []).append(
                {"mechanism": SCRAM_MECHANISMS[mechanism], "iterations": cred.iterations}
            )
        return out

    return sb.run(read)  # type: ignore[no-any-return]


def quotas_view(sb: Any) -> list[dict[str, Any]]:
    def read(c: Any) -> list[dict[str, Any]]:
        return [
            {"entity": dict(sorted(entity)), "values": dict(sorted(values.items()))}
            for entity, values in c.image.quotas.items()
        ]

    return sorted(sb.run(read), key=lambda q: str(q["entity"]))


def log_dirs_view(sb: Any, broker_id: int) -> dict[str, dict[str, Any]]:
    """One broker's log dirs: path -> the replicas it holds, with the bytes of their segments."""
    from kcli.sandbox.emulator.logdirs import replica_directory

    def read(c: Any) -> dict[str, dict[str, Any]]:
        dirs = c.log_dirs[broker_id]
        by_id = {d.directory_id: str(d.path) for d in dirs}
        out: dict[str, dict[str, Any]] = {path: {} for path in by_id.values()}
        for t in c.image.topics.values():
            for p in t.partitions.values():
                if broker_id in p.replicas:
                    where = by_id.get(replica_directory(c, p, broker_id), str(dirs[0].path))
                    size = c.partition_logs.replicas.replica_size(p.topic_id, p.partition_id, broker_id)
                    out[where][f"{t.name}-{p.partition_id}"] = size
        return out

    return sb.run(read)  # type: ignore[no-any-return]
