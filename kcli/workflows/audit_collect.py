"""Collecting the facts of a live cluster for an audit: the rows of its snapshot tables (no Spark).

kcli.audit writes these rows as snapshot files (kcli.audit.snapshot) or hands them to a Spark job.

Behavior:
- One Admin per cluster; the steps run one after the other under one collection time, so every
  table of a snapshot describes the same moment as closely as the cluster allows.
- Brokers: DescribeCluster including fenced brokers where the server offers v2.
- Topics and partitions: Metadata v1-v12 for every topic (leader, replicas, ISR, offline replicas),
  then DescribeTopicPartitions (75, KIP-966) for ELR and last-known ELR where the brokers offer it.
- Configs (kcli.client.api.configs), ACLs (api.acls), client quotas (api.quotas), log dirs
  (api.log_dirs), features (api.features) and the quorum (api.quorum) come from the tool modules.
- Groups: every group ListGroups lists, and the committed offsets of all but share groups beside
  their partitions' log start and end offsets (kcli.workflows.audit_groups).
- Endpoints: every advertised broker and controller endpoint is dialled on its own connection, as
  `kcli cluster doctor` does (kcli.workflows.doctor.probe_endpoint), to record who answers there.
- What could not be collected is a warning kept with the snapshot (the clusters row): an optional
  part the server does not offer (no DescribeLogDirs, ...), a broker that is fenced or does not
  answer, a misrouted broker (its configs and log dirs). A cluster without an authorizer simply
  has no ACLs (not a warning). The cluster identity, brokers, topics and partitions are required.
Version notes: topics and partitions come from kcli.workflows.partitions (shared with `kcli topics`).
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from kcli.client.errors import code_of
from kcli.errors import KcliError, UsageError
from kcli.kafka import ConfigSource, EndpointType
from kcli.workflows.partitions import add_elr, every_partition

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig

STEPS = (
    "cluster",
    "topics",
    "leader eligibility",
    "topic configs",
    "broker configs",
    "acls",
    "client quotas",
    "log dirs",
    "features",
    "quorum",
    "groups",
    "endpoints",
)
# Each endpoint probe's deadline (at most request.timeout.ms): a healthy listener answers in ms.
PROBE_TIMEOUT_MS = 10_000

SECURITY_DISABLED = code_of("SECURITY_DISABLED")  # DescribeAcls on a cluster without an authorizer

Step = Callable[[str], None]


@dataclass(slots=True, kw_only=True)
class ClusterSnapshot:
    """One cluster's tables as rows (table name -> rows), and what could not be collected."""

    cluster_id: str
    collected_at: datetime
    bootstrap: str
    endpoint_type: str
    controller_id: int
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


