"""What a sandbox node registers and is configured with: bootstrap records, Register*Record and
the static (server.properties) values each node reports as STATIC_BROKER_CONFIG."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.kafka import ScramMechanism
from kcli.metadata import records as _records
from kcli.sandbox.emulator.features import CONTROL_FEATURES, supported_features
from kcli.sandbox.settings import INTERNAL_TOPIC_FACTORS, INTERNAL_TOPIC_MIN_ISR

if TYPE_CHECKING:
    from kcli.sandbox.emulator.node import Node
    from kcli.sandbox.emulator.view import ClusterView

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

CONTROLLER_LISTENER = "CONTROLLER"
# The static values that name this node (ids, addresses, directories): the only values in which a
# sandbox node and a real Kafka node of the same shape differ (tests/fidelity normalizes them).
NODE_VALUES = (
    "node.id",
    "broker.id",
    "listeners",
    "advertised.listeners",
    "controller.quorum.bootstrap.servers",
    "log.dirs",
    "metadata.log.dir",
    "ssl.keystore.location",
    "ssl.truststore.location",
)


def bootstrap_records(cluster: ClusterView) -> list[Any]:
    from kcli.sandbox.emulator.configalter import ELIGIBLE_LEADER_REPLICAS, elr_safety_records
    from kcli.sandbox.emulator.security import scram_credential

    records: list[Any] = [
        R.FeatureLevelRecord(name=name, feature_level=level)
        for name, level in cluster.bootstrap_levels.items()
        if name not in CONTROL_FEATURES and level > 0
    ]
    if cluster.bootstrap_levels.get(ELIGIBLE_LEADER_REPLICAS, 0) >= 1:
        records += elr_safety_records(cluster)
    if cluster.settings.security.sasl:
        for user, password in cluster.security.scram_users().items():
            for mechanism in ScramMechanism:
                records.append(scram_credential(user, password, mechanism.code))
    return records


def _features(cls: type) -> tuple[Any, ...]:
    return tuple(
        cls(name=f.name, min_supported_version=f.min_level, max_supported_version=f.max_level)
        for f in supported_features()
    )


def register_controller(cluster: ClusterView, node: Node) -> Any:
    endpoint = R.ControllerEndpoint(
        name=CONTROLLER_LISTENER,
        host=node.host,
        port=node.port,
        security_protocol=cluster.settings.security.protocol_id,
    )
    return R.RegisterControllerRecord(
        controller_id=node.node_id,
        incarnation_id=node.incarnation_id,
        zk_migration_ready=False,
        end_points=(endpoint,),
        features=_features(R.ControllerFeature),
    )


def register_broker(cluster: ClusterView, node: Node) -> list[Any]:
    epoch = cluster.metalog.end_offset
    endpoint = R.BrokerEndpoint(
        name=cluster.settings.security.protocol_name,
        host=node.host,
        port=node.port,
        security_protocol=cluster.settings.security.protocol_id,
    )
    return [
        R.RegisterBrokerRecord(
            broker_id=node.node_id,
            incarnation_id=node.incarnation_id,
            broker_epoch=epoch,
            end_points=(endpoint,),
            features=_features(R.BrokerFeature),
            rack=cluster.settings.rack_of(node.node_id),
            fenced=True,
            log_dirs=tuple(d.directory_id for d in cluster.log_dirs[node.node_id]),
        ),
        R.BrokerRegistrationChangeRecord(broker_id=node.node_id, broker_epoch=epoch, fenced=-1),
    ]


def static_config(cluster: ClusterView, node_id: int) -> dict[str, str]:
    """A node's server.properties, as few settings as a real Kafka node of this shape needs (node values:
    ids, ports, directories). A real node reports each as STATIC_BROKER_CONFIG; it also reports
    broker.id, which Kafka copies from node.id. `metadata.log.dir` names the first log dir, where
    the metadata log is (a real node finds it there too: set for the tools that read it)."""
    node = cluster.nodes.get(node_id)
    broker = node is None or node.is_broker
    settings = cluster.settings
    security = settings.security
    protocol = security.protocol_name
    listener = protocol if broker else CONTROLLER_LISTENER
    port = node.port if node is not None else 0
    address = f"{listener}://{settings.host}:{port}"
    log_dirs = ",".join(str(d.path) for d in cluster.log_dirs.get(node_id, ())) or str(
        settings.directory / str(node_id)
    )
    values = {
        "process.roles": "broker" if broker else "controller",
        "node.id": str(node_id),
        "broker.id": str(node_id),
        "controller.quorum.bootstrap.servers": cluster.bootstrap_controllers,
        "listeners": address,
        "advertised.listeners": address,
        "controller.listener.names": CONTROLLER_LISTENER,
        "listener.security.protocol.map": f"{CONTROLLER_LISTENER}:{protocol},{protocol}:{protocol}",
        "log.dirs": log_dirs,
        "metadata.log.dir": str(settings.directory / str(node_id)),
    }
    if broker:
        values["inter.broker.listener.name"] = protocol
        # The internal topics' replication as a cluster of fewer than 3 brokers must set it.
        replicas = min(settings.brokers, 3)
        if replicas < 3:
            for key in INTERNAL_TOPIC_FACTORS:
                values[key] = str(replicas)
        if replicas < 2:
            for key in INTERNAL_TOPIC_MIN_ISR:
                values[key] = str(replicas)
        rack = settings.rack_of(node_id)
        if rack is not None:
            values["broker.rack"] = rack
    if settings.authorizer:
        values["authorizer.class.name"] = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
        values["super.users"] = ";".join(settings.super_users)
    if security.sasl:
        values["sasl.enabled.mechanisms"] = "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"
        values["sasl.mechanism.controller.protocol"] = "PLAIN"
        if broker:
            values["sasl.mechanism.inter.broker.protocol"] = "PLAIN"
        values["sasl.jaas.config"] = "org.apache.kafka.common.security.plain.PlainLoginModule required;"
        # delegation tokens (KIP-48) need the key on every node; a sandbox's key, as its passwords, is fixed
        values["delegation.token.secret.key"] = f"kcli-sandbox-{cluster.cluster_id}"
    if security.tls and cluster.security is not None:
        values["ssl.keystore.location"] = str(cluster.security.cert_file(node_id))
        values["ssl.keystore.password"] = "sandbox"
        values["ssl.truststore.location"] = str(cluster.security.ca_file)
    return values
