"""Topic, broker, group and client-metrics config definitions, as data (names, types, defaults and synonyms follow Kafka).

DescribeConfigs, IncrementalAlterConfigs, AlterConfigs and CreateTopics all read this table; nothing
else in the sandbox knows a config name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kcli.kafka import ConfigResourceType, ConfigType


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigDef:
    """One config key: type, default, documentation and the rules Kafka enforces on it."""

    name: str
    type: ConfigType
    default: str | None
    doc: str
    synonyms: tuple[str, ...] = ()  # broker keys a topic key falls back to, most specific first
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    sensitive: bool = False
    read_only: bool = False  # brokers: not dynamically updatable
    list_choices: bool = False  # LIST whose items must each be in `choices`

    def validate(self, value: str) -> str | None:
        """The error message for `value`, or None when it is valid."""
        text = value.strip()
        try:
            if self.type is ConfigType.BOOLEAN:
                if text.lower() not in ("true", "false"):
                    return f"Invalid value {value} for configuration {self.name}: Expected value to be either true or false"
            elif self.type in (ConfigType.INT, ConfigType.SHORT, ConfigType.LONG):
                number: float = int(text)
                limit = {ConfigType.INT: 2**31, ConfigType.SHORT: 2**15, ConfigType.LONG: 2**63}[self.type]
                if not -limit <= number < limit:
                    raise ValueError
                if self.minimum is not None and number < self.minimum:
                    return f"Invalid value {value} for configuration {self.name}: Value must be at least {int(self.minimum)}"
                if self.maximum is not None and number > self.maximum:
                    return f"Invalid value {value} for configuration {self.name}: Value must be no more than {int(self.maximum)}"
            elif self.type is ConfigType.DOUBLE:
                number = float(text)
                if self.minimum is not None and number < self.minimum:
                    return f"Invalid value {value} for configuration {self.name}: Value must be at least {self.minimum}"
        except ValueError:
            kind = {ConfigType.INT: "32-bit integer", ConfigType.SHORT: "16-bit integer"}.get(
                self.type, "number" if self.type is ConfigType.DOUBLE else "64-bit integer"
            )
            return f"Invalid value {value} for configuration {self.name}: Not a {kind}"
        if self.choices:
            items = [item.strip() for item in text.split(",")] if self.list_choices else [text]
            for item in items:
                if item not in self.choices:
                    allowed = ", ".join(self.choices)
                    return f"Invalid value {value} for configuration {self.name}: String must be one of: {allowed}"
        return None


_MAX_LONG = str(2**63 - 1)
_T, _B, _L, _I, _S, _D, _LS, _P = (
    ConfigType.STRING,
    ConfigType.BOOLEAN,
    ConfigType.LONG,
    ConfigType.INT,
    ConfigType.SHORT,
    ConfigType.DOUBLE,
    ConfigType.LIST,
    ConfigType.PASSWORD,
)
_COMPRESSION = ("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")


def _d(
    name: str, type_: ConfigType, default: str | None, doc: str, *synonyms: str, **rules: object
) -> ConfigDef:
    return ConfigDef(name=name, type=type_, default=default, doc=doc, synonyms=synonyms, **rules)  # type: ignore[arg-type]


TOPIC_CONFIGS: dict[str, ConfigDef] = {
    d.name: d
    for d in (
        _d(
            "cleanup.policy",
            _LS,
            "delete",
            "The retention policy for old log segments: delete and/or compact.",
            "log.cleanup.policy",
            choices=("delete", "compact"),
            list_choices=True,
        ),
        _d(
            "compression.type",
            _T,
            "producer",
            "Final compression type for the topic.",
            "compression.type",
            choices=_COMPRESSION,
        ),
        _d(
            "delete.retention.ms",
            _L,
            "86400000",
            "How long delete tombstones are retained for compacted topics.",
            "log.cleaner.delete.retention.ms",
            minimum=0,
        ),
        _d(
            "file.delete.delay.ms",
            _L,
            "60000",
            "Time to wait before deleting a file from the filesystem.",
            "log.segment.delete.delay.ms",
            minimum=0,
        ),
        _d(
            "flush.messages",
            _L,
            _MAX_LONG,
            "Messages accumulated before a log flush is forced.",
            "log.flush.interval.messages",
            minimum=1,
        ),
        _d(
            "flush.ms",
            _L,
            _MAX_LONG,
            "Maximum time between forced log flushes.",
            "log.flush.interval.ms",
            "log.flush.scheduler.interval.ms",
            minimum=0,
        ),
        _d(
            "follower.replication.throttled.replicas",
            _LS,
            "",
            "Replicas whose log replication is throttled on the follower side (partition:broker,...).",
            "follower.replication.throttled.replicas",
        ),
        _d(
            "index.interval.bytes",
            _I,
            "4096",
            "How often an offset index entry is added.",
            "log.index.interval.bytes",
            minimum=0,
        ),
        _d(
            "leader.replication.throttled.replicas",
            _LS,
            "",
            "Replicas whose log replication is throttled on the leader side (partition:broker,...).",
            "leader.replication.throttled.replicas",
        ),
        _d(
            "local.retention.bytes",
            _L,
            "-2",
            "Local log size retained when tiered storage is on.",
            "log.local.retention.bytes",
            minimum=-2,
        ),
        _d(
            "local.retention.ms",
            _L,
            "-2",
            "Local log time retained when tiered storage is on.",
            "log.local.retention.ms",
            minimum=-2,
        ),
        _d(
            "max.compaction.lag.ms",
            _L,
            _MAX_LONG,
            "Maximum time a message stays uncompacted.",
            "log.cleaner.max.compaction.lag.ms",
            minimum=1,
        ),
        _d(
            "max.message.bytes",
            _I,
            "1048588",
            "Largest record batch size allowed.",
            "message.max.bytes",
            minimum=0,
        ),
        _d(
            "message.timestamp.type",
            _T,
            "CreateTime",
            "Whether record timestamps are CreateTime or LogAppendTime.",
            "log.message.timestamp.type",
            choices=("CreateTime", "LogAppendTime"),
        ),
        _d(
            "min.cleanable.dirty.ratio",
            _D,
            "0.5",
            "Dirty ratio above which the log is compacted.",
            "log.cleaner.min.cleanable.ratio",
            minimum=0,
        ),
        _d(
            "min.compaction.lag.ms",
            _L,
            "0",
            "Minimum time a message stays uncompacted.",
            "log.cleaner.min.compaction.lag.ms",
            minimum=0,
        ),
        _d(
            "min.insync.replicas",
            _I,
            "1",
            "Minimum in-sync replicas for acks=all writes.",
            "min.insync.replicas",
            minimum=1,
        ),
        _d(
            "preallocate",
            _B,
            "false",
            "Preallocate the file on disk when creating a segment.",
            "log.preallocate",
        ),
        _d("remote.storage.enable", _B, "false", "Enable tiered storage for the topic."),
        _d(
            "retention.bytes",
            _L,
            "-1",
            "Maximum partition size before old segments are discarded.",
            "log.retention.bytes",
        ),
        _d(
            "retention.ms",
            _L,
            "604800000",
            "Maximum time a log is retained before old segments are discarded.",
            "log.retention.ms",
            "log.retention.minutes",
            "log.retention.hours",
            minimum=-1,
        ),
        _d("segment.bytes", _I, "1073741824", "Segment file size.", "log.segment.bytes", minimum=14),
        _d(
            "segment.index.bytes",
            _I,
            "10485760",
            "Size of the offset index.",
            "log.index.size.max.bytes",
            minimum=4,
        ),
        _d(
            "segment.jitter.ms",
            _L,
            "0",
            "Random jitter subtracted from the segment roll time.",
            "log.roll.jitter.ms",
            "log.roll.jitter.hours",
            minimum=0,
        ),
        _d(
            "segment.ms",
            _L,
            "604800000",
            "Time after which a segment is rolled.",
            "log.roll.ms",
            "log.roll.hours",
            minimum=1,
        ),
        _d(
            "unclean.leader.election.enable",
            _B,
            "false",
            "Allow out-of-sync replicas to become leader.",
            "unclean.leader.election.enable",
        ),
    )
}

# Broker group.* settings: the defaults and bounds of the per-group configs (GROUP_CONFIGS).
# (group key, broker key of its default, default, default minimum, default maximum)
_GROUP_KEYS: tuple[tuple[str, str, str, int, int], ...] = (
    ("consumer.session.timeout.ms", "group.consumer.session.timeout.ms", "45000", 45000, 60000),
    ("consumer.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms", "5000", 5000, 15000),
    ("share.session.timeout.ms", "group.share.session.timeout.ms", "45000", 45000, 60000),
    ("share.heartbeat.interval.ms", "group.share.heartbeat.interval.ms", "5000", 5000, 15000),
    ("share.record.lock.duration.ms", "group.share.record.lock.duration.ms", "30000", 15000, 60000),
    ("streams.session.timeout.ms", "group.streams.session.timeout.ms", "45000", 45000, 60000),
    ("streams.heartbeat.interval.ms", "group.streams.heartbeat.interval.ms", "5000", 5000, 15000),
)


def _bound_key(default_key: str, bound: str) -> str:
    """group.consumer.session.timeout.ms -> group.consumer.min.session.timeout.ms (Kafka's naming)."""
    prefix, _, rest = default_key.partition(".")
    kind, _, tail = rest.partition(".")
    if default_key.endswith(".record.lock.duration.ms"):
        return f"{prefix}.{kind}.{bound}.record.lock.duration.ms"
    return f"{prefix}.{kind}.{bound}.{tail}"


# group config -> (broker key of its default, broker key of its minimum, broker key of its maximum)
GROUP_BROKER_KEYS: dict[str, tuple[str, str, str]] = {
    key: (default_key, _bound_key(default_key, "min"), _bound_key(default_key, "max"))
    for key, default_key, _, _, _ in _GROUP_KEYS
}


def _group_broker_defs() -> list[ConfigDef]:
    out = []
    for key, default_key, default, low, high in _GROUP_KEYS:
        _, low_key, high_key = GROUP_BROKER_KEYS[key]
        out.append(_d(default_key, _I, default, f"Default {key} of groups.", read_only=True, minimum=1))
        out.append(_d(low_key, _I, str(low), f"Smallest {key} a group may use.", read_only=True, minimum=1))
        out.append(_d(high_key, _I, str(high), f"Largest {key} a group may use.", read_only=True, minimum=1))
    out.append(_d("group.streams.num.standby.replicas", _I, "0", "Default standby replicas.", read_only=True))
    out.append(_d("group.streams.max.standby.replicas", _I, "2", "Most standby replicas.", read_only=True))
    return out


BROKER_CONFIGS: dict[str, ConfigDef] = {
    d.name: d
    for d in (
        _d("advertised.listeners", _T, None, "Listeners published for clients.", read_only=True),
        _d("authorizer.class.name", _T, "", "Authorizer class used for ACLs.", read_only=True),
        _d("auto.create.topics.enable", _B, "true", "Enable auto-creation of topics.", read_only=True),
        _d("background.threads", _I, "10", "Threads for background processing.", minimum=1),
        _d("broker.id", _I, "-1", "The broker id (node.id in KRaft).", read_only=True),
        _d("broker.rack", _T, None, "Rack of the broker, for rack-aware replica placement.", read_only=True),
        _d("compression.type", _T, "producer", "Default compression type for topics.", choices=_COMPRESSION),
        _d("controller.listener.names", _T, None, "Listener names used by the controller.", read_only=True),
        _d(
            "controller.quorum.bootstrap.servers",
            _LS,
            "",
            "Controllers to bootstrap the quorum from.",
            read_only=True,
        ),
        _d(
            "default.replication.factor",
            _I,
            "1",
            "Default replication factor for auto-created topics.",
            read_only=True,
        ),
        _d("delete.topic.enable", _B, "true", "Enable topic deletion.", read_only=True),
        _d(
            "follower.replication.throttled.rate",
            _L,
            _MAX_LONG,
            "Upper bound (bytes/s) on follower replication traffic for throttled replicas.",
            minimum=0,
        ),
        _d(
            "leader.replication.throttled.rate",
            _L,
            _MAX_LONG,
            "Upper bound (bytes/s) on leader replication traffic for throttled replicas.",
            minimum=0,
        ),
        *_group_broker_defs(),
        _d("listeners", _T, "PLAINTEXT://:9092", "Listeners the node binds.", read_only=True),
        _d("log.cleaner.delete.retention.ms", _L, "86400000", "Default delete.retention.ms.", minimum=0),
        _d("log.cleaner.max.compaction.lag.ms", _L, _MAX_LONG, "Default max.compaction.lag.ms.", minimum=1),
        _d("log.cleaner.min.cleanable.ratio", _D, "0.5", "Default min.cleanable.dirty.ratio.", minimum=0),
        _d("log.cleaner.min.compaction.lag.ms", _L, "0", "Default min.compaction.lag.ms.", minimum=0),
        _d("log.cleaner.threads", _I, "1", "Log cleaner threads.", minimum=0),
        _d(
            "log.cleanup.policy",
            _LS,
            "delete",
            "Default cleanup.policy.",
            choices=("delete", "compact"),
            list_choices=True,
        ),
        _d("log.dirs", _T, None, "Directories holding the log data.", read_only=True),
        _d("log.flush.interval.messages", _L, _MAX_LONG, "Default flush.messages.", minimum=1),
        _d("log.flush.interval.ms", _L, None, "Default flush.ms."),
        _d(
            "log.flush.scheduler.interval.ms",
            _L,
            _MAX_LONG,
            "How often the log flusher checks whether a log needs flushing.",
            read_only=True,
        ),
        _d("log.index.interval.bytes", _I, "4096", "Default index.interval.bytes.", minimum=0),
        _d("log.index.size.max.bytes", _I, "10485760", "Default segment.index.bytes.", minimum=4),
        _d("log.local.retention.bytes", _L, "-2", "Default local.retention.bytes.", minimum=-2),
        _d("log.local.retention.ms", _L, "-2", "Default local.retention.ms.", minimum=-2),
        _d(
            "log.message.timestamp.type",
            _T,
            "CreateTime",
            "Default message.timestamp.type.",
            choices=("CreateTime", "LogAppendTime"),
        ),
        _d("log.preallocate", _B, "false", "Default preallocate."),
        _d("log.retention.bytes", _L, "-1", "Default retention.bytes."),
        _d("log.retention.hours", _I, "168", "Default retention time in hours.", read_only=True),
        _d("log.retention.minutes", _I, None, "Default retention time in minutes.", read_only=True),
        _d("log.retention.ms", _L, None, "Default retention.ms.", minimum=-1),
        _d("log.roll.hours", _I, "168", "Default segment roll time in hours.", read_only=True),
        _d("log.roll.jitter.hours", _I, "0", "Default segment jitter in hours.", read_only=True),
        _d("log.roll.jitter.ms", _L, None, "Default segment.jitter.ms."),
        _d("log.roll.ms", _L, None, "Default segment.ms."),
        _d("log.segment.bytes", _I, "1073741824", "Default segment.bytes.", minimum=14),
        _d("log.segment.delete.delay.ms", _L, "60000", "Default file.delete.delay.ms.", minimum=0),
        _d("max.connections", _I, "2147483647", "Maximum connections per broker.", minimum=0),
        _d("message.max.bytes", _I, "1048588", "Default max.message.bytes.", minimum=0),
        _d("metadata.log.dir", _T, None, "Directory of the metadata log.", read_only=True),
        _d("min.insync.replicas", _I, "1", "Default min.insync.replicas.", minimum=1),
        _d("node.id", _I, "-1", "The node id.", read_only=True),
        _d("num.io.threads", _I, "8", "Request handler threads.", minimum=1),
        _d("num.network.threads", _I, "3", "Network threads.", minimum=1),
        _d("num.partitions", _I, "1", "Default partitions for auto-created topics.", minimum=1),
        _d("num.recovery.threads.per.data.dir", _I, "2", "Log recovery threads per data dir.", minimum=1),
        _d("num.replica.fetchers", _I, "1", "Replica fetcher threads.", minimum=1),
        _d("process.roles", _LS, "", "The roles of this node (broker, controller).", read_only=True),
        _d(
            "replica.alter.log.dirs.io.max.bytes.per.second",
            _L,
            _MAX_LONG,
            "Upper bound (bytes/s) on log-dir to log-dir moves.",
            minimum=0,
        ),
        _d("sasl.enabled.mechanisms", _LS, "GSSAPI", "Enabled SASL mechanisms.", read_only=True),
        _d("sasl.jaas.config", _P, None, "JAAS login context for SASL.", sensitive=True),
        _d("ssl.keystore.location", _T, None, "Keystore file location."),
        _d("ssl.keystore.password", _P, None, "Keystore password.", sensitive=True),
        _d("ssl.key.password", _P, None, "Private key password.", sensitive=True),
        _d("ssl.truststore.location", _T, None, "Truststore file location."),
        _d("ssl.truststore.password", _P, None, "Truststore password.", sensitive=True),
        _d("super.users", _LS, "", "Principals allowed every operation.", read_only=True),
        _d("unclean.leader.election.enable", _B, "false", "Default unclean.leader.election.enable."),
    )
}

# Broker keys whose values are given in coarser units; the synonym value is converted to the topic unit.
UNIT_SCALE: dict[str, Callable[[int], int]] = {
    "log.retention.minutes": lambda v: v * 60_000,
    "log.retention.hours": lambda v: v * 3_600_000,
    "log.roll.hours": lambda v: v * 3_600_000,
    "log.roll.jitter.hours": lambda v: v * 3_600_000,
}

# Broker keys that are one setting in several units, most specific first (DynamicBrokerConfig's
# brokerConfigSynonyms): describing any of them lists the synonyms of all of them. The flush
# scheduler interval is log.flush.interval.ms's fallback, not the other way round: it has no set.
BROKER_SYNONYMS: dict[str, tuple[str, ...]] = {
    name: group
    for group in (
        ("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
        ("log.roll.ms", "log.roll.hours"),
        ("log.roll.jitter.ms", "log.roll.jitter.hours"),
        ("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
    )
    for name in group
    if name != "log.flush.scheduler.interval.ms"
}

# Per-group configs (GroupConfig); a key not set for the group takes the broker's group.* value.
GROUP_CONFIGS: dict[str, ConfigDef] = {
    d.name: d
    for d in (
        _d("consumer.heartbeat.interval.ms", _I, "5000", "Heartbeat interval of the group's consumers."),
        _d("consumer.session.timeout.ms", _I, "45000", "Session timeout of the group's consumers."),
        _d(
            "share.auto.offset.reset",
            _T,
            "latest",
            "Where a share group starts consuming a partition without an offset.",
            choices=("latest", "earliest"),
        ),
        _d("share.heartbeat.interval.ms", _I, "5000", "Heartbeat interval of the share group's members."),
        _d(
            "share.isolation.level",
            _T,
            "read_uncommitted",
            "Which transactional records a share group reads.",
            choices=("read_committed", "read_uncommitted"),
        ),
        _d("share.record.lock.duration.ms", _I, "30000", "How long a share group holds a record lock."),
        _d("share.session.timeout.ms", _I, "45000", "Session timeout of the share group's members."),
        _d("streams.heartbeat.interval.ms", _I, "5000", "Heartbeat interval of the streams group's members."),
        _d("streams.num.standby.replicas", _I, "0", "Standby replicas of the streams group.", minimum=0),
        _d("streams.session.timeout.ms", _I, "45000", "Session timeout of the streams group's members."),
    )
}

# Client metrics subscriptions (KIP-714, ClientMetricsConfigs).
CLIENT_METRICS_CONFIGS: dict[str, ConfigDef] = {
    d.name: d
    for d in (
        _d(
            "interval.ms",
            _I,
            "300000",
            "Push interval of the subscribed metrics.",
            minimum=100,
            maximum=3600000,
        ),
        _d("match", _LS, "", "Client matching patterns (selector=regex,...)."),
        _d("metrics", _LS, "", "Metric name prefixes to subscribe to."),
    )
}

# Selectors a client-metrics `match` entry may use.
CLIENT_MATCH_SELECTORS = (
    "client_instance_id",
    "client_id",
    "client_software_name",
    "client_software_version",
    "client_source_address",
    "client_source_port",
)


def definitions(resource_type: int) -> dict[str, ConfigDef]:
    """The config table for a ConfigResource type (empty for types the sandbox has no keys for)."""
    tables: dict[int, dict[str, ConfigDef]] = {
        ConfigResourceType.TOPIC: TOPIC_CONFIGS,
        ConfigResourceType.BROKER: BROKER_CONFIGS,
        ConfigResourceType.GROUP: GROUP_CONFIGS,
        ConfigResourceType.CLIENT_METRICS: CLIENT_METRICS_CONFIGS,
    }
    return tables.get(resource_type, {})
