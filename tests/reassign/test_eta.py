"""kcli.ops.reassign.eta: the time --wait shows as left, from the bytes left and the rate of copying."""

from __future__ import annotations

from kcli.ops.reassign.eta import EtaClock, duration_text


def test_the_throttle_bounds_the_estimate_until_copying_is_seen() -> None:
    clock = EtaClock(throttle=10_000_000)
    first = clock.observe(0.0, copied=0, left=60_000_000, receivers=2)
    assert (first.rate, first.seconds, first.from_throttle) == (20_000_000.0, 3.0, True)


def test_the_rate_seen_wins_once_bytes_move() -> None:
    clock = EtaClock(throttle=10_000_000)
    clock.observe(0.0, copied=0, left=100, receivers=1)
    later = clock.observe(2.0, copied=50, left=50, receivers=1)
    assert (later.rate, later.seconds, later.from_throttle) == (25.0, 2.0, False)


def test_the_rate_comes_from_the_last_ten_seconds() -> None:
    clock = EtaClock()
    clock.observe(0.0, copied=0, left=1000, receivers=1)
    clock.observe(5.0, copied=900, left=100, receivers=1)  # a fast start
    clock.observe(15.0, copied=910, left=90, receivers=1)
    slow = clock.observe(16.0, copied=911, left=89, receivers=1)
    assert slow.rate is not None and slow.rate < 2.0  # 11 bytes over the last 11 s, not 911 over 16


def test_no_throttle_and_nothing_copied_is_no_estimate() -> None:
    assert EtaClock().observe(0.0, copied=0, left=10, receivers=1).seconds is None
    assert EtaClock().observe(0.0, copied=0, left=0, receivers=0).seconds == 0.0


def test_durations() -> None:
    assert [duration_text(s) for s in (3.4, 65, 3725)] == ["3s", "1m05s", "1h02m"]
