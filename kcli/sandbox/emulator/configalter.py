"""Config alterations as Kafka 4.4 checks them: first on the broker that receives the request
(ConfigAdminManager.preprocess, for broker resources), then on the controller
(ConfigurationControlManager and its validator), which turns a valid change into ConfigRecords.

Behavior, on the receiving broker (IncrementalAlterConfigs and AlterConfigs):
- A resource named twice -> INVALID_REQUEST "Each resource must appear at most once." for both;
  a key named twice -> "Error due to duplicate config keys"; a null value other than a DELETE ->
  "Null value not supported for : k".
- A broker resource names this broker ("" for the cluster defaults). The broker applies the
  operations to the resource's dynamic configs and checks the result as DynamicBrokerConfig does,
  in its order: keys Kafka only reads at start-up ("Cannot update these configs dynamically"),
  SSL keys without a `listener.name.<l>.` prefix ("...only per-listener using the listener
  prefix"), each value by its key's type and bounds (a listener override by its key's), a thread
  pool resized beyond half or double its size, and for the cluster defaults the per-broker keys
  ("Cannot update these configs at default cluster level, broker id must be specified"). Keys Kafka
  does not define are accepted (custom keys). Every refusal is INVALID_REQUEST (KAFKA-13609) but
  APPEND/SUBTRACT of a non-list key (INVALID_CONFIG).
- Topic, group and client-metrics resources go to the controller unchecked.

Behavior, on the controller (directly or forwarded):
- Operations apply to the resource's dynamic configs; APPEND/SUBTRACT of a non-list topic or group
  key -> INVALID_CONFIG "Can't APPEND to key k because its type is not LIST."; an unknown
  operation -> UNKNOWN_SERVER_ERROR.
- With eligible.leader.replicas.version >= 1 a broker's own min.insync.replicas and the removal of
  the cluster's are refused (INVALID_CONFIG); values above 32767 characters are refused.
- Topic keys must be known ("Unknown topic config name: k") and valid for their type, bounds and
  Kafka's own rules (throttled replica lists, gzip levels, no remote storage here); group keys
  likewise and within the broker's group.*.min/max bounds; client-metrics keys must be known and
  their interval within 100 ms..1 hour (INVALID_REQUEST) and match patterns valid (INVALID_CONFIG).
  Broker values are not checked again (Kafka's controller does not: that is the broker's part).
- The resource must exist: "The topic 't' does not exist." (UNKNOWN_TOPIC_OR_PARTITION), "No node
  with id N found." (BROKER_ID_NOT_REGISTERED).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ConfigOp, ConfigResourceType, ConfigType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.configdefs import (
    BROKER_CONFIGS,
    CLIENT_MATCH_SELECTORS,
    CLUSTER_LEVEL_LISTENER_CONFIGS,
    GROUP_BOUNDS,
    UpdateMode,
    definitions,
    listener_base,
)
from kcli.sandbox.emulator.configview import ConfigProblem, broker_value, node_id_of

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

Op = tuple[str, int, str | None]  # (key, operation, value)

ELIGIBLE_LEADER_REPLICAS = "eligible.leader.replicas.version"
MIN_INSYNC_REPLICAS = "min.insync.replicas"
MAX_VALUE_SIZE = 32767
_OPS = (ConfigOp.SET, ConfigOp.DELETE, ConfigOp.APPEND, ConfigOp.SUBTRACT)


def _java_set(names: Sequence[str]) -> str:
    return "[" + ", ".join(sorted(names)) + "]"


# ---- the receiving broker -----------------------------------------------------------------------


def duplicate_resources(resources: Sequence[Any]) -> set[int]:
    """The ids of the resources a request names more than once (each gets INVALID_REQUEST)."""
    seen: dict[tuple[int, str], list[Any]] = {}
    for resource in resources:
        seen.setdefault((int(resource.resource_type), resource.resource_name), []).append(resource)
    return {id(r) for group in seen.values() if len(group) > 1 for r in group}


def check_keys(ops: Sequence[Op], *, legacy: bool = False) -> None:
    """Duplicate keys and null values, which the receiving broker refuses for every resource type."""
    names = [key for key, _, _ in ops]
    if len(set(names)) != len(names):
        raise ConfigProblem(ErrorCode.invalid_request, "Error due to duplicate config keys")
    nulls = [key for key, op, value in ops if value is None and (legacy or op != ConfigOp.DELETE)]
    if nulls:
        raise ConfigProblem(ErrorCode.invalid_request, "Null value not supported for : " + ", ".join(nulls))


def preprocess(
    cluster: ClusterView, node_id: int, resource_type: int, name: str, ops: Sequence[Op], *, legacy: bool = False
) -> None:
    """What the broker that receives an alteration checks before forwarding it (ConfigProblem if refused)."""
    check_keys(ops, legacy=legacy)
    if resource_type == ConfigResourceType.BROKER:
        if name:
            named = node_id_of(name)
            if named is None:
                raise ConfigProblem(
                    ErrorCode.invalid_request, f"Node id must be an integer, but it is: {name}"
                )
            if named != node_id:
                raise ConfigProblem(
                    ErrorCode.invalid_request,
                    f"Unexpected broker id, expected {node_id}, but received {name}",
                )
        props = {key: value or "" for key, _, value in ops} if legacy else _broker_props(cluster, name, ops)
        validate_broker_props(cluster, node_id, props, per_broker=bool(name))
    elif resource_type not in (
        ConfigResourceType.TOPIC,
        ConfigResourceType.GROUP,
        ConfigResourceType.CLIENT_METRICS,
    ):
        raise ConfigProblem(ErrorCode.invalid_request, f"Unknown resource type {resource_type}")


def _broker_props(cluster: ClusterView, name: str, ops: Sequence[Op]) -> dict[str, str]:
    """A broker resource's dynamic configs after the operations (ConfigAdminManager.prepareIncrementalConfigs)."""
    props = dict(cluster.image.configs.get((ConfigResourceType.BROKER, name), {}))
    for key, op, value in ops:
        if op not in _OPS:
            raise ConfigProblem(ErrorCode.invalid_request, f"Unknown operations type {op}")
        definition = BROKER_CONFIGS.get(key)
        if op == ConfigOp.SET:
            props[key] = value or ""
        elif op == ConfigOp.DELETE:
            props.pop(key, None)
        else:
            if definition is not None and definition.type is not ConfigType.LIST:
                verb = "append" if op == ConfigOp.APPEND else "subtract"
                raise ConfigProblem(
                    ErrorCode.invalid_config, f"Config value {verb} is not allowed for config key: {key}"
                )
            base = props.get(key, definition.default if definition is not None else None) or ""
            props[key] = _list_op(base, op, value or "")
    return props


