"""Kafka's protocol constants, in one place: API keys, resource and config codes, ACL codes, varints,
the HOST:PORT form of an address.

Error codes are kio's `ErrorCode` (kio.schema.errors) wherever kio is loaded; the client's kio-free
start-up path names them through kcli/client/errors.py, which reads them from a data file written from
kio (scripts/kio-data.py; a test fails when it is stale).
kio has no enum of API keys (only kio.schema.index.api_key_map), so `ApiKey` is here, checked
against that map, and the APIs kcli.client.protocol adds to kio, by a test. This module imports only the standard library: every layer may use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum, IntEnum

from kcli.errors import VarintError as VarintError  # the decode errors are one family (kcli.errors)


class ApiKey(IntEnum):
    """Kafka API keys, named as kio names the API (kio.schema.index.api_key_map), upper-cased."""

    PRODUCE = 0
    FETCH = 1
    LIST_OFFSETS = 2
    METADATA = 3
    OFFSET_COMMIT = 8
    OFFSET_FETCH = 9
    FIND_COORDINATOR = 10
    JOIN_GROUP = 11
    HEARTBEAT = 12
    LEAVE_GROUP = 13
    SYNC_GROUP = 14
    DESCRIBE_GROUPS = 15
    LIST_GROUPS = 16
    SASL_HANDSHAKE = 17
    API_VERSIONS = 18
    CREATE_TOPICS = 19
    DELETE_TOPICS = 20
    DELETE_RECORDS = 21
    INIT_PRODUCER_ID = 22
    OFFSET_FOR_LEADER_EPOCH = 23
    ADD_PARTITIONS_TO_TXN = 24
    ADD_OFFSETS_TO_TXN = 25
    END_TXN = 26
    WRITE_TXN_MARKERS = 27
    TXN_OFFSET_COMMIT = 28
    DESCRIBE_ACLS = 29
    CREATE_ACLS = 30
    DELETE_ACLS = 31
    DESCRIBE_CONFIGS = 32
    ALTER_CONFIGS = 33
    ALTER_REPLICA_LOG_DIRS = 34
    DESCRIBE_LOG_DIRS = 35
    SASL_AUTHENTICATE = 36
    CREATE_PARTITIONS = 37
    CREATE_DELEGATION_TOKEN = 38
    RENEW_DELEGATION_TOKEN = 39
    EXPIRE_DELEGATION_TOKEN = 40
    DESCRIBE_DELEGATION_TOKEN = 41
    DELETE_GROUPS = 42
    ELECT_LEADERS = 43
    INCREMENTAL_ALTER_CONFIGS = 44
    ALTER_PARTITION_REASSIGNMENTS = 45
    LIST_PARTITION_REASSIGNMENTS = 46
    OFFSET_DELETE = 47
    DESCRIBE_CLIENT_QUOTAS = 48
    ALTER_CLIENT_QUOTAS = 49
    DESCRIBE_USER_SCRAM_CREDENTIALS = 50
    ALTER_USER_SCRAM_CREDENTIALS = 51
    VOTE = 52
    BEGIN_QUORUM_EPOCH = 53
    END_QUORUM_EPOCH = 54
    DESCRIBE_QUORUM = 55
    ALTER_PARTITION = 56
    UPDATE_FEATURES = 57
    ENVELOPE = 58
    FETCH_SNAPSHOT = 59
    DESCRIBE_CLUSTER = 60
    DESCRIBE_PRODUCERS = 61
    BROKER_REGISTRATION = 62
    BROKER_HEARTBEAT = 63
    UNREGISTER_BROKER = 64
    DESCRIBE_TRANSACTIONS = 65
    LIST_TRANSACTIONS = 66
    ALLOCATE_PRODUCER_IDS = 67
    CONSUMER_GROUP_HEARTBEAT = 68
    CONSUMER_GROUP_DESCRIBE = 69
    CONTROLLER_REGISTRATION = 70
    GET_TELEMETRY_SUBSCRIPTIONS = 71
    PUSH_TELEMETRY = 72
    ASSIGN_REPLICAS_TO_DIRS = 73
    LIST_CONFIG_RESOURCES = 74
    DESCRIBE_TOPIC_PARTITIONS = 75
    SHARE_GROUP_HEARTBEAT = 76
    SHARE_GROUP_DESCRIBE = 77
    SHARE_FETCH = 78
    SHARE_ACKNOWLEDGE = 79
    ADD_RAFT_VOTER = 80
    REMOVE_RAFT_VOTER = 81
    UPDATE_RAFT_VOTER = 82
    INITIALIZE_SHARE_GROUP_STATE = 83
    READ_SHARE_GROUP_STATE = 84
    WRITE_SHARE_GROUP_STATE = 85
    DELETE_SHARE_GROUP_STATE = 86
    READ_SHARE_GROUP_STATE_SUMMARY = 87
    STREAMS_GROUP_HEARTBEAT = 88
    STREAMS_GROUP_DESCRIBE = 89
    DESCRIBE_SHARE_GROUP_OFFSETS = 90
    ALTER_SHARE_GROUP_OFFSETS = 91
    DELETE_SHARE_GROUP_OFFSETS = 92
    UNREGISTER_CONTROLLER = 94  # Kafka 4.4 (KIP-1312); kio lacks it: kcli.client.protocol.NOT_IN_KIO


class ConfigResourceType(IntEnum):
    """ConfigResource.Type codes (DescribeConfigs, IncrementalAlterConfigs, ListConfigResources)."""

    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class ConfigSource(IntEnum):
    """DescribeConfigs ConfigSource codes."""

    UNKNOWN = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    DYNAMIC_CLIENT_METRICS_CONFIG = 7
    DYNAMIC_GROUP_CONFIG = 8

    @classmethod
    def of(cls, code: int) -> ConfigSource:
        """The source of a wire code (unknown codes: UNKNOWN); a dict lookup, as it runs per entry."""
        return _SOURCE_BY_CODE.get(code, cls.UNKNOWN)


_SOURCE_BY_CODE = {int(source): source for source in ConfigSource}


class ConfigType(IntEnum):
    """DescribeConfigs ConfigType codes (v3+)."""

    UNKNOWN = 0
    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class ConfigOp(IntEnum):
    """IncrementalAlterConfigs operation codes (AlterConfigOp.OpType)."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class QuotaMatchType(IntEnum):
    """DescribeClientQuotas component match types."""

    EXACT = 0
    DEFAULT = 1
    SPECIFIED = 2


