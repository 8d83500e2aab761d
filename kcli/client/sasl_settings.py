"""The sasl.* client settings: the mechanism and its login, read from sasl.jaas.config as Kafka reads it.

Mechanisms and their logins (the JAAS login module and the callback handler class that Kafka's
client would load):
- PLAIN, SCRAM-SHA-256/512: PlainLoginModule / ScramLoginModule with username and password (or
  kcli's own sasl.username and sasl.password).
- GSSAPI (Kafka's default mechanism): com.sun.security.auth.module.Krb5LoginModule with useKeyTab,
  keyTab and principal, or useTicketCache (and ticketCache); the service name from
  sasl.kerberos.service.name or the JAAS option serviceName (Kafka has no default and fails
  without one; two different values are refused, as in KerberosLogin).
- OAUTHBEARER: OAuthBearerLoginModule with
  - OAuthBearerLoginCallbackHandler: the client-credentials grant against
    sasl.oauthbearer.token.endpoint.url (KIP-768), client id, secret and scope from the
    sasl.oauthbearer.client.credentials.* settings or, as before Kafka 4.1, the JAAS options
    clientId / clientSecret / scope (the settings win); a file:// URL reads the token from a file;
  - no handler: Kafka's unsecured JWS login (unsecuredLogin* options), for test clusters;
  - IAMOAuthBearerLoginCallbackHandler: an Amazon MSK IAM token (kcli-kafka[aws]).
  SASL extensions come from extension_NAME (unsecuredLoginExtension_NAME) options.
- AWS_MSK_IAM: software.amazon.msk.auth.iam.IAMLoginModule (kcli-kafka[aws]).
Java classes kcli cannot run (a custom callback handler, login class or JWT retriever, the
client-assertion grant) are refused with one line naming the setting.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kcli.errors import UsageError

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "GSSAPI", "OAUTHBEARER", "AWS_MSK_IAM")

PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"
KRB5_MODULE = "com.sun.security.auth.module.Krb5LoginModule"
OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
IAM_MODULE = "software.amazon.msk.auth.iam.IAMLoginModule"
OAUTH_HANDLERS = (
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
    "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler",  # before 4.0
)
IAM_OAUTH_HANDLER = "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler"
IAM_CLIENT_HANDLER = "software.amazon.msk.auth.iam.IAMClientCallbackHandler"
RETRIEVERS = (
    "org.apache.kafka.common.security.oauthbearer.DefaultJwtRetriever",
    "org.apache.kafka.common.security.oauthbearer.ClientCredentialsJwtRetriever",
    "org.apache.kafka.common.security.oauthbearer.FileJwtRetriever",
)
VALIDATORS = (
    "org.apache.kafka.common.security.oauthbearer.DefaultJwtValidator",
    "org.apache.kafka.common.security.oauthbearer.ClientJwtValidator",
)
_MODULES = {
    "PLAIN": PLAIN_MODULE,
    "SCRAM-SHA-256": SCRAM_MODULE,
    "SCRAM-SHA-512": SCRAM_MODULE,
    "GSSAPI": KRB5_MODULE,
    "OAUTHBEARER": OAUTH_MODULE,
    "AWS_MSK_IAM": IAM_MODULE,
}
_ASSERTION_TRIGGERS = ("sasl.oauthbearer.assertion.file", "sasl.oauthbearer.assertion.claim.iss")
_EXTENSION_KEY = re.compile(r"[A-Za-z]+")
_EXTENSION_VALUE = re.compile(r"[\x21-\x7E \t\r\n]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class KerberosLogin:
    """Where the client's Kerberos credentials come from, and the broker's service name."""

    service_name: str
    principal: str | None = None
    keytab: Path | None = None
    use_ticket_cache: bool = False
    ticket_cache: Path | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LoginTiming:
    """sasl.login.*: deadlines and retries of a token request, and when a token is renewed (Kafka's defaults).

    Kafka leaves the connect and read timeouts unset (no limit); kcli never waits without one, so
    unset means 10 s to connect and 30 s to read, within the command's own deadline.
    """

    connect_timeout_ms: int = 10000
    read_timeout_ms: int = 30000
    retry_backoff_ms: int = 100
    retry_backoff_max_ms: int = 10000
    refresh_window_factor: float = 0.8
    refresh_window_jitter: float = 0.05
    refresh_min_period_seconds: int = 60
    refresh_buffer_seconds: int = 300


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuthLogin:
    """How an OAUTHBEARER (or MSK IAM) token is had. Secrets never appear in repr."""

    kind: str  # client_credentials | file | unsecured | aws_iam
    token_endpoint_url: str | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    scope: str | None = None
    header_urlencode: bool = False
    scope_claim: str = "scope"
    sub_claim: str = "sub"
    extensions: Mapping[str, str] = field(default_factory=dict)
    unsecured_options: Mapping[str, str] = field(default_factory=dict, repr=False)
    aws_options: Mapping[str, str] = field(default_factory=dict)
    endpoint_tls: Mapping[str, str] = field(default_factory=dict, repr=False)  # ssl.* JAAS options
    timing: LoginTiming = field(default_factory=LoginTiming)


@dataclass(frozen=True, slots=True, kw_only=True)
class SaslSettings:
    """The SASL mechanism and its login. Passwords and secrets never appear in repr."""

    mechanism: str
    username: str = ""
    password: str = field(default="", repr=False)
    kerberos: KerberosLogin | None = None
    oauth: OAuthLogin | None = None


def sasl_settings(props: Mapping[str, str], protocol: str, warn: Callable[[str], None]) -> SaslSettings:
    """The SASL settings of `props` (UsageError starting with the setting's name, never quoting a secret)."""
    mechanism = (props.get("sasl.mechanism") or "GSSAPI").strip().upper()
    if mechanism not in MECHANISMS:
        raise UsageError(f"sasl.mechanism {mechanism} is not supported by kcli (use {', '.join(MECHANISMS)})")
    for key in ("sasl.login.class", "sasl.client.callback.handler.class"):
        value = _text(props, key)
        if value is not None and not (key == "sasl.client.callback.handler.class" and value == IAM_CLIENT_HANDLER):
            raise UsageError(f"{key} {value} is a Java class kcli cannot run; remove it to use kcli's own login")
    options: Mapping[str, str] = {}
    jaas_text = props.get("sasl.jaas.config")
    module = None
    if jaas_text and jaas_text.strip():
        from kcli.client.jaas import parse_jaas

        jaas = parse_jaas(jaas_text)
        options, module = jaas.options, jaas.login_module
        if module != _MODULES[mechanism]:
            if mechanism in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
                warn(
                    f"Warning: sasl.jaas.config uses {module}, but sasl.mechanism {mechanism} "
                    f"expects {_MODULES[mechanism]}; using its username and password."
                )
            else:
                raise UsageError(
                    f"sasl.jaas.config uses {module}, but sasl.mechanism {mechanism} needs {_MODULES[mechanism]}"
                )
    if mechanism == "GSSAPI":
        return SaslSettings(mechanism=mechanism, kerberos=_kerberos(props, options, jaas_text))
    if mechanism in ("OAUTHBEARER", "AWS_MSK_IAM"):
        if module is None:
            raise UsageError(f"sasl.mechanism {mechanism} needs sasl.jaas.config ({_MODULES[mechanism]} required ...;)")
        return SaslSettings(mechanism=mechanism, oauth=_oauth(props, options, mechanism))
    username = options.get("username", props.get("sasl.username"))
    password = options.get("password", props.get("sasl.password"))
    if not username or password is None:
        raise UsageError(
            f"{protocol} with {mechanism} needs credentials: set sasl.jaas.config "
            '(… required username="…" password="…";) or sasl.username and sasl.password'
        )
    if mechanism == "PLAIN" and protocol == "SASL_PLAINTEXT":
        warn("Warning: SASL PLAIN over SASL_PLAINTEXT sends the password unencrypted; use SASL_SSL.")
    return SaslSettings(mechanism=mechanism, username=username, password=password)


def _kerberos(props: Mapping[str, str], options: Mapping[str, str], jaas_text: str | None) -> KerberosLogin:
    if not jaas_text or not jaas_text.strip():
        raise UsageError(
            "sasl.mechanism GSSAPI needs sasl.jaas.config: com.sun.security.auth.module.Krb5LoginModule "
            'required useKeyTab=true keyTab="/path/client.keytab" principal="client@REALM";'
        )
    from_jaas = options.get("serviceName")
    from_config = _text(props, "sasl.kerberos.service.name")
    if from_jaas and from_config and from_jaas != from_config:
        raise UsageError(
            f"sasl.kerberos.service.name {from_config!r} conflicts with serviceName {from_jaas!r} in sasl.jaas.config"
        )
    service = from_jaas or from_config
    if not service:
        raise UsageError(
            "sasl.kerberos.service.name is not set (nor serviceName in sasl.jaas.config)",
            hint="set it to the first part of the brokers' Kerberos principal, usually kafka",
        )
    use_keytab = options.get("useKeyTab", "false").lower() == "true"
    use_cache = options.get("useTicketCache", "false").lower() == "true"
    keytab = options.get("keyTab")
    principal = options.get("principal")
    if use_keytab and not keytab:
        raise UsageError("sasl.jaas.config: useKeyTab=true needs keyTab=\"/path/to/client.keytab\"")
    if use_keytab and not principal:
        raise UsageError("sasl.jaas.config: useKeyTab=true needs principal=\"client@REALM\"")
    if not use_keytab and not use_cache:
        raise UsageError(
            "sasl.jaas.config: Krb5LoginModule needs useKeyTab=true (with keyTab and principal) or useTicketCache=true",
            hint="kcli cannot prompt for a Kerberos password; run kinit first for the ticket cache",
        )
    cache = options.get("ticketCache")
    return KerberosLogin(
        service_name=service,
        principal=principal or None,
        keytab=Path(keytab).expanduser() if use_keytab and keytab else None,
        use_ticket_cache=use_cache,
        ticket_cache=Path(cache).expanduser() if cache else None,
    )


def _oauth(props: Mapping[str, str], options: Mapping[str, str], mechanism: str) -> OAuthLogin:
    handler = _text(props, "sasl.login.callback.handler.class")
    timing = _timing(props)
    if mechanism == "AWS_MSK_IAM":
        return OAuthLogin(kind="aws_iam", aws_options=dict(options), timing=timing)
    for key, allowed in (("sasl.oauthbearer.jwt.retriever.class", RETRIEVERS), ("sasl.oauthbearer.jwt.validator.class", VALIDATORS)):
        value = _text(props, key)
        if value is not None and value not in allowed:
            raise UsageError(f"{key} {value} is a Java class kcli cannot run; kcli supports {', '.join(c.rsplit('.', 1)[1] for c in allowed)}")
    if handler == IAM_OAUTH_HANDLER:
        return OAuthLogin(kind="aws_iam", aws_options=dict(options), timing=timing)
    if handler is None:
        return OAuthLogin(
            kind="unsecured",
            unsecured_options=dict(options),
            extensions=_extensions(options, "unsecuredLoginExtension_"),
            timing=timing,
        )
    if handler not in OAUTH_HANDLERS:
        raise UsageError(f"sasl.login.callback.handler.class {handler} is a Java class kcli cannot run")
    # What makes Kafka use the client-assertion grant (ClientCredentialsRequestFormatterFactory).
    assertion = [k for k in _ASSERTION_TRIGGERS if _text(props, k) is not None]
    if assertion:
        raise UsageError(
            f"{assertion[0]}: the client-assertion grant (KIP-1139) is not supported by kcli",
            hint="use a client secret (sasl.oauthbearer.client.credentials.client.secret)",
        )
    url = _text(props, "sasl.oauthbearer.token.endpoint.url")
    if url is None:
        raise UsageError(
            "sasl.oauthbearer.token.endpoint.url is not set; OAuthBearerLoginCallbackHandler needs the token endpoint"
        )
    scheme = url.split(":", 1)[0].lower()
    if scheme not in ("http", "https", "file"):
        raise UsageError(
            f"sasl.oauthbearer.token.endpoint.url {url!r} must be an http, https or file URL"
        )
    claims = {
        name: (_text(props, f"sasl.oauthbearer.{name}.claim.name") or name) for name in ("scope", "sub")
    }
    extensions = _extensions(options, "extension_")
    if scheme == "file":
        return OAuthLogin(
            kind="file", token_endpoint_url=url, scope_claim=claims["scope"], sub_claim=claims["sub"],
            extensions=extensions, timing=timing,
        )  # fmt: skip
    client_id = _text(props, "sasl.oauthbearer.client.credentials.client.id") or _stripped(options.get("clientId"))
    secret = _text(props, "sasl.oauthbearer.client.credentials.client.secret") or _stripped(options.get("clientSecret"))
    if not client_id:
        raise UsageError(
            "sasl.oauthbearer.client.credentials.client.id is not set (nor clientId in sasl.jaas.config)"
        )
    if not secret:
        raise UsageError(
            "sasl.oauthbearer.client.credentials.client.secret is not set (nor clientSecret in sasl.jaas.config)"
        )
    return OAuthLogin(
        kind="client_credentials",
        token_endpoint_url=url,
        client_id=client_id,
        client_secret=secret,
        scope=_text(props, "sasl.oauthbearer.scope") or _stripped(options.get("scope")),
        header_urlencode=(_text(props, "sasl.oauthbearer.header.urlencode") or "false").lower() == "true",
        scope_claim=claims["scope"],
        sub_claim=claims["sub"],
        extensions=extensions,
        endpoint_tls={k: v for k, v in options.items() if k.startswith("ssl.")},
        timing=timing,
    )


def _timing(props: Mapping[str, str]) -> LoginTiming:
    from kcli.client.config_defs import parse_setting

    values: dict[str, float] = {}
    for key in (
        "sasl.login.connect.timeout.ms",
        "sasl.login.read.timeout.ms",
        "sasl.login.retry.backoff.ms",
        "sasl.login.retry.backoff.max.ms",
        "sasl.login.refresh.window.factor",
        "sasl.login.refresh.window.jitter",
        "sasl.login.refresh.min.period.seconds",
        "sasl.login.refresh.buffer.seconds",
    ):
        raw = _text(props, key)
        if raw is not None:
            parsed = parse_setting(key, raw)
            assert isinstance(parsed, int | float)
            values[key] = parsed
    default = LoginTiming()

    def get(key: str, fallback: float) -> float:
        return values.get(key, fallback)

    return LoginTiming(
        connect_timeout_ms=int(get("sasl.login.connect.timeout.ms", default.connect_timeout_ms)),
        read_timeout_ms=int(get("sasl.login.read.timeout.ms", default.read_timeout_ms)),
        retry_backoff_ms=int(get("sasl.login.retry.backoff.ms", default.retry_backoff_ms)),
        retry_backoff_max_ms=int(get("sasl.login.retry.backoff.max.ms", default.retry_backoff_max_ms)),
        refresh_window_factor=get("sasl.login.refresh.window.factor", default.refresh_window_factor),
        refresh_window_jitter=get("sasl.login.refresh.window.jitter", default.refresh_window_jitter),
        refresh_min_period_seconds=int(get("sasl.login.refresh.min.period.seconds", default.refresh_min_period_seconds)),
        refresh_buffer_seconds=int(get("sasl.login.refresh.buffer.seconds", default.refresh_buffer_seconds)),
    )


def _extensions(options: Mapping[str, str], prefix: str) -> dict[str, str]:
    """SASL extensions from the JAAS options (RFC 7628 key=value pairs, checked as Kafka does)."""
    extensions = {key[len(prefix) :]: value for key, value in options.items() if key.startswith(prefix)}
    for key, value in extensions.items():
        if key == "auth" or not _EXTENSION_KEY.fullmatch(key):
            raise UsageError(f"sasl.jaas.config: the SASL extension name {key!r} is invalid (letters only, not auth)")
        if not _EXTENSION_VALUE.fullmatch(value):
            raise UsageError(f"sasl.jaas.config: the value of SASL extension {key!r} holds characters RFC 7628 forbids")
    return extensions


def _text(props: Mapping[str, str], key: str) -> str | None:
    return _stripped(props.get(key))


def _stripped(value: str | None) -> str | None:
    return value.strip() if value is not None and value.strip() else None
