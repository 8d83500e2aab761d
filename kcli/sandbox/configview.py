"""Config resolution and alteration over the image, following Kafka's sources and synonyms.

Behavior:
- A topic key's value is its DYNAMIC_TOPIC_CONFIG, else the effective value of its broker synonym
  (this broker's dynamic value, the dynamic default, the static value, the default; for a setting in
  several units the first unit that has a value, converted to the topic's milliseconds).
- Synonyms are listed as Kafka's ConfigHelper does: the topic value, then every layer in turn
  (DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG), each
  over the broker synonym's unit set (log.retention.ms/minutes/hours, ...), and then the leading
  synonyms named otherwise are dropped: retention.ms at its default lists none (only
  log.retention.hours has a default). The entry's source is its first synonym's, else DEFAULT_CONFIG.
- A broker key's value is its own (null when only another unit is set); it is read-only unless it
  is dynamically updatable itself. The cluster-default resource ("") lists only its dynamic
  defaults. Sensitive values are never returned (null, is_sensitive).
- A group lists every group config: its own value (DYNAMIC_GROUP_CONFIG) or the broker's group.*
  default (DEFAULT_CONFIG). A client-metrics subscription lists only its set keys
  (DYNAMIC_CLIENT_METRICS_CONFIG), as Kafka does; neither needs to exist to be described.
- BROKER_LOGGER lists the answering node's logger levels (kcli.sandbox.loggers).
- Alterations are validated per key: unknown key or bad value -> INVALID_CONFIG; for a broker, a bad
  value or a key that is not dynamically updatable ("Cannot update these configs dynamically") ->
  INVALID_REQUEST, as Kafka answers; group timeouts outside the broker's group.*.min/max bounds ->
  INVALID_CONFIG.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kio.schema.errors import ErrorCode

from kcli.integers import java_long
from kcli.kafka import ConfigOp, ConfigResourceType, ConfigSource, ConfigType
from kcli.metadata import records as _records
from kcli.ops.config_model import ConfigSynonym
from kcli.sandbox.configdefs import (
    BROKER_CONFIGS,
    BROKER_SYNONYMS,
    CLIENT_MATCH_SELECTORS,
    GROUP_BROKER_KEYS,
    GROUP_CONFIGS,
    TOPIC_CONFIGS,
    UNIT_SCALE,
    ConfigDef,
    definitions,
)

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

if TYPE_CHECKING:
    from kcli.sandbox.cluster import Cluster


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One described config."""

    name: str
    value: str | None
    source: int
    read_only: bool
    sensitive: bool
    type: int
    doc: str
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

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _scaled(name: str, value: str | None) -> str | None:
    scale = UNIT_SCALE.get(name)
    if value is None or scale is None:
        return value
    try:
        return str(scale(int(value)))
    except ValueError:
        return value


def _layers(cluster: Cluster, node_id: int) -> tuple[tuple[dict[str, str], ConfigSource], ...]:
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


def _broker_synonyms(cluster: Cluster, node_id: int, name: str) -> list[ConfigSynonym]:
    """Every layer that holds `name`, most specific first."""
    layers = _layers(cluster, node_id)
    out = [
        ConfigSynonym(name=name, value=layer[name], source=source)
        for layer, source in layers
        if name in layer
    ]
    default = _default_of(name)
    if default is not None:
        out.append(ConfigSynonym(name=name, value=default, source=ConfigSource.DEFAULT_CONFIG))
    return out


def _listed_synonyms(cluster: Cluster, node_id: int, name: str) -> list[ConfigSynonym]:
    """The synonyms Kafka lists for broker key `name` (ConfigHelper.configSynonyms): layer by layer over
    the key's unit set, then without the leading synonyms of another name."""
    names = BROKER_SYNONYMS.get(name, (name,))
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


def _effective(cluster: Cluster, node_id: int, name: str) -> str | None:
    """A broker setting's value in the topic's unit: the first unit of its set that has a value."""
    for member in BROKER_SYNONYMS.get(name, (name,)):
        found = _broker_synonyms(cluster, node_id, member)
        if found:
            return _scaled(member, found[0].value)
    return None


