"""Kafka's Java clients in groups and transactions against the emulator, and its delegation tokens through
the Java AdminClient (kafka-clients from the test extra).

GroupPeer.java produces with a transactional producer (one committed transaction, one aborted) and three
consumers of one group read the committed records (read_committed) and commit.
"""

from __future__ import annotations

import base64
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.peers.java.conftest import client_props
from tests.peers.java.peer import JavaError, JavaPeer, run_group_peer

pytestmark = [pytest.mark.java, pytest.mark.sandbox]


def _topic(sandbox: Any, partitions: int) -> str:
    from kafka.admin import NewTopic

    from tests.sandbox.peers import admin

    name = f"java-{uuid.uuid4().hex[:8]}"
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, partitions, 3)])
    return name


def test_java_consumers_share_a_group_and_read_only_committed_records(
    java_build: tuple[Path, tuple[Path, ...]], sandbox: Any
) -> None:
    """The classic protocol (librdkafka's consumer protocol is in tests/groups/test_sandbox_clients.py;
    benchmarks/bench_groups.py runs Java's too)."""
    topic = _topic(sandbox, 3)
    answer = run_group_peer(
        java_build,
        {
            "bootstrap": sandbox.bootstrap_servers,
            "topic": topic,
            "group": f"{topic}-classic",
            "protocol": "classic",
            "records": 30,
            "members": 3,
            "commits": 3,
            "transactional": True,
        },
    )
    assert sorted(set(answer["values"])) == sorted(f"v{i}" for i in range(30)), "no aborted record, none lost"
    members = answer["members"]
    assert all("error" not in m for m in members), members
    owned = sorted(p for m in members for p in m["assignment"])
    assert owned == [f"{topic}-{p}" for p in range(3)], "each partition to one member"
    assert all(len(m["assignment"]) == 1 for m in members)
    # the end of each partition: its committed records, the commit marker, the aborted ones and their marker
    ends = {f"{topic}-{p}": end for p, end in _ends(sandbox, topic).items()}
    assert answer["committed"] == ends
    assert sum(ends.values()) == 2 * 30 + 2 * 3


def _ends(sandbox: Any, topic: str) -> dict[int, int]:
    from kafka import KafkaConsumer, TopicPartition

    consumer = KafkaConsumer(bootstrap_servers=sandbox.bootstrap_servers, isolation_level="read_committed")
    try:
        partitions = [TopicPartition(topic, p) for p in range(3)]
        return {tp.partition: offset for tp, offset in consumer.end_offsets(partitions).items()}
    finally:
        consumer.close()


def test_delegation_tokens_through_the_java_admin_and_a_token_login(
    java_peer: JavaPeer, secure_sandbox: Any
) -> None:
    admin = java_peer.client(client_props(secure_sandbox), name="token-admin")
    token = admin.call("createDelegationToken", maxLifeMs=3_600_000)
    assert (token["owner"], token["requester"], token["renewers"]) == ("User:admin", "User:admin", [])
    assert token["max"] - token["issue"] == 3_600_000 and token["expiry"] <= token["max"]
    assert token["tokenId"] in [t["tokenId"] for t in admin.call("describeDelegationToken")]
    # the token logs in with SCRAM (tokenauth=true) as its owner
    props = client_props(secure_sandbox)
    props["sasl.jaas.config"] = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{token["tokenId"]}" password="{token["hmac"]}" tokenauth=true;'
    )
    as_token = java_peer.client(props, name="token-login")
    try:
        assert as_token.call("describeCluster")["clusterId"] == secure_sandbox.cluster_id
        # a token cannot create a token (Kafka's DELEGATION_TOKEN_REQUEST_NOT_ALLOWED)
        with pytest.raises(JavaError) as refused:
            as_token.call("createDelegationToken")
        assert refused.value.code == "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED"
    finally:
        as_token.close()
    renewed = admin.call("renewDelegationToken", hmac=token["hmac"], periodMs=60_000)
    assert renewed <= token["max"]
    admin.call("expireDelegationToken", hmac=token["hmac"], periodMs=-1)
    assert token["tokenId"] not in [t["tokenId"] for t in admin.call("describeDelegationToken")]
    with pytest.raises(JavaError) as gone:
        admin.call("renewDelegationToken", hmac=base64.b64encode(b"no such token").decode(), periodMs=1)
    assert gone.value.code == "DELEGATION_TOKEN_NOT_FOUND"
    admin.close()
