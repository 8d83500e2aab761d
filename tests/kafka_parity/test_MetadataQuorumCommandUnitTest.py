"""kafka-metadata-quorum.sh: Kafka's MetadataQuorumCommandUnitTest (4.4), ported.

Kafka's test calls the helpers that read a new controller's configuration (getControllerId,
getMetadataDirectory, ...) one by one; through the command line they run in that order inside
`add-controller --dry-run`, so each case gives a configuration that is valid up to the helper it
checks. A dry run contacts no cluster. The remove-controller --unregister cases (KIP-1312) give
handleRemoveController a mocked Admin; here a sandbox answers, with control hooks where the mock's
answers are failures a healthy cluster would not give.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_parity.conftest import kcli

KAFKA_TOOL = "kafka-metadata-quorum.sh"
KAFKA_TEST_CLASS = "MetadataQuorumCommandUnitTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/MetadataQuorumCommandUnitTest.java"
KAFKA_METHODS = [
    "testRemoveControllerDryRun",
    "testRemoveControllerDryRunWithUnregister",
    "testGetControllerIdWithoutId",
    "testGetControllerId",
    "testGetNegativeControllerId",
    "testGetControllerIdWithoutProcessRoles",
    "testGetControllerIdWithBrokerProcessRoles",
    "testGetMetadataDirectory",
    "testGetMetadataDirectoryFromLogDirs",
    "testGetMetadataDirectoryFromMultipleLogDirs",
    "testGetMetadataDirectoryFailure",
    "testGetMetadataDirectoryId",
    "testGetMetadataDirectoryIdWhenThereIsNoId",
    "testGetMetadataDirectoryIdWhenThereIsNoDirectory",
    "testGetControllerAdvertisedListenersWithNoControllerListenerNames",
    "testGetControllerAdvertisedListenersWithNoControllerListenerInformation",
    "testGetControllerAdvertisedListenersWithRegularListeners",
    "testGetControllerAdvertisedListenersWithRegularListenersAndAdvertisedListeners",
    "testAddControllerDryRun",
    "testRemoveControllerWithUnregisterSuccess",
    "testRemoveControllerFailsWithUnsupportedVersion",
    "testRemoveControllerFailsWithVoterNotFound",
    "testRemoveControllerSucceedsButUnregisterFails",
]
NOT_PORTED: dict[str, str] = {}

RUNTIME = "the one line kafka-metadata-quorum prints for a bad controller configuration starts with `Error: ` in kcli"
DIRECTORY_ID = "wZoXPqWoSu6F6c8MkmdyAg"
LISTENERS = {"controller.listener.names": "CONTROLLER", "listeners": "CONTROLLER://:9093"}


def metadata_dir(tmp_path: Path, name: str = "meta", directory_id: str | None = DIRECTORY_ID) -> Path:
    """A log directory formatted as Kafka's MetaPropertiesEnsemble writes it (node 2 of the test)."""
    folder = tmp_path / name
    folder.mkdir()
    lines = ["version=1", "cluster.id=Ig-WB32JRqqzct3VafTr0w", "node.id=2"]
    if directory_id is not None:
        lines.append(f"directory.id={directory_id}")
    (folder / "meta.properties").write_text("\n".join(lines) + "\n")
    return folder


def add_controller(tmp_path: Path, props: dict[str, str]) -> object:
    config = tmp_path / "controller.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    return kcli(
        "metadata-quorum", "--bootstrap-server", "localhost:9092", "--command-config", str(config),
        "add-controller", "--dry-run",
    )  # fmt: skip


def refused(result: object, message: str) -> None:
    assert result.code == 1, (result.code, result.stderr)  # type: ignore[attr-defined]
    assert result.stderr == f"Error: {message}\n"  # type: ignore[attr-defined]


def added(result: object, node_id: int, endpoints: str) -> None:
    assert result.code == 0, result.stderr  # type: ignore[attr-defined]
    line = (
        f"DRY RUN of adding controller {node_id} with directory id {DIRECTORY_ID} and endpoints: {endpoints}"
    )
    assert line in result.stdout.splitlines()  # type: ignore[attr-defined]


