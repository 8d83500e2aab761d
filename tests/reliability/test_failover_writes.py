"""Controller failover in the middle of a write: NOT_CONTROLLER is retried, the write lands exactly once.

A control hook on the write's API makes the controller that receives it lose leadership first (a new
leader epoch, as Kafka's failover) and answer NOT_CONTROLLER without applying anything, as Kafka's
controller does. The client must find the new controller and send the write again. The proof is the
sandbox's real metadata log, read back with kcli.metadata's reader: the write's records appear once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kcli.metadata.read_model import Entry
from kcli.metadata.reader import read_file
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox

NOT_CONTROLLER = 41
NOT_CONTROLLER_MESSAGE = "This is not the correct controller for this cluster."
TOPIC_RECORD, CONFIG_RECORD, PARTITION_CHANGE_RECORD, FEATURE_LEVEL_RECORD = 2, 4, 5, 12


def log_entries(sb: Any) -> Iterator[Entry]:
    """Every entry of the active controller's metadata log segments, in order."""
    for segment in sorted(sb.metadata_log_dir(sb.active_controller_id).glob("*.log")):
        yield from read_file(segment)


def records(sb: Any, key: int, keep: Callable[[Any], bool]) -> list[Any]:
    return [e.record for e in log_entries(sb) if not e.control and e.key == key and keep(e.record)]


class FailoverOnce:
    """A hook: the first time a controller receives the request, fail over and answer NOT_CONTROLLER."""

    def __init__(self, answer: Callable[[Any, Any], Any]) -> None:
        self.answer = answer
        self.seen: list[tuple[int, bool]] = []  # (node id, was it the active controller)
        self.failed_over_from: int | None = None

    async def __call__(self, ctx: Any, request: Any) -> Any:
        if ctx.node.is_broker:
            return None
        self.seen.append((ctx.node.node_id, ctx.node.node_id == ctx.cluster.active_controller_id))
        if self.failed_over_from is None:
            self.failed_over_from = ctx.node.node_id
            await ctx.cluster.failover()
            return self.answer(ctx, request)
        return None

    def check(self) -> None:
        """Two controller-side arrivals: the old controller (refused), then the new active one."""
        assert len(self.seen) == 2, self.seen
        assert self.seen[1][0] != self.failed_over_from and self.seen[1][1], self.seen


def _features_refusal(ctx: Any, request: Any) -> Any:
    from kcli.sandbox.emulator.context import ZERO

    return ctx.r(
        "UpdateFeaturesResponse",
        throttle_time=ZERO,
        error_code=NOT_CONTROLLER,
        error_message=NOT_CONTROLLER_MESSAGE,
        results=(),
    )


def _configs_refusal(ctx: Any, request: Any) -> Any:
    from kcli.sandbox.emulator.context import ZERO

    return ctx.r(
        "IncrementalAlterConfigsResponse",
        throttle_time=ZERO,
        responses=tuple(
            ctx.r(
                "AlterConfigsResourceResponse",
                error_code=NOT_CONTROLLER,
                error_message=NOT_CONTROLLER_MESSAGE,
                resource_type=r.resource_type,
                resource_name=r.resource_name,
            )
            for r in request.resources
        ),
    )


def _reassign_refusal(ctx: Any, request: Any) -> Any:
    from kcli.sandbox.emulator.context import ZERO

    return ctx.r(
        "AlterPartitionReassignmentsResponse",
        throttle_time=ZERO,
        error_code=NOT_CONTROLLER,
        error_message=NOT_CONTROLLER_MESSAGE,
        responses=(),
        allow_replication_factor_change=True,
    )


def _bootstrap(sb: Any, flag: str) -> str:
    return sb.bootstrap_controllers if flag == "-C" else sb.bootstrap_servers


@pytest.mark.parametrize("flag", ["-C", "-b"])
def test_failover_during_update_features(fresh_sandbox: Any, flag: str) -> None:
    sb = fresh_sandbox
    hook = FailoverOnce(_features_refusal)
    sb.control(57, hook)
    before = len(records(sb, FEATURE_LEVEL_RECORD, lambda r: r.name == "share.version"))  # bootstrap
    result = invoke("features", flag, _bootstrap(sb, flag), "upgrade", "--feature", "share.version=2")
    assert result.code == 0, result.stderr
    assert "share.version was upgraded to 2." in result.stdout
    hook.check()
    written = records(sb, FEATURE_LEVEL_RECORD, lambda r: r.name == "share.version")[before:]
    assert [r.feature_level for r in written] == [2]


@pytest.mark.parametrize("flag", ["-C", "-b"])
def test_failover_during_incremental_alter_configs(fresh_sandbox: Any, flag: str) -> None:
    sb = fresh_sandbox
    hook = FailoverOnce(_configs_refusal)
    sb.control(44, hook)
    result = invoke(
        "configs", flag, _bootstrap(sb, flag), "--alter", "--entity-type", "brokers", "--entity-default",
        "--add-config", "log.cleaner.threads=3",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    assert "Completed updating default config for brokers in the cluster." in result.stdout
    hook.check()
    written = records(sb, CONFIG_RECORD, lambda r: r.name == "log.cleaner.threads")
    assert [(r.resource_name, r.value) for r in written] == [("", "3")]


def test_failover_during_alter_partition_reassignments(fresh_sandbox: Any, tmp_path: Path) -> None:
    from tests.reassign.peer import create_topic

    sb = fresh_sandbox
    create_topic(sb.bootstrap_servers, "failover-moves", [[1, 2], [2, 3]])
    plan = tmp_path / "plan.json"
    target = [[3, 1], [1, 2]]
    plan.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [
                    {"topic": "failover-moves", "partition": p, "replicas": r} for p, r in enumerate(target)
                ],
            }
        )
    )
    hook = FailoverOnce(_reassign_refusal)
    sb.control(45, hook)
    result = invoke(
        "reassign-partitions", "-b", sb.bootstrap_servers, "--execute",
        "--reassignment-json-file", str(plan),
    )  # fmt: skip
    assert result.code == 0, (result.stdout, result.stderr)
    hook.check()
    topic_ids = {r.topic_id for r in records(sb, TOPIC_RECORD, lambda r: r.name == "failover-moves")}
    assert len(topic_ids) == 1
    started = records(
        sb,
        PARTITION_CHANGE_RECORD,
        lambda r: r.topic_id in topic_ids and bool(getattr(r, "adding_replicas", None)),
    )
    # one reassignment start per partition: partition 0 adds 3, partition 1 adds 1
    assert sorted((r.partition_id, tuple(r.adding_replicas)) for r in started) == [(0, (3,)), (1, (1,))]