def _entry(definition: ConfigDef, synonyms: list[ConfigSynonym], value: str | None, read_only: bool) -> Entry:
    """An entry whose source is its first synonym's (DEFAULT_CONFIG without synonyms)."""
    source = synonyms[0].source if synonyms else ConfigSource.DEFAULT_CONFIG
    sensitive = definition.sensitive or definition.type is ConfigType.PASSWORD
    if sensitive:
        value = None
        synonyms = [ConfigSynonym(name=s.name, value=None, source=s.source) for s in synonyms]
    return Entry(
        name=definition.name,
        value=value,
        source=int(source),
        read_only=read_only,
        sensitive=sensitive,
        type=int(definition.type),
        doc=definition.doc,
        synonyms=tuple(synonyms),
    )


def topic_entries(cluster: Cluster, node_id: int, dynamic: dict[str, str]) -> list[Entry]:
    """Every topic config of a topic whose dynamic configs are `dynamic`, as node `node_id` sees it."""
    return [topic_entry(cluster, node_id, definition, dynamic) for definition in TOPIC_CONFIGS.values()]


def topic_entry(cluster: Cluster, node_id: int, definition: ConfigDef, dynamic: dict[str, str]) -> Entry:
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


def broker_entry(cluster: Cluster, node_id: int, definition: ConfigDef) -> Entry:
    """One broker config as node `node_id` sees it."""
    own = _broker_synonyms(cluster, node_id, definition.name)
    value = own[0].value if own else None
    synonyms = _listed_synonyms(cluster, node_id, definition.name)
    return _entry(definition, synonyms, value, definition.read_only)


def broker_value(cluster: Cluster, node_id: int, key: str) -> str | None:
    """A broker key's effective value on node `node_id` (dynamic, static, else its default)."""
    synonyms = _broker_synonyms(cluster, node_id, key)
    return synonyms[0].value if synonyms else None


def _plain(name: str, value: str | None, source: ConfigSource, type_: int, doc: str | None) -> Entry:
    synonyms = (
        (ConfigSynonym(name=name, value=value, source=source),)
        if source != ConfigSource.DEFAULT_CONFIG
        else ()
    )
    return Entry(
        name=name,
        value=value,
        source=source,
        read_only=False,
        sensitive=False,
        type=type_,
        doc=doc or "",
        synonyms=synonyms,
    )


def group_entries(cluster: Cluster, node_id: int, group: str) -> list[Entry]:
    """Every config of a group: its own values, else the broker's group.* defaults."""
    dynamic = cluster.image.configs.get((ConfigResourceType.GROUP, group), {})
    out = []
    for key, definition in GROUP_CONFIGS.items():
        value: str | None
        if key in dynamic:
            value, source = dynamic[key], ConfigSource.DYNAMIC_GROUP_CONFIG
        else:
            broker_key = GROUP_BROKER_KEYS.get(key, ("group." + key,))[0]
            value = broker_value(cluster, node_id, broker_key) if broker_key in BROKER_CONFIGS else None
            value, source = (value if value is not None else definition.default), ConfigSource.DEFAULT_CONFIG
        out.append(_plain(key, value, source, int(definition.type), definition.doc))
    return out


def client_metrics_entries(cluster: Cluster, name: str) -> list[Entry]:
    """The set configs of a client-metrics subscription (Kafka lists no defaults for these)."""
    dynamic = cluster.image.configs.get((ConfigResourceType.CLIENT_METRICS, name), {})
    source = int(ConfigSource.DYNAMIC_CLIENT_METRICS_CONFIG)
    return [
        Entry(name=k, value=v, source=source, read_only=False, sensitive=False, type=0, doc="", synonyms=())
        for k, v in sorted(dynamic.items())
    ]


def logger_entries(levels: dict[str, str]) -> list[Entry]:
    """A node's loggers and levels as BROKER_LOGGER entries."""
    source = int(ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG)
    return [
        Entry(name=k, value=v, source=source, read_only=False, sensitive=False, type=0, doc="", synonyms=())
        for k, v in sorted(levels.items())
    ]


