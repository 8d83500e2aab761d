"""Lag a CI job can fail on, and lag over time: kcli's additions to `consumer-groups --describe`.

Pure:
- `--fail-on-lag N`: the partitions whose lag exceeds N records; `--fail-on-time-lag D`: those whose
  record at the committed offset is older than D (`30s`, `5m`, `1h`, `2d`, `250ms`, or Java's
  `PT5M`);
- `--watch`: each refresh's lag per group beside the previous one: the change, the rate, the trend.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kcli.errors import UsageError
from kcli.integers import clipped
from kcli.ops.groups.describe import GroupOffsets

_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
_SIMPLE = re.compile(r"([0-9]{1,15})(ms|s|m|h|d)")


def threshold_ms(text: str) -> int:
    """A --fail-on-time-lag duration in ms: `30s`, `5m`, `1h`, `2d`, `250ms`, or ISO-8601 `PT5M`."""
    found = _SIMPLE.fullmatch(text.strip().lower())
    if found is not None:
        return int(found.group(1)) * _UNITS[found.group(2)]
    if text.strip().upper().startswith(("P", "-P", "+P")):
        from kcli.ops.groups.reset_specs import duration_millis

        try:
            value = duration_millis(text.strip())
        except UsageError:
            pass
        else:
            if value >= 0:
                return value
    raise UsageError(
        f"--fail-on-time-lag {clipped(text)!r} is not a duration",
        hint="give a number with a unit (250ms, 30s, 5m, 1h, 2d) or an ISO-8601 duration (PT5M)",
    )


def duration_text(ms: int) -> str:
    """A short human duration: 850ms, 12.5s, 4m05s, 2h03m, 3d04h."""
    if ms < 1000:
        return f"{ms}ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f}s"
    seconds = ms // 1000
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    minutes = seconds // 60
    if minutes < 1440:
        return f"{minutes // 60}h{minutes % 60:02d}m"
    hours = minutes // 60
    return f"{hours // 24}d{hours % 24:02d}h"


@dataclass(frozen=True, slots=True)
class OverLag:
    """A partition over a --fail-on-lag / --fail-on-time-lag threshold."""

    group: str
    topic: str
    partition: int
    lag: int | None
    time_lag_ms: int | None


def over_thresholds(
    groups: Sequence[GroupOffsets], *, records: int | None = None, time_ms: int | None = None
) -> list[OverLag]:
    """The partitions whose lag exceeds `records`, or whose time lag exceeds `time_ms`."""
    out = []
    for group in groups:
        for row in group.rows:
            if row.topic is None or row.partition is None:
                continue
            by_records = records is not None and row.lag is not None and row.lag > records
            by_time = time_ms is not None and row.time_lag_ms is not None and row.time_lag_ms > time_ms
            if by_records or by_time:
                out.append(OverLag(group.group_id, row.topic, row.partition, row.lag, row.time_lag_ms))
    return out


def over_line(over: Sequence[OverLag], *, records: int | None, time_ms: int | None) -> str:
    """The one stderr line that says why --fail-on-lag / --fail-on-time-lag fail the command."""
    worst = max(over, key=lambda o: (o.lag or 0, o.time_lag_ms or 0))
    limits = []
    if records is not None:
        limits.append(f"{records} records")
    if time_ms is not None:
        limits.append(duration_text(time_ms))
    age = f", {duration_text(worst.time_lag_ms)} behind" if worst.time_lag_ms is not None else ""
    groups = len({o.group for o in over})
    return (
        f"{len(over)} partition(s) of {groups} group(s) over the lag threshold ({' or '.join(limits)}); "
        f"the most: group {worst.group} {worst.topic}-{worst.partition} lag {worst.lag}{age}"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Trend:
    """One group's lag in a --watch refresh, beside the refresh before."""

    group: str
    lag: int
    change: int | None  # since the previous refresh (None: the first)
    per_second: float | None
    max_time_lag_ms: int | None = None

    @property
    def direction(self) -> str:
        if self.change is None:
            return ""
        return "growing" if self.change > 0 else "shrinking" if self.change < 0 else "steady"


def trends(groups: Sequence[GroupOffsets], previous: dict[str, int], elapsed_s: float | None) -> list[Trend]:
    """Each group's lag against `previous` (group -> lag at the refresh `elapsed_s` seconds before)."""
    out = []
    for group in groups:
        lag = group.total_lag
        before = previous.get(group.group_id)
        change = None if before is None else lag - before
        rate = None if change is None or not elapsed_s else change / elapsed_s
        out.append(
            Trend(
                group=group.group_id,
                lag=lag,
                change=change,
                per_second=rate,
                max_time_lag_ms=group.max_time_lag_ms,
            )
        )
    return out
