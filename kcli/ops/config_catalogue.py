"""The config catalogue: every config key of each entity type with its type, default, synonyms and
bounds, as Kafka defines them. The data is kcli/data/config_catalogue.json; shell completion and the
sandbox both read it from here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from kcli.kafka import ConfigType


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


@functools.cache
def catalogue() -> Mapping[str, Mapping[str, ConfigDef]]:
    """{entity type: {config name: definition}} from kcli/data/config_catalogue.json (read once)."""
    import json

    from kcli.data import read_text

    raw = json.loads(read_text("config_catalogue.json"))
    return {
        section: {name: _definition(name, entry) for name, entry in entries.items()}
        for section, entries in raw.items()
        if not section.startswith("_")
    }


def configs_of(entity_type: str) -> Mapping[str, ConfigDef]:
    """The definitions of one entity type (`topics`, `brokers`, ...); empty when it has no catalogue."""
    return catalogue().get(entity_type, {})


def _definition(name: str, entry: Mapping[str, object]) -> ConfigDef:
    def strings(key: str) -> tuple[str, ...]:
        value = entry.get(key, ())
        assert isinstance(value, list | tuple)
        return tuple(str(item) for item in value)

    def number(key: str) -> float | None:
        value = entry.get(key)
        return None if value is None else value  # type: ignore[return-value]

    default = entry.get("default")
    return ConfigDef(
        name=name,
        type=ConfigType[str(entry["type"])],
        default=None if default is None else str(default),
        doc=str(entry["doc"]),
        synonyms=strings("synonyms"),
        choices=strings("choices"),
        minimum=number("minimum"),
        maximum=number("maximum"),
        sensitive=bool(entry.get("sensitive", False)),
        read_only=bool(entry.get("read_only", False)),
        list_choices=bool(entry.get("list_choices", False)),
    )
