"""Wait for a condition by polling it until a deadline, instead of sleeping a fixed time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(probe: Callable[[], T], *, timeout: float, what: str, interval: float = 0.05) -> T:
    """Call `probe` until it returns something true; return that, or fail naming `what` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not seen within {timeout} s")
        time.sleep(interval)
