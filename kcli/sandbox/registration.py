"""What a sandbox node registers and is configured with: bootstrap records, Register*Record and
the static (server.properties) values each node reports as STATIC_BROKER_CONFIG."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.kafka import ScramMechanism
from kcli.metadata import records as _records
from kcli.sandbox.features import CONTROL_FEATURES, supported_features

if TYPE_CHECKING:
    from kcli.sandbox.cluster import Cluster, Node

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records


def bootstrap_records(cluster: Cluster) -> list[Any]:
    from kcli.sandbox.security import scram_credential

    records: list[Any] = [
        R.FeatureLevelRecord(name=name, feature_level=level)
        for name, level in cluster.bootstrap_levels.items()
        if name not in CONTROL_FEATURES and level > 0
    ]
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


def register_controller(cluster: Cluster, node: Node) -> Any:
    endpoint = R.ControllerEndpoint(
        name="CONTROLLER",
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


def register_broker(cluster: Cluster, node: Node) -> list[Any]:
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


def static_config(cluster: Cluster, node_id: int) -> dict[str, str]:
    node = cluster.nodes.get(node_id)
    roles = "broker" if node is None or node.is_broker else "controller"
    security = cluster.settings.security
    listener = "CONTROLLER" if roles == "controller" else security.protocol_name
    port = node.port if node is not None else 0
    values = {
        "node.id": str(node_id),
        "broker.id": str(node_id),
        "process.roles": roles,
        "listeners": f"{listener}://{cluster.settings.host}:{port}",
        "advertised.listeners": f"{listener}://{cluster.settings.host}:{port}",
        "controller.listener.names": "CONTROLLER",
        "controller.quorum.bootstrap.servers": cluster.bootstrap_controllers,
        "log.dirs": ",".join(str(d.path) for d in cluster.log_dirs.get(node_id, ()))
        or str(cluster.settings.directory / str(node_id)),
        "metadata.log.dir": str(cluster.settings.directory / str(node_id)),
        "super.users": ";".join(cluster.settings.super_users),
    }
    rack = cluster.settings.rack_of(node_id) if roles == "broker" else None
    if rack is not None:
        values["broker.rack"] = rack
    if cluster.settings.authorizer:
        values["authorizer.class.name"] = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
    if security.sasl:
        values["sasl.enabled.mechanisms"] = "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"
        values["sasl.jaas.config"] = "org.apache.kafka.common.security.plain.PlainLoginModule required;"
    if security.tls and cluster.security is not None:
        values["ssl.keystore.location"] = str(cluster.security.cert_file(node_id))
        values["ssl.keystore.password"] = "sandbox"
        values["ssl.truststore.location"] = str(cluster.security.ca_file)
    return values
