"""server.properties of each real node: listeners, quorum, security, authorizer, racks, log dirs.

The choices mirror the emulator's so that the same client settings reach both engines:
- two listeners, one named after the sandbox's protocol (clients and replication, e.g. PLAINTEXT or
  SASL_SSL) and CONTROLLER, both with that protocol; no setting a node of this shape does not need
  (the internal topics' replication only below 3 brokers), as the emulator's nodes report theirs;
- SASL: PLAIN for every user of the sandbox and SCRAM-SHA-256/512 on the broker listener (credentials
  written at format with --add-scram). Nodes talk to each other as User:broker over PLAIN, because a
  controller cannot check SCRAM credentials before it has read them from the metadata log it is
  still forming (Kafka's docs say SCRAM is not for the controller listener);
- TLS: PEM stores made by the sandbox (kcli.sandbox.emulator.security), client certificates requested, not required;
  the nodes' own certificates (CN=node-N) map to the principal User:broker;
- the authorizer is Kafka's StandardAuthorizer, with the emulator's super users.
"""

from __future__ import annotations

from pathlib import Path

from kcli.sandbox.clientconfig import PLAIN_MODULE, SCRAM_MODULE
from kcli.sandbox.kafka.layout import ClusterLayout, NodeSpec
from kcli.sandbox.nodes import extra_log_dir_paths, node_dir
from kcli.sandbox.settings import (
    BROKER_USER,
    INTERNAL_TOPIC_FACTORS,
    INTERNAL_TOPIC_MIN_ISR,
    SandboxSettings,
    Security,
)

CONTROLLER_LISTENER = "CONTROLLER"
AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
BROKER_MECHANISMS = "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"
NODE_PRINCIPAL_RULES = "RULE:^CN=node-[0-9]+$/broker/,DEFAULT"


def log_dirs(directory: Path, spec: NodeSpec, count: int) -> list[Path]:
    """The node's log.dirs: DIR/<id>, then DIR/logdirs/<id>-N for a broker's extra dirs (as the emulator)."""
    first = node_dir(directory, spec.node_id)
    if not spec.is_broker:
        return [first]
    return [first, *extra_log_dir_paths(directory, spec.node_id, count)]


def _jaas_plain(users: dict[str, str]) -> str:
    accounts = " ".join(f'user_{name}="{password}"' for name, password in sorted(users.items()))
    name, password = BROKER_USER
    return f'{PLAIN_MODULE} required username="{name}" password="{password}" {accounts};'


def super_users(settings: SandboxSettings) -> str:
    names = ["User:admin", f"User:{BROKER_USER[0]}", "User:CN=admin", "User:CN=broker"]
    if settings.security is Security.PLAINTEXT:
        names.append("User:ANONYMOUS")  # the nodes' own connections carry no identity
    return ";".join(names)


