"""What `kcli configs` acts on and what it changes: entities, --add-config grammar, validation.

Pure and wire-free: the CLI hands in the flags as given, this module returns comparable values or
raises UsageError naming the offending text. Rules follow kafka-configs.sh (ConfigCommand), with
usage errors exiting 2 instead of 1.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from kcli.errors import UsageError
from kcli.kafka import ConfigOp, ConfigResourceType, ConfigSource


class EntityType(StrEnum):
    """The `--entity-type` values (Kafka's ConfigType strings plus the tool-only broker-loggers).

    Everything kcli knows per type is one row of ENTITY_TYPES below; its config keys are the
    catalogue's (kcli/data/config_catalogue.json) or, for quota types, the quota keys.
    """

    TOPICS = "topics"
    CLIENTS = "clients"
    USERS = "users"
    BROKERS = "brokers"
    IPS = "ips"
    CLIENT_METRICS = "client-metrics"
    GROUPS = "groups"
    BROKER_LOGGERS = "broker-loggers"

    @property
    def spec(self) -> EntityTypeSpec:
        return ENTITY_TYPES[self]

    @property
    def singular(self) -> str:
        """Kafka's "type minus last char" label (`topic`, `broker-logger`, quirkily `client-metric`)."""
        return self.value[:-1]

    @property
    def is_quota(self) -> bool:
        return self.spec.quota_key is not None

    @property
    def resource_type(self) -> ConfigResourceType:
        """The DescribeConfigs/IncrementalAlterConfigs resource type (quota types have none)."""
        resource_type = self.spec.resource_type
        if resource_type is None:
            raise KeyError(self)
        return resource_type


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityTypeSpec:
    """What one --entity-type is on the wire and in the tool."""

    resource_type: ConfigResourceType | None = None  # config resources (Describe/AlterConfigs)
    dynamic_source: ConfigSource | None = None  # what a plain --describe keeps (None: no filter)
    quota_key: str | None = None  # client quota entity key (DescribeClientQuotas) of quota types
    defaultable: bool = False  # --entity-default applies


ENTITY_TYPES: Mapping[EntityType, EntityTypeSpec] = {
    EntityType.TOPICS: EntityTypeSpec(
        resource_type=ConfigResourceType.TOPIC, dynamic_source=ConfigSource.DYNAMIC_TOPIC_CONFIG
    ),
    EntityType.CLIENTS: EntityTypeSpec(quota_key="client-id", defaultable=True),
    EntityType.USERS: EntityTypeSpec(quota_key="user", defaultable=True),
    EntityType.BROKERS: EntityTypeSpec(
        resource_type=ConfigResourceType.BROKER,
        dynamic_source=ConfigSource.DYNAMIC_BROKER_CONFIG,
        defaultable=True,
    ),
    EntityType.IPS: EntityTypeSpec(quota_key="ip", defaultable=True),
    EntityType.CLIENT_METRICS: EntityTypeSpec(
        resource_type=ConfigResourceType.CLIENT_METRICS,
        dynamic_source=ConfigSource.DYNAMIC_CLIENT_METRICS_CONFIG,
    ),
    EntityType.GROUPS: EntityTypeSpec(
        resource_type=ConfigResourceType.GROUP, dynamic_source=ConfigSource.DYNAMIC_GROUP_CONFIG
    ),
    EntityType.BROKER_LOGGERS: EntityTypeSpec(resource_type=ConfigResourceType.BROKER_LOGGER),
}

QUOTA_TYPES = frozenset(kind for kind, spec in ENTITY_TYPES.items() if spec.quota_key is not None)
DEFAULTABLE_TYPES = frozenset(kind for kind, spec in ENTITY_TYPES.items() if spec.defaultable)
DYNAMIC_SOURCE = {
    kind: spec.dynamic_source for kind, spec in ENTITY_TYPES.items() if spec.dynamic_source is not None
}
QUOTA_ENTITY_KEY = {kind: spec.quota_key for kind, spec in ENTITY_TYPES.items() if spec.quota_key is not None}


def entity_type_of_resource(resource_type: int) -> EntityType | None:
    """The entity type of a ConfigResource type code (None for codes kcli has no type for)."""
    return next((kind for kind, spec in ENTITY_TYPES.items() if spec.resource_type == resource_type), None)


# kafka-configs lists the tool-only broker-loggers first, then Kafka's ConfigType values.
ENTITY_TYPE_LIST = ", ".join(
    [EntityType.BROKER_LOGGERS.value, *(t.value for t in EntityType if t is not EntityType.BROKER_LOGGERS)]
)
# `$` is allowed for the logger names of inner classes (ClientQuotaManager$ThrottledChannelReaper).
_KEY_PATTERN = re.compile(r"[$a-zA-Z0-9._-]*")
_TOPIC_PATTERN = re.compile(r"[a-zA-Z0-9._-]+")
_HOST_PATTERN = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Entity:
    """One entity: a named one, the default one (`--entity-default`), or every one (no name, describe)."""

    type: EntityType
    name: str | None = None
    default: bool = False

    @property
    def label(self) -> str:
        """How Kafka's text output names it: `topic orders`, `broker 1`, `default broker`."""
        if self.default:
            return f"default {self.type.singular}"
        return f"{self.type.singular} {self.name}"

    @property
    def resource_name(self) -> str:
        """The ConfigResource name: the default broker is the empty string."""
        return "" if self.default else (self.name or "")


@dataclass(frozen=True, slots=True, kw_only=True)
class Selection:
    """The entities a command names, validated.

    Resource types (topics, brokers, ...): `entities` are separate resources of one type.
    Quota types (users, clients, ips): `entities` are the components of ONE compound quota entity
    (user and client-id together), in the order user, client, ip.
    """

    types: tuple[EntityType, ...]
    entities: tuple[Entity, ...]

    @property
    def is_quota(self) -> bool:
        return self.types[0].is_quota

    @property
    def primary(self) -> EntityType:
        return self.types[0]


# The shortcut flags of `kcli configs` (--topic NAME, --client-defaults, ...): the EntityFlags field
# each fills and its entity type, in kafka-configs' order. Shell completion reads them too.
SHORTCUT_FLAGS: tuple[tuple[str, EntityType], ...] = (
    ("topic", EntityType.TOPICS),
    ("client", EntityType.CLIENTS),
    ("user", EntityType.USERS),
    ("broker", EntityType.BROKERS),
    ("broker_logger", EntityType.BROKER_LOGGERS),
    ("ip", EntityType.IPS),
    ("client_metrics", EntityType.CLIENT_METRICS),
    ("group", EntityType.GROUPS),
)
DEFAULT_FLAGS: tuple[tuple[str, EntityType], ...] = (
    ("client_defaults", EntityType.CLIENTS),
    ("user_defaults", EntityType.USERS),
    ("broker_defaults", EntityType.BROKERS),
    ("ip_defaults", EntityType.IPS),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityFlags:
    """Every entity-naming flag of `kcli configs`, as given.

    `entity_names` holds the --entity-name values and the --entity-default occurrences in
    command-line order, "" standing for --entity-default: kafka-configs pairs them by position
    with the --entity-type values (`--entity-type users --entity-default --entity-type clients
    --entity-name c2` is the default user and client c2).
    """

    entity_types: Sequence[str] = ()
    entity_names: Sequence[str] = ()
    entity_default: bool = False
    topic: str | None = None
    client: str | None = None
    group: str | None = None
    user: str | None = None
    broker: str | None = None
    broker_logger: str | None = None
    ip: str | None = None
    client_metrics: str | None = None
    client_defaults: bool = False
    user_defaults: bool = False
    broker_defaults: bool = False
    ip_defaults: bool = False

    def _shortcuts(self) -> list[tuple[EntityType, str]]:
        """(type, name) of each shortcut flag given, in kafka-configs' order ("" = default)."""
        named = [(kind, getattr(self, field)) for field, kind in SHORTCUT_FLAGS]
        defaults = [(kind, getattr(self, field)) for field, kind in DEFAULT_FLAGS]
        return [(t, n) for t, n in named if n is not None] + [(t, "") for t, on in defaults if on]

    @property
    def type_texts(self) -> list[str]:
        """Kafka's entityTypes: the --entity-type values, then the types of the shortcut flags."""
        return [*self.entity_types, *(t.value for t, _ in self._shortcuts())]

    @property
    def names(self) -> list[str]:
        """Kafka's entityNames: generic names in order ("" = default), then the shortcuts' names."""
        generic = list(self.entity_names)
        if self.entity_default and "" not in generic:
            generic.append("")
        return [*generic, *(n for _, n in self._shortcuts())]

    @property
    def uses_generic(self) -> bool:
        return bool(self.entity_types or self.entity_names or self.entity_default)


def parse_entity_type(text: str) -> EntityType:
    try:
        return EntityType(text.strip())
    except ValueError:
        import difflib

        guess = difflib.get_close_matches(text.strip(), [t.value for t in EntityType], n=1, cutoff=0.6)
        raise UsageError(
            f"Invalid entity type {text}, the entity type must be one of {ENTITY_TYPE_LIST} "
            "with a --bootstrap-server or --bootstrap-controller argument",
            hint=f"did you mean '{guess[0]}'?" if guess else None,
        ) from None


def check_duplicate_types(flags: EntityFlags) -> None:
    """kafka-configs' first entity check (it comes before the bootstrap check)."""
    seen: set[str] = set()
    duplicates = [t for t in flags.type_texts if t in seen or seen.add(t)]  # type: ignore[func-returns-value]
    if duplicates:
        raise UsageError(f"Duplicate entity type(s) specified: {','.join(dict.fromkeys(duplicates))}")


def resolve_selection(
    flags: EntityFlags,
    *,
    alter: bool,
    both_bootstraps: bool = False,
    resolvable: Callable[[str], bool] | None = None,
) -> Selection:
    """Turn the entity flags into a validated Selection, with kafka-configs' checks in its order.

    `both_bootstraps`: both --bootstrap-server and --bootstrap-controller were given (Kafka checks
    that among the entity checks). `resolvable(host)` answers whether an ips entity name resolves
    (a DNS lookup, done by the caller); without it only the shape of the name is checked.
    """
    check_duplicate_types(flags)
    types = [parse_entity_type(t) for t in flags.type_texts]
    if not types:
        raise UsageError("At least one entity type must be specified")
    if len(types) > 1 and set(types) != {EntityType.USERS, EntityType.CLIENTS}:
        raise UsageError("Only 'users' and 'clients' entity types may be specified together")
    if flags.uses_generic and flags._shortcuts():
        raise UsageError(
            "--entity-{type,name,default} should not be used in conjunction with specific entity flags"
        )
    names = flags.names
    has_name = any(names)
    has_default = "" in names
    if both_bootstraps:
        raise UsageError("Only one of --bootstrap-server or --bootstrap-controller can be specified")
    head = types[0].value
    if has_name and {EntityType.BROKERS, EntityType.BROKER_LOGGERS} & set(types):
        for name in [n for n in names if n]:
            try:
                int(name)
            except ValueError:
                raise UsageError(
                    f"The entity name for {head} must be a valid integer broker id, but it is: {name}"
                ) from None
    if has_name and EntityType.IPS in types:
        for name in [n for n in names if n]:
            valid = is_valid_ip_or_host(name) and (resolvable is None or resolvable(name))
            if not valid:
                raise UsageError(
                    f"The entity name for {head} must be a valid IP or resolvable host, but it is: {name}"
                )
    listed = ",".join(t.value for t in types)
    if not alter:
        if not set(types) & DEFAULTABLE_TYPES and flags.entity_default:
            raise UsageError(f"--entity-default must not be specified with --describe of {listed}")
        if EntityType.BROKER_LOGGERS in types and not has_name:
            raise UsageError(f"An entity name must be specified with --describe of {listed}")
    else:
        if set(types) & DEFAULTABLE_TYPES:
            if not has_name and not has_default:
                raise UsageError(
                    "An entity-name or default entity must be specified with --alter of users, clients, brokers or ips"
                )
        elif not has_name:
            raise UsageError(f"An entity name must be specified with --alter of {listed}")
        if len(types) != len(names):
            raise UsageError("An entity name must be specified for every entity type")
    entities = _entities(types, names)
    for entity in entities:
        if entity.type is EntityType.TOPICS and entity.name:
            validate_topic_name(entity.name)
    if types[0].is_quota:
        order = {EntityType.USERS: 0, EntityType.CLIENTS: 1, EntityType.IPS: 2}
        entities = sorted(entities, key=lambda e: order[e.type])
    return Selection(types=tuple(types), entities=tuple(entities))


def _entities(types: list[EntityType], names: list[str]) -> list[Entity]:
    """Names pair with types by position ("" is the default entity; a type without a name is every one).

    One resource type with several names (kcli describes each; kafka-configs the first) is the
    exception to the pairing.
    """
    if not types[0].is_quota:
        kind = types[0]
        if not names:
            return [Entity(type=kind)]
        return [Entity(type=kind, default=True) if n == "" else Entity(type=kind, name=n) for n in names]
    if len(names) > len(types):
        raise UsageError("More entity names specified than entity types")
    out = []
    for index, kind in enumerate(types):
        if index >= len(names):
            out.append(Entity(type=kind))
        elif names[index] == "":
            out.append(Entity(type=kind, default=True))
        else:
            out.append(Entity(type=kind, name=names[index]))
    return out


def validate_topic_name(name: str) -> None:
    """Kafka's topic name rules (Topic.validate)."""
    if not name:
        raise UsageError("Topic name is illegal, it can't be empty")
    if name in (".", ".."):
        raise UsageError(f'Topic name cannot be "." or "..": {name}')
    if len(name) > 249:
        raise UsageError(f"Topic name is illegal, it can't be longer than 249 characters, topic name: {name}")
    if not _TOPIC_PATTERN.fullmatch(name):
        raise UsageError(
            f"Topic name \"{name}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'"
        )


def is_valid_ip_or_host(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return bool(_HOST_PATTERN.fullmatch(text))


# --- --add-config / --add-config-file / --delete-config -----------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigChange:
    """One requested change to one key."""

    key: str
    op: ConfigOp
    value: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigChanges:
    """Every change one `--alter` asks for, in Kafka's order: deletes first, then sets."""

    changes: tuple[ConfigChange, ...] = ()

    @property
    def sets(self) -> dict[str, str]:
        return {c.key: c.value or "" for c in self.changes if c.op is ConfigOp.SET}

    @property
    def deletes(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.changes if c.op is ConfigOp.DELETE)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.key for c in self.changes))

    def __bool__(self) -> bool:
        return bool(self.changes)


def split_top_level(text: str, sep: str, *, what: str) -> list[str]:
    """Split `text` on `sep` outside [...] (brackets group values containing commas).

    An unbalanced bracket names the option and the key whose value holds it, never the text:
    values of --add-config are often secrets (a listener's sasl.jaas.config, a password).
    """
    parts: list[str] = []
    depth = 0
    start = 0
    for index, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise UsageError(ADD_CONFIG_FORMAT, hint=_bracket_hint("]", text[start:], len(parts), what))
        elif ch == sep and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    if depth != 0:
        raise UsageError(ADD_CONFIG_FORMAT, hint=_bracket_hint("[", text[start:], len(parts), what))
    parts.append(text[start:])
    return parts


def _bracket_hint(bracket: str, item: str, before: int, what: str) -> str:
    key, equals, _value = item.partition("=")
    where = f"the value of {_shown_key(key.strip())}" if equals else f"item {before + 1}"
    return (
        f"an unbalanced '{bracket}' in {where} in {what}, not shown as it may be a secret; "
        "a value holding brackets can be given with --add-config-file"
    )


def _shown_key(key: str) -> str:
    """A key as an error line may show it: a config key's characters only (else it may be a value)."""
    return f"'{key}'" if key and _KEY_PATTERN.fullmatch(key) and len(key) <= 249 else "a key"


ADD_CONFIG_FORMAT = (
    'Invalid entity config: all configs to be added must be in the format "key=val" or  "key=[val1,val2]" '
    "to group values which contain commas."
)


def parse_add_config(text: str, *, option: str = "--add-config") -> dict[str, str]:
    """Parse `k1=v1,k2=[a,b],k3=` into an ordered mapping (brackets stripped, key and value trimmed).

    Errors name an item by its number and key, never by its value (the value may be a secret).
    """
    out: dict[str, str] = {}
    for number, item in enumerate(split_top_level(text, ",", what=option), start=1):
        pieces = split_top_level(item, "=", what=option)
        if len(pieces) != 2:
            shape = "has no '='" if len(pieces) == 1 else "has more than one '=' outside brackets"
            key = f" ({_shown_key(pieces[0].strip())})" if len(pieces) > 2 else ""
            raise UsageError(ADD_CONFIG_FORMAT, hint=f"{option} item {number}{key} {shape}")
        key = pieces[0].strip()
        value = pieces[1].replace("[", "").replace("]", "").strip()
        if not key:
            raise UsageError(f"Invalid entity config in {option}: item {number} has an empty config key")
        validate_key(key, option=option)
        out[key] = value
    return out


def validate_key(key: str, *, option: str) -> None:
    if not key:
        raise UsageError(f"Invalid entity config in {option}: empty config key")
    if not _KEY_PATTERN.fullmatch(key):
        raise UsageError(f"Invalid character found for config key: {key}")


def parse_delete_config(values: Sequence[str]) -> list[str]:
    """`--delete-config k1,k2` (repeatable): the keys, in order, without duplicates.

    Like kafka-configs, the keys are not checked for characters: a key that is not set is
    reported by name when the entity's configs are read (`Invalid config(s): ...`).
    """
    keys: list[str] = []
    for value in values:
        for raw in value.split(","):
            key = raw.strip()
            if not key:
                raise UsageError(f"Invalid entity config '{value}' in --delete-config: empty config key")
            if key not in keys:
                keys.append(key)
    return keys


def parse_list_values(values: Sequence[str], *, option: str) -> dict[str, str]:
    """`--append-config` / `--subtract-config`: same grammar as --add-config (lists in brackets)."""
    out: dict[str, str] = {}
    for value in values:
        out.update(parse_add_config(value, option=option))
    return out


def build_changes(
    *,
    add_config: str | None,
    add_config_file: Mapping[str, str] | None,
    delete_config: Sequence[str],
    append_config: Sequence[str] = (),
    subtract_config: Sequence[str] = (),
) -> ConfigChanges:
    """All requested changes: DELETE ops, then SET (from file, then flag), APPEND, SUBTRACT."""
    if add_config is not None and add_config_file is not None:
        raise UsageError("Only one of --add-config or --add-config-file must be specified")
    sets: dict[str, str] = {}
    if add_config_file is not None:
        for key, value in add_config_file.items():
            validate_key(key, option="--add-config-file")
            sets[key] = value
    if add_config is not None:
        sets.update(parse_add_config(add_config))
    deletes = parse_delete_config(delete_config)
    appends = parse_list_values(append_config, option="--append-config")
    subtracts = parse_list_values(subtract_config, option="--subtract-config")
    if not (sets or deletes or appends or subtracts) and add_config is None and add_config_file is None:
        raise UsageError(
            "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter"
        )
    # kafka-configs sends a key given to both --delete-config and --add-config as a DELETE and a
    # SET in one request (the broker decides); kcli's list operations must not meet another op.
    touched: dict[str, str] = {}
    for key, kind in (
        [(k, "--delete-config") for k in deletes]
        + [(k, "--add-config") for k in sets]
        + [(k, "--append-config") for k in appends]
        + [(k, "--subtract-config") for k in subtracts]
    ):
        previous = touched.get(key)
        if (
            previous is not None
            and previous != kind
            and {previous, kind} != {"--delete-config", "--add-config"}
        ):
            raise UsageError(f"Config {key} is given to both {previous} and {kind}")
        touched[key] = kind
    changes = [ConfigChange(key=k, op=ConfigOp.DELETE) for k in deletes]
    changes += [ConfigChange(key=k, op=ConfigOp.SET, value=v) for k, v in sets.items()]
    changes += [ConfigChange(key=k, op=ConfigOp.APPEND, value=v) for k, v in appends.items()]
    changes += [ConfigChange(key=k, op=ConfigOp.SUBTRACT, value=v) for k, v in subtracts.items()]
    return ConfigChanges(changes=tuple(changes))
