"""--alter of users, clients and ips: quota changes and SCRAM credentials, checked as ConfigCommand does."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kcli.errors import UsageError
from kcli.integers import clipped, java_long
from kcli.kafka import (
    SCRAM_DEFAULT_ITERATIONS,
    SCRAM_MAX_ITERATIONS,
    SCRAM_MIN_ITERATIONS,
    ConfigOp,
    ScramMechanism,
)
from kcli.ops.config_spec import ConfigChanges, EntityType, Selection

# Client quota keys and their types (QuotaConfig in Kafka): integral types refuse fractions.
QUOTA_KEY_TYPES: dict[str, str] = {
    "producer_byte_rate": "LONG",
    "consumer_byte_rate": "LONG",
    "request_percentage": "DOUBLE",
    "controller_mutation_rate": "DOUBLE",
    "connection_creation_rate": "INT",
}
IP_QUOTA_KEYS = frozenset(
    {"connection_creation_rate"}
)  # the keys of ip entities; users and clients have the rest
CLIENT_QUOTA_KEYS = frozenset(QUOTA_KEY_TYPES) - IP_QUOTA_KEYS


@dataclass(frozen=True, slots=True, kw_only=True)
class QuotaChange:
    """One AlterClientQuotas op: a value to set, or None to remove the key."""

    key: str
    value: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ScramUpsert:
    """A SCRAM credential to create or replace (the password is salted client-side before sending)."""

    mechanism: ScramMechanism
    iterations: int
    password: str = field(repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class QuotaPlan:
    """What an --alter of users/clients/ips sends: quota ops, or SCRAM upserts and deletions."""

    quota: tuple[QuotaChange, ...] = ()
    scram_upserts: tuple[ScramUpsert, ...] = ()
    scram_deletes: tuple[ScramMechanism, ...] = ()

    @property
    def is_scram(self) -> bool:
        return bool(self.scram_upserts or self.scram_deletes)


def plan_quota_alter(selection: Selection, changes: ConfigChanges) -> QuotaPlan:
    """Split quota/SCRAM changes and check them the way ConfigCommand does (UsageError if bad)."""
    if any(c.op in (ConfigOp.APPEND, ConfigOp.SUBTRACT) for c in changes.changes):
        raise UsageError("--append-config/--subtract-config apply to list configs, not to quotas or SCRAM")
    types = set(selection.types)
    allowed = IP_QUOTA_KEYS if EntityType.IPS in types else CLIENT_QUOTA_KEYS
    sets = changes.sets
    deletes = changes.deletes
    scram_sets = {k: v for k, v in sets.items() if ScramMechanism.from_name(k)}
    scram_deletes = [k for k in deletes if ScramMechanism.from_name(k)]
    unknown_sets = [k for k in sets if k not in allowed and k not in scram_sets]
    unknown_deletes = [k for k in deletes if k not in allowed and k not in scram_deletes]
    users_only = types == {EntityType.USERS}
    if EntityType.IPS in types:
        bad = [k for k in dict.fromkeys([*sets, *deletes]) if k not in IP_QUOTA_KEYS]
        if bad:
            raise UsageError(
                "Only connection quota configs can be added for 'ips' using --bootstrap-server. "
                f"Unexpected config names: {', '.join(bad)}"
            )
    elif not users_only:
        bad_add = unknown_sets + list(scram_sets)
        bad_delete = unknown_deletes + scram_deletes
        if bad_add:
            raise UsageError(
                "Only quota configs can be added for 'clients' using --bootstrap-server. "
                f"Unexpected config names: {','.join(bad_add)}"
            )
        if bad_delete:
            raise UsageError(
                "Only quota configs can be deleted for 'clients' using --bootstrap-server. "
                f"Unexpected config names: {','.join(bad_delete)}"
            )
    else:
        if unknown_sets:
            raise UsageError(
                "Only quota and SCRAM credential configs can be added for 'users' using --bootstrap-server. "
                f"Unexpected config names: {','.join(unknown_sets)}"
            )
        if unknown_deletes:
            raise UsageError(
                "Only quota and SCRAM credential configs can be deleted for 'users' using --bootstrap-server. "
                f"Unexpected config names: {','.join(unknown_deletes)}"
            )
        if scram_sets or scram_deletes:
            if any(e.default for e in selection.entities):
                raise UsageError(
                    "The use of --entity-default or --user-defaults is not allowed with User SCRAM "
                    "Credentials using --bootstrap-server."
                )
            if len(scram_sets) != len(sets) or len(scram_deletes) != len(deletes):
                raise UsageError(
                    "Cannot alter both quota and SCRAM credential configs simultaneously for 'users' "
                    "using --bootstrap-server."
                )
            upserts = tuple(parse_scram_value(k, v) for k, v in scram_sets.items())
            mechanisms = tuple(
                m for m in (ScramMechanism.from_name(k) for k in scram_deletes) if m is not None
            )
            return QuotaPlan(scram_upserts=upserts, scram_deletes=mechanisms)
    quota = [QuotaChange(key=k, value=parse_quota_value(k, v)) for k, v in sets.items()]
    quota += [QuotaChange(key=k, value=None) for k in deletes]
    return QuotaPlan(quota=tuple(quota))


def parse_quota_value(key: str, value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise UsageError(f"Cannot parse quota configuration value for {key}: {value}") from None
    if not math.isfinite(number):
        raise UsageError(f"Cannot parse quota configuration value for {key}: {value}")
    return number


def parse_scram_value(key: str, value: str) -> ScramUpsert:
    """`SCRAM-SHA-512=[iterations=8192,password=secret]` (brackets already stripped)."""
    mechanism = ScramMechanism.from_name(key)
    assert mechanism is not None
    fields: dict[str, str] = {}
    for part in value.split(","):
        name, sep, item = part.partition("=")
        if not sep or name.strip() not in ("iterations", "password"):
            raise UsageError(
                f"Invalid SCRAM credential for {key}: expected [iterations=N,password=P] or [password=P]"
            )
        fields[name.strip()] = item
    if "password" not in fields:
        raise UsageError(f"Invalid SCRAM credential for {key}: a password is required")
    iterations = SCRAM_DEFAULT_ITERATIONS
    if "iterations" in fields:
        iterations = _scram_iterations(key, fields["iterations"].strip())
    return ScramUpsert(mechanism=mechanism, iterations=iterations, password=fields["password"])


def _scram_iterations(key: str, text: str) -> int:
    """The iteration count of `key`'s credential, checked before any PBKDF2 is computed: a count
    past 16384 would cost minutes of hashing for a credential every Kafka controller refuses."""
    count = java_long(text)
    if count is None or not -(2**31) <= count < 2**31:  # Integer.parseInt in kafka-configs.sh
        raise UsageError(
            f"Invalid SCRAM iterations for {key}: {clipped(text)}",
            hint=f"give a whole number from {SCRAM_MIN_ITERATIONS} to {SCRAM_MAX_ITERATIONS}",
        )
    if count == -1:
        return SCRAM_DEFAULT_ITERATIONS
    if count < SCRAM_MIN_ITERATIONS:
        raise UsageError(
            f"Iterations {count} is less than the minimum {SCRAM_MIN_ITERATIONS} required for {key}"
        )
    if count > SCRAM_MAX_ITERATIONS:
        raise UsageError(
            f"Iterations {count} is more than the maximum {SCRAM_MAX_ITERATIONS} Kafka's controllers "
            f"accept for {key}",
            hint="they answer UNACCEPTABLE_CREDENTIAL 'Too many iterations'",
        )
    return count
