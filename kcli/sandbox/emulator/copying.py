"""Simulated data copies shared by reassignments and log-dir moves: rates and the ticking task."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from kcli.kafka import ConfigResourceType

log = logging.getLogger("kcli.sandbox")

UNTHROTTLED_RATE = 64 * 1024 * 1024  # bytes/s when no throttle applies
TICK_S = 0.05


@dataclass(slots=True, kw_only=True)
class Copy:
    """Copy progress of one reassigning partition: the leader's bytes when it started, those copied."""

    size: int = 0
    copied: float = 0.0
    credit: float = 0.0  # bytes the throttle allows now (negative: a batch copied on credit)


@dataclass(slots=True, kw_only=True)
class Move:
    """A future replica copying into another log dir of its broker."""

    target: uuid.UUID
    size: int = 0  # the replica's bytes when the move started (0: not known yet)
    copied: float = 0.0
    credit: float = 0.0  # bytes the throttle allows now (negative: a batch copied on credit)


def broker_setting(
    configs: Mapping[tuple[int, str], Mapping[str, str]], broker_id: int, key: str
) -> str | None:
    """A dynamic broker config of one broker: its own value, else the cluster-wide default, else None."""
    for resource in (str(broker_id), ""):
        value = configs.get((ConfigResourceType.BROKER, resource), {}).get(key)
        if value is not None:
            return value
    return None


async def tick_forever(tick: Callable[[float], Awaitable[None]], what: str) -> None:
    """Call tick(seconds since the last call) every TICK_S until cancelled; a failing tick is logged."""
    loop = asyncio.get_running_loop()
    last = loop.time()
    while True:
        await asyncio.sleep(TICK_S)
        now = loop.time()
        elapsed, last = now - last, now
        try:
            await tick(elapsed)
        except Exception:
            log.exception("%s failed", what)
