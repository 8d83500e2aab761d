"""kafka-reassign-partitions' checks as values, without typer: kcli.ops.reassign.request in the order
of ReassignPartitionsCommand (one action, the connection, the action's options, stray words, then
kcli's rules and the action's input)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from kcli.errors import UsageError
from kcli.kafka import EndpointType
from kcli.ops.reassign.generate import Strategy
from kcli.ops.reassign.request import ReassignRequest, check_request

TOPICS = '{"version":1,"topics":[{"topic":"orders"}]}'
FILE = '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[1,2]}]}'


@dataclass(frozen=True)
class Settings:
    endpoint_type: EndpointType = EndpointType.BROKERS


class Steps:
    """Records when the connection is resolved and which files are read."""

    def __init__(
        self, endpoint_type: EndpointType = EndpointType.BROKERS, texts: dict[str, str] | None = None
    ):
        self.log: list[str] = []
        self.endpoint_type = endpoint_type
        self.texts = texts or {"topics.json": TOPICS, "plan.json": FILE}

    def resolve(self) -> Settings:
        self.log.append("resolve")
        return Settings(self.endpoint_type)

    def read(self, path: Path, what: str) -> str:
        self.log.append(f"read {path}")
        return self.texts[str(path)]


def _check(request: ReassignRequest, steps: Steps | None = None) -> tuple[object, list[str]]:
    steps = steps or Steps()
    try:
        return check_request(request, resolve=steps.resolve, read=steps.read), steps.log
    except UsageError as error:
        return str(error), steps.log


def test_one_action_comes_before_the_connection() -> None:
    message, log = _check(ReassignRequest(actions=("generate", "list")))
    assert message.startswith("Command must include exactly one action") and log == []


def test_the_connection_comes_before_the_actions_options() -> None:
    message, log = _check(ReassignRequest(actions=("verify",), throttle=5, order=("--verify", "--throttle")))
    assert message == 'Missing required argument "[reassignment-json-file]"' and log == ["resolve"]
    message, _ = _check(
        ReassignRequest(
            actions=("verify",),
            reassignment_json_file=Path("plan.json"),
            throttle=5,
            order=("--verify", "--reassignment-json-file", "--throttle"),
        )
    )
    assert message == 'Option "[throttle]" can\'t be used with action "[verify]"'


def test_stray_words_then_kcli_rules_then_the_files() -> None:
    base = dict(actions=("execute",), reassignment_json_file=Path("plan.json"))
    message, log = _check(ReassignRequest(**base, stray=("oops",), throttle=-5))  # type: ignore[arg-type]
    assert message.startswith("Unexpected argument(s) 'oops'") and log == ["resolve"]
    message, log = _check(ReassignRequest(**base, throttle=-5))  # type: ignore[arg-type]
    assert message == "throttles are rates in B/s (or -1 for none)" and log == ["resolve"]
    message, _ = _check(ReassignRequest(actions=("verify",), reassignment_json_file=Path("plan.json")),
                        Steps(EndpointType.CONTROLLERS))  # fmt: skip
    assert message.startswith("--verify needs broker metadata")
    checked, log = _check(ReassignRequest(**base))  # type: ignore[arg-type]
    assert log == ["resolve", "read plan.json"]
    assert checked.action == "execute" and checked.file.entries[0].replicas == (1, 2)  # type: ignore[attr-defined]


def test_generate_checks_its_strategy_before_reading_then_parses_its_input() -> None:
    base = dict(actions=("generate",), topics_to_move_json_file=Path("topics.json"), broker_list="1,2")
    message, log = _check(ReassignRequest(**base, replication_factor=3))  # type: ignore[arg-type]
    assert message.startswith("--replication-factor needs --strategy minimal-movement") and log == ["resolve"]
    message, _ = _check(ReassignRequest(**base, log_dir=("3:/data",)))  # type: ignore[arg-type]
    assert message == "--log-dir 3:/data: broker 3 is not in --broker-list"
    checked, log = _check(ReassignRequest(**base, log_dir=("2:/data",)))  # type: ignore[arg-type]
    given = checked.generate  # type: ignore[attr-defined]
    assert (given.topics, given.brokers, given.strategy, given.placements) == (
        ["orders"], [1, 2], Strategy.ORIGINAL, {2: "/data"},
    )  # fmt: skip
    assert log == ["resolve", "read topics.json"]


@pytest.mark.parametrize("action", ["list", "cancel"])
def test_the_controllers_serve_list_and_cancel(action: str) -> None:
    request = ReassignRequest(
        actions=(action,), reassignment_json_file=Path("plan.json") if action == "cancel" else None
    )
    checked, _ = _check(request, Steps(EndpointType.CONTROLLERS))
    assert checked.action == action  # type: ignore[attr-defined]
