"""`kcli sandbox` on real Kafka nodes (--kafka-home): what the commands do when DIR holds real nodes.

The sandbox commands call these when DIR holds a real-Kafka sandbox (kcli.sandbox.kafka) instead of
talking to the emulator's process; the results have the emulator's shapes, so rendering is shared.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from kcli.cli.common import env_of
from kcli.errors import KcliError


class NotForThisEngine(KcliError):
    """A sandbox command that the engine in DIR cannot carry out."""


def up(path: Path, settings: Any, *, detach: bool, created: bool) -> tuple[Any, dict[str, Any]]:
    """Create or reopen the real sandbox in `path` and start its nodes; (the cluster, its status)."""
    from kcli.sandbox.kafka import faults
    from kcli.sandbox.kafka.cluster import KafkaCluster
    from kcli.sandbox.kafka.distribution import open_distribution

    distribution = open_distribution(settings.kafka_home)
    env = env_of()
    cluster = None
    try:
        cluster = KafkaCluster.open(settings, distribution, progress=env.err)
        cluster.start()
    except BaseException:
        if cluster is not None:
            cluster.stop()  # no JVM is left behind by a start that failed
        if created and not env.debug:  # with --debug the node logs stay for reading
            import shutil

            shutil.rmtree(path, ignore_errors=True)
        raise
    return cluster, {**faults.status(cluster), "directory": str(path)}


def wait_in_foreground(cluster: Any) -> str:
    """Until Ctrl-C, SIGTERM, or every node gone (`sandbox down` elsewhere); then stop the nodes. Who stopped it."""
    import signal

    def terminate(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    by = "kcli sandbox down"
    try:
        while any(cluster.running(spec.node_id) for spec in cluster.layout.nodes):
            time.sleep(0.5)
    except KeyboardInterrupt:
        by = "Ctrl-C"
    finally:
        signal.signal(signal.SIGTERM, previous)
    cluster.stop()
    return by


def status(path: Path) -> dict[str, Any]:
    from kcli.sandbox.kafka import faults
    from kcli.sandbox.kafka.control import load

    return {**faults.status(load(path)), "directory": str(path)}


def down(path: Path) -> str:
    """Stop every node of the real sandbox in `path`; the line that says so."""
    from kcli.sandbox.kafka.control import load

    cluster = load(path)
    running = [spec.node_id for spec in cluster.layout.nodes if cluster.running(spec.node_id)]
    cluster.stop()
    if not running:
        return f"Sandbox {cluster.cluster_id} in {path} was not running (no node alive); its state file is removed."
    return f"Sandbox {cluster.cluster_id} in {path} stopped (Kafka nodes {', '.join(map(str, running))})."


def fault(path: Path, command: str, **args: Any) -> Any:
    """The emulator's control commands, carried out on real nodes (same result shapes)."""
    from kcli.sandbox.kafka import faults
    from kcli.sandbox.kafka.control import load

    if command in faults.EMULATOR_ONLY:
        raise faults.refuse_emulator_fault(command)
    cluster = load(path, progress=env_of().err)
    if command == "stop-node":
        faults.stop_node(cluster, int(args["node_id"]))
    elif command == "kill-node":
        faults.stop_node(cluster, int(args["node_id"]), kill=True)
    elif command == "start-node":
        faults.start_node(cluster, int(args["node_id"]))
    elif command == "failover":
        return {"active_controller_id": faults.failover(cluster)}
    elif command == "add-node":
        return _add_node(cluster, args.get("node_id"), controller=bool(args.get("controller")))
    elif command == "replace-brokers":
        mapping = faults.replace_brokers(cluster)
        return {"replaced": {str(old): new for old, new in mapping.items()}, "status": faults.status(cluster)}
    else:
        raise ValueError(f"unknown sandbox command {command!r}")
    return faults.status(cluster)


def _add_node(cluster: Any, node_id: int | None, *, controller: bool) -> dict[str, Any]:
    from kcli.sandbox.kafka import faults

    config: str | None = None
    if controller:
        from kcli.sandbox.settings import CONTROLLER_ID_BASE

        if node_id is None:
            ids = [CONTROLLER_ID_BASE - 1, *(s.node_id for s in cluster.layout.controllers())]
            node_id = max(ids) + 1
        config = str(faults.prepare_controller(cluster, int(node_id)))
    else:
        node_id = faults.add_broker(cluster, None if node_id is None else int(node_id))
    spec = cluster.layout.node(int(node_id))
    return {
        "node_id": spec.node_id,
        "role": "controller" if controller else "broker",
        "host": cluster.layout.host,
        "port": spec.client_port,
        "config": config,
        "status": faults.status(cluster),
    }