def test_MetadataQuorumCommandUnitTest_testRemoveControllerDryRun() -> None:
    result = kcli(
        "metadata-quorum", "--bootstrap-server", "localhost:9092", "remove-controller",
        "--controller-id", "2", "--controller-directory-id", "_KWDkTahTVaiVVVTaugNew", "--dry-run",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    assert (
        "DRY RUN of removing KRaft controller 2 with directory id _KWDkTahTVaiVVVTaugNew"
        in result.stdout.splitlines()
    )


def test_MetadataQuorumCommandUnitTest_testRemoveControllerDryRunWithUnregister() -> None:
    result = kcli(
        "metadata-quorum", "--bootstrap-server", "localhost:9092", "remove-controller",
        "--controller-id", "2", "--controller-directory-id", "_KWDkTahTVaiVVVTaugNew", "--dry-run",
        "--unregister",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "DRY RUN of removing KRaft controller 2 with directory id _KWDkTahTVaiVVVTaugNew" in lines
    assert "DRY RUN of unregistering KRaft controller 2" in lines


NOT_A_CONTROLLER = "Is this a valid controller configuration file?"


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetControllerIdWithoutId(tmp_path: Path) -> None:
    refused(
        add_controller(tmp_path, {"process.roles": "controller"}),
        f"node.id not found in configuration file. {NOT_A_CONTROLLER}",
    )


def test_MetadataQuorumCommandUnitTest_testGetControllerId(tmp_path: Path) -> None:
    props = {
        "node.id": "4",
        "process.roles": "controller",
        "log.dirs": str(metadata_dir(tmp_path)),
        **LISTENERS,
    }
    added(add_controller(tmp_path, props), 4, "CONTROLLER://localhost:9093")


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetNegativeControllerId(tmp_path: Path) -> None:
    props = {"node.id": "-4", "process.roles": "controller"}
    refused(
        add_controller(tmp_path, props), f"node.id was negative in configuration file. {NOT_A_CONTROLLER}"
    )


NO_CONTROLLER_ROLE = f"process.roles did not contain 'controller' in configuration file. {NOT_A_CONTROLLER}"


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetControllerIdWithoutProcessRoles(tmp_path: Path) -> None:
    refused(add_controller(tmp_path, {"node.id": "4"}), NO_CONTROLLER_ROLE)


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetControllerIdWithBrokerProcessRoles(tmp_path: Path) -> None:
    refused(add_controller(tmp_path, {"node.id": "4", "process.roles": "broker"}), NO_CONTROLLER_ROLE)


CONTROLLER_4 = {"node.id": "4", "process.roles": "controller", **LISTENERS}


def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectory(tmp_path: Path) -> None:
    """metadata.log.dir wins over log.dirs: only it holds the meta.properties here."""
    meta = metadata_dir(tmp_path)
    props = {
        **CONTROLLER_4,
        "metadata.log.dir": str(meta),
        "log.dirs": f"{tmp_path / 'log'},{tmp_path / 'log2'}",
    }
    added(add_controller(tmp_path, props), 4, "CONTROLLER://localhost:9093")


def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectoryFromLogDirs(tmp_path: Path) -> None:
    added(
        add_controller(tmp_path, {**CONTROLLER_4, "log.dirs": str(metadata_dir(tmp_path))}),
        4,
        "CONTROLLER://localhost:9093",
    )


def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectoryFromMultipleLogDirs(tmp_path: Path) -> None:
    first = metadata_dir(tmp_path)
    props = {**CONTROLLER_4, "log.dirs": f"{first},{tmp_path / 'log2'}"}
    added(add_controller(tmp_path, props), 4, "CONTROLLER://localhost:9093")


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectoryFailure(tmp_path: Path) -> None:
    refused(
        add_controller(tmp_path, CONTROLLER_4),
        f"Neither metadata.log.dir nor log.dirs were found. {NOT_A_CONTROLLER}",
    )


def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectoryId(tmp_path: Path) -> None:
    props = {**CONTROLLER_4, "metadata.log.dir": str(metadata_dir(tmp_path))}
    added(add_controller(tmp_path, props), 4, "CONTROLLER://localhost:9093")


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectoryIdWhenThereIsNoId(tmp_path: Path) -> None:
    meta = metadata_dir(tmp_path, directory_id=None)
    refused(
        add_controller(tmp_path, {**CONTROLLER_4, "metadata.log.dir": str(meta)}),
        f"No directory id found in {meta}",
    )


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetMetadataDirectoryIdWhenThereIsNoDirectory(
    tmp_path: Path,
) -> None:
    gone = tmp_path / "gone"
    refused(
        add_controller(tmp_path, {**CONTROLLER_4, "metadata.log.dir": str(gone)}),
        f"Unable to read meta.properties from {gone}",
    )


BEFORE_LISTENERS = {"node.id": "4", "process.roles": "controller"}


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetControllerAdvertisedListenersWithNoControllerListenerNames(
    tmp_path: Path,
) -> None:
    props = {**BEFORE_LISTENERS, "log.dirs": str(metadata_dir(tmp_path))}
    refused(add_controller(tmp_path, props), f"controller.listener.names was not found. {NOT_A_CONTROLLER}")


@pytest.mark.kafka_difference(RUNTIME)
def test_MetadataQuorumCommandUnitTest_testGetControllerAdvertisedListenersWithNoControllerListenerInformation(
    tmp_path: Path,
) -> None:
    props = {
        **BEFORE_LISTENERS,
        "log.dirs": str(metadata_dir(tmp_path)),
        "controller.listener.names": "CONTROLLER,CONTROLLER2",
    }
    refused(
        add_controller(tmp_path, props), "Cannot find information about controller listener name: CONTROLLER"
    )


def test_MetadataQuorumCommandUnitTest_testGetControllerAdvertisedListenersWithRegularListeners(
    tmp_path: Path,
) -> None:
    props = {
        **BEFORE_LISTENERS,
        "log.dirs": str(metadata_dir(tmp_path)),
        "controller.listener.names": "CONTROLLER,CONTROLLER2",
        "listeners": "CONTROLLER://example.com:9092,CONTROLLER2://:9093",
    }
    added(add_controller(tmp_path, props), 4, "CONTROLLER://example.com:9092, CONTROLLER2://localhost:9093")


def test_MetadataQuorumCommandUnitTest_testGetControllerAdvertisedListenersWithRegularListenersAndAdvertisedListeners(
    tmp_path: Path,
) -> None:
    props = {
        **BEFORE_LISTENERS,
        "log.dirs": str(metadata_dir(tmp_path)),
        "controller.listener.names": "CONTROLLER,CONTROLLER2",
        "listeners": "CONTROLLER://:9092,CONTROLLER2://:9093",
        "advertised.listeners": "CONTROLLER://example.com:9092,CONTROLLER2://example.com:9093",
    }
    added(add_controller(tmp_path, props), 4, "CONTROLLER://example.com:9092, CONTROLLER2://example.com:9093")


def test_MetadataQuorumCommandUnitTest_testAddControllerDryRun(tmp_path: Path) -> None:
    meta = metadata_dir(tmp_path)
    props = {
        "metadata.log.dir": str(meta),
        "log.dirs": str(meta),
        "process.roles": "controller,broker",
        "node.id": "5",
        "controller.listener.names": "CONTROLLER,CONTROLLER_SSL",
        "listeners": "CONTROLLER://:9093,CONTROLLER_SSL://:9094",
        "advertised.listeners": "CONTROLLER://example.com:9093,CONTROLLER_SSL://example.com:9094",
    }
    added(
        add_controller(tmp_path, props), 5, "CONTROLLER://example.com:9093, CONTROLLER_SSL://example.com:9094"
    )


# ----------------------------------------------------------------- remove-controller --unregister

REMOVE_RAFT_VOTER, UNREGISTER_CONTROLLER = 81, 94
HINT = "kcli cluster unregister-controller --id {}"


@pytest.fixture
def voters(tmp_path: Path) -> Iterator[Any]:
    """Three voters at metadata.version 4.4-IV2 (UnregisterController allowed), one broker."""
    from kcli.metadata import records
    from kcli.sandbox.emulator.apis.k94_unregister_controller import FIRST_LEVEL
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path / "sandbox", controllers=3, brokers=1) as sb:
        level: Any = records.FeatureLevelRecord(name="metadata.version", feature_level=FIRST_LEVEL)  # type: ignore[attr-defined]
        sb.run(lambda cluster: cluster.commit([level]))
        yield sb


def _directory(sb: Any, node_id: int) -> str:
    from kcli.metadata.uuids import kafka_uuid

    return kafka_uuid(sb.run(lambda cluster: cluster.nodes[node_id].directory_id))


def _remove(sb: Any, node_id: int) -> Any:
    return kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "remove-controller",
        "--controller-id", str(node_id), "--controller-directory-id", _directory(sb, node_id), "--unregister",
    )  # fmt: skip