async def collect_cluster(
    config: ClientConfig, *, step: Step | None = None, now: Callable[[], datetime] | None = None
) -> ClusterSnapshot:
    """Collect one cluster's snapshot; `step(name)` is called as each step starts."""
    from kcli.client.admin import Admin

    if config.endpoint_type is EndpointType.CONTROLLERS:
        raise UsageError(
            "kcli spark collect needs broker endpoints (--bootstrap-server): topics, partitions and log "
            "dirs are served by brokers"
        )
    announce = step or (lambda _name: None)
    moment = (now or (lambda: datetime.now(UTC)))()
    bootstrap = ",".join(str(endpoint) for endpoint in config.bootstrap)
    async with Admin(config) as admin:
        announce("cluster")
        description = await admin.describe_cluster(include_fenced_brokers=True)
        cluster_id = description.cluster_id or admin.cluster_id
        if not cluster_id:
            raise KcliError(f"cluster at {bootstrap} did not report a cluster id")
        snapshot = ClusterSnapshot(
            cluster_id=cluster_id,
            collected_at=moment,
            bootstrap=bootstrap,
            endpoint_type="brokers",
            controller_id=description.controller_id,
        )
        snapshot.tables["brokers"] = [
            {"broker_id": n.node_id, "host": n.host, "port": n.port, "rack": n.rack, "fenced": n.fenced}
            for n in sorted(description.nodes, key=lambda n: n.node_id)
        ]
        live = sorted(n.node_id for n in description.nodes if not n.fenced)
        announce("topics")
        topics, partitions = await every_partition(admin)
        snapshot.tables["topics"] = topics
        snapshot.tables["partitions"] = partitions
        announce("leader eligibility")
        await _optional(snapshot, "ELR", add_elr(admin, partitions))
        names = [row["topic"] for row in topics]
        announce("topic configs")
        snapshot.tables["topic_configs"] = await _configs(admin, snapshot, "topics", names)
        announce("broker configs")
        for node in description.nodes:
            if node.fenced:
                snapshot.warnings.append(
                    f"{cluster_id}: broker {node.node_id} is fenced (stopped, or not heartbeating to the "
                    "controller): its configs and log dirs were not collected"
                )
        snapshot.tables["broker_configs"] = await _configs(admin, snapshot, "brokers", [str(b) for b in live])
        announce("acls")
        snapshot.tables["acls"] = await _optional(snapshot, "ACLs", _acls(admin)) or []
        announce("client quotas")
        snapshot.tables["client_quotas"] = await _optional(snapshot, "client quotas", _quotas(admin)) or []
        announce("log dirs")
        snapshot.tables["log_dirs"] = await _log_dirs(admin, snapshot, live)
        announce("features")
        snapshot.tables["features"] = await _optional(snapshot, "features", _features(admin)) or []
        announce("quorum")
        quorum = await _optional(snapshot, "quorum", _quorum(admin))
        snapshot.tables["quorum"], snapshot.tables["controllers"] = quorum or ([], [])
        announce("groups")
        await _groups(admin, snapshot, config.default_api_timeout_ms)
        announce("endpoints")
        snapshot.tables["endpoints"] = await _endpoints(
            config, cluster_id, description.nodes, snapshot.tables["controllers"]
        )
    return snapshot


async def _optional(snapshot: ClusterSnapshot, what: str, work: Any) -> Any:
    """Run an optional step: a Kafka-level failure becomes a warning and an empty table."""
    try:
        return await work
    except KcliError as error:
        snapshot.warnings.append(f"{snapshot.cluster_id}: {what} not collected: {error.line()}")
        return None


async def _groups(admin: Admin, snapshot: ClusterSnapshot, timeout_ms: int) -> None:
    """The groups and their committed offsets beside the log offsets (kcli.workflows.audit_groups)."""
    from kcli.workflows.audit_groups import group_tables

    tables = await _optional(
        snapshot, "groups", group_tables(admin, snapshot.tables["partitions"], timeout_ms=timeout_ms)
    )
    groups, offsets, problems = tables or ([], [], [])
    snapshot.tables["groups"], snapshot.tables["group_offsets"] = groups, offsets
    snapshot.warnings.extend(f"{snapshot.cluster_id}: {problem}" for problem in problems)


async def _configs(
    admin: Admin, snapshot: ClusterSnapshot, kind: str, names: Sequence[str]
) -> list[dict[str, Any]]:
    from kcli.client.api.configs import describe_configs
    from kcli.ops.config_spec import Entity, EntityType

    entity_type = EntityType.TOPICS if kind == "topics" else EntityType.BROKERS
    if not names:
        return []
    results = await describe_configs(
        admin, [Entity(type=entity_type, name=name) for name in names], include_synonyms=False
    )
    rows: list[dict[str, Any]] = []
    for result in results:
        if result.error is not None:
            snapshot.warnings.append(
                f"{snapshot.cluster_id}: configs of {result.entity.label} not collected: {result.error.line()}"
            )
            continue
        for entry in result.entries:
            row: dict[str, Any] = {
                "name": entry.name,
                "value": None if entry.sensitive else entry.value,
                "source": entry.source.name,
                "is_default": entry.source is ConfigSource.DEFAULT_CONFIG,
                "is_sensitive": entry.sensitive,
                "read_only": entry.read_only,
            }
            if kind == "topics":
                row["topic"] = result.entity.name
            else:
                row["broker_id"] = int(result.entity.name or -1)
            rows.append(row)
    return rows


