"""The node tree kafka-metadata-shell (3.5+) shows, over a MetadataImage.

Layout (see kafka-tools.md section 7): /local/{version,commitId,...}, /image/provenance,
/image/features, /image/cluster/{brokers,controllers}/<id>, /image/topics/{byName,byId}/...,
/image/configs/<TYPE>[:<name>]/<key>, /image/clientQuotas/<entity>/<key>,
/image/producerIds/nextProducerId, /image/acls/byId/<uuid>, /image/scram/<MECHANISM>/<user>,
/image/delegationToken/<id>.

Behavior:
- Nodes are built lazily on first access, so `ls /image/topics/byName` on a huge image only
  renders names. A directory node lists `child_names()` sorted; a file node has `text()`.
- The pre-3.5 top-level paths operators have in runbooks (/topics, /topicIds, /brokers, /features,
  /configs, /acl, /producerIds, /client-quotas) resolve as hidden aliases of their 3.5+ places.
- SCRAM salts and keys are shown as [redacted]; everything else as Kafka's toString renders it.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from kcli.metadata.image_model import BrokerState, MetadataImage, PartitionState, TopicState
from kcli.metadata.uuids import kafka_uuid

# MetadataVersion feature levels (kafka-tools.md / metadata-log.md 6.1).
METADATA_VERSIONS: Mapping[int, str] = {
    1: "3.0-IV1", 2: "3.1-IV0", 3: "3.2-IV0", 4: "3.3-IV0", 5: "3.3-IV1", 6: "3.3-IV2", 7: "3.3-IV3",
    8: "3.4-IV0", 9: "3.5-IV0", 10: "3.5-IV1", 11: "3.5-IV2", 12: "3.6-IV0", 13: "3.6-IV1", 14: "3.6-IV2",
    15: "3.7-IV0", 16: "3.7-IV1", 17: "3.7-IV2", 18: "3.7-IV3", 19: "3.7-IV4", 20: "3.8-IV0", 21: "3.9-IV0",
    22: "4.0-IV0", 23: "4.0-IV1", 24: "4.0-IV2", 25: "4.0-IV3", 26: "4.1-IV0", 27: "4.1-IV1", 28: "4.2-IV0",
    29: "4.2-IV1", 30: "4.3-IV0", 31: "4.4-IV0", 32: "4.4-IV1", 33: "4.4-IV2",
}  # fmt: skip
CONFIG_TYPES: Mapping[int, str] = {
    0: "UNKNOWN", 2: "TOPIC", 4: "BROKER", 8: "BROKER_LOGGER", 16: "CLIENT_METRICS", 32: "GROUP",
}  # fmt: skip
SECURITY_PROTOCOLS: Mapping[int, str] = {0: "PLAINTEXT", 1: "SSL", 2: "SASL_PLAINTEXT", 3: "SASL_SSL"}
SCRAM_MECHANISMS: Mapping[int, str] = {0: "UNKNOWN", 1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}
LEADER_RECOVERY_STATES: Mapping[int, str] = {0: "RECOVERED", 1: "RECOVERING"}
RESOURCE_TYPES: Mapping[int, str] = {
    0: "UNKNOWN", 1: "ANY", 2: "TOPIC", 3: "GROUP", 4: "CLUSTER", 5: "TRANSACTIONAL_ID", 6: "DELEGATION_TOKEN",
    7: "USER",
}  # fmt: skip
PATTERN_TYPES: Mapping[int, str] = {0: "UNKNOWN", 1: "ANY", 2: "MATCH", 3: "LITERAL", 4: "PREFIXED"}
OPERATIONS: Mapping[int, str] = {
    0: "UNKNOWN", 1: "ANY", 2: "ALL", 3: "READ", 4: "WRITE", 5: "CREATE", 6: "DELETE", 7: "ALTER", 8: "DESCRIBE",
    9: "CLUSTER_ACTION", 10: "DESCRIBE_CONFIGS", 11: "ALTER_CONFIGS", 12: "IDEMPOTENT_WRITE", 13: "CREATE_TOKENS",
    14: "DESCRIBE_TOKENS",
}  # fmt: skip
PERMISSION_TYPES: Mapping[int, str] = {0: "UNKNOWN", 1: "ANY", 2: "DENY", 3: "ALLOW"}

ALIASES: Mapping[str, tuple[str, ...]] = {
    "topics": ("image", "topics", "byName"),
    "topicIds": ("image", "topics", "byId"),
    "brokers": ("image", "cluster", "brokers"),
    "controllers": ("image", "cluster", "controllers"),
    "features": ("image", "features"),
    "configs": ("image", "configs"),
    "acl": ("image", "acls", "byId"),
    "producerIds": ("image", "producerIds"),
    "client-quotas": ("image", "clientQuotas"),
}


class Node:
    """A node of the shell tree: a directory (children) or a file (text)."""

    __slots__ = ()

    def is_directory(self) -> bool:
        raise NotImplementedError

    def child_names(self) -> list[str]:
        return []

    def child(self, name: str) -> Node | None:
        return None

    def text(self) -> str:
        return ""


class Unavailable(LookupError):
    """A part of the tree this image cannot fill (a live read): says why."""


class UnavailableNode(Node):
    """Stands where the image has nothing to show: listing or reading it raises Unavailable."""

    __slots__ = ("_reason",)

    def __init__(self, reason: str) -> None:
        self._reason = reason

    def is_directory(self) -> bool:
        return True

    def child_names(self) -> list[str]:
        raise Unavailable(self._reason)

    def child(self, name: str) -> Node | None:
        raise Unavailable(self._reason)

    def text(self) -> str:
        raise Unavailable(self._reason)


class FileNode(Node):
    __slots__ = ("_render",)

    def __init__(self, render: str | Callable[[], str]) -> None:
        self._render = render

    def is_directory(self) -> bool:
        return False

    def text(self) -> str:
        render = self._render
        return render if isinstance(render, str) else render()


class DirectoryNode(Node):
    """A directory whose children are made on first access."""

    __slots__ = ("_children", "_hidden", "_make")

    def __init__(
        self,
        make: Callable[[], Mapping[str, Node]],
        hidden: Callable[[str], Node | None] | None = None,
    ) -> None:
        self._make = make
        self._children: Mapping[str, Node] | None = None
        self._hidden = hidden

    def is_directory(self) -> bool:
        return True

    def _all(self) -> Mapping[str, Node]:
        if self._children is None:
            self._children = self._make()
        return self._children

    def child_names(self) -> list[str]:
        return sorted(self._all())

    def child(self, name: str) -> Node | None:
        found = self._all().get(name)
        if found is None and self._hidden is not None:
            return self._hidden(name)
        return found


def java_bool(value: bool) -> str:
    return "true" if value else "false"


def java_double(value: float) -> str:
    """Double.toString for the common cases (integral values below 1e7 print as "N.0")."""
    if value == int(value) and abs(value) < 1e7:
        return f"{int(value)}.0"
    return repr(float(value))


def iso_time(ms: int) -> str:
    """DateTimeFormatter.ISO_ZONED_DATE_TIME of the instant in zone UTC, as ProvenanceNode prints it:
    the fraction without trailing zeros (none when zero), then `Z[UTC]`."""
    if ms < 0:
        return "unknown"
    moment = datetime.datetime.fromtimestamp(ms // 1000, datetime.UTC)
    fraction = f".{ms % 1000:03d}".rstrip("0").rstrip(".")
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z[UTC]"


def metadata_version_name(level: int) -> str:
    return METADATA_VERSIONS.get(level, f"unknown level {level}")


# -- text of leaves ----------------------------------------------------------------------------------


def _ids(values: Any) -> str:
    return "[" + ", ".join(str(v) for v in values or ()) + "]"


def _features(features: Any) -> str:
    """A registration's supported features: a map by name (the last of a name given twice), by name."""
    ranges = {f.name: f"{f.min_supported_version}-{f.max_supported_version}" for f in features}
    return "{" + ", ".join(f"{name}: {ranges[name]}" for name in sorted(ranges)) + "}"


