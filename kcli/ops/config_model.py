"""Config results and the pure logic over them: dynamic filters, delete checks, dry-run previews, diffs.

The wire layer (kcli.client.api.configs/quotas/scram) fills these values; render/ prints them.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from kcli.errors import KcliError, UsageError
from kcli.kafka import ConfigOp, ConfigSource, ScramMechanism
from kcli.ops.config_spec import DYNAMIC_SOURCE, ConfigChange, ConfigChanges, Entity, EntityType
from kcli.ops.resource_error import ResourceError

CONFIG_TYPE_NAMES = (
    "UNKNOWN",
    "BOOLEAN",
    "STRING",
    "INT",
    "SHORT",
    "LONG",
    "DOUBLE",
    "LIST",
    "CLASS",
    "PASSWORD",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigSynonym:
    name: str
    value: str | None
    source: ConfigSource


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigEntry:
    """One config of one resource as DescribeConfigs reports it."""

    name: str
    value: str | None
    source: ConfigSource
    sensitive: bool = False
    read_only: bool = False
    config_type: int = 0
    synonyms: tuple[ConfigSynonym, ...] = ()
    documentation: str | None = None

    @property
    def shown_value(self) -> str | None:
        """The value as printed: never the value of a sensitive config."""
        return None if self.sensitive else self.value

    @property
    def type_name(self) -> str:
        return (
            CONFIG_TYPE_NAMES[self.config_type]
            if 0 <= self.config_type < len(CONFIG_TYPE_NAMES)
            else "UNKNOWN"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class ResourceConfigs:
    """The configs of one resource (topic, broker, ...), or the error describing it."""

    entity: Entity
    entries: tuple[ConfigEntry, ...] = ()
    error: ResourceError | None = None

    def by_name(self) -> dict[str, ConfigEntry]:
        return {e.name: e for e in self.entries}

    def shown(self, *, describe_all: bool) -> tuple[ConfigEntry, ...]:
        """The entries kafka-configs.sh lists, sorted by name: all with --all, else the dynamic ones."""
        entries = sorted(self.entries, key=lambda e: e.name)
        if describe_all:
            return tuple(entries)
        wanted = dynamic_source(self.entity)
        if wanted is None:
            return tuple(entries)
        return tuple(e for e in entries if e.source is wanted)


def dynamic_source(entity: Entity) -> ConfigSource | None:
    """The source a plain --describe keeps for `entity` (None: keep every entry, as for broker-loggers)."""
    if entity.type is EntityType.BROKERS and entity.default:
        return ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
    return DYNAMIC_SOURCE.get(entity.type)


@dataclass(frozen=True, slots=True, kw_only=True)
class QuotaEntity:
    """A client-quota entity: components in the order user, client-id, ip; None name = the default."""

    components: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class QuotaEntry:
    entity: QuotaEntity
    values: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ScramInfo:
    """The SCRAM credentials one user has (or the error describing them)."""

    user: str
    credentials: tuple[tuple[ScramMechanism | None, int], ...] = ()
    error: ResourceError | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DescribeResult:
    """Everything one `kcli configs --describe` found."""

    resources: tuple[ResourceConfigs, ...] = ()
    quotas: tuple[QuotaEntry, ...] = ()
    scram: tuple[ScramInfo, ...] = ()
    describe_all: bool = False
    quota_kind: bool = False
    missing: tuple[Entity, ...] = ()  # named entities that do not exist (Kafka ≥4.1 message, exit 0)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.resources if r.error is not None)


# A DescribeConfigs list this long is the broker's full list, so a key missing from it is unknown to
# it (brokers such as tansu return only the keys that are set; those lists are never used to judge).
FULL_LIST_MIN = 20


def java_double(value: float) -> str:
    """Java's Double.toString: `1024.0`, `0.5`, `1.0E7`, `1.5E-4` (kafka-configs.sh prints quotas so)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e7:
        text = repr(value)
        return text if "." in text else text + ".0"
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)
    digit_text = "".join(str(d) for d in digits).rstrip("0") or "0"
    power = exponent + len(digits) - 1
    mantissa = digit_text[0] + "." + (digit_text[1:] or "0")
    return f"{'-' if sign else ''}{mantissa}E{power}"


# --- alter planning ------------------------------------------------------------------------------


def check_deletes(current: ResourceConfigs, changes: ConfigChanges) -> None:
    """Each --delete-config key must currently be set dynamically (kafka-configs: `Invalid config(s)`).

    broker-loggers: every key (added or deleted) must be an existing logger name. Both refusals
    depend on the cluster, so they are runtime errors (exit 1), as kafka-configs exits 1.
    """
    present = {e.name for e in current.entries}
    if current.entity.type is EntityType.BROKER_LOGGERS:
        bad = [k for k in (*changes.deletes, *changes.sets) if k not in present]
        if bad:
            raise KcliError(f"Invalid broker logger(s): {','.join(dict.fromkeys(bad))}")
        return
    wanted = dynamic_source(current.entity)
    # A sparse list (brokers such as tansu return only the keys that are set, all marked
    # DEFAULT_CONFIG) holds nothing but set keys, so there presence is what counts.
    sparse = len(current.entries) < FULL_LIST_MIN
    dynamic = {e.name for e in current.entries if sparse or wanted is None or e.source is wanted}
    missing = [k for k in changes.deletes if k not in dynamic]
    if missing:
        raise KcliError(
            f"Invalid config(s): {','.join(missing)}", hint=f"not set dynamically on {current.entity.label}"
        )


