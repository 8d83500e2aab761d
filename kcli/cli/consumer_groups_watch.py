"""`kcli consumer-groups --describe --watch`: each group's lag, refreshed, with its trend.

On a terminal a live table (rich) is redrawn in place; otherwise each refresh is one block of lines
(text) or one JSON object per line (-o json), so it can be piped. Ctrl-C or --count ends it.
One client stays connected across refreshes; a refresh that fails is shown and the next one tried.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Sequence
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.groups.lag import Trend


def watch(
    env: Env,
    config: ClientConfig,
    group_ids: Sequence[str] | None,
    *,
    verbose: bool,
    time_lag: bool,
    interval: float,
    count: int | None,
    output: OutputFormat,
) -> None:
    """Refresh every `interval` seconds until Ctrl-C (or `count` refreshes: --count)."""
    import asyncio

    from kcli.render import consumer_groups as view

    live_ui = env.stdout_isatty and output is not OutputFormat.json

    async def loop() -> None:
        seen = 0
        stream = _refreshes(config, group_ids, verbose=verbose, time_lag=time_lag, interval=interval)
        live = None
        if live_ui:
            from rich.live import Live

            from kcli.render import console

            live = Live(console=console(env), auto_refresh=False, transient=False)
            live.start()
        try:
            async for stamp, item in stream:
                if live is not None:
                    live.update(view.watch_table(item, stamp, interval), refresh=True)  # type: ignore[arg-type]
                else:
                    _plain(env, item, stamp, output)
                seen += 1
                if count is not None and seen >= count:
                    break
        finally:
            if live is not None:
                live.stop()
            await stream.aclose()

    try:
        asyncio.run(loop())
    except KeyboardInterrupt:
        return


def _plain(env: Env, item: list[Trend] | KcliError, stamp: str, output: OutputFormat) -> None:
    from kcli.render import consumer_groups as view
    from kcli.render import write_json_line

    if output is OutputFormat.json:
        value: Any = (
            {"time": stamp, "error": item.line()}
            if isinstance(item, KcliError)
            else view.watch_json(item, stamp)
        )
        write_json_line(env, value)
    elif isinstance(item, KcliError):
        env.out(f"{stamp}  refresh failed: {item.line()}")
        env.out()
    else:
        for line in view.watch_lines(item, stamp):
            env.out(line)
        env.out()
    env.stdout.flush()


async def _refreshes(
    config: ClientConfig, group_ids: Sequence[str] | None, *, verbose: bool, time_lag: bool, interval: float
) -> AsyncGenerator[tuple[str, list[Trend] | KcliError], None]:
    """(time, each group's trend, or the refresh's error), every `interval` seconds."""
    import asyncio

    from kcli.client.admin import Admin
    from kcli.ops.groups.consumer_line import View
    from kcli.ops.groups.lag import trends
    from kcli.workflows.groups.consumer import describe_groups

    previous: dict[str, int] = {}
    last: float | None = None
    async with Admin(config) as admin:
        while True:
            started = time.monotonic()
            stamp = time.strftime("%H:%M:%S")
            try:
                described = await describe_groups(
                    admin,
                    group_ids,
                    view=View.OFFSETS,
                    verbose=verbose,
                    timeout_ms=config.default_api_timeout_ms,
                    time_lag=time_lag,
                )
            except KcliError as error:
                yield stamp, error
            else:
                elapsed = None if last is None else started - last
                current = trends(described.groups, previous, elapsed)
                previous = {t.group: t.lag for t in current}
                last = started
                yield stamp, current
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))