async def _acls(admin: Admin) -> list[dict[str, Any]]:
    from kcli.client.api.acls import describe_acls
    from kcli.client.errors import KafkaError
    from kcli.ops.acls import ANY_FILTER

    try:
        bindings = await describe_acls(admin, [ANY_FILTER])
    except KafkaError as error:
        if error.code == SECURITY_DISABLED:
            return []  # no authorizer: the cluster has no ACLs to audit, nothing is missing
        raise
    return [
        {
            "resource_type": binding.pattern.resource_type.name,
            "resource_name": binding.pattern.name,
            "pattern_type": binding.pattern.pattern_type.name,
            "principal": binding.entry.principal,
            "host": binding.entry.host,
            "operation": binding.entry.operation.name,
            "permission_type": binding.entry.permission_type.name,
        }
        for binding in bindings
    ]


async def _quotas(admin: Admin) -> list[dict[str, Any]]:
    from kcli.client.api.quotas import describe_client_quotas
    from kcli.ops.config_spec import Entity, EntityType

    shapes = (
        [EntityType.USERS],
        [EntityType.CLIENTS],
        [EntityType.IPS],
        [EntityType.USERS, EntityType.CLIENTS],
    )
    rows: list[dict[str, Any]] = []
    for shape in shapes:
        for entry in await describe_client_quotas(admin, [Entity(type=kind) for kind in shape]):
            parts = {
                key: (name if name is not None else "<default>") for key, name in entry.entity.components
            }
            entity = ",".join(f"{key}={name}" for key, name in parts.items())
            for key, value in sorted(entry.values.items()):
                rows.append(
                    {
                        "entity": entity,
                        "user": parts.get("user"),
                        "client_id": parts.get("client-id"),
                        "ip": parts.get("ip"),
                        "key": key,
                        "value": float(value),
                    }
                )
    return rows


async def _log_dirs(admin: Admin, snapshot: ClusterSnapshot, brokers: Sequence[int]) -> list[dict[str, Any]]:
    from kcli.client.api.log_dirs import describe_log_dirs

    if not brokers:
        return []
    described = await describe_log_dirs(admin, brokers)
    rows: list[dict[str, Any]] = []
    for broker_id, reply in sorted(described.items()):
        if isinstance(reply, KcliError):
            snapshot.warnings.append(
                f"{snapshot.cluster_id}: log dirs of broker {broker_id} not collected: {reply.line()}"
            )
            continue
        dirs: dict[str, list[int]] = {}
        for replicas in reply.replicas.values():
            for replica in replicas:
                if not replica.is_future:
                    dirs.setdefault(replica.log_dir, []).append(replica.size)
        for log_dir, sizes in sorted(dirs.items()):
            rows.append(
                {
                    "broker_id": broker_id,
                    "log_dir": log_dir,
                    "error": None,
                    "total_bytes": -1,
                    "usable_bytes": -1,
                    "partition_count": len(sizes),
                    "partition_bytes": sum(sizes),
                }
            )
        for log_dir in reply.offline_dirs:
            rows.append(
                {
                    "broker_id": broker_id,
                    "log_dir": log_dir,
                    "error": "KAFKA_STORAGE_ERROR",
                    "total_bytes": -1,
                    "usable_bytes": -1,
                    "partition_count": 0,
                    "partition_bytes": 0,
                }
            )
    return rows


async def _features(admin: Admin) -> list[dict[str, Any]]:
    from kcli.client.api.features import describe

    description = await describe(admin)
    return [
        {
            "feature": state.name,
            "finalized_level": state.finalized_level or None,
            "min_supported": state.supported_min,
            "max_supported": state.supported_max,
        }
        for state in description.features
    ]


