"""Blocking library calls (a token endpoint over HTTP, a KDC through GSSAPI) under an asyncio deadline."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

from kcli.client.errors import RequestTimedOut

T = TypeVar("T")


async def run_blocking(call: Callable[[], T], *, timeout: float, what: str, hint: str) -> T:
    """Run `call` in a daemon thread; RequestTimedOut when it has not returned within `timeout` seconds.

    A daemon thread, not the loop's executor: a call stuck on an unanswering server must not keep
    the process from exiting once kcli has reported the timeout.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        outcome: tuple[T | None, BaseException | None]
        try:
            outcome = (call(), None)
        except BaseException as error:
            outcome = (None, error)
        with contextlib.suppress(RuntimeError):  # the loop is gone: kcli gave up on this call long ago
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=work, name=f"kcli {what}", daemon=True).start()
    try:
        return await asyncio.wait_for(asyncio.shield(future), timeout=max(0.0, timeout))
    except TimeoutError:
        raise RequestTimedOut(f"{what} timed out after {round(timeout * 1000)} ms", hint=hint) from None
