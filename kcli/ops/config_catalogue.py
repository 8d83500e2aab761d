"""The config catalogue: every config key of each entity type with its type, default, synonyms,
update mode and bounds, as Kafka reports them. The data is kcli/data/config_catalogue.json, written
by scripts/kafka-config-catalogue.py from a running Kafka cluster; shell completion and the sandbox
both read it from here.

Validation messages are Kafka's ConfigDef ones (ConfigException: "Invalid value V for
configuration K: REASON"), so the sandbox refuses a value with the words Kafka uses.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from kcli.kafka import ConfigType


class UpdateMode(StrEnum):
    """How a broker key may be changed while the broker runs (DynamicBrokerConfig)."""

    CLUSTER_WIDE = "cluster-wide"  # per broker or as the cluster default
    PER_BROKER = "per-broker"  # per broker only
    LISTENER = "listener"  # per broker and only as listener.name.<listener>.<key>
    READ_ONLY = "read-only"  # server.properties only
    NONE = ""  # not a broker key


_INTEGER_LIMITS = {ConfigType.SHORT: 2**15, ConfigType.INT: 2**31, ConfigType.LONG: 2**63}


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigDef:
    """One config key: type, default, documentation and the rules Kafka enforces on it."""

    name: str
    type: ConfigType
    default: str | None
    doc: str
    synonyms: tuple[str, ...] = ()  # topics and groups: the broker keys behind it, most specific first
    choices: tuple[str, ...] = ()
    minimum: str | None = None  # as Kafka's message states the bound
    maximum: str | None = None
    sensitive: bool = False
    update: UpdateMode = UpdateMode.NONE
    thread_pool: bool = False  # a dynamic update must stay within half and double the current value
    unlisted: bool = False  # a broker key described only once it is set (the replication quotas)

    @property
    def read_only(self) -> bool:
        """A broker key that cannot be changed dynamically (DescribeConfigs' read_only)."""
        return self.update is UpdateMode.READ_ONLY

    @property
    def secret(self) -> bool:
        """Never shown: sensitive, or a PASSWORD."""
        return self.sensitive or self.type is ConfigType.PASSWORD

    def parse(self, value: str) -> tuple[object, str | None]:
        """(the parsed value, the error message or None), as ConfigDef.parseType and its validator."""
        text = value.strip()
        kind = self.type
        parsed: object = text
        if kind is ConfigType.BOOLEAN:
            if text.lower() not in ("true", "false"):
                return text, self._invalid(value, "Expected value to be either true or false")
            parsed = text.lower() == "true"
        elif kind in _INTEGER_LIMITS:
            from kcli.integers import java_long

            limit = _INTEGER_LIMITS[kind]
            number = java_long(text)
            if number is None or not -limit <= number < limit:
                return text, self._invalid(value, f"Not a number of type {kind.name}")
            parsed = number
        elif kind is ConfigType.DOUBLE:
            try:
                parsed = float(text)
            except ValueError:
                return text, self._invalid(value, "Not a number of type DOUBLE")
        return parsed, self._check(parsed)

    def validate(self, value: str) -> str | None:
        """The error message for `value`, or None when it is valid."""
        return self.parse(value)[1]

    def _check(self, parsed: object) -> str | None:
        if isinstance(parsed, bool):
            return None
        if isinstance(parsed, int | float):
            shown = _java_number(parsed)
            if self.minimum is not None and parsed < float(self.minimum):
                return self._invalid(shown, f"Value must be at least {self.minimum}")
            if self.maximum is not None and parsed > float(self.maximum):
                return self._invalid(shown, f"Value must be no more than {self.maximum}")
            return None
        if self.choices:
            text = str(parsed)
            items = (
                [item.strip() for item in text.split(",") if item.strip()]
                if self.type is ConfigType.LIST
                else [text]
            )
            for item in items:
                if item not in self.choices:
                    return self._invalid(item, f"String must be one of: {', '.join(self.choices)}")
        return None

    def _invalid(self, value: object, reason: str) -> str:
        return f"Invalid value {value} for configuration {self.name}: {reason}"


def _java_number(value: int | float) -> str:
    if isinstance(value, float):
        from kcli.ops.config_model import java_double

        return java_double(value)
    return str(value)


@functools.cache
def catalogue() -> Mapping[str, Mapping[str, ConfigDef]]:
    """{entity type: {config name: definition}} from kcli/data/config_catalogue.json (read once)."""
    import json

    from kcli.data import read_text

    raw = json.loads(read_text("config_catalogue.json"))
    return {
        section: {name: definition(name, entry) for name, entry in entries.items()}
        for section, entries in raw.items()
        if not section.startswith("_")
    }


def configs_of(entity_type: str) -> Mapping[str, ConfigDef]:
    """The definitions of one entity type (`topics`, `brokers`, ...); empty when it has no catalogue."""
    return catalogue().get(entity_type, {})


def definition(name: str, entry: Mapping[str, object]) -> ConfigDef:
    """One catalogue entry as a ConfigDef (KeyError/ValueError when the entry is malformed)."""

    def strings(key: str) -> tuple[str, ...]:
        value = entry.get(key, ())
        if not isinstance(value, list | tuple):
            raise ValueError(f"{name}: {key} must be a list")
        return tuple(str(item) for item in value)

    def text(key: str) -> str | None:
        value = entry.get(key)
        return None if value is None else str(value)

    return ConfigDef(
        name=name,
        type=ConfigType[str(entry["type"])],
        default=text("default"),
        doc=str(entry.get("doc") or ""),
        synonyms=strings("synonyms"),
        choices=strings("choices"),
        minimum=text("minimum"),
        maximum=text("maximum"),
        sensitive=bool(entry.get("sensitive", False)),
        update=UpdateMode(str(entry.get("update", ""))),
        thread_pool=bool(entry.get("thread_pool", False)),
        unlisted=bool(entry.get("unlisted", False)),
    )
