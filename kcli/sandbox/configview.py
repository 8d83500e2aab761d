"""Config resolution and alteration over the image, following Kafka's sources and synonyms.

Behavior:
- A topic key resolves, most specific first: DYNAMIC_TOPIC_CONFIG, then its broker synonyms as
  DYNAMIC_BROKER_CONFIG (this broker), DYNAMIC_DEFAULT_BROKER_CONFIG, STATIC_BROKER_CONFIG and
  DEFAULT_CONFIG (values of hour/minute synonyms are converted to the topic's milliseconds).
- A broker key resolves the same way without the topic level; the cluster-default resource ("")
  lists only its dynamic defaults. Sensitive values are never returned (null, is_sensitive).
- Alterations are validated per key: unknown key or bad value -> INVALID_CONFIG; a broker key that
  is not dynamically updatable -> INVALID_CONFIG ("Cannot update these configs dynamically").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.metadata import records as _records
from kcli.sandbox.configdefs import (
    BROKER,
    BROKER_CONFIGS,
    TOPIC,
    TOPIC_CONFIGS,
    UNIT_SCALE,
    ConfigDef,
    ConfigSource,
    ConfigType,
)

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

if TYPE_CHECKING:
    from kcli.sandbox.cluster import Cluster

INVALID_CONFIG, INVALID_REQUEST, UNKNOWN_TOPIC_OR_PARTITION = 40, 42, 3
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Synonym:
    name: str
    value: str | None
    source: int


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
    synonyms: tuple[Synonym, ...]


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


def _broker_synonyms(cluster: Cluster, node_id: int, name: str) -> list[Synonym]:
    image = cluster.image
    out: list[Synonym] = []
    per_broker = image.configs.get((BROKER, str(node_id)), {})
    default = image.configs.get((BROKER, ""), {})
    static = cluster.broker_config(node_id)
    if name in per_broker:
        out.append(Synonym(name=name, value=per_broker[name], source=ConfigSource.DYNAMIC_BROKER_CONFIG))
    if name in default:
        out.append(Synonym(name=name, value=default[name], source=ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG))
    if name in static:
        out.append(Synonym(name=name, value=static[name], source=ConfigSource.STATIC_BROKER_CONFIG))
    definition = BROKER_CONFIGS.get(name)
    if definition is not None and definition.default is not None:
        out.append(Synonym(name=name, value=definition.default, source=ConfigSource.DEFAULT_CONFIG))
    return out


def _entry(definition: ConfigDef, synonyms: list[Synonym], fallback: str | None, read_only: bool) -> Entry:
    if synonyms:
        value, source = _scaled(synonyms[0].name, synonyms[0].value), synonyms[0].source
    else:
        value, source = fallback, ConfigSource.DEFAULT_CONFIG
    sensitive = definition.sensitive or definition.type is ConfigType.PASSWORD
    if sensitive:
        value = None
        synonyms = [Synonym(name=s.name, value=None, source=s.source) for s in synonyms]
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
    synonyms: list[Synonym] = []
    if definition.name in dynamic:
        synonyms.append(
            Synonym(
                name=definition.name, value=dynamic[definition.name], source=ConfigSource.DYNAMIC_TOPIC_CONFIG
            )
        )
    for broker_key in definition.synonyms:
        synonyms.extend(_broker_synonyms(cluster, node_id, broker_key))
    return _entry(definition, synonyms, definition.default, read_only=False)


def describe(cluster: Cluster, resource_type: int, name: str, node_id: int) -> list[Entry]:
    """Every config of a resource as node `node_id` sees it (ConfigProblem when it does not exist)."""
    image = cluster.image
    if resource_type == TOPIC:
        if image.topic(name) is None:
            raise ConfigProblem(UNKNOWN_TOPIC_OR_PARTITION, f"Topic {name} does not exist.")
        return topic_entries(cluster, node_id, image.configs.get((TOPIC, name), {}))
    if resource_type == BROKER:
        if name == "":
            defaults = image.configs.get((BROKER, ""), {})
            return [
                _entry(
                    BROKER_CONFIGS[key],
                    [Synonym(name=key, value=value, source=ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)],
                    value,
                    read_only=False,
                )
                for key, value in sorted(defaults.items())
                if key in BROKER_CONFIGS
            ]
        if name != str(node_id):
            raise ConfigProblem(
                INVALID_REQUEST,
                f"Unexpected broker id, expected {node_id} or empty string, but received {name}",
            )
        return [
            _entry(
                definition, _broker_synonyms(cluster, node_id, key), definition.default, definition.read_only
            )
            for key, definition in BROKER_CONFIGS.items()
        ]
    if resource_type == 8:  # BROKER_LOGGER
        if name != str(node_id):
            raise ConfigProblem(
                INVALID_REQUEST, f"Unexpected broker id, expected {node_id}, but received {name}"
            )
        return []
    raise ConfigProblem(INVALID_REQUEST, f"Unsupported resource type {resource_type}")


def _definitions(resource_type: int) -> dict[str, ConfigDef]:
    return TOPIC_CONFIGS if resource_type == TOPIC else BROKER_CONFIGS


def check_resource(cluster: Cluster, resource_type: int, name: str) -> None:
    """That an altered resource exists (ConfigProblem otherwise)."""
    if resource_type == TOPIC:
        if cluster.image.topic(name) is None:
            raise ConfigProblem(UNKNOWN_TOPIC_OR_PARTITION, f"Topic {name} does not exist.")
    elif resource_type == BROKER:
        if name and (not name.isdigit() or int(name) not in cluster.nodes):
            raise ConfigProblem(INVALID_REQUEST, f"Unknown broker id {name}")
    else:
        raise ConfigProblem(INVALID_REQUEST, f"Unsupported resource type {resource_type} for alteration")


def validate_value(resource_type: int, key: str, value: str | None) -> None:
    """One key=value against the definitions (ConfigProblem when rejected)."""
    definitions = _definitions(resource_type)
    definition = definitions.get(key)
    if definition is None:
        kind = "topic" if resource_type == TOPIC else "broker"
        raise ConfigProblem(INVALID_CONFIG, f"Unknown {kind} config name: {key}")
    if resource_type == BROKER and definition.read_only:
        raise ConfigProblem(INVALID_CONFIG, f"Cannot update these configs dynamically: Set({key})")
    if value is not None:
        message = definition.validate(value)
        if message:
            raise ConfigProblem(INVALID_CONFIG, message)


def incremental_records(
    cluster: Cluster, resource_type: int, name: str, ops: Sequence[tuple[str, int, str | None]]
) -> list[Any]:
    """ConfigRecords for IncrementalAlterConfigs operations (key, op, value) on one resource."""
    check_resource(cluster, resource_type, name)
    current = dict(cluster.image.configs.get((resource_type, name), {}))
    seen: set[str] = set()
    for key, op, value in ops:
        if key in seen:
            raise ConfigProblem(INVALID_REQUEST, f"Error due to duplicate config keys: {key}")
        seen.add(key)
        if op not in (SET, DELETE, APPEND, SUBTRACT):
            raise ConfigProblem(INVALID_REQUEST, f"Unknown alter configs operation {op}")
        definition = _definitions(resource_type).get(key)
        if op in (APPEND, SUBTRACT):
            validate_value(resource_type, key, None)
            assert definition is not None
            if definition.type is not ConfigType.LIST:
                verb = "append" if op == APPEND else "subtract"
                raise ConfigProblem(
                    INVALID_CONFIG, f"Config value {verb} is not allowed for config key: {key}"
                )
            base = current.get(key, definition.default or "")
            items = [item for item in base.split(",") if item]
            added = [item.strip() for item in (value or "").split(",") if item.strip()]
            if op == APPEND:
                items += [item for item in added if item not in items]
            else:
                items = [item for item in items if item not in added]
            value = ",".join(items)
            validate_value(resource_type, key, value)
            current[key] = value
        elif op == SET:
            if value is None:
                raise ConfigProblem(INVALID_REQUEST, f"Null value not supported for: {key}")
            validate_value(resource_type, key, value)
            current[key] = value
        else:
            validate_value(resource_type, key, None)
            current.pop(key, None)
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
