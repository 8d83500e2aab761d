"""SASL (PLAIN, SCRAM) and TLS listeners, and the authorizer enforcing ACLs on every request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.sandbox.peers import admin

pytestmark = pytest.mark.sandbox


def sasl(user: str, password: str, mechanism: str = "PLAIN") -> dict[str, Any]:
    return {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": mechanism,
        "sasl_plain_username": user,
        "sasl_plain_password": password,
    }


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_sasl_login_with_each_mechanism(make_sandbox: Callable[..., Any], mechanism: str) -> None:
    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext")
    with admin(sb.bootstrap_servers, **sasl("alice", "alice-secret", mechanism)) as client:
        assert client.describe_cluster()["cluster_id"] == sb.cluster_id


def test_sasl_wrong_password_fails(make_sandbox: Callable[..., Any]) -> None:
    from kafka.errors import KafkaError

    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext")
    with (
        pytest.raises((KafkaError, OSError)),
        admin(sb.bootstrap_servers, bootstrap_timeout_ms=2000, **sasl("alice", "wrong", "SCRAM-SHA-256")),
    ):
        pass


def test_scram_credentials_altered_at_runtime_allow_login(make_sandbox: Callable[..., Any]) -> None:
    from kafka.admin import ScramMechanism, UserScramCredentialUpsertion

    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext")
    with admin(sb.bootstrap_servers, **sasl("admin", "admin-secret")) as client:
        client.alter_user_scram_credentials(
            [UserScramCredentialUpsertion("dave", ScramMechanism.SCRAM_SHA_512, "dave-pw", 4096)]
        )
    with admin(sb.bootstrap_servers, **sasl("dave", "dave-pw", "SCRAM-SHA-512")) as client:
        assert client.describe_cluster()["cluster_id"] == sb.cluster_id


def test_authorizer_enforces_acls(make_sandbox: Callable[..., Any]) -> None:
    from kafka.admin import (
        ACL,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        NewTopic,
        ResourcePattern,
        ResourceType,
    )
    from kafka.errors import TopicAuthorizationFailedError

    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext", authorizer=True)
    with admin(sb.bootstrap_servers, **sasl("alice", "alice-secret")) as alice:
        with pytest.raises(TopicAuthorizationFailedError):
            alice.create_topics([NewTopic("team-a-orders", 1, 1)])
        with admin(sb.bootstrap_servers, **sasl("admin", "admin-secret")) as root:
            root.create_acls(
                [
                    ACL(
                        "User:alice",
                        "*",
                        ACLOperation.ALL,
                        ACLPermissionType.ALLOW,
                        ResourcePattern(ResourceType.TOPIC, "team-a-", ACLResourcePatternType.PREFIXED),
                    ),
                    ACL(
                        "User:alice",
                        "*",
                        ACLOperation.CREATE,
                        ACLPermissionType.DENY,
                        ResourcePattern(ResourceType.TOPIC, "team-a-secret", ACLResourcePatternType.LITERAL),
                    ),
                ]
            )
        alice.create_topics([NewTopic("team-a-orders", 1, 1)])
        with pytest.raises(TopicAuthorizationFailedError):
            alice.create_topics([NewTopic("team-a-secret", 1, 1)])  # DENY wins over the PREFIXED ALLOW
        assert alice.list_topics() == ["team-a-orders"]


def test_tls_listener_with_generated_ca(make_sandbox: Callable[..., Any]) -> None:
    sb = make_sandbox(controllers=1, brokers=1, security="ssl")
    assert sb.ca_file is not None and sb.ca_file.exists()
    with admin(
        sb.bootstrap_servers, security_protocol="SSL", ssl_cafile=str(sb.ca_file), ssl_check_hostname=False
    ) as client:
        assert client.describe_cluster()["cluster_id"] == sb.cluster_id
        from kafka.admin import NewTopic

        client.create_topics([NewTopic("over-tls", 1, 1)])  # forwarded to the controller over TLS too
        assert client.list_topics() == ["over-tls"]
    properties = sb.command_config("admin").read_text()
    assert "security.protocol=SSL" in properties and "ssl.truststore.location=" in properties
