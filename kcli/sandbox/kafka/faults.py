"""Faults and changes on real nodes: stop, start, kill -9, failover, replace every broker, a new controller.

Each is what an operator does to a Kafka cluster, done to real JVMs; nothing is simulated. The faults
only an emulator can fake (a node advertising another's endpoint, slow responses) are refused with the
reason: a real node advertises what its server.properties says.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from kcli.sandbox.engine import NodeStatus, NotSupported, SandboxStatus
from kcli.sandbox.kafka import asking, processes
from kcli.sandbox.kafka.cluster import START_TIMEOUT_S, KafkaCluster, KafkaSandboxError
from kcli.sandbox.kafka.layout import BROKER, CONTROLLER, NodeSpec
from kcli.sandbox.nodes import new_directory_id
from kcli.sandbox.ports import free_ports

FAILOVER_TIMEOUT_S = 60.0
EMULATOR_ONLY = {
    "misroute": "a real Kafka node advertises the endpoints its server.properties names; to misroute one, "
    "stop it and start it with another advertised.listeners",
    "delay": "slow responses are an emulator fault; slow a real node down with the operating system "
    "(tc qdisc, cgroups) instead",
}


def emulator_only(fault: str) -> NotSupported:
    """The answer to a fault real nodes cannot have: why, in one line."""
    return NotSupported(
        command=fault, reason=f"`sandbox {fault}` is a fault only the emulator can fake: {EMULATOR_ONLY[fault]}"
    )


def stop_node(cluster: KafkaCluster, node_id: int, *, kill: bool = False) -> None:
    """SIGTERM (an orderly shutdown: a broker moves its leaderships first) or SIGKILL (kill -9)."""
    spec = _spec(cluster, node_id)
    record = cluster.launched.get(spec.node_id)
    if record is None or not cluster.running(node_id):
        raise KafkaSandboxError(f"node {node_id} is already stopped")
    signal_node = processes.kill if kill else processes.stop
    signal_node(record)
    cluster.launched.pop(node_id, None)
    cluster.write_state()


def start_node(cluster: KafkaCluster, node_id: int, *, timeout: float = START_TIMEOUT_S) -> None:
    """Start a stopped node on its ports and wait until it is up (a broker: until it is unfenced)."""
    spec = _spec(cluster, node_id)
    if cluster.running(node_id):
        raise KafkaSandboxError(f"node {node_id} is already running")
    deadline = time.monotonic() + timeout
    cluster._write_properties((spec,))  # DIR/<id>/overrides.properties edited since take effect now
    started = processes.start(
        cluster.distribution, cluster.properties(node_id), cluster.log_file(node_id), log4j=cluster._log4j()
    )
    cluster.launched[node_id] = started.record
    cluster.write_state()
    processes.wait_ready(started, deadline=deadline, what=f"Kafka node {node_id}")
    if spec.is_broker:
        config = cluster.admin_config()
        asking.wait_for(
            lambda: True if node_id in asking.unfenced_brokers(config) else None,
            deadline=deadline,
            what=f"broker {node_id} unfenced",
        )


def failover(cluster: KafkaCluster) -> int:
    """Stop the active controller, wait for another voter to win the election, start the old one again
    and wait until it follows the new leader (so the next DescribeQuorum, through any controller, finds it)."""
    config = cluster.admin_config(controllers=True)
    before = asking.quorum(config)
    old = before.leader_id
    others = [v.replica_id for v in before.voters if v.replica_id != old and cluster.running(v.replica_id)]
    if not others:
        raise KafkaSandboxError("no other running controller to fail over to")
    stop_node(cluster, old)
    deadline = time.monotonic() + FAILOVER_TIMEOUT_S

    def elected() -> int | None:
        info = asking.quorum(config)
        return (
            info.leader_id
            if info.leader_id not in (-1, old) and info.leader_epoch > before.leader_epoch
            else None
        )

    leader = asking.wait_for(elected, deadline=deadline, what=f"a controller other than {old} elected")
    restarted_ms = time.time() * 1000  # DescribeQuorum's timestamps are wall-clock epoch ms
    start_node(cluster, old)

    def following() -> bool | None:
        """The restarted voter fetches from the new leader: until then it may answer that none is known."""
        info = asking.quorum(config)
        voter = next((v for v in info.voters if v.replica_id == old), None)
        caught_up = voter is not None and (voter.last_caught_up_timestamp or 0) >= restarted_ms
        return True if info.leader_id == leader and caught_up else None

    asking.wait_for(
        following, deadline=time.monotonic() + FAILOVER_TIMEOUT_S, what=f"controller {old} following {leader}"
    )
    return leader


def replace_brokers(cluster: KafkaCluster, *, fresh_ports: bool = False) -> dict[int, int]:
    """Replace every broker by a new one with a new id (the KIP-899 rebootstrap case); old id -> new id.

    The new brokers start beside the old ones, every replica moves to them (the data is copied), the
    old brokers stop and are unregistered. Without fresh_ports each new broker then moves to the port of
    the next old broker (rotated), so the old bootstrap addresses reach new nodes; with it, they keep
    new ports and every old address goes dead.
    """
    old = [spec for spec in cluster.layout.brokers() if not spec.is_controller]
    if not old:
        raise KafkaSandboxError(
            "the brokers of a --combined sandbox are its controllers: they cannot be replaced"
        )
    next_id = max(spec.node_id for spec in cluster.layout.brokers()) + 1
    ports = free_ports(len(old), cluster.layout.host)
    mapping = {spec.node_id: next_id + index for index, spec in enumerate(old)}
    fresh = [
        NodeSpec(
            node_id=mapping[spec.node_id], roles=(BROKER,), broker_port=port, directory_id=new_directory_id()
        )
        for spec, port in zip(old, ports, strict=True)
    ]
    layout = cluster.layout
    for spec in fresh:
        layout = layout.with_node(spec)
    cluster.save_layout(layout)
    cluster._format(tuple(fresh), joining=True)
    for spec in fresh:
        start_node(cluster, spec.node_id)
    moved = asking.move_replicas(cluster.admin_config(), mapping, deadline=time.monotonic() + START_TIMEOUT_S)
    cluster.progress(
        f"Moved the replicas of {moved} partition(s) to brokers {', '.join(map(str, mapping.values()))}"
    )
    controllers = cluster.admin_config(controllers=True)
    for spec in old:
        stop_node(cluster, spec.node_id)
        asking.unregister(controllers, spec.node_id)
    cluster.save_layout(cluster.layout.without({spec.node_id for spec in old}))
    if not fresh_ports:
        rotated = [spec.broker_port for spec in old[1:] + old[:1]]
        for spec, port in zip(fresh, rotated, strict=True):
            stop_node(cluster, spec.node_id)
            moved_spec = NodeSpec(
                node_id=spec.node_id, roles=spec.roles, broker_port=port, directory_id=spec.directory_id
            )
            cluster.save_layout(cluster.layout.with_node(moved_spec))
            cluster._write_properties((moved_spec,))
            start_node(cluster, spec.node_id)
    cluster.write_state()
    return mapping


def add_broker(cluster: KafkaCluster, node_id: int | None = None, *, timeout: float = START_TIMEOUT_S) -> int:
    """Format and start a new broker (the next free id unless given); it holds no replicas yet. Its id."""
    from kcli.sandbox.settings import CONTROLLER_ID_FLOOR

    if node_id is None:
        node_id = max(spec.node_id for spec in cluster.layout.brokers()) + 1
    if any(spec.node_id == node_id for spec in cluster.layout.nodes):
        raise KafkaSandboxError(f"node {node_id} already exists in this sandbox")
    if not 0 <= node_id < CONTROLLER_ID_FLOOR:
        raise KafkaSandboxError(f"broker ids are 0 to {CONTROLLER_ID_FLOOR - 1} in a sandbox, not {node_id}")
    spec = NodeSpec(
        node_id=node_id, roles=(BROKER,), broker_port=_next_port(cluster), directory_id=new_directory_id()
    )
    cluster.save_layout(cluster.layout.with_node(spec))
    cluster._format((spec,), joining=True)
    start_node(cluster, node_id, timeout=timeout)
    return node_id


def prepare_controller(cluster: KafkaCluster, node_id: int, *, timeout: float = START_TIMEOUT_S) -> Path:
    """Format (--no-initial-controllers) and start a new controller that is not a voter yet; its server.properties.

    The file is what `metadata-quorum add-controller --command-config` reads (its meta.properties holds the
    directory id); the admin's client settings follow, since the same file is the tool's client config.
    """
    if not cluster.layout.dynamic_quorum:
        raise KafkaSandboxError(
            "this sandbox has a static quorum (controller.quorum.voters): controllers cannot be added"
        )
    if any(spec.node_id == node_id for spec in cluster.layout.nodes):
        raise KafkaSandboxError(f"node {node_id} already exists in this sandbox")
    (port,) = free_ports(1, cluster.layout.host)
    spec = NodeSpec(
        node_id=node_id, roles=(CONTROLLER,), controller_port=port, directory_id=new_directory_id()
    )
    cluster.save_layout(cluster.layout.with_node(spec))
    cluster._format((spec,), joining=True)
    start_node(cluster, node_id, timeout=timeout)
    path = cluster.properties(node_id)
    client = "".join(
        f"{key}={value}\n"
        for key, value in cluster.client_settings().items()
        if key != "security.protocol" or value != "PLAINTEXT"
    )
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(
            "\n# the admin client settings, for kcli metadata-quorum add-controller --command-config\n"
            + client
        )
    return path


def status(cluster: KafkaCluster) -> SandboxStatus:
    """The sandbox's status, filled from the real cluster (quorum from DescribeQuorum, topics from Metadata)."""
    quorum: Any = None
    topics: int | None = None
    if any(cluster.running(spec.node_id) for spec in cluster.layout.controllers()):
        try:
            quorum = asking.quorum(cluster.admin_config(controllers=True, timeout_ms=5000))
        except Exception:  # an unreachable quorum is a status, not a failure
            quorum = None
    if any(cluster.running(spec.node_id) for spec in cluster.layout.brokers()):
        from kcli.client.api.topic_names import list_topic_names

        try:
            topics = len(asking.ask(cluster.admin_config(timeout_ms=5000), list_topic_names))
        except Exception:
            topics = None
    leader = quorum.leader if quorum is not None else None
    return SandboxStatus(
        engine="kafka",
        kafka_version=cluster.distribution.version_text,
        kafka_home=str(cluster.distribution.home),
        cluster_id=cluster.cluster_id,
        active_controller_id=quorum.leader_id if quorum is not None else None,
        leader_epoch=quorum.leader_epoch if quorum is not None else None,
        log_end_offset=leader.log_end_offset if leader is not None else None,
        high_watermark=quorum.high_watermark if quorum is not None else None,
        security=cluster.settings.security.value,
        bootstrap_servers=cluster.bootstrap_servers,
        bootstrap_controllers=cluster.bootstrap_controllers,
        topics=topics,
        nodes=tuple(
            NodeStatus(
                node_id=spec.node_id,
                role=spec.role,
                host=cluster.layout.host,
                port=spec.client_port,
                running=cluster.running(spec.node_id),
                pid=cluster.pid_of(spec.node_id),
                real=True,
                rack=cluster.settings.rack_of(spec.node_id) if spec.is_broker else None,
            )
            for spec in cluster.layout.nodes
        ),
    )


def _next_port(cluster: KafkaCluster) -> int:
    """A node added later: the port after the highest in use with --base-port, else a free one."""
    if cluster.settings.base_port:
        used = [p for s in cluster.layout.nodes for p in (s.broker_port, s.controller_port) if p is not None]
        return max(used) + 1
    (port,) = free_ports(1, cluster.layout.host)
    return port


def _spec(cluster: KafkaCluster, node_id: int) -> NodeSpec:
    try:
        return cluster.layout.node(node_id)
    except KeyError as error:
        raise KafkaSandboxError(str(error.args[0])) from None