async def _quorum(admin: Admin) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from kcli.client.api.quorum import describe

    info = await describe(admin)
    rows: list[dict[str, Any]] = []
    for role_of, replicas in (("voter", info.voters), ("observer", info.observers)):
        for replica in replicas:
            role = (
                "observer"
                if role_of == "observer"
                else ("leader" if replica.replica_id == info.leader_id else "follower")
            )
            known = replica.log_end_offset >= 0
            rows.append(
                {
                    "replica_id": replica.replica_id,
                    "role": role,
                    "leader_id": info.leader_id,
                    "leader_epoch": info.leader_epoch,
                    "high_watermark": info.high_watermark,
                    "log_end_offset": replica.log_end_offset,
                    "lag": info.high_watermark - replica.log_end_offset if known else None,
                    "last_fetch_ms": replica.last_fetch_timestamp
                    if replica.last_fetch_timestamp is not None
                    else -1,
                    "last_caught_up_ms": (
                        replica.last_caught_up_timestamp
                        if replica.last_caught_up_timestamp is not None
                        else -1
                    ),
                }
            )
    controllers = []
    for voter in info.voters:
        endpoints = info.nodes.get(voter.replica_id, ())
        first = endpoints[0] if endpoints else None
        controllers.append(
            {
                "controller_id": voter.replica_id,
                "host": first.host if first else None,
                "port": first.port if first else None,
                "rack": None,
                "is_active": voter.replica_id == info.leader_id,
            }
        )
    return rows, controllers


async def _endpoints(
    config: ClientConfig, cluster_id: str, brokers: Sequence[Any], controllers: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Dial every advertised endpoint concurrently and record who answers there (a row per endpoint)."""
    import asyncio
    import dataclasses

    from kcli.client.config import Endpoint
    from kcli.workflows.doctor import probe_endpoint

    timeout_ms = min(config.request_timeout_ms, PROBE_TIMEOUT_MS)
    as_controllers = dataclasses.replace(config, endpoint_type=EndpointType.CONTROLLERS)
    targets = [("broker", node.node_id, node.host, node.port, config) for node in brokers]
    targets += [
        ("controller", row["controller_id"], row["host"], row["port"], as_controllers)
        for row in controllers
        if row["host"] is not None and row["port"] is not None
    ]
    results = await asyncio.gather(
        *(
            probe_endpoint(
                target_config,
                Endpoint(host=host, port=port, node_id=node_id),
                role=role,
                node_id=node_id,
                cluster_id=cluster_id,
                timeout_ms=timeout_ms,
            )
            for role, node_id, host, port, target_config in targets
        )
    )
    rows: list[dict[str, Any]] = []
    for (role, node_id, host, port, _config), result in zip(targets, results, strict=True):
        probe = result.probe
        identity = probe.identity
        verified = None if identity is None or not probe.ok else identity.verified
        served_by = node_id if verified else (identity.actual_node_id if identity is not None else None)
        checked = "unchecked" if verified is None else ("verified" if verified else "mismatch")
        rows.append(
            {
                "role": role,
                "node_id": node_id,
                "host": host,
                "port": port,
                "answered": probe.ok,
                "identity": checked,
                "served_by_node_id": served_by if probe.ok else None,
                "served_by_cluster_id": probe.cluster_id if probe.ok else None,
                "error": None if probe.ok else probe.error,
            }
        )
    return rows


async def collect_each(
    configs: Sequence[ClientConfig], *, on_step: Callable[[int, str], None] | None = None
) -> AsyncIterator[tuple[int, ClusterSnapshot]]:
    """Collect each cluster in turn, yielding (index, snapshot); on_step(index, step) drives a progress bar."""
    for index, config in enumerate(configs):
        step: Step | None = None
        if on_step is not None:
            step = functools.partial(on_step, index)
        yield index, await collect_cluster(config, step=step)
