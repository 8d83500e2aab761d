"""Kafka's own tool tests, ported as facts: the acceptance suite of kcli as a drop-in.

Conventions (scripts/parity_table.py reads them to write docs/parity.md):
- one module per Kafka test class, `test_<KafkaTestClass>.py` (the metadata shell's are
  `test_shell_<KafkaTestClass>.py`), each declaring at module level:
    KAFKA_TOOL           the script, e.g. "kafka-configs.sh"
    KAFKA_TEST_CLASS     the class, e.g. "ConfigCommandTest"
    KAFKA_SOURCE         its path in apache/kafka
    KAFKA_METHODS        every test method of the class, in source order
    NOT_PORTED           {method: why it cannot be checked from outside a JVM}
- each case is named `test_<KafkaTestClass>_<method>`, parametrized where the Kafka method checks
  several command lines;
- a case that asserts a deliberate difference (a one-line error instead of a stack trace, exit 2
  for usage errors, ...) carries `@pytest.mark.kafka_difference("reason")`.

Expected values are Kafka's (the literal strings of its tests and tools); the cluster is the kcli
sandbox, and where Kafka's test uses a mock admin client, a sandbox control hook answers as the
mock does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

# An address nothing listens on: cases that must fail before connecting name it.
NOWHERE = "127.0.0.1:1"


@functools.cache
def _click_command() -> Any:
    import typer

    from kcli.cli.main import app

    return typer.main.get_command(app)


def kcli(*args: str, environ: dict[str, str | None] | None = None) -> CliResult:
    """`kcli ARGS` in-process (tests.conftest.invoke), building the click command tree once, not per call."""
    return invoke(*args, environ=environ, command=_click_command())


def usage_error(result: CliResult, message: str) -> None:
    """kcli's form of a refused command line: exit 2, Kafka's message as the one stderr line."""
    assert result.code == 2, (result.code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.rstrip("\n").splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0], (message, lines[0])


def runtime_error(result: CliResult, message: str) -> None:
    """A failure the cluster causes: exit 1, Kafka's message in the one stderr line."""
    assert result.code == 1, (result.code, result.stdout, result.stderr)
    lines = result.stderr.rstrip("\n").splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0], (message, lines[0])


@pytest.fixture
def hooks(request: pytest.FixtureRequest) -> Iterator[Callable[[Any, int, Any], None]]:
    """`hooks(sandbox, api_key, hook)` installs a control hook, removed when the test ends."""
    installed: list[tuple[Any, int]] = []

    def install(sandbox: Any, api_key: int, hook: Any) -> None:
        sandbox.control(api_key, hook)
        installed.append((sandbox, api_key))

    yield install
    for sandbox, api_key in reversed(installed):
        sandbox.control(api_key, None)


@pytest.fixture
def recorder(hooks: Any) -> Callable[[Any, int], list[Any]]:
    """`recorder(sandbox, api_key)`: the requests of that key clients send (not broker forwards), in order."""

    def record(sandbox: Any, api_key: int) -> list[Any]:
        seen: list[Any] = []

        async def hook(context: Any, request: Any) -> None:
            if not context.forwarded:
                seen.append(request)
            return None

        hooks(sandbox, api_key, hook)
        return seen

    return record


# Environment for command lines that must get past validation: nothing listens on NOWHERE, and a
# short default.api.timeout.ms makes "cannot connect" arrive fast. Reaching it proves the line parsed.
FAST_FAIL = {"KCLI_DEFAULT_API_TIMEOUT_MS": "1"}


def accepted(result: CliResult) -> None:
    """The command line passed every check and kcli went on to reach the (absent) cluster."""
    assert result.code == 1, (result.code, result.stdout, result.stderr)
    assert "cannot connect to " in result.stderr or "connecting to " in result.stderr, result.stderr
