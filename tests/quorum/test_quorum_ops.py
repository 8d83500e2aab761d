"""Unit tests of quorum status/replication models, lag, relative times and controller configs."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path

import pytest

from kcli.errors import KcliError, UsageError
from kcli.metadata.uuids import kafka_uuid
from kcli.ops.quorum import (
    ControllerChange,
    QuorumEndpoint,
    QuorumInfo,
    ReplicaState,
    controller_to_add,
    max_follower_lag,
    max_follower_lag_time_ms,
    parse_kafka_uuid,
    quorum_status,
    relative_time_ms,
    replication_rows,
)
from kcli.render.quorum import (
    controller_change_line,
    replication_lines,
    status_json,
    status_lines,
)

DIR_A = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")


def info(**overrides: object) -> QuorumInfo:
    base: dict[str, object] = dict(
        cluster_id="MkU3OEVBNTcwNTJENDM2Qg",
        leader_id=2,
        leader_epoch=5,
        high_watermark=120,
        voters=(
            ReplicaState(
                replica_id=1,
                directory_id=DIR_A,
                log_end_offset=100,
                last_fetch_timestamp=1000,
                last_caught_up_timestamp=900,
            ),
            ReplicaState(
                replica_id=2,
                directory_id=None,
                log_end_offset=120,
                last_fetch_timestamp=1500,
                last_caught_up_timestamp=1500,
            ),
            ReplicaState(replica_id=3, log_end_offset=120),
        ),
        observers=(
            ReplicaState(
                replica_id=10, log_end_offset=119, last_fetch_timestamp=1400, last_caught_up_timestamp=1300
            ),
        ),
        nodes={
            1: (QuorumEndpoint(listener="CONTROLLER", host="h1", port=9093),),
            2: (
                QuorumEndpoint(listener="CONTROLLER", host="::1", port=9093),
                QuorumEndpoint(listener="SSL", host="h2", port=9094),
            ),
        },
    )
    base.update(overrides)
    return QuorumInfo(**base)  # type: ignore[arg-type]


def test_kafka_uuid_round_trip() -> None:
    assert kafka_uuid(None) == "AAAAAAAAAAAAAAAAAAAAAA"
    text = kafka_uuid(DIR_A)
    assert len(text) == 22 and parse_kafka_uuid(text) == DIR_A
    assert parse_kafka_uuid(str(DIR_A)) == DIR_A
    with pytest.raises(UsageError, match=r"^Failed to parse --controller-directory-id: "):
        parse_kafka_uuid("not-a-uuid")


def test_lag_and_lag_time() -> None:
    assert max_follower_lag(info()) == 20
    assert max_follower_lag_time_ms(info()) == 600
    unknown = info(voters=(info().voters[1], ReplicaState(replica_id=3, log_end_offset=50)))
    assert max_follower_lag_time_ms(unknown) == -1
    leader_only = info(voters=(info().voters[1],))
    assert (max_follower_lag(leader_only), max_follower_lag_time_ms(leader_only)) == (0, 0)


def test_no_leader_is_one_clear_error() -> None:
    with pytest.raises(KcliError, match="no leader"):
        quorum_status(info(leader_id=-1))


def test_status_lines_match_kafka_format() -> None:
    d = kafka_uuid(DIR_A)
    assert status_lines(quorum_status(info())) == [
        "ClusterId:              MkU3OEVBNTcwNTJENDM2Qg",
        "LeaderId:               2",
        "LeaderEpoch:            5",
        "HighWatermark:          120",
        "MaxFollowerLag:         20",
        "MaxFollowerLagTimeMs:   600",
        f'CurrentVoters:          [{{"id": 1, "directoryId": "{d}", "endpoints": ["CONTROLLER://h1:9093"]}}, '
        '{"id": 2, "endpoints": ["CONTROLLER://[::1]:9093", "SSL://h2:9094"]}, {"id": 3}]',
        'CurrentObservers:       [{"id": 10}]',
    ]
    assert status_json(quorum_status(info()))["voters"][0]["endpoints"] == ["CONTROLLER://h1:9093"]


def test_replication_lines_pad_and_tab_every_cell() -> None:
    lines = replication_lines(replication_rows(info()))
    zero = "AAAAAAAAAAAAAAAAAAAAAA"
    assert lines == [
        "NodeId\tDirectoryId           \tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t",
        f"2     \t{zero}\t120         \t0  \t1500              \t1500                 \tLeader  \t",
        f"1     \t{kafka_uuid(DIR_A)}\t100         \t20 \t1000              \t900                  \tFollower\t",
        f"3     \t{zero}\t120         \t0  \t-1                \t-1                   \tFollower\t",
        f"10    \t{zero}\t119         \t1  \t1400              \t1300                 \tObserver\t",
    ]


def test_human_readable_times_and_clock_drift() -> None:
    lines = replication_lines(replication_rows(info()), now_ms=2000)
    assert "500 ms ago" in lines[1] and "1000 ms ago" in lines[2] and "\t-1 " in lines[3]
    assert relative_time_ms(1000, 1000, "last fetch") == 0
    with pytest.raises(KcliError, match="possible drift in system clock"):
        relative_time_ms(3000, 2000, "last fetch")


def write_controller(tmp_path: Path, **props: str) -> dict[str, str]:
    meta_dir = tmp_path / "meta"
    meta_dir.mkdir()
    (meta_dir / "meta.properties").write_text(f"version=1\ndirectory.id={kafka_uuid(DIR_A)}\nnode.id=4\n")
    base = {
        "node.id": "4",
        "process.roles": "controller",
        "metadata.log.dir": str(meta_dir),
        "controller.listener.names": "CONTROLLER,controller2",
        "listeners": "CONTROLLER://:9093,CONTROLLER2://[::1]:9095",
        "advertised.listeners": "CONTROLLER://c4.example:19093",
    }
    base.update(props)
    return {k: v for k, v in base.items() if v != "-"}


def load_meta(path: Path) -> Mapping[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def test_controller_to_add_reads_config_and_meta(tmp_path: Path) -> None:
    added = controller_to_add(write_controller(tmp_path), load_meta)
    assert added.node_id == 4 and added.directory_id == DIR_A
    assert added.endpoints_text() == "CONTROLLER://c4.example:19093, CONTROLLER2://[::1]:9095"
    change = ControllerChange(
        action="add", node_id=4, directory_id=DIR_A, endpoints=added.endpoints, dry_run=True
    )
    assert controller_change_line(change) == (
        f"DRY RUN of adding controller 4 with directory id {kafka_uuid(DIR_A)} and endpoints: "
        "CONTROLLER://c4.example:19093, CONTROLLER2://[::1]:9095"
    )
    removed = ControllerChange(action="remove", node_id=4, directory_id=DIR_A)
    assert (
        controller_change_line(removed)
        == f"Removed KRaft controller 4 with directory id {kafka_uuid(DIR_A)}"
    )


@pytest.mark.parametrize(
    ("override", "message"),
    [
        (
            {"node.id": "-"},
            "node.id not found in configuration file. Is this a valid controller configuration file?",
        ),
        ({"node.id": "-3"}, "node.id was negative"),
        ({"process.roles": "broker"}, "process.roles did not contain 'controller'"),
        ({"metadata.log.dir": "-"}, "Neither metadata.log.dir nor log.dirs were found."),
        ({"controller.listener.names": "-"}, "controller.listener.names was not found."),
        (
            {"controller.listener.names": "OTHER"},
            "Cannot find information about controller listener name: OTHER",
        ),
        ({"metadata.log.dir": "/nonexistent/dir"}, "Unable to read meta.properties from /nonexistent/dir"),
    ],
)
def test_controller_to_add_errors(tmp_path: Path, override: dict[str, str], message: str) -> None:
    with pytest.raises(KcliError, match=message.replace(".", r"\.").replace("?", r"\?")):
        controller_to_add(write_controller(tmp_path, **override), load_meta)
