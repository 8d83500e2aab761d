"""Fixtures that start the kcli sandbox cluster (an emulated KRaft cluster on loopback).

- `sandbox`: one per test session, shared; tests that change state use unique topic/user names.
- `fresh_sandbox`: one per test, for faults and exact-state tests.
- `make_sandbox`: a factory for tests that need other shapes (security, authorizer, sizes).
- `engine_sandbox`: parametrized over both engines (the emulator, real Kafka), for the tests that run
  the same `kcli sandbox` commands on either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A shared 3-controller, 3-broker plaintext sandbox for the whole session."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("sandbox"), controllers=3, brokers=3) as sb:
        yield sb


@pytest.fixture
def fresh_sandbox(tmp_path: Path) -> Iterator[Any]:
    """A 3-controller, 3-broker plaintext sandbox of this test alone."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path / "sandbox", controllers=3, brokers=3) as sb:
        yield sb


@pytest.fixture
def make_sandbox(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """`make_sandbox(security="sasl_plaintext", authorizer=True, ...)` -> a started Sandbox, stopped after the test."""
    from kcli.sandbox.emulator.handle import Sandbox

    started: list[Any] = []

    def make(**options: Any) -> Any:
        sb = Sandbox(directory=tmp_path / f"sandbox-{len(started)}", **options)
        sb.start()
        started.append(sb)
        return sb

    yield make
    for sb in reversed(started):
        sb.stop()


@dataclass(frozen=True)
class EngineSandbox:
    """A running sandbox of one engine, reached the way an operator does: `kcli sandbox ... --dir`."""

    engine: str  # "emulator" or "kafka"
    directory: Path
    bootstrap_servers: str
    command_config: Path  # the admin's client settings

    def sandbox(self, *args: str) -> Any:
        """`kcli sandbox ARGS --dir DIR` -> CliResult."""
        from tests.conftest import invoke

        return invoke("sandbox", *args, "--dir", str(self.directory))

    def kcli(self, *args: str) -> Any:
        """A kcli tool against the sandbox's brokers, as its admin."""
        from tests.conftest import invoke

        return invoke(
            *args, "--bootstrap-server", self.bootstrap_servers, "--command-config", str(self.command_config)
        )


@pytest.fixture(
    scope="session",
    params=[
        pytest.param("emulator", marks=pytest.mark.sandbox),
        pytest.param("kafka", marks=[pytest.mark.realkafka, pytest.mark.slow]),
    ],
)
def engine_sandbox(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One sandbox of each engine, of one shape (3 controllers, 3 brokers, SASL_SSL, the authorizer, two
    log dirs), for the tests that run the same `kcli sandbox` commands on both. The emulator's is made
    by `kcli sandbox up --detach`; real Kafka's is the session's `real_kafka` (tests/fixtures_kafka.py),
    shared with every real-Kafka test of the worker, so no cluster starts for these alone. Each test
    leaves the sandbox as it found it."""
    if request.param == "kafka":
        kafka = request.getfixturevalue("real_kafka")
        yield EngineSandbox(
            engine="kafka",
            directory=kafka.directory,
            bootstrap_servers=kafka.bootstrap_servers,
            command_config=kafka.command_config(),
        )
        return
    from tests.conftest import invoke

    directory = tmp_path_factory.mktemp("engine-emulator") / "sandbox"
    up = invoke(
        "sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0",
        "--security", "sasl_ssl", "--authorizer", "--log-dirs", "2", "-o", "json",
    )  # fmt: skip
    assert up.code == 0, up.stderr
    try:
        yield EngineSandbox(
            engine="emulator",
            directory=directory,
            bootstrap_servers=up.json["bootstrap_servers"],
            command_config=directory / "client-admin.properties",
        )
    finally:
        invoke("sandbox", "down", "--dir", str(directory))