def _listeners(endpoints: Any) -> str:
    from kcli.metadata.delta import endpoints_by_name

    parts = [
        f"Endpoint(listenerName='{e.name}', securityProtocol={SECURITY_PROTOCOLS.get(e.security_protocol, e.security_protocol)}, "
        f"host='{e.host}', port={e.port})"
        for e in endpoints_by_name(endpoints)
    ]
    return "[" + ", ".join(parts) + "]"


def broker_text(broker: BrokerState) -> str:
    record = broker.record
    rack = f"Optional[{record.rack}]" if record.rack is not None else "Optional.empty"
    return (
        f"BrokerRegistration(id={record.broker_id}, epoch={record.broker_epoch}, "
        f"incarnationId={kafka_uuid(record.incarnation_id)}, listeners={_listeners(record.end_points)}, "
        f"supportedFeatures={_features(record.features)}, rack={rack}, fenced={java_bool(broker.fenced)}, "
        f"inControlledShutdown={java_bool(broker.in_controlled_shutdown)}, "
        f"isMigratingZkBroker={java_bool(getattr(record, 'is_migrating_zk_broker', False))}, "
        f"directories=[{', '.join(kafka_uuid(d) for d in broker.log_dirs)}])"
    )


def controller_text(record: Any) -> str:
    return (
        f"ControllerRegistration(id={record.controller_id}, incarnationId={kafka_uuid(record.incarnation_id)}, "
        f"zkMigrationReady={java_bool(record.zk_migration_ready)}, listeners={_listeners(record.end_points)}, "
        f"supportedFeatures={_features(record.features)})"
    )