def server_properties(
    settings: SandboxSettings, layout: ClusterLayout, spec: NodeSpec, *, tls_dir: Path | None
) -> dict[str, str]:
    """The server.properties of node `spec` (insertion order is the file's order)."""
    directory = settings.directory
    protocol = settings.security.protocol_name
    broker_listener = protocol  # named after its protocol, as the emulator's and Kafka's sample configs
    host = layout.host
    listeners: list[str] = []
    # both listeners' protocols on every node, the controller's first, as the emulator's nodes report it
    protocols = [f"{CONTROLLER_LISTENER}:{protocol}", f"{broker_listener}:{protocol}"]
    if spec.is_broker:
        listeners.append(f"{broker_listener}://{host}:{spec.broker_port}")
    if spec.is_controller:
        listeners.append(f"{CONTROLLER_LISTENER}://{host}:{spec.controller_port}")
    props: dict[str, str] = {
        "process.roles": ",".join(spec.roles),
        "node.id": str(spec.node_id),
        "listeners": ",".join(listeners),
        "advertised.listeners": ",".join(listeners),
        "listener.security.protocol.map": ",".join(protocols),
        "controller.listener.names": CONTROLLER_LISTENER,
        "log.dirs": ",".join(str(p) for p in log_dirs(directory, spec, settings.log_dirs)),
        "metadata.log.dir": str(node_dir(directory, spec.node_id)),
    }
    if spec.is_broker:
        props["inter.broker.listener.name"] = broker_listener
    if layout.dynamic_quorum:
        props["controller.quorum.bootstrap.servers"] = ",".join(
            f"{host}:{c.controller_port}" for c in layout.controllers() if c.initial_voter
        )
    else:
        props["controller.quorum.voters"] = layout.voters_text()
    rack = settings.rack_of(spec.node_id) if spec.is_broker else None
    if rack:
        props["broker.rack"] = rack
    replicas = min(3, len(layout.brokers()))
    if spec.is_broker and replicas < 3:  # a cluster of fewer than 3 brokers must set them
        props.update({key: str(replicas) for key in INTERNAL_TOPIC_FACTORS})
        if replicas < 2:
            props.update({key: str(replicas) for key in INTERNAL_TOPIC_MIN_ISR})
    if settings.authorizer:
        props["authorizer.class.name"] = AUTHORIZER
        props["super.users"] = super_users(settings)
    if settings.security.sasl:
        plain = _jaas_plain({**settings.users, BROKER_USER[0]: BROKER_USER[1]})
        props["sasl.mechanism.controller.protocol"] = "PLAIN"
        props[f"listener.name.{CONTROLLER_LISTENER.lower()}.sasl.enabled.mechanisms"] = "PLAIN"
        props[f"listener.name.{CONTROLLER_LISTENER.lower()}.plain.sasl.jaas.config"] = plain
        if spec.is_broker:
            prefix = f"listener.name.{broker_listener.lower()}"
            props["sasl.mechanism.inter.broker.protocol"] = "PLAIN"
            props[f"{prefix}.sasl.enabled.mechanisms"] = BROKER_MECHANISMS
            props[f"{prefix}.plain.sasl.jaas.config"] = plain
            for mechanism in ("scram-sha-256", "scram-sha-512"):
                props[f"{prefix}.{mechanism}.sasl.jaas.config"] = f"{SCRAM_MODULE} required;"
    if settings.security.tls:
        assert tls_dir is not None
        props.update(
            {
                "ssl.keystore.type": "PEM",
                "ssl.keystore.location": str(tls_dir / f"node-{spec.node_id}-keystore.pem"),
                "ssl.truststore.type": "PEM",
                "ssl.truststore.location": str(tls_dir / "ca.pem"),
                "ssl.client.auth": "requested",
                "ssl.principal.mapping.rules": NODE_PRINCIPAL_RULES,
            }
        )
    return props


def render(props: dict[str, str], spec: NodeSpec) -> str:
    lines = [
        f"# kcli sandbox: Kafka node {spec.node_id} ({spec.role}), written at every start of the node;",
        f"# settings of its own go in {OVERRIDES_FILE} beside it (they win over these).",
        "",
    ]
    lines += [f"{key}={_escaped(value)}" for key, value in props.items()]
    return "\n".join(lines) + "\n"


def _escaped(value: str) -> str:
    """A .properties value: backslashes doubled (Windows-free paths have none; JAAS quotes stay as they are)."""
    return value.replace("\\", "\\\\")


OVERRIDES_FILE = "overrides.properties"


def node_overrides(directory: Path, node_id: int) -> dict[str, str]:
    """DIR/<id>/overrides.properties: an operator's own settings for one node, kept across restarts."""
    from kcli.properties import read_properties_file

    path = node_dir(directory, node_id) / OVERRIDES_FILE
    return read_properties_file(path) if path.exists() else {}


def write_server_properties(
    settings: SandboxSettings, layout: ClusterLayout, spec: NodeSpec, *, tls_dir: Path | None
) -> Path:
    """The node's server.properties: the sandbox's settings, then `up --server-config`, then the node's
    own overrides.properties (later settings win, as the same key further down a .properties file)."""
    path = node_dir(settings.directory, spec.node_id) / "server.properties"
    path.parent.mkdir(parents=True, exist_ok=True)
    props = server_properties(settings, layout, spec, tls_dir=tls_dir)
    props.update(dict(settings.server_config))
    props.update(node_overrides(settings.directory, spec.node_id))
    path.write_text(render(props, spec), encoding="utf-8")
    path.chmod(0o600)  # holds the users' passwords
    return path
