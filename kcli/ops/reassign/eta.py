"""How long a reassignment has left: the bytes still to copy over the rate they are being copied at.

Behavior:
- the rate is what the last WINDOW_S of polls saw copied (bytes copied to the new replicas);
- until copying has been seen, or when it stalls, the bound the throttle sets: --throttle B/s per
  broker, times the brokers receiving replicas (each takes at most that much);
- no rate at all (no throttle, nothing copied yet, or no sizes): no estimate, rather than a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WINDOW_S = 10.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Eta:
    bytes_left: int
    rate: float | None  # bytes per second the estimate uses
    seconds: float | None
    from_throttle: bool = False


@dataclass(slots=True)
class EtaClock:
    """Polls of the copy, kept for the rate; `throttle` is --throttle (B/s per broker, -1: none)."""

    throttle: int = -1
    samples: list[tuple[float, int]] = field(default_factory=list)  # (time, bytes copied so far)

    def observe(self, now: float, copied: int, left: int, receivers: int) -> Eta:
        self.samples.append((now, copied))
        while len(self.samples) > 2 and now - self.samples[1][0] >= WINDOW_S:
            self.samples.pop(0)
        first_t, first_copied = self.samples[0]
        seen = (copied - first_copied) / (now - first_t) if now > first_t and copied > first_copied else 0.0
        if left <= 0:
            return Eta(bytes_left=0, rate=seen or None, seconds=0.0)
        if seen > 0:
            return Eta(bytes_left=left, rate=seen, seconds=left / seen)
        if self.throttle > 0 and receivers > 0:
            cap = float(self.throttle * receivers)
            return Eta(bytes_left=left, rate=cap, seconds=left / cap, from_throttle=True)
        return Eta(bytes_left=left, rate=None, seconds=None)


def duration_text(seconds: float) -> str:
    """`45s`, `3m05s`, `2h10m`."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
