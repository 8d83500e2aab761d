"""The sandbox's view of the config catalogue (kcli/data/config_catalogue.json, read through
kcli.ops.config_catalogue) and the rules of Kafka's brokers and controllers that are behaviour,
not data: listener-prefixed keys, unit synonyms, group bounds, client-metrics selectors.

DescribeConfigs, IncrementalAlterConfigs, AlterConfigs and CreateTopics all read these tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from kcli.ops.config_catalogue import ConfigDef, UpdateMode, configs_of
from kcli.ops.config_spec import EntityType, entity_type_of_resource

__all__ = ["ConfigDef", "UpdateMode"]

TOPIC_CONFIGS = configs_of(EntityType.TOPICS)
BROKER_CONFIGS = configs_of(EntityType.BROKERS)
GROUP_CONFIGS = configs_of(EntityType.GROUPS)
CLIENT_METRICS_CONFIGS = configs_of(EntityType.CLIENT_METRICS)

# Broker keys that are one setting in several units, most specific first (the catalogue's broker
# `synonyms`, DynamicBrokerConfig.brokerConfigSynonyms): describing any lists the synonyms of all.
BROKER_SYNONYMS: dict[str, tuple[str, ...]] = {
    name: definition.synonyms for name, definition in BROKER_CONFIGS.items() if definition.synonyms
}

_UNIT_FACTOR = {".minutes": 60_000, ".hours": 3_600_000}
# Broker keys given in coarser units: milliseconds per unit, to convert a synonym to the topic's unit.
UNIT_SCALE: dict[str, int] = {
    name: factor
    for name in BROKER_SYNONYMS
    for suffix, factor in _UNIT_FACTOR.items()
    if name.endswith(suffix)
}

# `listener.name.<listener>.<key>`: a broker key overridden for one listener (KIP-226).
LISTENER_PREFIXED = re.compile(r"listener\.name\.[^.]*\.(.*)")
# Keys given per listener AND mechanism (`listener.name.l.plain.sasl.jaas.config`): the synonym
# of such a key is the key without both prefixes.
LISTENER_MECHANISM_CONFIGS = (
    "sasl.jaas.config",
    "sasl.login.callback.handler.class",
    "sasl.login.class",
    "sasl.server.callback.handler.class",
    "connections.max.reauth.ms",
)
# Listener settings a listener prefix may set for the whole cluster (DynamicBrokerConfig).
CLUSTER_LEVEL_LISTENER_CONFIGS = frozenset(
    {"max.connections", "max.connection.creation.rate", "num.network.threads"}
)


def listener_base(name: str) -> str | None:
    """The key a `listener.name.<l>.` key overrides (None for an unprefixed key)."""
    match = LISTENER_PREFIXED.fullmatch(name)
    if match is None:
        return None
    base = match.group(1)
    return next((key for key in LISTENER_MECHANISM_CONFIGS if base.endswith(key)), base)


def _bound_key(default_key: str, bound: str) -> str:
    """group.consumer.session.timeout.ms -> group.consumer.min.session.timeout.ms (Kafka's naming)."""
    prefix, _, rest = default_key.partition(".")
    kind, _, tail = rest.partition(".")
    if default_key.endswith(".record.lock.duration.ms"):
        return f"{prefix}.{kind}.{bound}.record.lock.duration.ms"
    return f"{prefix}.{kind}.{bound}.{tail}"


# Group configs whose only bound is a broker key named otherwise.
_GROUP_UPPER_ONLY = {"streams.num.standby.replicas": "group.streams.max.standby.replicas"}


def _group_bounds() -> dict[str, tuple[str | None, str | None]]:
    out: dict[str, tuple[str | None, str | None]] = {}
    for key, definition in GROUP_CONFIGS.items():
        if key in _GROUP_UPPER_ONLY:
            out[key] = (None, _GROUP_UPPER_ONLY[key])
            continue
        if not definition.synonyms:
            continue
        low, high = (_bound_key(definition.synonyms[0], bound) for bound in ("min", "max"))
        if low in BROKER_CONFIGS and high in BROKER_CONFIGS:
            out[key] = (low, high)
    return out


# group config -> (broker key of its minimum or None, broker key of its maximum)
GROUP_BOUNDS: Mapping[str, tuple[str | None, str | None]] = _group_bounds()

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
