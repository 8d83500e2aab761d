"""KIP-1312 on the emulator: `kcli cluster unregister-controller` and `metadata-quorum remove-controller
--unregister` against the sandbox's UnregisterController (94), through brokers and controllers.

The emulator answers as Kafka 4.4's controller does (kcli/sandbox/emulator/apis/k94_unregister_controller.py);
tests/kafka_diff/test_destructive.py runs the same commands against real Kafka 4.4.0.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kcli.metadata import records
from kcli.ops.features import METADATA_VERSION
from kcli.sandbox.emulator.apis.k94_unregister_controller import FIRST_LEVEL

pytestmark = pytest.mark.sandbox

OBSERVER = 104
UNSUPPORTED = "The target cluster does not support the controller unregistration API."


@pytest.fixture
def sb(tmp_path: Path) -> Iterator[Any]:
    """Three controllers, one broker, and controller 104 registered as an observer (not a voter), at
    metadata.version 4.3-IV0: the level below the one that can unregister controllers."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path / "sandbox", controllers=3, brokers=1, release_version="4.3-IV0"
    ) as sandbox:
        sandbox.prepare_controller(OBSERVER)
        yield sandbox


def finalize_4_4_iv2(sb: Any) -> None:
    """metadata.version 4.4-IV2, committed as a finalized UpdateFeatures would."""
    record: Any = records.FeatureLevelRecord(name=METADATA_VERSION, feature_level=FIRST_LEVEL)  # type: ignore[attr-defined]
    sb.run(lambda cluster: cluster.commit([record]))


def registered(kcli: Any, sb: Any) -> list[int]:
    """The controllers DescribeCluster lists through the controllers: the registered ones."""
    listed = kcli(
        "cluster", "list-endpoints", "--bootstrap-controller", sb.bootstrap_controllers, "-o", "json"
    )
    assert listed.code == 0, listed.stderr
    return [node["id"] for node in listed.json["nodes"]]


def voters(kcli: Any, sb: Any) -> list[int]:
    status = kcli(
        "metadata-quorum",
        "--bootstrap-controller",
        sb.bootstrap_controllers,
        "describe",
        "--status",
        "-o",
        "json",
    )
    assert status.code == 0, status.stderr
    return sorted(voter["id"] for voter in status.json["voters"])


def directory_of(sb: Any, node_id: int) -> str:
    from kcli.metadata.uuids import kafka_uuid

    return kafka_uuid(sb.run(lambda cluster: cluster.nodes[node_id].directory_id))


def test_below_4_4_iv2_the_cluster_says_unsupported_and_kcli_exits_0(kcli: Any, sb: Any) -> None:
    assert sb.run(lambda cluster: cluster.image.features[METADATA_VERSION]) < FIRST_LEVEL
    done = kcli("cluster", "unregister-controller", "--bootstrap-server", sb.bootstrap_servers, "--id", "104")
    assert (done.code, done.stdout, done.stderr) == (0, UNSUPPORTED + "\n", "")
    as_json = kcli(
        "cluster", "unregister-controller", "-C", sb.bootstrap_controllers, "-i", "104", "-o", "json"
    )
    assert as_json.json == {"controller_id": OBSERVER, "unregistered": False, "supported": False}
    assert OBSERVER in registered(kcli, sb)


def test_a_stopped_observer_is_unregistered_through_brokers(kcli: Any, sb: Any) -> None:
    finalize_4_4_iv2(sb)
    sb.stop_node(OBSERVER)
    done = kcli("cluster", "unregister-controller", "--bootstrap-server", sb.bootstrap_servers, "--id", "104")
    assert (done.code, done.stdout) == (0, "Controller 104 is no longer registered.\n"), done.stderr
    assert OBSERVER not in registered(kcli, sb)
    again = kcli("cluster", "unregister-controller", "-C", sb.bootstrap_controllers, "--id", "104")
    assert again.code == 1
    assert "CONTROLLER_ID_NOT_REGISTERED" in again.stderr
    assert "Controller ID 104 is not currently registered." in again.stderr


