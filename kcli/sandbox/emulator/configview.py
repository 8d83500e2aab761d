"""Config resolution over the image for DescribeConfigs (and CreateTopics' answer), following Kafka's
sources and synonyms. Alterations are kcli.sandbox.emulator.configalter.

Behavior:
- A topic key's value is its DYNAMIC_TOPIC_CONFIG, else the effective value of its broker synonym
  (this broker's dynamic value, the dynamic default, the static value, the default; for a setting in
  several units the first unit that has a value, converted to the topic's milliseconds).
- Synonyms are listed as Kafka's ConfigHelper does: the topic value, then every layer in turn
  (DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG), each
  over the broker synonym's unit set (log.retention.ms/minutes/hours, ...), and then the leading
  synonyms named otherwise are dropped: retention.ms at its default lists none (only
  log.retention.hours has a default). The entry's source is its first synonym's, else DEFAULT_CONFIG.
- A broker resource lists every catalogue key (its own value; null when only another unit is set;
  read-only unless Kafka updates it dynamically), then every other key a layer holds: a
  `listener.name.<l>.<key>` override is typed as its key, read-only, with the key as synonym; any
  other key Kafka does not define (a custom key, `super.users`) is UNKNOWN, sensitive and read-only.
  Neither has documentation (null), nor have the keys Kafka lists only once set (the replication
  quotas). The cluster-default resource ("") lists only its dynamic defaults.
  Sensitive values are never returned (null, is_sensitive).
- A group lists every group config: its own value (DYNAMIC_GROUP_CONFIG) or the broker's group.*
  setting (DEFAULT_CONFIG), with the broker key as a synonym. A client-metrics subscription lists
  every key: its own value (DYNAMIC_CLIENT_METRICS_CONFIG) or the default. Neither needs to exist.
- BROKER_LOGGER lists the answering node's logger levels (kcli.sandbox.emulator.loggers).
- Messages are Kafka 4.4's: a described resource without error carries "" (not null), an unknown
  topic too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ConfigResourceType, ConfigSource, ConfigType
from kcli.ops.config_model import ConfigSynonym
from kcli.sandbox.emulator.configdefs import (
    BROKER_CONFIGS,
    BROKER_SYNONYMS,
    CLIENT_METRICS_CONFIGS,
    GROUP_CONFIGS,
    TOPIC_CONFIGS,
    UNIT_SCALE,
    ConfigDef,
    listener_base,
)

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One described config."""

    name: str
    value: str | None
    source: int
    read_only: bool
    sensitive: bool
    type: int
    doc: str | None
    synonyms: tuple[ConfigSynonym, ...]

    @property
    def wire_fields(self) -> dict[str, Any]:
        """The fields every config struct of the protocol has (DescribeConfigs, CreateTopics), by their names."""
        return {
            "name": self.name,
            "value": self.value,
            "read_only": self.read_only,
            "config_source": self.source,
            "is_sensitive": self.sensitive,
        }