def validate_broker_props(
    cluster: ClusterView, node_id: int, props: Mapping[str, str], *, per_broker: bool
) -> None:
    """DynamicBrokerConfig.validate of a broker resource's dynamic configs (INVALID_REQUEST if refused)."""

    def refuse(message: str) -> ConfigProblem:
        return ConfigProblem(ErrorCode.invalid_request, message)

    def mode(key: str) -> UpdateMode | None:
        definition = BROKER_CONFIGS.get(key)
        return definition.update if definition is not None else None

    fixed = [key for key in props if mode(key) is UpdateMode.READ_ONLY]
    if fixed:
        raise refuse(f"Cannot update these configs dynamically: {_java_set(fixed)}")
    unprefixed = [key for key in props if mode(key) is UpdateMode.LISTENER]
    if unprefixed:
        raise refuse(
            "These security configs can be dynamically updated only per-listener using the listener prefix: "
            + _java_set(unprefixed)
        )
    for key, value in props.items():
        definition = BROKER_CONFIGS.get(listener_base(key) or key)
        if definition is None:
            continue  # a key Kafka does not define: stored as given
        message = definition.validate(value)
        if message:
            raise refuse(message)
    for key, value in props.items():
        definition = BROKER_CONFIGS.get(key)
        if definition is not None and definition.thread_pool:
            _check_thread_pool(key, int(value.strip()), broker_value(cluster, node_id, key), refuse)
    if not per_broker:
        per_broker_keys = [
            key
            for key in props
            if mode(key) is UpdateMode.PER_BROKER
            or ((base := listener_base(key)) is not None and base not in CLUSTER_LEVEL_LISTENER_CONFIGS)
        ]
        if per_broker_keys:
            raise refuse(
                "Cannot update these configs at default cluster level, broker id must be specified: "
                + _java_set(per_broker_keys)
            )


