"""The admin client's settings as Kafka's ConfigDef declares them: each one's type and valid values.

Facts from Kafka's AdminClientConfig, CommonClientConfigs, SslConfigs.addClientSslSupport and
SaslConfigs.addClientSaslSupport (4.4); the last group are settings only kcli reads.

Behavior (ConfigDef.parseType and its validators):
- Numbers are trimmed, then parsed as Java does (an optional sign and ASCII digits; no `_`);
  INT, SHORT and LONG must fit the Java type, then the setting's own range (atLeast, between).
- BOOLEAN is true or false in any case; enumerations are exact, or case-insensitive where Kafka
  uses CaseInsensitiveValidString; CLASS is a Java class name; LIST, STRING, PASSWORD are free text.
- Every error is a UsageError whose message starts with the setting's name, so the caller can add
  where the value came from (file, profile, environment variable).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import NamedTuple

from kcli.errors import UsageError
from kcli.integers import clipped, java_long
from kcli.text import INT16_STRING_BYTES, surrogate_problem


class Kind(enum.Enum):
    BOOLEAN = "BOOLEAN"
    STRING = "STRING"
    INT = "INT"
    SHORT = "SHORT"
    LONG = "LONG"
    DOUBLE = "DOUBLE"
    LIST = "LIST"
    CLASS = "CLASS"
    PASSWORD = "PASSWORD"


JAVA_RANGES = {
    Kind.SHORT: (-(2**15), 2**15 - 1),
    Kind.INT: (-(2**31), 2**31 - 1),
    Kind.LONG: (-(2**63), 2**63 - 1),
}
_JAVA_DOUBLE = re.compile(r"[+-]?(NaN|Infinity|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)[fFdD]?")
_JAVA_CLASS = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*")


class SettingDef(NamedTuple):  # a NamedTuple: every command loads this table, a dataclass costs ~1 ms
    kind: Kind
    at_least: float | None = None
    at_most: float | None = None
    choices: tuple[str, ...] = ()
    case_insensitive: bool = False
    max_bytes: int | None = None  # UTF-8 bytes a protocol field can carry (client.id: int16 length)


S, P, L, C = SettingDef(Kind.STRING), SettingDef(Kind.PASSWORD), SettingDef(Kind.LIST), SettingDef(Kind.CLASS)
B = SettingDef(Kind.BOOLEAN)


def _int(at_least: int | None = None, at_most: int | None = None) -> SettingDef:
    return SettingDef(Kind.INT, at_least, at_most)


def _long(at_least: int | None = None) -> SettingDef:
    return SettingDef(Kind.LONG, at_least)


DEFS: dict[str, SettingDef] = {
    # AdminClientConfig / CommonClientConfigs
    "bootstrap.servers": L,
    "bootstrap.controllers": L,
    # every request header carries it as an int16-length STRING
    "client.id": SettingDef(Kind.STRING, max_bytes=INT16_STRING_BYTES),
    "metadata.max.age.ms": _long(0),
    "send.buffer.bytes": _int(-1),
    "receive.buffer.bytes": _int(-1),
    "reconnect.backoff.ms": _long(0),
    "reconnect.backoff.max.ms": _long(0),
    "retry.backoff.ms": _long(0),
    "retry.backoff.max.ms": _long(0),
    "enable.metrics.push": B,
    "request.timeout.ms": _int(0),
    "socket.connection.setup.timeout.ms": _long(),
    "socket.connection.setup.timeout.max.ms": _long(),
    "connections.max.idle.ms": _long(),
    "retries": _int(0, 2**31 - 1),
    "default.api.timeout.ms": _int(0),
    "metrics.sample.window.ms": _long(0),
    "metrics.num.samples": _int(1),
    "metric.reporters": L,
    "metrics.recording.level": SettingDef(Kind.STRING, choices=("INFO", "DEBUG", "TRACE")),
    "client.dns.lookup": SettingDef(
        Kind.STRING, choices=("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only")
    ),
    "security.providers": S,
    "security.protocol": SettingDef(
        Kind.STRING, choices=("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"), case_insensitive=True
    ),
    "metadata.recovery.strategy": SettingDef(
        Kind.STRING, choices=("none", "rebootstrap"), case_insensitive=True
    ),
    "metadata.recovery.rebootstrap.trigger.ms": _long(0),
    "auto.include.jmx.reporter": B,
    "client.rack": S,
    "host.resolver.class": C,
    # SslConfigs.addClientSslSupport
    "ssl.protocol": S,
    "ssl.provider": S,
    "ssl.cipher.suites": L,
    "ssl.enabled.protocols": L,
    "ssl.keystore.type": S,
    "ssl.keystore.location": S,
    "ssl.keystore.password": P,
    "ssl.key.password": P,
    "ssl.keystore.key": P,
    "ssl.keystore.certificate.chain": P,
    "ssl.truststore.certificates": P,
    "ssl.truststore.type": S,
    "ssl.truststore.location": S,
    "ssl.truststore.password": P,
    "ssl.keymanager.algorithm": S,
    "ssl.trustmanager.algorithm": S,
    "ssl.endpoint.identification.algorithm": S,
    "ssl.secure.random.implementation": S,
    "ssl.engine.factory.class": C,
    # SaslConfigs.addClientSaslSupport
    "sasl.kerberos.service.name": S,
    "sasl.kerberos.kinit.cmd": S,
    "sasl.kerberos.ticket.renew.window.factor": SettingDef(Kind.DOUBLE),
    "sasl.kerberos.ticket.renew.jitter": SettingDef(Kind.DOUBLE),
    "sasl.kerberos.min.time.before.relogin": _long(),
    "sasl.login.refresh.window.factor": SettingDef(Kind.DOUBLE, 0.5, 1.0),
    "sasl.login.refresh.window.jitter": SettingDef(Kind.DOUBLE, 0.0, 0.25),
    "sasl.login.refresh.min.period.seconds": SettingDef(Kind.SHORT, 0, 900),
    "sasl.login.refresh.buffer.seconds": SettingDef(Kind.SHORT, 0, 3600),
    "sasl.mechanism": S,
    "sasl.jaas.config": P,
    "sasl.client.callback.handler.class": C,
    "sasl.login.callback.handler.class": C,
    "sasl.login.class": C,
    "sasl.login.connect.timeout.ms": _int(),
    "sasl.login.read.timeout.ms": _int(),
    "sasl.login.retry.backoff.max.ms": _long(),
    "sasl.login.retry.backoff.ms": _long(),
    "sasl.oauthbearer.jwt.retriever.class": C,
    "sasl.oauthbearer.jwt.validator.class": C,
    "sasl.oauthbearer.scope": S,
    "sasl.oauthbearer.client.credentials.client.id": S,
    "sasl.oauthbearer.client.credentials.client.secret": P,
    "sasl.oauthbearer.assertion.algorithm": SettingDef(
        Kind.STRING, choices=("ES256", "RS256"), case_insensitive=True
    ),
    "sasl.oauthbearer.assertion.claim.aud": S,
    "sasl.oauthbearer.assertion.claim.exp.seconds": _int(0, 86400),
    "sasl.oauthbearer.assertion.claim.iss": S,
    "sasl.oauthbearer.assertion.claim.jti.include": B,
    "sasl.oauthbearer.assertion.claim.nbf.seconds": _int(0, 3600),
    "sasl.oauthbearer.assertion.claim.sub": S,
    "sasl.oauthbearer.assertion.file": S,
    "sasl.oauthbearer.assertion.private.key.file": S,
    "sasl.oauthbearer.assertion.private.key.passphrase": P,
    "sasl.oauthbearer.assertion.template.file": S,
    "sasl.oauthbearer.scope.claim.name": S,
    "sasl.oauthbearer.sub.claim.name": S,
    "sasl.oauthbearer.token.endpoint.url": S,
    "sasl.oauthbearer.jwks.endpoint.url": S,
    "sasl.oauthbearer.jwks.endpoint.refresh.ms": _long(),
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": _long(),
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms": _long(),
    "sasl.oauthbearer.clock.skew.seconds": _int(),
    "sasl.oauthbearer.allow.unverified.audience": B,
    "sasl.oauthbearer.expected.audience": L,
    "sasl.oauthbearer.allow.unverified.issuer": B,
    "sasl.oauthbearer.expected.issuer": S,
    "sasl.oauthbearer.header.urlencode": B,
    # read by kcli only
    "metadata.cluster.check.enable": B,
    "expected.cluster.id": S,
    "sasl.username": S,
    "sasl.password": P,
}


def parse_setting(key: str, raw: str) -> object:
    """The value of one setting, parsed and checked as Kafka would (UsageError starting with `key`)."""
    definition = DEFS.get(key)
    if definition is None:
        return raw
    problem = surrogate_problem(raw)  # "\\uD800" in a .properties file, TOML or JSON
    if problem is not None:
        raise UsageError(f"{key} {problem}")
    text = raw.strip()
    kind = definition.kind
    if definition.max_bytes is not None and len(text.encode()) > definition.max_bytes:
        raise UsageError(
            f"{key} is {len(text.encode())} bytes long, over the {definition.max_bytes} bytes "
            "Kafka's protocol carries for it"
        )
    if kind in JAVA_RANGES:
        low, high = JAVA_RANGES[kind]
        value = java_long(text)
        if value is None or not low <= value <= high:
            raise UsageError(
                f"{key} must be an integer of Kafka's type {kind.value} ({low} to {high}), not {_shown(text)}"
            )
        number: float = value
        _check_range(key, definition, number, text)
        return number
    if kind is Kind.DOUBLE:
        if not _JAVA_DOUBLE.fullmatch(text):
            raise UsageError(f"{key} must be a number of Kafka's type DOUBLE, not {_shown(text)}")
        number = float(text.rstrip("fFdD").replace("Infinity", "inf"))
        _check_range(key, definition, number, text)
        return number
    if kind is Kind.BOOLEAN:
        if text.lower() not in ("true", "false"):
            raise UsageError(f"{key} must be true or false, not {_shown(text)}")
        return text.lower() == "true"
    if definition.choices:
        wanted = text.upper() if definition.case_insensitive else text
        allowed = (
            [c.upper() for c in definition.choices] if definition.case_insensitive else definition.choices
        )
        if wanted not in allowed:
            raise UsageError(f"{key} {_shown(text)} is not one of {', '.join(definition.choices)}")
        return text
    if kind is Kind.CLASS and text and not _JAVA_CLASS.fullmatch(text):
        raise UsageError(f"{key} {_shown(text)} is not a Java class name")
    if kind is Kind.LIST:
        return [item.strip() for item in text.split(",")] if text else []
    return text


def check_settings(props: Mapping[str, str]) -> None:
    """Parse every known setting of `props` (UsageError for the first bad one, in key order)."""
    for key in sorted(props):
        parse_setting(key, props[key])


def _check_range(key: str, definition: SettingDef, number: float, text: str) -> None:
    low, high = definition.at_least, definition.at_most
    shown = float if definition.kind is Kind.DOUBLE else int
    if low is not None and high is not None and not low <= number <= high:
        raise UsageError(f"{key} must be between {shown(low)} and {shown(high)}, not {clipped(text)}")
    if low is not None and number < low:
        raise UsageError(f"{key} must be at least {shown(low)}, not {clipped(text)}")


def _shown(text: str) -> str:
    """A bad value for an error line: quoted, and cut when it is long."""
    return repr(clipped(text))