def describe(cluster: Cluster, resource_type: int, name: str, node_id: int) -> list[Entry]:
    """Every config of a resource as node `node_id` sees it (ConfigProblem when it does not exist)."""
    image = cluster.image
    if resource_type == ConfigResourceType.TOPIC:
        if image.topic(name) is None:
            raise ConfigProblem(ErrorCode.unknown_topic_or_partition, f"Topic {name} does not exist.")
        return topic_entries(cluster, node_id, image.configs.get((ConfigResourceType.TOPIC, name), {}))
    if resource_type == ConfigResourceType.BROKER:
        if name == "":
            defaults = image.configs.get((ConfigResourceType.BROKER, ""), {})
            return [
                _entry(
                    BROKER_CONFIGS[key],
                    [ConfigSynonym(name=key, value=value, source=ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)],
                    value,
                    read_only=BROKER_CONFIGS[key].read_only,
                )
                for key, value in sorted(defaults.items())
                if key in BROKER_CONFIGS
            ]
        if name != str(node_id):
            raise ConfigProblem(
                ErrorCode.invalid_request,
                f"Unexpected broker id, expected {node_id} or empty string, but received {name}",
            )
        return [broker_entry(cluster, node_id, definition) for definition in BROKER_CONFIGS.values()]
    if resource_type == ConfigResourceType.BROKER_LOGGER:
        if not name:
            raise ConfigProblem(ErrorCode.invalid_request, "Broker id must not be empty")
        if name != str(node_id):
            raise ConfigProblem(
                ErrorCode.invalid_request, f"Unexpected broker id, expected {node_id}, but received {name}"
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


_definitions = definitions
_KIND: dict[int, str] = {
    ConfigResourceType.TOPIC: "topic",
    ConfigResourceType.BROKER: "broker",
    ConfigResourceType.GROUP: "group",
    ConfigResourceType.CLIENT_METRICS: "client metrics",
}


def check_resource(cluster: Cluster, resource_type: int, name: str) -> None:
    """That an altered resource exists (ConfigProblem otherwise)."""
    if resource_type == ConfigResourceType.TOPIC:
        if cluster.image.topic(name) is None:
            raise ConfigProblem(ErrorCode.unknown_topic_or_partition, f"Topic {name} does not exist.")
    elif resource_type == ConfigResourceType.BROKER:
        if name and (not name.isdigit() or java_long(name) not in cluster.nodes):
            raise ConfigProblem(ErrorCode.invalid_request, f"Unknown broker id {name}")
    elif resource_type == ConfigResourceType.GROUP:
        if not name:
            raise ConfigProblem(ErrorCode.invalid_request, "Group name must not be empty")
    elif resource_type == ConfigResourceType.CLIENT_METRICS:
        if not name:
            raise ConfigProblem(
                ErrorCode.invalid_request, "Client metrics subscription name must not be empty"
            )
    else:
        raise ConfigProblem(
            ErrorCode.invalid_request, f"Unsupported resource type {resource_type} for alteration"
        )


def validate_value(resource_type: int, key: str, value: str | None) -> None:
    """One key=value against the definitions (ConfigProblem when rejected)."""
    definitions = _definitions(resource_type)
    definition = definitions.get(key)
    if definition is None:
        kind = _KIND.get(resource_type, "broker")
        raise ConfigProblem(ErrorCode.invalid_config, f"Unknown {kind} config name: {key}")
    # A broker change that fails validation is INVALID_REQUEST in Kafka (ConfigAdminManager, KAFKA-13609).
    refused = (
        ErrorCode.invalid_request if resource_type == ConfigResourceType.BROKER else ErrorCode.invalid_config
    )
    if resource_type == ConfigResourceType.BROKER and definition.read_only:
        raise ConfigProblem(refused, f"Cannot update these configs dynamically: Set({key})")
    if value is not None:
        message = definition.validate(value)
        if message:
            raise ConfigProblem(refused, message)
        if resource_type == ConfigResourceType.CLIENT_METRICS and key == "match":
            _check_match(value)


def _check_match(value: str) -> None:
    """Client-metrics `match` entries are selector=regex with a known selector (ClientMetricsConfigs)."""
    import re

    for item in (part.strip() for part in value.split(",") if part.strip()):
        selector, eq, pattern = item.partition("=")
        if not eq or selector.strip() not in CLIENT_MATCH_SELECTORS:
            raise ConfigProblem(ErrorCode.invalid_config, f"Illegal client matching pattern: {item}")
        try:
            re.compile(pattern.strip())
        except re.error:
            raise ConfigProblem(
                ErrorCode.invalid_config, f"Illegal regex pattern: {pattern.strip()}"
            ) from None


def check_group_bounds(cluster: Cluster, values: dict[str, str]) -> None:
    """Group timeouts within the broker's group.*.min/max settings (GroupConfig.validate)."""
    node_id = min((n for n, node in cluster.nodes.items() if node.is_broker), default=-1)
    for key, (_, low_key, high_key) in GROUP_BROKER_KEYS.items():
        if key not in values:
            continue
        number = int(values[key])
        low, high = broker_value(cluster, node_id, low_key), broker_value(cluster, node_id, high_key)
        if low is not None and number < int(low):
            raise ConfigProblem(ErrorCode.invalid_config, f"{key} must be greater than or equal to {low_key}")
        if high is not None and number > int(high):
            raise ConfigProblem(ErrorCode.invalid_config, f"{key} must be less than or equal to {high_key}")


def incremental_records(
    cluster: Cluster, resource_type: int, name: str, ops: Sequence[tuple[str, int, str | None]]
) -> list[Any]:
    """ConfigRecords for IncrementalAlterConfigs operations (key, op, value) on one resource."""
    check_resource(cluster, resource_type, name)
    current = dict(cluster.image.configs.get((resource_type, name), {}))
    seen: set[str] = set()
    for key, op, value in ops:
        if key in seen:
            raise ConfigProblem(ErrorCode.invalid_request, f"Error due to duplicate config keys: {key}")
        seen.add(key)
        if op not in (ConfigOp.SET, ConfigOp.DELETE, ConfigOp.APPEND, ConfigOp.SUBTRACT):
            raise ConfigProblem(ErrorCode.invalid_request, f"Unknown alter configs operation {op}")
        definition = _definitions(resource_type).get(key)
        if op in (ConfigOp.APPEND, ConfigOp.SUBTRACT):
            validate_value(resource_type, key, None)
            assert definition is not None
            if definition.type is not ConfigType.LIST:
                verb = "append" if op == ConfigOp.APPEND else "subtract"
                raise ConfigProblem(
                    ErrorCode.invalid_config, f"Config value {verb} is not allowed for config key: {key}"
                )
            base = current.get(key, definition.default or "")
            items = [item for item in base.split(",") if item]
            added = [item.strip() for item in (value or "").split(",") if item.strip()]
            if op == ConfigOp.APPEND:
                items += [item for item in added if item not in items]
            else:
                items = [item for item in items if item not in added]
            value = ",".join(items)
            validate_value(resource_type, key, value)
            current[key] = value
        elif op == ConfigOp.SET:
            if value is None:
                raise ConfigProblem(ErrorCode.invalid_request, f"Null value not supported for: {key}")
            validate_value(resource_type, key, value)
            current[key] = value
        else:
            validate_value(resource_type, key, None)
            current.pop(key, None)
    if resource_type == ConfigResourceType.GROUP:
        check_group_bounds(cluster, current)
    before = cluster.image.configs.get((resource_type, name), {})
    return _diff(resource_type, name, before, current)


def replace_records(
    cluster: Cluster, resource_type: int, name: str, values: dict[str, str | None]
) -> list[Any]:
    """ConfigRecords for legacy AlterConfigs: the given set replaces every dynamic key."""
    check_resource(cluster, resource_type, name)
    for key, value in values.items():
        validate_value(resource_type, key, value)
    wanted = {k: v for k, v in values.items() if v is not None}
    if resource_type == ConfigResourceType.GROUP:
        check_group_bounds(cluster, wanted)
    before = cluster.image.configs.get((resource_type, name), {})
    return _diff(resource_type, name, before, wanted)


def _diff(resource_type: int, name: str, before: dict[str, str], after: dict[str, str]) -> list[Any]:
    out: list[Any] = []
    for key, value in after.items():
        if before.get(key) != value:
            out.append(R.ConfigRecord(resource_type=resource_type, resource_name=name, name=key, value=value))
    for key in before:
        if key not in after:
            out.append(R.ConfigRecord(resource_type=resource_type, resource_name=name, name=key, value=None))
    return out