def test_MetadataQuorumCommandUnitTest_testRemoveControllerWithUnregisterSuccess(voters: Any) -> None:
    result = _remove(voters, 103)
    assert result.code == 0, result.stderr
    assert f"Removed KRaft controller 103 with directory id {_directory(voters, 103)}" in result.stdout
    assert "Unregistered KRaft controller 103" in result.stdout


def test_MetadataQuorumCommandUnitTest_testRemoveControllerFailsWithUnsupportedVersion(
    voters: Any, hooks: Any
) -> None:
    async def unsupported(context: Any, request: Any) -> Any:
        return context.answer(
            "RemoveRaftVoterResponse", 35, "kraft.version=0 doesn't support voter removal"
        )

    hooks(voters, REMOVE_RAFT_VOTER, unsupported)
    result = _remove(voters, 103)
    assert result.code == 1
    assert "Failed to remove KRaft voter 103" in result.stderr
    assert HINT.format(103) in result.stderr


def test_MetadataQuorumCommandUnitTest_testRemoveControllerFailsWithVoterNotFound(voters: Any) -> None:
    voters.prepare_controller(104)  # registered, but not a voter: the cluster answers VOTER_NOT_FOUND
    result = _remove(voters, 104)
    assert result.code == 1
    assert "Failed to remove KRaft voter 104" in result.stderr
    assert HINT.format(104) in result.stderr


def test_MetadataQuorumCommandUnitTest_testRemoveControllerSucceedsButUnregisterFails(
    voters: Any, hooks: Any
) -> None:
    async def fails(context: Any, request: Any) -> Any:
        return context.answer("UnregisterControllerResponse", -1, "server failed to apply unregister")

    hooks(voters, UNREGISTER_CONTROLLER, fails)
    result = _remove(voters, 103)
    assert result.code == 1
    assert "Failed to unregister controller 103" in result.stderr
    assert HINT.format(103) in result.stderr
