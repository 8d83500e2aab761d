"""The client config keys kcli knows: those it acts on, Kafka's that it accepts, and secret ones."""

from __future__ import annotations

import re

_SECRET_KEY = re.compile(r"(password|secret|jaas|\.key$|credential|token)", re.IGNORECASE)


def is_secret_key(key: str) -> bool:
    """Whether the value of a config key is a secret that must never be shown."""
    return bool(_SECRET_KEY.search(key))


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
        "ssl.cipher.suites",
        "ssl.engine.factory.class",
        "ssl.keymanager.algorithm",
        "ssl.trustmanager.algorithm",
        "ssl.secure.random.implementation",
        "ssl.provider",
        "sasl.kerberos.service.name",
        "sasl.kerberos.kinit.cmd",
        "sasl.kerberos.min.time.before.relogin",
        "sasl.kerberos.ticket.renew.jitter",
        "sasl.kerberos.ticket.renew.window.factor",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "sasl.client.callback.handler.class",
        "sasl.login.refresh.buffer.seconds",
        "sasl.login.refresh.min.period.seconds",
        "sasl.login.refresh.window.factor",
        "sasl.login.refresh.window.jitter",
        "sasl.login.connect.timeout.ms",
        "sasl.login.read.timeout.ms",
        "sasl.login.retry.backoff.ms",
        "sasl.login.retry.backoff.max.ms",
    }
)

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