def _check_thread_pool(key: str, new: int, current: str | None, refuse: Any) -> None:
    """DynamicThreadPool.validateReconfiguration: a pool may shrink to half or grow to double at once."""
    if current is None or new == int(current):
        return
    old = int(current)
    problem = f"Dynamic thread count update validation failed for {key}={new}"
    if new <= 0:
        problem += ", value should be at least 1"
    elif new < old // 2:
        problem += f", value should be at least half the current value {old}"
    elif new > old * 2:
        problem += f", value should not be greater than double the current value {old}"
    else:
        return
    raise refuse(
        "Invalid value org.apache.kafka.common.config.ConfigException: "
        f"{problem} for configuration Invalid dynamic configuration"
    )


# ---- the controller -----------------------------------------------------------------------------


def _list_op(base: str, op: int, value: str) -> str:
    items = [item for item in base.split(",") if item]
    given = [item for item in value.split(",")]
    if op == ConfigOp.APPEND:
        items += [item for item in given if item not in items]
    else:
        items = [item for item in items if item not in given]
    return ",".join(items)


def elr_enabled(cluster: ClusterView) -> bool:
    return cluster.image.features.get(ELIGIBLE_LEADER_REPLICAS, 0) >= 1


def incremental_records(cluster: ClusterView, resource_type: int, name: str, ops: Sequence[Op]) -> list[Any]:
    """ConfigRecords for IncrementalAlterConfigs operations on one resource (ConfigProblem if refused)."""
    current = cluster.image.configs.get((resource_type, name), {})
    wanted = dict(current)
    changed: dict[str, str | None] = {}
    definitions_ = definitions(resource_type)
    for key, op, value in ops:
        if op not in _OPS:
            raise ConfigProblem(ErrorCode.unknown_server_error, None)
        if value is None and op != ConfigOp.DELETE:
            # Kafka's controller fails inside (it answers NOT_CONTROLLER); the sandbox says what is wrong
            raise ConfigProblem(ErrorCode.invalid_request, f"Null value not supported for : {key}")
        if op == ConfigOp.SET:
            new: str | None = value
        elif op == ConfigOp.DELETE:
            new = None
        else:
            definition = definitions_.get(key)
            if resource_type != ConfigResourceType.BROKER and (
                definition is None or definition.type is not ConfigType.LIST
            ):
                verb = "APPEND" if op == ConfigOp.APPEND else "SUBTRACT"
                raise ConfigProblem(
                    ErrorCode.invalid_config, f"Can't {verb} to key {key} because its type is not LIST."
                )
            # a key without a value of its own starts from its default (ConfigurationControlManager.getParts)
            base = wanted.get(key, definition.default if definition is not None else None)
            new = _list_op(base or "", op, value or "")
        changed[key] = new
        if new is None:
            wanted.pop(key, None)
        else:
            wanted[key] = new
    return _validated(cluster, resource_type, name, current, wanted, changed)


def replace_records(
    cluster: ClusterView, resource_type: int, name: str, values: Mapping[str, str | None]
) -> list[Any]:
    """ConfigRecords for legacy AlterConfigs: the given set replaces every dynamic key."""
    current = cluster.image.configs.get((resource_type, name), {})
    wanted = {k: v for k, v in values.items() if v is not None}
    changed: dict[str, str | None] = {k: wanted.get(k) for k in {*current, *wanted}}
    return _validated(cluster, resource_type, name, current, wanted, changed)


