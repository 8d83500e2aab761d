"""SASL/OAUTHBEARER against a real Kafka broker whose listener checks tokens with Kafka's own
OAuthBearerValidatorCallbackHandler (JWKS, expected audience and issuer) from an OIDC issuer started
by the test on loopback.

The same client.properties goes to Kafka's kafka-cluster.sh and to kcli: both succeed, and both fail
for a wrong client secret and for an expired token. The broker limits a session to a few seconds
(connections.max.reauth.ms): kcli re-authenticates its open connection with a fresh token (KIP-368).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.security.oidc_issuer import Client, Issuer, running_issuer
from tests.security.realkafka.conftest import one_error_line
from tests.security.realkafka.kafka_node import KafkaNode, running_node, write_properties

pytest.importorskip("joserfc", reason="the test issuer needs joserfc (kcli-kafka[test])")

OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
LOGIN_HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
VALIDATOR = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
SECRET = "client-secret-5528"
REAUTH_MS = 4000


@pytest.fixture(scope="module")
def issuer(kafka_dist: Path) -> Iterator[Issuer]:
    clients = {"kcli-admin": Client(SECRET, lifetime=300), "expired-client": Client(SECRET, lifetime=-120),
               "short-client": Client(SECRET, lifetime=60)}  # fmt: skip
    with running_issuer(clients) as server:
        yield server


def allowed_urls(issuer: Issuer) -> str:
    # Kafka 4.x only fetches OAuth URLs its JVM allows (org.apache.kafka.sasl.oauthbearer.allowed.urls).
    return f"-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls={issuer.jwks_url},{issuer.token_url}"


@pytest.fixture(scope="module")
def broker(issuer: Issuer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaNode]:
    settings = {
        "sasl.enabled.mechanisms": "OAUTHBEARER",
        "listener.name.client.oauthbearer.sasl.jaas.config": f"{OAUTH_MODULE} required ;",
        "listener.name.client.oauthbearer.sasl.server.callback.handler.class": VALIDATOR,
        "listener.name.client.oauthbearer.connections.max.reauth.ms": str(REAUTH_MS),
        "sasl.oauthbearer.jwks.endpoint.url": issuer.jwks_url,
        "sasl.oauthbearer.expected.audience": "kafka",
        "sasl.oauthbearer.expected.issuer": issuer.url,
    }
    with running_node(
        tmp_path_factory.mktemp("kafka-oauth"),
        client_protocol="SASL_PLAINTEXT",
        settings=settings,
        kafka_opts=allowed_urls(issuer),
    ) as node:
        yield node


def oauth_props(issuer: Issuer, client_id: str, secret: str) -> dict[str, str]:
    return {
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "OAUTHBEARER",
        "sasl.login.callback.handler.class": LOGIN_HANDLER,
        "sasl.oauthbearer.token.endpoint.url": issuer.token_url,
        "sasl.jaas.config": f'{OAUTH_MODULE} required clientId="{client_id}" clientSecret="{secret}" scope="kafka";',
    }


def kafka_tool(broker: KafkaNode, issuer: Issuer, config: Path) -> tuple[int, str]:
    result = broker.tool("kafka-cluster.sh", "cluster-id", "--bootstrap-server", broker.bootstrap,
                         "--command-config", str(config), kafka_opts=allowed_urls(issuer))  # fmt: skip
    return result.returncode, result.stdout + result.stderr


def test_client_credentials_with_kafkas_validator(broker: KafkaNode, issuer: Issuer, tmp_path: Path) -> None:
    config = write_properties(tmp_path / "c.properties", oauth_props(issuer, "kcli-admin", SECRET))
    code, output = kafka_tool(broker, issuer, config)
    assert code == 0 and f"Cluster ID: {broker.cluster_id}" in output, output
    before = len(issuer.token_requests)
    result = invoke("cluster-id", "-b", broker.bootstrap, "-c", str(config))
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {broker.cluster_id}"
    assert issuer.token_requests[before:] == ["kcli-admin"]  # one token for every connection of the run
    features = invoke("features", "-b", broker.bootstrap, "-c", str(config), "describe")
    assert features.code == 0 and "metadata.version" in features.stdout, features.stderr


def test_both_fail_for_a_wrong_secret(broker: KafkaNode, issuer: Issuer, tmp_path: Path) -> None:
    config = write_properties(tmp_path / "c.properties", oauth_props(issuer, "kcli-admin", "wrong-secret-3301"))
    code, output = kafka_tool(broker, issuer, config)
    assert code != 0 and "401" in output, output
    line = one_error_line(invoke("cluster-id", "-b", broker.bootstrap, "-c", str(config)), code=1)
    assert "HTTP 401" in line and "invalid_client" in line, line
    debug = invoke("--debug", "cluster-id", "-b", broker.bootstrap, "-c", str(config))
    assert debug.code == 1 and "wrong-secret-3301" not in debug.stderr + debug.stdout


def test_both_fail_for_an_expired_token(broker: KafkaNode, issuer: Issuer, tmp_path: Path) -> None:
    config = write_properties(tmp_path / "c.properties", oauth_props(issuer, "expired-client", SECRET))
    code, output = kafka_tool(broker, issuer, config)
    assert code != 0, output
    line = one_error_line(invoke("cluster-id", "-b", broker.bootstrap, "-c", str(config)), code=1)
    assert "SASL_AUTHENTICATION_FAILED" in line and "invalid_token" in line, line


def test_an_open_connection_reauthenticates_before_the_session_ends(broker: KafkaNode, issuer: Issuer) -> None:
    """KIP-368: the broker gives each session REAUTH_MS; past it, an unrefreshed connection is closed."""
    from kcli.client.admin import Admin
    from kcli.client.config import config_from_properties

    props = {"bootstrap.servers": broker.bootstrap, **oauth_props(issuer, "short-client", SECRET)}
    trace: list[str] = []

    async def scenario() -> tuple[str, str]:
        config = config_from_properties(props, warn=lambda _: None)
        async with Admin(config, trace=trace.append) as admin:
            first = await admin.describe_cluster()
            await asyncio.sleep(REAUTH_MS / 1000 + 1)
            second = await admin.describe_cluster()
            return first.cluster_id, second.cluster_id

    before = len(issuer.token_requests)
    started = time.monotonic()
    assert asyncio.run(scenario()) == (broker.cluster_id, broker.cluster_id)
    assert time.monotonic() - started > REAUTH_MS / 1000
    assert any("re-authenticating" in line for line in trace), trace
    assert not any("closing" in line and "closed the connection" in line for line in trace), trace
    assert any("SASL session lifetime" in line for line in trace)
    assert issuer.token_requests[before:].count("short-client") >= 1
