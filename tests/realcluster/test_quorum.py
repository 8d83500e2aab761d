"""`kcli metadata-quorum describe` on real Kafka (4.4's dynamic quorum of 3 voters and 4.0's single
combined node), through both bootstrap kinds, against kafka-python's DescribeQuorum.
add-controller and remove-controller (KIP-853) are in test_cluster_changes.py."""

from __future__ import annotations

import base64
import re
import uuid
from typing import Any

import pytest

from tests.conftest import invoke
from tests.realcluster.conftest import RealCluster, cluster_of
from tests.realcluster.peers import peer_admin

pytestmark = pytest.mark.realcluster


def _kafka_uuid(text: str) -> str:
    """kafka-python's directory id (a UUID string) in Kafka's own form (URL-safe base64, no padding)."""
    return base64.urlsafe_b64encode(uuid.UUID(text).bytes).decode().rstrip("=")


def _peer_quorum(admin: Any) -> dict[str, Any]:
    quorum = admin.describe_metadata_quorum()
    return dict(quorum["topics"][0]["partitions"][0])


def test_status_through_each_bootstrap_kind_matches_kafka_python(real_cluster: RealCluster) -> None:
    admin = real_cluster.peer_admin()
    try:
        peer = _peer_quorum(admin)
    finally:
        admin.close()
    voters = {(v["replica_id"], _kafka_uuid(v["replica_directory_id"])) for v in peer["current_voters"]}
    observers = {o["replica_id"] for o in peer["observers"]}
    for args in real_cluster.bootstrap_kinds():
        status = invoke("metadata-quorum", *args, "describe", "--status", "-o", "json")
        assert status.code == 0, status.stderr
        ours = status.json
        assert ours["leader_id"] == peer["leader_id"]
        assert ours["leader_epoch"] >= peer["leader_epoch"]
        assert ours["high_watermark"] >= peer["high_watermark"]
        assert {(v["id"], v["directory_id"]) for v in ours["voters"]} == voters
        assert {o["id"] for o in ours["observers"]} == observers


@pytest.mark.realkafka
@pytest.mark.slow
@pytest.mark.parametrize("kafka", ["real_kafka", "real_kafka_oldest"])
def test_replication_rows_and_human_readable_times(request: pytest.FixtureRequest, kafka: str) -> None:
    sandbox = request.getfixturevalue(kafka)
    cluster = cluster_of(sandbox)
    admin = peer_admin(sandbox.bootstrap_servers, cluster.command_config)
    try:
        peer = _peer_quorum(admin)
    finally:
        admin.close()
    statuses = {v["replica_id"]: "Follower" for v in peer["current_voters"]}
    statuses.update({o["replica_id"]: "Observer" for o in peer["observers"]})
    statuses[peer["leader_id"]] = "Leader"
    for args in cluster.bootstrap_kinds():
        rows = invoke("metadata-quorum", *args, "describe", "--replication", "-o", "json")
        assert rows.code == 0, rows.stderr
        assert {r["node_id"]: r["status"] for r in rows.json} == statuses
        assert all(r["lag"] >= 0 for r in rows.json)
        text = invoke("metadata-quorum", *args, "describe", "--replication", "--human-readable")
        assert text.code == 0, text.stderr
        assert text.lines[0].split() == [
            "NodeId", "DirectoryId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status",
        ]  # fmt: skip
        for line in text.lines[1:]:
            cells = [cell.strip() for cell in line.split("\t") if cell.strip()]
            assert int(cells[0]) in statuses
            assert re.fullmatch(r"\d+ ms ago", cells[4]) and re.fullmatch(r"\d+ ms ago", cells[5]), line
            assert cells[6] == statuses[int(cells[0])]