class EndpointType(IntEnum):
    """KIP-919 endpoint types of DescribeCluster."""

    BROKERS = 1
    CONTROLLERS = 2

    @property
    def label(self) -> str:
        return "brokers" if self is EndpointType.BROKERS else "controllers"


class FeatureUpgradeType(IntEnum):
    """FeatureUpdate.UpgradeType as sent in UpdateFeatures v1+."""

    UPGRADE = 1
    SAFE_DOWNGRADE = 2
    UNSAFE_DOWNGRADE = 3


class ResourceType(IntEnum):
    """ACL resource types (ResourceType.java)."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class PatternType(IntEnum):
    """ACL resource pattern types (PatternType.java)."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4

    @property
    def is_specific(self) -> bool:
        return self in (PatternType.LITERAL, PatternType.PREFIXED)


class AclOperation(IntEnum):
    """ACL operations (AclOperation.java)."""

    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14
    TWO_PHASE_COMMIT = 15

    @property
    def pascal(self) -> str:
        """The operation's kafka-acls.sh spelling: `DescribeConfigs`."""
        return "".join(part.capitalize() for part in self.name.split("_"))


class PermissionType(IntEnum):
    """ACL permission types (AclPermissionType.java)."""

    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


# kio-free error codes for the pure models of kcli/ops (kio's ErrorCode elsewhere)
ELECTION_NOT_NEEDED = 84

CLUSTER_NAME = "kafka-cluster"  # the one resource name of ResourceType.CLUSTER
WILDCARD = "*"  # a LITERAL resource name that matches every name

