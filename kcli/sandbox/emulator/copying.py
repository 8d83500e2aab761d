"""Simulated data copies shared by reassignments and log-dir moves: rates and the ticking task."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping

from kcli.kafka import ConfigResourceType

log = logging.getLogger("kcli.sandbox")

UNTHROTTLED_RATE = 64 * 1024 * 1024  # bytes/s when no throttle applies
TICK_S = 0.05


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
