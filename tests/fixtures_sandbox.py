"""Fixtures that start the kcli sandbox cluster (an emulated KRaft cluster on loopback).

- `sandbox`: one per test session, shared; tests that change state use unique topic/user names.
- `fresh_sandbox`: one per test, for faults and exact-state tests.
- `make_sandbox`: a factory for tests that need other shapes (security, authorizer, sizes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A shared 3-controller, 3-broker plaintext sandbox for the whole session."""
    from kcli.sandbox.emulator import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("sandbox"), controllers=3, brokers=3) as sb:
        yield sb


@pytest.fixture
def fresh_sandbox(tmp_path: Path) -> Iterator[Any]:
    """A 3-controller, 3-broker plaintext sandbox of this test alone."""
    from kcli.sandbox.emulator import Sandbox

    with Sandbox(directory=tmp_path / "sandbox", controllers=3, brokers=3) as sb:
        yield sb


@pytest.fixture
def make_sandbox(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """`make_sandbox(security="sasl_plaintext", authorizer=True, ...)` -> a started Sandbox, stopped after the test."""
    from kcli.sandbox.emulator import Sandbox

    started: list[Any] = []

    def make(**options: Any) -> Any:
        sb = Sandbox(directory=tmp_path / f"sandbox-{len(started)}", **options)
        sb.start()
        started.append(sb)
        return sb

    yield make
    for sb in reversed(started):
        sb.stop()
