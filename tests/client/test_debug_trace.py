"""--debug on every networked command: each request and its time on stderr, stdout unchanged; and
the round trips it shows (one FindCoordinator a group, however many requests go to its coordinator)."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

import pytest

from kcli.client.api import coordinators
from kcli.ops.groups.model import Node

SENT = re.compile(
    r"^\[ *[\d.]+ ms\] -> (?:node -?\d+ \()?[\d.:]+\)?: (\w+) v\d+ \(correlation id \d+, \d+ bytes\)$"
)
ANSWERED = re.compile(
    r"^\[ *[\d.]+ ms\] <- (?:node -?\d+ \()?[\d.:]+\)?: (\w+) v\d+ \(\d+ bytes, [\d.]+ ms\)$"
)


def _sent(stderr: str) -> list[str]:
    return [match[1] for line in stderr.splitlines() if (match := SENT.match(line))]


@pytest.mark.parametrize(
    ("line", "apis"),
    [
        (["topics", "--list"], {"ApiVersions", "Metadata"}),
        (["configs", "--describe", "--entity-type", "brokers", "--entity-name", "1"], {"DescribeConfigs"}),
        (["metadata-quorum", "describe", "--status"], {"DescribeQuorum"}),
        (["log-dirs", "--describe", "--broker-list", "1"], {"DescribeLogDirs"}),
        (["get-offsets", "--topic", "traced"], {"ListOffsets"}),
        (["consumer-groups", "--list"], {"ListGroups"}),
        (["consumer-groups", "--describe", "--group", "traced-g"], {"OffsetFetch", "ListOffsets"}),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_debug_shows_each_request_and_its_answer_on_stderr_only(
    kcli: Any, sandbox: Any, traced_group: str, line: list[str], apis: set[str]
) -> None:
    b = sandbox.bootstrap_servers
    plain = kcli(line[0], "--bootstrap-server", b, *line[1:])
    traced = kcli("--debug", line[0], "--bootstrap-server", b, *line[1:])

    assert plain.code == traced.code == 0, traced.stderr
    assert traced.stdout == plain.stdout
    sent = _sent(traced.stderr)
    assert apis <= set(sent), traced.stderr
    answered = [match[1] for row in traced.stderr.splitlines() if (match := ANSWERED.match(row))]
    assert sorted(answered) == sorted(sent)
    assert not _sent(plain.stderr)


def test_a_group_s_coordinator_is_looked_up_once_for_its_describe_and_its_offsets(
    kcli: Any, sandbox: Any, traced_group: str
) -> None:
    traced = kcli(
        "--debug",
        "consumer-groups",
        "--bootstrap-server",
        sandbox.bootstrap_servers,
        "--describe",
        "--group",
        traced_group,
    )

    assert traced.code == 0, traced.stderr
    sent = _sent(traced.stderr)
    assert sent.count("FindCoordinator") == 1, traced.stderr
    assert "OffsetFetch" in sent and ("DescribeGroups" in sent or "ConsumerGroupDescribe" in sent)


class _Admin:
    """What find_coordinators uses of an Admin: call (FindCoordinator), config and memo."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.calls = 0
        self.memo: dict[str, Any] = {}
        self.config = SimpleNamespace(retry_backoff_ms=1, retry_backoff_max_ms=1)

    async def call(self, *_args: Any, **_kwargs: Any) -> Any:
        self.calls += 1
        await asyncio.sleep(0)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


def _found(*keys: str) -> Any:
    entry = dict(error_code=0, error_message=None, node_id=2, host="h", port=9092)
    return SimpleNamespace(coordinators=[SimpleNamespace(key=key, **entry) for key in keys])


def _send(node: Node, batch: list[str]) -> Any:
    async def answer() -> dict[str, Any]:
        return {key: node.node_id for key in batch}

    return answer()


def test_concurrent_calls_share_one_lookup_and_a_failed_lookup_is_asked_again() -> None:
    from kcli.errors import KcliError

    async def scenario() -> tuple[int, int, Any]:
        admin = _Admin([_found("g"), KcliError("broken"), _found("h")])
        deadline = asyncio.get_running_loop().time() + 5

        async def on(keys: list[str]) -> Any:
            return await coordinators.on_coordinators(admin, keys, _send, deadline=_monotonic(deadline))  # type: ignore[arg-type]

        first = await asyncio.gather(on(["g"]), on(["g"]))
        shared = admin.calls
        with pytest.raises(KcliError):
            await on(["h"])
        again = await on(["h"])
        return shared, admin.calls, (first, again)

    shared, calls, answers = asyncio.run(scenario())

    assert shared == 1  # two calls, one FindCoordinator
    assert calls == 3  # the failed lookup of h was not kept: the next call asked again
    assert answers == ([{"g": 2}, {"g": 2}], {"h": 2})


def _monotonic(loop_deadline: float) -> float:
    import time

    return time.monotonic() + (loop_deadline - asyncio.get_running_loop().time())