def partition_text(values: tuple[Any, ...]) -> str:
    """PartitionRegistration.toString of a partition's values (see PartitionState)."""
    partition = PartitionState.of(values)
    return (
        f"PartitionRegistration(replicas={_ids(partition.replicas)}, "
        f"directories=[{', '.join(kafka_uuid(d) for d in partition.directories)}], isr={_ids(partition.isr)}, "
        f"removingReplicas={_ids(partition.removing_replicas)}, addingReplicas={_ids(partition.adding_replicas)}, "
        f"elr={_ids(partition.elr)}, lastKnownElr={_ids(partition.last_known_elr)}, leader={partition.leader}, "
        f"leaderRecoveryState={LEADER_RECOVERY_STATES.get(partition.leader_recovery_state, partition.leader_recovery_state)}, "
        f"leaderEpoch={partition.leader_epoch}, partitionEpoch={partition.partition_epoch})"
    )


def acl_text(record: Any) -> str:
    return (
        f"StandardAcl(resourceType={RESOURCE_TYPES.get(record.resource_type, record.resource_type)}, "
        f"resourceName={record.resource_name}, "
        f"patternType={PATTERN_TYPES.get(record.pattern_type, record.pattern_type)}, principal={record.principal}, "
        f"host={record.host}, operation={OPERATIONS.get(record.operation, record.operation)}, "
        f"permissionType={PERMISSION_TYPES.get(record.permission_type, record.permission_type)})"
    )


def scram_text(record: Any) -> str:
    return (
        "ScramCredentialData(salt=[redacted], storedKey=[redacted], serverKey=[redacted], "
        f"iterations={record.iterations})"
    )


def token_text(record: Any) -> str:
    """Word for word DelegationTokenDataNode.print (its parentheses unbalanced, as Kafka 4.0-4.4 print it)."""
    return (
        f"DelegationTokenDatatokenId={record.token_id}(owner={record.owner}(tokenRequester={record.requester}"
        f"(renewers={' '.join(record.renewers)}, issueTimestamp={record.issue_timestamp}, "
        f"maxTimestamp={record.max_timestamp}), expiryTimestamp={record.expiration_timestamp}"
    )