def test_a_running_controller_registers_again(kcli: Any, sb: Any) -> None:
    finalize_4_4_iv2(sb)
    done = kcli(
        "cluster", "unregister-controller", "-C", sb.bootstrap_controllers, "--id", "104", "-o", "json"
    )
    assert done.json == {"controller_id": OBSERVER, "unregistered": True}, done.stderr
    assert OBSERVER in registered(kcli, sb)
    from kcli.metadata.reader import read_file
    from kcli.metadata.records import record_name

    segment = sb.metadata_log_dir(101) / "00000000000000000000.log"
    last = [(record_name(type(e.record)), e.record) for e in read_file(segment)][-2:]
    assert [(name, record.controller_id) for name, record in last] == [
        ("UnregisterControllerRecord", OBSERVER),
        ("RegisterControllerRecord", OBSERVER),
    ]


def test_the_active_controller_and_unknown_ids_are_refused(kcli: Any, sb: Any) -> None:
    finalize_4_4_iv2(sb)
    active = sb.active_controller_id
    itself = kcli("cluster", "unregister-controller", "-C", sb.bootstrap_controllers, "--id", str(active))
    assert itself.code == 1
    assert "INVALID_REQUEST" in itself.stderr
    assert "Controller cannot unregister itself while it is active." in itself.stderr
    unknown = kcli("cluster", "unregister-controller", "-b", sb.bootstrap_servers, "--id", "109")
    assert unknown.code == 1 and "CONTROLLER_ID_NOT_REGISTERED" in unknown.stderr


def test_remove_controller_unregister_removes_the_voter_then_its_registration(kcli: Any, sb: Any) -> None:
    finalize_4_4_iv2(sb)
    directory = directory_of(sb, 103)
    done = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "remove-controller",
        "--controller-id", "103", "--controller-directory-id", directory, "--unregister",
    )  # fmt: skip
    assert done.code == 0, done.stderr
    assert done.lines == [
        f"Removed KRaft controller 103 with directory id {directory}",
        "Unregistered KRaft controller 103",
    ]
    assert voters(kcli, sb) == [101, 102]


def test_remove_controller_unregister_dry_run_sends_nothing(kcli: Any, sb: Any) -> None:
    directory = directory_of(sb, 103)
    done = kcli(
        "metadata-quorum", "--bootstrap-server", sb.bootstrap_servers, "remove-controller",
        "-i", "103", "-d", directory, "--dry-run", "--unregister", "-o", "json",
    )  # fmt: skip
    assert done.json["dry_run"] is True and done.json["unregistered"] is False
    assert voters(kcli, sb) == [101, 102, 103]


def test_remove_controller_unregister_of_a_non_voter_says_how_to_unregister(kcli: Any, sb: Any) -> None:
    done = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "remove-controller",
        "-i", "104", "-d", directory_of(sb, 104), "--unregister",
    )  # fmt: skip
    assert (done.code, done.stdout) == (1, "")
    assert done.stderr.startswith("Error: Failed to remove KRaft voter 104: ")
    assert "kcli cluster unregister-controller --id 104" in done.stderr


def test_remove_controller_reports_the_removal_when_unregistering_fails(kcli: Any, sb: Any) -> None:
    directory = directory_of(sb, 103)  # metadata.version stays below 4.4-IV2: the second step is refused
    done = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "remove-controller",
        "-i", "103", "-d", directory, "--unregister",
    )  # fmt: skip
    assert done.code == 1
    assert done.lines == [f"Removed KRaft controller 103 with directory id {directory}"]
    assert done.stderr.startswith(
        "Error: Failed to unregister controller 103: The current MetadataVersion is too old to support "
        "controller unregistration."
    )
    assert voters(kcli, sb) == [101, 102]


def test_alice_without_alter_on_the_cluster_is_refused(kcli: Any, make_sandbox: Any) -> None:
    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext", authorizer=True)
    finalize_4_4_iv2(sb)
    done = kcli(
        "cluster", "unregister-controller", "-b", sb.bootstrap_servers, "--id", "101",
        "--command-config", str(sb.command_config("alice")),
    )  # fmt: skip
    assert done.code == 1 and "CLUSTER_AUTHORIZATION_FAILED" in done.stderr
