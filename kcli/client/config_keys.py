"""The client config keys kcli knows: those it acts on, Kafka's that it accepts, and secret ones."""

from __future__ import annotations

import re

_SECRET_KEY = re.compile(r"(password|passphrase|secret|jaas|\.key$|credential|token)", re.IGNORECASE)
# Kafka client settings whose names look secret but whose values are not (Kafka's type is not PASSWORD).
_NOT_SECRET = frozenset(
    {
        "sasl.oauthbearer.token.endpoint.url",
        "sasl.oauthbearer.client.credentials.client.id",
        "sasl.oauthbearer.assertion.private.key.file",
    }
)


def is_secret_key(key: str) -> bool:
    """Whether the value of a config key is a secret that must never be shown.

    Every setting Kafka types PASSWORD matches (ssl.keystore.password, ssl.key.password,
    ssl.truststore.password, ssl.keystore.key, ssl.keystore.certificate.chain,
    ssl.truststore.certificates, sasl.jaas.config, sasl.oauthbearer.client.credentials.client.secret,
    sasl.oauthbearer.assertion.private.key.passphrase), and so does any unknown key that looks secret.
    """
    if key in _NOT_SECRET:
        return False
    return bool(_SECRET_KEY.search(key)) or key in _PASSWORD_TYPED


# Kafka's PASSWORD-typed client settings whose names the pattern above would miss.
_PASSWORD_TYPED = frozenset({"ssl.keystore.certificate.chain", "ssl.truststore.certificates"})

# Keys kcli acts on.
HONOURED_KEYS = frozenset(
    {
        "bootstrap.servers",
        "bootstrap.controllers",
        "security.protocol",
        "client.id",
        "request.timeout.ms",
        "default.api.timeout.ms",
        "retry.backoff.ms",
        "retry.backoff.max.ms",
        "socket.connection.setup.timeout.ms",
        "metadata.recovery.strategy",
        "metadata.recovery.rebootstrap.trigger.ms",
        "metadata.cluster.check.enable",
        "expected.cluster.id",
        "sasl.mechanism",
        "sasl.jaas.config",
        "sasl.username",
        "sasl.password",
        "ssl.truststore.location",
        "ssl.truststore.type",
        "ssl.truststore.password",
        "ssl.truststore.certificates",
        "ssl.keystore.location",
        "ssl.keystore.type",
        "ssl.keystore.password",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.key.password",
        "ssl.endpoint.identification.algorithm",
        "ssl.protocol",
        "ssl.enabled.protocols",
        "ssl.cipher.suites",
        "ssl.engine.factory.class",
        "sasl.kerberos.service.name",
        "sasl.client.callback.handler.class",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "sasl.login.connect.timeout.ms",
        "sasl.login.read.timeout.ms",
        "sasl.login.retry.backoff.ms",
        "sasl.login.retry.backoff.max.ms",
        "sasl.login.refresh.buffer.seconds",
        "sasl.login.refresh.min.period.seconds",
        "sasl.login.refresh.window.factor",
        "sasl.login.refresh.window.jitter",
        "sasl.oauthbearer.token.endpoint.url",
        "sasl.oauthbearer.scope",
        "sasl.oauthbearer.client.credentials.client.id",
        "sasl.oauthbearer.client.credentials.client.secret",
        "sasl.oauthbearer.scope.claim.name",
        "sasl.oauthbearer.sub.claim.name",
        "sasl.oauthbearer.header.urlencode",
        "sasl.oauthbearer.jwt.retriever.class",
        "sasl.oauthbearer.jwt.validator.class",
        "sasl.oauthbearer.assertion.algorithm",
        "sasl.oauthbearer.assertion.claim.aud",
        "sasl.oauthbearer.assertion.claim.exp.seconds",
        "sasl.oauthbearer.assertion.claim.iss",
        "sasl.oauthbearer.assertion.claim.jti.include",
        "sasl.oauthbearer.assertion.claim.nbf.seconds",
        "sasl.oauthbearer.assertion.claim.sub",
        "sasl.oauthbearer.assertion.file",
        "sasl.oauthbearer.assertion.private.key.file",
        "sasl.oauthbearer.assertion.private.key.passphrase",
        "sasl.oauthbearer.assertion.template.file",
    }
)

# Kafka Admin client keys that kcli accepts without acting on them (no warning, as Kafka would
# accept them); anything else gets the "unknown key" warning.
KNOWN_KAFKA_KEYS = frozenset(
    {
        "client.dns.lookup",
        "connections.max.idle.ms",
        "metadata.max.age.ms",
        "metric.reporters",
        "metrics.num.samples",
        "metrics.recording.level",
        "metrics.sample.window.ms",
        "receive.buffer.bytes",
        "send.buffer.bytes",
        "reconnect.backoff.ms",
        "reconnect.backoff.max.ms",
        "retries",
        "socket.connection.setup.timeout.max.ms",
        "enable.metrics.push",
        "auto.include.jmx.reporter",
        "client.rack",
        "host.resolver.class",
        "security.providers",
        "ssl.keymanager.algorithm",
        "ssl.trustmanager.algorithm",
        "ssl.secure.random.implementation",
        "ssl.provider",
        "sasl.kerberos.kinit.cmd",
        "sasl.kerberos.min.time.before.relogin",
        "sasl.kerberos.ticket.renew.jitter",
        "sasl.kerberos.ticket.renew.window.factor",
        "sasl.oauthbearer.jwks.endpoint.url",
        "sasl.oauthbearer.jwks.endpoint.refresh.ms",
        "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
        "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
        "sasl.oauthbearer.clock.skew.seconds",
        "sasl.oauthbearer.allow.unverified.audience",
        "sasl.oauthbearer.expected.audience",
        "sasl.oauthbearer.allow.unverified.issuer",
        "sasl.oauthbearer.expected.issuer",
    }
)

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