def quota_entity_name(entity: tuple[tuple[str, str | None], ...]) -> str:
    """clientId(x)_ip(y)_user(z), only the parts present; '\\', '(' and ')' escaped."""
    labels = {"client-id": "clientId", "ip": "ip", "user": "user"}
    parts = dict(entity)
    out = []
    for key in ("client-id", "ip", "user"):
        if key in parts:
            name = parts[key]
            shown = "" if name is None else name.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            out.append(f"{labels[key]}({shown})")
    extra = [f"{k}({v or ''})" for k, v in entity if k not in labels]
    return "_".join(out + extra)


# -- the tree ----------------------------------------------------------------------------------------


def build_tree(image: MetadataImage, *, local: Mapping[str, str] | None = None) -> DirectoryNode:
    """The root node `/` over an image; `local` adds leaves under /local."""

    def root_children() -> dict[str, Node]:
        return {
            "local": DirectoryNode(lambda: _local(image, local or {})),
            "image": DirectoryNode(lambda: _image(image)),
        }

    root = DirectoryNode(root_children)

    def alias(name: str) -> Node | None:
        target = ALIASES.get(name)
        node: Node | None = root
        for part in target or ():
            node = node.child(part) if node is not None else None
        return node if target else None

    root._hidden = alias
    return root


def _local(image: MetadataImage, extra: Mapping[str, str]) -> dict[str, Node]:
    from kcli import __version__

    stats = image.stats
    directory = image.directory
    leaves: dict[str, str] = {
        "version": f"kcli {__version__}",
        "commitId": "unknown",
        "files": "\n".join(stats.files),
        "lastOffset": str(image.provenance.offset),
        "epoch": str(image.provenance.epoch),
        "records": str(stats.records),
        "batches": str(stats.batches),
        "unknownRecords": str(stats.unknown),
        "skippedRecords": str(stats.skipped_records),
        "skippedBatches": str(stats.skipped_batches),
        "problems": "\n".join(stats.problems),
    }
    if directory is not None:
        meta = directory.meta_properties
        for key, leaf in (
            ("cluster.id", "clusterId"),
            ("node.id", "nodeId"),
            ("directory.id", "directoryId"),
        ):
            if key in meta:
                leaves[leaf] = meta[key]
        if directory.snapshot is not None:
            leaves["snapshot"] = str(directory.snapshot.path)
        if directory.quorum_state is not None:
            leaves["quorumState"] = ", ".join(f"{k}={v}" for k, v in directory.quorum_state.items())
    quorum = image.quorum
    if quorum.leader_id is not None:
        leaves["raftLeader"] = (
            f"leader {quorum.leader_id}, epoch {quorum.leader_epoch}, voters {_ids(quorum.voters)}"
        )
    if image.open_transaction is not None:
        leaves["openTransaction"] = (
            f"{image.open_transaction} ({image.unapplied_records} records not applied)"
        )
    if image.partial:
        leaves["partial"] = image.partial
    leaves.update(extra)
    return {name: FileNode(text) for name, text in leaves.items()}


def _image(image: MetadataImage) -> dict[str, Node]:
    children = _image_children(image)
    for path, reason in image.unavailable.items():
        if len(path) == 1:
            children[path[0]] = UnavailableNode(reason)
        else:  # one level deeper (/image/cluster/brokers): wrap the parent's children
            parent = children[path[0]]
            if isinstance(parent, DirectoryNode):
                children[path[0]] = DirectoryNode(partial(_with_unavailable, parent, path[1], reason))
    return children


def _with_unavailable(parent: DirectoryNode, name: str, reason: str) -> dict[str, Node]:
    children = {child: node for child in parent.child_names() if (node := parent.child(child)) is not None}
    return {**children, name: UnavailableNode(reason)}