def _validated(
    cluster: ClusterView,
    resource_type: int,
    name: str,
    current: Mapping[str, str],
    wanted: dict[str, str],
    changed: Mapping[str, str | None],
) -> list[Any]:
    """ConfigurationControlManager.validateAlterConfig, then the records of the change."""
    for key, value in changed.items():
        if key == MIN_INSYNC_REPLICAS and resource_type == ConfigResourceType.BROKER and elr_enabled(cluster):
            if name:
                raise ConfigProblem(
                    ErrorCode.invalid_config,
                    "Broker-level min.insync.replicas cannot be altered while ELR is enabled.",
                )
            if value is None:
                raise ConfigProblem(
                    ErrorCode.invalid_config,
                    "Cluster-level min.insync.replicas cannot be removed while ELR is enabled.",
                )
        if value is not None and len(value) > MAX_VALUE_SIZE:
            raise ConfigProblem(
                ErrorCode.invalid_config,
                f"The configuration value cannot be added because it exceeds the maximum value size of {MAX_VALUE_SIZE} bytes.",
            )
    validate_resource(cluster, resource_type, name, wanted)
    check_exists(cluster, resource_type, name)
    out: list[Any] = []
    for key, value in changed.items():
        # Broker configs are written even when unchanged: brokers reload on the record (KAFKA-14136).
        if current.get(key) != value or resource_type == ConfigResourceType.BROKER:
            out.append(R.ConfigRecord(resource_type=resource_type, resource_name=name, name=key, value=value))
    return out


def validate_resource(cluster: ClusterView, resource_type: int, name: str, configs: Mapping[str, str]) -> None:
    """The controller's validator (ControllerConfigurationValidator) over a resource's resulting configs."""
    if resource_type == ConfigResourceType.TOPIC:
        for key, value in configs.items():
            validate_topic_config(key, value)
    elif resource_type == ConfigResourceType.BROKER:
        if name and node_id_of(name) is None:
            raise ConfigProblem(ErrorCode.invalid_request, "Unable to parse broker name as a base 10 number.")
    elif resource_type == ConfigResourceType.GROUP:
        if not name:
            raise ConfigProblem(ErrorCode.invalid_request, "Group name must not be empty")
        _validate_group(cluster, configs)
    elif resource_type == ConfigResourceType.CLIENT_METRICS:
        if not name:
            raise ConfigProblem(
                ErrorCode.invalid_request, "Client metrics subscription name must not be empty"
            )
        _validate_client_metrics(configs)
    else:
        raise ConfigProblem(ErrorCode.invalid_request, f"Unknown resource type {resource_type}")


def check_exists(cluster: ClusterView, resource_type: int, name: str) -> None:
    if resource_type == ConfigResourceType.TOPIC and cluster.image.topic(name) is None:
        raise ConfigProblem(ErrorCode.unknown_topic_or_partition, f"The topic '{name}' does not exist.")
    if resource_type == ConfigResourceType.BROKER and name and node_id_of(name) not in cluster.nodes:
        raise ConfigProblem(ErrorCode.broker_id_not_registered, f"No node with id {name} found.")


_REPLICA = re.compile(r"\d+:\d+")
_THROTTLED = ("leader.replication.throttled.replicas", "follower.replication.throttled.replicas")


def validate_topic_config(key: str, value: str | None) -> None:
    """One topic key=value as LogConfig.validate checks it (ConfigProblem INVALID_CONFIG if refused)."""
    definition = definitions(ConfigResourceType.TOPIC).get(key)
    if definition is None:
        raise ConfigProblem(ErrorCode.invalid_config, f"Unknown topic config name: {key}")
    if value is None:
        return
    parsed, message = definition.parse(value)
    if message is None and key in _THROTTLED:
        items = [item.strip() for item in value.split(",") if item.strip()]
        if not (items == ["*"] or all(_REPLICA.fullmatch(item) for item in items)):
            message = (
                f"Invalid value [{', '.join(items)}] for configuration {key}: {key} must be the literal '*' or a "
                "list of replicas in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],..."
            )
    gzip_level = key == "compression.gzip.level" and isinstance(parsed, int)
    if message is None and gzip_level and not (parsed == -1 or 1 <= parsed <= 9):  # type: ignore[operator]
        message = (
            f"Invalid value {parsed} for configuration {key}: Value must be between 1 and 9 or equal to -1"
        )
    if message is None and key == "remote.storage.enable" and parsed is True:
        message = "Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage."
    if message:
        raise ConfigProblem(ErrorCode.invalid_config, message)