def suggest(key: str, known: Iterable[str]) -> str | None:
    """The closest known config name to a mistyped one (did-you-mean), or None."""
    matches = difflib.get_close_matches(key, list(known), n=1, cutoff=0.75)
    return matches[0] if matches else None


def unknown_keys(current: ResourceConfigs, changes: ConfigChanges) -> list[tuple[str, str]]:
    """Added keys the resource's full config list lacks but nearly contains: [(key, suggestion)]."""
    if len(current.entries) < FULL_LIST_MIN or current.entity.type is EntityType.BROKER_LOGGERS:
        return []
    known = {e.name for e in current.entries}
    out = []
    for change in changes.changes:
        if change.op is ConfigOp.DELETE or change.key in known:
            continue
        guess = suggest(change.key, known)
        if guess is not None:
            out.append((change.key, guess))
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class KeyPreview:
    """One key of a --dry-run: its value before and after (None = unset; sensitive values hidden)."""

    key: str
    op: ConfigOp
    before: str | None
    after: str | None
    before_source: ConfigSource | None = None
    after_is_default: bool = False
    sensitive: bool = False
    before_read: bool = True  # False when the current value could not be read first (it is not None then)


def preview(current: ResourceConfigs, changes: ConfigChanges) -> tuple[KeyPreview, ...]:
    """Before -> after for each changed key, computed from the described config and its synonyms."""
    entries = current.by_name()
    out = []
    for change in changes.changes:
        entry = entries.get(change.key)
        before = entry.value if entry else None
        sensitive = bool(entry and entry.sensitive)
        after, is_default = _after(entry, change, current.entity)
        out.append(
            KeyPreview(
                key=change.key,
                op=change.op,
                before=None if sensitive else before,
                after=None if sensitive or change.key.lower().endswith("password") else after,
                before_source=entry.source if entry else None,
                after_is_default=is_default,
                sensitive=sensitive,
            )
        )
    return tuple(out)


def _after(entry: ConfigEntry | None, change: ConfigChange, entity: Entity) -> tuple[str | None, bool]:
    if change.op is ConfigOp.SET:
        return change.value, False
    if change.op is ConfigOp.DELETE:
        fallback = _fallback(entry, entity)
        return fallback, True
    current = [] if entry is None or not entry.value else [v.strip() for v in entry.value.split(",")]
    items = [v.strip() for v in (change.value or "").split(",") if v.strip()]
    if change.op is ConfigOp.APPEND:
        merged = current + [v for v in items if v not in current]
    else:
        merged = [v for v in current if v not in items]
    return ",".join(merged), False


def _fallback(entry: ConfigEntry | None, entity: Entity) -> str | None:
    """The value a key falls back to once its dynamic entry is deleted: the next synonym down."""
    if entry is None:
        return None
    wanted = dynamic_source(entity)
    for synonym in entry.synonyms:
        if synonym.source is not wanted:
            return synonym.value
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class AlterOutcome:
    """How one --alter of one entity went (or would go, with --dry-run)."""

    entity: Entity
    error: ResourceError | None = None
    previews: tuple[KeyPreview, ...] = ()
    dry_run: bool = False
    validated: bool = True  # False when the cluster offers no validate-only for this change (SCRAM)


# --- diff ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class DiffRow:
    """One key whose value differs between the compared resources (None = not set there)."""

    key: str
    values: tuple[str | None, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigDiff:
    labels: tuple[str, ...]
    rows: tuple[DiffRow, ...]
    describe_all: bool = False


def diff_configs(
    resources: Sequence[ResourceConfigs], *, describe_all: bool, labels: Sequence[str] | None = None
) -> ConfigDiff:
    """Keys whose shown values differ across `resources` (dynamic entries, or every entry with --all)."""
    if len(resources) < 2:
        raise UsageError("--diff needs at least two entities (or one entity and --diff-profile)")
    # a sensitive value is never compared or shown, but being set on one side only is a difference
    shown = [
        {e.name: "(sensitive)" if e.sensitive else e.value for e in r.shown(describe_all=describe_all)}
        for r in resources
    ]
    keys = sorted(set().union(*shown))
    rows = []
    for key in keys:
        values = tuple(s.get(key) for s in shown)
        if len(set(values)) > 1:
            rows.append(DiffRow(key=key, values=values))
    return ConfigDiff(
        labels=tuple(labels or [r.entity.label for r in resources]),
        rows=tuple(rows),
        describe_all=describe_all,
    )
