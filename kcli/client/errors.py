"""Kafka error codes and the exceptions the client layer raises.

Every Kafka error code from -1 to 136 is listed with its name, whether Kafka's clients retry it, the
message Kafka attaches to it and, where one helps, what the operator can do next. The table is data
(taken from Kafka's Errors.java through kio's ErrorCode; 134-136 are Kafka 4.4 additions), so this
module imports only the standard library and stays off the start-up path's cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcli.errors import KcliError, UsageError


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorInfo:
    """What kcli knows about one Kafka error code."""

    code: int
    name: str
    retriable: bool
    message: str
    hint: str | None = None


# (code, NAME, retriable, message): Kafka's Errors.java, in code order.
_CODES: tuple[tuple[int, str, bool, str], ...] = (
    (
        -1,
        "UNKNOWN_SERVER_ERROR",
        False,
        "The server experienced an unexpected error when processing the request.",
    ),
    (0, "NONE", False, "No error."),
    (
        1,
        "OFFSET_OUT_OF_RANGE",
        False,
        "The requested offset is not within the range of offsets maintained by the server.",
    ),
    (
        2,
        "CORRUPT_MESSAGE",
        True,
        "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.",
    ),
    (3, "UNKNOWN_TOPIC_OR_PARTITION", True, "This server does not host this topic-partition."),
    (4, "INVALID_FETCH_SIZE", False, "The requested fetch size is invalid."),
    (
        5,
        "LEADER_NOT_AVAILABLE",
        True,
        "There is no leader for this topic-partition as we are in the middle of a leadership election.",
    ),
    (
        6,
        "NOT_LEADER_OR_FOLLOWER",
        True,
        "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.",
    ),
    (7, "REQUEST_TIMED_OUT", True, "The request timed out."),
    (8, "BROKER_NOT_AVAILABLE", False, "The broker is not available."),
    (
        9,
        "REPLICA_NOT_AVAILABLE",
        True,
        "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.",
    ),
    (
        10,
        "MESSAGE_TOO_LARGE",
        False,
        "The request included a message larger than the max message size the server will accept.",
    ),
    (11, "STALE_CONTROLLER_EPOCH", False, "The controller moved to another broker."),
    (12, "OFFSET_METADATA_TOO_LARGE", False, "The metadata field of the offset request was too large."),
    (13, "NETWORK_EXCEPTION", True, "The server disconnected before a response was received."),
    (
        14,
        "COORDINATOR_LOAD_IN_PROGRESS",
        True,
        "The coordinator is loading and hence can't process requests.",
    ),
    (15, "COORDINATOR_NOT_AVAILABLE", True, "The coordinator is not available."),
    (16, "NOT_COORDINATOR", True, "This is not the correct coordinator."),
    (
        17,
        "INVALID_TOPIC_EXCEPTION",
        False,
        "The request attempted to perform an operation on an invalid topic.",
    ),
    (
        18,
        "RECORD_LIST_TOO_LARGE",
        False,
        "The request included message batch larger than the configured segment size on the server.",
    ),
    (
        19,
        "NOT_ENOUGH_REPLICAS",
        True,
        "Messages are rejected since there are fewer in-sync replicas than required.",
    ),
    (
        20,
        "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
        True,
        "Messages are written to the log, but to fewer in-sync replicas than required.",
    ),
    (21, "INVALID_REQUIRED_ACKS", False, "Produce request specified an invalid value for required acks."),
    (22, "ILLEGAL_GENERATION", False, "Specified group generation id is not valid."),
    (
        23,
        "INCONSISTENT_GROUP_PROTOCOL",
        False,
        "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.",
    ),
    (24, "INVALID_GROUP_ID", False, "The group id is invalid."),
    (25, "UNKNOWN_MEMBER_ID", False, "The coordinator is not aware of this member."),
    (
        26,
        "INVALID_SESSION_TIMEOUT",
        False,
        "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).",
    ),
    (27, "REBALANCE_IN_PROGRESS", False, "The group is rebalancing, so a rejoin is needed."),
    (28, "INVALID_COMMIT_OFFSET_SIZE", False, "The committing offset data size is not valid."),
    (29, "TOPIC_AUTHORIZATION_FAILED", False, "Topic authorization failed."),
    (30, "GROUP_AUTHORIZATION_FAILED", False, "Group authorization failed."),
    (31, "CLUSTER_AUTHORIZATION_FAILED", False, "Cluster authorization failed."),
    (32, "INVALID_TIMESTAMP", False, "The timestamp of the message is out of acceptable range."),
    (33, "UNSUPPORTED_SASL_MECHANISM", False, "The broker does not support the requested SASL mechanism."),
    (34, "ILLEGAL_SASL_STATE", False, "Request is not valid given the current SASL state."),
    (35, "UNSUPPORTED_VERSION", False, "The version of API is not supported."),
    (36, "TOPIC_ALREADY_EXISTS", False, "Topic with this name already exists."),
    (37, "INVALID_PARTITIONS", False, "Number of partitions is below 1."),
    (
        38,
        "INVALID_REPLICATION_FACTOR",
        False,
        "Replication factor is below 1 or larger than the number of available brokers.",
    ),
    (39, "INVALID_REPLICA_ASSIGNMENT", False, "Replica assignment is invalid."),
    (40, "INVALID_CONFIG", False, "Configuration is invalid."),
    (41, "NOT_CONTROLLER", True, "This is not the correct controller for this cluster."),
    (
        42,
        "INVALID_REQUEST",
        False,
        "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.",
    ),
    (
        43,
        "UNSUPPORTED_FOR_MESSAGE_FORMAT",
        False,
        "The message format version on the broker does not support the request.",
    ),
    (44, "POLICY_VIOLATION", False, "Request parameters do not satisfy the configured policy."),
    (45, "OUT_OF_ORDER_SEQUENCE_NUMBER", False, "The broker received an out of order sequence number."),
    (46, "DUPLICATE_SEQUENCE_NUMBER", False, "The broker received a duplicate sequence number."),
    (47, "INVALID_PRODUCER_EPOCH", False, "Producer attempted to produce with an old epoch."),
    (48, "INVALID_TXN_STATE", False, "The producer attempted a transactional operation in an invalid state."),
    (
        49,
        "INVALID_PRODUCER_ID_MAPPING",
        False,
        "The producer attempted to use a producer id which is not currently assigned to its transactional id.",
    ),
    (
        50,
        "INVALID_TRANSACTION_TIMEOUT",
        False,
        "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).",
    ),
    (
        51,
        "CONCURRENT_TRANSACTIONS",
        True,
        "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.",
    ),
    (
        52,
        "TRANSACTION_COORDINATOR_FENCED",
        False,
        "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.",
    ),
    (53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", False, "Transactional Id authorization failed."),
    (54, "SECURITY_DISABLED", False, "Security features are disabled."),
    (
        55,
        "OPERATION_NOT_ATTEMPTED",
        False,
        "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.",
    ),
    (56, "KAFKA_STORAGE_ERROR", True, "Disk error when trying to access log file on the disk."),
    (57, "LOG_DIR_NOT_FOUND", False, "The user-specified log directory is not found in the broker config."),
    (58, "SASL_AUTHENTICATION_FAILED", False, "SASL Authentication failed."),
    (
        59,
        "UNKNOWN_PRODUCER_ID",
        False,
        "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.",
    ),
    (60, "REASSIGNMENT_IN_PROGRESS", False, "A partition reassignment is in progress."),
    (61, "DELEGATION_TOKEN_AUTH_DISABLED", False, "Delegation Token feature is not enabled."),
    (62, "DELEGATION_TOKEN_NOT_FOUND", False, "Delegation Token is not found on server."),
    (63, "DELEGATION_TOKEN_OWNER_MISMATCH", False, "Specified Principal is not valid Owner/Renewer."),
    (
        64,
        "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
        False,
        "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.",
    ),
    (65, "DELEGATION_TOKEN_AUTHORIZATION_FAILED", False, "Delegation Token authorization failed."),
    (66, "DELEGATION_TOKEN_EXPIRED", False, "Delegation Token is expired."),
    (67, "INVALID_PRINCIPAL_TYPE", False, "Supplied principalType is not supported."),
    (68, "NON_EMPTY_GROUP", False, "The group is not empty."),
    (69, "GROUP_ID_NOT_FOUND", False, "The group id does not exist."),
    (70, "FETCH_SESSION_ID_NOT_FOUND", True, "The fetch session ID was not found."),
    (71, "INVALID_FETCH_SESSION_EPOCH", True, "The fetch session epoch is invalid."),
    (
        72,
        "LISTENER_NOT_FOUND",
        True,
        "There is no listener on the leader broker that matches the listener on which metadata request was processed.",
    ),
    (73, "TOPIC_DELETION_DISABLED", False, "Topic deletion is disabled."),
    (
        74,
        "FENCED_LEADER_EPOCH",
        True,
        "The leader epoch in the request is older than the epoch on the broker.",
    ),
    (
        75,
        "UNKNOWN_LEADER_EPOCH",
        True,
        "The leader epoch in the request is newer than the epoch on the broker.",
    ),
    (
        76,
        "UNSUPPORTED_COMPRESSION_TYPE",
        False,
        "The requesting client does not support the compression type of given partition.",
    ),
    (77, "STALE_BROKER_EPOCH", False, "Broker epoch has changed."),
    (
        78,
        "OFFSET_NOT_AVAILABLE",
        True,
        "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.",
    ),
    (
        79,
        "MEMBER_ID_REQUIRED",
        False,
        "The group member needs to have a valid member id before actually entering a consumer group.",
    ),
    (80, "PREFERRED_LEADER_NOT_AVAILABLE", True, "The preferred leader was not available."),
    (81, "GROUP_MAX_SIZE_REACHED", False, "The group has reached its maximum size."),
    (
        82,
        "FENCED_INSTANCE_ID",
        False,
        "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.",
    ),
    (83, "ELIGIBLE_LEADERS_NOT_AVAILABLE", True, "Eligible topic partition leaders are not available."),
    (84, "ELECTION_NOT_NEEDED", True, "Leader election not needed for topic partition."),
    (85, "NO_REASSIGNMENT_IN_PROGRESS", False, "No partition reassignment is in progress."),
    (
        86,
        "GROUP_SUBSCRIBED_TO_TOPIC",
        False,
        "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.",
    ),
    (
        87,
        "INVALID_RECORD",
        False,
        "This record has failed the validation on broker and hence will be rejected.",
    ),
    (88, "UNSTABLE_OFFSET_COMMIT", True, "There are unstable offsets that need to be cleared."),
    (89, "THROTTLING_QUOTA_EXCEEDED", True, "The throttling quota has been exceeded."),
    (
        90,
        "PRODUCER_FENCED",
        False,
        "There is a newer producer with the same transactionalId which fences the current one.",
    ),
    (91, "RESOURCE_NOT_FOUND", False, "A request illegally referred to a resource that does not exist."),
    (92, "DUPLICATE_RESOURCE", False, "A request illegally referred to the same resource twice."),
    (93, "UNACCEPTABLE_CREDENTIAL", False, "Requested credential would not meet criteria for acceptability."),
    (
        94,
        "INCONSISTENT_VOTER_SET",
        False,
        "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters.",
    ),
    (95, "INVALID_UPDATE_VERSION", False, "The given update version was invalid."),
    (
        96,
        "FEATURE_UPDATE_FAILED",
        False,
        "Unable to update finalized features due to an unexpected server error.",
    ),
    (
        97,
        "PRINCIPAL_DESERIALIZATION_FAILURE",
        False,
        "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.",
    ),
    (98, "SNAPSHOT_NOT_FOUND", False, "Requested snapshot was not found."),
    (
        99,
        "POSITION_OUT_OF_RANGE",
        False,
        "Requested position is not greater than or equal to zero, and less than the size of the snapshot.",
    ),
    (100, "UNKNOWN_TOPIC_ID", True, "This server does not host this topic ID."),
    (101, "DUPLICATE_BROKER_REGISTRATION", False, "This broker ID is already in use."),
    (102, "BROKER_ID_NOT_REGISTERED", False, "The given broker ID was not registered."),
    (103, "INCONSISTENT_TOPIC_ID", True, "The log's topic ID did not match the topic ID in the request."),
    (
        104,
        "INCONSISTENT_CLUSTER_ID",
        False,
        "The clusterId in the request does not match that found on the server.",
    ),
    (105, "TRANSACTIONAL_ID_NOT_FOUND", False, "The transactionalId could not be found."),
    (106, "FETCH_SESSION_TOPIC_ID_ERROR", True, "The fetch session encountered inconsistent topic ID usage."),
    (107, "INELIGIBLE_REPLICA", False, "The new ISR contains at least one ineligible replica."),
    (
        108,
        "NEW_LEADER_ELECTED",
        False,
        "The AlterPartition request successfully updated the partition state but the leader has changed.",
    ),
    (109, "OFFSET_MOVED_TO_TIERED_STORAGE", False, "The requested offset is moved to tiered storage."),
    (
        110,
        "FENCED_MEMBER_EPOCH",
        False,
        "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.",
    ),
    (
        111,
        "UNRELEASED_INSTANCE_ID",
        False,
        "The instance ID is still used by another member in the consumer group. That member must leave first.",
    ),
    (
        112,
        "UNSUPPORTED_ASSIGNOR",
        False,
        "The assignor or its version range is not supported by the consumer group.",
    ),
    (
        113,
        "STALE_MEMBER_EPOCH",
        False,
        "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.",
    ),
    (114, "MISMATCHED_ENDPOINT_TYPE", False, "The request was sent to an endpoint of the wrong type."),
    (115, "UNSUPPORTED_ENDPOINT_TYPE", False, "This endpoint type is not supported yet."),
    (116, "UNKNOWN_CONTROLLER_ID", False, "This controller ID is not known."),
    (
        117,
        "UNKNOWN_SUBSCRIPTION_ID",
        False,
        "Client sent a push telemetry request with an invalid or outdated subscription ID.",
    ),
    (
        118,
        "TELEMETRY_TOO_LARGE",
        False,
        "Client sent a push telemetry request larger than the maximum size the broker will accept.",
    ),
    (
        119,
        "INVALID_REGISTRATION",
        False,
        "The controller has considered the broker registration to be invalid.",
    ),
    (
        120,
        "TRANSACTION_ABORTABLE",
        False,
        "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.",
    ),
    (
        121,
        "INVALID_RECORD_STATE",
        False,
        "The record state is invalid. The acknowledgement of delivery could not be completed.",
    ),
    (122, "SHARE_SESSION_NOT_FOUND", True, "The share session was not found."),
    (123, "INVALID_SHARE_SESSION_EPOCH", True, "The share session epoch is invalid."),
    (
        124,
        "FENCED_STATE_EPOCH",
        False,
        "The share coordinator rejected the request because the share-group state epoch did not match.",
    ),
    (125, "INVALID_VOTER_KEY", False, "The voter key doesn't match the receiving replica's key."),
    (126, "DUPLICATE_VOTER", False, "The voter is already part of the set of voters."),
    (127, "VOTER_NOT_FOUND", False, "The voter is not part of the set of voters."),
    (128, "INVALID_REGULAR_EXPRESSION", False, "The regular expression is not valid."),
    (
        129,
        "REBOOTSTRAP_REQUIRED",
        False,
        "Client metadata is stale. The client should rebootstrap to obtain new metadata.",
    ),
    (130, "STREAMS_INVALID_TOPOLOGY", False, "The supplied topology is invalid."),
    (131, "STREAMS_INVALID_TOPOLOGY_EPOCH", False, "The supplied topology epoch is invalid."),
    (132, "STREAMS_TOPOLOGY_FENCED", False, "The supplied topology epoch is outdated."),
    (133, "SHARE_SESSION_LIMIT_REACHED", True, "The limit of share sessions has been reached."),
    (134, "GROUP_DELETION_FAILED", False, "The deletion of the group failed."),
    (
        135,
        "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED",
        False,
        "The streams topology description could not be updated.",
    ),
    (136, "CONTROLLER_ID_NOT_REGISTERED", False, "The given controller ID is not registered."),
)

# What to do next, for the codes an operator of the admin tools meets.
_HINTS: dict[int, str] = {
    -1: "see the server log of that node for the cause",
    3: "check the topic name; kcli configs --bootstrap-server HOST:PORT --describe --entity-type topics lists the topics",
    7: "the server did not finish in time; retry, or raise request.timeout.ms",
    8: "the node is not available; check that it is running",
    13: "the connection was lost; check the node and the network",
    29: "the principal lacks a topic ACL; grant it with `kcli acls --add`",
    31: "the principal lacks a CLUSTER ACL (e.g. ALTER or DESCRIBE on kafka-cluster); check --command-config credentials",
    33: "set sasl.mechanism to one the server lists",
    34: "the SASL exchange got out of step; check sasl.mechanism and security.protocol",
    35: "the server does not support this request version; upgrade the cluster or use an older kcli feature",
    40: "check the config name and value (kcli configs --describe --all shows valid keys)",
    41: "the controller moved; retry (kcli does this within default.api.timeout.ms)",
    42: "the server rejected the request as malformed for this endpoint or version",
    44: "a server-side policy rejected the change; see the error message",
    54: "no authorizer is configured on this cluster, so ACLs cannot be used: set authorizer.class.name="
    "org.apache.kafka.metadata.authorizer.StandardAuthorizer on every broker and controller; "
    "for a sandbox, start it with kcli sandbox up --authorizer",
    58: "check the username and password (sasl.jaas.config) and sasl.mechanism",
    60: "a reassignment is already running; wait for it or cancel it",
    85: "there is no reassignment in progress for that partition",
    89: "the controller mutation quota was exceeded; retry later",
    91: "the resource does not exist",
    92: "the resource already exists",
    95: "the feature level is not valid for this cluster (kcli features describe shows the ranges)",
    96: "the feature update failed; see the error message",
    102: "kcli cluster list-endpoints --include-fenced-brokers lists the registered broker ids",
    104: "the node belongs to a different cluster; check the bootstrap addresses",
    114: "use --bootstrap-server for brokers and --bootstrap-controller for controllers",
    115: "bootstrapping from controllers needs metadata.version 3.7-IV0 or later; use --bootstrap-server",
    116: "the controller id is unknown to this cluster",
    126: "that node is already a voter",
    127: "kcli metadata-quorum describe --status lists the voters and their directory ids",
    129: "the server asked the client to rebootstrap; retry",
    136: "that controller id is not registered",
}

_BY_CODE: dict[int, ErrorInfo] = {
    code: ErrorInfo(code=code, name=name, retriable=retriable, message=message, hint=_HINTS.get(code))
    for code, name, retriable, message in _CODES
}


def error_info(code: int) -> ErrorInfo:
    """The name, retriable flag, message and hint of a Kafka error code (unknown codes too)."""
    info = _BY_CODE.get(code)
    if info is not None:
        return info
    return ErrorInfo(
        code=code,
        name=f"UNKNOWN_ERROR_{code}",
        retriable=False,
        message=f"Error code {code} is not known to this kcli (the server is newer).",
        hint=None,
    )


_BY_NAME: dict[str, int] = {name: code for code, name, _, _ in _CODES}


def code_of(name: str) -> int:
    """The code of a Kafka error named as Kafka names it (NOT_CONTROLLER -> 41); a typo fails at import."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"no Kafka error is named {name}") from None