# Operations each resource type supports (AclEntry.supportedOperations), ALL always allowed too.
SUPPORTED_OPERATIONS: Mapping[int, tuple[AclOperation, ...]] = {
    ResourceType.TOPIC: (
        AclOperation.READ,
        AclOperation.WRITE,
        AclOperation.CREATE,
        AclOperation.DESCRIBE,
        AclOperation.DELETE,
        AclOperation.ALTER,
        AclOperation.DESCRIBE_CONFIGS,
        AclOperation.ALTER_CONFIGS,
    ),
    ResourceType.GROUP: (
        AclOperation.READ,
        AclOperation.DESCRIBE,
        AclOperation.DELETE,
        AclOperation.DESCRIBE_CONFIGS,
        AclOperation.ALTER_CONFIGS,
    ),
    ResourceType.CLUSTER: (
        AclOperation.CREATE,
        AclOperation.CLUSTER_ACTION,
        AclOperation.DESCRIBE_CONFIGS,
        AclOperation.ALTER_CONFIGS,
        AclOperation.IDEMPOTENT_WRITE,
        AclOperation.ALTER,
        AclOperation.DESCRIBE,
    ),
    ResourceType.TRANSACTIONAL_ID: (AclOperation.DESCRIBE, AclOperation.WRITE, AclOperation.TWO_PHASE_COMMIT),
    ResourceType.DELEGATION_TOKEN: (AclOperation.DESCRIBE,),
    ResourceType.USER: (AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS),
}


# SCRAM iteration counts: clients refuse fewer than 4096 (ScramMechanism.minIterations); Kafka's
# controllers refuse more than 16384 (ScramControlManager.MAX_ITERATIONS, "Too many iterations"), so
# no broker holds a credential with more and a server asking more is not one kcli computes for.
SCRAM_MIN_ITERATIONS = 4096
SCRAM_MAX_ITERATIONS = 16384
SCRAM_DEFAULT_ITERATIONS = 4096  # kafka-configs.sh without iterations= (or with -1)


class ScramMechanism(Enum):
    """SCRAM mechanisms: wire code, hash name and digest size (AlterUserScramCredentials)."""

    SCRAM_SHA_256 = (1, "sha256", 32)
    SCRAM_SHA_512 = (2, "sha512", 64)

    @property
    def code(self) -> int:
        return int(self.value[0])

    @property
    def hash_name(self) -> str:
        return str(self.value[1])

    @property
    def mechanism_name(self) -> str:
        return self.name.replace("_", "-")

    @classmethod
    def from_name(cls, name: str) -> ScramMechanism | None:
        for mechanism in cls:
            if mechanism.mechanism_name == name:
                return mechanism
        return None

    @classmethod
    def from_code(cls, code: int) -> ScramMechanism | None:
        for mechanism in cls:
            if mechanism.code == code:
                return mechanism
        return None


class Severity(IntEnum):
    """How serious a finding is, lowest first (the doctor's findings; the audits' rules likewise)."""

    info = 0
    low = 1
    medium = 2
    high = 3
    critical = 4

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().lower()]
        except KeyError:
            from kcli.errors import UsageError

            names = ", ".join(s.name for s in cls)
            raise UsageError(f"unknown severity {text!r} (one of {names})") from None


def host_port(host: str, port: int) -> str:
    """An address as Kafka writes it: HOST:PORT, an IPv6 host in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# -- varints: Kafka's unsigned LEB128 and zig-zag signed varint/varlong ------------------------------


def read_uvarint(buf: bytes | bytearray | memoryview, pos: int) -> tuple[int, int]:
    """Unsigned varint at `pos` -> (value, bytes consumed)."""
    result = shift = 0
    start = pos
    while True:
        try:
            byte = buf[pos]
        except IndexError:
            raise VarintError("varint runs past the end of the data", start) from None
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos - start
        shift += 7
        if shift > 63:
            raise VarintError("varint longer than 10 bytes", start)


def read_varint(buf: bytes | bytearray | memoryview, pos: int) -> tuple[int, int]:
    """Zig-zag signed varint/varlong at `pos` -> (value, bytes consumed)."""
    raw, size = read_uvarint(buf, pos)
    return (raw >> 1) ^ -(raw & 1), size


def write_uvarint(value: int) -> bytes:
    """The unsigned varint bytes of `value` (>= 0)."""
    if value < 0:
        raise ValueError(f"uvarint cannot hold a negative value: {value}")
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def write_varint(value: int) -> bytes:
    """The zig-zag signed varint/varlong bytes of `value`."""
    return write_uvarint((value << 1) ^ (value >> 63))