def _validate_group(cluster: ClusterView, configs: Mapping[str, str]) -> None:
    """GroupConfig.validate: known keys, valid values, within the broker's bounds."""
    table = definitions(ConfigResourceType.GROUP)
    node_id = min((n for n, node in cluster.nodes.items() if node.is_broker), default=-1)
    for key, value in configs.items():
        definition = table.get(key)
        if definition is None:
            raise ConfigProblem(ErrorCode.invalid_config, f"Unknown group config name: {key}")
        parsed, message = definition.parse(value)
        if message is None and key == "share.auto.offset.reset":
            message = _offset_reset_problem(key, str(parsed))
        if message is None and key == "streams.assignor.name":
            registered = [
                a.strip()
                for a in (broker_value(cluster, node_id, "group.streams.assignors") or "").split(",")
            ]
            if parsed not in registered:
                message = (
                    f"{key} '{parsed}' is not a registered task assignor. "
                    f"Registered assignors are: [{', '.join(registered)}]."
                )
        if message:
            raise ConfigProblem(ErrorCode.invalid_config, message)
        if key in GROUP_BOUNDS and isinstance(parsed, int):
            low_key, high_key = GROUP_BOUNDS[key]
            low = broker_value(cluster, node_id, low_key) if low_key else None
            high = broker_value(cluster, node_id, high_key) if high_key else None
            if low is not None and high is not None and not int(low) <= parsed <= int(high):
                raise ConfigProblem(
                    ErrorCode.invalid_config, f"{key} must be in the range {low} to {high} inclusive."
                )
            if low is None and high is not None and parsed > int(high):
                raise ConfigProblem(ErrorCode.invalid_config, f"{key} must be less than or equal to {high}")


_DURATION = re.compile(r"P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?", re.IGNORECASE)


def _offset_reset_problem(key: str, value: str) -> str | None:
    text = value.lower()
    if text in ("earliest", "latest"):
        return None
    if text.startswith("by_duration:") and _DURATION.fullmatch(value[len("by_duration:") :].strip()):
        return None
    return (
        f"Invalid value {value} for configuration {key}: Invalid value `{value}` for configuration {key}. "
        "The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'."
    )


def _validate_client_metrics(configs: Mapping[str, str]) -> None:
    """ClientMetricsConfigs.validate."""
    table = definitions(ConfigResourceType.CLIENT_METRICS)
    for key, value in configs.items():
        definition = table.get(key)
        if definition is None:
            raise ConfigProblem(ErrorCode.invalid_request, f"Unknown client metrics configuration: {key}")
        parsed, message = definition.parse(value)
        if message:
            raise ConfigProblem(ErrorCode.invalid_config, message)
        if key == "interval.ms" and isinstance(parsed, int) and not 100 <= parsed <= 3_600_000:
            raise ConfigProblem(
                ErrorCode.invalid_request,
                f"Invalid value {parsed} for interval.ms, interval must be between 100 and 3600000 (1 hour)",
            )
        if key == "match":
            _check_match(value)


def _check_match(value: str) -> None:
    """Client-metrics `match` entries are selector=regex with a known selector (ClientMetricsConfigs)."""
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


def elr_safety_records(cluster: ClusterView, static_min_isr: str | None = None) -> list[Any]:
    """ConfigRecords that make enabling ELR safe (ConfigurationControlManager.maybeGenerateElrSafetyRecords):
    a cluster-level min.insync.replicas (the controller's static value, else 1) unless one exists,
    and no broker-level one."""
    configs = cluster.image.configs
    out: list[Any] = []
    if MIN_INSYNC_REPLICAS not in configs.get((ConfigResourceType.BROKER, ""), {}):
        out.append(
            R.ConfigRecord(
                resource_type=ConfigResourceType.BROKER,
                resource_name="",
                name=MIN_INSYNC_REPLICAS,
                value=static_min_isr or BROKER_CONFIGS[MIN_INSYNC_REPLICAS].default or "1",
            )
        )
    for (kind, name), values in sorted(configs.items()):
        if kind == ConfigResourceType.BROKER and name and MIN_INSYNC_REPLICAS in values:
            out.append(
                R.ConfigRecord(resource_type=kind, resource_name=name, name=MIN_INSYNC_REPLICAS, value=None)
            )
    return out
