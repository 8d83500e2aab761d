"""add-controller end to end: a new sandbox controller starts as an observer, `add-controller` with its
own server.properties makes it a voter (AddRaftVoter), `remove-controller` makes it an observer again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kcli.properties import parse_properties

pytestmark = pytest.mark.sandbox
NEW = 104


def quorum(kcli: Any, sb: Any) -> tuple[list[int], list[int]]:
    result = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "describe", "--status"
    )
    assert result.code == 0, result.stderr
    status = {line[:24].rstrip().rstrip(":"): line[24:] for line in result.lines}
    voters = [v["id"] for v in json.loads(status["CurrentVoters"])]
    observers = [o["id"] for o in json.loads(status["CurrentObservers"])]
    return voters, observers


def voter_sets_in_log(sb: Any) -> list[list[int]]:
    """The voter set of every VotersRecord control record in the active controller's log."""
    from kcli.metadata.reader import read_file

    found = []
    for segment in sorted(sb.metadata_log_dir(sb.active_controller_id).glob("*.log")):
        for entry in read_file(segment):
            if entry.control and type(entry.record).__name__.startswith("VotersRecord"):
                found.append(sorted(int(v.voter_id) for v in entry.record.voters))
    return found


def test_add_then_remove_a_controller(kcli: Any, make_sandbox: Any) -> None:
    sb = make_sandbox(controllers=3, brokers=1)
    config = sb.prepare_controller(NEW)
    props = parse_properties(config.read_text())
    assert props["process.roles"] == "controller" and props["node.id"] == str(NEW)
    assert props["controller.listener.names"] == "CONTROLLER"
    assert props["advertised.listeners"] == f"CONTROLLER://127.0.0.1:{sb.port_of(NEW)}"
    meta = parse_properties((Path(props["metadata.log.dir"]) / "meta.properties").read_text())
    directory_id = meta["directory.id"]
    assert len(directory_id) == 22

    voters, observers = quorum(kcli, sb)
    assert voters == [101, 102, 103] and NEW in observers  # it fetches the log as an observer

    added = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "add-controller",
        "--command-config", str(config),
    )  # fmt: skip
    assert added.code == 0, added.stderr
    assert str(NEW) in added.stdout and directory_id in added.stdout
    voters, observers = quorum(kcli, sb)
    assert voters == [101, 102, 103, NEW] and NEW not in observers
    assert voter_sets_in_log(sb)[-1] == [101, 102, 103, NEW]

    again = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "add-controller",
        "--command-config", str(config),
    )  # fmt: skip
    assert again.code == 1 and "DUPLICATE_VOTER" in again.stderr

    removed = kcli(
        "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "remove-controller",
        "--controller-id", str(NEW), "--controller-directory-id", directory_id,
    )  # fmt: skip
    assert removed.code == 0, removed.stderr
    voters, observers = quorum(kcli, sb)
    assert voters == [101, 102, 103] and NEW in observers
    assert voter_sets_in_log(sb)[-1] == [101, 102, 103]


def test_an_added_controller_stays_a_voter_after_a_restart(kcli: Any, tmp_path: Path) -> None:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path / "sb", controllers=1, brokers=1) as sb:
        config = sb.prepare_controller(NEW)
        added = kcli(
            "metadata-quorum", "--bootstrap-controller", sb.bootstrap_controllers, "add-controller",
            "--command-config", str(config),
        )  # fmt: skip
        assert added.code == 0, added.stderr
    with Sandbox(directory=tmp_path / "sb", controllers=1, brokers=1) as sb:
        assert quorum(kcli, sb)[0] == [101, NEW]


def test_prepare_refuses_an_existing_or_broker_id(make_sandbox: Any) -> None:
    sb = make_sandbox(controllers=1, brokers=1)
    with pytest.raises(Exception, match="already exists"):
        sb.prepare_controller(101)
    with pytest.raises(Exception, match="100 and above"):
        sb.prepare_controller(7)


def test_a_voter_change_that_timed_out_but_committed_is_reported_done(kcli: Any, make_sandbox: Any) -> None:
    """Kafka's controller answers REQUEST_TIMED_OUT when the VotersRecord it appended does not commit in
    time; the client retries and then hears DUPLICATE_VOTER (or VOTER_NOT_FOUND): the change happened."""
    from kio.schema.errors import ErrorCode

    from kcli.kafka import ApiKey
    from kcli.sandbox.emulator.apis.k80_add_raft_voter import handle_add_raft_voter
    from kcli.sandbox.emulator.apis.k81_remove_raft_voter import handle_remove_raft_voter

    sb = make_sandbox(controllers=3, brokers=1)
    config = sb.prepare_controller(NEW)
    answered: list[int] = []

    def late(handler: Any) -> Any:
        async def hook(ctx: Any, request: Any) -> Any:
            if answered:
                return None  # the retry reaches the real handler
            response = await handler(ctx, request)  # the change is made ...
            answered.append(int(response.error_code))
            return type(response)(**{**vars_of(response), "error_code": ErrorCode.request_timed_out})

        return hook

    sb.control(ApiKey.ADD_RAFT_VOTER, late(handle_add_raft_voter))
    controllers = sb.bootstrap_controllers
    added = kcli(
        "metadata-quorum",
        "--bootstrap-controller",
        controllers,
        "add-controller",
        "--command-config",
        str(config),
    )
    assert answered == [0]
    assert added.code == 0, added.stderr
    assert quorum(kcli, sb)[0] == [101, 102, 103, NEW]

    again = kcli(
        "metadata-quorum",
        "--bootstrap-controller",
        controllers,
        "add-controller",
        "--command-config",
        str(config),
    )
    assert again.code == 1  # a voter already: asked twice on purpose, that stays an error
    assert "DUPLICATE_VOTER" in again.stderr

    answered.clear()
    sb.control(ApiKey.ADD_RAFT_VOTER, None)
    sb.control(ApiKey.REMOVE_RAFT_VOTER, late(handle_remove_raft_voter))
    directory_id = parse_properties(
        (Path(parse_properties(config.read_text())["metadata.log.dir"]) / "meta.properties").read_text()
    )["directory.id"]
    removed = kcli(
        "metadata-quorum", "--bootstrap-controller", controllers, "remove-controller",
        "--controller-id", str(NEW), "--controller-directory-id", directory_id,
    )  # fmt: skip
    assert answered == [0]
    assert removed.code == 0, removed.stderr
    assert quorum(kcli, sb)[0] == [101, 102, 103]


def vars_of(message: Any) -> dict[str, Any]:
    import dataclasses

    return {field.name: getattr(message, field.name) for field in dataclasses.fields(message)}