def _image_children(image: MetadataImage) -> dict[str, Node]:
    provenance = image.provenance
    return {
        "provenance": FileNode(
            f"offset {provenance.offset}, epoch {provenance.epoch}, time {iso_time(provenance.timestamp)}"
        ),
        "features": DirectoryNode(lambda: _features_node(image)),
        "cluster": DirectoryNode(
            lambda: {
                "brokers": DirectoryNode(
                    lambda: {str(i): FileNode(partial(broker_text, b)) for i, b in image.brokers.items()}
                ),
                "controllers": DirectoryNode(
                    lambda: {
                        str(i): FileNode(partial(controller_text, c)) for i, c in image.controllers.items()
                    }
                ),
            }
        ),
        "topics": DirectoryNode(
            lambda: {
                "byName": DirectoryNode(
                    lambda: {
                        t.name: _topic_node(t)
                        for t in image.topics.values()
                        if image.topic_names.get(t.name) == t.topic_id
                    }
                ),
                "byId": DirectoryNode(
                    lambda: {kafka_uuid(i): _topic_node(t) for i, t in image.topics.items()}
                ),
            }
        ),
        "configs": DirectoryNode(lambda: _configs_node(image)),
        "clientQuotas": DirectoryNode(
            lambda: {
                quota_entity_name(entity): DirectoryNode(partial(_quota_leaves, quotas))
                for entity, quotas in image.client_quotas.items()
            }
        ),
        # Kafka's ProducerIdsImageNode always lists nextProducerId: -1 before any id was issued
        "producerIds": DirectoryNode(
            lambda: {
                "nextProducerId": FileNode(
                    str(-1 if image.next_producer_id is None else image.next_producer_id)
                )
            }
        ),
        "acls": DirectoryNode(
            lambda: {
                "byId": DirectoryNode(
                    lambda: {kafka_uuid(i): FileNode(partial(acl_text, a)) for i, a in image.acls.items()}
                )
            }
        ),
        "scram": DirectoryNode(lambda: _scram_node(image)),
        "delegationToken": DirectoryNode(
            lambda: {t: FileNode(partial(token_text, r)) for t, r in image.delegation_tokens.items()}
        ),
    }


def _features_node(image: MetadataImage) -> dict[str, Node]:
    # Kafka's FeaturesImageNode: metadataVersion always, as Java prints an Optional<MetadataVersion>
    level = image.features.get("metadata.version")
    version = "Optional.empty" if level is None else f"Optional[{metadata_version_name(level)}]"
    out: dict[str, Node] = {"metadataVersion": FileNode(version)}
    for name, level in image.features.items():
        if name != "metadata.version":
            out[f"finalized_{name}"] = FileNode(str(level))
    return out


def _topic_node(topic: TopicState) -> DirectoryNode:
    def children() -> dict[str, Node]:
        out: dict[str, Node] = {"name": FileNode(topic.name), "id": FileNode(kafka_uuid(topic.topic_id))}
        for partition_id, partition in topic.partitions.items():
            out[str(partition_id)] = FileNode(partial(partition_text, partition))
        return out

    return DirectoryNode(children)


def _configs_node(image: MetadataImage) -> dict[str, Node]:
    out: dict[str, Node] = {}
    for (resource_type, name), keys in image.configs.items():
        type_name = CONFIG_TYPES.get(resource_type, str(resource_type))
        label = f"{type_name}:{name}" if name else type_name
        out[label] = DirectoryNode(partial(_text_leaves, keys))
    return out


def _scram_node(image: MetadataImage) -> dict[str, Node]:
    by_mechanism: dict[str, dict[str, Any]] = {}
    for (mechanism, user), record in image.scram.items():
        by_mechanism.setdefault(SCRAM_MECHANISMS.get(mechanism, str(mechanism)), {})[user] = record
    # Kafka's ScramImageNode lists every known mechanism, with users or not
    for known in sorted(name for key, name in SCRAM_MECHANISMS.items() if key):
        by_mechanism.setdefault(known, {})
    return {
        mechanism: DirectoryNode(partial(_scram_leaves, users))
        for mechanism, users in sorted(by_mechanism.items())
    }


def _quota_leaves(quotas: Mapping[str, float]) -> dict[str, Node]:
    return {key: FileNode(java_double(value)) for key, value in quotas.items()}


def _text_leaves(values: Mapping[str, str]) -> dict[str, Node]:
    return {key: FileNode(value) for key, value in values.items()}


def _scram_leaves(users: Mapping[str, Any]) -> dict[str, Node]:
    return {name: FileNode(partial(scram_text, record)) for name, record in users.items()}
