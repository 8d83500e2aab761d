"""The sandbox's view of the config catalogue (kcli/data/config_catalogue.json, read through
kcli.ops.config_catalogue) and the broker-side facts only the sandbox needs: unit synonyms, the
broker keys behind group configs, client-metrics selectors.

DescribeConfigs, IncrementalAlterConfigs, AlterConfigs and CreateTopics all read these tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kcli.ops.config_catalogue import ConfigDef, configs_of
from kcli.ops.config_spec import EntityType, entity_type_of_resource

TOPIC_CONFIGS = configs_of(EntityType.TOPICS)
BROKER_CONFIGS = configs_of(EntityType.BROKERS)
GROUP_CONFIGS = configs_of(EntityType.GROUPS)
CLIENT_METRICS_CONFIGS = configs_of(EntityType.CLIENT_METRICS)

# Broker group.* settings: the defaults and bounds of the per-group configs (GROUP_CONFIGS).
# (group key, broker key of its default); the values are the catalogue's.
_GROUP_KEYS: tuple[tuple[str, str], ...] = (
    ("consumer.session.timeout.ms", "group.consumer.session.timeout.ms"),
    ("consumer.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms"),
    ("share.session.timeout.ms", "group.share.session.timeout.ms"),
    ("share.heartbeat.interval.ms", "group.share.heartbeat.interval.ms"),
    ("share.record.lock.duration.ms", "group.share.record.lock.duration.ms"),
    ("streams.session.timeout.ms", "group.streams.session.timeout.ms"),
    ("streams.heartbeat.interval.ms", "group.streams.heartbeat.interval.ms"),
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
    for key, default_key in _GROUP_KEYS
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

# Selectors a client-metrics `match` entry may use.
CLIENT_MATCH_SELECTORS = (
    "client_instance_id",
    "client_id",
    "client_software_name",
    "client_software_version",
    "client_source_address",
    "client_source_port",
)


def definitions(resource_type: int) -> Mapping[str, ConfigDef]:
    """The config table for a ConfigResource type (empty for types the sandbox has no keys for)."""
    entity_type = entity_type_of_resource(resource_type)
    return configs_of(entity_type) if entity_type is not None else {}