class ConfigProblem(Exception):
    """A rejected config change or lookup: Kafka error code and message."""

    def __init__(self, code: int, message: str | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _scaled(name: str, value: str | None) -> str | None:
    scale = UNIT_SCALE.get(name)
    if value is None or scale is None:
        return value
    try:
        return str(int(value) * scale)
    except ValueError:
        return value


def _layers(cluster: ClusterView, node_id: int) -> tuple[tuple[dict[str, str], ConfigSource], ...]:
    """The broker-level config layers of node `node_id`, most specific first (without the defaults)."""
    image = cluster.image
    return (
        (
            image.configs.get((ConfigResourceType.BROKER, str(node_id)), {}),
            ConfigSource.DYNAMIC_BROKER_CONFIG,
        ),
        (image.configs.get((ConfigResourceType.BROKER, ""), {}), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
        (cluster.broker_config(node_id), ConfigSource.STATIC_BROKER_CONFIG),
    )


def _default_of(name: str) -> str | None:
    definition = BROKER_CONFIGS.get(name)
    return definition.default if definition is not None else None


def _broker_synonyms(cluster: ClusterView, node_id: int, name: str) -> list[ConfigSynonym]:
    """Every layer that holds `name`, most specific first."""
    out = [
        ConfigSynonym(name=name, value=layer[name], source=source)
        for layer, source in _layers(cluster, node_id)
        if name in layer
    ]
    default = _default_of(name)
    if default is not None:
        out.append(ConfigSynonym(name=name, value=default, source=ConfigSource.DEFAULT_CONFIG))
    return out


def _listed_synonyms(
    cluster: ClusterView, node_id: int, name: str, names: tuple[str, ...] | None = None
) -> list[ConfigSynonym]:
    """The synonyms Kafka lists for broker key `name` (ConfigHelper.configSynonyms): layer by layer over
    the key's synonym names, then without the leading synonyms of another name."""
    names = names or BROKER_SYNONYMS.get(name, (name,))
    out = [
        ConfigSynonym(name=n, value=layer[n], source=source)
        for layer, source in _layers(cluster, node_id)
        for n in names
        if n in layer
    ]
    out += [
        ConfigSynonym(name=n, value=default, source=ConfigSource.DEFAULT_CONFIG)
        for n in names
        if (default := _default_of(n)) is not None
    ]
    while out and out[0].name != name:
        out.pop(0)
    return out


def _effective(cluster: ClusterView, node_id: int, name: str) -> str | None:
    """A broker setting's value in the topic's unit: the first unit of its set that has a value."""
    for member in BROKER_SYNONYMS.get(name, (name,)):
        found = _broker_synonyms(cluster, node_id, member)
        if found:
            return _scaled(member, found[0].value)
    return None


def _hidden(synonyms: list[ConfigSynonym]) -> list[ConfigSynonym]:
    return [ConfigSynonym(name=s.name, value=None, source=s.source) for s in synonyms]


def _entry(definition: ConfigDef, synonyms: list[ConfigSynonym], value: str | None, read_only: bool) -> Entry:
    """An entry whose source is its first synonym's (DEFAULT_CONFIG without synonyms)."""
    source = synonyms[0].source if synonyms else ConfigSource.DEFAULT_CONFIG
    if definition.secret:
        value, synonyms = None, _hidden(synonyms)
    return Entry(
        name=definition.name,
        value=value,
        source=int(source),
        read_only=read_only,
        sensitive=definition.secret,
        type=int(definition.type),
        doc=None if definition.unlisted else definition.doc,
        synonyms=tuple(synonyms),
    )


def topic_entries(cluster: ClusterView, node_id: int, dynamic: dict[str, str]) -> list[Entry]:
    """Every topic config of a topic whose dynamic configs are `dynamic`, as node `node_id` sees it."""
    return [topic_entry(cluster, node_id, definition, dynamic) for definition in TOPIC_CONFIGS.values()]


def topic_entry(cluster: ClusterView, node_id: int, definition: ConfigDef, dynamic: dict[str, str]) -> Entry:
    """One topic config of a topic whose dynamic configs are `dynamic`."""
    broker_key = definition.synonyms[0] if definition.synonyms else None
    synonyms = _listed_synonyms(cluster, node_id, broker_key) if broker_key else []
    value = _effective(cluster, node_id, broker_key) if broker_key else None
    if definition.name in dynamic:
        value = dynamic[definition.name]
        synonyms.insert(
            0, ConfigSynonym(name=definition.name, value=value, source=ConfigSource.DYNAMIC_TOPIC_CONFIG)
        )
    return _entry(definition, synonyms, definition.default if value is None else value, read_only=False)


def broker_entry(cluster: ClusterView, node_id: int, definition: ConfigDef) -> Entry:
    """One broker config as node `node_id` sees it."""
    own = _broker_synonyms(cluster, node_id, definition.name)
    value = own[0].value if own else None
    synonyms = _listed_synonyms(cluster, node_id, definition.name)
    return _entry(definition, synonyms, value, definition.read_only)


def other_entry(cluster: ClusterView, node_id: int, name: str) -> Entry:
    """A key a layer holds that the catalogue does not define: a listener override or a custom key."""
    base = listener_base(name)
    definition = BROKER_CONFIGS.get(base) if base is not None else None
    if definition is not None:
        synonyms = _listed_synonyms(cluster, node_id, name, (name, definition.name))
        value = synonyms[0].value if synonyms and synonyms[0].name == name else None
        sensitive, kind = definition.secret, int(definition.type)
    else:
        synonyms = _broker_synonyms(cluster, node_id, name)
        value = synonyms[0].value if synonyms else None
        sensitive, kind = True, int(ConfigType.UNKNOWN)  # Kafka cannot tell: it assumes a secret
    if sensitive:
        value, synonyms = None, _hidden(synonyms)
    source = synonyms[0].source if synonyms else ConfigSource.DEFAULT_CONFIG
    return Entry(
        name=name,
        value=value,
        source=int(source),
        read_only=True,
        sensitive=sensitive,
        type=kind,
        doc=None,
        synonyms=tuple(synonyms),
    )


def broker_entries(cluster: ClusterView, node_id: int) -> list[Entry]:
    """Every config of broker (or controller) `node_id`: the catalogue's, then the other keys it holds."""
    held = {name for layer, _ in _layers(cluster, node_id) for name in layer}
    entries = [
        broker_entry(cluster, node_id, definition)
        for name, definition in BROKER_CONFIGS.items()
        if not definition.unlisted or name in held
    ]
    entries += [other_entry(cluster, node_id, name) for name in sorted(held - BROKER_CONFIGS.keys())]
    return entries


def default_broker_entries(cluster: ClusterView) -> list[Entry]:
    """The cluster-wide dynamic defaults (resource "")."""
    source = ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
    out = []
    for name, value in sorted(cluster.image.configs.get((ConfigResourceType.BROKER, ""), {}).items()):
        synonyms = [ConfigSynonym(name=name, value=value, source=source)]
        definition = BROKER_CONFIGS.get(name)
        if definition is not None:
            out.append(_entry(definition, synonyms, value, read_only=definition.read_only))
            continue
        base = listener_base(name)
        base_definition = BROKER_CONFIGS.get(base) if base is not None else None
        sensitive = base_definition.secret if base_definition is not None else True
        out.append(
            Entry(
                name=name,
                value=None if sensitive else value,
                source=int(source),
                read_only=True,
                sensitive=sensitive,
                type=int(base_definition.type) if base_definition is not None else int(ConfigType.UNKNOWN),
                doc=None,
                synonyms=tuple(_hidden(synonyms) if sensitive else synonyms),
            )
        )
    return out


def broker_value(cluster: ClusterView, node_id: int, key: str) -> str | None:
    """A broker key's effective value on node `node_id` (dynamic, static, else its default)."""
    synonyms = _broker_synonyms(cluster, node_id, key)
    return synonyms[0].value if synonyms else None


def _plain(
    definition: ConfigDef, value: str | None, source: ConfigSource, synonyms: list[ConfigSynonym]
) -> Entry:
    return Entry(
        name=definition.name,
        value=value,
        source=int(source),
        read_only=False,
        sensitive=False,
        type=int(definition.type),
        doc=definition.doc,
        synonyms=tuple(synonyms),
    )


def group_entries(cluster: ClusterView, node_id: int, group: str) -> list[Entry]:
    """Every config of a group: its own values, else the broker's group.* settings."""
    dynamic = cluster.image.configs.get((ConfigResourceType.GROUP, group), {})
    out = []
    for key, definition in GROUP_CONFIGS.items():
        synonyms = []
        fallback = definition.default
        for broker_key in definition.synonyms[:1]:
            found = broker_value(cluster, node_id, broker_key)
            fallback = found if found is not None else fallback
            synonyms.append(
                ConfigSynonym(name=broker_key, value=fallback, source=ConfigSource.DEFAULT_CONFIG)
            )
        if key in dynamic:
            own = ConfigSynonym(name=key, value=dynamic[key], source=ConfigSource.DYNAMIC_GROUP_CONFIG)
            out.append(_plain(definition, dynamic[key], ConfigSource.DYNAMIC_GROUP_CONFIG, [own, *synonyms]))
        else:
            out.append(_plain(definition, fallback, ConfigSource.DEFAULT_CONFIG, synonyms))
    return out


def client_metrics_entries(cluster: ClusterView, name: str) -> list[Entry]:
    """Every config of a client-metrics subscription: its own values, else the defaults."""
    dynamic = cluster.image.configs.get((ConfigResourceType.CLIENT_METRICS, name), {})
    out = []
    for key, definition in CLIENT_METRICS_CONFIGS.items():
        if key in dynamic:
            source = ConfigSource.DYNAMIC_CLIENT_METRICS_CONFIG
            own = ConfigSynonym(name=key, value=dynamic[key], source=source)
            out.append(_plain(definition, dynamic[key], source, [own]))
        else:
            out.append(_plain(definition, definition.default, ConfigSource.DEFAULT_CONFIG, []))
    return out


def logger_entries(levels: dict[str, str]) -> list[Entry]:
    """A node's loggers and levels as BROKER_LOGGER entries."""
    source = int(ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG)
    return [
        Entry(name=k, value=v, source=source, read_only=False, sensitive=False, type=0, doc="", synonyms=())
        for k, v in sorted(levels.items())
    ]


def node_id_of(name: str) -> int | None:
    """A resource name as Java's Integer.parseInt reads a node id (None: not an int)."""
    from kcli.integers import java_long

    number = java_long(name)
    return number if number is not None and -(2**31) <= number < 2**31 else None


def _node_name(node_id: int, name: str) -> None:
    """A broker resource names the answering node (or "" for the cluster-wide defaults)."""
    named = node_id_of(name)
    if named is None:
        raise ConfigProblem(ErrorCode.invalid_request, f"Broker id must be an integer, but it is: {name}")
    if named != node_id:
        raise ConfigProblem(
            ErrorCode.invalid_request,
            f"Unexpected broker id, expected {node_id} or empty string, but received {name}",
        )


def describe(cluster: ClusterView, resource_type: int, name: str, node_id: int) -> list[Entry]:
    """Every config of a resource as node `node_id` sees it (ConfigProblem when it does not exist)."""
    image = cluster.image
    if resource_type == ConfigResourceType.TOPIC:
        if image.topic(name) is None:
            raise ConfigProblem(ErrorCode.unknown_topic_or_partition, "")
        return topic_entries(cluster, node_id, image.configs.get((ConfigResourceType.TOPIC, name), {}))
    if resource_type == ConfigResourceType.BROKER:
        if name == "":
            return default_broker_entries(cluster)
        _node_name(node_id, name)
        return broker_entries(cluster, node_id)
    if resource_type == ConfigResourceType.BROKER_LOGGER:
        if not name:
            raise ConfigProblem(ErrorCode.invalid_request, "Broker id must not be empty")
        if name != str(node_id):
            raise ConfigProblem(
                ErrorCode.invalid_request, f"Unexpected broker id, expected {node_id} but received {name}"
            )
        return logger_entries(cluster.nodes[node_id].log_levels)
    if resource_type == ConfigResourceType.GROUP:
        if not name:
            raise ConfigProblem(ErrorCode.invalid_request, "Group name must not be empty")
        return group_entries(cluster, node_id, name)
    if resource_type == ConfigResourceType.CLIENT_METRICS:
        if not name:
            raise ConfigProblem(
                ErrorCode.invalid_request, "Client metrics subscription name must not be empty"
            )
        return client_metrics_entries(cluster, name)
    raise ConfigProblem(ErrorCode.invalid_request, f"Unsupported resource type {resource_type}")
