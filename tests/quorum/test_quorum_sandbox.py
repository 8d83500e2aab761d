"""kcli metadata-quorum end to end on the sandbox, including its faults (stopped voter, failover)."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.sandbox


def status_of(kcli: Any, *connection: str) -> dict[str, str]:
    result = kcli("metadata-quorum", *connection, "describe", "--status")
    assert result.code == 0, result.stderr
    return {line[:24].rstrip().rstrip(":"): line[24:] for line in result.lines}


def test_status_through_brokers_and_controllers(kcli: Any, sandbox: Any) -> None:
    for connection in (
        ("--bootstrap-server", sandbox.bootstrap_servers),
        ("-C", sandbox.bootstrap_controllers),
    ):
        status = status_of(kcli, *connection)
        assert list(status) == [
            "ClusterId",
            "LeaderId",
            "LeaderEpoch",
            "HighWatermark",
            "MaxFollowerLag",
            "MaxFollowerLagTimeMs",
            "CurrentVoters",
            "CurrentObservers",
        ]
        assert status["ClusterId"] == sandbox.cluster_id
        assert int(status["LeaderId"]) == sandbox.active_controller_id
        voters = json.loads(status["CurrentVoters"])
        assert [v["id"] for v in voters] == list(sandbox.controller_ids)
        assert all(v["endpoints"][0].startswith("CONTROLLER://") for v in voters)
        assert {o["id"] for o in json.loads(status["CurrentObservers"])} >= set(sandbox.broker_ids)


def test_replication_rows_and_json(kcli: Any, sandbox: Any) -> None:
    result = kcli(
        "metadata-quorum", "-b", sandbox.bootstrap_servers, "describe", "--replication", "--human-readable"
    )
    assert result.code == 0, result.stderr
    header, *rows = [line.split("\t") for line in result.lines]
    assert [cell.strip() for cell in header][:7] == [
        "NodeId",
        "DirectoryId",
        "LogEndOffset",
        "Lag",
        "LastFetchTimestamp",
        "LastCaughtUpTimestamp",
        "Status",
    ]
    assert rows[0][6].strip() == "Leader" and int(rows[0][0]) == sandbox.active_controller_id
    assert [r[6].strip() for r in rows].count("Follower") == len(sandbox.controller_ids) - 1
    assert rows[0][4].strip().endswith("ms ago")
    as_json = kcli(
        "metadata-quorum", "-b", sandbox.bootstrap_servers, "describe", "--replication", "-o", "json"
    ).json
    assert {r["node_id"] for r in as_json if r["status"] == "Observer"} >= set(sandbox.broker_ids)


def test_failover_changes_leader_id(kcli: Any, fresh_sandbox: Any) -> None:
    before = status_of(kcli, "-C", fresh_sandbox.bootstrap_controllers)
    fresh_sandbox.failover()
    after = status_of(kcli, "-C", fresh_sandbox.bootstrap_controllers)
    assert after["LeaderId"] != before["LeaderId"]
    assert int(after["LeaderId"]) == fresh_sandbox.active_controller_id
    assert int(after["LeaderEpoch"]) > int(before["LeaderEpoch"])
    # Through brokers too (they forward DescribeQuorum to the new active controller).
    assert status_of(kcli, "-b", fresh_sandbox.bootstrap_servers)["LeaderId"] == after["LeaderId"]


def test_stopped_voter_lags_in_replication_and_fails_doctor(kcli: Any, fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    stopped = next(c for c in sb.controller_ids if c != sb.active_controller_id)
    sb.stop_node(stopped)
    sb.stop_node(sb.broker_ids[-1])  # a metadata change the stopped voter will not replicate
    rows = kcli("metadata-quorum", "-b", sb.bootstrap_servers, "describe", "--replication", "-o", "json").json
    row = next(r for r in rows if r["node_id"] == stopped)
    assert row["status"] == "Follower" and row["lag"] > 0
    text = kcli("metadata-quorum", "-b", sb.bootstrap_servers, "describe", "--replication")
    assert any(line.startswith(f"{stopped} ") and "Follower" in line for line in text.lines)

    doctor = kcli("cluster", "doctor", "-b", sb.bootstrap_servers, "-o", "json", "--timeout-ms", "3000")
    assert doctor.code == 1, doctor.stdout
    found = {(f["check"], f["subject"].split(" at ")[0]) for f in doctor.json["findings"]}
    assert ("endpoint-unreachable", f"controller {stopped}") in found
    assert ("broker-fenced", f"broker {sb.broker_ids[-1]}") in found


def test_remove_controller_shrinks_the_voter_set(kcli: Any, fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    rows = kcli(
        "metadata-quorum", "-C", sb.bootstrap_controllers, "describe", "--replication", "-o", "json"
    ).json
    victim = next(r for r in rows if r["status"] == "Follower")
    removed = kcli(
        "metadata-quorum",
        "-C",
        sb.bootstrap_controllers,
        "remove-controller",
        "--controller-id",
        str(victim["node_id"]),
        "--controller-directory-id",
        victim["directory_id"],
    )
    assert removed.code == 0, removed.stderr
    assert removed.lines == [
        f"Removed KRaft controller {victim['node_id']} with directory id {victim['directory_id']}"
    ]
    voters = json.loads(status_of(kcli, "-C", sb.bootstrap_controllers)["CurrentVoters"])
    assert victim["node_id"] not in [v["id"] for v in voters]


def test_remove_controller_with_another_directory_id_is_refused(kcli: Any, fresh_sandbox: Any) -> None:
    """RemoveRaftVoter matches id AND directory id (a zero id matches no voter that has one)."""
    sb = fresh_sandbox
    victim = sb.controller_ids[-1]
    for directory in ("AAAAAAAAAAAAAAAAAAAAAA", "AQEBAQEBAQEBAQEBAQEBAQ"):
        removed = kcli(
            "metadata-quorum", "-C", sb.bootstrap_controllers, "remove-controller",
            "--controller-id", str(victim), "--controller-directory-id", directory,
        )  # fmt: skip
        assert removed.code == 1, removed.stdout
        assert removed.stdout == ""
        assert removed.stderr.startswith(
            f"Error: RemoveRaftVoter of controller {victim}: VOTER_NOT_FOUND: "
            f"The voter id {victim} with directory id {directory} is not part of the set of voters."
        ), removed.stderr
    voters = json.loads(status_of(kcli, "-C", sb.bootstrap_controllers)["CurrentVoters"])
    assert victim in [v["id"] for v in voters]


def test_watch_refreshes_a_bounded_number_of_times(kcli: Any, sandbox: Any) -> None:
    result = kcli(
        "metadata-quorum",
        "-C",
        sandbox.bootstrap_controllers,
        "describe",
        "--watch",
        "--count",
        "2",
        "--interval",
        "0.1",
    )
    assert result.code == 0, result.stderr
    assert [line for line in result.lines if line.startswith("LeaderId:")] == [
        f"LeaderId:               {sandbox.active_controller_id}"
    ] * 2
    as_json = kcli(
        "metadata-quorum",
        "-b",
        sandbox.bootstrap_servers,
        "describe",
        "--watch",
        "--count",
        "2",
        "--interval",
        "0.1",
        "-o",
        "json",
    )
    assert [line["leader_id"] for line in map(json.loads, as_json.lines)] == [
        sandbox.active_controller_id
    ] * 2