def error_name(code: int) -> str:
    """Kafka's name for an error code, e.g. NOT_CONTROLLER for 41."""
    return error_info(code).name


class KafkaError(KcliError):
    """A Kafka error code from the server, as one operator-facing line.

    line(): "<what>: <NAME> on <node>: <message> (<hint>)".
    """

    def __init__(self, code: int, message: str | None = None, *, what: str, node: str | None = None) -> None:
        info = error_info(code)
        self.code = code
        self.name = info.name
        self.retriable = info.retriable
        self.node = node
        self.what = what
        self.server_message = message
        text = message if message and message not in ("NONE", "No error.") else info.message
        where = f" on {node}" if node else ""
        super().__init__(f"{what}: {info.name}{where}: {text}", hint=info.hint)


def check(code: int, message: str | None = None, *, what: str, node: str | None = None) -> None:
    """Raise KafkaError unless `code` is 0 (NONE)."""
    if int(code) != 0:
        raise KafkaError(int(code), message, what=what, node=node)


class ConnectionFailed(KcliError):
    """A node could not be reached, or the connection broke (TCP, TLS, SASL, or not a Kafka server)."""


class ConnectionRefused(ConnectionFailed):
    """Nothing accepted the connection (yet): worth retrying with backoff until the deadline."""


class AuthenticationFailed(ConnectionFailed):
    """SASL or TLS authentication was refused, or the server could not prove its identity."""


class RequestTimedOut(KcliError):
    """A request or the whole operation ran out of time (request.timeout.ms / default.api.timeout.ms)."""


class UnsupportedByServer(KcliError):
    """The server does not offer the API or any version of it that kcli can use."""


class ClusterIdMismatch(KcliError):
    """The cluster answering is not the one expected (expected.cluster.id, or it changed on rebootstrap)."""


class EndpointTypeMismatch(UsageError):
    """A broker was given as a controller or the reverse (KIP-919); says which flag to use."""


class ProtocolError(ConnectionFailed):
    """The peer sent bytes that are not a valid Kafka response (wrong correlation id, bad frame)."""
